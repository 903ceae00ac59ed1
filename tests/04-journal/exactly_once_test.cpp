// De ponta a ponta, sem o loop: um turno roteirizado grava o journal como o
// loop da etapa vai gravar, um processo filho morre de verdade (SIGKILL) em
// cada fronteira, e a retomada chega ao mesmo workspace e ao mesmo histórico
// de uma execução sem queda, com o texto do append_file exatamente uma vez.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "crash_point.hpp"
#include "helpers.hpp"
#include "hz/testing/printing.hpp"
#include "hz/testing/temp_dir.hpp"
#include "journal.hpp"
#include "records.hpp"
#include "resume.hpp"

using hz::Boundary;
using hz::CrashPoint;
using hz::CrashPoints;
using hz::Message;
using hz::testing::TempDir;
using journal_test::call;
using journal_test::json;

namespace {

// ---- o turno roteirizado -------------------------------------------------------

// A resposta do modelo pelo número de mensagens do assistente já no
// histórico (como os cenários "by_assistant_messages" do mock).
struct Script {
  std::vector<Message> replies;
  const Message& next(const std::vector<Message>& history) const {
    const auto said = std::count_if(history.begin(), history.end(),
                                    [](const Message& m) { return m.role == hz::Role::assistant; });
    return replies.at(static_cast<std::size_t>(said));
  }
};

Script notes_script() {
  return {{Message::assistant(
               "", {call("c1", "append_file", {{"path", "notas.txt"}, {"content", "linha\n"}}),
                    call("c2", "edit_file",
                         {{"path", "a.txt"}, {"old_text", "x = 1"}, {"new_text", "x = 2"}}),
                    call("c3", "read_file", {{"path", "notas.txt"}})}),
           Message::assistant("pronto")}};
}

constexpr hz::Micros kStepCost = 100;

template <class T>
T must(hz::Result<T> result) {
  if (!result.ok()) throw std::runtime_error(result.error().message);
  return std::move(result).value();
}

// Um harness mínimo: o que o loop da etapa 04 faz em cada fronteira.
struct Harness {
  hz::Journal& journal;
  CrashPoints& crash;
  const hz::Workspace& workspace;
  const Script& script;
  std::vector<Message> history;
  std::vector<hz::Tool> tools;
  int model_calls = 0;

  const hz::Tool& tool(const std::string& name) const {
    const auto it = std::find_if(tools.begin(), tools.end(),
                                 [&](const hz::Tool& t) { return t.schema.name == name; });
    if (it == tools.end()) throw std::runtime_error("ferramenta desconhecida: " + name);
    return *it;
  }

  // listing: boundaries
  void record_result(const hz::ToolCall& c, const hz::ToolOutput& output) {
    must(journal.append(hz::result_record(c.id, output)));
    history.push_back(Message::tool(c.id, output.text));
    crash.reach(Boundary::after_result);
  }

  void run_effect(const hz::ToolCall& c) {
    const hz::ToolOutput output = tool(c.name).run(json::parse(c.arguments));
    crash.reach(Boundary::after_effect);
    record_result(c, output);
  }

  void run_call(const hz::ToolCall& c) {
    crash.reach(Boundary::before_intent);
    const hz::Tool& t = tool(c.name);
    hz::Intent intent{c, t.idempotency, std::nullopt, std::nullopt};
    if (c.name == "append_file") intent.append_key = hz::append_key_for(c, workspace);
    if (c.name == "edit_file") intent.edit_key = hz::edit_key_for(c, workspace);
    must(journal.append(hz::intent_record(intent)));
    crash.reach(Boundary::after_intent);
    run_effect(c);
  }

  void finish() {
    must(journal.append(hz::turn_end_record("success", model_calls, model_calls * kStepCost)));
  }

  void loop() {
    while (true) {
      const Message reply = script.next(history);
      must(journal.append(hz::reply_record(reply, journal_test::usage(10, 1), kStepCost)));
      history.push_back(reply);
      ++model_calls;
      crash.reach(Boundary::after_reply);
      if (reply.tool_calls.empty()) return finish();
      for (const hz::ToolCall& c : reply.tool_calls) run_call(c);
    }
  }

  // end-listing: boundaries

  // A retomada: o que resume_turn vai fazer.
  void resume(const hz::ResumeState& state) {
    history = state.history;
    model_calls = state.model_calls;
    switch (state.next) {
      case hz::NextStep::wait_user:
        return;
      case hz::NextStep::finish_turn:
        return finish();
      case hz::NextStep::run_tools:
        for (const hz::UnfinishedCall& u : state.unfinished) {
          if (!u.intent) {
            run_call(u.call);
            continue;
          }
          const hz::Replay replay =
              hz::decide_replay(*u.intent, tool(u.call.name).idempotency, workspace);
          if (replay.kind == hz::Replay::Kind::run) {
            run_effect(u.call);
          } else {
            record_result(u.call, replay.result);
          }
        }
        return loop();
      case hz::NextStep::call_model:
        return loop();
    }
  }
};

std::vector<hz::Tool> tools_of(const hz::Workspace& workspace) {
  std::vector<hz::Tool> tools = hz::basic_tools(workspace);
  tools.push_back(hz::append_file_tool(workspace));
  return tools;
}

json settings() { return {{"system_prompt", "Você é um agente."}, {"model", "m"}}; }

void fresh_run(const std::filesystem::path& path, const hz::Workspace& workspace,
               const Script& script, CrashPoints crash) {
  hz::Journal journal = must(hz::Journal::create(path));
  Harness h{journal,
            crash,
            workspace,
            script,
            {Message::system("Você é um agente.")},
            tools_of(workspace)};
  must(journal.append(hz::start_record(settings())));
  must(journal.append(hz::user_record("anote")));
  h.history.push_back(Message::user("anote"));
  h.loop();
}

std::vector<Message> resume_run(const std::filesystem::path& path, const hz::Workspace& workspace,
                                const Script& script, CrashPoints crash) {
  hz::Journal::Resumed resumed = must(hz::Journal::resume(path));
  const hz::ResumeState state = must(hz::rebuild_state(resumed.records));
  Harness h{resumed.journal, crash, workspace, script, {}, tools_of(workspace)};
  h.resume(state);
  return h.history;
}

// Roda fresh_run num filho que morre no ponto pedido; falha se ele não morrer.
void crash_child(const std::function<void()>& run) {
  const pid_t child = journal_test::fork_child(run);
  REQUIRE(child > 0);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  if (WIFEXITED(status) && WEXITSTATUS(status) == hz::testing::kChildThrew) {
    FAIL("o filho lançou antes do ponto de queda (a mensagem está no stderr, acima)");
  }
  REQUIRE_MESSAGE(WIFSIGNALED(status), "o filho não morreu no ponto de queda");
  CHECK(WTERMSIG(status) == SIGKILL);
}

struct World {
  TempDir dir;
  std::filesystem::path journal = dir / "conversa.jsonl";
  std::filesystem::path root = dir / "ws";
  World() { dir.write("ws/a.txt", "int x = 1;\n"); }
  hz::Workspace workspace() const { return hz::Workspace(root); }
  std::string file(const std::string& name) const { return dir.read("ws/" + name); }
};

struct Reference {
  std::vector<Message> history;
  std::string notes;
  std::string a;
};

Reference reference(const Script& script) {
  World w;
  fresh_run(w.journal, w.workspace(), script, CrashPoints());
  auto read = hz::read_journal(w.journal);
  REQUIRE_MESSAGE(read.ok(), hz::testing::refusal(read));
  auto state = hz::rebuild_state(read->records);
  REQUIRE_MESSAGE(state.ok(), hz::testing::refusal(state));
  return {state->history, w.file("notas.txt"), w.file("a.txt")};
}

}  // namespace

TEST_CASE("morto em cada fronteira, a retomada chega ao mesmo fim, com o append uma vez só") {
  const Script script = notes_script();
  const Reference ref = reference(script);
  REQUIRE(ref.notes == "linha\n");
  REQUIRE(ref.a == "int x = 2;\n");
  REQUIRE(ref.history.size() == 7);  // sistema, usuário, pedido, três resultados, resposta
  const std::vector<CrashPoint> points{
      {Boundary::after_reply, 1},  {Boundary::before_intent, 1}, {Boundary::after_intent, 1},
      {Boundary::after_effect, 1}, {Boundary::after_result, 1},  {Boundary::before_intent, 2},
      {Boundary::after_intent, 2}, {Boundary::after_effect, 2},  {Boundary::after_result, 2},
      {Boundary::after_effect, 3}, {Boundary::after_result, 3},  {Boundary::after_reply, 2},
  };
  for (const CrashPoint& point : points) {
    CAPTURE(hz::to_string(point.boundary));
    CAPTURE(point.occurrence);
    World w;
    crash_child([&] { fresh_run(w.journal, w.workspace(), script, CrashPoints(point)); });
    const std::vector<Message> history =
        resume_run(w.journal, w.workspace(), script, CrashPoints());
    CHECK(history == ref.history);
    CHECK(w.file("notas.txt") == "linha\n");
    CHECK(w.file("a.txt") == "int x = 2;\n");
    // O journal da retomada, lido de novo, conta a mesma conversa.
    auto read = hz::read_journal(w.journal);
    REQUIRE_MESSAGE(read.ok(), hz::testing::refusal(read));
    CHECK(read->warning.empty());
    auto state = hz::rebuild_state(read->records);
    REQUIRE_MESSAGE(state.ok(), hz::testing::refusal(state));
    CHECK(state->history == ref.history);
    CHECK(state->next == hz::NextStep::wait_user);
    CHECK(state->spent == 2 * kStepCost);
  }
}

TEST_CASE("retomar duas vezes seguidas (a retomada também morre) ainda acrescenta uma vez só") {
  const Script script = notes_script();
  const Reference ref = reference(script);
  World w;
  crash_child([&] {
    fresh_run(w.journal, w.workspace(), script, CrashPoints(CrashPoint{Boundary::after_effect, 1}));
  });
  // A primeira retomada sintetiza o resultado do append e morre depois do efeito do edit.
  crash_child([&] {
    resume_run(w.journal, w.workspace(), script,
               CrashPoints(CrashPoint{Boundary::after_effect, 1}));
  });
  const std::vector<Message> history = resume_run(w.journal, w.workspace(), script, CrashPoints());
  CHECK(history == ref.history);
  CHECK(w.file("notas.txt") == "linha\n");
  CHECK(w.file("a.txt") == "int x = 2;\n");
}

TEST_CASE(
    "run_shell com intenção e sem resultado não roda de novo: o modelo ouve que não se sabe") {
  const Script script{
      {Message::assistant("", {call("c1", "run_shell", {{"command", "echo oi >> log.txt"}})}),
       Message::assistant("vou conferir")}};
  World w;
  crash_child([&] {
    fresh_run(w.journal, w.workspace(), script, CrashPoints(CrashPoint{Boundary::after_effect, 1}));
  });
  const std::vector<Message> history = resume_run(w.journal, w.workspace(), script, CrashPoints());
  REQUIRE(history.size() == 5);
  CHECK(history[3] == Message::tool("c1", std::string(hz::kUnknownResultText)));
  CHECK(w.file("log.txt") == "oi\n");  // o comando rodou uma vez, antes da queda
}
