#!/usr/bin/env bash
# Os números de testes do livro e dos guias conferidos com o ctest deste build
# (hz-course counts): "(14 testes). Rode ./hz test ETAPA/EXERCÍCIO" precisa ser
# verdade. Uso: counts_check.sh RAIZ BUILD CTEST HZ-COURSE
set -euo pipefail
root="$1" build="$2" ctest="$3" course="$4"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/hz-counts-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
"$ctest" --test-dir "$build" --show-only=json-v1 >"$tmp/tests.json"
"$course" counts --root "$root" --tests-json "$tmp/tests.json"
