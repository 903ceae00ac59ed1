#!/usr/bin/env bash
# cmake --install numa pasta temporária, e o hz-mock instalado acha os cenários
# instalados: sobe com --scenario monday e com um cenário que só existe na
# instalação, lê a URL da primeira linha do stdout e é derrubado.
# Uso: install_check.sh PASTA_DO_BUILD
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

build="$1"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/hz-install-check-XXXXXX")"
pid=""
cleanup() {
  if [[ -n "$pid" ]]; then kill "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

echo "+ cmake --install $build --prefix $tmp/prefixo"
cmake --install "$build" --prefix "$tmp/prefixo" >"$tmp/install.log" 2>&1 ||
  fail "cmake --install falhou: $(cat "$tmp/install.log")"

prefix="$tmp/prefixo"
[[ -x "$prefix/bin/hz-mock" ]] || fail "não instalou bin/hz-mock"
scenarios="$prefix/share/harness-zero/scenarios"
for f in monday.json wednesday.json workspaces/monday/test_login.sh; do
  [[ -f "$scenarios/$f" ]] || fail "não instalou share/harness-zero/scenarios/$f"
done
[[ -x "$scenarios/workspaces/monday/test_login.sh" ]] ||
  fail "a fixture test_login.sh perdeu a permissão de execução na instalação"

# Um cenário que só existe na instalação: prova que o hz-mock procura lá.
cp "$scenarios/monday.json" "$scenarios/so-instalado.json"

# first_line CENÁRIO: sobe o hz-mock instalado e devolve a primeira linha do
# stdout (a URL base). Sem sleep: lê de um FIFO com prazo de 10 s.
first_line() {
  local fifo="$tmp/saida-$1" line=""
  mkfifo "$fifo"
  (cd "$tmp" && exec "$prefix/bin/hz-mock" --scenario "$1" >"$fifo" 2>"$tmp/erro-$1") &
  pid=$!
  exec 3<"$fifo"
  IFS= read -r -t 10 -u 3 line || true
  exec 3<&-
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=""
  printf '%s' "$line"
}

for scenario in monday so-instalado; do
  url="$(first_line "$scenario")"
  [[ "$url" =~ ^http://127\.0\.0\.1:[0-9]+/v1$ ]] ||
    fail "o hz-mock instalado com --scenario $scenario não imprimiu a URL (veio: '$url'): $(cat "$tmp/erro-$scenario")"
  echo "ok: hz-mock instalado, --scenario $scenario: $url"
done
