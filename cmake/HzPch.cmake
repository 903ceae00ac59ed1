# Cabeçalhos pré-compilados (HZ_PCH, ligado por padrão).
#
# Quase todo arquivo do curso inclui o nlohmann/json, e todo teste o doctest:
# só ler o nlohmann/json custa uns 3 s de CPU por arquivo, mais que o código
# do próprio arquivo. Com o cabeçalho pré-compilado, ele é lido uma vez por
# grupo de alvos (o .gch ou .pch fica em CMakeFiles/hz_pch_*.dir) e cada
# arquivo só carrega o resultado.
#
# O plain leva também hz/json_instance.hpp: o json já instanciado uma vez, na
# biblioteca hz_json_instance, em vez de em cada arquivo do aluno.
#
# Um cabeçalho pré-compilado só serve a quem compila com as mesmas definições
# (-D): o clang recusa outro conjunto. Por isso há dois, cada um com um dono:
#   plain    sem definições: o núcleo de cada etapa compilado arquivo por
#            arquivo (a trilha de exercícios, em que salvar um arquivo
#            recompila só ele). O dono é um alvo OBJECT vazio, criado só
#            quando alguém o usa;
#   testing  as do hz::testing, com o doctest: o próprio hz_testing é o dono,
#            e os testes de cada etapa o reaproveitam (REUSE_FROM).
# O que compila em lotes (HZ_UNITY: bibliotecas, o núcleo fora da trilha de
# exercícios) não usa nenhum: um lote lê os cabeçalhos uma vez só, e compilar
# o .gch custa mais (uns 9 s de CPU) do que ele poupa. Medido: o primeiro
# ./hz demo leva 10 s a menos sem ele. Os executáveis de teste com definições
# só deles (o do mock, o de common, o do hz-course) também compilam sem.
#
# O código continua incluindo o que usa: -DHZ_PCH=OFF compila sem nada disto,
# e a CI compila assim, arquivo por arquivo, o núcleo de cada etapa na trilha
# de exercícios, para um #include esquecido não passar escondido (o fuzz/run.sh
# também compila assim, fora da CI).
option(HZ_PCH "Cabeçalhos pré-compilados (nlohmann/json, doctest, biblioteca padrão)" ON)

set(HZ_PCH_STD <algorithm> <chrono> <cstdint> <filesystem> <functional> <map> <memory> <optional>
               <sstream> <stdexcept> <string> <string_view> <utility> <vector>)
set(HZ_PCH_PLAIN ${HZ_PCH_STD} <nlohmann/json.hpp>)
set(HZ_PCH_TESTING ${HZ_PCH_PLAIN} <doctest/doctest.h>)
set(HZ_PCH_CORE_COMMON wire.hpp result.hpp text.hpp chat_client.hpp tools.hpp trace.hpp)

# hz_pch(alvo plain): o alvo usa o cabeçalho pré-compilado sem definições.
# hz_pch(alvo testing): o do hz_testing (o alvo liga com hz::testing).
# hz_pch(alvo OWN cabeçalhos...): o alvo compila o seu, com estes cabeçalhos.
# hz_pch(hz_testing OWNER): o hz_testing compila o do grupo testing.
function(hz_pch target group)
  if(NOT HZ_PCH)
    return()
  endif()
  if(group STREQUAL "OWN")
    target_precompile_headers(${target} PRIVATE ${ARGN})
  elseif(group STREQUAL "OWNER")
    target_precompile_headers(${target} PRIVATE ${HZ_PCH_TESTING})
  elseif(group STREQUAL "testing")
    target_precompile_headers(${target} REUSE_FROM hz_testing)
  elseif(group STREQUAL "plain")
    if(NOT TARGET hz_pch_plain)
      set(empty "${CMAKE_BINARY_DIR}/hz_pch_empty.cpp")
      file(WRITE "${empty}" "// Vazio: o alvo só existe para dono do cabeçalho pré-compilado.\n")
      add_library(hz_pch_plain OBJECT "${empty}")
      # Os mesmos avisos de todo alvo: o -Wpedantic muda as macros predefinidas
      # (__cpp_runtime_arrays), e o g++ deixa de usar um .gch feito sem ele.
      hz_warnings(hz_pch_plain)
      target_link_libraries(hz_pch_plain PRIVATE nlohmann_json::nlohmann_json)
      # Mais os cabeçalhos de common/ que todo núcleo inclui, e o aluno não
      # edita: o agent_loop.cpp da etapa 02 compila em 1,5 s de CPU em vez de
      # 2,0 s (medido em 6 de dezembro de 2026). Os de cada etapa não entram:
      # mudam de uma etapa para a outra, e o aluno os edita.
      set(common "${PROJECT_SOURCE_DIR}/common/include")
      target_include_directories(hz_pch_plain PRIVATE "${common}")
      list(TRANSFORM HZ_PCH_CORE_COMMON PREPEND "${common}/hz/" OUTPUT_VARIABLE core_headers)
      target_precompile_headers(hz_pch_plain PRIVATE ${HZ_PCH_PLAIN} <atomic> <random>
                                "${common}/hz/json_instance.hpp" ${core_headers})
      # Os membros do json que o cabeçalho acima declara extern: uma biblioteca
      # só deles, que todo alvo que reaproveita este cabeçalho pré-compilado liga.
      add_library(hz_json_instance STATIC "${PROJECT_SOURCE_DIR}/common/src/json_instance.cpp")
      target_include_directories(hz_json_instance PRIVATE "${PROJECT_SOURCE_DIR}/common/include")
      target_link_libraries(hz_json_instance PUBLIC nlohmann_json::nlohmann_json)
      hz_warnings(hz_json_instance)
    endif()
    target_precompile_headers(${target} REUSE_FROM hz_pch_plain)
    target_link_libraries(${target} PUBLIC hz_json_instance)
  else()
    message(FATAL_ERROR "hz_pch: grupo desconhecido ${group}")
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
# núcleo também (HZ_UNITY_BATCH, 16): o núcleo da etapa 04 em dois lotes
# custava 27 s de CPU, em um, 22 s.
set(HZ_UNITY_BATCH 16 CACHE STRING "Quantos .cpp por lote no build em unidade (bibliotecas e núcleo)")
set(HZ_UNITY_TEST_BATCH 16 CACHE STRING "Quantos .cpp por lote no build em unidade (testes)")

# hz_unity(alvo [TESTS] [BATCH n]): o alvo compila em lotes; TESTS, com o
# tamanho de lote dos testes; BATCH, com n arquivos por lote.
function(hz_unity target)
  if(NOT HZ_UNITY)
    return()
  endif()
  cmake_parse_arguments(arg "TESTS" "BATCH" "" ${ARGN})
  set(batch ${HZ_UNITY_BATCH})
  if(arg_TESTS)
    set(batch ${HZ_UNITY_TEST_BATCH})
  endif()
  if(arg_BATCH)
    set(batch ${arg_BATCH})
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${batch})
endfunction()
