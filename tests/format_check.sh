#!/usr/bin/env bash
# format_check.sh RAIZ: todo .cpp/.hpp versionado segue o .clang-format.
#
# exercises/ também entra: é gerado, e o gerador já escreve no formato. Sai
# com 77 (o ctest marca como pulado) quando não há clang-format-14 ou
# clang-format; a CI o instala antes. Com diferenças, lista os arquivos e
# mostra como consertar.
set -euo pipefail
root="${1:?uso: format_check.sh RAIZ}"
cd "$root"

tool=""
for candidate in clang-format-14 clang-format; do
  if command -v "$candidate" >/dev/null 2>&1; then
    tool="$candidate"
    break
  fi
done
if [[ -z "$tool" ]]; then
  echo "format_check: não achei o clang-format (pacote clang-format do Debian): pulando" >&2
  exit 77
fi

mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' 2>/dev/null ||
  find . -path ./build\* -prune -o \( -name '*.cpp' -o -name '*.hpp' \) -print)
# Um clang-format para todos (o xargs só divide se a linha de comando não
# couber): um por arquivo levava 40 s, quase tudo em subir o processo 417
# vezes. Com --dry-run --Werror, cada trecho fora do formato vira uma linha
# "ARQUIVO:LINHA:COLUNA: error: code should be clang-formatted".
report="$(for file in "${files[@]}"; do if [[ -f "$file" ]]; then printf '%s\0' "$file"; fi; done |
  xargs -0 -r "$tool" --style=file --dry-run --Werror 2>&1 || true)"
mapfile -t bad < <(sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' \
  <<<"$report" | sort -u)
if [[ ${#bad[@]} -eq 0 && "$report" == *error* ]]; then
  echo "format_check: o $tool falhou:"
  echo "$report" | head -n 20
  exit 1
fi
if [[ ${#bad[@]} -gt 0 ]]; then
  echo "format_check: ${#bad[@]} arquivo(s) fora do .clang-format:"
  printf '  %s\n' "${bad[@]}"
  echo "conserte com: $tool -i ${bad[*]}"
  exit 1
fi
echo "format_check: ${#files[@]} arquivos no formato do .clang-format ($tool)"
