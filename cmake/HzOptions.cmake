# Opções do curso: avisos, sanitizers e a escolha da trilha por etapa.

option(HZ_WERROR "Avisos viram erros (a CI liga)" OFF)
option(HZ_SANITIZE "Compila com AddressSanitizer + UndefinedBehaviorSanitizer" OFF)

# HZ_TRACK: de onde vem o núcleo de cada etapa.
#   solutions  a solução de referência (padrão quando existe solutions/)
#   exercises  os exercícios, com os trechos do aluno como stubs (padrão na
#              cópia exportada para alunos, que não tem solutions/: ./hz export)
if(EXISTS "${PROJECT_SOURCE_DIR}/solutions")
  set(hz_default_track "solutions")
else()
  set(hz_default_track "exercises")
endif()
set(HZ_TRACK "${hz_default_track}" CACHE STRING "Trilha das etapas: solutions ou exercises")
set_property(CACHE HZ_TRACK PROPERTY STRINGS solutions exercises)

# Aplica avisos (e -Werror, se pedido) a um alvo nosso.
function(hz_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                                           -Wnon-virtual-dtor -Wold-style-cast)
  if(HZ_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

if(HZ_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
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
  if(NOT track MATCHES "^(solutions|exercises)$")
    message(FATAL_ERROR "Trilha inválida para ${stage}: '${track}' (use solutions ou exercises)")
  endif()
  if(track STREQUAL "solutions" AND NOT EXISTS "${PROJECT_SOURCE_DIR}/solutions/${stage}")
    message(FATAL_ERROR "A trilha solutions foi pedida para ${stage}, mas "
                        "${PROJECT_SOURCE_DIR}/solutions/${stage} não existe (esta cópia do "
                        "curso não tem as soluções?). Use -DHZ_TRACK=exercises ou apague "
                        "o build e configure de novo sem -DHZ_TRACK.")
  endif()
  message(STATUS "Etapa ${stage}: trilha ${track}")

  # Lidas pelos CMakeLists das pastas abaixo.
  set(HZ_STAGE "${stage}")
  set(HZ_STAGE_CORE "hz_${lower}_core")
  set(HZ_STAGE_TRACK "${track}")
  add_subdirectory(${PROJECT_SOURCE_DIR}/${track}/${stage} ${CMAKE_BINARY_DIR}/core/${stage})
  add_subdirectory(${PROJECT_SOURCE_DIR}/etapas/${stage} ${CMAKE_BINARY_DIR}/etapas/${stage})
  if(BUILD_TESTING)
    add_subdirectory(${PROJECT_SOURCE_DIR}/tests/${stage} ${CMAKE_BINARY_DIR}/tests/${stage})
  endif()
endfunction()
