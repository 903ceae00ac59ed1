// "select": "by_assistant_messages": o passo sai da conversa (quantas respostas
// do assistente o pedido já traz), não da ordem dos pedidos. É o que deixa um
// harness retomado de um journal continuar num mock novo.
#include <doctest/doctest.h>

#include "support.hpp"

namespace hz::mock {
namespace {

using nlohmann::json;
using test::chat_request;
using test::Served;

using test::message_of;

// A conversa de examples/resume depois de `answered` respostas do assistente,
// cada uma seguida da mensagem tool com o resultado.
json conversation(const std::vector<json>& answers) {
  json messages = json::array({{{"role", "user"}, {"content", "escreva duas linhas no log"}}});
  for (const auto& answer : answers) {
    messages.push_back(answer);
    messages.push_back(
        {{"role", "tool"}, {"tool_call_id", answer["tool_calls"][0]["id"]}, {"content", "ok"}});
  }
  return chat_request(messages);
}

TEST_CASE("por conversa, o número de mensagens do assistente escolhe o passo") {
  Served served(test::embedded_scenario("examples/resume"));
  json first = message_of(served.chat(conversation({})));
  CHECK(first["tool_calls"][0]["function"]["arguments"] ==
        R"({"content":"passo 1\n","path":"log.txt"})");
  json second = message_of(served.chat(conversation({first})));
  CHECK(second["tool_calls"][0]["function"]["arguments"] ==
        R"({"content":"passo 2\n","path":"log.txt"})");
  CHECK(message_of(served.chat(conversation({first, second})))["content"] ==
        "Escrevi as duas linhas.");
  CHECK(served.server().failures().empty());
}

TEST_CASE("por conversa, a mesma conversa mandada duas vezes recebe o mesmo passo") {
  Served served(test::embedded_scenario("examples/resume"));
  json first = served.chat(conversation({}));
  json again = served.chat(conversation({}));
  CHECK(message_of(again) == message_of(first));
  // Os ids gerados vêm da posição na conversa, não da ordem dos pedidos.
  CHECK(message_of(again)["tool_calls"][0]["id"] == "call_1_1");
  CHECK(again["id"] == "chatcmpl-hz-2");
  CHECK(served.server().failures().empty());
}

TEST_CASE("por conversa, um mock novo continua a conversa retomada de onde ela parou") {
  json first;
  json second;
  {
    Served crashed(test::embedded_scenario("examples/resume"));
    first = message_of(crashed.chat(conversation({})));
    second = message_of(crashed.chat(conversation({first})));
  }  // o harness e o mock caíram aqui; o journal guardou a conversa
  Served restarted(test::embedded_scenario("examples/resume"));
  json resumed = restarted.chat(conversation({first, second}));
  CHECK(message_of(resumed)["content"] == "Escrevi as duas linhas.");
  CHECK(restarted.server().failures().empty());
  // Por pedido, o mesmo mock novo responderia o passo 1 de novo.
  Served by_request(
      test::scenario_from(R"({"steps": [{"content": "passo 1"}, {"content": "passo 2"}]})"));
  CHECK(message_of(by_request.chat(conversation({first, second})))["content"] == "passo 1");
}

TEST_CASE("por conversa, ids gerados não se repetem entre o mock antigo e o novo") {
  json first;
  {
    Served crashed(test::embedded_scenario("examples/resume"));
    first = message_of(crashed.chat(conversation({})));
  }
  Served restarted(test::embedded_scenario("examples/resume"));
  json second = message_of(restarted.chat(conversation({first})));
  CHECK(first["tool_calls"][0]["id"] == "call_1_1");
  CHECK(second["tool_calls"][0]["id"] == "call_2_1");
}

TEST_CASE("por conversa, repeat ocupa posições como antes e forever cobre o resto") {
  Served served(test::scenario_from(R"({"select": "by_assistant_messages", "steps": [
      {"content": "a", "repeat": 2}, {"content": "b"}, {"content": "c", "repeat": "forever"}]})"));
  auto at = [&](int assistant_messages) {
    json messages = json::array({{{"role", "user"}, {"content", "oi"}}});
    for (int i = 0; i < assistant_messages; ++i) {
      messages.push_back({{"role", "assistant"}, {"content", "resposta"}});
      messages.push_back({{"role", "user"}, {"content", "e agora?"}});
    }
    return message_of(served.chat(chat_request(messages)))["content"].get<std::string>();
  };
  CHECK(at(3) == "c");
  CHECK(at(0) == "a");
  CHECK(at(1) == "a");
  CHECK(at(2) == "b");
  CHECK(at(50) == "c");
  CHECK(at(0) == "a");
  CHECK(served.server().failures().empty());
}

TEST_CASE("por conversa, uma conversa além do roteiro recebe 500 e vira falha") {
  Served served(test::embedded_scenario("examples/resume"));
  json messages = json::array({{{"role", "user"}, {"content", "oi"}}});
  for (int i = 0; i < 3; ++i) messages.push_back({{"role", "assistant"}, {"content", "x"}});
  auto res = served.post(chat_request(messages));
  REQUIRE(res);
  CHECK(res->status == 500);
  const std::string failure =
      "pedido 1: o roteiro \"resume\" acabou (3 passos); não há resposta para uma conversa com 3 "
      "mensagens do assistente";
  CHECK(json::parse(res->body)["error"]["message"] == "hz-mock: " + failure);
  CHECK(json::parse(res->body)["error"]["code"] == "hz_mock_script_exhausted");
  CHECK(served.server().failures() == std::vector<std::string>{failure});
}

TEST_CASE("por conversa, as expectativas conferem o passo escolhido") {
  Served served(test::embedded_scenario("examples/resume"));
  // Uma resposta do assistente (posição 1, passo 2), mas a última mensagem é do usuário.
  json body = chat_request(json::array({{{"role", "user"}, {"content", "oi"}},
                                        {{"role", "assistant"}, {"content", "x"}},
                                        {{"role", "user"}, {"content", "e aí?"}}}));
  auto res = served.post(body);
  REQUIRE(res);
  CHECK(res->status == 400);
  CHECK(served.server().failures() ==
        std::vector<std::string>{"passo 2 (pedido 1): esperava a última mensagem com papel "
                                 "\"tool\", veio \"user\""});
}

TEST_CASE("por conversa, reject_stream_options recusa e a tentativa sem ele recebe o passo") {
  Served served(test::scenario_from(R"({"select": "by_assistant_messages",
      "quirks": ["reject_stream_options"], "steps": [{"content": "a"}]})"));
  json body = test::user_only();
  body["stream_options"] = {{"include_usage", true}};
  CHECK(served.post(body)->status == 400);
  body.erase("stream_options");
  CHECK(message_of(served.chat(body))["content"] == "a");
}

}  // namespace
}  // namespace hz::mock
