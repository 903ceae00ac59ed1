// O contexto inicial e os rótulos de desfecho: código fora das regiões de
// exercício (por isso estes testes passam também com os stubs; veja
// passes-on-stubs.txt).
#include <doctest/doctest.h>

#include <string>

#include "context.hpp"
#include "hz/testing/process.hpp"
#include "outcome.hpp"

using hz::testing::contains;

TEST_CASE("a conversa começa com o prompt de sistema e recebe o pedido do usuário") {
  auto history = hz::start_conversation("regras da casa");
  hz::add_user_message(history, "o teste falhou");
  REQUIRE(history.size() == 2);
  CHECK(history[0] == hz::Message::system("regras da casa"));
  CHECK(history[1] == hz::Message::user("o teste falhou"));
}

TEST_CASE("o prompt de sistema padrão traz as regras do harness") {
  const std::string prompt(hz::default_system_prompt());
  CHECK(contains(prompt, "relativo ao workspace"));
  CHECK(contains(prompt, "Leia um arquivo antes de editá-lo"));
  CHECK(contains(prompt, "rode o teste"));
  CHECK(contains(prompt, "responda sem chamar ferramentas"));
}

TEST_CASE("os desfechos da etapa têm rótulo e código de saída") {
  CHECK(hz::to_string(hz::Outcome::success) == "success");
  CHECK(hz::to_string(hz::Outcome::max_turns) == "max_turns");
  CHECK(hz::exit_code(hz::Outcome::success) == 0);
  CHECK(hz::exit_code(hz::Outcome::max_turns) == 3);
}
