#!/usr/bin/env bash
# Os READMEs de sinalização: cada pasta de cima (e cada pasta de ajudantes)
# tem um README.md que lista, uma linha "- `CAMINHO`: para quê" por arquivo
# ou subpasta, o que ela guarda; todo CAMINHO (relativo à pasta do README)
# existe.
# Uso: readme_check.sh RAIZ
set -euo pipefail
root="$1"
folders=(course etapas etapas/shared etapas/support exercises solutions tests)

failures=0
fail() {
  echo "FALHOU: $*" >&2
  failures=$((failures + 1))
}

for folder in "${folders[@]}"; do
  # A cópia dos alunos (./hz export) não leva solutions/.
  [[ -d "$root/$folder" ]] || continue
  readme="$root/$folder/README.md"
  if [[ ! -f "$readme" ]]; then
    fail "$folder/ não tem README.md"
    continue
  fi
  listed=0
  line_number=0
  while IFS= read -r line; do
    line_number=$((line_number + 1))
    [[ "$line" =~ ^-\ \`([^\`]+)\` ]] || continue
    path="${BASH_REMATCH[1]}"
    listed=$((listed + 1))
    [[ -e "$root/$folder/$path" ]] ||
      fail "$folder/README.md:$line_number cita \`$path\`, que não existe em $folder/"
  done <"$readme"
  [[ $listed -gt 0 ]] ||
    fail "$folder/README.md não lista nenhum arquivo (uma linha \"- \`CAMINHO\`: para quê\" por arquivo)"
done

if [[ $failures -gt 0 ]]; then
  echo "$failures problema(s) nos READMEs das pastas" >&2
  exit 1
fi
echo "READMEs das pastas conferidos"
