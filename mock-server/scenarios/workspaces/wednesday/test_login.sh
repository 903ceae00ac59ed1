#!/bin/sh
# Teste de login que depende de um servidor de autenticação que não existe
# nesta máquina: falha sempre, do mesmo jeito, por mais que se edite o código.
cd "$(dirname "$0")" || exit 2

server=$(sed -n 's/^server *= *//p' config.ini)
echo "test_login ... FALHOU"
echo "  não consegui falar com o servidor de autenticação ${server:-?}: conexão recusada"
exit 1
