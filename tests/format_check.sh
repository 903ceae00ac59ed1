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
bad=()
for file in "${files[@]}"; do
  [[ -f "$file" ]] || continue
  "$tool" --style=file "$file" | cmp -s "$file" - || bad+=("$file")
done
if [[ ${#bad[@]} -gt 0 ]]; then
  echo "format_check: ${#bad[@]} arquivo(s) fora do .clang-format:"
  printf '  %s\n' "${bad[@]}"
  echo "conserte com: $tool -i ${bad[*]}"
  exit 1
fi
echo "format_check: ${#files[@]} arquivos no formato do .clang-format ($tool)"
