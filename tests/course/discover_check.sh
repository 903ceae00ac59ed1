#!/usr/bin/env bash
# O registro dos TEST_CASEs no ctest (cmake/HzDiscoverTests.cmake), com um
# executável de mentira que lista casos de nomes difíceis: ";" (separador das
# listas do CMake), "[" sem "]", aspas, vírgula (separador do filtro do
# doctest), "&" e "<". Cada um precisa virar um teste do ctest com o nome
# exato, e o filtro que o ctest passa ao executável, achar só ele. Um nome
# repetido precisa derrubar o teste "<executável>: cada TEST_CASE tem um nome só".
# Uso: discover_check.sh RAIZ
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

root="$1"
make_tmp hz-discover-check

# fake_exe ARQUIVO CASOS...: um "executável de testes" que lista os casos (em
# XML, como o doctest) e, chamado com --test-case=FILTRO, grava o argumento.
fake_exe() {
  local exe="$1" name
  shift
  {
    echo '#!/usr/bin/env bash'
    echo 'if [[ "$1" == --list-test-cases ]]; then cat <<'"'XML'"
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo '<doctest binary="fake">'
    echo '  <Options order_by="file" rand_seed="0" first="0" last="4294967295" abort_after="0"/>'
    for name in "$@"; do
      echo "  <TestCase name=\"$name\" testsuite=\"01-x/um\" filename=\"a.cpp\" line=\"1\"/>"
    done
    echo '</doctest>'
    echo 'XML'
    echo 'exit 0; fi'
    echo 'printf "%s\n" "$1" >>"$(dirname "$0")/args.txt"'
    echo 'printf "%s|%s\n" "$HZ_TEST_CORE" "$HZ_TEST_OUTPUT_DIR" >>"$(dirname "$0")/env.txt"'
  } >"$exe"
  chmod +x "$exe"
}

# discover DIR: roda a descoberta como o POST_BUILD dela e deixa um
# CTestTestfile.cmake que inclui o resultado.
discover() {
  local dir="$1"
  cmake -D "TEST_EXECUTABLE=$dir/fake" -D "TEST_WORKING_DIR=$dir" -D "TEST_LABELS=01-x" \
    -D "TEST_CORE=exercises/01-x" -D "TEST_OUTPUT_DIR=$dir/test-output" \
    -D "TEST_TIMEOUT=7" -D "CTEST_FILE=$dir/fake_tests.cmake" \
    -P "$root/cmake/HzDiscoverTests.cmake" >"$dir/discover.out" 2>&1 ||
    fail "a descoberta falhou: $(cat "$dir/discover.out")"
  echo "include(\"$dir/fake_tests.cmake\")" >"$dir/CTestTestfile.cmake"
}

# Os nomes como o doctest os escreve no XML (com &amp; &lt; &quot;).
mkdir -p "$tmp/ok"
fake_exe "$tmp/ok/fake" \
  'call_key: 1 e 1.0; 1 e 1.5, não' \
  'abre [ e não fecha' \
  'fecha ] sem abrir' \
  'diz &quot;oi&quot; entre aspas' \
  'vírgula, no meio' \
  'a &amp; b &lt; c' \
  'comum'
discover "$tmp/ok"
(cd "$tmp/ok" && ctest -N) >"$tmp/ok/list.txt" 2>&1 || fail "ctest -N falhou: $(cat "$tmp/ok/list.txt")"
for name in 'call_key: 1 e 1.0; 1 e 1.5, não' 'abre [ e não fecha' 'fecha ] sem abrir' \
  'diz "oi" entre aspas' 'vírgula, no meio' 'a & b < c' 'comum' 'fake: cada TEST_CASE tem um nome só'; do
  grep -qF -- ": $name" "$tmp/ok/list.txt" || fail_showing "$tmp/ok/list.txt" "o ctest não registrou o teste: $name"
done
grep -q "Total Tests: 8" "$tmp/ok/list.txt" ||
  fail_showing "$tmp/ok/list.txt" "esperava 8 testes (7 casos e o dos nomes únicos)"
# Cada teste chama o executável com o filtro do seu nome (vírgula escapada).
(cd "$tmp/ok" && ctest --output-on-failure) >"$tmp/ok/run.txt" 2>&1 ||
  fail "os testes de mentira deveriam passar: $(cat "$tmp/ok/run.txt")"
for arg in '--test-case=call_key: 1 e 1.0; 1 e 1.5\, não' '--test-case=abre [ e não fecha' \
  '--test-case=diz "oi" entre aspas' '--test-case=vírgula\, no meio' '--test-case=a & b < c'; do
  grep -qxF -- "$arg" "$tmp/ok/args.txt" || fail_showing "$tmp/ok/args.txt" "o executável não recebeu: $arg"
done
# O núcleo contra o qual os testes rodam vai para o ambiente de cada um.
grep -qF 'HZ_TEST_CORE=exercises/01-x' "$tmp/ok/fake_tests.cmake" ||
  fail "os testes não levam HZ_TEST_CORE"
# E, como outra variável, onde fica a saída inteira de uma falha cortada.
[[ "$(sort -u "$tmp/ok/env.txt")" == "exercises/01-x|$tmp/ok/test-output" ]] ||
  fail_showing "$tmp/ok/env.txt" \
    "cada teste deveria receber HZ_TEST_CORE=exercises/01-x e HZ_TEST_OUTPUT_DIR=$tmp/ok/test-output"
# Um exercício com um laço sem fim não prende o aluno: cada caso tem o prazo dado.
(cd "$tmp/ok" && ctest --show-only=json-v1) >"$tmp/ok/show.json" ||
  fail "ctest --show-only falhou"
[[ "$(tr -d ' \n' <"$tmp/ok/show.json" | grep -o '"name":"TIMEOUT","value":7' | wc -l)" == 7 ]] ||
  fail_showing "$tmp/ok/show.json" "cada um dos 7 casos deveria ter TIMEOUT 7"
echo "ok: todo nome vira um teste do ctest e chega inteiro ao executável, com o prazo dado"

# Um nome repetido: um teste só para os dois, e o de nomes únicos falha dizendo qual.
mkdir -p "$tmp/dup"
fake_exe "$tmp/dup/fake" 'repetido; com ponto e vírgula' 'outro' 'repetido; com ponto e vírgula'
discover "$tmp/dup"
if (cd "$tmp/dup" && ctest -R 'cada TEST_CASE tem um nome só' --output-on-failure) >"$tmp/dup/run.txt" 2>&1; then
  fail_showing "$tmp/dup/run.txt" "o teste dos nomes únicos deveria falhar com um nome repetido"
fi
grep -qF '  repetido; com ponto e vírgula' "$tmp/dup/run.txt" ||
  fail_showing "$tmp/dup/run.txt" "a falha deveria mostrar o nome repetido"
echo "ok: um nome repetido derruba o teste dos nomes únicos e aparece na falha"
