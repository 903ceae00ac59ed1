# Cabeçalhos pré-compilados (HZ_PCH, ligado por padrão).
#
# Quase todo arquivo do curso inclui o nlohmann/json, e todo teste o doctest:
# só ler o nlohmann/json custa uns 3 s de CPU por arquivo, mais que o código
# do próprio arquivo. Com o cabeçalho pré-compilado, ele é lido uma vez por
# grupo de alvos (o .gch ou .pch fica em CMakeFiles/hz_pch_*.dir) e cada
# arquivo só carrega o resultado.
#
# Um cabeçalho pré-compilado só serve a quem compila com as mesmas definições
# (-D): o clang recusa outro conjunto. Por isso há um dono por conjunto — um
# alvo OBJECT vazio, com as definições do grupo — e os alvos do grupo o
# reaproveitam (REUSE_FROM) em vez de compilar o seu:
#   plain    sem definições: hz_common, o núcleo de cada etapa, o hz-course
#   mock     as do hz::mock (cenários, cpp-httplib): o mock, o encanamento das
#            etapas e os executáveis delas
#   testing  as do hz::testing, com o doctest: os testes de cada etapa
# Os executáveis de teste com definições só deles (o do mock, o de common, o
# do hz-course) não usam nenhum: compilados num lote só (HZ_UNITY), eles leem
# os cabeçalhos uma vez, e um cabeçalho pré-compilado próprio custaria mais
# (uns 14 s de CPU o do mock, com o cpp-httplib) do que poupa.
#
# O código continua incluindo o que usa: -DHZ_PCH=OFF compila sem nada disto,
# e a CI faz um build assim (o do fuzzing, fuzz/run.sh), para um #include
# esquecido não passar escondido.
option(HZ_PCH "Cabeçalhos pré-compilados (nlohmann/json, doctest, biblioteca padrão)" ON)

set(HZ_PCH_STD <algorithm> <chrono> <cstdint> <filesystem> <functional> <map> <memory> <optional>
               <sstream> <stdexcept> <string> <string_view> <utility> <vector>)
set(HZ_PCH_PLAIN ${HZ_PCH_STD} <nlohmann/json.hpp>)
set(HZ_PCH_TESTING ${HZ_PCH_PLAIN} <doctest/doctest.h>)

if(HZ_PCH)
  set(hz_pch_empty "${CMAKE_BINARY_DIR}/hz_pch_empty.cpp")
  file(WRITE "${hz_pch_empty}" "// Vazio: o alvo só existe para dono do cabeçalho pré-compilado.\n")
  foreach(group plain mock testing)
    add_library(hz_pch_${group} OBJECT "${hz_pch_empty}")
    # Os mesmos avisos de todo alvo: o -Wpedantic muda as macros predefinidas
    # (__cpp_runtime_arrays), e o g++ deixa de usar um .gch feito sem ele.
    hz_warnings(hz_pch_${group})
  endforeach()
  target_link_libraries(hz_pch_plain PRIVATE nlohmann_json::nlohmann_json)
  target_precompile_headers(hz_pch_plain PRIVATE ${HZ_PCH_PLAIN})
  # As definições do grupo são as que hz_mock e hz_testing passam a quem os
  # usa, lidas na geração (os dois são definidos depois). Ligar com eles
  # faria um ciclo: eles mesmos reaproveitam estes cabeçalhos.
  target_link_libraries(hz_pch_mock PRIVATE nlohmann_json::nlohmann_json hz::httplib)
  target_compile_definitions(hz_pch_mock PRIVATE
    $<TARGET_PROPERTY:hz_mock,INTERFACE_COMPILE_DEFINITIONS>)
  target_precompile_headers(hz_pch_mock PRIVATE ${HZ_PCH_PLAIN})
  target_link_libraries(hz_pch_testing PRIVATE nlohmann_json::nlohmann_json hz::httplib
                                               doctest::doctest)
  target_compile_definitions(hz_pch_testing PRIVATE
    $<TARGET_PROPERTY:hz_testing,INTERFACE_COMPILE_DEFINITIONS>)
  target_precompile_headers(hz_pch_testing PRIVATE ${HZ_PCH_TESTING})
endif()

# hz_pch(alvo GRUPO): o alvo usa o cabeçalho pré-compilado do grupo (plain,
# mock ou testing).
# hz_pch(alvo OWN cabeçalhos...): o alvo compila o seu, com estes cabeçalhos.
function(hz_pch target group)
  if(NOT HZ_PCH)
    return()
  endif()
  if(group STREQUAL "OWN")
    target_precompile_headers(${target} PRIVATE ${ARGN})
  else()
    target_precompile_headers(${target} REUSE_FROM hz_pch_${group})
  endif()
endfunction()

# Build em unidade (HZ_UNITY, ligado por padrão): o CMake junta os .cpp de um
# alvo em lotes e compila cada lote como um arquivo só. O que custa caro num
# teste não é ler os cabeçalhos, é instanciar de novo os mesmos templates
# (nlohmann::json, as comparações do doctest) e gerar o código deles: num lote,
# isso acontece uma vez. Só nos alvos que o aluno não edita: testes,
# bibliotecas de apoio e o núcleo fora da trilha de exercícios (hz_add_stage).
# No núcleo do aluno, salvar um arquivo recompila só ele.
option(HZ_UNITY "Compila testes e bibliotecas de apoio em lotes (unity build)" ON)
# Os testes vão num lote só por alvo (o maior tem 15 arquivos): em dois, o
# mesmo alvo instanciaria os mesmos templates duas vezes. As bibliotecas e o
# núcleo, em lotes de 8 (HZ_UNITY_BATCH).
set(HZ_UNITY_BATCH 8 CACHE STRING "Quantos .cpp por lote no build em unidade (bibliotecas e núcleo)")
set(HZ_UNITY_TEST_BATCH 16 CACHE STRING "Quantos .cpp por lote no build em unidade (testes)")

# hz_unity(alvo [TESTS]): o alvo compila em lotes; TESTS, com os lotes dos testes.
function(hz_unity target)
  if(NOT HZ_UNITY)
    return()
  endif()
  set(batch ${HZ_UNITY_BATCH})
  if("TESTS" IN_LIST ARGN)
    set(batch ${HZ_UNITY_TEST_BATCH})
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${batch})
endfunction()
