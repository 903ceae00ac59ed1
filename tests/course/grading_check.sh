#!/usr/bin/env bash
# Conferências rápidas (sem compilar o curso) do que o professor e o aluno
# fazem fora do código das etapas:
#   hidden  grading/tests/NN-nome/*.cpp entra no executável de testes da etapa
#           só quando existe (um projeto mínimo com o cmake/HzTests.cmake de
#           verdade, só configurado)
#   update  ./hz export não leva grading/ e, com --release, leva a referência;
#           ./hz update numa cópia de aluno de verdade (um repositório git
#           criado da exportação): recusa mudanças não commitadas, traz a
#           versão nova de uma pasta e de um repositório git (--ref), leva a
#           resposta do aluno e não faz commit
# Uso: grading_check.sh hidden RAIZ | grading_check.sh update RAIZ HZ_COURSE
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

mode="$1"
root="$2"
make_tmp hz-grading-check

check_hidden() {
  skip_without c++ "sem compilador C++: pulando"
  local p="$tmp/p"
  mkdir -p "$p/cmake" "$p/tests/01-x"
  cp "$root/cmake/HzTests.cmake" "$root/cmake/HzDiscoverTests.cmake" "$p/cmake/"
  : >"$p/tests/01-x/a_test.cpp"
  cat >"$p/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.22)
project(hz_hidden_check CXX)
function(hz_warnings target)
endfunction()
function(hz_line_tables target)
endfunction()
function(hz_test_code target)
endfunction()
function(hz_pch)
endfunction()
function(hz_unity)
endfunction()
add_library(core INTERFACE)
add_library(hz_testing INTERFACE)
add_library(hz::testing ALIAS hz_testing)
add_library(hz_doctest_main INTERFACE)
add_library(hz::doctest_main ALIAS hz_doctest_main)
add_custom_target(hz-01-x)
include(cmake/HzTests.cmake)
set(HZ_STAGE_CORE core)
add_subdirectory(tests/01-x)
get_target_property(sources hz-tests-01-x SOURCES)
message(STATUS "fontes: ${sources}")
CM
  echo 'hz_stage_tests(01-x CORE a_test.cpp)' >"$p/tests/01-x/CMakeLists.txt"

  cmake -S "$p" -B "$tmp/b1" >"$tmp/out1" 2>&1 || fail "configurar sem grading/ falhou: $(cat "$tmp/out1")"
  expect_contains "$tmp/out1" "fontes: a_test.cpp"
  expect_missing "$tmp/out1" "testes ocultos"

  mkdir -p "$p/grading/tests/01-x" "$p/grading/tests/02-y"
  : >"$p/grading/tests/01-x/oculto_test.cpp"
  : >"$p/grading/tests/02-y/outra_test.cpp"
  cmake -S "$p" -B "$tmp/b2" >"$tmp/out2" 2>&1 || fail "configurar com grading/ falhou: $(cat "$tmp/out2")"
  expect_contains "$tmp/out2" "Etapa 01-x: 1 arquivo(s) de testes ocultos em grading/tests/01-x/"
  expect_contains "$tmp/out2" "fontes: a_test.cpp;$p/grading/tests/01-x/oculto_test.cpp"
  expect_missing "$tmp/out2" "outra_test.cpp"
  echo "ok: grading/tests/ETAPA/*.cpp entra só no executável de testes da etapa, e só quando existe"
}

check_update() {
  local course="$1"
  # Na cópia de um aluno não há o que exportar: o ./hz export e o ./hz update são do professor.
  [[ -d "$root/solutions" ]] ||
    skip "esta cópia não tem solutions/ (é a de um aluno): só a do professor exporta; pulando"
  skip_without git "sem git: pulando"
  # O curso como está no disco, num repositório temporário, com a pasta
  # privada do professor.
  mkdir -p "$tmp/src"
  # shellcheck source=/dev/null # a cópia do ./hz grade e dos bench
  (source "$root/hz" && copy_course_tree "$tmp/src")
  mkdir -p "$tmp/src/grading/tests/01-loop"
  echo '// um teste oculto' >"$tmp/src/grading/tests/01-loop/oculto_test.cpp"
  git_init_commit "$tmp/src" "versão 1"

  export HZ_COURSE="$course" NO_COLOR=1
  "$tmp/src/hz" export "$tmp/v1" >"$tmp/v1.out" 2>&1 || fail "./hz export falhou: $(cat "$tmp/v1.out")"
  [[ ! -e "$tmp/v1/grading" ]] || fail "a exportação levou grading/"
  expect_contains "$tmp/v1.out" "sem: solutions/, .ci/, grading/"

  # A cópia da aluna: um repositório novo, sem história em comum com o curso.
  local a="$tmp/aluna" file="exercises/01-loop/tool_dispatch.cpp"
  cp -a "$tmp/v1" "$a"
  git_init_commit "$a" "Curso harness-zero"
  grep -q 'throw hz::NotImplemented("01-loop/tool-result"' "$a/$file" || fail "o stub de 01-loop/tool-result sumiu de $file"
  sed -i 's|^\( *\)throw hz::NotImplemented("01-loop/tool-result".*|\1return {"minha resposta", true};  // da aluna|' "$a/$file"
  git_quiet -C "$a" commit -qam "Minha resposta"

  # A versão 2 do curso: o livro muda e um arquivo aparece.
  echo "Uma linha nova." >>"$tmp/src/livro/01-loop.md"
  echo "# Novidades" >"$tmp/src/livro/novidades.md"
  git -C "$tmp/src" add -A
  git_quiet -C "$tmp/src" commit -qm "versão 2"
  "$tmp/src/hz" export "$tmp/v2" >/dev/null 2>&1 || fail "./hz export da versão 2 falhou"

  # Com mudança não commitada, recusa e não toca em nada.
  echo "rascunho" >>"$a/README.md"
  if "$a/hz" update --from "$tmp/v2" >"$tmp/dirty.out" 2>&1; then fail "update com mudanças não commitadas deveria falhar"; fi
  expect_contains "$tmp/dirty.out" "há mudanças não commitadas"
  expect_contains "$tmp/dirty.out" "README.md"
  [[ ! -e "$a/livro/novidades.md" ]] || fail "update recusado escreveu arquivos"
  git -C "$a" checkout -q -- README.md

  # Sem --from e com o modelo ainda não configurado no workflow, diz o que fazer.
  if "$a/hz" update >"$tmp/nofrom.out" 2>&1; then fail "update sem --from e sem HZ_TEMPLATE_REPO deveria falhar"; fi
  expect_contains "$tmp/nofrom.out" "não sei de onde vem a versão nova"

  local head
  head="$(git -C "$a" rev-parse HEAD)"
  "$a/hz" update --from "$tmp/v2" >"$tmp/u2.out" 2>&1 || fail "update da versão 2 falhou: $(cat "$tmp/u2.out")"
  expect_contains "$tmp/u2.out" "Novos:"
  expect_contains "$tmp/u2.out" "  livro/novidades.md"
  expect_contains "$tmp/u2.out" "  livro/01-loop.md"
  expect_contains "$tmp/u2.out" "1 arquivo novo, 1 mudou, 0 respostas suas levadas."
  expect_contains "$tmp/u2.out" "Nada foi commitado"
  expect_contains "$a/$file" 'return {"minha resposta", true};  // da aluna'
  cmp -s "$a/livro/01-loop.md" "$tmp/v2/livro/01-loop.md" || fail "o livro não foi atualizado"
  [[ "$(git -C "$a" rev-parse HEAD)" == "$head" ]] || fail "update fez commit"
  git -C "$a" status --porcelain >"$tmp/status"
  expect_contains "$tmp/status" " M livro/01-loop.md"
  expect_contains "$tmp/status" "?? livro/novidades.md"
  git -C "$a" add -A
  git_quiet -C "$a" commit -qm "Atualiza o curso"

  # A versão 3 libera a referência da etapa 01, num repositório git (o modelo
  # do professor), pedida por --ref.
  "$tmp/src/hz" export "$tmp/v3" --release 01-loop >"$tmp/v3.out" 2>&1 ||
    fail "./hz export --release falhou: $(cat "$tmp/v3.out")"
  expect_contains "$tmp/v3.out" "com a resposta de referência liberada de: 01-loop"
  if grep -q 'throw hz::NotImplemented("01-loop/' "$tmp"/v3/exercises/01-loop/*.cpp; then
    fail "a exportação com --release 01-loop ainda tem stubs da etapa 01-loop"
  fi
  "$course" listings --root "$tmp/v3" --check >/dev/null || fail "as listagens da exportação liberada não batem com exercises/"
  git_init_commit "$tmp/v3" "Libera a etapa 01"
  git -C "$tmp/v3" tag prazo-01
  echo "depois da tag" >>"$tmp/v3/README.md"
  git_quiet -C "$tmp/v3" commit -qam "Depois"
  "$a/hz" update --from "$tmp/v3" --ref prazo-01 >"$tmp/u3.out" 2>&1 || fail "update --ref falhou: $(cat "$tmp/u3.out")"
  expect_contains "$tmp/u3.out" "Referências liberadas pelo professor (estavam como stub):"
  expect_contains "$tmp/u3.out" "  01-loop/dispatch  ($file)"
  expect_contains "$tmp/u3.out" "porque você já tinha escrito a sua"
  expect_contains "$tmp/u3.out" "  01-loop/tool-result  ($file)"
  expect_contains "$a/$file" 'return {"minha resposta", true};  // da aluna'
  if grep -q 'throw hz::NotImplemented("01-loop/dispatch"' "$a/$file"; then fail "a referência de 01-loop/dispatch não entrou"; fi
  expect_missing "$a/README.md" "depois da tag"

  if "$a/hz" update --from "$tmp/v3" --ref nao-existe >"$tmp/ref.out" 2>&1; then fail "update --ref inexistente deveria falhar"; fi
  expect_contains "$tmp/ref.out" "há mudanças não commitadas"
  git -C "$a" add -A
  git_quiet -C "$a" commit -qm "Liberada"
  if "$a/hz" update --from "$tmp/v3" --ref nao-existe >"$tmp/ref.out" 2>&1; then fail "update --ref inexistente deveria falhar"; fi
  expect_contains "$tmp/ref.out" "--ref nao-existe não é um commit, tag ou branch"
  if "$tmp/src/hz" update --from "$tmp/v3" >"$tmp/full.out" 2>&1; then fail "update no curso completo deveria falhar"; fi
  expect_contains "$tmp/full.out" "esta cópia tem solutions/"
  echo "ok: export sem grading/ e com --release; update recusa sujeira, traz a versão nova de pasta e de git (--ref), leva a resposta e não faz commit"
}

case "$mode" in
  hidden) check_hidden ;;
  update) check_update "${3:?falta o caminho do hz-course}" ;;
  *) fail "modo desconhecido: $mode" ;;
esac
