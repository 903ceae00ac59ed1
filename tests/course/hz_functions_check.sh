#!/usr/bin/env bash
# Duas funções do ./hz que decidem o que é recompilado ou rodado de novo, lidas
# com "source hz" e testadas sem compilar nada:
#   sync_tree              (./hz grade) deixa a pasta de correção igual à cópia
#                          montada: arquivo igual fica com a data que tinha,
#                          arquivo mudado chega com a data de agora, o que sobra
#                          é apagado;
#   stage_results_current  (./hz progress) o relatório guardado de uma etapa só
#                          vale se é mais novo que os dois executáveis que ele testou.
# Uso: hz_functions_check.sh RAIZ
set -euo pipefail

root="$1"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/hz-functions-check-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

fail() {
  echo "FALHOU: $*" >&2
  exit 1
}

mtime() { stat -c %Y "$1"; }

# --- sync_tree
from="$tmp/from" to="$tmp/to"
mkdir -p "$from/a" "$to/a" "$to/velho"
printf 'igual\n' >"$from/a/igual.cpp"
printf 'igual\n' >"$to/a/igual.cpp"
printf 'do aluno novo\n' >"$from/a/mudou.cpp"
printf 'do aluno anterior\n' >"$to/a/mudou.cpp"
printf 'novo\n' >"$from/a/novo.hpp"
printf 'sobra\n' >"$to/velho/sobra.hpp"
# Datas antigas dos dois lados: o mudado precisa sair delas; o igual, ficar nelas.
touch -d '2020-01-01 00:00:00' "$from/a/igual.cpp" "$to/a/igual.cpp" "$from/a/mudou.cpp" \
  "$to/a/mudou.cpp"
old="$(mtime "$to/a/igual.cpp")"
before="$(date +%s)"
(source "$root/hz" && sync_tree "$from" "$to") >"$tmp/sync.out" 2>&1 ||
  fail "sync_tree falhou: $(cat "$tmp/sync.out")"
grep -qF '2 arquivo(s) novos ou mudados, 1 apagado(s)' "$tmp/sync.out" ||
  fail "esperava 2 copiados (mudou.cpp, novo.hpp) e 1 apagado: $(cat "$tmp/sync.out")"
[[ "$(mtime "$to/a/igual.cpp")" == "$old" ]] ||
  fail "o arquivo igual foi tocado: o make o recompilaria à toa"
[[ "$(cat "$to/a/mudou.cpp")" == "do aluno novo" ]] || fail "o arquivo mudado não chegou"
(($(mtime "$to/a/mudou.cpp") >= before)) ||
  fail "o arquivo mudado chegou com a data antiga: o make não o recompilaria"
[[ "$(cat "$to/a/novo.hpp")" == "novo" ]] || fail "o arquivo novo não chegou"
[[ ! -e "$to/velho/sobra.hpp" ]] || fail "o arquivo que só o destino tinha ficou"
echo "ok: sync_tree copia só o que mudou, com a data de agora, e apaga o que sobra"

# --- stage_results_current
dir="$tmp/build-exercises"
mkdir -p "$dir/bin" "$dir/hz-progress"
current() { (source "$root/hz" && stage_results_current "$dir" 01-x); }
touch -d '2020-01-01 00:00:00' "$dir/bin/hz-tests-01-x" "$dir/bin/hz-01-x"
current && fail "sem relatório, não há resultado guardado"
touch "$dir/hz-progress/01-x.json" "$dir/hz-progress/01-x.xml"
current || fail "o relatório mais novo que os executáveis deveria valer"
touch -d '2030-01-01 00:00:00' "$dir/bin/hz-tests-01-x"
current && fail "o executável de testes religado depois do relatório deveria invalidá-lo"
touch -d '2020-01-01 00:00:00' "$dir/bin/hz-tests-01-x"
touch -d '2030-01-01 00:00:00' "$dir/bin/hz-01-x"
current && fail "o executável da etapa religado depois do relatório deveria invalidá-lo"
rm "$dir/bin/hz-01-x"
current && fail "sem o executável da etapa, o relatório não vale"
echo "ok: stage_results_current só aceita o relatório mais novo que os dois executáveis"
