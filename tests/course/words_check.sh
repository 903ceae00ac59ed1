#!/usr/bin/env bash
# words_check.sh RAIZ [TETO_CAPÍTULO] [TETO_LIVRO]: o livro cabe no orçamento
# de palavras (padrão: 11000 por capítulo, 62000 no livro inteiro).
#
# Conta todas as palavras de cada livro/*.md, listagens, saídas capturadas e
# comentários de marcação incluídos, como o wc -w do arquivo inteiro:
# wc -w < ARQ. Capítulo é livro/NN-*.md. Sai com 1 nomeando cada arquivo
# acima do teto, com a contagem; com 0, mostra as contagens. Os tetos são
# argumentos para a conferência poder ser provada com um teto menor.
set -euo pipefail

root="${1:?uso: words_check.sh RAIZ [TETO_CAPÍTULO] [TETO_LIVRO]}"
chapter_limit="${2:-11000}"
book_limit="${3:-62000}"
book="$root/livro"
[[ -d "$book" ]] || {
  echo "words_check: não achei $book" >&2
  exit 1
}

# A mesma contagem em qualquer máquina: o wc -w da locale C não conta como
# palavra um "→" ou um "—" soltos, e o da C.UTF-8 conta.
export LC_ALL=C.UTF-8

words() { wc -w <"$1"; }

total=0
over=0
shopt -s nullglob
for file in "$book"/*.md; do
  name="livro/$(basename "$file")"
  count="$(words "$file")"
  total=$((total + count))
  if [[ "$(basename "$file")" =~ ^[0-9][0-9]- ]]; then
    if ((count > chapter_limit)); then
      echo "words_check: $name tem $count palavras, acima do teto de $chapter_limit por capítulo" >&2
      over=1
    else
      echo "$name: $count palavras (teto do capítulo: $chapter_limit)"
    fi
  else
    echo "$name: $count palavras"
  fi
done

if ((total > book_limit)); then
  echo "words_check: livro/*.md soma $total palavras, acima do teto de $book_limit do livro" >&2
  over=1
else
  echo "livro/*.md: $total palavras (teto do livro: $book_limit)"
fi
exit "$over"
