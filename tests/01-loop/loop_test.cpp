// run_turn contra o mock no processo: o que o loop faz com cada resposta, o
// que ele manda ao modelo (conferido nos pedidos gravados pelo mock) e os
// eventos do turno, do primeiro model_request ao turn_end.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agent_loop.hpp"
#include "context.hpp"
#include "helpers.hpp"
#include "hz/chat_client.hpp"
#include "hz/testing/process.hpp"
#include "hz/testing/scripted_model.hpp"
#include "hz/testing/temp_dir.hpp"
#include "hz/workspace.hpp"

using hz::Message;
using hz::Outcome;
using hz::ToolCall;
using hz::test01::echo_tool;
using hz::test01::event_difference;
using hz::test01::json_difference;
using hz::test01::throwing_tool;
using hz::test01::wire_messages;
using hz::testing::contains;
using hz::testing::first_difference;
using nlohmann::json;

namespace {

// Um modelo roteirizado, o cliente HTTP real apontado para ele, as
// ferramentas, um trace que o teste lê e um histórico que começa com "regras".
struct LoopRig {
  explicit LoopRig(std::string_view scenario, std::vector<hz::Tool> tools = {echo_tool()},
                   int max_turns = 10)
      : model(scenario),
        client(model.endpoint()),
        box(std::move(tools)),
        config{"modelo-teste", max_turns},
        history(hz::start_conversation("regras")) {}

  hz::TurnResult turn(std::string text) {
    hz::add_user_message(history, std::move(text));
    return hz::run_turn(history, config, client, box, recorded.trace());
  }

  std::vector<json> bodies() const { return model.request_bodies(); }
  std::vector<json> events() const { return recorded.events(); }

  hz::testing::ScriptedModel model;
  hz::OpenAiClient client;
  hz::ToolBox box;
  hz::test01::RecordedTrace recorded;
  hz::LoopConfig config;
  std::vector<Message> history;
};

// Uma tool call de echo com o texto dado, como vai no roteiro do mock.
std::string echo_call(std::string_view id, std::string_view text) {
  const json args = {{"text", text}};
  return json{{"id", id}, {"name", "echo"}, {"arguments", args.dump()}}.dump();
}

ToolCall echo(std::string id, std::string_view text) {
  return ToolCall{std::move(id), "echo", json{{"text", text}}.dump()};
}

}  // namespace

TEST_SUITE_BEGIN("01-loop/loop");

TEST_CASE("o turno para quando a resposta não tem tool calls") {
  LoopRig rig(R"({"name": "parada", "steps": [
    {"content": "pronto", "usage": {"prompt_tokens": 10, "completion_tokens": 2}}
  ]})");
  const auto result = rig.turn("oi");
  CHECK(result.outcome == Outcome::success);
  CHECK(result.final_text == "pronto");
  CHECK(result.model_calls == 1);
  CHECK(result.usage.prompt_tokens == 10);
  CHECK(result.usage.completion_tokens == 2);
  CHECK(result.cost_usd == 0.0);
  const std::vector<Message> expected{Message::system("regras"), Message::user("oi"),
                                      Message::assistant("pronto")};
  CHECK_MESSAGE(rig.history == expected, first_difference(rig.history, expected));
  CHECK(rig.bodies().size() == 1);
  CHECK(rig.model.failures() == std::vector<std::string>{});
}

TEST_CASE("várias tool calls numa resposta viram uma mensagem tool cada na ordem") {
  LoopRig rig(R"({"name": "tres", "steps": [
    {"tool_calls": [)" +
              echo_call("c1", "um") + "," + echo_call("c2", "dois") + "," +
              echo_call("c3", "três") +
              R"(]},
    {"content": "fim"}
  ]})");
  const auto result = rig.turn("ecoe três vezes");
  CHECK(result.outcome == Outcome::success);
  CHECK(result.model_calls == 2);
  const std::vector<Message> expected{
      Message::system("regras"),
      Message::user("ecoe três vezes"),
      Message::assistant("", {echo("c1", "um"), echo("c2", "dois"), echo("c3", "três")}),
      Message::tool("c1", "um"),
      Message::tool("c2", "dois"),
      Message::tool("c3", "três"),
      Message::assistant("fim")};
  CHECK_MESSAGE(rig.history == expected, first_difference(rig.history, expected));
  const auto bodies = rig.bodies();
  REQUIRE(bodies.size() == 2);
  const json sent = wire_messages({expected.begin(), expected.begin() + 6});
  INFO(json_difference(bodies[1]["messages"], sent));
  CHECK(bodies[1]["messages"] == sent);
}

TEST_CASE("o histórico inteiro e as ferramentas vão em toda chamada ao modelo") {
  LoopRig rig(R"({"name": "historico", "steps": [
    {"tool_calls": [)" +
                  echo_call("a", "1") + R"(]},
    {"content": "vou de novo", "tool_calls": [)" +
                  echo_call("b", "2") + R"(]},
    {"content": "acabou"}
  ]})",
              {echo_tool(), throwing_tool()});
  rig.turn("vai");
  const std::vector<Message> expected{Message::system("regras"),
                                      Message::user("vai"),
                                      Message::assistant("", {echo("a", "1")}),
                                      Message::tool("a", "1"),
                                      Message::assistant("vou de novo", {echo("b", "2")}),
                                      Message::tool("b", "2"),
                                      Message::assistant("acabou")};
  CHECK_MESSAGE(rig.history == expected, first_difference(rig.history, expected));
  const auto bodies = rig.bodies();
  REQUIRE(bodies.size() == 3);
  const json schemas = {hz::to_json(rig.box.schemas()[0]), hz::to_json(rig.box.schemas()[1])};
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    CAPTURE(i);
    const std::vector<Message> sent(expected.begin(),
                                    expected.begin() + static_cast<long>(2 + 2 * i));
    const json body = {
        {"model", "modelo-teste"}, {"messages", wire_messages(sent)}, {"tools", schemas}};
    INFO(json_difference(bodies[i], body));
    CHECK(bodies[i] == body);
  }
}

TEST_CASE("ferramenta desconhecida vira texto de erro e o loop continua") {
  LoopRig rig(R"({"name": "desconhecida", "steps": [
    {"tool_calls": [{"id": "c1", "name": "apagar_tudo", "arguments": "{}"}]},
    {"expect": {"last_role": "tool", "last_contains": ["apagar_tudo"]}, "content": "desculpe"}
  ]})",
              {echo_tool(), throwing_tool()});
  const auto result = rig.turn("limpe tudo");
  CHECK(result.outcome == Outcome::success);
  CHECK(result.final_text == "desculpe");
  CHECK(result.model_calls == 2);
  // A mensagem de erro é a do despacho do aluno (exercício dispatch).
  const ToolCall call{"c1", "apagar_tudo", "{}"};
  const std::vector<Message> expected{
      Message::system("regras"), Message::user("limpe tudo"), Message::assistant("", {call}),
      rig.box.dispatch(call).message, Message::assistant("desculpe")};
  CHECK_MESSAGE(rig.history == expected, first_difference(rig.history, expected));
  CHECK(rig.model.failures() == std::vector<std::string>{});
}

TEST_CASE("argumentos inválidos e campo ausente viram texto de erro e o loop continua") {
  LoopRig rig(R"({"name": "argumentos", "steps": [
    {"tool_calls": [{"id": "c1", "name": "echo", "arguments": "{\"text\": "},
                    {"id": "c2", "name": "echo", "arguments": "{\"texto\": \"oi\"}"}]},
    {"expect": {"message_count": 5, "last_role": "tool"}, "content": "vou corrigir"}
  ]})");
  const auto result = rig.turn("ecoe");
  CHECK(result.outcome == Outcome::success);
  const ToolCall broken{"c1", "echo", R"({"text": )"};
  const ToolCall missing{"c2", "echo", R"({"texto": "oi"})"};
  const hz::ToolSchema schema = echo_tool().schema;
  const std::vector<Message> expected{
      Message::system("regras"),
      Message::user("ecoe"),
      Message::assistant("", {broken, missing}),
      Message::tool("c1", hz::test01::args_refusal(schema, broken)),
      Message::tool("c2", hz::test01::args_refusal(schema, missing)),
      Message::assistant("vou corrigir")};
  CHECK_MESSAGE(rig.history == expected, first_difference(rig.history, expected));
  CHECK(rig.model.failures() == std::vector<std::string>{});
}

TEST_CASE("ferramenta que lança exceção vira texto de erro e o loop continua") {
  LoopRig rig(R"({"name": "excecao", "steps": [
    {"tool_calls": [{"id": "c1", "name": "explode", "arguments": "{}"}]},
    {"expect": {"last_role": "tool"}, "content": "a ferramenta quebrou"}
  ]})",
              {echo_tool(), throwing_tool()});
  const auto result = rig.turn("exploda");
  CHECK(result.outcome == Outcome::success);
  CHECK(result.final_text == "a ferramenta quebrou");
  const ToolCall call{"c1", "explode", "{}"};
  const std::vector<Message> expected{
      Message::system("regras"), Message::user("exploda"), Message::assistant("", {call}),
      rig.box.dispatch(call).message, Message::assistant("a ferramenta quebrou")};
  CHECK_MESSAGE(rig.history == expected, first_difference(rig.history, expected));
}

TEST_CASE("max_turns para depois de exatamente N chamadas ao modelo") {
  LoopRig rig(R"({"name": "sem-fim", "steps": [
    {"tool_calls": [)" +
                  echo_call("c", "de novo") + R"(],
     "usage": {"prompt_tokens": 7, "completion_tokens": 3}, "repeat": 4},
    {"content": "a 5ª chamada: o laço passou de max_turns 4"}
  ]})",
              {echo_tool()}, 4);
  const auto result = rig.turn("rode o teste");
  CHECK(result.outcome == Outcome::max_turns);
  CHECK(result.model_calls == 4);
  CHECK(result.final_text == "");
  CHECK(result.usage.prompt_tokens == 28);
  CHECK(result.usage.completion_tokens == 12);
  CHECK(rig.bodies().size() == 4);
  // As ferramentas da quarta resposta, a última permitida, também rodam.
  std::vector<Message> expected{Message::system("regras"), Message::user("rode o teste")};
  for (int i = 0; i < 4; ++i) {
    expected.push_back(Message::assistant("", {echo("c", "de novo")}));
    expected.push_back(Message::tool("c", "de novo"));
  }
  CHECK_MESSAGE(rig.history == expected, first_difference(rig.history, expected));
  const std::vector<json> events = rig.events();
  REQUIRE_FALSE(events.empty());
  const json turn_end = {{"event", "turn_end"},
                         {"outcome", "max_turns"},
                         {"turns", 4},
                         {"usage", {{"prompt_tokens", 28}, {"completion_tokens", 12}}},
                         {"cost_usd", 0.0}};
  CHECK(event_difference(std::vector<json>{events.back()}, std::vector<json>{turn_end}) ==
        "iguais");
}

TEST_CASE("max_turns 1 faz uma única chamada ao modelo e roda as ferramentas dela") {
  LoopRig rig(R"({"name": "uma", "steps": [
    {"tool_calls": [)" +
                  echo_call("c", "x") + R"(]},
    {"content": "a 2ª chamada: o laço passou de max_turns 1"}
  ]})",
              {echo_tool()}, 1);
  const auto result = rig.turn("vai");
  CHECK(result.outcome == Outcome::max_turns);
  CHECK(result.model_calls == 1);
  CHECK(result.final_text == "");
  CHECK(rig.bodies().size() == 1);
  // A única resposta permitida pede uma ferramenta: ela roda, e o resultado
  // fica no histórico para o turno seguinte.
  const std::vector<Message> expected{Message::system("regras"), Message::user("vai"),
                                      Message::assistant("", {echo("c", "x")}),
                                      Message::tool("c", "x")};
  CHECK_MESSAGE(rig.history == expected, first_difference(rig.history, expected));
}

TEST_CASE("finish_reason stop com tool calls ainda roda as ferramentas") {
  LoopRig rig(R"({"name": "stop-com-tools", "steps": [
    {"tool_calls": [)" +
              echo_call("c1", "rodei") + R"(], "finish_reason": "stop"},
    {"expect": {"last_role": "tool", "last_contains": ["rodei"]}, "content": "feito"}
  ]})");
  const auto result = rig.turn("faça");
  CHECK(result.outcome == Outcome::success);
  CHECK(result.final_text == "feito");
  CHECK(result.model_calls == 2);
  const std::vector<Message> expected{Message::system("regras"), Message::user("faça"),
                                      Message::assistant("", {echo("c1", "rodei")}),
                                      Message::tool("c1", "rodei"), Message::assistant("feito")};
  CHECK_MESSAGE(rig.history == expected, first_difference(rig.history, expected));
  CHECK(rig.model.failures() == std::vector<std::string>{});
}

TEST_CASE("think e raciocínio não entram no histórico") {
  LoopRig rig(R"({"name": "pensador", "steps": [
    {"content": "<think>preciso ecoar</think>Vou ecoar.", "reasoning_content": "segredo-a",
     "tool_calls": [)" +
              echo_call("c1", "eco") + R"(]},
    {"content": "<think>\nacabou\n</think>\n\nPronto.", "reasoning": "segredo-b"}
  ]})");
  const auto result = rig.turn("pense");
  CHECK(result.outcome == Outcome::success);
  CHECK(result.final_text == "Pronto.");
  const std::vector<Message> expected{Message::system("regras"), Message::user("pense"),
                                      Message::assistant("Vou ecoar.", {echo("c1", "eco")}),
                                      Message::tool("c1", "eco"), Message::assistant("Pronto.")};
  CHECK_MESSAGE(rig.history == expected, first_difference(rig.history, expected));
  const auto bodies = rig.bodies();
  REQUIRE(bodies.size() == 2);
  CHECK(bodies[1]["messages"][2]["content"] == "Vou ecoar.");
  const std::string sent = bodies[1].dump();
  CHECK_FALSE(contains(sent, "think"));
  CHECK_FALSE(contains(sent, "segredo-a"));
}

TEST_CASE("dois turnos compartilham o mesmo histórico") {
  LoopRig rig(R"({"name": "conversa", "steps": [
    {"content": "um"},
    {"expect": {"message_count": 4, "last_role": "user"}, "content": "dois"}
  ]})");
  CHECK(rig.turn("primeira").final_text == "um");
  const auto second = rig.turn("segunda");
  CHECK(second.final_text == "dois");
  CHECK(second.model_calls == 1);
  const auto bodies = rig.bodies();
  REQUIRE(bodies.size() == 2);
  const json sent = wire_messages({Message::system("regras"), Message::user("primeira"),
                                   Message::assistant("um"), Message::user("segunda")});
  INFO(json_difference(bodies[1]["messages"], sent));
  CHECK(bodies[1]["messages"] == sent);
  CHECK(rig.model.failures() == std::vector<std::string>{});
}

TEST_CASE("falha do provedor sai do loop como ProviderFailure") {
  LoopRig rig(R"({"name": "caiu", "steps": [
    {"error": {"status": 500, "message": "o servidor caiu"}}
  ]})");
  std::string message = "(nenhuma exceção)";
  try {
    rig.turn("oi");
  } catch (const hz::ProviderFailure& failure) {
    message = failure.what();
    CHECK(failure.error().kind == hz::ModelError::Kind::http);
    CHECK(failure.error().http_status == 500);
  }
  CHECK(message == "o provedor respondeu HTTP 500: o servidor caiu");
}

TEST_CASE("o modelo pedindo arquivo fora do workspace recebe erro e o loop segue") {
  const hz::testing::TempDir dir;
  LoopRig rig(R"({"name": "fuga", "steps": [
    {"tool_calls": [{"id": "c1", "name": "read_file", "arguments": "{\"path\": \"../../etc/passwd\"}"}]},
    {"expect": {"last_role": "tool", "last_contains": ["fora do workspace"]}, "content": "não posso"}
  ]})",
              hz::basic_tools(hz::Workspace(dir.path())));
  const auto result = rig.turn("leia as senhas");
  CHECK(result.outcome == Outcome::success);
  const std::vector<Message> expected{
      Message::system("regras"), Message::user("leia as senhas"),
      Message::assistant("", {ToolCall{"c1", "read_file", R"({"path": "../../etc/passwd"})"}}),
      Message::tool("c1", "caminho fora do workspace: ../../etc/passwd"),
      Message::assistant("não posso")};
  CHECK_MESSAGE(rig.history == expected, first_difference(rig.history, expected));
  CHECK(rig.model.failures() == std::vector<std::string>{});
}

TEST_CASE("o trace registra cada passo do turno na ordem e o turn_end soma o uso") {
  LoopRig rig(R"({"name": "trace", "steps": [
    {"tool_calls": [)" +
              echo_call("c1", "oi") + R"(],
     "usage": {"prompt_tokens": 10, "completion_tokens": 5}},
    {"content": "fim", "usage": {"prompt_tokens": 20, "completion_tokens": 3}}
  ]})");
  rig.turn("ecoe");
  const json usage1 = {{"prompt_tokens", 10}, {"completion_tokens", 5}};
  const json usage2 = {{"prompt_tokens", 20}, {"completion_tokens", 3}};
  const json total = {{"prompt_tokens", 30}, {"completion_tokens", 8}};
  const std::vector<json> expected{
      {{"event", "model_request"}, {"turn", 1}, {"messages", 2}, {"tools", 1}},
      {{"event", "model_response"},
       {"turn", 1},
       {"tool_calls", 1},
       {"finish_reason", "tool_calls"},
       {"usage", usage1},
       {"cost_usd", 0.0}},
      {{"event", "tool_start"},
       {"turn", 1},
       {"call_id", "c1"},
       {"name", "echo"},
       {"arguments", R"({"text":"oi"})"}},
      {{"event", "tool_end"},
       {"turn", 1},
       {"call_id", "c1"},
       {"ok", true},
       {"output_bytes", 2},
       {"summary", "oi"}},
      {{"event", "model_request"}, {"turn", 2}, {"messages", 4}, {"tools", 1}},
      {{"event", "model_response"},
       {"turn", 2},
       {"tool_calls", 0},
       {"finish_reason", "stop"},
       {"usage", usage2},
       {"cost_usd", 0.0}},
      {{"event", "turn_end"},
       {"outcome", "success"},
       {"turns", 2},
       {"usage", total},
       {"cost_usd", 0.0}}};
  CHECK(event_difference(rig.events(), expected) == "iguais");
}

TEST_SUITE_END();
