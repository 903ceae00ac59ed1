#!/usr/bin/env bash
# Renderiza o livro (livro/*.md) num HTML só, autocontido, com o pandoc.
# Uso: course/book/render.sh PASTA_DO_LIVRO ARQUIVO.html [BASE_DOS_LINKS]
#
# BASE_DOS_LINKS: o começo do endereço dos arquivos do repositório citados no
# livro (../solutions/..., `etapas/01-loop/README.md`): o endereço da forja
# (https://github.com/DONO/NOME/blob/COMMIT/) ou um caminho relativo ao HTML
# até a raiz do curso (padrão: calculado daqui).
#
# Ordem: README.md (a introdução), os capítulos NN-*.md, o glossário, a
# bibliografia e qualquer outro .md. Cada arquivo vira uma div de capítulo; o
# filtro livro.lua transforma os links entre arquivos em âncoras da página.
# Sai com 3 se o pandoc não está instalado (o ./hz book instala).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[[ $# -eq 2 || $# -eq 3 ]] || {
  echo "uso: $0 PASTA_DO_LIVRO ARQUIVO.html [BASE_DOS_LINKS]" >&2
  exit 2
}
book="$1"
output="$2"
base="${3:-}"
command -v pandoc >/dev/null 2>&1 || {
  echo "render.sh: o pandoc não está instalado (apt-get install pandoc; o ./hz book instala)" >&2
  exit 3
}
[[ -f "$book/README.md" ]] || {
  echo "render.sh: $book não parece o livro (falta README.md)" >&2
  exit 2
}

tmp="$(mktemp -d "${TMPDIR:-/tmp}/hz-livro-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

files=(README.md)
for f in "$book"/[0-9][0-9]-*.md; do [[ -f "$f" ]] && files+=("$(basename "$f")"); done
for f in glossario.md bibliografia.md; do [[ -f "$book/$f" ]] && files+=("$f"); done
for f in "$book"/*.md; do
  name="$(basename "$f")"
  [[ " ${files[*]} " == *" $name "* ]] || files+=("$name")
done

inputs=()
for name in "${files[@]}"; do
  id="${name%.md}"
  [[ "$name" == README.md ]] && id=introducao
  {
    printf '::: {#%s .capitulo arquivo="%s"}\n\n' "$id" "$name"
    cat "$book/$name"
    printf '\n\n:::\n'
  } >"$tmp/$name"
  inputs+=("$tmp/$name")
done

{
  printf '<style>\n'
  cat "$here/livro.css"
  printf '</style>\n'
} >"$tmp/head.html"
cat >"$tmp/foot.html" <<'HTML'
<footer class="licenca">
<p>O livro do harness-zero está sob a licença
<a href="https://creativecommons.org/licenses/by/4.0/deed.pt_BR">Creative Commons Atribuição 4.0
Internacional (CC BY 4.0)</a>; o código, sob a licença MIT. Gerado por <code>./hz book</code>.</p>
</footer>
HTML

mkdir -p "$(dirname "$output")"
# A raiz do curso é a pasta de cima do livro; sem uma base dada, os links vão
# do HTML até ela por um caminho relativo (abre no navegador, com file://).
repo_root="$(cd "$book/.." && pwd -P)"
if [[ -z "$base" ]]; then
  out_dir="$(cd "$(dirname "$output")" && pwd -P)"
  if rel="$(realpath --relative-to="$out_dir" "$repo_root" 2>/dev/null)"; then
    base="$rel/"
  else
    base="file://$repo_root/"
  fi
  [[ "$base" == ./ ]] && base=""
fi
# commonmark_x: o Markdown do GitHub (os ids dos títulos saem como lá, e os
# links "01-loop.md#titulo" do livro continuam valendo) mais as divs ::: do pandoc.
echo "+ pandoc -f commonmark_x -t html5 --standalone --toc --file-scope --lua-filter $here/livro.lua ... -o $output" >&2
pandoc --from commonmark_x --to html5 --standalone --file-scope \
  --toc --toc-depth=2 \
  --lua-filter "$here/livro.lua" \
  --metadata pagetitle="harness-zero: o livro" --metadata lang=pt-BR \
  --metadata repo-base="$base" --metadata repo-root="$repo_root" \
  --include-in-header "$tmp/head.html" --include-after-body "$tmp/foot.html" \
  --wrap=none \
  --output "$output" "${inputs[@]}"
