// O detector entrando pela política: Brakes::after_step observa as tool calls
// do passo (TurnState::last_calls e last_results, que a etapa 02 já expunha),
// avisa com uma nota, para com repetition e conta o que viu na decisão
// (Decision::events), que o loop grava no trace. A ordem entre os freios
// segue a precedência de outcome.hpp.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../02-brakes/helpers.hpp"
#include "budget.hpp"
#include "helpers.hpp"
#include "policy.hpp"
#include "repetition.hpp"

using hz::Decision;
using hz::Message;
using hz::Outcome;
using hz::RepetitionConfig;
using hz::ToolCall;
using hz::TurnState;
using hz::test01::event_difference;
using hz::test01::event_names;
using hz::test02::FakeClock;
using hz::testing::cycle_nudge;
using hz::testing::repeat_nudge;
using nlohmann::json;
using std::chrono::milliseconds;

namespace {

std::string shown_decision(const Decision& decision) {
  switch (decision.kind) {
    case Decision::Kind::proceed:
      return "segue";
    case Decision::Kind::proceed_with_note:
      return "segue com nota: " + decision.note;
    case Decision::Kind::stop:
      return "para: " + std::string(hz::to_string(decision.outcome));
  }
  return "?";
}

// Os freios com o detector padrão (janela 5, limiar 3), sem teto, sem prazo.
struct Rig {
  explicit Rig(std::optional<RepetitionConfig> repetition = RepetitionConfig{},
               const hz::Budget* budget = nullptr, milliseconds deadline = milliseconds(0))
      : brakes(budget, deadline, &cancel, clock, std::move(repetition)) {
    state.started = clock.now();
  }

  // Um passo: o modelo pediu `calls` e cada uma recebeu o texto de `results`.
  Decision step(const std::vector<std::pair<ToolCall, std::string>>& calls) {
    ++state.model_calls;
    state.last_calls.clear();
    state.last_results.clear();
    for (const auto& [call, result] : calls) {
      state.last_calls.push_back(call);
      state.last_results.push_back(Message::tool(call.id, result));
    }
    Decision decision = brakes.after_step(state);
    // O que o loop faz: grava no trace os eventos da decisão e guarda a
    // memória dela para o passo seguinte.
    for (const json& event : decision.events) recorded.trace().emit(event);
    if (decision.kind != Decision::Kind::stop) state.memory = decision.memory;
    return decision;
  }

  // O passo de uma chamada só, com id próprio ("c1", "c2"...), como o provedor manda.
  Decision step(const std::string& name, const std::string& arguments, const std::string& result) {
    const std::string id = "c" + std::to_string(state.model_calls + 1);
    return step({{ToolCall{id, name, arguments}, result}});
  }

  FakeClock clock;
  std::atomic<bool> cancel{false};
  hz::test01::RecordedTrace recorded;
  const hz::Brakes brakes;
  TurnState state;
};

const std::string kTest = R"({"command":"sh test_login.sh"})";
const std::string kStuckFailure = "test_login ... FALHOU\n  conexão recusada";

}  // namespace

TEST_CASE("sem detector (o padrão da etapa 02), a mesma chamada repetida só segue") {
  Rig rig(std::nullopt);
  for (int i = 0; i < 6; ++i) {
    CAPTURE(i);
    CHECK(shown_decision(rig.step("run_shell", kTest, kStuckFailure)) == "segue");
  }
  CHECK(rig.recorded.events().empty());
}

TEST_CASE("os freios não guardam nada: a memória do passo, noutros Brakes, continua o turno") {
  Rig rig;
  CHECK(shown_decision(rig.step("run_shell", kTest, kStuckFailure)) == "segue");
  CHECK(shown_decision(rig.step("run_shell", kTest, kStuckFailure)) == "segue");
  REQUIRE(rig.state.memory.detector.has_value());
  CHECK(rig.state.memory.detector->history().size() == 2);
  // O 3º passo, perguntado duas vezes com a mesma memória: a mesma resposta.
  ++rig.state.model_calls;
  rig.state.last_calls = {ToolCall{"c3", "run_shell", kTest}};
  rig.state.last_results = {Message::tool("c3", kStuckFailure)};
  const Decision first = rig.brakes.after_step(rig.state);
  const Decision again = rig.brakes.after_step(rig.state);
  CHECK(shown_decision(first) == "segue com nota: " + repeat_nudge("run_shell", 3));
  CHECK(shown_decision(again) == shown_decision(first));
  // Outros Brakes (como os de um processo retomado), com a memória do aviso:
  // o próximo travamento para.
  FakeClock clock;
  const hz::Brakes fresh(nullptr, milliseconds(0), nullptr, clock, RepetitionConfig{});
  TurnState resumed = rig.state;
  resumed.memory = first.memory;
  ++resumed.model_calls;
  resumed.last_calls = {ToolCall{"c4", "run_shell", kTest}};
  resumed.last_results = {Message::tool("c4", kStuckFailure)};
  CHECK(shown_decision(fresh.after_step(resumed)) == "para: repetition");
  // Com a memória de antes do aviso, os mesmos fatos só dariam o aviso.
  resumed.memory = rig.state.memory;
  CHECK(shown_decision(fresh.after_step(resumed)) ==
        "segue com nota: " + repeat_nudge("run_shell", 3));
}

TEST_CASE("a política avisa na terceira chamada igual e para na quarta com repetition") {
  Rig rig;
  CHECK(shown_decision(rig.step("run_shell", kTest, kStuckFailure)) == "segue");
  CHECK(shown_decision(rig.step("run_shell", kTest, kStuckFailure)) == "segue");
  const Decision warned = rig.step("run_shell", kTest, kStuckFailure);
  CHECK(shown_decision(warned) == "segue com nota: " + repeat_nudge("run_shell", 3));
  CHECK(warned.note_call_id == "c3");  // o aviso vai no resultado da chamada repetida
  CHECK(shown_decision(rig.step("run_shell", kTest, kStuckFailure)) == "para: repetition");
  const std::vector<json> expected{
      {{"event", "tool_repetition"},
       {"turn", 2},
       {"call_id", "c2"},
       {"name", "run_shell"},
       {"repetition", "repeat"},
       {"repeat_count", 2},
       {"threshold", 3}},
      {{"event", "tool_repetition"}, {"turn", 3}, {"repetition", "repeat"}, {"repeat_count", 3}},
      {{"event", "repetition_warning"},
       {"turn", 3},
       {"call_id", "c3"},
       {"name", "run_shell"},
       {"count", 3},
       {"kind", "same"}},
      {{"event", "tool_repetition"}, {"turn", 4}, {"repetition", "repeat"}, {"repeat_count", 4}},
      {{"event", "repetition_stop"},
       {"turn", 4},
       {"call_id", "c4"},
       {"name", "run_shell"},
       {"count", 4},
       {"kind", "same"}},
  };
  CHECK(event_difference(rig.recorded.events(), expected) == "iguais");
}

TEST_CASE("a política não grava nada: o que o detector viu vem na decisão, também na parada") {
  Rig rig;
  CHECK(rig.step("run_shell", kTest, kStuckFailure).events.empty());  // nova: nada a contar
  CHECK(event_names(rig.step("run_shell", kTest, kStuckFailure).events) ==
        std::vector<std::string>{"tool_repetition"});
  const Decision warned = rig.step("run_shell", kTest, kStuckFailure);
  CHECK(event_difference(warned.events, {{{"event", "tool_repetition"},
                                          {"turn", 3},
                                          {"call_id", "c3"},
                                          {"repetition", "repeat"},
                                          {"repeat_count", 3},
                                          {"threshold", 3}},
                                         {{"event", "repetition_warning"},
                                          {"turn", 3},
                                          {"call_id", "c3"},
                                          {"name", "run_shell"},
                                          {"count", 3},
                                          {"kind", "same"}}}) == "iguais");
  // A parada devolve o que o detector viu antes de parar.
  const Decision stopped = rig.step("run_shell", kTest, kStuckFailure);
  CHECK(shown_decision(stopped) == "para: repetition");
  CHECK(event_difference(stopped.events, {{{"event", "tool_repetition"}, {"turn", 4}},
                                          {{"event", "repetition_stop"},
                                           {"turn", 4},
                                           {"call_id", "c4"},
                                           {"count", 4},
                                           {"kind", "same"}}}) == "iguais");
  // Os mesmos fatos perguntados de novo: os mesmos eventos, nada guardado.
  CHECK(rig.brakes.after_step(rig.state).events == stopped.events);
}

TEST_CASE("a política conta no trace o progresso, e a chamada nova não aparece") {
  Rig rig;
  CHECK(shown_decision(rig.step("run_shell", R"({"command":"make"})", "compilando 10%")) ==
        "segue");
  CHECK(shown_decision(rig.step("run_shell", R"({"command":"make"})", "compilando 60%")) ==
        "segue");
  const std::vector<json> expected{{{"event", "tool_repetition"},
                                    {"turn", 2},
                                    {"name", "run_shell"},
                                    {"repetition", "progress"},
                                    {"repeat_count", 1}}};
  CHECK(event_difference(rig.recorded.events(), expected) == "iguais");
}

TEST_CASE("a política vê um ciclo A-B-A-B e o nomeia no aviso") {
  Rig rig;
  const std::string read = R"({"path":"test_login.log"})";
  CHECK(shown_decision(rig.step("run_shell", kTest, kStuckFailure)) == "segue");
  CHECK(shown_decision(rig.step("read_file", read, "erro: conexão recusada")) == "segue");
  CHECK(shown_decision(rig.step("run_shell", kTest, kStuckFailure)) == "segue");
  const Decision warned = rig.step("read_file", read, "erro: conexão recusada");
  const std::string warning = cycle_nudge({"run_shell", "read_file"});
  CHECK(shown_decision(warned) == "segue com nota: " + warning);
  const std::vector<json> events = rig.recorded.events();
  REQUIRE_FALSE(events.empty());
  CHECK(event_difference({events.back()}, {{{"event", "repetition_warning"},
                                            {"turn", 4},
                                            {"name", "read_file"},
                                            {"kind", "cycle"},
                                            {"cycle", {"run_shell", "read_file"}}}}) == "iguais");
  CHECK(shown_decision(rig.step("run_shell", kTest, kStuckFailure)) == "para: repetition");
}

TEST_CASE("a política observa cada tool call do passo, e o aviso do passo não vira parada") {
  Rig rig;
  const ToolCall a1{"a1", "read_file", R"({"path":"a.txt"})"};
  const ToolCall a2{"a2", "read_file", R"({"path": "a.txt"})"};
  const ToolCall a3{"a3", "read_file", R"({ "path" : "a.txt" })"};
  // Três leituras iguais em paralelo: travam na terceira, no mesmo passo; a
  // quarta (outro passo) para.
  CHECK(shown_decision(rig.step({{a1, "x"}, {a2, "x"}, {a3, "x"}})) ==
        "segue com nota: " + repeat_nudge("read_file", 3));
  CHECK(event_names(rig.recorded.events()) ==
        std::vector<std::string>{"tool_repetition", "tool_repetition", "repetition_warning"});
  CHECK(shown_decision(rig.step({{ToolCall{"a4", "read_file", R"({"path":"a.txt"})"}, "x"}})) ==
        "para: repetition");
}

TEST_CASE("Ctrl-C, orçamento e prazo vêm antes do detector, e o detector antes de seguir") {
  SUBCASE("Ctrl-C") {
    Rig rig;
    rig.step("run_shell", kTest, kStuckFailure);
    rig.step("run_shell", kTest, kStuckFailure);
    rig.step("run_shell", kTest, kStuckFailure);
    rig.cancel = true;
    CHECK(shown_decision(rig.step("run_shell", kTest, kStuckFailure)) == "para: cancelled");
  }
  SUBCASE("prazo") {
    Rig rig(RepetitionConfig{}, nullptr, milliseconds(1000));
    rig.step("run_shell", kTest, kStuckFailure);
    rig.step("run_shell", kTest, kStuckFailure);
    rig.step("run_shell", kTest, kStuckFailure);
    rig.clock.advance(milliseconds(1000));
    CHECK(shown_decision(rig.step("run_shell", kTest, kStuckFailure)) == "para: timeout");
  }
  SUBCASE("orçamento") {
    hz::Budget budget(100);
    Rig rig(RepetitionConfig{}, &budget);
    rig.step("run_shell", kTest, kStuckFailure);
    rig.step("run_shell", kTest, kStuckFailure);
    rig.step("run_shell", kTest, kStuckFailure);
    budget.charge(100);
    CHECK(shown_decision(rig.step("run_shell", kTest, kStuckFailure)) == "para: budget");
  }
}

TEST_CASE("o aviso do detector e a nota de orçamento no mesmo passo vão juntos, o aviso antes") {
  hz::Budget budget(100);
  Rig rig(RepetitionConfig{}, &budget);
  rig.step("run_shell", kTest, kStuckFailure);
  rig.step("run_shell", kTest, kStuckFailure);
  budget.charge(85);
  const Decision both = rig.step("run_shell", kTest, kStuckFailure);
  CHECK(shown_decision(both) ==
        "segue com nota: " + repeat_nudge("run_shell", 3) +
            "\n\n[nota do harness: restam US$ 0.000015 do orçamento de US$ 0.0001 desta "
            "conversa; conclua o trabalho e responda sem chamar mais ferramentas]");
  CHECK(both.note_call_id == "c3");
}

TEST_CASE("a nota de orçamento sozinha não cita chamada: vai no último resultado do passo") {
  hz::Budget budget(100);
  Rig rig(RepetitionConfig{}, &budget);
  budget.charge(85);
  const Decision note = rig.step("run_shell", kTest, kStuckFailure);
  CHECK(shown_decision(note) ==
        "segue com nota: [nota do harness: restam US$ 0.000015 do orçamento de US$ 0.0001 desta "
        "conversa; conclua o trabalho e responda sem chamar mais ferramentas]");
  CHECK(note.note_call_id.empty());
}

TEST_CASE("o aviso cita a chamada que travou, mesmo com outra depois dela no passo") {
  Rig rig;
  for (int i = 1; i <= 3; ++i) {
    CAPTURE(i);
    const std::string n = std::to_string(i);
    const Decision decision =
        rig.step({{ToolCall{"test" + n, "run_shell", kTest}, kStuckFailure},
                  {ToolCall{"page" + n, "read_file", R"({"offset":)" + n + "}"}, "página " + n}});
    if (i < 3) {
      CHECK(shown_decision(decision) == "segue");
    } else {
      CHECK(shown_decision(decision) == "segue com nota: " + repeat_nudge("run_shell", 3));
      CHECK(decision.note_call_id == "test3");
    }
  }
}

TEST_CASE("append_note anexa a nota ao resultado da chamada citada") {
  std::vector<Message> history{Message::user("rode"), Message::tool("a", "saída a"),
                               Message::tool("b", "saída b")};
  hz::append_note(history, "[aviso]", "a");
  CHECK(history[1] == Message::tool("a", "saída a\n\n[aviso]"));
  CHECK(history[2] == Message::tool("b", "saída b"));
}

TEST_CASE("append_note sem chamada citada, ou com uma que não está no histórico, usa o fim") {
  std::vector<Message> history{Message::tool("a", "saída a"), Message::tool("b", "saída b")};
  hz::append_note(history, "[nota 1]", "");
  hz::append_note(history, "[nota 2]", "zzz");
  CHECK(history[0] == Message::tool("a", "saída a"));
  CHECK(history[1] == Message::tool("b", "saída b\n\n[nota 1]\n\n[nota 2]"));
}

TEST_CASE("append_note procura a chamada de trás para a frente e só em mensagens tool") {
  // Um id repetido em turnos diferentes (há provedores que reusam "call_0"):
  // a nota é do passo atual, o mais recente.
  std::vector<Message> history{Message::tool("call_0", "antigo"), Message::user("de novo"),
                               Message::tool("call_0", "novo"), Message::tool("x", "outro")};
  hz::append_note(history, "[aviso]", "call_0");
  CHECK(history[0] == Message::tool("call_0", "antigo"));
  CHECK(history[2] == Message::tool("call_0", "novo\n\n[aviso]"));
}

TEST_CASE("ferramentas isentas não contam para a política") {
  Rig rig(RepetitionConfig{5, 3, {"wait"}});
  for (int i = 0; i < 6; ++i) {
    CAPTURE(i);
    CHECK(shown_decision(rig.step("wait", R"({"seconds":5})", "ainda rodando")) == "segue");
  }
  CHECK(rig.recorded.events().empty());
}
