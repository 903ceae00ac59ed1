// run_turn e resume_turn com o journal (LoopConfig::journal): o que cada
// passo grava, e a retomada de cada prefixo do journal de um turno (o que um
// kill -9 entre dois registros deixa) chegando ao mesmo fim do turno sem queda.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "../01-loop/helpers.hpp"
#include "agent_loop.hpp"
#include "context.hpp"
#include "hz/chat_client.hpp"
#include "hz/testing/printing.hpp"
#include "hz/testing/scripted_model.hpp"
#include "hz/testing/temp_dir.hpp"
#include "journal.hpp"
#include "resume.hpp"

using hz::Message;
using hz::Outcome;
using hz::test01::fake_tool;
using nlohmann::json;

namespace {

const std::string kFailure = "test_login ... FALHOU\n  conexão recusada";

// run_tests{}: o teste que falha sempre do mesmo jeito; só lê, então roda de novo.
hz::Tool failing_test() {
  hz::Tool tool =
      fake_tool("run_tests", {}, [](const json&) { return hz::ToolOutput::failure(kFailure); });
  tool.idempotency = hz::Idempotency::yes;
  return tool;
}

// A quarta-feira pela conversa: a mesma chamada para sempre, então o
// detector avisa na 3ª e para na 4ª, com ou sem queda no meio.
constexpr std::string_view kWednesday = R"({"name": "quarta", "select": "by_assistant_messages",
  "steps": [{"content": "Vou rodar o teste de novo.", "tool_calls": [{"name": "run_tests"}],
             "usage": {"prompt_tokens": 100, "completion_tokens": 10}, "repeat": "forever"}]})";

// Duas chamadas e a resposta.
constexpr std::string_view kTwoSteps = R"({"name": "dois", "select": "by_assistant_messages",
  "steps": [{"tool_calls": [{"name": "run_tests"}, {"name": "run_tests"}],
             "usage": {"prompt_tokens": 100, "completion_tokens": 10}},
            {"content": "terminei", "usage": {"prompt_tokens": 200, "completion_tokens": 5}}]})";

// Duas chamadas por passo: o mesmo teste e uma página nova. O teste trava na
// 3ª (o aviso vai no resultado dele, o 1º do passo, e não no da página) e
// para na 4ª.
constexpr std::string_view kParallel = R"({"name": "paralelas", "select": "by_assistant_messages",
  "steps": [
    {"tool_calls": [{"name": "run_tests"}, {"name": "read_page", "arguments": {"offset": "0"}}]},
    {"tool_calls": [{"name": "run_tests"}, {"name": "read_page", "arguments": {"offset": "9"}}]},
    {"tool_calls": [{"name": "run_tests"}, {"name": "read_page", "arguments": {"offset": "18"}}]},
    {"tool_calls": [{"name": "run_tests"}, {"name": "read_page", "arguments": {"offset": "27"}}]}]})";

// read_page{offset}: uma página diferente para cada offset; só lê.
hz::Tool pages() {
  hz::Tool tool = fake_tool("read_page", {"offset"}, [](const json& args) {
    return hz::ToolOutput::success("página a partir de " + args.at("offset").get<std::string>());
  });
  tool.idempotency = hz::Idempotency::yes;
  return tool;
}

json loop_settings() { return {{"model", "modelo-teste"}, {"system_prompt", "regras"}}; }

struct Rig {
  explicit Rig(std::string_view scenario)
      : model(scenario),
        client(model.endpoint()),
        box({failing_test(), pages()}),
        config{"modelo-teste", 20} {
    config.repetition = hz::RepetitionConfig{};
    config.prices = hz::Prices{1'000'000, 1'000'000, true};  // 1 µUS$ por token
  }

  hz::testing::ScriptedModel model;
  hz::OpenAiClient client;
  hz::ToolBox box;
  hz::test01::RecordedTrace recorded;
  hz::LoopConfig config;
};

// Um turno inteiro, sem queda, gravado em path.
struct Done {
  hz::TurnResult result;
  std::vector<Message> history;
};

Done uninterrupted(std::string_view scenario, const std::filesystem::path& path) {
  Rig rig(scenario);
  auto journal = hz::Journal::create(path);
  REQUIRE_MESSAGE(journal.ok(), hz::testing::refusal(journal));
  rig.config.journal = &*journal;
  REQUIRE(journal->append(hz::start_record(loop_settings())).ok());
  REQUIRE(journal->append(hz::user_record("corrija o teste")).ok());
  std::vector<Message> history = hz::start_conversation("regras");
  hz::add_user_message(history, "corrija o teste");
  hz::TurnResult result =
      hz::run_turn(history, rig.config, rig.client, rig.box, rig.recorded.trace());
  CHECK(journal->syncs() == static_cast<std::uint64_t>(journal->last_seq()));
  return {result, history};
}

std::vector<std::string> lines_of(const std::string& bytes) {
  std::vector<std::string> lines;
  std::size_t from = 0;
  for (std::size_t nl = bytes.find('\n'); nl != std::string::npos; nl = bytes.find('\n', from)) {
    lines.push_back(bytes.substr(from, nl - from + 1));
    from = nl + 1;
  }
  return lines;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE(
    "com journal, cada passo vira registros sincronizados, na ordem, e contam o mesmo histórico") {
  hz::testing::TempDir dir;
  const Done done = uninterrupted(kTwoSteps, dir / "j.jsonl");
  CHECK(done.result.outcome == Outcome::success);
  auto read = hz::read_journal(dir / "j.jsonl");
  REQUIRE_MESSAGE(read.ok(), hz::testing::refusal(read));
  std::vector<std::string> types;
  for (const hz::Record& record : read->records) types.push_back(record.rec["type"]);
  CHECK(types == std::vector<std::string>{"start", "user", "reply", "intent", "result", "intent",
                                          "result", "reply", "turn_end"});
  CHECK(read->records[3].rec["idempotency"] == "yes");
  CHECK(read->records[2].rec["cost_micros"] == 110);
  CHECK(read->records[8].rec == json{{"seq", 9},
                                     {"type", "turn_end"},
                                     {"outcome", "success"},
                                     {"model_calls", 2},
                                     {"cost_micros", 315}});
  auto state = hz::rebuild_state(read->records);
  REQUIRE_MESSAGE(state.ok(), hz::testing::refusal(state));
  CHECK(state->history == done.history);
  CHECK(state->spent == 315);
}

TEST_CASE("a nota do detector vira um registro note, e o histórico reconstruído a tem") {
  hz::testing::TempDir dir;
  const Done done = uninterrupted(kWednesday, dir / "j.jsonl");
  CHECK(done.result.outcome == Outcome::repetition);
  CHECK(done.result.model_calls == 4);
  auto read = hz::read_journal(dir / "j.jsonl");
  REQUIRE_MESSAGE(read.ok(), hz::testing::refusal(read));
  int notes = 0;
  for (const hz::Record& record : read->records) notes += record.type == hz::RecordType::note;
  CHECK(notes == 1);
  CHECK(read->records.back().rec["outcome"] == "repetition");
  auto state = hz::rebuild_state(read->records);
  REQUIRE_MESSAGE(state.ok(), hz::testing::refusal(state));
  CHECK(state->history == done.history);
}

TEST_CASE("o aviso no resultado que não é o último do passo: o registro note cita a chamada") {
  hz::testing::TempDir dir;
  const Done done = uninterrupted(kParallel, dir / "j.jsonl");
  CHECK(done.result.outcome == Outcome::repetition);
  CHECK(done.result.model_calls == 4);
  // regras, usuário, e por passo: assistente, teste, página. O 3º passo começa em 8.
  REQUIRE(done.history.size() == 14);
  REQUIRE(done.history[8].role == hz::Role::assistant);
  const std::string test_id = done.history[8].tool_calls.at(0).id;
  CHECK(done.history[9].tool_call_id == test_id);
  CHECK(done.history[9].content.find("[aviso do harness]") != std::string::npos);
  CHECK(done.history[10].content == "página a partir de 18");
  auto read = hz::read_journal(dir / "j.jsonl");
  REQUIRE_MESSAGE(read.ok(), hz::testing::refusal(read));
  std::vector<json> notes;
  for (const hz::Record& record : read->records) {
    if (record.type == hz::RecordType::note) notes.push_back(record.rec);
  }
  REQUIRE(notes.size() == 1);
  CHECK(notes[0]["call_id"] == test_id);
  auto state = hz::rebuild_state(read->records);
  REQUIRE_MESSAGE(state.ok(), hz::testing::refusal(state));
  CHECK(state->history == done.history);
}

TEST_CASE("retomado de cada prefixo do journal, o turno termina igual ao sem queda") {
  for (const std::string_view scenario : {kTwoSteps, kWednesday, kParallel}) {
    hz::testing::TempDir dir;
    const Done done = uninterrupted(scenario, dir / "inteiro.jsonl");
    const std::vector<std::string> lines = lines_of(read_file(dir / "inteiro.jsonl"));
    // Do user (o turno aberto) até antes do turn_end: cada ponto em que um kill -9 cabe.
    for (std::size_t keep = 2; keep < lines.size(); ++keep) {
      CAPTURE(keep);
      const std::filesystem::path path = dir / ("prefixo-" + std::to_string(keep) + ".jsonl");
      std::string bytes;
      for (std::size_t i = 0; i < keep; ++i) bytes += lines[i];
      dir.write(path.filename().string(), bytes);
      auto resumed = hz::Journal::resume(path);
      REQUIRE_MESSAGE(resumed.ok(), hz::testing::refusal(resumed));
      auto state = hz::rebuild_state(resumed->records);
      REQUIRE_MESSAGE(state.ok(), hz::testing::refusal(state));
      Rig rig(scenario);
      hz::Budget budget;
      budget.charge(state->spent);
      rig.config.budget = &budget;
      rig.config.journal = &resumed->journal;
      std::vector<Message> history;
      const hz::TurnResult result =
          hz::resume_turn(history, *state, rig.config, rig.client, rig.box, rig.recorded.trace());
      CHECK(result.outcome == done.result.outcome);
      CHECK(result.model_calls == done.result.model_calls);
      CHECK(result.cost_micros == done.result.cost_micros);
      CHECK(history == done.history);
      CHECK(budget.spent() == done.result.cost_micros);
      CHECK(read_file(path) == read_file(dir / "inteiro.jsonl"));  // o mesmo journal, byte a byte
    }
  }
}

TEST_CASE(
    "resume_turn emite journal_resume com o que estava pendente e a decisão de cada chamada") {
  hz::testing::TempDir dir;
  uninterrupted(kTwoSteps, dir / "inteiro.jsonl");
  const std::vector<std::string> lines = lines_of(read_file(dir / "inteiro.jsonl"));
  dir.write("p.jsonl", lines[0] + lines[1] + lines[2] + lines[3]);  // até a 1ª intenção
  auto resumed = hz::Journal::resume(dir / "p.jsonl");
  REQUIRE_MESSAGE(resumed.ok(), hz::testing::refusal(resumed));
  auto state = hz::rebuild_state(resumed->records);
  REQUIRE_MESSAGE(state.ok(), hz::testing::refusal(state));
  Rig rig(kTwoSteps);
  rig.config.journal = &resumed->journal;
  std::vector<Message> history;
  hz::resume_turn(history, *state, rig.config, rig.client, rig.box, rig.recorded.trace());
  const std::vector<json> events = rig.recorded.events();
  REQUIRE(!events.empty());
  CHECK(events.front() ==
        json{{"event", "journal_resume"},
             {"records", 4},
             {"turn", 1},
             {"next", "run_tools"},
             {"pending",
              {{{"call_id", "call_1_1"}, {"name", "run_tests"}, {"intent", true}},
               {{"call_id", "call_1_2"}, {"name", "run_tests"}, {"intent", false}}}},
             {"decisions",
              {{{"call_id", "call_1_1"},
                {"name", "run_tests"},
                {"decision", "run"},
                {"reason", "run_tests é idempotente: roda de novo"}},
               {{"call_id", "call_1_2"},
                {"name", "run_tests"},
                {"decision", "run"},
                {"reason", "a intenção não foi gravada: a chamada não começou"}}}}});
}
