// run_turn na etapa 03: o passo é o da etapa 02 e o detector entra pela
// política (LoopConfig::repetition). A quarta-feira com o número exato de
// chamadas, o aviso no pedido que o harness mandou, a recuperação depois do
// aviso, o turno novo que zera a janela, as isenções e o que não é
// travamento (a sondagem que muda, leituras paginadas).
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../02-brakes/helpers.hpp"
#include "agent_loop.hpp"
#include "context.hpp"
#include "helpers.hpp"
#include "hz/chat_client.hpp"
#include "hz/testing/printing.hpp"
#include "hz/testing/scripted_model.hpp"
#include "hz/testing/temp_dir.hpp"
#include "hz/tools.hpp"
#include "hz/workspace.hpp"
#include "repetition.hpp"

using hz::Message;
using hz::Outcome;
using hz::RepetitionConfig;
using hz::test01::event_difference;
using hz::test01::event_names;
using hz::test01::fake_tool;
using hz::test01::json_difference;
using hz::test01::wire_messages;
using hz::testing::first_difference;
using nlohmann::json;

namespace {

const std::string kFailure = "test_login ... FALHOU\n  conexão recusada";

// run_tests{}: o teste que falha sempre do mesmo jeito.
hz::Tool failing_test() {
  return fake_tool("run_tests", {}, [](const json&) { return hz::ToolOutput::failure(kFailure); });
}

// poll{}: uma sondagem de um build lento, com uma resposta nova a cada chamada.
hz::Tool slow_build() {
  return fake_tool("poll", {}, [count = 0](const json&) mutable {
    return hz::ToolOutput::success("compilando: " + std::to_string(++count * 10) + "%");
  });
}

// read_page{offset}: uma página diferente para cada offset.
hz::Tool pages() {
  return fake_tool("read_page", {"offset"}, [](const json& args) {
    return hz::ToolOutput::success("página a partir de " + args.at("offset").get<std::string>());
  });
}

// wait{}: sempre a mesma resposta; é a candidata natural à isenção.
hz::Tool wait_tool() {
  return fake_tool("wait", {}, [](const json&) { return hz::ToolOutput::success("esperei 5 s"); });
}

std::vector<hz::Tool> all_tools() { return {failing_test(), slow_build(), pages(), wait_tool()}; }

// O modelo, o cliente de verdade, o detector padrão (janela 5, limiar 3) e
// um histórico que começa com "regras".
struct LoopRig {
  explicit LoopRig(std::string_view scenario)
      : model(scenario),
        client(model.endpoint()),
        box(all_tools()),
        config{"modelo-teste", 20},
        history(hz::start_conversation("regras")) {
    config.repetition = RepetitionConfig{};
  }

  hz::TurnResult turn(std::string text) {
    hz::add_user_message(history, std::move(text));
    return hz::run_turn(history, config, client, box, recorded.trace());
  }

  std::vector<json> bodies() const { return model.request_bodies(); }

  // Os eventos do detector, sem os outros.
  std::vector<json> detector_events() const {
    std::vector<json> picked;
    for (const json& event : recorded.events()) {
      const std::string name = event.value("event", "");
      if (name == "tool_repetition" || name == "repetition_warning" || name == "repetition_stop") {
        picked.push_back(event);
      }
    }
    return picked;
  }

  hz::testing::ScriptedModel model;
  hz::OpenAiClient client;
  hz::ToolBox box;
  hz::test01::RecordedTrace recorded;
  hz::LoopConfig config;
  std::vector<Message> history;
};

// A quarta-feira do mock, com ids gerados pelo mock (um por pedido).
constexpr std::string_view kWednesday = R"({"name": "quarta", "steps": [
  {"content": "Vou rodar o teste de novo.", "tool_calls": [{"name": "run_tests"}],
   "repeat": "forever"}
]})";

// O aviso anexado à 3ª run_tests: o nudge_text do aluno (helpers.hpp).
std::string nudge() { return hz::testing::repeat_nudge("run_tests", 3); }

}  // namespace

TEST_CASE("a quarta-feira para em repetition na 4ª chamada, com o aviso depois da 3ª") {
  LoopRig rig(kWednesday);
  const hz::TurnResult result = rig.turn("o teste falhou, corrija");
  CHECK(result.outcome == Outcome::repetition);
  CHECK(hz::exit_code(result.outcome) == 7);
  CHECK(result.model_calls == 4);
  CHECK(result.final_text.empty());
  const std::vector<json> bodies = rig.bodies();
  REQUIRE(bodies.size() == 4);
  // O aviso vai no resultado da chamada repetida (a 3ª), no pedido seguinte,
  // e não numa mensagem nova: o pedido 4 tem 2 + 3 * 2 mensagens. A 4ª
  // resposta foi guardada e respondida: o histórico continua válido.
  std::vector<Message> history{Message::system("regras"), Message::user("o teste falhou, corrija")};
  for (int call = 1; call <= 4; ++call) {
    const std::string id = "call_" + std::to_string(call) + "_1";
    history.push_back(
        Message::assistant("Vou rodar o teste de novo.", {hz::ToolCall{id, "run_tests", "{}"}}));
    history.push_back(Message::tool(id, call == 3 ? kFailure + "\n\n" + nudge() : kFailure));
  }
  CHECK_MESSAGE(rig.history == history, first_difference(rig.history, history));
  const json sent = wire_messages({history.begin(), history.begin() + 8});
  INFO(json_difference(bodies[3]["messages"], sent));
  CHECK(bodies[3]["messages"] == sent);
  const std::vector<json> expected{
      {{"event", "tool_repetition"}, {"turn", 2}, {"repetition", "repeat"}, {"repeat_count", 2}},
      {{"event", "tool_repetition"}, {"turn", 3}, {"repetition", "repeat"}, {"repeat_count", 3}},
      {{"event", "repetition_warning"},
       {"turn", 3},
       {"call_id", "call_3_1"},
       {"name", "run_tests"},
       {"count", 3},
       {"kind", "same"}},
      {{"event", "tool_repetition"}, {"turn", 4}, {"repetition", "repeat"}, {"repeat_count", 4}},
      {{"event", "repetition_stop"},
       {"turn", 4},
       {"call_id", "call_4_1"},
       {"name", "run_tests"},
       {"count", 4},
       {"kind", "same"}},
  };
  CHECK(event_difference(rig.detector_events(), expected) == "iguais");
  const std::vector<json> events = rig.recorded.events();
  REQUIRE_FALSE(events.empty());
  CHECK(event_difference({events.back()},
                         {{{"event", "turn_end"}, {"outcome", "repetition"}, {"turns", 4}}}) ==
        "iguais");
}

TEST_CASE("com duas chamadas no passo, o aviso vai no resultado da repetida, não no último") {
  LoopRig rig(R"({"name": "paralelas", "steps": [
    {"tool_calls": [{"name": "run_tests"}, {"name": "read_page", "arguments": {"offset": "0"}}]},
    {"tool_calls": [{"name": "run_tests"}, {"name": "read_page", "arguments": {"offset": "9"}}]},
    {"tool_calls": [{"name": "run_tests"}, {"name": "read_page", "arguments": {"offset": "18"}}]},
    {"content": "O teste falha igual; paro aqui."}
  ]})");
  const hz::TurnResult result = rig.turn("o teste falhou, corrija");
  CHECK(result.outcome == Outcome::success);
  CHECK(result.model_calls == 4);
  const std::vector<json> bodies = rig.bodies();
  REQUIRE(bodies.size() == 4);
  const json& messages = bodies[3]["messages"];
  REQUIRE(messages.size() == 11);  // regras, usuário e 3 × (assistente + 2 resultados)
  CHECK(messages[9] == hz::to_json(Message::tool("call_3_1", kFailure + "\n\n" + nudge())));
  CHECK(messages[10] == hz::to_json(Message::tool("call_3_2", "página a partir de 18")));
}

TEST_CASE("a ordem dos eventos de um passo avisado: ferramenta, detector, nota") {
  LoopRig rig(kWednesday);
  rig.turn("o teste falhou, corrija");
  std::vector<std::string> third_step;
  for (const json& event : rig.recorded.events()) {
    if (event.value("turn", 0) == 3) third_step.push_back(event.value("event", "?"));
  }
  CHECK(third_step == std::vector<std::string>{"model_request", "model_response", "tool_start",
                                               "tool_end", "tool_repetition", "repetition_warning",
                                               "note"});
}

TEST_CASE("sem config.repetition (o padrão), a quarta-feira vai até max_turns, como na etapa 02") {
  LoopRig rig(kWednesday);
  rig.config.repetition.reset();
  rig.config.max_turns = 8;
  const hz::TurnResult result = rig.turn("o teste falhou, corrija");
  CHECK(result.outcome == Outcome::max_turns);
  CHECK(result.model_calls == 8);
  CHECK(rig.detector_events().empty());
  CHECK(hz::LoopConfig{}.repetition == std::nullopt);
}

TEST_CASE("no último passo permitido, o turno travado termina em repetition, não em max_turns") {
  LoopRig rig(kWednesday);
  rig.config.max_turns = 4;
  const hz::TurnResult result = rig.turn("o teste falhou, corrija");
  CHECK(result.outcome == Outcome::repetition);
  CHECK(result.model_calls == 4);
}

TEST_CASE("três erros idênticos seguidos recebem o aviso, e o quarto para") {
  // Uma ferramenta que não existe: o despacho responde o mesmo erro.
  LoopRig rig(R"({"name": "erros", "steps": [
    {"tool_calls": [{"name": "apagar_tudo", "arguments": {"pasta": "/"}}], "repeat": "forever"}
  ]})");
  const hz::TurnResult result = rig.turn("limpe");
  CHECK(result.outcome == Outcome::repetition);
  CHECK(result.model_calls == 4);
  const std::vector<json> bodies = rig.bodies();
  REQUIRE(bodies.size() == 4);
  const std::string last = bodies[3]["messages"].back()["content"].get<std::string>();
  // O erro do despacho do aluno (exercício 01-loop/dispatch), com o aviso dele.
  const json& messages = bodies[3]["messages"];
  const json& asked = messages[messages.size() - 2]["tool_calls"].at(0);
  const std::string error = rig.box
                                .dispatch(hz::ToolCall{asked["id"], asked["function"]["name"],
                                                       asked["function"]["arguments"]})
                                .message.content;
  const std::string warning = hz::testing::repeat_nudge("apagar_tudo", 3);
  CHECK(last == error + "\n\n" + warning);
}

TEST_CASE("depois do aviso, o modelo que muda de abordagem termina o turno em success") {
  LoopRig rig(R"({"name": "recupera", "steps": [
    {"tool_calls": [{"name": "run_tests"}], "repeat": 3},
    {"expect": {"last_contains": "[aviso do harness]"},
     "tool_calls": [{"name": "read_page", "arguments": {"offset": "0"}}]},
    {"content": "O servidor de autenticação não existe aqui; não dá para consertar o teste."}
  ]})");
  const hz::TurnResult result = rig.turn("o teste falhou, corrija");
  CHECK(result.outcome == Outcome::success);
  CHECK(result.model_calls == 5);
  CHECK(result.final_text ==
        "O servidor de autenticação não existe aqui; não dá para consertar o teste.");
  CHECK(rig.model.failures().empty());
  CHECK(event_names(rig.detector_events()) ==
        std::vector<std::string>{"tool_repetition", "tool_repetition", "repetition_warning"});
}

TEST_CASE("uma mensagem nova do usuário zera a janela e o aviso") {
  // Turno 1: duas vezes o mesmo teste e uma resposta. Turno 2: o mesmo teste
  // de novo. Com a janela do turno 1, seria a 3ª vez (aviso); num turno novo,
  // é a 1ª.
  LoopRig rig(R"({"name": "dois turnos", "steps": [
    {"tool_calls": [{"name": "run_tests"}], "repeat": 2},
    {"content": "Falhou duas vezes."},
    {"tool_calls": [{"name": "run_tests"}]},
    {"expect": {"last_role": "tool"}, "content": "Falhou de novo."}
  ]})");
  CHECK(rig.turn("rode o teste").outcome == Outcome::success);
  CHECK(rig.detector_events().size() == 1);  // a 2ª vez: repeat 2/3
  const hz::TurnResult second = rig.turn("rode de novo");
  CHECK(second.outcome == Outcome::success);
  CHECK(second.model_calls == 2);
  CHECK(rig.detector_events().size() == 1);  // nada novo no turno 2
  const std::vector<json> bodies = rig.bodies();
  REQUIRE(bodies.size() == 5);
  CHECK(bodies[4]["messages"].back()["content"] == kFailure);
}

TEST_CASE("o turno segue até o fim quando a mesma chamada muda de resultado a cada passo") {
  LoopRig rig(R"({"name": "build lento", "steps": [
    {"tool_calls": [{"name": "poll"}], "repeat": 8},
    {"content": "Compilou."}
  ]})");
  const hz::TurnResult result = rig.turn("espere o build");
  CHECK(result.outcome == Outcome::success);
  CHECK(result.model_calls == 9);
  const std::vector<json> events = rig.detector_events();
  CHECK(events.size() == 7);
  for (const json& event : events) CHECK(event["repetition"] == "progress");
}

TEST_CASE("o mesmo append_file a cada passo não trava: o resultado diz que o arquivo cresceu") {
  const hz::testing::TempDir dir;
  const hz::Workspace workspace(dir.path());
  LoopRig rig(R"({"name": "diário", "steps": [
    {"tool_calls": [{"name": "append_file",
                     "arguments": {"path": "log.txt", "content": "mais uma linha\n"}}],
     "repeat": 5},
    {"content": "Anotei."}
  ]})");
  rig.box = hz::ToolBox({hz::append_file_tool(workspace)});
  const hz::TurnResult result = rig.turn("anote cinco vezes");
  CHECK(result.outcome == Outcome::success);
  CHECK(result.model_calls == 6);
  std::string expected;
  for (int i = 0; i < 5; ++i) expected += "mais uma linha\n";
  CHECK(dir.read("log.txt") == expected);
  // Cada acréscimo relata o tamanho novo: a mesma chamada com outro resultado é progresso.
  const std::vector<json> events = rig.detector_events();
  CHECK(events.size() == 4);
  for (const json& event : events) CHECK(event["repetition"] == "progress");
}

TEST_CASE("leituras paginadas com offsets diferentes não travam e não aparecem no trace") {
  std::string steps;
  for (int page = 0; page < 12; ++page) {
    steps += R"({"tool_calls": [{"name": "read_page", "arguments": {"offset": ")" +
             std::to_string(page * 100) + R"("}}]},)";
  }
  LoopRig rig(R"({"name": "paginas", "steps": [)" + steps + R"({"content": "Li tudo."}]})");
  const hz::TurnResult result = rig.turn("leia o arquivo inteiro");
  CHECK(result.outcome == Outcome::success);
  CHECK(result.model_calls == 13);
  CHECK(rig.detector_events().empty());
}

TEST_CASE("ferramentas isentas não contam: o wait repetido termina em success") {
  LoopRig rig(R"({"name": "espera", "steps": [
    {"tool_calls": [{"name": "wait"}], "repeat": 6},
    {"content": "Terminou."}
  ]})");
  rig.config.repetition = RepetitionConfig{5, 3, {"wait"}};
  const hz::TurnResult result = rig.turn("espere");
  CHECK(result.outcome == Outcome::success);
  CHECK(result.model_calls == 7);
  CHECK(rig.detector_events().empty());
}

TEST_CASE("o mesmo wait sem isenção trava como qualquer outra chamada") {
  LoopRig rig(R"({"name": "espera", "steps": [
    {"tool_calls": [{"name": "wait"}], "repeat": 6},
    {"content": "Terminou."}
  ]})");
  const hz::TurnResult result = rig.turn("espere");
  CHECK(result.outcome == Outcome::repetition);
  CHECK(result.model_calls == 4);
}

TEST_CASE("o ciclo A-B-A-B no turno: aviso na 4ª chamada, repetition na 5ª") {
  LoopRig rig(R"({"name": "ciclo", "steps": [
    {"tool_calls": [{"name": "run_tests"}]},
    {"tool_calls": [{"name": "wait"}]},
    {"tool_calls": [{"name": "run_tests"}]},
    {"tool_calls": [{"name": "wait"}]},
    {"tool_calls": [{"name": "run_tests"}]},
    {"content": "nunca chega aqui"}
  ]})");
  const hz::TurnResult result = rig.turn("o teste falhou, corrija");
  CHECK(result.outcome == Outcome::repetition);
  CHECK(result.model_calls == 5);
  const std::vector<json> bodies = rig.bodies();
  REQUIRE(bodies.size() == 5);
  const std::string last = bodies[4]["messages"].back()["content"].get<std::string>();
  const std::string warning = hz::testing::cycle_nudge({"run_tests", "wait"});
  CHECK(last == "esperei 5 s\n\n" + warning);
}
