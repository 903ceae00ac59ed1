#!/usr/bin/env bash
# ./hz propagate num curso pequeno de duas etapas, num repositório git temporário:
# uma correção feita em solutions/01-x chega a solutions/02-x por merge de três
# vias, sem desfazer o que a 02 muda; um conflito para tudo com uma mensagem
# clara e não toca o arquivo da etapa seguinte.
# Uso: propagate_check.sh RAIZ HZ_COURSE
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

root="$1"
course="$2"
make_tmp hz-propagate-check
# O ./hz propagate deixa o conflito numa pasta temporária para quem resolve;
# aqui ela fica dentro de $tmp e vai embora com ele.
export TMPDIR="$tmp"

skip_without git "sem git: pulando"

c="$tmp/curso"
mkdir -p "$c/etapas" "$c/solutions/01-x" "$c/solutions/02-x" "$c/exercises"
cp "$root/hz" "$c/hz"
printf '01-x\n02-x: a.cpp\n' >"$c/etapas/stages.txt"
printf 'linha 1\nlinha 2\nlinha 3\nlinha 4\nlinha 5\nlinha 6\nlinha 7\n' >"$c/solutions/01-x/a.cpp"
printf 'igual\n' >"$c/solutions/01-x/b.cpp"
printf 'linha 1\nlinha 2\nlinha 3\nlinha 4\nlinha 5\nlinha 6 da etapa 02\nlinha 7\n' >"$c/solutions/02-x/a.cpp"
printf 'igual\n' >"$c/solutions/02-x/b.cpp"
git_init_commit "$c" base

# Uma correção na 01, numa linha que a 02 não muda, e outra num arquivo idêntico.
sed -i 's/linha 2/linha 2 corrigida/' "$c/solutions/01-x/a.cpp"
printf 'igual, corrigido\n' >"$c/solutions/01-x/b.cpp"
(cd "$c" && HZ_COURSE="$course" HZ_PROPAGATE_TEST=0 HZ_SKIP_DEPS=1 NO_COLOR=1 ./hz propagate 01-x) \
  >"$tmp/out" 2>&1 || fail "propagate falhou: $(cat "$tmp/out")"
expected=$'linha 1\nlinha 2 corrigida\nlinha 3\nlinha 4\nlinha 5\nlinha 6 da etapa 02\nlinha 7'
[[ "$(cat "$c/solutions/02-x/a.cpp")" == "$expected" ]] ||
  fail "solutions/02-x/a.cpp depois do propagate: $(cat "$c/solutions/02-x/a.cpp")"
[[ "$(cat "$c/solutions/02-x/b.cpp")" == "igual, corrigido" ]] || fail "b.cpp não foi levado"
grep -qF "levado: a.cpp" "$tmp/out" || fail "a saída não diz o que foi levado: $(cat "$tmp/out")"
[[ -f "$c/livro/diffs/02-x.diff" ]] || fail "o diff da etapa não foi reescrito"
grep -qF -- "+linha 6 da etapa 02" "$c/livro/diffs/02-x.diff" || fail "diff sem a mudança da 02"
git -C "$c" add -A
git_quiet -C "$c" commit -qm correcao

# Rodar de novo sem mudanças: nada a levar.
(cd "$c" && HZ_COURSE="$course" HZ_PROPAGATE_TEST=0 HZ_SKIP_DEPS=1 NO_COLOR=1 ./hz propagate 01-x) \
  >"$tmp/out" 2>&1 || fail "propagate sem mudanças falhou: $(cat "$tmp/out")"
grep -qF "Nada a levar" "$tmp/out" || fail "esperava 'Nada a levar': $(cat "$tmp/out")"

# Um conflito: a 01 muda a linha que a 02 reescreveu.
sed -i 's/^linha 6$/linha 6 mudada na 01/' "$c/solutions/01-x/a.cpp"
before="$(cat "$c/solutions/02-x/a.cpp")"
if (cd "$c" && HZ_COURSE="$course" HZ_PROPAGATE_TEST=0 HZ_SKIP_DEPS=1 NO_COLOR=1 ./hz propagate 01-x) \
  >"$tmp/out" 2>&1; then
  fail "propagate com conflito deveria falhar: $(cat "$tmp/out")"
fi
grep -qF "conflito ao levar solutions/01-x/a.cpp para solutions/02-x/a.cpp" "$tmp/out" ||
  fail "mensagem de conflito: $(cat "$tmp/out")"
[[ "$(cat "$c/solutions/02-x/a.cpp")" == "$before" ]] || fail "o arquivo com conflito foi tocado"
echo "ok: propagate leva a correção, diz quando não há nada e para no conflito"
