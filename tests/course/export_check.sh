#!/usr/bin/env bash
# Conferências rápidas (sem compilar nada) da exportação para alunos:
#   track   a trilha padrão do cmake/HzOptions.cmake com e sem solutions/, e a
#           trilha proof
#   export  ./hz export numa pasta temporária, o que o aluno roda nela sem
#           solutions/ (list, hint, carry) e o que o ./hz grade usa (as recusas
#           antes de compilar e o hz-course fill)
# Uso: export_check.sh track|export RAIZ [HZ_COURSE]
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

mode="$1"
root="$2"
make_tmp hz-export-check

# O núcleo de uma etapa no projeto mínimo: um alvo que não compila nada (o
# HzOptions.cmake põe opções de compilação nele fora da trilha solutions).
write_core() { # write_core PASTA
  mkdir -p "$1"
  : >"$1/core.txt"
  # shellcheck disable=SC2016 # o texto literal do CMake
  printf '%s\n' 'add_library(${HZ_STAGE_CORE} OBJECT core.txt)' \
    'set_target_properties(${HZ_STAGE_CORE} PROPERTIES LINKER_LANGUAGE NONE)' >"$1/CMakeLists.txt"
}

check_track() {
  # Um projeto mínimo (sem compilador) que usa o HzOptions.cmake de verdade.
  local p="$tmp/p"
  mkdir -p "$p/cmake" "$p/etapas/01-x"
  cp "$root/cmake/HzOptions.cmake" "$p/cmake/"
  cat >"$p/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.22)
project(hz_track_check NONE)
include(cmake/HzOptions.cmake)
# Sem compilador não há cabeçalho pré-compilado nem lote (cmake/HzPch.cmake).
function(hz_pch)
endfunction()
function(hz_unity)
endfunction()
hz_add_stage(01-x)
CM
  write_core "$p/exercises/01-x"
  : >"$p/etapas/01-x/CMakeLists.txt"

  cmake -S "$p" -B "$tmp/b1" >"$tmp/out1" 2>&1 || fail "configurar sem solutions/ falhou: $(cat "$tmp/out1")"
  expect_contains "$tmp/out1" "Etapa 01-x: trilha exercises"

  if cmake -S "$p" -B "$tmp/b2" -DHZ_TRACK=solutions >"$tmp/out2" 2>&1; then
    fail "-DHZ_TRACK=solutions sem solutions/ deveria falhar"
  fi
  expect_contains "$tmp/out2" "A trilha solutions foi pedida para 01-x"

  write_core "$p/solutions/01-x"
  cmake -S "$p" -B "$tmp/b3" >"$tmp/out3" 2>&1 || fail "configurar com solutions/ falhou: $(cat "$tmp/out3")"
  expect_contains "$tmp/out3" "Etapa 01-x: trilha solutions"

  # A trilha proof lê o núcleo que hz-course exercises --proof-out escreveu.
  if cmake -S "$p" -B "$tmp/b4" -DHZ_TRACK=proof -DHZ_PROOF_DIR="$tmp/prova" >"$tmp/out4" 2>&1; then
    fail "-DHZ_TRACK=proof sem a pasta da prova deveria falhar"
  fi
  expect_contains "$tmp/out4" "A trilha proof precisa de $tmp/prova/01-x"
  write_core "$tmp/prova/01-x"
  cmake -S "$p" -B "$tmp/b5" -DHZ_TRACK=proof -DHZ_PROOF_DIR="$tmp/prova" >"$tmp/out5" 2>&1 ||
    fail "configurar a trilha proof falhou: $(cat "$tmp/out5")"
  expect_contains "$tmp/out5" "Etapa 01-x: trilha proof"
  echo "ok: trilha padrão solutions com solutions/ e exercises sem; trilha proof"
}

# O compile_commands.json da raiz segue a trilha ativa (o clangd do aluno abre
# o código dele, não a resposta), e um arquivo de verdade ali não é tocado.
check_clangd() {
  local p="$tmp/c"
  mkdir -p "$p/solutions" "$p/etapas"
  cp "$root/hz" "$p/"
  (cd "$p" && HZ_SKIP_DEPS=1 ./hz solutions >"$tmp/outc" 2>&1) || fail "./hz solutions falhou: $(cat "$tmp/outc")"
  [[ -L "$p/compile_commands.json" && "$(readlink "$p/compile_commands.json")" == build/compile_commands.json ]] ||
    fail "depois de ./hz solutions, compile_commands.json deveria apontar para build/: $(ls -l "$p")"
  rm "$p/compile_commands.json"
  echo '[]' >"$p/compile_commands.json"
  (cd "$p" && HZ_SKIP_DEPS=1 ./hz solutions >"$tmp/outc" 2>&1) || fail "./hz solutions falhou: $(cat "$tmp/outc")"
  [[ ! -L "$p/compile_commands.json" && "$(cat "$p/compile_commands.json")" == "[]" ]] ||
    fail "um compile_commands.json de verdade na raiz não pode ser trocado"
  echo "ok: compile_commands.json da raiz segue a trilha e respeita um arquivo de verdade"
}

# listing_block ARQUIVO COMENTÁRIO: o conteúdo do bloco cercado logo depois do comentário.
listing_block() {
  awk -v c="$2" '
    found && /^```/ { if (inside) exit; inside = 1; next }
    found && inside { print }
    $0 == c { found = 1 }' "$1"
}

# Todo link relativo e todo script ou workflow citado nos .md da cópia existe
# nela, e todo ./hz SUB citado é um subcomando que a cópia tem (./hz SUB --help
# sai com 0). Os documentos do professor (GRADING.md, livro/para-professores.md)
# falam também do curso completo, de onde ele exporta: lá, um caminho ou um SUB
# pode existir só no curso completo. No curso completo, todo link vale também.
check_exported_documents() { # check_exported_documents HZ_COURSE CÓPIA
  local course="$1" out="$2" who where sub hz problems="" pairs=0
  "$course" doc-refs --root "$out" --teacher GRADING.md,livro/para-professores.md \
    --full-course "$root" >"$tmp/refs.out" 2>"$tmp/refs.err" ||
    fail "a cópia dos alunos cita o que ela não tem:
$(cat "$tmp/refs.err")"
  [[ -s "$tmp/refs.out" ]] || fail "doc-refs não achou nenhum ./hz SUB nos documentos da cópia"
  # Um ./hz por par (quem, SUB); os lugares de cada par que falha vão na mensagem.
  while IFS=$'\t' read -r who sub; do
    pairs=$((pairs + 1))
    if [[ "$who" == aluno ]]; then hz="$out/hz"; else hz="$root/hz"; fi
    if ! HZ_SKIP_DEPS=1 NO_COLOR=1 "$hz" "$sub" --help >/dev/null 2>"$tmp/sub.err"; then
      where="$(awk -F'\t' -v w="$who" -v s="$sub" '$1 == w && $3 == s { print $2 }' "$tmp/refs.out" | tr '\n' ' ')"
      problems+="  ./hz $sub ($who: $where): $(head -n1 "$tmp/sub.err")"$'\n'
    fi
  done < <(awk -F'\t' '{ print $1 "\t" $3 }' "$tmp/refs.out" | sort -u)
  [[ -z "$problems" ]] || fail "documentos citam subcomandos do ./hz que não existem onde o leitor está:
$problems"
  if "$course" doc-refs --root "$root" >/dev/null 2>"$tmp/full-refs.err"; then :; fi
  if grep ": link para " "$tmp/full-refs.err" >"$tmp/full-links"; then
    fail "links quebrados no curso completo:
$(cat "$tmp/full-links")"
  fi
  echo "ok: os documentos da cópia só citam links, scripts e ./hz SUB que existem ($pairs subcomandos)"
}

check_export() {
  local course="$1" out="$tmp/aluno"
  # Na cópia de um aluno não há o que exportar: o ./hz export e o ./hz update são do professor.
  [[ -d "$root/solutions" ]] ||
    skip "esta cópia não tem solutions/ (é a de um aluno): só a do professor exporta; pulando"
  skip_without git "sem git: ./hz export precisa dele; pulando"
  # ./hz export usa o último commit; para conferir o que está no disco (e não só o
  # que já foi commitado), a árvore atual vira o commit de um repositório
  # temporário.
  mkdir -p "$tmp/src"
  # shellcheck source=/dev/null # a cópia do ./hz grade e dos bench
  (source "$root/hz" && copy_course_tree "$tmp/src")
  git_init_commit "$tmp/src" "árvore atual"
  root="$tmp/src"
  HZ_COURSE="$course" NO_COLOR=1 "$root/hz" export "$out" >"$tmp/export.out" 2>&1 ||
    fail "./hz export falhou: $(cat "$tmp/export.out")"
  [[ ! -e "$out/solutions" ]] || fail "a exportação tem solutions/"
  [[ ! -e "$out/.ci" ]] || fail "a exportação tem .ci/"
  [[ ! -e "$out/course/export" ]] || fail "a exportação tem course/export/"
  [[ -f "$out/GRADING.md" ]] || fail "a exportação não tem GRADING.md"
  # O guia do professor vai na cópia, sem os erros típicos de cada exercício: eles dizem o conserto.
  local mistakes="## Os erros que os alunos cometem na etapa"
  grep -qF -- "$mistakes" "$root/livro/para-professores.md" ||
    fail "livro/para-professores.md do curso não tem mais \"$mistakes\": atualize esta conferência"
  [[ -f "$out/livro/para-professores.md" ]] || fail "a exportação não tem livro/para-professores.md"
  if grep -qF -- "$mistakes" "$out/livro/para-professores.md"; then
    fail "o guia do professor exportado mostra os erros dos alunos, com o conserto de cada exercício"
  fi
  # Reexportar para liberar uma etapa (--release) não pode soltar a correção do
  # commit fixado: sem --template-ref, o workflow da versão nova volta a
  # "main". Todo ./hz export --release dos guias do professor passa o commit.
  local guide releases
  for guide in course/export/GRADING.md livro/para-professores.md; do
    releases="$(awk '/\\$/ { sub(/\\$/, ""); line = line $0; next } { print line $0; line = "" }' \
      "$root/$guide" | grep -F -- "./hz export" | grep -F -- "--release" || true)"
    [[ -n "$releases" ]] || fail "$guide não mostra mais um ./hz export --release: atualize esta conferência"
    if grep -vF -- "--template-ref" <<<"$releases"; then
      fail "$guide: ./hz export --release sem --template-ref devolve a correção a main"
    fi
  done
  local wf="$out/.github/workflows/autograding.yml"
  expect_contains "$wf" "HZ_TEMPLATE_REPO: DONO/NOME-DO-MODELO"
  expect_contains "$wf" "HZ_TEMPLATE_REF: main"
  expect_contains "$wf" 'stage: ["01-loop"'
  # shellcheck disable=SC2016 # o texto literal do workflow
  expect_contains "$wf" '.grader/hz grade "${{ matrix.stage }}" --student "$GITHUB_WORKSPACE"'
  expect_contains "$tmp/export.out" "Falta o repositório-modelo"
  if grep -rq "^<!-- listing: solutions/" "$out/livro"; then fail "o livro exportado ainda lista solutions/"; fi
  # A listagem do laço mostra o stub que o gerador escreveu, não a resposta.
  local comment="<!-- listing: exercises/01-loop/agent_loop.cpp#run-turn -->"
  expect_contains "$out/livro/01-loop.md" "$comment"
  listing_block "$out/livro/01-loop.md" "$comment" >"$tmp/run-turn"
  expect_contains "$tmp/run-turn" "// TODO EXERCICIO 01-loop/"
  expect_contains "$tmp/run-turn" 'throw hz::NotImplemented("01-loop/'
  expect_contains "$tmp/run-turn" "// FIM-EXERCICIO"
  "$course" listings --root "$out" --check >/dev/null || fail "as listagens da exportação não batem com exercises/"
  # Os diffs das etapas no livro vêm de exercises/ (./hz export roda stages --update --tree exercises).
  if grep -rqs "^diff -ru solutions/" "$out/livro/diffs"; then fail "um diff do livro exportado mostra solutions/"; fi
  "$course" stages --root "$out" --check --tree exercises >"$tmp/stages.out" 2>&1 ||
    fail "os diffs do livro exportado não são os de exercises/: $(cat "$tmp/stages.out")"
  # As dicas (exercises/NN/hints.md, uma a uma pelo ./hz hint) não vão inteiras para o livro.
  compgen -G "$out/exercises/*/hints.md" >/dev/null ||
    fail "exercises/ exportada não tem hints.md: atualize esta conferência"
  if grep -rnE '^diff -ru [^ ]*/hints\.md ' "$out/livro/diffs" >"$tmp/hints-in-diffs"; then
    fail "um diff do livro exportado mostra as dicas: $(cat "$tmp/hints-in-diffs")"
  fi
  # Na cópia dos alunos não há solutions/: o livro, os guias das etapas e o README de common/
  # não mandam o aluno para lá (o que só vale no curso completo fica entre as marcas
  # <!-- curso-completo -->). A exceção é o guia do professor, que fala do curso completo de onde
  # ele exporta. O README da raiz e o exercises/README.md citam solutions/ dizendo que ela é só
  # do curso completo, e ficam fora desta conferência.
  if grep -rnE 'solutions/|\./hz solutions' --include='*.md' "$out/livro" "$out/etapas" "$out/common/README.md" |
    grep -v "^$out/livro/para-professores\.md:" >"$tmp/solutions-refs"; then
    fail "a cópia dos alunos cita solutions/, que ela não tem (use <!-- curso-completo -->):
$(cat "$tmp/solutions-refs")"
  fi

  check_exported_documents "$course" "$out"

  # Dois testes do curso que a cópia dos alunos também roda, rodados nela: o
  # README de cada pasta só cita o que a cópia tem, e o ./hz SUB --help vale
  # (sem o export, que a cópia recusa).
  bash "$root/tests/course/readme_check.sh" "$out" >"$tmp/readme.out" 2>&1 ||
    fail "na exportação, um README de pasta cita o que ela não tem: $(cat "$tmp/readme.out")"
  bash "$root/tests/course/version_check.sh" "$out" "$course" >"$tmp/version.out" 2>&1 ||
    fail "na exportação, a conferência de --version e ./hz SUB --help falhou: $(cat "$tmp/version.out")"

  # O que o aluno roda na cópia dele, que não tem solutions/.
  local stage_list first second last
  mapfile -t stage_list < <(sed -n 's/^\([0-9][0-9]-[a-z0-9-]*\).*/\1/p' "$out/etapas/stages.txt")
  first="${stage_list[0]}" second="${stage_list[1]:-}" last="${stage_list[-1]}"
  "$course" list --root "$out" >"$tmp/list.out" 2>&1 || fail "hz-course list na exportação falhou: $(cat "$tmp/list.out")"
  expect_contains "$tmp/list.out" "$first/"
  "$course" hint --root "$out" --state "$tmp/dicas.json" >"$tmp/hint.out" 2>&1 ||
    fail "hz-course hint na exportação falhou: $(cat "$tmp/hint.out")"
  expect_contains "$tmp/hint.out" "Dica 1 de "
  if [[ -n "$second" && -d "$out/exercises/$second" ]]; then
    "$course" carry --root "$out" --to "$second" >"$tmp/carry.out" 2>&1 ||
      fail "hz-course carry sem solutions/ falhou: $(cat "$tmp/carry.out")"
    expect_contains "$tmp/carry.out" "0 regiões levadas para exercises/$second."
  fi

  # A correção põe as respostas de referência nas regiões das etapas
  # anteriores com este comando (numa cópia; nada compila aqui).
  mkdir -p "$tmp/nota"
  cp -R "$out/exercises" "$tmp/nota/"
  "$course" fill --root "$tmp/nota" --reference "$root" --stage "$last" >"$tmp/fill.out" 2>&1 ||
    fail "hz-course fill (o que ./hz grade roda) falhou: $(cat "$tmp/fill.out")"
  if [[ "$last" == "$first" ]]; then
    [[ ! -s "$tmp/fill.out" ]] || fail "fill na primeira etapa não tem o que trocar: $(cat "$tmp/fill.out")"
  else
    expect_contains "$tmp/fill.out" "Regiões de etapas anteriores com a resposta de referência:"
  fi

  # Pasta não vazia: recusa.
  if HZ_COURSE="$course" NO_COLOR=1 "$root/hz" export "$out" >"$tmp/again.out" 2>&1; then
    fail "exportar para uma pasta não vazia deveria falhar"
  fi
  expect_contains "$tmp/again.out" "não está vazia"

  # Com --template-repo o workflow sai pronto.
  HZ_COURSE="$course" NO_COLOR=1 "$root/hz" export "$tmp/aluno2" --template-repo escola/curso \
    --template-ref 0123abc >/dev/null 2>&1 || fail "./hz export --template-repo falhou"
  expect_contains "$tmp/aluno2/.github/workflows/autograding.yml" "HZ_TEMPLATE_REPO: escola/curso"
  expect_contains "$tmp/aluno2/.github/workflows/autograding.yml" "HZ_TEMPLATE_REF: 0123abc"
  [[ ! -e "$tmp/aluno2/.github/workflows/classroom.yml" ]] || fail "sem --classroom, a exportação não leva o classroom.yml"

  # --classroom: o workflow do GitHub Classroom no lugar do autograding.yml (um
  # só: os dois rodariam a cada push), e a mesma conferência dos documentos.
  HZ_COURSE="$course" NO_COLOR=1 "$root/hz" export "$tmp/aluno3" --classroom --template-repo escola/curso \
    >"$tmp/classroom.out" 2>&1 || fail "./hz export --classroom falhou: $(cat "$tmp/classroom.out")"
  [[ ! -e "$tmp/aluno3/.github/workflows/autograding.yml" ]] || fail "com --classroom, não deveria haver autograding.yml"
  local cw="$tmp/aluno3/.github/workflows/classroom.yml"
  expect_contains "$cw" "HZ_TEMPLATE_REPO: escola/curso"
  expect_contains "$cw" "uses: classroom-resources/autograding-grading-reporter@v1"
  if grep -q "@[A-Z_]*@" "$cw"; then fail "sobrou um marcador no classroom.yml: $(grep "@[A-Z_]*@" "$cw")"; fi
  expect_contains "$tmp/classroom.out" ".github/workflows/classroom.yml"
  # O ./hz update da cópia acha o modelo também no classroom.yml.
  (cd "$tmp/aluno3" && HZ_SKIP_DEPS=1 bash -c 'source ./hz && template_url') >"$tmp/url.out" ||
    fail "template_url falhou na cópia do Classroom"
  expect_contains "$tmp/url.out" "https://github.com/escola/curso.git"
  check_exported_documents "$course" "$tmp/aluno3"

  # Na exportação, o ./hz sabe que não há soluções (sem compilar nada).
  if NO_COLOR=1 "$out/hz" solutions >"$tmp/sol.out" 2>&1; then fail "./hz solutions deveria falhar sem solutions/"; fi
  expect_contains "$tmp/sol.out" "não tem solutions/"

  # O ./hz grade recusa, antes de compilar, link simbólico e CMakeLists.txt mexido.
  ln -s ../../etapas/01-loop/main.cpp "$out/exercises/01-loop/atalho.cpp"
  if NO_COLOR=1 "$root/hz" grade 01-loop --student "$out" >"$tmp/link.out" 2>&1; then
    fail "grade deveria recusar link simbólico"
  fi
  expect_contains "$tmp/link.out" "links simbólicos ou arquivos especiais"
  expect_contains "$tmp/link.out" "atalho.cpp"
  # Um --csv em que não dá para escrever é recusado antes de tudo, até antes de
  # olhar o aluno: descoberto só no fim, depois do build e dos testes, a
  # correção inteira iria fora.
  if NO_COLOR=1 "$root/hz" grade 01-loop --student "$out" --csv "$tmp/sem-pasta/notas.csv" >"$tmp/csv.out" 2>&1; then
    fail "grade deveria recusar um --csv numa pasta que não existe"
  fi
  expect_contains "$tmp/csv.out" "a pasta do CSV não existe: $tmp/sem-pasta"
  if NO_COLOR=1 "$root/hz" grade 01-loop --student "$out" --csv "$tmp" >"$tmp/csv-dir.out" 2>&1; then
    fail "grade deveria recusar um --csv que é uma pasta"
  fi
  expect_contains "$tmp/csv-dir.out" "--csv $tmp é uma pasta"
  rm "$out/exercises/01-loop/atalho.cpp"
  echo "# mexido" >>"$out/exercises/01-loop/CMakeLists.txt"
  if NO_COLOR=1 "$root/hz" grade 01-loop --student "$out" --csv "$tmp/notas.csv" --name ana \
    >"$tmp/cm.out" 2>&1; then
    fail "grade deveria recusar CMakeLists.txt diferente"
  fi
  expect_contains "$tmp/cm.out" "exercises/01-loop/CMakeLists.txt do aluno difere do original"
  # Na planilha da turma, a recusa tem a sua linha: o aluno não some.
  [[ "$(cat "$tmp/notas.csv")" == $'aluno,etapa,passando,total,nota\nana,01-loop,,,recusado' ]] ||
    fail_showing "$tmp/notas.csv" "a recusa deveria pôr a linha 'ana,01-loop,,,recusado' no CSV"
  # A mensagem mostra a diferença: na CI a mudança já está commitada, e o git
  # diff do aluno não a mostraria.
  expect_contains "$tmp/cm.out" "+# mexido"
  # Um --student que não é pasta: o que falta não é a pasta, é o tipo.
  if NO_COLOR=1 "$root/hz" grade 01-loop --student "$tmp/csv.out" >"$tmp/file.out" 2>&1; then
    fail "grade deveria recusar um --student que é um arquivo"
  fi
  expect_contains "$tmp/file.out" "--student $tmp/csv.out não é uma pasta"
  if NO_COLOR=1 "$root/hz" grade 01-loop --student "$tmp/ninguem" >"$tmp/none.out" 2>&1; then
    fail "grade deveria recusar um --student que não existe"
  fi
  expect_contains "$tmp/none.out" "a pasta do aluno não existe: $tmp/ninguem"
  if NO_COLOR=1 "$root/hz" grade 99-nada --student "$out" >"$tmp/stage.out" 2>&1; then
    fail "grade deveria recusar etapa desconhecida"
  fi
  expect_contains "$tmp/stage.out" "etapa desconhecida: 99-nada"
  echo "ok: export sem solutions/ e .ci/, livro e diffs com stubs (sem as dicas), livro e guias sem citar solutions/, guia do professor sem os erros dos alunos, workflow; list, hint e carry sem solutions/; fill; grade recusa o que não é código do aluno"
}

case "$mode" in
  track) check_track && check_clangd ;;
  export) check_export "${3:?falta o caminho do hz-course}" ;;
  *) fail "modo desconhecido: $mode" ;;
esac
