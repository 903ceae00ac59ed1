#!/usr/bin/env bash
# Funções do ./hz que decidem o que é recompilado, rodado de novo ou achado, lidas
# com "source hz" e testadas sem compilar nada:
#   sync_tree              (./hz grade) deixa a pasta de correção igual à cópia
#                          montada: arquivo igual fica com a data que tinha,
#                          arquivo mudado chega com a data de agora, o que sobra
#                          é apagado;
#   stage_results_current  (./hz progress) o relatório guardado de uma etapa só
#                          vale se é mais novo que os dois executáveis que ele testou.
#   link_bin               bin/ na raiz aponta para os executáveis da trilha ativa
#                          (os comandos do livro usam bin/hz-...);
#   forget_other_generator uma pasta configurada com o make perde só o cache.
#   copy_student_sources   (./hz grade) copia só os fontes do aluno, e diz quais
#                          arquivos dele ficam de fora (não os iguais aos do curso).
#   refuse_student         (./hz grade) o aluno recusado entra no CSV como "recusado".
# Uso: hz_functions_check.sh RAIZ
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

root="$1"
make_tmp hz-functions-check

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
  fail "o arquivo igual foi tocado: o Ninja o recompilaria à toa"
[[ "$(cat "$to/a/mudou.cpp")" == "do aluno novo" ]] || fail "o arquivo mudado não chegou"
(($(mtime "$to/a/mudou.cpp") >= before)) ||
  fail "o arquivo mudado chegou com a data antiga: o Ninja não o recompilaria"
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

# --- link_bin: bin/ na raiz segue a trilha ativa
work="$tmp/curso"
mkdir -p "$work/build/bin" "$work/build-exercises/bin"
link() { (source "$root/hz" && cd "$work" && link_bin "$1" 2>"$tmp/link.err"); }
link build
[[ "$(readlink "$work/bin")" == "build/bin" ]] || fail "bin/ deveria apontar para build/bin"
link build-exercises
[[ "$(readlink "$work/bin")" == "build-exercises/bin" ]] ||
  fail "bin/ deveria passar a apontar para build-exercises/bin, e não $(readlink "$work/bin")"
[[ ! -e "$work/build/bin/bin" && ! -e "$work/build-exercises/bin/bin" ]] ||
  fail "o link novo foi criado dentro da pasta antiga em vez de trocar o link"
rm "$work/bin" && mkdir "$work/bin" && echo meu >"$work/bin/script"
link build
[[ -d "$work/bin" && ! -L "$work/bin" && "$(cat "$work/bin/script")" == meu ]] ||
  fail "uma pasta bin/ de verdade não é do ./hz e deveria ficar como estava"
grep -q "não é um link" "$tmp/link.err" || fail "a pasta bin/ de verdade deveria ganhar um aviso"
echo "ok: link_bin aponta bin/ para a trilha ativa e não mexe numa pasta bin/ de verdade"

# --- forget_other_generator: uma pasta do make vira do Ninja sem perder resultados
old="$tmp/build-velho"
mkdir -p "$old/CMakeFiles" "$old/hz-progress"
printf 'CMAKE_GENERATOR:INTERNAL=Unix Makefiles\n' >"$old/CMakeCache.txt"
echo guardado >"$old/hz-progress/01-x.xml"
(source "$root/hz" && forget_other_generator "$old" 2>/dev/null)
[[ ! -e "$old/CMakeCache.txt" && ! -e "$old/CMakeFiles" ]] ||
  fail "o cache do make deveria sair (o cmake recusaria o Ninja)"
[[ "$(cat "$old/hz-progress/01-x.xml")" == guardado ]] || fail "os resultados guardados sumiram"
mkdir -p "$old/CMakeFiles"
printf 'CMAKE_GENERATOR:INTERNAL=Ninja\n' >"$old/CMakeCache.txt"
(source "$root/hz" && forget_other_generator "$old")
[[ -f "$old/CMakeCache.txt" && -d "$old/CMakeFiles" ]] || fail "um cache do Ninja deveria ficar"
echo "ok: forget_other_generator apaga só o cache de outro gerador"

# --- copy_student_sources: os fontes entram; de fora, só o que o aluno mudou ou criou
src="$tmp/aluno" dest="$tmp/correcao" original="$tmp/curso"
mkdir -p "$src/sub" "$dest" "$original"
printf 'a\n' >"$src/a.cpp"
printf 'b\n' >"$src/sub/b.hpp"
printf 'c\n' >"$src/-rf.h"
printf 'dicas\n' >"$src/hints.md"
printf 'dicas\n' >"$original/hints.md"
printf 'mudei\n' >"$src/README.md"
printf 'original\n' >"$original/README.md"
printf 'minhas notas\n' >"$src/notas.txt"
printf '# mexido\n' >"$src/CMakeLists.txt"
(source "$root/hz" && copy_student_sources "$src" "$dest" "$original") >"$tmp/copy.out" \
  2>"$tmp/copy.err" || fail "copy_student_sources falhou: $(cat "$tmp/copy.err")"
[[ "$(cat "$tmp/copy.out")" == $'README.md\nnotas.txt' ]] ||
  fail_showing "$tmp/copy.out" "de fora deveriam ficar só README.md (mudado) e notas.txt (novo)"
[[ "$(cd "$dest" && find . -type f | sort | tr '\n' ' ')" == "./-rf.h ./a.cpp ./sub/b.hpp " ]] ||
  fail "deveriam ser copiados só -rf.h, a.cpp e sub/b.hpp: $(cd "$dest" && find . -type f)"
grep -q "invalid option" "$tmp/copy.err" && fail "um arquivo -rf.h virou opção: $(cat "$tmp/copy.err")"
echo "ok: copy_student_sources copia os fontes e lista de fora só o que o aluno mudou ou criou"

# --- refuse_student: a recusa entra no CSV da turma como "recusado", no formato
# do hz-course (o mesmo cabeçalho, o mesmo campo entre aspas).
csv="$tmp/notas.csv" name='Silva, Ana "Aninha"' stage=01-loop
(source "$root/hz" && NO_COLOR=1 refuse_student "motivo da recusa") >"$tmp/refuse.out" 2>&1 &&
  fail "refuse_student deveria sair com erro"
grep -qF "hz: motivo da recusa" "$tmp/refuse.out" || fail_showing "$tmp/refuse.out" "a mensagem sumiu"
name=bruno
(source "$root/hz" && refuse_student "outra") >/dev/null 2>&1 || true
expected=$'aluno,etapa,passando,total,nota\n"Silva, Ana ""Aninha""",01-loop,,,recusado\nbruno,01-loop,,,recusado'
[[ "$(cat "$csv")" == "$expected" ]] || fail_showing "$csv" "esperava o cabeçalho uma vez e duas linhas recusado"
grep -qF "kGradesHeader = \"$(head -n1 "$csv")\"" "$root/course/include/hz/course/grades_csv.hpp" ||
  fail "o cabeçalho do ./hz difere do kGradesHeader de course/include/hz/course/grades_csv.hpp"
csv=""
(source "$root/hz" && refuse_student "sem csv") >/dev/null 2>&1 || true
[[ "$(wc -l <"$tmp/notas.csv")" -eq 3 ]] || fail "sem --csv, a recusa escreveu no CSV"
# No GitHub Actions, a recusa vai para o resumo da execução, só com a primeira linha do motivo.
(source "$root/hz" && GITHUB_STEP_SUMMARY="$tmp/resumo.md" refuse_student $'motivo\ndetalhes') \
  >/dev/null 2>&1 || true
[[ "$(cat "$tmp/resumo.md")" == "01-loop: recusado (motivo)" ]] ||
  fail_showing "$tmp/resumo.md" "o resumo da execução deveria dizer '01-loop: recusado (motivo)'"
echo "ok: refuse_student põe o aluno recusado no CSV (cabeçalho uma vez, campo entre aspas) e no resumo do GitHub Actions, e sai com erro"
