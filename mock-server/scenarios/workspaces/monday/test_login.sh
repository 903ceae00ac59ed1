#!/bin/sh
# Teste de login: depois de entrar, a sessão precisa sobreviver ao próximo
# pedido. Com o cookie vencendo em 0 segundos, o login "funciona" e cai na hora.
cd "$(dirname "$0")" || exit 2

ttl=$(sed -n 's/^cookie_ttl_seconds *= *//p' config.ini)
case "$ttl" in
  ''|*[!0-9]*) ttl=0 ;;
esac

if [ "$ttl" -le 0 ]; then
  echo "test_login ... FALHOU"
  echo "  a sessão expirou logo depois do login"
  echo "  config.ini: cookie_ttl_seconds = $ttl (a sessão precisa durar mais que 0 s)"
  exit 1
fi

echo "test_login ... ok"
echo "PASSOU: 1 teste, 0 falhas (sessão válida por $ttl s)"
exit 0
