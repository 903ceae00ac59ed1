#!/usr/bin/env bash
# fuzz/collect-seeds.sh [BUILD]: refaz as sementes de fuzz/corpus/ a partir do
# mock (as respostas que ele manda para cada cenário embutido, com e sem
# streaming), dos próprios cenários e de um trace da etapa 01. Precisa de
# BUILD/bin/hz-mock e BUILD/bin/hz-01-loop (padrão: build/) e do curl.
# As sementes escritas à mão (argumentos, caminhos, cabeçalhos) ficam no fim.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
CORPUS="$ROOT/fuzz/corpus"
MOCK="$BUILD/bin/hz-mock"
[[ -x "$MOCK" ]] || { echo "falta $MOCK: compile antes (cmake --build build --target hz-mock)" >&2; exit 2; }

for dir in decode_reply sse stream dispatch tools_read scenario trace retry_after; do
  rm -rf "${CORPUS:?}/$dir"
  mkdir -p "$CORPUS/$dir"
done

# O primeiro byte das sementes de sse, stream, dispatch e tools_read são as
# opções do alvo (veja o comentário de cada .cpp).
with_byte() { printf "\\x$(printf %02x "$1")"; cat; }

request() {
  local stream="$1"
  printf '{"model":"hz-mock","stream":%s,"stream_options":{"include_usage":true},' "$stream"
  printf '"messages":[{"role":"system","content":"s"},{"role":"user","content":"oi"}],'
  printf '"tools":[{"type":"function","function":{"name":"run_shell","parameters":{}}}]}'
}

collect_scenario() {
  local file="$1" name out pid url i
  name="$(basename "${file%.json}")"
  cp "$file" "$CORPUS/scenario/$name.json"
  out="$(mktemp)"
  "$MOCK" --scenario "$file" >"$out" 2>/dev/null &
  pid=$!
  for _ in $(seq 50); do [[ -s "$out" ]] && break; sleep 0.1; done
  url="$(head -n1 "$out")"
  for i in 1 2 3; do
    curl -s --max-time 2 -H 'Content-Type: application/json' -d "$(request false)" \
      "$url/chat/completions" >"$CORPUS/decode_reply/$name-$i.json" || true
    curl -s --max-time 2 -H 'Content-Type: application/json' -d "$(request true)" \
      "$url/chat/completions" | with_byte "$i" >"$CORPUS/stream/$name-$i.sse" || true
  done
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -f "$out"
}

for file in "$ROOT"/mock-server/scenarios/*.json "$ROOT"/mock-server/scenarios/examples/*.json; do
  collect_scenario "$file"
done
# Respostas vazias (hang, drop) não ensinam nada; as de SSE servem aos dois alvos.
find "$CORPUS/decode_reply" "$CORPUS/stream" -type f -size -2c -delete
cp "$CORPUS"/stream/* "$CORPUS/sse/"

# Um trace de verdade da etapa 01 (a história de segunda-feira).
if [[ -x "$BUILD/bin/hz-01-loop" ]]; then
  "$BUILD/bin/hz-01-loop" --scenario monday --trace "$CORPUS/trace/monday.jsonl" >/dev/null 2>&1 ||
    true
fi
printf '%s\n' '{"event":"tool_start","name":"read_file","arguments":{"path":"\u001b[2J"}}' \
  '{"event":"modelo_novo","detalhe":"\u009b31m"}' 'não é JSON' >"$CORPUS/trace/estranho.jsonl"

# Argumentos de ferramentas: byte de opções, nome, \n, argumentos.
printf 'echo\n{"text":"olá"}' | with_byte 0 >"$CORPUS/dispatch/echo.txt"
printf 'write\n{"path":"a.txt","content":"\\u001b[2J"}' | with_byte 1 >"$CORPUS/dispatch/write.txt"
printf 'write\n{"path":"a.txt"}' | with_byte 0 >"$CORPUS/dispatch/falta-campo.txt"
printf 'many\n{"a":1,"b":[],"c":{}}' | with_byte 2 >"$CORPUS/dispatch/many.txt"
printf 'explode\n' | with_byte 0 >"$CORPUS/dispatch/explode.txt"
printf 'echo\n[1,2]' | with_byte 0 >"$CORPUS/dispatch/nao-objeto.txt"
printf 'apagar_tudo\n{}' | with_byte 0 >"$CORPUS/dispatch/desconhecida.txt"

# Caminhos (bit 1 desligado) e argumentos JSON (ligado); bit 0: list_dir.
printf 'notas.txt' | with_byte 0 >"$CORPUS/tools_read/notas.txt"
printf 'link-dentro/a.txt' | with_byte 0 >"$CORPUS/tools_read/link-dentro.txt"
printf 'link-fora/segredo-de-fora' | with_byte 0 >"$CORPUS/tools_read/link-fora.txt"
printf 'sub/../../fora' | with_byte 1 >"$CORPUS/tools_read/ponto-ponto.txt"
printf 'fifo' | with_byte 0 >"$CORPUS/tools_read/fifo.txt"
printf 'grande' | with_byte 0 >"$CORPUS/tools_read/grande.txt"
printf 'laco-a' | with_byte 0 >"$CORPUS/tools_read/laco.txt"
printf '.' | with_byte 1 >"$CORPUS/tools_read/raiz.txt"
printf '{"path":"sub/fundo"}' | with_byte 3 >"$CORPUS/tools_read/json.txt"
printf '{"path":7}' | with_byte 2 >"$CORPUS/tools_read/json-tipo.txt"

# Cabeçalhos: retry-after-ms \n Retry-After.
printf '1500\n2' >"$CORPUS/retry_after/ms-e-segundos.txt"
printf '0.5' >"$CORPUS/retry_after/fracao.txt"
printf 'Wed, 21 Oct 2015 07:28:00 GMT' >"$CORPUS/retry_after/data.txt"
printf 'abc\nSun, 06 Nov 1994 08:49:37 GMT' >"$CORPUS/retry_after/data-antiga.txt"
printf -- '-1' >"$CORPUS/retry_after/negativo.txt"

# Os crashes que o fuzzing já achou (cada um tem um teste nas suítes comuns).
printf 'abc\nSun, 06 Nov 3988 08:49:37 GMT' >"$CORPUS/retry_after/crash-ano-3988.txt"
printf '{"steps": [{"delay_ms": 1e999}]}' >"$CORPUS/scenario/crash-1e999.json"

# Sementes repetidas (o mesmo erro do roteiro em vários cenários) só atrasam.
for dir in "$CORPUS"/*/; do
  (cd "$dir" && sha1sum -- * | sort | awk 'seen[$1]++ { print $2 }' | xargs -r rm --)
done
find "$CORPUS" -type f | wc -l
