# hz_discover_tests(alvo LABELS rótulo... [PREFIX prefixo])
#
# Registra no ctest cada TEST_CASE do executável de testes `alvo` (depois de
# cada build, como o doctest_discover_tests), com os rótulos dados mais o
# TEST_SUITE do caso. Os testes de um exercício ficam num
# TEST_SUITE("01-loop/dispatch"), então
#   ctest -L '^01-loop/dispatch$'
# roda só os testes desse exercício (o ./hz test 01-loop/dispatch faz isso).
# -L é uma expressão regular: ancore com ^ e $.
set(HZ_DISCOVER_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/HzDiscoverTests.cmake")

function(hz_discover_tests target)
  cmake_parse_arguments(arg "" "PREFIX" "LABELS" ${ARGN})
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_include.cmake")
  set(tests_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_tests.cmake")
  string(REPLACE ";" "," labels "${arg_LABELS}")
  add_custom_command(
    TARGET ${target} POST_BUILD
    BYPRODUCTS "${tests_file}"
    COMMAND "${CMAKE_COMMAND}"
            -D "TEST_EXECUTABLE=$<TARGET_FILE:${target}>"
            -D "TEST_WORKING_DIR=${CMAKE_CURRENT_BINARY_DIR}"
            -D "TEST_LABELS=${labels}"
            -D "TEST_PREFIX=${arg_PREFIX}"
            -D "CTEST_FILE=${tests_file}"
            -P "${HZ_DISCOVER_SCRIPT}"
    VERBATIM)
  # Sem o executável compilado, um teste que falha diz o que falta (com os
  # rótulos, para aparecer no ctest -L da etapa).
  file(WRITE "${include_file}"
       "if(EXISTS \"${tests_file}\")\n"
       "  include(\"${tests_file}\")\n"
       "else()\n"
       "  add_test([=[${target} não foi compilado]=] ${target}_NAO_COMPILADO)\n"
       "  set_tests_properties([=[${target} não foi compilado]=] PROPERTIES LABELS \"${arg_LABELS}\")\n"
       "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()
