#!/bin/sh
# Teste de login que depende de um servidor de autenticação que não existe
# nesta máquina. Escreve o motivo em test_login.log e falha sempre do mesmo
# jeito, qualquer que seja o timeout em config.ini: aumentar o timeout (o
# conserto que o modelo tenta) não muda nada.
cd "$(dirname "$0")" || exit 2

server=$(sed -n 's/^server *= *//p' config.ini)
{
  echo "test_login: POST https://${server:-?}/login"
  echo "erro: conexão recusada por ${server:-?} (nenhum servidor ouvindo nesta porta)"
} >test_login.log
echo "test_login ... FALHOU (detalhes em test_login.log)"
exit 1
