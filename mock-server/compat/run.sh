#!/bin/sh
# Confere o hz-mock contra o SDK oficial da OpenAI (npm openai).
#
# Para quem mantém o mock; alunos nunca precisam disto. Não compila nada:
# usa o hz-mock de build/bin (ou o caminho em HZ_MOCK_BIN). Sem node/npm,
# avisa e sai com 0. Sai com 1 se qualquer conferência falhar.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${HZ_MOCK_BIN:-$root/build/bin/hz-mock}

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "compat: node/npm não encontrados; pulando a conferência com o SDK da OpenAI"
  exit 0
fi
if [ ! -x "$bin" ]; then
  echo "compat: $bin não existe; compile antes: cmake --build build --target hz-mock" >&2
  exit 1
fi

echo "+ (cd $here && npm install --no-audit --no-fund)"
(cd "$here" && npm install --no-audit --no-fund) || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" --scenario examples/sdk-compat >"$tmp/out" 2>"$tmp/err" &
pid=$!

# A primeira linha do stdout é a URL base; espera até 5 s por ela.
tries=0
while [ ! -s "$tmp/out" ] && [ $tries -lt 100 ]; do
  if ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 0.05
  tries=$((tries + 1))
done
url=$(head -n 1 "$tmp/out")
if [ -z "$url" ]; then
  echo "compat: o hz-mock não imprimiu a URL base" >&2
  cat "$tmp/err" >&2
  kill "$pid" 2>/dev/null
  exit 1
fi

echo "+ node $here/check.mjs $url"
node "$here/check.mjs" "$url"
check=$?
kill -TERM "$pid"
wait "$pid"
mock=$?
cat "$tmp/err" >&2
if [ $check -ne 0 ] || [ $mock -ne 0 ]; then
  echo "compat: FALHOU (check.mjs saiu com $check, hz-mock com $mock)" >&2
  exit 1
fi
echo "compat: ok, o SDK oficial da OpenAI conversa com o hz-mock"
