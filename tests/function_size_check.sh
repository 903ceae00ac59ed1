#!/usr/bin/env bash
# Nenhuma função passa de HZ_MAX_FUNCTION_LINES linhas (padrão 60) fora de
# solutions/ e exercises/ (o núcleo de cada etapa é lido capítulo a capítulo,
# e o tamanho das funções dele é decisão do livro), salvo as listadas, com o
# motivo, em tests/function_size_exceptions.txt. Mede com o pmccabe (Debian),
# que lê um arquivo em milissegundos; antes, cada arquivo passa por um filtro
# que troca o que o pmccabe não entende (namespace a::b, literais R"(...)",
# separadores de dígitos) por algo equivalente com as mesmas linhas.
# Uso: function_size_check.sh RAIZ (sai com 77, pulado, sem o pmccabe).
set -euo pipefail
root="$(cd "$1" && pwd)"
limit="${HZ_MAX_FUNCTION_LINES:-60}"
exceptions="$root/tests/function_size_exceptions.txt"
command -v pmccabe >/dev/null 2>&1 || {
  echo "pmccabe não instalado (apt-get install pmccabe); pulado" >&2
  exit 77
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$root"
git ls-files '*.cpp' '*.hpp' | grep -v -e '^solutions/' -e '^exercises/' >"$work/files"
while IFS= read -r file; do
  mkdir -p "$work/src/$(dirname "$file")"
  perl -0pe 's/R"([^(\s]*)\((.*?)\)\1"/"\"\"" . ("\n" x ($2 =~ tr{\n}{}))/gse;
             s/^namespace (\w+)::([\w:]+) \{/namespace $1 {/gm;
             s/(\d)\x27(\d)/$1$2/g' "$file" >"$work/src/$file"
done <"$work/files"

# "ARQUIVO função": as exceções, sem comentários nem o motivo; uma linha sem
# motivo é erro.
failures=0
grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$exceptions" >"$work/listed" || true
while read -r file name reason; do
  [[ -n "$reason" ]] || {
    echo "FALHOU: tests/function_size_exceptions.txt: $file $name sem o motivo" >&2
    failures=$((failures + 1))
  }
done <"$work/listed"
awk '{print $1 " " $2}' "$work/listed" | sort -u >"$work/allowed"

(cd "$work/src" && xargs pmccabe <"$work/files" 2>/dev/null) |
  awk -v limit="$limit" '$5 > limit {
    where = $6; sub(/\(.*/, "", where); line = $6; sub(/.*\(/, "", line); sub(/\).*/, "", line)
    name = $7; sub(/^.*::/, "", name)
    print where " " name " " line " " $5
  }' | sort -u >"$work/long"

while read -r file name line lines; do
  grep -qxF "$file $name" "$work/allowed" && continue
  echo "FALHOU: $file:$line $name tem $lines linhas (o limite é $limit; divida-a ou liste-a, com o motivo, em tests/function_size_exceptions.txt)" >&2
  failures=$((failures + 1))
done <"$work/long"
# Uma exceção que não é mais longa sai da lista (a de um arquivo que sumiu
# só é avisada).
while read -r file name; do
  if [[ ! -f "$root/$file" ]]; then
    echo "aviso: tests/function_size_exceptions.txt lista $file, que não existe mais" >&2
    continue
  fi
  awk -v f="$file" -v n="$name" '$1 == f && $2 == n {found = 1} END {exit !found}' "$work/long" ||
    {
      echo "FALHOU: tests/function_size_exceptions.txt lista $file $name, que não passa mais de $limit linhas: tire-a da lista" >&2
      failures=$((failures + 1))
    }
done <"$work/allowed"
[[ $failures -eq 0 ]] || exit 1
echo "funções conferidas: nenhuma passa de $limit linhas fora das exceções ($(wc -l <"$work/allowed") listadas)"
