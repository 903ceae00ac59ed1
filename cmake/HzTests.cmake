# hz_discover_tests(alvo LABELS rótulo... [PREFIX prefixo] [CORE trilha/etapa])
#
# Registra no ctest cada TEST_CASE do executável de testes `alvo` (depois de
# cada build, como o doctest_discover_tests), com os rótulos dados mais o
# TEST_SUITE do caso. Os testes de um exercício ficam num
# TEST_SUITE("01-loop/dispatch"), então
#   ctest -L '^01-loop/dispatch$'
# roda só os testes desse exercício (o ./hz test 01-loop/dispatch faz isso).
# -L é uma expressão regular: ancore com ^ e $.
# CORE ("exercises/02-brakes") diz contra que núcleo os testes rodam: vai para
# o ambiente de cada teste (HZ_TEST_CORE), e uma falha o mostra no fim.
# HZ_TEST_OUTPUT_DIR (build*/test-output/), também no ambiente de cada teste,
# é onde a saída inteira de um teste que falhou fica quando a da tela foi
# cortada (common/testing/src/doctest_main.cpp).
set(HZ_DISCOVER_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/HzDiscoverTests.cmake")

function(hz_discover_tests target)
  cmake_parse_arguments(arg "" "PREFIX;EXCLUDE_FILE;STAGE;CORE" "LABELS" ${ARGN})
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
            -D "TEST_EXCLUDE_FILE=${arg_EXCLUDE_FILE}"
            -D "TEST_STAGE=${arg_STAGE}"
            -D "TEST_CORE=${arg_CORE}"
            -D "TEST_OUTPUT_DIR=${CMAKE_BINARY_DIR}/test-output"
            -D "TEST_TIMEOUT=${HZ_TEST_TIMEOUT}"
            -D "CTEST_FILE=${tests_file}"
            -P "${HZ_DISCOVER_SCRIPT}"
    VERBATIM)
  # O POST_BUILD só roda quando o executável é religado: uma mudança no
  # script de descoberta também religa.
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${HZ_DISCOVER_SCRIPT}")
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

# hz_stage_tests(ETAPA CORE arquivos... CLI arquivos...)
#
# O executável hz-tests-ETAPA com todos os testes da etapa, rotulados ETAPA.
# Os testes do núcleo (CORE: os que não rodam o executável da etapa pelo nome)
# ficam registrados para que cada etapa seguinte os compile de novo contra o
# SEU núcleo: é a prova de que ela estende esta (hz_earlier_stage_tests), que
# só o build de quem mantém o curso faz (HZ_MAINTAINER).
function(hz_stage_tests stage)
  cmake_parse_arguments(arg "" "" "CORE;CLI" ${ARGN})
  set(target hz-tests-${stage})
  add_executable(${target} ${arg_CORE} ${arg_CLI})
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${target} PRIVATE ${HZ_STAGE_CORE} hz::testing hz::doctest_main)
  hz_warnings(${target})
  hz_test_code(${target})
  hz_pch(${target} testing)
  hz_unity(${target} TESTS)
  # Os testes de ponta a ponta rodam build/bin/hz-ETAPA, mas não há
  # add_dependencies com ele: quem compila os testes pede os dois alvos
  # (./hz, .ci/run), e os dois se ligam ao mesmo tempo. Com a dependência, a
  # ligação dos testes esperava a do executável, 0,3 s a mais a cada teste de
  # um exercício.
  # Testes ocultos do professor: grading/tests/ETAPA/*.cpp existe só na cópia
  # de correção dele (./hz export nunca leva grading/). Entram neste
  # executável, com o rótulo da etapa, e contam na nota do ./hz grade.
  file(GLOB hidden CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/grading/tests/${stage}/*.cpp)
  if(hidden)
    target_sources(${target} PRIVATE ${hidden})
    # Fora dos lotes do build em unidade: um ajudante do professor com o nome
    # de um dos nossos não pode colidir com ele.
    set_source_files_properties(${hidden} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    list(LENGTH hidden count)
    message(STATUS "Etapa ${stage}: ${count} arquivo(s) de testes ocultos em grading/tests/${stage}/")
  endif()
  hz_discover_tests(${target} LABELS ${stage} CORE ${HZ_STAGE_TRACK}/${stage})
  set(core "")
  foreach(file IN LISTS arg_CORE)
    list(APPEND core ${CMAKE_CURRENT_SOURCE_DIR}/${file})
  endforeach()
  set_property(GLOBAL PROPERTY HZ_CORE_TESTS_${stage} "${core}")
  set_property(GLOBAL PROPERTY HZ_TESTS_DIR_${stage} "${CMAKE_CURRENT_SOURCE_DIR}")
endfunction()

# hz_earlier_stage_tests(ETAPA ANTERIORES...)
#
# Para cada etapa anterior E: hz-tests-E-na-ETAPA, os testes do núcleo de E
# compilados contra o núcleo de ETAPA, rotulados ETAPA (e com o TEST_SUITE de
# cada caso, como sempre). Um teste que a etapa muda de propósito fica de fora
# com o motivo em tests/E/not-on-later-stages.txt ("<teste> | <etapa> | <motivo>":
# não vale a partir de <etapa>).
#
# Só com HZ_MAINTAINER e HZ_EARLIER_STAGE_TESTS (a CI liga os dois no build da
# prova, e compila essas cópias uma vez só): no build de um aluno, cada teste roda uma
# vez, contra o núcleo da própria etapa, e ./hz test 02-brakes/call-cost roda
# os testes desse exercício e nada mais. Cópias contra os stubs de uma etapa
# seguinte diriam "não implementado" de um exercício já feito.
function(hz_earlier_stage_tests stage)
  if(NOT HZ_MAINTAINER OR NOT HZ_EARLIER_STAGE_TESTS)
    return()
  endif()
  foreach(earlier IN LISTS ARGN)
    get_property(core GLOBAL PROPERTY HZ_CORE_TESTS_${earlier})
    get_property(dir GLOBAL PROPERTY HZ_TESTS_DIR_${earlier})
    if(NOT core)
      continue()
    endif()
    set(target hz-tests-${earlier}-na-${stage})
    add_executable(${target} ${core})
    target_include_directories(${target} PRIVATE ${dir})
    target_link_libraries(${target} PRIVATE ${HZ_STAGE_CORE} hz::testing hz::doctest_main)
    hz_warnings(${target})
    hz_test_code(${target})
    hz_pch(${target} testing)
    hz_unity(${target} TESTS)
    add_dependencies(hz-tests-${stage} ${target})
    hz_discover_tests(${target} LABELS ${stage} earlier-stages PREFIX "[${earlier}] "
                      EXCLUDE_FILE ${dir}/not-on-later-stages.txt STAGE ${stage}
                      CORE ${HZ_STAGE_TRACK}/${stage})
  endforeach()
endfunction()
