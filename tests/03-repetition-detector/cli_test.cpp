// Ponta a ponta: o executável hz-03-repetition-detector de verdade, contra a
// quarta-feira do mock (a mesma chamada para sempre e o ciclo de
// wednesday-cycle) ou contra um ScriptedModel do teste via --base-url, que
// deixa ler os pedidos que o harness mandou.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "hz/testing/process.hpp"
#include "hz/testing/scripted_model.hpp"
#include "hz/testing/stubs.hpp"
#include "hz/testing/temp_dir.hpp"

using hz::testing::contains;
using hz::testing::ProcessResult;
using hz::testing::ScriptedModel;
using hz::testing::TempDir;
using nlohmann::json;

namespace {

const std::vector<std::string> kCleanEnv{"OPENAI_BASE_URL=", "OPENAI_API_KEY=", "NO_COLOR=1"};

// Roda hz-03-repetition-detector sem herdar um endpoint do ambiente.
ProcessResult run_stage(std::vector<std::string> args, const std::string& stdin_text = "") {
  args.insert(args.begin(), hz::testing::bin_path("hz-03-repetition-detector").string());
  return hz::testing::run_program(args, stdin_text, kCleanEnv);
}

// A última linha não vazia de um texto.
std::string last_line(const std::string& text) {
  const std::size_t end = text.find_last_not_of('\n');
  if (end == std::string::npos) return "";
  const std::size_t start = text.rfind('\n', end);
  const std::size_t from = start == std::string::npos ? 0 : start + 1;
  return text.substr(from, end - from + 1);
}

// As chamadas ao modelo que o trace humano mostra.
int model_calls(const std::string& err) {
  return static_cast<int>(hz::testing::occurrences(err, "→ modelo: chamada "));
}

const std::string kWarning =
    "  ⚠ repetição: run_shell 3 vezes com o mesmo resultado; aviso ao modelo (se repetir, o "
    "turno para)\n";
const std::string kStop =
    "  ⚠ repetição depois do aviso: run_shell 4 vezes com o mesmo resultado; o turno para\n";

}  // namespace

TEST_CASE("a quarta-feira para em repetition, código 7, na 4ª chamada ao modelo") {
  const auto result = run_stage({"--scenario", "wednesday"});
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 7);
  CHECK(result.out.empty());
  CHECK(model_calls(result.err) == 4);
  CHECK(contains(result.err,
                 "limites: 20 chamadas por turno · sem orçamento · preço desconhecido · 2 novas "
                 "tentativas · streaming · detector de repetição: janela 5, limiar 3\n"));
  CHECK(contains(result.err, "  ↻ run_shell: repetição 2/3 (mesma chamada, mesmo resultado)\n"));
  CHECK(contains(result.err, "  ↻ run_shell: repetição 3/3 (mesma chamada, mesmo resultado)\n" +
                                 kWarning + "  ⚑ nota ao modelo: [aviso do harness] "));
  CHECK(contains(result.err, "  ↻ run_shell: repetição 4/3 (mesma chamada, mesmo resultado)\n" +
                                 kStop + "■ desfecho: repetition · 4 chamadas ao modelo"));
  CHECK(hz::testing::occurrences(result.err, "⚠ repetição") == 2);
  CHECK(contains(last_line(result.err), "■ desfecho: repetition · 4 chamadas ao modelo · "));
}

TEST_CASE(
    "o aviso da quarta-feira vai anexado ao resultado repetido, no pedido que o harness "
    "mandou") {
  // O mesmo roteiro servido pelo teste: os pedidos ficam gravados aqui.
  ScriptedModel model = ScriptedModel::from_scenario("wednesday");
  const TempDir dir;
  for (const char* file : {"config.ini", "test_login.sh"}) {
    std::filesystem::copy_file(
        hz::testing::source_path("mock-server/scenarios/workspaces/wednesday") / file,
        dir.path() / file);
  }
  const auto result =
      run_stage({"--base-url", model.base_url(), "--model", "hz-mock", "--workspace",
                 dir.path().string(), "--yes", "--prompt", "o teste test_login falhou, corrija"});
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 7);
  const std::vector<json> bodies = model.request_bodies();
  REQUIRE(bodies.size() == 4);
  const json& messages = bodies[3]["messages"];
  REQUIRE(messages.size() == 8);
  CHECK(messages[5]["role"] == "tool");
  const std::string repeated = messages[7]["content"].get<std::string>();
  CHECK(messages[7]["role"] == "tool");
  CHECK(messages[7]["tool_call_id"] == "call_3_1");
  CHECK(messages[5]["content"] == messages[3]["content"]);
  const std::string warning = hz::testing::repeat_nudge("run_shell", 3);
  CHECK(repeated == messages[5]["content"].get<std::string>() + "\n\n" + warning);
  CHECK(contains(messages[5]["content"].get<std::string>(), "test_login ... FALHOU"));
}

TEST_CASE("o ciclo da quarta-feira (wednesday-cycle) para em repetition na 7ª chamada") {
  const auto result = run_stage({"--scenario", "wednesday-cycle"});
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 7);
  CHECK(model_calls(result.err) == 7);
  CHECK(contains(result.err,
                 "  ↻ write_file: ciclo (a mesma sequência, com os mesmos resultados)\n"
                 "  ⚠ repetição: o ciclo run_shell → read_file → write_file duas vezes com os "
                 "mesmos resultados; aviso ao modelo (se repetir, o turno para)\n"));
  CHECK(contains(result.err,
                 "  ⚠ repetição depois do aviso: o ciclo read_file → write_file → run_shell "
                 "duas vezes com os mesmos resultados; o turno para\n"));
  CHECK(contains(last_line(result.err), "■ desfecho: repetition · 7 chamadas ao modelo · "));
}

TEST_CASE("janela e limiar pelas flags: com 2 e 2, a quarta-feira avisa na 2ª e para na 3ª") {
  const auto result = run_stage(
      {"--scenario", "wednesday", "--repetition-window", "2", "--repetition-threshold", "2"});
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 7);
  CHECK(model_calls(result.err) == 3);
  CHECK(contains(result.err, "detector de repetição: janela 2, limiar 2\n"));
  CHECK(contains(result.err, "  ⚠ repetição: run_shell 2 vezes com o mesmo resultado"));
}

TEST_CASE("--repetition-exempt tira a ferramenta da conta: a quarta-feira volta a max_turns") {
  const auto result = run_stage(
      {"--scenario", "wednesday", "--repetition-exempt", "wait, run_shell", "--max-turns", "6"});
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 3);
  CHECK(model_calls(result.err) == 6);
  CHECK(contains(result.err,
                 "detector de repetição: janela 5, limiar 3, isentas: wait, "
                 "run_shell\n"));
  CHECK_FALSE(contains(result.err, "↻ run_shell"));
  CHECK(contains(last_line(result.err), "■ desfecho: max_turns · 6 chamadas ao modelo"));
}

TEST_CASE("no chat, uma mensagem nova do usuário começa o detector do zero") {
  // Turno 1: o teste duas vezes e uma resposta. Turno 2: o teste mais uma
  // vez. Sem o zero, essa seria a 3ª vez na janela, com aviso.
  const TempDir dir;
  dir.write("test.sh", "echo FALHOU; exit 1\n");
  ScriptedModel model(R"({"name": "chat", "steps": [
    {"tool_calls": [{"name": "run_shell", "arguments": {"command": "sh test.sh"}}], "repeat": 2},
    {"content": "Falhou duas vezes."},
    {"expect": {"last_contains": "segunda"},
     "tool_calls": [{"name": "run_shell", "arguments": {"command": "sh test.sh"}}]},
    {"expect": {"last_role": "tool"}, "content": "Falhou de novo."}
  ]})");
  const auto result = run_stage(
      {"--base-url", model.base_url(), "--model", "m", "--workspace", dir.path().string(), "--yes"},
      "primeira\nsegunda\n");
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out == "Falhou duas vezes.\nFalhou de novo.\n");
  CHECK(model.failures().empty());
  CHECK(hz::testing::occurrences(result.err, "↻ run_shell: repetição") == 1);
  CHECK_FALSE(contains(result.err, "⚠ repetição"));
  const std::vector<json> bodies = model.request_bodies();
  REQUIRE(bodies.size() == 5);
  CHECK_FALSE(contains(bodies[4]["messages"].back()["content"].get<std::string>(), "aviso"));
}

TEST_CASE("--trace grava os eventos do detector no JSONL") {
  const TempDir dir;
  const std::string trace = (dir.path() / "trace.jsonl").string();
  const auto result = run_stage({"--scenario", "wednesday", "--trace", trace});
  hz::testing::throw_if_stubbed(result);
  CHECK(result.exit_code == 7);
  std::vector<json> detector;
  std::ifstream in(trace);
  for (std::string line; std::getline(in, line);) {
    json event = json::parse(line);
    const std::string name = event.value("event", "");
    if (name == "tool_repetition" || name == "repetition_warning" || name == "repetition_stop") {
      // Todo evento tem a hora, que muda a cada execução: confere que veio e a tira.
      CHECK(event.value("time", "").size() == 27);
      event.erase("time");
      detector.push_back(event);
    }
  }
  const std::vector<json> expected{
      {{"event", "tool_repetition"},
       {"turn", 2},
       {"call_id", "call_2_1"},
       {"name", "run_shell"},
       {"repetition", "repeat"},
       {"repeat_count", 2},
       {"threshold", 3}},
      {{"event", "tool_repetition"},
       {"turn", 3},
       {"call_id", "call_3_1"},
       {"name", "run_shell"},
       {"repetition", "repeat"},
       {"repeat_count", 3},
       {"threshold", 3}},
      {{"event", "repetition_warning"},
       {"turn", 3},
       {"call_id", "call_3_1"},
       {"name", "run_shell"},
       {"count", 3},
       {"kind", "same"}},
      {{"event", "tool_repetition"},
       {"turn", 4},
       {"call_id", "call_4_1"},
       {"name", "run_shell"},
       {"repetition", "repeat"},
       {"repeat_count", 4},
       {"threshold", 3}},
      {{"event", "repetition_stop"},
       {"turn", 4},
       {"call_id", "call_4_1"},
       {"name", "run_shell"},
       {"count", 4},
       {"kind", "same"}},
  };
  CHECK(json(detector) == json(expected));
}

TEST_CASE("entradas ruins do detector saem com código 2 e mensagem clara") {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases{
      {{"--repetition-window", "1"},
       "a janela do detector de repetição (--repetition-window) precisa ficar entre 2 e 100; "
       "veio 1"},
      {{"--repetition-window", "101"},
       "a janela do detector de repetição (--repetition-window) precisa ficar entre 2 e 100; "
       "veio 101"},
      {{"--repetition-threshold", "1"},
       "o limiar do detector de repetição (--repetition-threshold) precisa ficar entre 2 e a "
       "janela (5); veio 1"},
      {{"--repetition-threshold", "6"},
       "o limiar do detector de repetição (--repetition-threshold) precisa ficar entre 2 e a "
       "janela (5); veio 6"},
      {{"--repetition-window", "cinco"}, "--repetition-window"},
      {{"--repetition-exempt", "wait,,sleep"},
       "--repetition-exempt: nome de ferramenta vazio em \"wait,,sleep\" (use nomes separados "
       "por vírgula, como wait,sleep)"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args[0]);
    CAPTURE(c.args[1]);
    const auto result = run_stage(c.args);
    CAPTURE(result.err);
    CHECK(result.exit_code == 2);
    CHECK(contains(result.err, c.message));
    CHECK(result.out.empty());
  }
}

TEST_CASE("--help mostra as flags do detector com os padrões e sai com 0") {
  const auto result = run_stage({"--help"});
  CHECK(result.exit_code == 0);
  CAPTURE(result.out);
  CHECK(contains(result.out, "--repetition-window N"));
  CHECK(contains(result.out, "(padrão: 5; de 2 a 100)"));
  CHECK(contains(result.out, "--repetition-threshold N"));
  CHECK(contains(result.out, "(padrão: 3; de 2 até a janela)"));
  CHECK(contains(result.out, "--repetition-exempt NOME[,NOME]"));
  CHECK(contains(result.out, "--budget-usd"));
}
