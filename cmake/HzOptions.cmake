# Opções do curso: avisos, sanitizers e a escolha da trilha por etapa.

option(HZ_WERROR "Avisos viram erros (a CI liga)" OFF)
option(HZ_SANITIZE "Compila com AddressSanitizer + UndefinedBehaviorSanitizer" OFF)
option(HZ_MAINTAINER "Registra no ctest as conferências de quem mantém o curso (a CI liga)" OFF)
option(HZ_EARLIER_STAGE_TESTS
       "Com HZ_MAINTAINER: os testes do núcleo de cada etapa também contra o núcleo das seguintes"
       ON)

# HZ_TRACK: de onde vem o núcleo de cada etapa.
#   solutions  a solução de referência (padrão quando existe solutions/)
#   exercises  os exercícios, com os trechos do aluno como stubs (padrão na
#              cópia exportada para alunos, que não tem solutions/: ./hz export)
#   proof      a prova da CI: a solução com um throw antes de cada resposta,
#              ligado por HZ_STUB=<id> (gerada por hz-course exercises
#              --proof-out em HZ_PROOF_DIR)
if(EXISTS "${PROJECT_SOURCE_DIR}/solutions")
  set(hz_default_track "solutions")
else()
  set(hz_default_track "exercises")
endif()
set(HZ_TRACK "${hz_default_track}" CACHE STRING "Trilha das etapas: solutions ou exercises")
set_property(CACHE HZ_TRACK PROPERTY STRINGS solutions exercises proof)
set(HZ_PROOF_DIR "${CMAKE_BINARY_DIR}/proof-src" CACHE PATH "Onde está o núcleo da trilha proof")

# Bibliotecas estáticas finas (ar T): o .a guarda só os caminhos dos .o, e
# não uma cópia deles. Salvar um arquivo do núcleo refaz a biblioteca da
# etapa: com a cópia, 0,29 s de ar e ranlib a cada teste; fina, 0,09 s.
# Nada aqui instala um .a (cmake/HzInstall.cmake instala só o hz-mock). Só
# com o ar do GNU ou do LLVM, que conhecem o T.
execute_process(COMMAND "${CMAKE_AR}" --version OUTPUT_VARIABLE hz_ar_version ERROR_QUIET)
if(hz_ar_version MATCHES "GNU ar|LLVM")
  set(CMAKE_CXX_ARCHIVE_CREATE "<CMAKE_AR> qcT <TARGET> <LINK_FLAGS> <OBJECTS>")
  set(CMAKE_CXX_ARCHIVE_APPEND "<CMAKE_AR> qT <TARGET> <LINK_FLAGS> <OBJECTS>")
endif()

# O coletor de lixo do g++ começa a varrer a memória dele a partir de 128 MB;
# um lote de testes aloca mais de 1 GB ao longo da compilação e passa boa parte
# do tempo varrendo. Com a primeira varredura em 512 MB e as seguintes a cada
# vez que a memória quadruplica, o lote dos testes de common/ leva 7% a 14%
# menos CPU (e chega a 1,1 GB de memória, em vez de 0,8 GB). Não muda o código
# gerado (veja "ggc-min-heapsize" no manual do GCC). O clang não tem isso.
add_compile_options("$<$<CXX_COMPILER_ID:GNU>:--param=ggc-min-expand=300>"
                    "$<$<CXX_COMPILER_ID:GNU>:--param=ggc-min-heapsize=524288>")

# Aplica avisos (e -Werror, se pedido) a um alvo nosso.
function(hz_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                                           -Wnon-virtual-dtor -Wold-style-cast)
  if(HZ_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# No build Debug, só a tabela de linhas (-g1) num alvo que o aluno não depura
# passo a passo: os testes, o mock, o hz-course e o hz-doctor. Uma pilha do
# gdb ou de um sanitizer continua com arquivo e linha; some só a descrição
# das variáveis, e com ela um quinto da CPU de compilar esses alvos, que são
# mais da metade do build de um ./hz test novo (medido com ./hz bench build).
# O núcleo de cada etapa, o executável dela, common/ e etapas/support/, que
# o aluno percorre no depurador, continuam com -g inteiro.
function(hz_line_tables target)
  target_compile_options(${target} PRIVATE $<$<CONFIG:Debug>:-g1>)
endfunction()

# O código de teste (hz_testing, o main do doctest, os executáveis de teste):
# -g1 no Debug, como acima, e -O0 num build otimizado (o -O2 da CI). Otimizar
# as expansões do doctest não serve a ninguém e custa o dobro da CPU: um lote
# dos testes da etapa 02 leva 18,9 s com -O2 e 8,6 s com -O0. O -O2 (e os
# avisos que só ele dá) continua valendo para o que os testes testam.
function(hz_test_code target)
  hz_line_tables(${target})
  target_compile_options(${target} PRIVATE $<$<NOT:$<CONFIG:Debug>>:-O0>)
endfunction()

# Um exercício com um laço sem fim (um while no lugar do for do turno) deixaria
# o teste rodando até o padrão do ctest, 1500 s, com a memória crescendo: o
# ctest o mata antes e a falha diz "Timeout". Os testes levam menos de 1 s; os
# presets com sanitizer, muito mais lentos, dão mais tempo.
set(HZ_TEST_TIMEOUT 60 CACHE STRING "Segundos que um caso de teste pode rodar antes de o ctest o matar")
option(HZ_TSAN "Compila com ThreadSanitizer (preset tsan)" OFF)
option(HZ_FUZZ "Compila os alvos de fuzzing de fuzz/ (libFuzzer; só com clang)" OFF)
if((HZ_SANITIZE AND HZ_TSAN) OR (HZ_FUZZ AND HZ_TSAN))
  message(FATAL_ERROR "HZ_TSAN não combina com HZ_SANITIZE nem com HZ_FUZZ: "
                      "o ThreadSanitizer não roda junto com o AddressSanitizer")
endif()

if(HZ_SANITIZE OR HZ_FUZZ)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# O ThreadSanitizer só vê o que foi compilado com ele: o cpp-httplib e o
# libcurl do Debian são bibliotecas já compiladas, sem instrumentação (uma
# corrida dentro delas passa em silêncio). Veja tests/tsan.supp.
if(HZ_TSAN)
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
endif()

# Fuzzing: todo o código ganha a cobertura que guia o libFuzzer
# (fuzzer-no-link); só os alvos de fuzz/ linkam o main dele (-fsanitize=fuzzer).
if(HZ_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "HZ_FUZZ pede o clang (o libFuzzer vem com ele): "
                        "-DCMAKE_CXX_COMPILER=clang++ (Debian: clang e libclang-rt-14-dev)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

# O ligador: o lld (do pacote lld, quando instalado) liga um executável de
# teste da etapa 04 em 0,17 s, o gold (do binutils, já instalado com o g++) em
# 0,33 s e o ld padrão em 0,8 s, e todo "salvei, rodei" de um exercício liga
# dois. -DHZ_FAST_LD=OFF volta ao padrão. Nos builds com sanitizers, não: um
# executável com TSan ligado pelo gold morre ao iniciar (SIGBUS) sob um limite
# de tamanho de arquivo (ulimit -f), que um teste da etapa 04 usa para o disco
# recusar um registro.
option(HZ_FAST_LD "Liga com o lld ou o gold (-fuse-ld=...) quando existem" ON)
if(HZ_FAST_LD AND CMAKE_CXX_COMPILER_LOADED AND NOT (HZ_SANITIZE OR HZ_TSAN OR HZ_FUZZ))
  include(CheckLinkerFlag)
  check_linker_flag(CXX -fuse-ld=lld HZ_HAS_LLD)
  check_linker_flag(CXX -fuse-ld=gold HZ_HAS_GOLD)
  if(HZ_HAS_LLD)
    add_link_options(-fuse-ld=lld)
  elseif(HZ_HAS_GOLD)
    add_link_options(-fuse-ld=gold)
  endif()
endif()

# hz_add_stage(01-loop): escolhe a trilha da etapa (HZ_TRACK_01_LOOP, ou
# HZ_TRACK se vazia), compila o núcleo <trilha>/01-loop como a biblioteca
# hz_01_loop_core, depois etapas/01-loop (o executável) e tests/01-loop.
function(hz_add_stage stage)
  string(TOUPPER "${stage}" upper)
  string(REPLACE "-" "_" upper "${upper}")
  string(TOLOWER "${upper}" lower)
  set(HZ_TRACK_${upper} "" CACHE STRING
      "Trilha da etapa ${stage} (vazio: usa HZ_TRACK)")
  set(track "${HZ_TRACK_${upper}}")
  if(track STREQUAL "")
    set(track "${HZ_TRACK}")
  endif()
  if(NOT track MATCHES "^(solutions|exercises|proof)$")
    message(FATAL_ERROR "Trilha inválida para ${stage}: '${track}' (use solutions ou exercises)")
  endif()
  if(track STREQUAL "solutions" AND NOT EXISTS "${PROJECT_SOURCE_DIR}/solutions/${stage}")
    message(FATAL_ERROR "A trilha solutions foi pedida para ${stage}, mas "
                        "${PROJECT_SOURCE_DIR}/solutions/${stage} não existe (esta cópia do "
                        "curso não tem as soluções?). Use -DHZ_TRACK=exercises ou apague "
                        "o build e configure de novo sem -DHZ_TRACK.")
  endif()
  message(STATUS "Etapa ${stage}: trilha ${track}")
  # O ./hz lê daqui a trilha de verdade de cada etapa (um -DHZ_TRACK_01_LOOP=...
  # manda mais que o HZ_TRACK).
  file(APPEND "${CMAKE_BINARY_DIR}/hz-tracks.txt" "${stage} ${track}\n")

  # Lidas pelos CMakeLists das pastas abaixo.
  set(HZ_STAGE "${stage}")
  set(HZ_STAGE_CORE "hz_${lower}_core")
  set(HZ_STAGE_TRACK "${track}")
  if(track STREQUAL "proof")
    set(core_dir "${HZ_PROOF_DIR}/${stage}")
    if(NOT EXISTS "${core_dir}/CMakeLists.txt")
      message(FATAL_ERROR "A trilha proof precisa de ${core_dir}: rode antes "
                          "hz-course exercises --root ${PROJECT_SOURCE_DIR} --proof-out ${HZ_PROOF_DIR}")
    endif()
  else()
    set(core_dir "${PROJECT_SOURCE_DIR}/${track}/${stage}")
  endif()
  add_subdirectory(${core_dir} ${CMAKE_BINARY_DIR}/core/${stage})
  # Aqui, e não no CMakeLists.txt do núcleo: esse é o do aluno, igual nas duas
  # trilhas. Em lotes só onde ninguém faz os exercícios; na trilha de
  # exercícios, salvar um arquivo do núcleo recompila só esse arquivo, e é lá
  # que o cabeçalho pré-compilado poupa (cada arquivo leria o nlohmann/json).
  if(track STREQUAL "exercises" OR NOT HZ_UNITY)
    hz_pch(${HZ_STAGE_CORE} plain)
  else()
    hz_unity(${HZ_STAGE_CORE})
  endif()
  if(NOT track STREQUAL "solutions")
    # Como nos capítulos intermediários de Crafting Interpreters: o código de
    # um exercício ainda por fazer deixa parâmetros e ajudantes sem uso, e isso
    # não é defeito de ninguém. Só nesta trilha os avisos de "sem uso" calam.
    target_compile_options(${HZ_STAGE_CORE} PRIVATE
      -Wno-unused-parameter -Wno-unused-function -Wno-unused-variable
      -Wno-unused-but-set-variable -Wno-unused-local-typedefs
      $<$<CXX_COMPILER_ID:Clang>:-Wno-unused-private-field -Wno-unused-lambda-capture
                                 -Wno-unused-member-function -Wno-unneeded-internal-declaration>)
  endif()
  add_subdirectory(${PROJECT_SOURCE_DIR}/etapas/${stage} ${CMAKE_BINARY_DIR}/etapas/${stage})
  if(BUILD_TESTING)
    add_subdirectory(${PROJECT_SOURCE_DIR}/tests/${stage} ${CMAKE_BINARY_DIR}/tests/${stage})
    # Os testes do núcleo das etapas anteriores, contra o núcleo desta.
    get_property(earlier GLOBAL PROPERTY HZ_STAGES_SO_FAR)
    hz_earlier_stage_tests(${stage} ${earlier})
    set_property(GLOBAL APPEND PROPERTY HZ_STAGES_SO_FAR ${stage})
  endif()
endfunction()
