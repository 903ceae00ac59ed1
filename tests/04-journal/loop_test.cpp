// Exercício loop: run_turn e resume_turn com o journal (LoopConfig::journal):
// o que cada passo grava, o registro que o journal recusa, e a retomada de cada
// prefixo do journal de um turno (o que um kill -9 entre dois registros deixa)
// chegando ao mesmo fim do turno sem queda. No fim, fora do exercício,
// entry_point (entry.cpp), que diz onde a retomada entra.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../02-brakes/helpers.hpp"
#include "agent_loop.hpp"
#include "context.hpp"
#include "entry.hpp"
#include "helpers.hpp"
#include "hz/chat_client.hpp"
#include "hz/testing/printing.hpp"
#include "hz/testing/process.hpp"
#include "hz/testing/scripted_model.hpp"
#include "hz/testing/temp_dir.hpp"
#include "journal.hpp"
#include "records.hpp"
#include "resume.hpp"

using hz::Message;
using hz::Outcome;
using hz::test01::fake_tool;
using hz::test01::without_times;
using hz::testing::contains;
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

// Duas chamadas e a resposta, com um <think> que nem o histórico nem o journal guardam.
constexpr std::string_view kTwoSteps = R"({"name": "dois", "select": "by_assistant_messages",
  "steps": [{"tool_calls": [{"name": "run_tests"}, {"name": "run_tests"}],
             "usage": {"prompt_tokens": 100, "completion_tokens": 10}},
            {"content": "<think>os dois passaram</think>terminei",
             "usage": {"prompt_tokens": 200, "completion_tokens": 5}}]})";

// Duas chamadas por passo: o mesmo teste e uma página nova. O teste trava na
// 3ª (o aviso vai no resultado dele, o 1º do passo, e não no da página) e
// para na 4ª.
constexpr std::string_view kParallel = R"({"name": "paralelas", "select": "by_assistant_messages",
  "steps": [
    {"tool_calls": [{"name": "run_tests"}, {"name": "read_page", "arguments": {"offset": "0"}}]},
    {"tool_calls": [{"name": "run_tests"}, {"name": "read_page", "arguments": {"offset": "9"}}]},
    {"tool_calls": [{"name": "run_tests"}, {"name": "read_page", "arguments": {"offset": "18"}}]},
    {"tool_calls": [{"name": "run_tests"}, {"name": "read_page", "arguments": {"offset": "27"}}]}]})";

// Sete páginas diferentes, todas com o id "c" (há provedores que repetem o
// id de passo em passo), a 110 µUS$ por passo. Com o teto de kNotedCeiling,
// o 5º passo chega a 81% e ganha a nota de orçamento, o 6º roda inteiro sem
// outra, e a 7ª resposta passa do teto antes da ferramenta: budget.
constexpr std::string_view kNoted = R"({"name": "nota", "select": "by_assistant_messages",
  "steps": [
    {"tool_calls": [{"id": "c", "name": "read_page", "arguments": {"offset": "0"}}], "usage": {"prompt_tokens": 100, "completion_tokens": 10}},
    {"tool_calls": [{"id": "c", "name": "read_page", "arguments": {"offset": "1"}}], "usage": {"prompt_tokens": 100, "completion_tokens": 10}},
    {"tool_calls": [{"id": "c", "name": "read_page", "arguments": {"offset": "2"}}], "usage": {"prompt_tokens": 100, "completion_tokens": 10}},
    {"tool_calls": [{"id": "c", "name": "read_page", "arguments": {"offset": "3"}}], "usage": {"prompt_tokens": 100, "completion_tokens": 10}},
    {"tool_calls": [{"id": "c", "name": "read_page", "arguments": {"offset": "4"}}], "usage": {"prompt_tokens": 100, "completion_tokens": 10}},
    {"tool_calls": [{"id": "c", "name": "read_page", "arguments": {"offset": "5"}}], "usage": {"prompt_tokens": 100, "completion_tokens": 10}},
    {"tool_calls": [{"id": "c", "name": "read_page", "arguments": {"offset": "6"}}], "usage": {"prompt_tokens": 100, "completion_tokens": 10}}]})";
constexpr hz::Micros kNotedCeiling = 680;

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
  std::vector<json> events;  // o trace
};

// ceiling: o teto do orçamento da conversa (0: sem teto).
Done uninterrupted(std::string_view scenario, const std::filesystem::path& path,
                   hz::Micros ceiling = 0, int max_turns = 20) {
  Rig rig(scenario);
  rig.config.max_turns = max_turns;
  hz::Budget budget = ceiling > 0 ? hz::Budget(ceiling) : hz::Budget();
  rig.config.budget = &budget;
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
  return {result, history, rig.recorded.events()};
}

// Os eventos do detector de um trace, sem as horas, e só os das voltas a
// partir de `from`.
std::vector<json> repetition_events(const std::vector<json>& events, int from = 1) {
  std::vector<json> seen;
  for (const json& event : events) {
    const std::string name = event.value("event", "");
    if ((name == "tool_repetition" || name == "repetition_warning" || name == "repetition_stop") &&
        event.value("turn", 0) >= from) {
      seen.push_back(without_times(event));
    }
  }
  return seen;
}

// Os registros note de um journal lido, na ordem.
std::vector<json> notes_of(const std::vector<hz::Record>& records) {
  std::vector<json> notes;
  for (const hz::Record& record : records) {
    if (record.type == hz::RecordType::note) notes.push_back(record.rec);
  }
  return notes;
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

// As primeiras `keep` linhas do journal: onde um kill -9 teria parado.
std::string prefix(const std::vector<std::string>& lines, std::size_t keep) {
  std::string bytes;
  for (std::size_t i = 0; i < keep; ++i) bytes += lines[i];
  return bytes;
}

// Um processo novo que retoma o journal em path: Journal::resume,
// rebuild_state e resume_turn, com o orçamento já gasto recarregado.
struct Resumed {
  hz::ResumeState state;
  hz::TurnResult result;
  std::vector<Message> history;
  std::vector<json> events;  // o trace do processo novo
  hz::Micros spent = 0;      // o que o orçamento registra no fim
};

Resumed resume_from(const std::filesystem::path& path, std::string_view scenario,
                    hz::Micros ceiling = 0) {
  auto resumed = hz::Journal::resume(path);
  REQUIRE_MESSAGE(resumed.ok(), hz::testing::refusal(resumed));
  auto state = hz::rebuild_state(resumed->records);
  REQUIRE_MESSAGE(state.ok(), hz::testing::refusal(state));
  Rig rig(scenario);
  hz::Budget budget = ceiling > 0 ? hz::Budget(ceiling) : hz::Budget();
  budget.charge(state->spent);
  rig.config.budget = &budget;
  rig.config.journal = &resumed->journal;
  Resumed out;
  out.state = *state;
  out.result =
      hz::resume_turn(out.history, *state, rig.config, rig.client, rig.box, rig.recorded.trace());
  out.events = rig.recorded.events();
  out.spent = budget.spent();
  return out;
}

constexpr std::string_view kRefusal = "journal j.jsonl: o disco recusou o registro (teste)";

// Na frente do journal de verdade: recusa o registro número `refuse` que o
// loop manda (contando a partir de 1) e conta todos os que ele tentou.
class RefusingSink final : public hz::RecordSink {
 public:
  RefusingSink(hz::Journal& journal, int refuse) : journal_(journal), refuse_(refuse) {}

  hz::Result<std::int64_t> append(json rec) override {
    if (++attempts == refuse_) return hz::Error{std::string(kRefusal)};
    return journal_.append(std::move(rec));
  }

  int attempts = 0;

 private:
  hz::Journal& journal_;
  int refuse_;
};

// Um turno cujo registro número `refuse` o journal recusa.
struct Refused {
  hz::TurnResult result;
  std::vector<Message> history;
  int attempts = 0;          // registros que o loop tentou gravar
  std::size_t records = 0;   // registros no arquivo (start e user incluídos)
  std::vector<json> events;  // o trace
};

Refused refused_at(std::string_view scenario, int refuse) {
  hz::testing::TempDir dir;
  Rig rig(scenario);
  auto journal = hz::Journal::create(dir / "j.jsonl");
  REQUIRE_MESSAGE(journal.ok(), hz::testing::refusal(journal));
  REQUIRE(journal->append(hz::start_record(loop_settings())).ok());
  REQUIRE(journal->append(hz::user_record("corrija o teste")).ok());
  RefusingSink sink(*journal, refuse);
  rig.config.journal = &sink;
  Refused out;
  out.history = hz::start_conversation("regras");
  hz::add_user_message(out.history, "corrija o teste");
  out.result = hz::run_turn(out.history, rig.config, rig.client, rig.box, rig.recorded.trace());
  out.attempts = sink.attempts;
  out.records = lines_of(read_file(dir / "j.jsonl")).size();
  out.events = rig.recorded.events();
  return out;
}

int count_events(const std::vector<json>& events, std::string_view name) {
  int count = 0;
  for (const json& event : events) count += event.value("event", "") == name;
  return count;
}

// Toda tool call de uma resposta tem a sua mensagem tool logo depois, na
// ordem: o próximo pedido da conversa seria aceito.
std::string unanswered_calls(const std::vector<Message>& history) {
  for (std::size_t i = 0; i < history.size(); ++i) {
    const std::vector<hz::ToolCall>& calls = history[i].tool_calls;
    for (std::size_t j = 0; j < calls.size(); ++j) {
      const std::size_t at = i + 1 + j;
      if (at >= history.size() || history[at].role != hz::Role::tool ||
          history[at].tool_call_id != calls[j].id) {
        return "a chamada " + calls[j].id + " (mensagem " + std::to_string(i) +
               ") não tem a sua mensagem tool";
      }
    }
  }
  return "todas respondidas";
}

}  // namespace

TEST_SUITE_BEGIN("04-journal/loop");

TEST_CASE(
    "com journal, cada passo vira registros sincronizados, na ordem, e contam o mesmo histórico") {
  hz::testing::TempDir dir;
  const Done done = uninterrupted(kTwoSteps, dir / "j.jsonl");
  CHECK(done.result.outcome == Outcome::success);
  // max_turns é o número de chamadas permitidas: com 2, as duas do cenário cabem.
  const Done two = uninterrupted(kTwoSteps, dir / "dois.jsonl", 0, 2);
  CHECK(two.result.outcome == Outcome::success);
  CHECK(two.result.model_calls == 2);
  // E nenhuma a mais: a quarta-feira, que o detector pararia na 4ª, para na 2ª.
  const Done capped = uninterrupted(kWednesday, dir / "teto.jsonl", 0, 2);
  CHECK(capped.result.outcome == Outcome::max_turns);
  CHECK(capped.result.model_calls == 2);
  auto read = hz::read_journal(dir / "j.jsonl");
  REQUIRE_MESSAGE(read.ok(), hz::testing::refusal(read));
  std::vector<std::string> types;
  for (const hz::Record& record : read->records) types.push_back(record.rec["type"]);
  CHECK(types == std::vector<std::string>{"start", "user", "reply", "intent", "result", "intent",
                                          "result", "reply", "turn_end"});
  CHECK(read->records[3].rec["idempotency"] == "yes");
  CHECK(read->records[2].rec["cost_micros"] == 110);
  // A resposta final vai ao journal como ao histórico: sem o <think>.
  CHECK(read->records[7].rec["message"]["content"] == "terminei");
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
  const std::vector<json> notes = notes_of(read->records);
  REQUIRE(notes.size() == 1);
  CHECK_FALSE(notes[0].contains("budget"));  // o aviso de repetição não é o de orçamento
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
  CHECK(contains(done.history[9].content, "[aviso do harness]"));
  CHECK(done.history[10].content == "página a partir de 18");
  auto read = hz::read_journal(dir / "j.jsonl");
  REQUIRE_MESSAGE(read.ok(), hz::testing::refusal(read));
  const std::vector<json> notes = notes_of(read->records);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0]["call_id"] == test_id);
  auto state = hz::rebuild_state(read->records);
  REQUIRE_MESSAGE(state.ok(), hz::testing::refusal(state));
  CHECK(state->history == done.history);
}

TEST_CASE("a nota de orçamento vira um registro note com budget, uma vez no turno") {
  hz::testing::TempDir dir;
  const Done done = uninterrupted(kNoted, dir / "j.jsonl", kNotedCeiling);
  CHECK(done.result.outcome == Outcome::budget);
  CHECK(done.result.model_calls == 7);
  auto read = hz::read_journal(dir / "j.jsonl");
  REQUIRE_MESSAGE(read.ok(), hz::testing::refusal(read));
  const std::vector<json> notes = notes_of(read->records);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].value("budget", false));
  CHECK(notes[0]["seq"] == 2 + 5 * 3 + 1);  // depois do reply, intent e result de 5 passos
  CHECK(contains(notes[0]["text"].get<std::string>(), "restam US$ 0.00013 "));
}

namespace {

// Retoma de cada prefixo do journal do cenário, do user (o turno aberto) até
// antes do turn_end: cada ponto em que um kill -9 cabe.
void check_every_prefix(std::string_view scenario, hz::Micros ceiling = 0) {
  hz::testing::TempDir dir;
  const Done done = uninterrupted(scenario, dir / "inteiro.jsonl", ceiling);
  const std::vector<std::string> lines = lines_of(read_file(dir / "inteiro.jsonl"));
  for (std::size_t keep = 2; keep < lines.size(); ++keep) {
    CAPTURE(keep);
    const std::string name = "prefixo-" + std::to_string(keep) + ".jsonl";
    dir.write(name, prefix(lines, keep));
    const std::filesystem::path path = dir / name;
    const Resumed resumed = resume_from(path, scenario, ceiling);
    CHECK(resumed.result.outcome == done.result.outcome);
    CHECK(resumed.result.model_calls == done.result.model_calls);
    CHECK(resumed.result.cost_micros == done.result.cost_micros);
    CHECK_MESSAGE(resumed.history == done.history,
                  hz::testing::first_difference(resumed.history, done.history));
    CHECK(resumed.spent == done.result.cost_micros);
    // O mesmo journal, byte a byte; numa falha, o primeiro registro diferente.
    const std::string journal = read_file(path);
    CHECK_MESSAGE(journal == read_file(dir / "inteiro.jsonl"),
                  hz::testing::first_difference(lines_of(journal), lines));
  }
}

}  // namespace

// Um caso por cenário: o ctest roda os quatro ao mesmo tempo.
TEST_CASE("retomado de cada prefixo do journal, o turno termina igual ao sem queda: dois passos") {
  check_every_prefix(kTwoSteps);
}

TEST_CASE("retomado de cada prefixo do journal, o turno termina igual ao sem queda: quarta-feira") {
  check_every_prefix(kWednesday);
}

TEST_CASE(
    "retomado de cada prefixo do journal, o turno termina igual ao sem queda: chamadas paralelas") {
  check_every_prefix(kParallel);
}

TEST_CASE(
    "retomado de cada prefixo do journal, o turno termina igual ao sem queda: nota de orçamento") {
  check_every_prefix(kNoted, kNotedCeiling);
}

TEST_CASE("retomado de cada prefixo, o trace conta uma vez o que o detector viu nos passos novos") {
  hz::testing::TempDir dir;
  const Done done = uninterrupted(kParallel, dir / "inteiro.jsonl");
  // run_tests repetida nas voltas 2, 3 (com o aviso) e 4 (com a parada).
  REQUIRE(repetition_events(done.events).size() == 5);
  const std::vector<std::string> lines = lines_of(read_file(dir / "inteiro.jsonl"));
  for (std::size_t keep = 2; keep < lines.size(); ++keep) {
    CAPTURE(keep);
    const std::string name = "prefixo-" + std::to_string(keep) + ".jsonl";
    dir.write(name, prefix(lines, keep));
    const Resumed resumed = resume_from(dir / name, kParallel);
    // Os passos que a política já respondeu voltam à janela sem evento; os
    // que o processo novo pergunta (a partir do passo em que ele entra),
    // com os mesmos eventos do turno sem queda.
    const hz::ResumeState& state = resumed.state;
    const bool decided = state.next == hz::NextStep::call_model && state.last_step_decided;
    const int from = state.model_calls + (decided ? 1 : 0);
    CHECK(repetition_events(resumed.events) == repetition_events(done.events, from));
  }
}

TEST_CASE(
    "resume_turn emite journal_resume com o que estava pendente e a decisão de cada chamada") {
  hz::testing::TempDir dir;
  uninterrupted(kTwoSteps, dir / "inteiro.jsonl");
  const std::vector<std::string> lines = lines_of(read_file(dir / "inteiro.jsonl"));
  dir.write("p.jsonl", prefix(lines, 4));  // até a 1ª intenção
  const std::vector<json> events = resume_from(dir / "p.jsonl", kTwoSteps).events;
  REQUIRE(!events.empty());
  // O motivo de uma decisão é do exercício pending-decision (decide_replay,
  // começando pelo nome da ferramenta); o resto do evento é exato.
  json event = without_times(events.front());
  const json::json_pointer first_reason("/decisions/0/reason");
  REQUIRE_MESSAGE(event.contains(first_reason), event.dump());
  CHECK(event.at(first_reason).get<std::string>().starts_with("run_tests"));
  event.at(first_reason.parent_pointer()).erase("reason");
  CHECK(event == json{{"event", "journal_resume"},
                      {"records", 4},
                      {"turn", 1},
                      {"next", "run_tools"},
                      {"pending",
                       {{{"call_id", "call_1_1"}, {"name", "run_tests"}, {"intent", true}},
                        {{"call_id", "call_1_2"}, {"name", "run_tests"}, {"intent", false}}}},
                      {"decisions",
                       {{{"call_id", "call_1_1"}, {"name", "run_tests"}, {"decision", "run"}},
                        {{"call_id", "call_1_2"},
                         {"name", "run_tests"},
                         {"decision", "run"},
                         {"reason", "a intenção não foi gravada: a chamada não começou"}}}}});
}

TEST_CASE("um registro que o journal recusa para o turno em journal, e nada mais é gravado") {
  // kTwoSteps grava reply, intent, result, intent, result, reply e turn_end.
  struct Case {
    int refuse;
    int tools_run;
    std::size_t messages;  // no histórico, com o prompt de sistema e o pedido
    int cancelled;         // mensagens tool "cancelado: o journal parou de gravar..."
  };
  const std::vector<Case> cases{{1, 0, 2, 0}, {2, 0, 5, 2}, {3, 1, 5, 2}, {4, 1, 5, 1},
                                {5, 2, 5, 1}, {6, 2, 5, 0}, {7, 2, 6, 0}};
  for (const Case& c : cases) {
    CAPTURE(c.refuse);
    const Refused run = refused_at(kTwoSteps, c.refuse);
    CHECK(run.result.outcome == Outcome::journal);
    CHECK(run.result.error == kRefusal);
    CHECK(run.result.final_text.empty());
    CHECK(run.attempts == c.refuse);  // nenhum registro depois do recusado
    CHECK(run.records == static_cast<std::size_t>(2 + c.refuse - 1));
    CHECK(count_events(run.events, "tool_start") == c.tools_run);
    CHECK(run.history.size() == c.messages);
    CHECK(unanswered_calls(run.history) == "todas respondidas");
    int cancelled = 0;
    for (const Message& message : run.history) {
      cancelled +=
          message.content == "cancelado: o journal parou de gravar antes de esta ferramenta rodar";
    }
    CHECK(cancelled == c.cancelled);
    REQUIRE(!run.events.empty());
    CHECK(run.events.back()["outcome"] == "journal");
  }
}

TEST_CASE("a nota que o journal recusa não entra no histórico") {
  // kWednesday: três passos de reply, intent e result, e a nota do detector.
  const Refused run = refused_at(kWednesday, 10);
  CHECK(run.result.outcome == Outcome::journal);
  CHECK(run.attempts == 10);
  REQUIRE(run.history.size() == 2 + 3 * 2);
  CHECK(run.history.back().content == kFailure);
  CHECK(count_events(run.events, "note") == 0);
}

TEST_CASE("o reply leva o custo do passo inteiro, com a tentativa cobrada que falhou") {
  Rig rig(R"({"name": "quebrado", "steps": [
    {"fault": "malformed"},
    {"tool_calls": [{"name": "run_tests"}], "usage": {"prompt_tokens": 100, "completion_tokens": 10}},
    {"content": "terminei", "usage": {"prompt_tokens": 200, "completion_tokens": 5}}]})");
  hz::test02::FakeClock clock;
  rig.config.clock = &clock;
  rig.config.random = [] { return 0.0; };
  rig.config.retry.max_retries = 1;
  hz::testing::TempDir dir;
  hz::TurnResult result;
  {
    auto journal = hz::Journal::create(dir / "j.jsonl");
    REQUIRE_MESSAGE(journal.ok(), hz::testing::refusal(journal));
    rig.config.journal = &*journal;
    std::vector<Message> history = hz::start_conversation("regras");
    hz::add_user_message(history, "corrija o teste");
    result = hz::run_turn(history, rig.config, rig.client, rig.box, rig.recorded.trace());
  }  // o journal solta a trava: read_journal trava também
  REQUIRE(result.outcome == Outcome::success);
  CHECK(result.retries == 1);
  auto read = hz::read_journal(dir / "j.jsonl");
  REQUIRE_MESSAGE(read.ok(), hz::testing::refusal(read));
  std::vector<hz::Micros> replies;
  for (const hz::Record& record : read->records) {
    if (record.type == hz::RecordType::reply) replies.push_back(record.rec["cost_micros"]);
  }
  REQUIRE(replies.size() == 2);
  CHECK(replies[0] > 110);  // a resposta (110 µUS$) mais a estimativa da falha cobrada
  CHECK(replies[1] == 205);
  CHECK(replies[0] + replies[1] == result.cost_micros);
  CHECK(read->records.back().rec["cost_micros"] == result.cost_micros);
}

TEST_SUITE_END();

// Fora do exercício: entry_point (entry.cpp), onde a retomada entra.

namespace {

// Três passos de poll{} com o mesmo id "c" e respostas que mudam: o
// journal de um turno interrompido depois de `count` registros, já
// reconstruído.
hz::ResumeState polled(std::size_t count, bool noted) {
  const hz::ToolCall poll = journal_test::call("c", "poll", json::object());
  const Message ask = Message::assistant("", {poll});
  std::vector<json> recs{hz::start_record(journal_test::settings()),
                         hz::user_record("espere o build"),
                         hz::reply_record(ask, journal_test::usage(10, 1), 11),
                         hz::result_record("c", hz::ToolOutput::success("1 de 3")),
                         hz::reply_record(ask, journal_test::usage(10, 1), 11),
                         hz::result_record("c", hz::ToolOutput::success("2 de 3"))};
  if (noted) recs.push_back(hz::note_record("restam US$ 0,01", "", /*budget=*/true));
  recs.push_back(hz::reply_record(ask, journal_test::usage(10, 1), 11));
  recs.resize(count);
  auto state = hz::rebuild_state(journal_test::records(recs));
  REQUIRE_MESSAGE(state.ok(), hz::testing::refusal(state));
  return std::move(state).value();
}

std::vector<std::uint64_t> seen_results(const hz::TurnState& turn) {
  std::vector<std::uint64_t> hashes;
  if (turn.memory.detector) {
    for (const hz::Observation& seen : turn.memory.detector->history()) {
      hashes.push_back(seen.result_hash);
    }
  }
  return hashes;
}

}  // namespace

TEST_CASE("entry_point: a fase, a chamada e a memória dos freios saem do journal, sem a política") {
  const hz::ToolBox box({});
  const std::optional<hz::RepetitionConfig> detector = hz::RepetitionConfig{};
  const std::uint64_t first = hz::fnv1a_64("1 de 3");
  const std::uint64_t second = hz::fnv1a_64("2 de 3");
  {
    // Morto antes do resultado do 3º poll: as ferramentas dele, com os dois de antes na memória.
    hz::TurnState turn;
    const hz::Entry entry = hz::entry_point(polled(7, false), box, nullptr, detector, turn);
    CHECK(hz::to_string(entry.phase) == "run_tools");
    CHECK(entry.call == 3);
    CHECK(turn.model_calls == 3);
    CHECK(turn.cost_micros == 33);
    CHECK(seen_results(turn) == std::vector<std::uint64_t>{first, second});  // a ordem, não o id
    CHECK(turn.last_calls.size() == 1);
    CHECK(turn.last_results.empty());
    CHECK_FALSE(turn.memory.budget_noted);
  }
  {
    // Morto depois do 2º resultado: a política pode não ter respondido ao 2º passo.
    hz::TurnState turn;
    const hz::Entry entry = hz::entry_point(polled(6, false), box, nullptr, detector, turn);
    CHECK(hz::to_string(entry.phase) == "decide");
    CHECK(entry.call == 2);
    CHECK(seen_results(turn) == std::vector<std::uint64_t>{first});
    CHECK(turn.last_results == std::vector<Message>{Message::tool("c", "2 de 3")});
  }
  {
    // A nota prova que ela respondeu: a próxima chamada, com os dois passos na memória.
    hz::TurnState turn;
    const hz::Entry entry = hz::entry_point(polled(7, true), box, nullptr, detector, turn);
    CHECK(hz::to_string(entry.phase) == "call_model");
    CHECK(entry.call == 3);
    CHECK(seen_results(turn) == std::vector<std::uint64_t>{first, second});
    CHECK(turn.memory.budget_noted);
  }
  {
    // Sem detector, a memória não tem janela.
    hz::TurnState turn;
    hz::entry_point(polled(7, true), box, nullptr, std::nullopt, turn);
    CHECK_FALSE(turn.memory.detector.has_value());
  }
}
