#!/usr/bin/env bash
# Conferências rápidas (sem compilar nada) da exportação para alunos:
#   track   a trilha padrão do cmake/HzOptions.cmake com e sem solutions/
#   export  ./hz export numa pasta temporária e as recusas do ./hz grade
# Uso: export_check.sh track|export RAIZ [HZ_COURSE]
set -euo pipefail

mode="$1"
root="$2"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/hz-export-check-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

fail() {
  echo "FALHOU: $*" >&2
  exit 1
}

# expect_contains ARQUIVO TEXTO
expect_contains() {
  grep -qF -- "$2" "$1" || {
    echo "--- $1:" >&2
    cat "$1" >&2
    fail "esperava encontrar: $2"
  }
}

check_track() {
  # Um projeto mínimo (sem compilador) que usa o HzOptions.cmake de verdade.
  local p="$tmp/p"
  mkdir -p "$p/cmake" "$p/exercises/01-x" "$p/etapas/01-x"
  cp "$root/cmake/HzOptions.cmake" "$p/cmake/"
  cat >"$p/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.22)
project(hz_track_check NONE)
include(cmake/HzOptions.cmake)
hz_add_stage(01-x)
CM
  : >"$p/exercises/01-x/CMakeLists.txt"
  : >"$p/etapas/01-x/CMakeLists.txt"

  cmake -S "$p" -B "$tmp/b1" >"$tmp/out1" 2>&1 || fail "configurar sem solutions/ falhou: $(cat "$tmp/out1")"
  expect_contains "$tmp/out1" "Etapa 01-x: trilha exercises"

  if cmake -S "$p" -B "$tmp/b2" -DHZ_TRACK=solutions >"$tmp/out2" 2>&1; then
    fail "-DHZ_TRACK=solutions sem solutions/ deveria falhar"
  fi
  expect_contains "$tmp/out2" "A trilha solutions foi pedida para 01-x"

  mkdir -p "$p/solutions/01-x"
  : >"$p/solutions/01-x/CMakeLists.txt"
  cmake -S "$p" -B "$tmp/b3" >"$tmp/out3" 2>&1 || fail "configurar com solutions/ falhou: $(cat "$tmp/out3")"
  expect_contains "$tmp/out3" "Etapa 01-x: trilha solutions"
  echo "ok: trilha padrão solutions com solutions/ e exercises sem"
}

check_export() {
  local course="$1" out="$tmp/aluno"
  command -v git >/dev/null 2>&1 || {
    echo "sem git: ./hz export precisa dele; pulando"
    exit 77
  }
  # ./hz export usa o último commit; para conferir o que está no disco (e não só o
  # que já foi commitado), a árvore atual vira o commit de um repositório
  # temporário.
  mkdir -p "$tmp/src"
  if [[ -e "$root/.git" ]]; then
    (cd "$root" && git ls-files -z --cached --others --exclude-standard |
      while IFS= read -r -d '' f; do if [[ -e "$f" ]]; then printf '%s\0' "$f"; fi; done |
      tar --null -T - -cf -) | tar -x -C "$tmp/src"
  else
    tar -C "$root" --exclude=./.git --exclude='./build*' -cf - . | tar -x -C "$tmp/src"
  fi
  git -C "$tmp/src" init -q
  git -C "$tmp/src" add -A
  git -C "$tmp/src" -c user.name=teste -c user.email=teste@exemplo -c commit.gpgsign=false \
    commit -qm "árvore atual"
  root="$tmp/src"
  HZ_COURSE="$course" NO_COLOR=1 "$root/hz" export "$out" >"$tmp/export.out" 2>&1 ||
    fail "./hz export falhou: $(cat "$tmp/export.out")"
  [[ ! -e "$out/solutions" ]] || fail "a exportação tem solutions/"
  [[ ! -e "$out/.ci" ]] || fail "a exportação tem .ci/"
  [[ ! -e "$out/course/export" ]] || fail "a exportação tem course/export/"
  [[ -f "$out/GRADING.md" ]] || fail "a exportação não tem GRADING.md"
  local wf="$out/.github/workflows/autograding.yml"
  expect_contains "$wf" "HZ_TEMPLATE_REPO: DONO/NOME-DO-MODELO"
  expect_contains "$wf" "HZ_TEMPLATE_REF: main"
  expect_contains "$wf" 'stage: ["01-loop"'
  # shellcheck disable=SC2016 # o texto literal do workflow
  expect_contains "$wf" '.grader/hz grade "${{ matrix.stage }}" --student "$GITHUB_WORKSPACE"'
  expect_contains "$tmp/export.out" "Falta o repositório-modelo"
  if grep -rq "^<!-- listing: solutions/" "$out/livro"; then fail "o livro exportado ainda lista solutions/"; fi
  expect_contains "$out/livro/01-loop.md" "<!-- listing: exercises/01-loop/agent_loop.cpp#run-turn -->"
  expect_contains "$out/livro/01-loop.md" "// TODO EXERCICIO 01-loop/loop-body:"
  "$course" listings --root "$out" --check >/dev/null || fail "as listagens da exportação não batem com exercises/"

  # Pasta não vazia: recusa.
  if HZ_COURSE="$course" NO_COLOR=1 "$root/hz" export "$out" >"$tmp/again.out" 2>&1; then
    fail "exportar para uma pasta não vazia deveria falhar"
  fi
  expect_contains "$tmp/again.out" "não está vazia"

  # Com --template-repo o workflow sai pronto.
  HZ_COURSE="$course" NO_COLOR=1 "$root/hz" export "$tmp/aluno2" --template-repo escola/curso \
    --template-ref 0123abc >/dev/null 2>&1 || fail "./hz export --template-repo falhou"
  expect_contains "$tmp/aluno2/.github/workflows/autograding.yml" "HZ_TEMPLATE_REPO: escola/curso"
  expect_contains "$tmp/aluno2/.github/workflows/autograding.yml" "HZ_TEMPLATE_REF: 0123abc"

  # Na exportação, o ./hz sabe que não há soluções (sem compilar nada).
  if NO_COLOR=1 "$out/hz" solutions >"$tmp/sol.out" 2>&1; then fail "./hz solutions deveria falhar sem solutions/"; fi
  expect_contains "$tmp/sol.out" "não tem solutions/"

  # O ./hz grade recusa, antes de compilar, link simbólico e CMakeLists.txt mexido.
  ln -s ../../etapas/01-loop/main.cpp "$out/exercises/01-loop/atalho.cpp"
  if NO_COLOR=1 "$root/hz" grade 01-loop --student "$out" >"$tmp/link.out" 2>&1; then
    fail "grade deveria recusar link simbólico"
  fi
  expect_contains "$tmp/link.out" "links simbólicos ou arquivos especiais"
  expect_contains "$tmp/link.out" "atalho.cpp"
  rm "$out/exercises/01-loop/atalho.cpp"
  echo "# mexido" >>"$out/exercises/01-loop/CMakeLists.txt"
  if NO_COLOR=1 "$root/hz" grade 01-loop --student "$out" >"$tmp/cm.out" 2>&1; then
    fail "grade deveria recusar CMakeLists.txt diferente"
  fi
  expect_contains "$tmp/cm.out" "exercises/01-loop/CMakeLists.txt do aluno difere do original"
  if NO_COLOR=1 "$root/hz" grade 99-nada --student "$out" >"$tmp/stage.out" 2>&1; then
    fail "grade deveria recusar etapa desconhecida"
  fi
  expect_contains "$tmp/stage.out" "etapa desconhecida: 99-nada"
  echo "ok: export sem solutions/ e .ci/, livro com stubs, workflow; grade recusa o que não é código do aluno"
}

case "$mode" in
  track) check_track ;;
  export) check_export "${3:?falta o caminho do hz-course}" ;;
  *) fail "modo desconhecido: $mode" ;;
esac
