#!/usr/bin/env bash
# appendix_check.sh RAIZ BUILD [CTEST]: todo teste citado no catálogo de falhas
# (livro/apendice-falhas.md) existe, para a tabela não envelhecer em silêncio.
#
# Numa linha da tabela, cada nome entre « » precisa ser, exatamente, o nome de
# um teste registrado no ctest de BUILD e um TEST_CASE("...") de um dos
# arquivos tests/...cpp citados na mesma linha. Sai com 1 e lista o que não
# bate; com 0, diz quantos nomes conferiu.
set -euo pipefail

root="${1:?uso: appendix_check.sh RAIZ BUILD [CTEST]}"
build="${2:?uso: appendix_check.sh RAIZ BUILD [CTEST]}"
ctest="${3:-ctest}"
appendix="$root/livro/apendice-falhas.md"
[[ -f "$appendix" ]] || {
  echo "appendix_check: não achei $appendix" >&2
  exit 1
}

registered="$(mktemp)"
trap 'rm -f "$registered"' EXIT
"$ctest" --test-dir "$build" -N | sed -n 's/^ *Test *#[0-9]*: //p' >"$registered"
if [[ ! -s "$registered" ]]; then
  echo "appendix_check: o ctest de $build não listou nenhum teste (compile antes)" >&2
  exit 1
fi

# "arquivos<US>nome" para cada nome citado (US, o separador 0x1f, porque um
# tab no começo sumiria no read); « e » casados byte a byte (UTF-8), sem
# depender da locale.
citations() {
  perl -ne '
    next unless /^\|/;
    my @files = /`(tests\/[^`]+\.cpp)`/g;
    while (/\xC2\xAB(.*?)\xC2\xBB/g) { print join(" ", @files), "\x1f$1\n"; }
  ' "$appendix"
}

checked=0
problems=0
while IFS=$'\x1f' read -r files name; do
  checked=$((checked + 1))
  if [[ -z "$files" ]]; then
    echo "sem arquivo de teste na linha: «$name»"
    problems=$((problems + 1))
    continue
  fi
  if ! grep -Fxq -- "$name" "$registered"; then
    echo "não está no ctest: «$name»"
    problems=$((problems + 1))
  fi
  found=0
  for file in $files; do
    if [[ ! -f "$root/$file" ]]; then
      echo "arquivo citado não existe: $file"
      problems=$((problems + 1))
    elif grep -Fq -- "TEST_CASE(\"$name\")" "$root/$file"; then
      found=1
    fi
  done
  if [[ $found -eq 0 ]]; then
    echo "nenhum TEST_CASE(\"$name\") em $files"
    problems=$((problems + 1))
  fi
done < <(citations)

if [[ $checked -eq 0 ]]; then
  echo "appendix_check: nenhum teste citado em $appendix (o formato mudou?)" >&2
  exit 1
fi
if [[ $problems -gt 0 ]]; then
  echo "appendix_check: $problems problema(s) em $appendix" >&2
  exit 1
fi
echo "appendix_check: os $checked testes citados em livro/apendice-falhas.md existem"
