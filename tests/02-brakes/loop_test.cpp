// run_turn na etapa 02: o laço com os freios. O gasto exato em micro-dólares,
// a nota de orçamento, a precedência entre freios que atuam juntos, o Ctrl-C
// que deixa o histórico válido para o próximo pedido e os tempos do
// transporte (os únicos testes com espera de verdade: alguns décimos de
// segundo no total).
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agent_loop.hpp"
#include "budget.hpp"
#include "context.hpp"
#include "helpers.hpp"
#include "hz/chat_client.hpp"
#include "hz/testing/printing.hpp"
#include "hz/testing/process.hpp"
#include "hz/testing/scripted_model.hpp"

using hz::Message;
using hz::Outcome;
using hz::ToolCall;
using hz::test01::echo_tool;
using hz::test01::event_difference;
using hz::test01::fake_tool;
using hz::test01::wire_messages;
using hz::test02::FakeClock;
using hz::test02::prices;
using hz::test02::usd;
using hz::testing::contains;
using hz::testing::first_difference;
using nlohmann::json;
using std::chrono::milliseconds;

namespace {

// O mock, o cliente HTTP de verdade (com os tempos que o teste quiser), as
// ferramentas, o relógio falso (o backoff não espera) e um histórico que
// começa com "regras".
struct LoopRig {
  explicit LoopRig(std::string_view scenario, std::vector<hz::Tool> tools = {echo_tool()},
                   hz::HttpOptions http = {})
      : model(scenario),
        client(endpoint(model, http)),
        box(std::move(tools)),
        config{"modelo-teste", 10},
        history(hz::start_conversation("regras")) {
    config.clock = &clock;
    config.random = [] { return 0.0; };
    config.cancel = &cancel;
    config.budget = &budget;
  }

  static hz::EndpointConfig endpoint(const hz::testing::ScriptedModel& model,
                                     const hz::HttpOptions& http) {
    hz::EndpointConfig endpoint = model.endpoint();
    endpoint.http.idle_timeout = http.idle_timeout;
    return endpoint;
  }

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
  FakeClock clock;
  std::atomic<bool> cancel{false};
  hz::Budget budget;
  hz::LoopConfig config;
  std::vector<Message> history;
};

ToolCall echo(std::string id, std::string_view text) {
  return ToolCall{std::move(id), "echo", json{{"text", text}}.dump()};
}

// O histórico do laço caro (kExpensiveLoop): regras, o pedido e, por resposta,
// a tool call de echo e a mensagem tool com o texto de `results`, na ordem.
std::vector<Message> expensive_history(const std::string& request,
                                       const std::vector<std::string>& results) {
  std::vector<Message> history{Message::system("regras"), Message::user(request)};
  for (const std::string& result : results) {
    history.push_back(Message::assistant("", {ToolCall{"c", "echo", R"({"text": "de novo"})"}}));
    history.push_back(Message::tool("c", result));
  }
  return history;
}

// A nota de orçamento do laço caro com teto de US$ 0.09, depois do 3º passo.
constexpr std::string_view kNoteAt90k =
    "[nota do harness: restam US$ 0.0108 do orçamento de US$ 0.09 desta conversa; conclua o "
    "trabalho e responda sem chamar mais ferramentas]";

// O que a ferramenta cancelada pelo orçamento devolve.
constexpr std::string_view kBudgetSkipped =
    "cancelado: o orçamento da conversa acabou antes de esta ferramenta rodar";

// Uma ferramenta que "aperta Ctrl-C" enquanto roda.
hz::Tool ctrl_c_tool(std::atomic<bool>& cancel) {
  return fake_tool("ctrl_c", {}, [&cancel](const json&) {
    cancel = true;
    return hz::ToolOutput::success("apertei");
  });
}

// A última linha do trace (o turn_end) com só os campos nomeados.
std::string turn_end_difference(const std::vector<json>& events, const json& expected) {
  if (events.empty()) return "o trace está vazio";
  return event_difference({events.back()}, {expected});
}

// O laço caro: toda resposta pede echo de novo e custa 12000 tokens de
// entrada e 300 de saída. A US$ 2 / US$ 8 por milhão, cada chamada custa
// 24000 + 2400 = 26400 micro-dólares.
constexpr std::string_view kExpensiveLoop = R"({"name": "caro", "steps": [
  {"tool_calls": [{"id": "c", "name": "echo", "arguments": "{\"text\": \"de novo\"}"}],
   "usage": {"prompt_tokens": 12000, "completion_tokens": 300}, "repeat": "forever"}
]})";

}  // namespace

TEST_SUITE_BEGIN("02-brakes/loop");

TEST_CASE("o laço caro para em budget com o gasto exato, no máximo uma chamada além do teto") {
  LoopRig rig(kExpensiveLoop);
  rig.budget = hz::Budget(90'000);  // US$ 0.09
  rig.config.prices = prices("2.00", "8.00");
  const hz::TurnResult result = rig.turn("rode");
  CHECK(hz::to_string(result.outcome) == "budget");
  CHECK(result.model_calls == 4);
  CHECK(usd(result.cost_micros) == usd(4 * 26'400));
  CHECK(usd(rig.budget.spent()) == usd(105'600));
  CHECK(result.cost_usd == doctest::Approx(0.1056));
  CHECK(result.final_text == "");
  CHECK(rig.bodies().size() == 4);
  CHECK(result.usage.prompt_tokens == 48'000);
  // A 4ª resposta pediu echo, mas o dinheiro acabou antes: a tool call tem a
  // sua mensagem e a ferramenta não rodou.
  // Depois do 3º passo o gasto é 79200 (88%): a nota vai no fim do 3º resultado.
  const std::vector<Message> expected = expensive_history(
      "rode",
      {"de novo", "de novo", "de novo\n\n" + std::string(kNoteAt90k), std::string(kBudgetSkipped)});
  CHECK_MESSAGE(rig.history == expected, first_difference(rig.history, expected));
  CHECK(turn_end_difference(rig.events(), {{"event", "turn_end"},
                                           {"outcome", "budget"},
                                           {"turns", 4},
                                           {"cost_usd", 0.1056},
                                           {"cost_known", true},
                                           {"estimated", false},
                                           {"retries", 0},
                                           {"error", ""}}) == "iguais");
}

TEST_CASE("passados 80 por cento do teto, o modelo recebe a nota no último resultado do passo") {
  LoopRig rig(kExpensiveLoop);
  rig.budget = hz::Budget(90'000);
  rig.config.prices = prices("2.00", "8.00");
  rig.turn("rode");
  // Depois do 3º passo o gasto é 79200 (88%): a nota vai no fim da mensagem tool.
  const std::string note(kNoteAt90k);
  const std::vector<Message> expected = expensive_history(
      "rode", {"de novo", "de novo", "de novo\n\n" + note, std::string(kBudgetSkipped)});
  CHECK_MESSAGE(rig.history == expected, first_difference(rig.history, expected));
  const auto bodies = rig.bodies();
  REQUIRE(bodies.size() == 4);
  CHECK(bodies[3]["messages"].back() == hz::to_json(Message::tool("c", "de novo\n\n" + note)));
  int notes = 0;
  for (const json& event : rig.events()) {
    if (event["event"] == "note") {
      ++notes;
      CHECK(event["turn"] == 3);
      CHECK(event["text"] == note);
    }
  }
  CHECK(notes == 1);
}

TEST_CASE("a nota de orçamento sai uma vez no turno, mesmo com passos inteiros depois dela") {
  LoopRig rig(kExpensiveLoop);
  rig.budget = hz::Budget(160'000);
  rig.config.prices = prices("2.00", "8.00");
  const hz::TurnResult result = rig.turn("rode");
  // O 5º passo chega a 132000 (82%) e ganha a nota; o 6º (158400, 99%) roda
  // inteiro sem outra; a 7ª resposta passa do teto antes da ferramenta.
  CHECK(hz::to_string(result.outcome) == "budget");
  CHECK(result.model_calls == 7);
  std::vector<int> noted_turns;
  for (const json& event : rig.events()) {
    if (event["event"] == "note") noted_turns.push_back(event["turn"].get<int>());
  }
  CHECK(noted_turns == std::vector<int>{5});
  const std::string note =
      "[nota do harness: restam US$ 0.028 do orçamento de US$ 0.16 desta conversa; conclua o "
      "trabalho e responda sem chamar mais ferramentas]";
  const std::vector<Message> expected =
      expensive_history("rode", {"de novo", "de novo", "de novo", "de novo", "de novo\n\n" + note,
                                 "de novo", std::string(kBudgetSkipped)});
  CHECK_MESSAGE(rig.history == expected, first_difference(rig.history, expected));
}

TEST_CASE("com o orçamento da conversa esgotado, o turno seguinte para sem chamar o modelo") {
  LoopRig rig(kExpensiveLoop);
  rig.budget = hz::Budget(30'000);
  rig.config.prices = prices("2.00", "8.00");
  const hz::TurnResult first = rig.turn("rode");
  CHECK(hz::to_string(first.outcome) == "budget");
  const std::size_t sent = rig.bodies().size();
  const hz::TurnResult second = rig.turn("mais uma");
  CHECK(hz::to_string(second.outcome) == "budget");
  CHECK(second.model_calls == 0);
  CHECK(second.cost_micros == 0);
  CHECK(rig.bodies().size() == sent);
}

TEST_CASE("freios que atuam na mesma conferência dão um rótulo só, pela precedência") {
  // Um passo só (max_turns 1): a ferramenta "tudo" aciona os freios pedidos, e
  // a conferência depois do passo os encontra juntos (com max_turns também).
  struct Case {
    bool ctrl_c, money, time;
    Outcome expected;
  };
  const Case cases[] = {
      {false, false, false, Outcome::max_turns}, {false, false, true, Outcome::timeout},
      {false, true, true, Outcome::budget},      {true, true, true, Outcome::cancelled},
      {false, true, false, Outcome::budget},     {true, false, true, Outcome::cancelled},
  };
  for (const Case& c : cases) {
    CAPTURE(c.ctrl_c);
    CAPTURE(c.money);
    CAPTURE(c.time);
    LoopRig rig(R"({"name": "tudo", "steps": [
      {"tool_calls": [{"id": "t", "name": "tudo", "arguments": "{}"}]},
      {"content": "nunca"}]})",
                {});
    rig.budget = hz::Budget(1'000);
    rig.config.prices = prices("0", "0");
    rig.config.turn_deadline = milliseconds(100);
    rig.config.max_turns = 1;
    rig.box = hz::ToolBox({fake_tool("tudo", {}, [&rig, c](const json&) {
      if (c.ctrl_c) rig.cancel = true;
      if (c.money) rig.budget.charge(1'000);
      if (c.time) rig.clock.advance(milliseconds(100));
      return hz::ToolOutput::success("feito");
    })});
    const hz::TurnResult result = rig.turn("vai");
    CHECK(hz::to_string(result.outcome) == hz::to_string(c.expected));
    CHECK(rig.bodies().size() == 1);
    CHECK(rig.history.back() == Message::tool("t", "feito"));
  }
}

TEST_CASE("o orçamento esgotado pela resposta do último passo vence max_turns") {
  LoopRig rig(kExpensiveLoop);
  rig.budget = hz::Budget(26'400);
  rig.config.prices = prices("2.00", "8.00");
  rig.config.max_turns = 1;
  const hz::TurnResult result = rig.turn("rode");
  CHECK(hz::to_string(result.outcome) == "budget");
}

TEST_CASE("a resposta final que passa do teto fecha o turno em success: já chegou e já foi paga") {
  LoopRig rig(R"({"name": "cara", "steps": [
    {"content": "pronto", "usage": {"prompt_tokens": 12000, "completion_tokens": 300}}]})");
  rig.budget = hz::Budget(10'000);  // US$ 0.01; a resposta custa 26400 micro-dólares
  rig.config.prices = prices("2.00", "8.00");
  const hz::TurnResult result = rig.turn("responda");
  CHECK(hz::to_string(result.outcome) == "success");
  CHECK(result.final_text == "pronto");
  CHECK(rig.history.back() == Message::assistant("pronto"));
  CHECK(usd(rig.budget.spent()) == usd(26'400));
  CHECK(rig.budget.exhausted());
  CHECK(turn_end_difference(rig.events(), {{"event", "turn_end"}, {"outcome", "success"}}) ==
        "iguais");
}

TEST_CASE("Ctrl-C entre ferramentas: as que faltam recebem 'cancelado' e o próximo pedido vale") {
  LoopRig rig(R"({"name": "ctrl-c", "steps": [
    {"tool_calls": [{"id": "a", "name": "echo", "arguments": {"text": "um"}},
                    {"id": "b", "name": "ctrl_c", "arguments": "{}"},
                    {"id": "c", "name": "echo", "arguments": {"text": "três"}},
                    {"id": "d", "name": "echo", "arguments": {"text": "quatro"}}]},
    {"expect": {"message_count": 8, "tool_call_id": "d", "last_role": "user"},
     "content": "entendi, parei"}
  ]})",
              {});
  rig.box = hz::ToolBox({echo_tool(), ctrl_c_tool(rig.cancel)});
  const hz::TurnResult first = rig.turn("faça quatro coisas");
  CHECK(hz::to_string(first.outcome) == "cancelled");
  CHECK(first.model_calls == 1);
  const std::string skipped =
      "cancelado: o turno foi interrompido (Ctrl-C, SIGTERM ou SIGHUP) antes de esta ferramenta "
      "rodar";
  const std::vector<Message> expected{
      Message::system("regras"),
      Message::user("faça quatro coisas"),
      Message::assistant("", {echo("a", "um"), ToolCall{"b", "ctrl_c", "{}"}, echo("c", "três"),
                              echo("d", "quatro")}),
      Message::tool("a", "um"),
      Message::tool("b", "apertei"),
      Message::tool("c", skipped),
      Message::tool("d", skipped)};
  CHECK_MESSAGE(rig.history == expected, first_difference(rig.history, expected));
  const std::vector<json> events = rig.events();
  int skipped_events = 0;
  for (const json& event : events) {
    if (event["event"] == "tool_skipped") ++skipped_events;
  }
  CHECK(skipped_events == 2);

  // A conversa segue: o chat desmarca a flag e manda o próximo pedido.
  rig.cancel = false;
  const hz::TurnResult second = rig.turn("pare e me conte");
  CHECK(hz::to_string(second.outcome) == "success");
  CHECK(second.final_text == "entendi, parei");
  CHECK(rig.model.failures() == std::vector<std::string>{});
  const auto bodies = rig.bodies();
  REQUIRE(bodies.size() == 2);
  std::vector<Message> sent = expected;
  sent.push_back(Message::user("pare e me conte"));
  CHECK(bodies[1]["messages"] == wire_messages(sent));
}

TEST_CASE("Ctrl-C no meio do streaming: nada da resposta cortada entra no histórico") {
  LoopRig rig(R"({"name": "lento", "steps": [
    {"content": "uma resposta longa que vai ser interrompida no meio do caminho",
     "chunk_delay_ms": 40},
    {"expect": {"message_count": 3, "last_role": "user"}, "content": "de novo, curta"}
  ]})");
  rig.config.stream = true;
  rig.config.on_text = [&rig](std::string_view) { rig.cancel = true; };
  const hz::TurnResult first = rig.turn("fale bastante");
  CHECK(hz::to_string(first.outcome) == "cancelled");
  const std::vector<Message> expected{Message::system("regras"), Message::user("fale bastante")};
  CHECK_MESSAGE(rig.history == expected, first_difference(rig.history, expected));
  CHECK(first.retries == 0);

  rig.cancel = false;
  rig.config.on_text = nullptr;
  const hz::TurnResult second = rig.turn("agora curto");
  CHECK(hz::to_string(second.outcome) == "success");
  CHECK(second.final_text == "de novo, curta");
  CHECK(rig.model.failures() == std::vector<std::string>{});
}

TEST_CASE("falha do provedor vira provider_error, com a mensagem, sem exceção e sem meio passo") {
  LoopRig rig(R"({"name": "caiu", "steps": [
    {"error": {"status": 500, "message": "o servidor caiu"}, "repeat": 2},
    {"content": "a 3ª tentativa: passou de max_retries 1"}
  ]})");
  rig.config.retry.max_retries = 1;
  const hz::TurnResult result = rig.turn("oi");
  CHECK(hz::to_string(result.outcome) == "provider_error");
  CHECK(result.error == "o provedor respondeu HTTP 500: o servidor caiu");
  CHECK(result.retries == 1);
  CHECK(result.model_calls == 1);
  const std::vector<Message> expected{Message::system("regras"), Message::user("oi")};
  CHECK_MESSAGE(rig.history == expected, first_difference(rig.history, expected));
  CHECK(turn_end_difference(rig.events(), {{"event", "turn_end"},
                                           {"outcome", "provider_error"},
                                           {"turns", 1},
                                           {"retries", 1},
                                           {"cost_known", false},
                                           {"error", result.error}}) == "iguais");
}

TEST_CASE("resposta sem uso: o turno soma a estimativa e marca o custo como estimado") {
  LoopRig rig(R"({"name": "sem-uso", "quirks": ["no_usage"], "steps": [{"content": "feito"}]})");
  rig.config.prices = prices("2.50", "10.00");
  const hz::TurnResult result = rig.turn("faça");
  CHECK(hz::to_string(result.outcome) == "success");
  CHECK(result.cost_estimated);
  CHECK(result.usage.estimated);
  CHECK(result.cost_micros > 0);
  CHECK(usd(rig.budget.spent()) == usd(result.cost_micros));
  CHECK(turn_end_difference(rig.events(), {{"event", "turn_end"}, {"estimated", true}}) ==
        "iguais");
}

TEST_CASE("o prazo do turno corta uma chamada pendurada: timeout") {
  LoopRig rig(R"({"name": "pendurado", "steps": [{"fault": "hang"}, {"content": "nunca"}]})");
  hz::SystemClock real;
  rig.config.clock = &real;
  rig.config.retry.max_retries = 2;
  rig.config.turn_deadline = milliseconds(300);
  const auto start = std::chrono::steady_clock::now();
  const hz::TurnResult result = rig.turn("responda");
  const auto took = std::chrono::steady_clock::now() - start;
  CHECK(hz::to_string(result.outcome) == "timeout");
  CHECK(rig.model.requests().size() == 1);
  CHECK(took < std::chrono::seconds(3));
  const std::vector<Message> expected{Message::system("regras"), Message::user("responda")};
  CHECK_MESSAGE(rig.history == expected, first_difference(rig.history, expected));
}

TEST_CASE("um streaming que para no meio cai pelo idle timeout e a nova tentativa responde") {
  hz::HttpOptions http;
  http.idle_timeout = milliseconds(300);
  LoopRig rig(R"({"name": "parado", "steps": [
    {"fault": "stall_stream", "stall_after": 2, "content": "começo e depois silêncio total"},
    {"content": "segunda tentativa"}
  ]})",
              {echo_tool()}, http);
  rig.config.stream = true;
  rig.config.retry.max_retries = 1;
  const hz::TurnResult result = rig.turn("fale");
  CHECK(hz::to_string(result.outcome) == "success");
  CHECK(result.final_text == "segunda tentativa");
  CHECK(result.retries == 1);
  const auto events = rig.events();
  REQUIRE(events.size() >= 2);
  CHECK(events[1]["event"] == "model_error");
  CHECK(events[1]["kind"] == "idle");
  CHECK(events[1]["billed"] == true);
}

TEST_CASE("um streaming lento mas vivo não é cortado pelo idle timeout") {
  hz::HttpOptions http;
  http.idle_timeout = milliseconds(300);
  LoopRig rig(R"({"name": "lento", "steps": [
    {"content": "devagar mas sempre", "chunk_delay_ms": 60}
  ]})",
              {echo_tool()}, http);
  rig.config.stream = true;
  const hz::TurnResult result = rig.turn("fale");
  CHECK(hz::to_string(result.outcome) == "success");
  CHECK(result.final_text == "devagar mas sempre");
  CHECK(result.retries == 0);
}

TEST_SUITE_END();
