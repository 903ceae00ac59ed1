#!/usr/bin/env bash
# ./hz book numa pasta temporária: o HTML passa no conferidor estrito
# (hz-html-check: tags fechadas, ids únicos, todo link interno com destino) e
# nenhum link ainda aponta para um .md. Sem pandoc, pula (código 77).
# Uso: book_check.sh RAIZ HZ_HTML_CHECK
set -euo pipefail

root="$1"
checker="$2"
if ! command -v pandoc >/dev/null 2>&1; then
  echo "pulado: o pandoc não está instalado (./hz book o instala; ou apt-get install pandoc)"
  exit 77
fi
tmp="$(mktemp -d "${TMPDIR:-/tmp}/hz-book-check-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

fail() {
  echo "FALHOU: $*" >&2
  exit 1
}

HZ_SKIP_DEPS=1 "$root/hz" book --out "$tmp" >"$tmp/log" 2>&1 || fail "./hz book falhou: $(cat "$tmp/log")"
html="$tmp/livro.html"
[[ -s "$html" ]] || fail "./hz book não escreveu $html"
"$checker" "$html"

if grep -o 'href="[^"#:]*\.md[^"]*"' "$html" >"$tmp/md-links"; then
  fail "links que ainda apontam para arquivos .md: $(sort -u "$tmp/md-links" | tr '\n' ' ')"
fi
# Um link para outro arquivo do livro continua link (vira âncora); só os que
# saem do livro (../README.md) viram texto.
if grep -o 'title="no repositório: [^"./][^"/]*"' "$html" >"$tmp/lost"; then
  fail "links entre arquivos do livro que viraram texto: $(sort -u "$tmp/lost" | tr '\n' ' ')"
fi
# Cada arquivo do livro vira uma âncora de capítulo, e o sumário existe.
for f in "$root"/livro/*.md; do
  name="$(basename "$f" .md)"
  [[ "$name" == README ]] && name=introducao
  grep -q "id=\"$name\"" "$html" || fail "falta a âncora do capítulo $name"
done
grep -q '<nav id="TOC"' "$html" || fail "falta o sumário"
# Autocontido: nada de fora além dos links que o texto cita.
if grep -qE '<(script|link|img)[ >]' "$html"; then fail "o HTML carrega recursos de fora"; fi
echo "ok: $(grep -c 'class="capitulo"' "$html") capítulos em $html"
