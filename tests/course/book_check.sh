#!/usr/bin/env bash
# ./hz book numa pasta temporária: o HTML passa no conferidor estrito
# (hz-html-check: tags fechadas, ids únicos, todo link interno com destino) e
# nenhum link ainda aponta para um .md. Sem pandoc, pula (código 77).
# Uso: book_check.sh RAIZ HZ_HTML_CHECK
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

root="$1"
checker="$2"
skip_without pandoc \
  "pulado: o pandoc não está instalado (./hz book o instala; ou apt-get install pandoc)"
make_tmp hz-book-check

HZ_SKIP_DEPS=1 "$root/hz" book --out "$tmp" >"$tmp/log" 2>&1 || fail "./hz book falhou: $(cat "$tmp/log")"
html="$tmp/livro.html"
[[ -s "$html" ]] || fail "./hz book não escreveu $html"
"$checker" "$html"

# (Os arquivos do curso fora do livro, class="no-repositorio", podem ser .md.)
if grep -o 'href="[^"#:]*\.md[^"]*"\( class="[^"]*"\)\?' "$html" | grep -v 'class="no-repositorio"' >"$tmp/md-links"; then
  fail "links que ainda apontam para arquivos .md: $(sort -u "$tmp/md-links" | tr '\n' ' ')"
fi
# Nenhum link vira texto: os entre arquivos do livro viram âncoras, e os que
# saem dele (../README.md, ../solutions/...) apontam para o arquivo no curso.
if grep -o 'title="no repositório: [^"]*"' "$html" >"$tmp/lost"; then
  fail "links que viraram texto: $(sort -u "$tmp/lost" | tr '\n' ' ')"
fi
# Todo link para um arquivo do curso abre (é relativo à pasta do HTML).
grep -o 'href="[^"#][^"]*"' "$html" | sed 's/^href="//; s/"$//' | grep -v '^[a-z][a-z0-9+.-]*:' |
  sort -u >"$tmp/repo-links" || true
[[ $(wc -l <"$tmp/repo-links") -ge 50 ]] ||
  fail "poucos links para arquivos do curso ($(wc -l <"$tmp/repo-links")): os caminhos citados não viraram links?"
while IFS= read -r href; do
  [[ -e "$tmp/${href%%#*}" ]] || fail "link para um arquivo do curso que não abre: $href"
done <"$tmp/repo-links"
grep -q 'class="no-repositorio" href="[^"]*solutions/01-loop/agent_loop.cpp"\|href="[^"]*solutions/01-loop/agent_loop.cpp" class="no-repositorio"' "$html" ||
  fail "a legenda da listagem de solutions/01-loop/agent_loop.cpp não aponta para o arquivo"
# Com --repo-url, os mesmos links vão para a forja.
HZ_SKIP_DEPS=1 "$root/hz" book --out "$tmp/forja" --repo-url https://forja.exemplo/curso/blob/abc >"$tmp/log2" 2>&1 ||
  fail "./hz book --repo-url falhou: $(cat "$tmp/log2")"
grep -q 'href="https://forja.exemplo/curso/blob/abc/fuzz/README.md"' "$tmp/forja/livro.html" ||
  fail "com --repo-url, o link para fuzz/README.md não vai para a forja"
if HZ_SKIP_DEPS=1 "$root/hz" book --out "$tmp/x" --repo-url forja >/dev/null 2>&1; then
  fail "--repo-url sem http(s):// deveria ser um erro de uso"
fi

# O glossário: cada linha da tabela tem uma âncora, e cada capítulo liga o
# primeiro uso de cada termo, uma vez só.
terms="$(grep -o 'id="glossario--termo-[^"]*"' "$html" | wc -l)"
[[ $terms -ge 80 ]] || fail "só $terms termos do glossário com âncora"
awk '/<div id="[^"]*" class="capitulo">/ { match($0, /id="[^"]*"/); c = substr($0, RSTART + 4, RLENGTH - 5) }
     { s = $0
       while (match(s, /href="#glossario--termo-[^"]*" class="glossario"/)) {
         print c, substr(s, RSTART + 6, RLENGTH - 25); s = substr(s, RSTART + RLENGTH) } }' "$html" |
  sort >"$tmp/gloss"
[[ -s "$tmp/gloss" ]] || fail "nenhum termo do glossário ligado nos capítulos"
if uniq -d "$tmp/gloss" | grep -q .; then
  fail "termo ligado mais de uma vez no mesmo capítulo: $(uniq -d "$tmp/gloss" | head -n3 | tr '\n' ' ')"
fi
for chapter in 01-loop 02-brakes 03-repetition-detector 04-journal; do
  n="$(grep -c "^$chapter " "$tmp/gloss" || true)"
  [[ $n -ge 10 ]] || fail "o capítulo $chapter liga só $n termos ao glossário"
done
grep -q "^01-loop #glossario--termo-tool-call$" "$tmp/gloss" || fail "o capítulo 01-loop não liga \"tool call\" ao glossário"
# Uma palavra de todo dia só vira link onde o livro a destaca: "o código em
# volta do modelo" não é a volta do loop, nem "erro de uso" o uso de tokens.
if grep -q -e 'em <a href="#glossario--termo-volta"' -e 'erro de <a href="#glossario--termo-uso"' "$html"; then
  fail "uma palavra comum (\"em volta\", \"erro de uso\") ligada ao termo do glossário"
fi
if grep -q "^glossario " "$tmp/gloss"; then fail "o glossário liga termos a si mesmo"; fi
# Cada arquivo do livro vira uma âncora de capítulo, e o sumário existe.
for f in "$root"/livro/*.md; do
  name="$(basename "$f" .md)"
  [[ "$name" == README ]] && name=introducao
  grep -q "id=\"$name\"" "$html" || fail "falta a âncora do capítulo $name"
done
grep -q '<nav id="TOC"' "$html" || fail "falta o sumário"
# Autocontido: nada de fora além dos links que o texto cita.
if grep -qE '<(script|link|img)[ >]' "$html"; then fail "o HTML carrega recursos de fora"; fi
echo "ok: $(grep -c 'class="capitulo"' "$html") capítulos em $html, $(wc -l <"$tmp/repo-links") arquivos do curso ligados, $(wc -l <"$tmp/gloss") usos do glossário ligados"
