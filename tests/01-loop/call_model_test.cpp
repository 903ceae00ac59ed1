// call_model: uma chamada ao modelo, com o histórico inteiro e as
// ferramentas, entre os eventos model_request e model_response. Confere o
// corpo exato que o mock gravou e os campos de cada evento pelo nome.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agent_loop.hpp"
#include "helpers.hpp"
#include "hz/chat_client.hpp"
#include "hz/testing/scripted_model.hpp"

using hz::Message;
using hz::ToolCall;
using hz::test01::echo_tool;
using hz::test01::event_difference;
using hz::test01::throwing_tool;
using hz::test01::wire_messages;
using nlohmann::json;

namespace {

// Um modelo roteirizado, o cliente HTTP real apontado para ele, as
// ferramentas e um trace que o teste lê.
struct Rig {
  explicit Rig(std::string_view scenario, std::vector<hz::Tool> tools = {echo_tool()})
      : model(scenario),
        client(model.endpoint()),
        box(std::move(tools)),
        config{"modelo-teste", 10} {}

  hz::ChatReply call(const std::vector<Message>& history, int turn) {
    return hz::call_model(history, config, client, box, recorded.trace(), turn);
  }

  hz::testing::ScriptedModel model;
  hz::OpenAiClient client;
  hz::ToolBox box;
  hz::test01::RecordedTrace recorded;
  hz::LoopConfig config;
};

// Um histórico do meio de um turno: a resposta com tool call e o resultado já estão nele.
std::vector<Message> mid_turn_history() {
  return {Message::system("regras"), Message::user("ecoe oi"),
          Message::assistant("vou ecoar", {ToolCall{"a", "echo", R"({"text":"oi"})"}}),
          Message::tool("a", "oi")};
}

}  // namespace

TEST_SUITE_BEGIN("01-loop/call-model");

TEST_CASE("call_model envia o histórico inteiro, o modelo e os schemas das ferramentas") {
  Rig rig(R"({"name": "pedido", "steps": [{"content": "pronto"}]})",
          {echo_tool(), throwing_tool()});
  const std::vector<Message> history = mid_turn_history();
  rig.call(history, 2);
  const auto bodies = rig.model.request_bodies();
  REQUIRE(bodies.size() == 1);
  const json expected = {
      {"model", "modelo-teste"},
      {"messages", wire_messages(history)},
      {"tools", {hz::to_json(rig.box.schemas()[0]), hz::to_json(rig.box.schemas()[1])}}};
  INFO(hz::test01::json_difference(bodies[0], expected));
  CHECK(bodies[0] == expected);
  CHECK(rig.model.failures() == std::vector<std::string>{});
}

TEST_CASE("call_model devolve a resposta do modelo como ela veio") {
  Rig rig(R"({"name": "resposta", "steps": [
    {"content": "vou ecoar",
     "tool_calls": [{"id": "c1", "name": "echo", "arguments": "{\"text\": \"oi\"}"}],
     "usage": {"prompt_tokens": 10, "completion_tokens": 5}}
  ]})");
  const hz::ChatReply reply = rig.call({Message::system("regras"), Message::user("ecoe")}, 1);
  CHECK(reply.message ==
        Message::assistant("vou ecoar", {ToolCall{"c1", "echo", R"({"text": "oi"})"}}));
  CHECK(reply.finish_reason == "tool_calls");
  CHECK(reply.usage.prompt_tokens == 10);
  CHECK(reply.usage.completion_tokens == 5);
}

TEST_CASE("call_model emite model_request e model_response com os campos do contrato") {
  Rig rig(R"({"name": "eventos", "steps": [
    {"tool_calls": [{"id": "c1", "name": "echo", "arguments": "{\"text\": \"oi\"}"}],
     "usage": {"prompt_tokens": 10, "completion_tokens": 5}}
  ]})",
          {echo_tool(), throwing_tool()});
  rig.call(mid_turn_history(), 3);
  const std::vector<json> expected{
      {{"event", "model_request"}, {"turn", 3}, {"messages", 4}, {"tools", 2}},
      {{"event", "model_response"},
       {"turn", 3},
       {"tool_calls", 1},
       {"finish_reason", "tool_calls"},
       {"usage", {{"prompt_tokens", 10}, {"completion_tokens", 5}}},
       {"cost_usd", 0.0}}};
  CHECK(event_difference(rig.recorded.events(), expected) == "iguais");
}

TEST_CASE("call_model relata no model_response o finish_reason como veio") {
  Rig rig(R"({"name": "stop-com-tools", "steps": [
    {"tool_calls": [{"id": "c1", "name": "echo", "arguments": "{\"text\": \"x\"}"}],
     "finish_reason": "stop", "usage": {"prompt_tokens": 7, "completion_tokens": 3}}
  ]})");
  const hz::ChatReply reply = rig.call({Message::system("regras"), Message::user("vai")}, 1);
  CHECK(reply.finish_reason == "stop");
  const std::vector<json> expected{
      {{"event", "model_request"}, {"turn", 1}, {"messages", 2}, {"tools", 1}},
      {{"event", "model_response"},
       {"turn", 1},
       {"tool_calls", 1},
       {"finish_reason", "stop"},
       {"usage", {{"prompt_tokens", 7}, {"completion_tokens", 3}}},
       {"cost_usd", 0.0}}};
  CHECK(event_difference(rig.recorded.events(), expected) == "iguais");
}

TEST_CASE("call_model lança ProviderFailure quando a chamada falha, sem model_response") {
  Rig rig(R"({"name": "caiu", "steps": [
    {"error": {"status": 500, "message": "o servidor caiu"}}
  ]})");
  std::string message = "(nenhuma exceção)";
  try {
    rig.call({Message::system("regras"), Message::user("oi")}, 1);
  } catch (const hz::ProviderFailure& failure) {
    message = failure.what();
    CHECK(failure.error().kind == hz::ModelError::Kind::http);
    CHECK(failure.error().http_status == 500);
  }
  CHECK(message == "o provedor respondeu HTTP 500: o servidor caiu");
  const std::vector<json> expected{
      {{"event", "model_request"}, {"turn", 1}, {"messages", 2}, {"tools", 1}}};
  CHECK(event_difference(rig.recorded.events(), expected) == "iguais");
}

TEST_SUITE_END();
