#!/usr/bin/env bash
# As convenções de linha de comando de todo executável do curso e do ./hz:
#   - EXECUTÁVEL --version sai com 0 e imprime "NOME (harness-zero X.Y.Z)", com
#     a mesma versão que ./hz --version (o VERSION do project() da raiz);
#   - o --help de cada executável cita o --version, e o de cada etapa lista os
#     códigos de saída;
#   - ./hz SUB --help mostra só a ajuda de SUB e sai com 0, e ./hz help não
#     tem seção sem nenhuma entrada;
#   - ./hz com TERM=dumb (ou NO_COLOR) não escreve sequências de escape, mesmo
#     num terminal (o script(1) dá um terminal de mentira).
# Uso: version_check.sh RAIZ EXECUTÁVEL...
# Um executável que não foi compilado neste build (o hz-bench fica fora do
# "all") é apontado e pulado; o FlagParser que ele usa tem teste próprio.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
root="$1"
shift

hz_line="$(HZ_SKIP_DEPS=1 "$root/hz" --version)" || fail "./hz --version saiu com erro"
[[ "$hz_line" =~ ^hz\ \(harness-zero\ ([0-9]+\.[0-9]+\.[0-9]+)\)$ ]] ||
  fail "./hz --version: esperava 'hz (harness-zero X.Y.Z)', veio: $hz_line"
version="${BASH_REMATCH[1]}"

checked=0
for exe in "$@"; do
  name="$(basename "$exe")"
  if [[ ! -x "$exe" ]]; then
    echo "aviso: $name não foi compilado neste build; pulado"
    continue
  fi
  out="$("$exe" --version)" || fail "$name --version saiu com erro"
  [[ "$out" == "$name (harness-zero $version)" ]] ||
    fail "$name --version: esperava '$name (harness-zero $version)', veio: $out"
  help="$("$exe" --help)" || fail "$name --help saiu com erro"
  grep -q -- "--version" <<<"$help" || fail "$name --help não cita o --version"
  if [[ "$name" =~ ^hz-[0-9][0-9]- ]]; then
    grep -q "^códigos de saída" <<<"$help" || fail "$name --help não lista os códigos de saída"
  fi
  checked=$((checked + 1))
done
[[ $checked -ge 1 ]] || fail "nenhum executável conferido"

# ./hz SUB --help: a entrada de SUB, nada de rodar o subcomando. O export só
# existe no curso completo: na cópia dos alunos, o ./hz o recusa (e diz por quê).
subs=(grade demo test book)
[[ -d "$root/solutions" ]] && subs+=(export)
for sub in "${subs[@]}"; do
  out="$(HZ_SKIP_DEPS=1 NO_COLOR=1 "$root/hz" "$sub" --help)" || fail "./hz $sub --help saiu com erro"
  grep -q "^  $sub" <<<"$out" || fail "./hz $sub --help não mostra a entrada de $sub: $out"
  if grep -q "^  [a-z]" <<<"$out" && grep "^  [a-z]" <<<"$out" | grep -vq "^  $sub"; then
    fail "./hz $sub --help mostra outros subcomandos: $out"
  fi
done
if HZ_SKIP_DEPS=1 "$root/hz" inventado --help >/dev/null 2>&1; then
  fail "./hz inventado --help deveria ser um erro de uso"
fi

# ./hz help sem seção vazia: na cópia dos alunos, que não tem os subcomandos do
# curso completo, um título (a linha sem recuo depois de uma vazia) seguido
# direto de outra linha vazia é uma seção cujas entradas todas saíram.
help="$(HZ_SKIP_DEPS=1 NO_COLOR=1 "$root/hz" help)" || fail "./hz help saiu com erro"
empty="$(awk 'title != "" { if ($0 == "") print title; title = "" }
  blank && /^[^ ]/ { title = $0 }
  { blank = ($0 == "") }' <<<"$help")"
[[ -z "$empty" ]] || fail "./hz help tem seções sem nenhuma entrada: $empty"

# TERM=dumb num terminal: sem escapes. Com TERM=xterm, a mesma mensagem tem cor
# (prova de que o terminal de mentira funciona).
if command -v script >/dev/null 2>&1; then
  esc=$'\e'
  colored="$(cd "$root" && TERM=xterm script -qec "./hz inventado" /dev/null 2>&1 || true)"
  [[ "$colored" == *"$esc["* ]] || fail "com TERM=xterm num terminal, esperava cores: $colored"
  plain="$(cd "$root" && TERM=dumb script -qec "./hz inventado" /dev/null 2>&1 || true)"
  [[ "$plain" == *"subcomando desconhecido"* ]] || fail "TERM=dumb: mensagem inesperada: $plain"
  [[ "$plain" != *"$esc"* ]] || fail "com TERM=dumb, o ./hz escreveu escapes: $(printf '%q' "$plain")"
else
  echo "aviso: sem o script(1), o TERM=dumb do ./hz não foi conferido"
fi
echo "ok: $checked executáveis e o ./hz com --version $version; ./hz SUB --help; ./hz help; TERM=dumb"
