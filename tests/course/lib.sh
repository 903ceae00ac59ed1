# shellcheck shell=bash
# lib.sh: o que os scripts de tests/course repetiam, lido com
#   source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# logo depois do "set -euo pipefail" de cada um. Define funções e tira do
# ambiente o resumo do GitHub Actions: o ./hz grade que um teste roda escreveria
# nele, e o resumo de quem roda a CI no Actions mostraria notas de mentira.

unset GITHUB_STEP_SUMMARY

fail() {
  echo "FALHOU: $*" >&2
  exit 1
}

# make_tmp NOME: a pasta temporária do script em $tmp, apagada na saída.
make_tmp() {
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/$1-XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
}

# fail_showing ARQUIVO MENSAGEM: ARQUIVO no stderr (o que o teste viu) e fail.
fail_showing() {
  cat "$1" >&2
  fail "$2"
}

expect_contains() { # expect_contains ARQUIVO TEXTO
  grep -qF -- "$2" "$1" || {
    echo "--- $1:" >&2
    fail_showing "$1" "esperava encontrar: $2"
  }
}

expect_missing() { # expect_missing ARQUIVO TEXTO
  if grep -qF -- "$2" "$1"; then
    echo "--- $1:" >&2
    fail_showing "$1" "não esperava encontrar: $2"
  fi
}

# skip MENSAGEM: diz por que o teste não roda aqui e pula (código 77, o
# SKIP_RETURN_CODE dos testes em tests/course/CMakeLists.txt).
skip() {
  echo "$1"
  exit 77
}

skip_without() { # skip_without COMANDO MENSAGEM
  command -v "$1" >/dev/null 2>&1 || skip "$2"
}

# Um commit sem depender da configuração do git da máquina.
git_quiet() { git -c user.name=teste -c user.email=teste@exemplo -c commit.gpgsign=false "$@"; }

# git_init_commit PASTA MENSAGEM: PASTA vira um repositório git com tudo num commit.
git_init_commit() {
  git -C "$1" init -q
  git -C "$1" add -A
  git_quiet -C "$1" commit -qm "$2"
}
