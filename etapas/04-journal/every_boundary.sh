#!/usr/bin/env bash
# O demo "a mesma coisa em cada fronteira" do capítulo 4: para cada fronteira
# do journal, uma execução do cenário journal/notes que morre ali (SIGKILL, por
# HZ_CRASH_AT) e uma retomada; a pasta de trabalho no fim é comparada com a de
# uma execução sem queda. A última linha é o controle: morto em after_effect:1
# e não retomado, a pasta fica diferente.
#
# Uso: etapas/04-journal/every_boundary.sh [EXECUTÁVEL] [PASTA]
#   EXECUTÁVEL  padrão: bin/hz-04-journal
#   PASTA       onde ficam os journals; padrão: uma pasta temporária nova
set -uo pipefail

bin="${1:-bin/hz-04-journal}"
[[ -x "$bin" ]] || {
  echo "every_boundary.sh: $bin não existe; compile antes (./hz build)" >&2
  exit 2
}
if [[ $# -ge 2 ]]; then
  out="$2"
else
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
fi
# Com --journal, a cópia do cenário fica depois do fim (a retomada precisa
# dela): aqui ela fica dentro de $out.
mkdir -p "$out/tmp"
export TMPDIR="$out/tmp"

# O exit dentro dos parênteses impede o bash de trocar o subshell pelo
# programa: o "Killed" do SIGKILL sai no stderr do subshell, que é /dev/null.
run() { ("$bin" --scenario journal/notes --journal "$@" >/dev/null 2>&1; exit $?) 2>/dev/null; }
# A pasta de trabalho de uma execução: o campo workspace do registro start.
workspace_of() { sed -n '1s/.*"workspace":"\([^"]*\)".*/\1/p' "$1"; }
compared() {
  if diff -r "$(workspace_of "$out/ok.jsonl")" "$(workspace_of "$1")" >/dev/null; then
    echo igual
  else
    echo DIFERENTE
  fi
}

run "$out/ok.jsonl"
for b in after_reply:1 before_intent:1 after_intent:1 after_effect:1 after_result:1 \
  after_intent:2 after_effect:2; do
  j="$out/$b.jsonl"
  HZ_CRASH_AT=$b run "$j"
  dead=$?
  run "$j" --resume
  back=$?
  echo "$b: morreu ($dead), retomou ($back), pasta de trabalho $(compared "$j")"
done
HZ_CRASH_AT=after_effect:1 run "$out/x.jsonl"
echo "after_effect:1 sem retomar: pasta de trabalho $(compared "$out/x.jsonl")"
