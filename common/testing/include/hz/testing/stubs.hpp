// Testes de ponta a ponta na trilha de exercícios.
//
// Quando o executável de uma etapa roda um exercício que ainda é stub, ele sai
// com "erro: exercício ... não implementado: ..." no stderr. Sem isto, o teste
// de ponta a ponta falharia em cada CHECK, com o stderr inteiro repetido; com
// isto, ele falha numa linha só, a mesma dos testes de unidade.
#pragma once

#include "hz/testing/process.hpp"

namespace hz::testing {

// Se result.err traz a mensagem de um exercício não implementado, lança
// std::logic_error com ela (o relatório dos testes a mostra numa linha).
void throw_if_stubbed(const ProcessResult& result);

}  // namespace hz::testing
