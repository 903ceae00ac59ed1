// Como os tipos do protocolo aparecem numa falha de teste.
//
// Sem isto, uma comparação de mensagens que falha imprime "CHECK( {?} == {?} )"
// e o aluno não vê o próprio texto ao lado do esperado. O doctest acha estes
// operator<< pelo namespace dos tipos (hz). Os textos saem entre aspas, com
// quebras de linha e controles escapados, para que um espaço a mais apareça;
// um std::string solto num CHECK também (o doctest.h desta biblioteca,
// include/doctest/doctest.h).
#pragma once

#include <doctest/doctest.h>

#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "hz/chat_client.hpp"
#include "hz/result.hpp"
#include "hz/wire.hpp"

namespace hz {

std::ostream& operator<<(std::ostream& out, Role role);
std::ostream& operator<<(std::ostream& out, const ToolCall& call);
std::ostream& operator<<(std::ostream& out, const Message& message);
std::ostream& operator<<(std::ostream& out, const Usage& usage);
// Uma mensagem por linha, numerada: "[3] tool(c1) \"ok\"".
std::ostream& operator<<(std::ostream& out, const std::vector<Message>& messages);
std::ostream& operator<<(std::ostream& out, const std::vector<ToolCall>& calls);
std::ostream& operator<<(std::ostream& out, const SseEvent& event);
std::ostream& operator<<(std::ostream& out, const std::vector<SseEvent>& events);
std::ostream& operator<<(std::ostream& out, ModelError::Kind kind);

// Um enum solto num CHECK o doctest imprime pela posição ("CHECK( 2 == 3 )"):
// o toString dele para enums converte para o número antes de procurar
// operator<< ou StringMaker. Um toString no namespace do tipo ganha dessa
// conversão (o doctest o acha pelo namespace, como os operator<<), e a falha
// mostra o nome: "CHECK( http == malformed )". Os enums das etapas seguem o
// mesmo caminho nos helpers.hpp de tests/NN/.
doctest::String toString(Role role);
doctest::String toString(ModelError::Kind kind);

}  // namespace hz

namespace hz::testing {

// "texto" com \n, \t, \" e controles escapados.
std::string quoted(std::string_view text);

// Por que uma Result veio sem valor, para o REQUIRE que a confere mostrar a
// mensagem de erro (e não só "REQUIRE( false )"):
//   REQUIRE_MESSAGE(state.ok(), refusal(state));
template <class T, class E>
std::string refusal(const Result<T, E>& result) {
  return result.ok() ? std::string("veio um valor") : "recusou: " + result.error().message;
}

// O que operator<< escreve de value, como o doctest quer (para os toString).
template <class T>
doctest::String printed(const T& value) {
  std::ostringstream out;
  out << value;
  return doctest::String(out.str().c_str());
}

// Onde dois históricos começam a diferir, para um CHECK_MESSAGE: "a mensagem
// [3] difere: veio ... esperada ...", a contagem de cada um, ou "iguais".
std::string first_difference(const std::vector<Message>& actual,
                             const std::vector<Message>& expected);

// O mesmo para as linhas de dois arquivos (um journal), entre aspas.
std::string first_difference(const std::vector<std::string>& actual,
                             const std::vector<std::string>& expected);

}  // namespace hz::testing

namespace doctest {

// std::vector<std::string> mora em std, onde não se pode pôr um operator<<:
// o doctest deixa especializar o StringMaker. Um texto por linha, entre aspas.
template <>
struct StringMaker<std::vector<std::string>> {
  static String convert(const std::vector<std::string>& texts);
};

// Uma lista de números ({5, 7}), pelo mesmo motivo: sem isto, um
// CHECK(voltas == std::vector<int>{5}) que falha mostra "{?} == {?}". Só
// números: as listas de mensagens e de tool calls têm operator<< próprio.
template <class T>
requires std::is_arithmetic_v<T>
struct StringMaker<std::vector<T>> {
  static String convert(const std::vector<T>& values) {
    std::string out = "{";
    for (std::size_t i = 0; i < values.size(); ++i) {
      out += (i == 0 ? "" : ", ") + std::string(toString(values[i]).c_str());
    }
    return String((out + "}").c_str());
  }
};

}  // namespace doctest
