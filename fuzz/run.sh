#!/usr/bin/env bash
# fuzz/run.sh [SEGUNDOS]: compila os alvos de fuzzing (clang + libFuzzer +
# ASan + UBSan, em build-fuzz/) e roda cada um por SEGUNDOS (padrão 20),
# dois de cada vez (HZ_JOBS muda), a partir das sementes de fuzz/corpus/.
#
# O que o libFuzzer acha de novo fica em build-fuzz/corpus/<alvo>/ (as
# sementes do repositório não mudam); um crash fica em
# build-fuzz/artifacts/<alvo>/crash-*, e o resumo diz como reproduzi-lo.
# Sai com 1 se algum alvo achou um problema. Não depende do ./hz.
#
# Variáveis: HZ_FUZZ_BUILD (pasta de build), HZ_JOBS (alvos ao mesmo tempo e
# jobs do build), HZ_WERROR=1 (avisos viram erros), HZ_FUZZ_ONLY="sse stream"
# (só estes alvos), HZ_FUZZ_NO_BUILD=1 (não configura nem compila: usa os
# alvos que já estão em HZ_FUZZ_BUILD/bin, como os do build asan da CI com
# -DHZ_FUZZ=ON).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_PER_TARGET="${1:-20}"
BUILD="${HZ_FUZZ_BUILD:-$ROOT/build-fuzz}"
JOBS="${HZ_JOBS:-2}"

if ! [[ "$SECONDS_PER_TARGET" =~ ^[1-9][0-9]*$ ]]; then
  echo "uso: fuzz/run.sh [SEGUNDOS]   (SEGUNDOS por alvo, inteiro positivo; padrão 20)" >&2
  exit 2
fi

show() {
  printf '+ %s\n' "$*" >&2
}

# O libFuzzer vem com o clang, mas no Debian mora num pacote à parte.
check_libfuzzer() {
  local probe
  probe="$(mktemp -d)"
  printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' \
    >"$probe/probe.cpp"
  if ! command -v clang++ >/dev/null 2>&1 ||
    ! clang++ -fsanitize=fuzzer,address "$probe/probe.cpp" -o "$probe/probe" >/dev/null 2>&1; then
    rm -rf "$probe"
    echo "fuzz/run.sh: preciso do clang com o libFuzzer (-fsanitize=fuzzer). No Debian 12:" >&2
    echo "  apt-get install -y clang libclang-rt-14-dev" >&2
    exit 2
  fi
  rm -rf "$probe"
}

configure_and_build() {
  local werror=OFF
  [[ "${HZ_WERROR:-0}" == 1 ]] && werror=ON
  # -O1 -g1: compila bem mais rápido que -O2 -g, e os relatórios ainda têm
  # arquivo e linha. Sem cabeçalhos pré-compilados nem lotes (HZ_PCH e
  # HZ_UNITY): é o build em que cada arquivo compila sozinho, com os #include
  # que ele mesmo escreve (nos outros, um #include esquecido passaria).
  local config=(-S "$ROOT" -B "$BUILD" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" -DHZ_FUZZ=ON -DBUILD_TESTING=OFF
    -DHZ_WERROR="$werror" -DHZ_PCH=OFF -DHZ_UNITY=OFF)
  show cmake "${config[@]}"
  cmake "${config[@]}" >"$BUILD/configure.log" 2>&1 || {
    cat "$BUILD/configure.log" >&2
    exit 1
  }
  show cmake --build "$BUILD" --target hz-fuzz --parallel "$JOBS"
  cmake --build "$BUILD" --target hz-fuzz --parallel "$JOBS"
}

# Roda um alvo; o log fica em $BUILD/logs/<alvo>.log.
run_target() {
  local name="$1" bin="$BUILD/bin/fuzz_$1"
  local work="$BUILD/corpus/$name" artifacts="$BUILD/artifacts/$name/" log="$BUILD/logs/$name.log"
  local seeds="$ROOT/fuzz/corpus/$name" args=()
  mkdir -p "$work" "$artifacts" "$(dirname "$log")"
  [[ -f "$ROOT/fuzz/dict/$name.dict" ]] && args+=("-dict=$ROOT/fuzz/dict/$name.dict")
  # -timeout: uma entrada que leva mais que isso é um travamento (o FIFO, um laço).
  "$bin" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts" "${args[@]}" \
    "$work" "$seeds" >"$log" 2>&1
}

# "alvo: N execuções, E exec/s, C entradas no corpus" a partir do log.
summarize() {
  local name="$1" rc="$2" log="$BUILD/logs/$1.log" runs speed corpus
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)"
  speed="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n1)"
  corpus="$(find "$BUILD/corpus/$name" -type f | wc -l)"
  if [[ "$rc" -eq 0 ]]; then
    printf '  ok      %-12s %9s execuções  %6s exec/s  %5s entradas novas no corpus\n' \
      "$name" "${runs:-?}" "${speed:-?}" "$corpus"
  else
    printf '  FALHOU  %-12s (código %s) — log: %s\n' "$name" "$rc" "$log"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|hz-fuzz:|.*runtime error)' "$log" | head -n 5 | sed 's/^/          /'
    local crash
    crash="$(find "$BUILD/artifacts/$name" -type f | head -n1)"
    [[ -n "$crash" ]] && printf '          reproduza: %s %s\n' "$BUILD/bin/fuzz_$name" "$crash"
  fi
}

if [[ "${HZ_FUZZ_NO_BUILD:-0}" == 1 ]]; then
  compgen -G "$BUILD/bin/fuzz_*" >/dev/null || {
    echo "fuzz/run.sh: HZ_FUZZ_NO_BUILD=1, mas não há alvos em $BUILD/bin (compile com -DHZ_FUZZ=ON)" >&2
    exit 2
  }
else
  check_libfuzzer
  mkdir -p "$BUILD"
  configure_and_build
fi

targets=()
if [[ -n "${HZ_FUZZ_ONLY:-}" ]]; then
  read -r -a targets <<<"$HZ_FUZZ_ONLY"
else
  for bin in "$BUILD"/bin/fuzz_*; do targets+=("${bin##*/fuzz_}"); done
fi

printf '\nrodando %d alvos, %s s cada, %s ao mesmo tempo\n' "${#targets[@]}" "$SECONDS_PER_TARGET" "$JOBS"
declare -A pids=()
declare -A codes=()
start=$SECONDS
for name in "${targets[@]}"; do
  while [[ $(jobs -rp | wc -l) -ge $JOBS ]]; do wait -n || true; done
  run_target "$name" &
  pids[$name]=$!
done
failed=0
for name in "${targets[@]}"; do
  rc=0
  wait "${pids[$name]}" || rc=$?
  codes[$name]=$rc
  [[ $rc -eq 0 ]] || failed=1
done
printf '\nresumo do fuzzing (%ds):\n' "$((SECONDS - start))"
for name in "${targets[@]}"; do summarize "$name" "${codes[$name]}"; done
exit "$failed"
