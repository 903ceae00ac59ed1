cmake_minimum_required(VERSION 3.22)
# Dois modos.
#
# Descoberta (chamado depois do build de um executável de testes; veja HzTests.cmake):
# lista os TEST_CASEs com o TEST_SUITE de cada um (--list-test-cases em XML) e
# escreve um add_test + rótulos por caso em CTEST_FILE, mais um teste
# "<executável>: cada TEST_CASE tem um nome só" que falha se dois casos têm o
# mesmo nome (o filtro --test-case=NOME rodaria os dois como um teste só).
#
# Conferência (-D HZ_DUPLICATES=<arquivo>): é esse teste. Lê a lista de nomes
# repetidos que a descoberta deixou e falha mostrando cada um.
if(DEFINED HZ_DUPLICATES)
  file(READ "${HZ_DUPLICATES}" repeated)
  if(NOT repeated STREQUAL "")
    message(FATAL_ERROR "dois ou mais TEST_CASEs com o mesmo nome no mesmo executável; "
                        "cada nome precisa ser único (troque um deles):\n${repeated}")
  endif()
  message(STATUS "todos os nomes de TEST_CASE são únicos")
  return()
endif()

execute_process(
  COMMAND "${TEST_EXECUTABLE}" --list-test-cases --reporters=xml
  OUTPUT_VARIABLE xml
  RESULT_VARIABLE result
  WORKING_DIRECTORY "${TEST_WORKING_DIR}")
if(NOT result EQUAL 0)
  message(FATAL_ERROR "não consegui listar os testes de ${TEST_EXECUTABLE} (código ${result}):\n${xml}")
endif()

# Um nome de teste pode ter qualquer caractere. As listas do CMake, não: ";"
# separa elementos (e toda entidade do XML, como &quot;, termina em ";") e "["
# sem "]" junta dois. Enquanto os casos andam em lista, esses três viram
# marcas, e só voltam a ser o que eram na hora de escrever o nome.
function(hz_encode var text)
  string(REPLACE ";" "@hz-sc@" text "${text}")
  string(REPLACE "[" "@hz-lb@" text "${text}")
  string(REPLACE "]" "@hz-rb@" text "${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

function(hz_decode var text)
  string(REPLACE "@hz-sc@" ";" text "${text}")
  string(REPLACE "@hz-lb@" "[" text "${text}")
  string(REPLACE "@hz-rb@" "]" text "${text}")
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
# Guardados codificados, como os nomes vindos do XML.
set(excluded "")
if(TEST_EXCLUDE_FILE AND EXISTS "${TEST_EXCLUDE_FILE}")
  file(READ "${TEST_EXCLUDE_FILE}" exclude_text)
  # Como o XML: &, <, > e aspas escapados; depois, as marcas.
  string(REPLACE "&" "&amp;" exclude_text "${exclude_text}")
  string(REPLACE "\"" "&quot;" exclude_text "${exclude_text}")
  string(REPLACE "<" "&lt;" exclude_text "${exclude_text}")
  string(REPLACE ">" "&gt;" exclude_text "${exclude_text}")
  hz_encode(exclude_text "${exclude_text}")
  string(REPLACE "\n" ";" exclude_lines "${exclude_text}")
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

# O núcleo contra o qual os testes rodam, para o relatório dizer numa falha, e
# onde fica a saída inteira de uma falha que a tela mostra cortada.
set(environment_list "")
if(TEST_OUTPUT_DIR)
  list(APPEND environment_list "HZ_TEST_OUTPUT_DIR=${TEST_OUTPUT_DIR}")
endif()
if(TEST_CORE)
  list(APPEND environment_list "HZ_TEST_CORE=${TEST_CORE}")
endif()
# TEST_TIMEOUT: quantos segundos o ctest espera por um caso antes de matá-lo.
set(timeout "")
if(TEST_TIMEOUT)
  set(timeout " TIMEOUT ${TEST_TIMEOUT}")
endif()
set(environment "")
if(environment_list)
  set(environment " ENVIRONMENT [==[${environment_list}]==]")
endif()

hz_encode(xml "${xml}")
set(script "")
set(seen "")
set(repeated "")
string(REGEX MATCHALL "<TestCase [^>]*>" cases "${xml}")
foreach(case IN LISTS cases)
  if(NOT case MATCHES " name=\"([^\"]*)\"")
    continue()
  endif()
  set(encoded "${CMAKE_MATCH_1}")
  # O doctest escreve ' como &apos; ou não, conforme a versão: compara sem isso.
  string(REPLACE "&apos@hz-sc@" "'" encoded "${encoded}")
  if("${encoded}" IN_LIST excluded)
    continue()
  endif()
  hz_decode(name "${encoded}")
  if("${encoded}" IN_LIST seen)
    string(APPEND repeated "  ${name}\n")
    continue()
  endif()
  list(APPEND seen "${encoded}")
  set(labels ${base_labels})
  if(case MATCHES " testsuite=\"([^\"]*)\"")
    hz_decode(suite "${CMAKE_MATCH_1}")
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
  # Argumentos entre [==[ e ]==] chegam ao ctest como estão, ";" incluído.
  string(APPEND script
         "add_test([==[${test}]==] \"${TEST_EXECUTABLE}\" [==[--test-case=${filter}]==])\n"
         "set_tests_properties([==[${test}]==] PROPERTIES WORKING_DIRECTORY \"${TEST_WORKING_DIR}\" "
         "LABELS [==[${labels}]==]${environment}${timeout})\n")
endforeach()

get_filename_component(exe "${TEST_EXECUTABLE}" NAME_WE)
set(duplicates_file "${CTEST_FILE}.repetidos")
file(WRITE "${duplicates_file}" "${repeated}")
if(NOT repeated STREQUAL "")
  message(WARNING "${exe}: TEST_CASEs com o mesmo nome (o teste \"${exe}: cada TEST_CASE "
                  "tem um nome só\" vai falhar):\n${repeated}")
endif()
set(unique_test "${exe}: cada TEST_CASE tem um nome só")
string(APPEND script
       "add_test([==[${unique_test}]==] \"${CMAKE_COMMAND}\" -D [==[HZ_DUPLICATES=${duplicates_file}]==] "
       "-P [==[${CMAKE_CURRENT_LIST_FILE}]==])\n"
       "set_tests_properties([==[${unique_test}]==] PROPERTIES LABELS test-names)\n")
file(WRITE "${CTEST_FILE}" "${script}")
