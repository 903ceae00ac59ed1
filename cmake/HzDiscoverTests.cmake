cmake_minimum_required(VERSION 3.22)
# Chamado depois do build de um executável de testes (veja HzTests.cmake):
# lista os TEST_CASEs com o TEST_SUITE de cada um (--list-test-cases em XML)
# e escreve um add_test + rótulos por caso em CTEST_FILE.
execute_process(
  COMMAND "${TEST_EXECUTABLE}" --list-test-cases --reporters=xml
  OUTPUT_VARIABLE xml
  RESULT_VARIABLE result
  WORKING_DIRECTORY "${TEST_WORKING_DIR}")
if(NOT result EQUAL 0)
  message(FATAL_ERROR "não consegui listar os testes de ${TEST_EXECUTABLE} (código ${result}):\n${xml}")
endif()

function(xml_unescape var text)
  string(REPLACE "&quot;" "\"" text "${text}")
  string(REPLACE "&apos;" "'" text "${text}")
  string(REPLACE "&lt;" "<" text "${text}")
  string(REPLACE "&gt;" ">" text "${text}")
  string(REPLACE "&amp;" "&" text "${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

string(REPLACE "," ";" base_labels "${TEST_LABELS}")

# Testes de uma etapa anterior que esta etapa muda de propósito:
# "<nome do teste> | <etapa a partir da qual não vale> | <motivo>".
set(excluded "")
if(TEST_EXCLUDE_FILE AND EXISTS "${TEST_EXCLUDE_FILE}")
  file(STRINGS "${TEST_EXCLUDE_FILE}" exclude_lines)
  foreach(line IN LISTS exclude_lines)
    if(line MATCHES "^[ \t]*#" OR NOT line MATCHES "^(.*[^ ])[ ]*\\|[ ]*([0-9][0-9]-[a-z0-9-]+)[ ]*\\|(.*)$")
      continue()
    endif()
    set(name "${CMAKE_MATCH_1}")
    set(from "${CMAKE_MATCH_2}")
    if(NOT TEST_STAGE STRLESS from)
      list(APPEND excluded "${name}")
    endif()
  endforeach()
endif()
set(script "")
string(REGEX MATCHALL "<TestCase [^>]*>" cases "${xml}")
foreach(case IN LISTS cases)
  if(NOT case MATCHES " name=\"([^\"]*)\"")
    continue()
  endif()
  xml_unescape(name "${CMAKE_MATCH_1}")
  if("${name}" IN_LIST excluded)
    continue()
  endif()
  set(labels ${base_labels})
  if(case MATCHES " testsuite=\"([^\"]*)\"")
    xml_unescape(suite "${CMAKE_MATCH_1}")
    list(APPEND labels "${suite}")
  endif()
  # O filtro do doctest trata "," como separador e "*" "?" como curingas.
  string(REPLACE "," "\\," filter "${name}")
  # O cmake -D apara espaços no fim do valor: o espaço depois de "[01-loop]" volta aqui.
  if(TEST_PREFIX)
    set(test "${TEST_PREFIX} ${name}")
  else()
    set(test "${name}")
  endif()
  string(APPEND script
         "add_test([==[${test}]==] \"${TEST_EXECUTABLE}\" [==[--test-case=${filter}]==])\n"
         "set_tests_properties([==[${test}]==] PROPERTIES WORKING_DIRECTORY \"${TEST_WORKING_DIR}\" "
         "LABELS [==[${labels}]==])\n")
endforeach()
file(WRITE "${CTEST_FILE}" "${script}")
