#!/usr/bin/env bash
# Provisório (sai com esta pasta na integração, quando a prova da CI, com o
# hz-course exercises --proof-out, passar a cobrir a etapa 04).
#
# Prova que os testes de cada exercício falham sem ele, e lista os testes que
# passam com todos os stubs (compare com tests/04-journal/passes-on-stubs.txt).
#   tests/04-journal/standalone/proof.sh        (da raiz do repositório)
# 1. proof: cada região ganha, no começo, o throw ligado por HZ_STUB=<id>;
#    com HZ_STUB=<id>, todo teste do TEST_SUITE <id> tem de falhar.
# 2. stubs: cada região vira só o throw, como em exercises/; os testes que
#    ainda passam são impressos.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
out="$root/build-journal-proof"
mkdir -p "$out"

python3 - "$root/solutions/04-journal" "$out" <<'PY'
import pathlib, re, sys
src, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
start = re.compile(r'^(\s*)// EXERCICIO (\S+): ')
for mode in ("proof", "stubs"):
    dest = out / f"src-{mode}"
    dest.mkdir(parents=True, exist_ok=True)
    for f in src.iterdir():
        text = f.read_text()
        lines, result, inside = text.split("\n"), [], None
        for line in lines:
            m = start.match(line)
            if m:
                indent, ident = m.group(1), m.group(2)
                inside = ident
                result.append(line)
                throw = f'throw ::hz::NotImplemented("{ident}");'
                result.append(indent + (f'if (::hz::exercise_stubbed("{ident}")) ' + throw
                                        if mode == "proof" else throw))
                continue
            if inside and line.strip() == "// FIM-EXERCICIO":
                inside = None
                result.append(line)
                continue
            if inside and mode == "stubs":
                continue
            result.append(line)
        text = "\n".join(result)
        if "NotImplemented" in text:
            text = text.replace("\nnamespace hz {", '\n#include "hz/not_implemented.hpp"\n\nnamespace hz {', 1)
        target = dest / f.name
        if not target.exists() or target.read_text() != text:  # sem recompilar o que não mudou
            target.write_text(text)
PY

build() {  # build <modo> <werror>
  cmake -S "$root/tests/04-journal/standalone" -B "$out/build-$1" -DHZ_WERROR="$2" \
    -DCMAKE_BUILD_TYPE=Debug -DHZ_JOURNAL_DIR="$out/src-$1" \
    "-DCMAKE_CXX_FLAGS=-Wno-unused-variable -Wno-unused-parameter -Wno-unused-function -Wno-unused-but-set-variable" >/dev/null
  cmake --build "$out/build-$1" -j2 --target hz-tests-journal >/dev/null
}
build proof ON
build stubs OFF

# Sem o relatório completo: o main dos testes imprime "✗ <teste>: exercício ..."
# para cada teste que bateu num stub, e o relatório do doctest para as falhas de verdade.
tests() { "$@" -ltc | grep -v '^\[doctest\]\|^=\|^$' | sort; }
status=0
for id in durable-write read-record torn-tail rebuild pending-decision append-key; do
  suite="04-journal/$id"
  total=$(tests "$out/build-proof/hz-tests-journal" -ts="$suite" | wc -l)
  stubbed=$(HZ_STUB="$suite" "$out/build-proof/hz-tests-journal" -ts="$suite" 2>&1 | grep -c '^✗' || true)
  echo "HZ_STUB=$suite: $stubbed de $total testes falham"
  [[ "$stubbed" == "$total" && "$total" -gt 0 ]] || status=1
done
echo "--- com todos os stubs, passam:"
report=$("$out/build-stubs/hz-tests-journal" 2>&1 || true)
comm -23 <(tests "$out/build-stubs/hz-tests-journal") \
  <({ echo "$report" | sed -n 's/^✗ \(.*\): exercício .*/\1/p'
      echo "$report" | sed -n 's/.*TEST CASE: *//p'; } | sort -u)
exit $status
