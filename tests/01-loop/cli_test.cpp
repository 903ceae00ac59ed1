// Ponta a ponta: o executável hz-01-loop de verdade, contra o mock embutido
// (cenários do curso) ou contra um ScriptedModel do teste via --base-url.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "context.hpp"
#include "helpers.hpp"
#include "hz/mock/embedded.hpp"
#include "hz/mock/scenario.hpp"
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

// Roda hz-01-loop sem herdar um endpoint do ambiente de quem roda os testes.
ProcessResult run_stage(std::vector<std::string> args, const std::string& stdin_text = "",
                        std::vector<std::string> env = {}) {
  args.insert(args.begin(), hz::testing::bin_path("hz-01-loop").string());
  env.push_back("OPENAI_BASE_URL=");
  env.push_back("OPENAI_API_KEY=");
  env.push_back("NO_COLOR=1");
  return hz::testing::run_program(args, stdin_text, env);
}

hz::mock::Scenario course_scenario(const std::string& name) {
  auto path = hz::mock::find_scenario(name);
  REQUIRE_MESSAGE(path.ok(), path.error().message);
  auto scenario = hz::mock::load_scenario(*path);
  REQUIRE_MESSAGE(scenario.ok(), scenario.error().message);
  return std::move(scenario).value();
}

// Copia a fixture de um cenário para dentro de dir.
void copy_fixture(const hz::mock::Scenario& scenario, const std::filesystem::path& dir) {
  REQUIRE(scenario.workspace.has_value());
  std::filesystem::copy(*scenario.workspace, dir, std::filesystem::copy_options::recursive);
}

// A primeira tool call do roteiro com esse nome (argumentos lidos como JSON).
json scripted_arguments(const hz::mock::Scenario& scenario, const std::string& tool) {
  for (const auto& step : scenario.steps) {
    for (const auto& call : step.tool_calls) {
      if (call.name == tool) return json::parse(call.arguments);
    }
  }
  FAIL("o roteiro não chama " << tool);
  return {};
}

std::string write_file_scenario() {
  return R"({"name": "escrita", "steps": [
    {"tool_calls": [{"id": "c1", "name": "write_file",
                     "arguments": "{\"path\": \"nota.txt\", \"content\": \"novo\\n\"}"}]},
    {"expect": {"last_role": "tool"}, "content": "entendido"}
  ]})";
}

}  // namespace

TEST_CASE("o demo de segunda-feira conserta o teste de verdade") {
  const auto scenario = course_scenario("monday");
  const TempDir dir;
  const auto workspace = dir / "ws";
  copy_fixture(scenario, workspace);
  const auto edit = scripted_arguments(scenario, "edit_file");
  const auto file = workspace / edit.at("path").get<std::string>();
  const std::string test_command = scripted_arguments(scenario, "run_shell").at("command");

  // Antes: o teste da fixture falha de verdade.
  const auto before = hz::testing::run_program(
      {"/bin/sh", "-c", "cd '" + workspace.string() + "' && " + test_command});
  CHECK(before.exit_code != 0);

  const auto result = run_stage({"--scenario", "monday", "--workspace", workspace.string(),
                                 "--trace", (dir / "trace.jsonl").string()});
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out == scenario.steps.back().content + "\n");
  CHECK(contains(result.err, "você> " + scenario.prompt));
  CHECK(contains(result.err, "workspace: " + std::filesystem::canonical(workspace).string()));
  CHECK_FALSE(contains(result.err, "o mock registrou"));

  // A edição aconteceu no disco e o teste agora passa de verdade.
  const std::string edited = dir.read("ws/" + edit.at("path").get<std::string>());
  CHECK(contains(edited, edit.at("new_text").get<std::string>()));
  CHECK_FALSE(contains(edited, edit.at("old_text").get<std::string>()));
  const auto after = hz::testing::run_program(
      {"/bin/sh", "-c", "cd '" + workspace.string() + "' && " + test_command});
  CHECK(after.exit_code == 0);

  const std::vector<json> expected{
      {{"event", "model_request"}, {"turn", 1}},
      {{"event", "model_response"}, {"turn", 1}},
      {{"event", "tool_start"}, {"name", "run_shell"}},
      {{"event", "tool_end"}, {"ok", false}},  // o teste falha de verdade
      {{"event", "model_request"}, {"turn", 2}},
      {{"event", "model_response"}, {"turn", 2}},
      {{"event", "tool_start"}, {"name", "read_file"}},
      {{"event", "tool_end"}, {"ok", true}},
      {{"event", "model_request"}, {"turn", 3}},
      {{"event", "model_response"}, {"turn", 3}},
      {{"event", "tool_start"}, {"name", "edit_file"}},
      {{"event", "tool_end"}, {"ok", true}},
      {{"event", "model_request"}, {"turn", 4}},
      {{"event", "model_response"}, {"turn", 4}},
      {{"event", "tool_start"}, {"name", "run_shell"}},
      {{"event", "tool_end"}, {"ok", true}},  // e agora passa
      {{"event", "model_request"}, {"turn", 5}},
      {{"event", "model_response"}, {"turn", 5}, {"tool_calls", 0}},
      {{"event", "turn_end"}, {"outcome", "success"}, {"turns", 5}}};
  CHECK(hz::test01::event_difference(hz::test01::read_jsonl(dir / "trace.jsonl"), expected) ==
        "iguais");
}

TEST_CASE("sem endpoint o demo roda numa cópia temporária da fixture, apagada no fim") {
  const auto scenario = course_scenario("monday");
  const TempDir tmp;
  auto copies_in = [&tmp] {
    std::vector<std::filesystem::path> copies;
    for (const auto& entry : std::filesystem::directory_iterator(tmp.path())) {
      copies.push_back(entry.path());
    }
    return copies;
  };
  const auto gone = run_stage({}, "", {"TMPDIR=" + tmp.path().string()});
  hz::testing::throw_if_stubbed(gone);
  CAPTURE(gone.err);
  CHECK(gone.exit_code == 0);
  CHECK(contains(gone.err,
                 " (cópia temporária do cenário, apagada no fim; --keep-workspace a "
                 "guarda)\n"));
  CHECK(copies_in().empty());  // nada se acumula em TMPDIR
  const auto result = run_stage({"--keep-workspace"}, "", {"TMPDIR=" + tmp.path().string()});
  CAPTURE(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out == scenario.steps.back().content + "\n");
  CHECK(contains(result.err, "cenário monday"));
  // Com --keep-workspace, a cópia ficou em TMPDIR, editada; a fixture do repositório não mudou.
  const std::vector<std::filesystem::path> copies = copies_in();
  REQUIRE(copies.size() == 1);
  CHECK(contains(result.err, "workspace: " + copies[0].string() +
                                 " (cópia temporária do cenário; fica depois do fim)\n"));
  const auto edit = scripted_arguments(scenario, "edit_file");
  const std::string path = edit.at("path").get<std::string>();
  CHECK(contains(tmp.read(copies[0].filename().string() + "/" + path),
                 edit.at("new_text").get<std::string>()));
  const TempDir pristine;
  copy_fixture(scenario, pristine / "f");
  CHECK(contains(pristine.read("f/" + path), edit.at("old_text").get<std::string>()));
}

TEST_CASE("quarta-feira com max-turns 4 termina em max_turns depois de 4 chamadas") {
  // O roteiro da quarta-feira, mas com fim: a 5ª chamada recebe uma resposta
  // final. Um laço sem o limite termina nela, e não roda até o ctest matá-lo.
  hz::mock::Scenario wednesday = course_scenario("wednesday");
  REQUIRE(wednesday.steps.size() == 1);
  wednesday.steps[0].forever = false;
  wednesday.steps[0].repeat = 4;
  hz::mock::Step past_limit;
  past_limit.content = "a 5ª chamada: o laço passou de max-turns 4";
  past_limit.finish_reason = "stop";
  wednesday.steps.push_back(past_limit);
  ScriptedModel model(std::move(wednesday));
  const TempDir dir;
  const auto result =
      run_stage({"--base-url", model.base_url(), "--model", "m", "--scenario", "wednesday", "--yes",
                 "--max-turns", "4", "--trace", (dir / "trace.jsonl").string(), "--workspace",
                 dir.path().string()});
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 3);
  CHECK(result.out.empty());
  CHECK(contains(result.err, "max_turns"));
  const auto events = hz::test01::read_jsonl(dir / "trace.jsonl");
  std::vector<json> expected;
  for (int turn = 1; turn <= 4; ++turn) {
    expected.push_back({{"event", "model_request"}, {"turn", turn}});
    expected.push_back({{"event", "model_response"}, {"turn", turn}, {"tool_calls", 1}});
    expected.push_back({{"event", "tool_start"}, {"name", "run_shell"}});
    expected.push_back({{"event", "tool_end"}, {"ok", false}});
  }
  expected.push_back({{"event", "turn_end"}, {"outcome", "max_turns"}, {"turns", 4}});
  CHECK(hz::test01::event_difference(events, expected) == "iguais");
}

TEST_CASE("o chat interativo roda um turno por linha com o mesmo histórico") {
  ScriptedModel model(R"({"name": "chat", "steps": [
    {"expect": {"message_count": 2, "last_contains": ["primeira"]}, "content": "resposta um"},
    {"expect": {"message_count": 4, "last_contains": ["segunda"]}, "content": "resposta dois"}
  ]})");
  const TempDir dir;
  const auto result = run_stage(
      {"--base-url", model.base_url(), "--model", "m", "--workspace", dir.path().string()},
      "primeira\n\nsegunda\n");
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out == "resposta um\nresposta dois\n");
  CHECK(contains(result.err, "você> "));
  const auto bodies = model.request_bodies();
  REQUIRE(bodies.size() == 2);
  const json sent = hz::test01::wire_messages(
      {hz::Message::system(std::string(hz::default_system_prompt())), hz::Message::user("primeira"),
       hz::Message::assistant("resposta um"), hz::Message::user("segunda")});
  INFO(hz::test01::json_difference(bodies[1]["messages"], sent));
  CHECK(bodies[1]["messages"] == sent);
  CHECK(bodies[1]["model"] == "m");
  CHECK(model.failures().empty());
}

TEST_CASE("cenário com endpoint real usa a fixture e o pedido do cenário") {
  const auto monday = course_scenario("monday");
  ScriptedModel model(R"({"name": "real-na-segunda", "steps": [
    {"expect": {"message_count": 2, "last_role": "user"},
     "tool_calls": [{"id": "c1", "name": "list_dir", "arguments": "{\"path\": \".\"}"}]},
    {"expect": {"last_role": "tool", "last_contains": ["config.ini", "test_login.sh"]},
     "content": "vi a pasta"}
  ]})");
  const TempDir tmp;
  const auto result =
      run_stage({"--base-url", model.base_url(), "--model", "m", "--scenario", "monday"}, "",
                {"TMPDIR=" + tmp.path().string()});
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out == "vi a pasta\n");
  CHECK(contains(result.err, "cenário: monday"));
  const auto bodies = model.request_bodies();
  REQUIRE(bodies.size() == 2);
  CHECK(bodies[0]["messages"][1] == hz::to_json(hz::Message::user(monday.prompt)));
  CHECK(model.failures().empty());
}

TEST_CASE("o chat sem nenhuma linha sai com 0 sem chamar o modelo") {
  ScriptedModel model(R"({"name": "mudo", "steps": [{"content": "nunca"}]})");
  const TempDir dir;
  const auto result = run_stage(
      {"--base-url", model.base_url(), "--model", "m", "--workspace", dir.path().string()});
  CHECK(result.exit_code == 0);
  CHECK(result.out.empty());
  CHECK(model.request_bodies().empty());
}

TEST_CASE("recusar pelo stdin deixa o arquivo intacto e o modelo fica sabendo") {
  ScriptedModel model(write_file_scenario());
  const TempDir dir;
  dir.write("nota.txt", "antigo\n");
  const auto result = run_stage({"--base-url", model.base_url(), "--model", "m", "--workspace",
                                 dir.path().string(), "--prompt", "troque a nota"},
                                "n\n");
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out == "entendido\n");
  CHECK(contains(result.err, "permitir write_file"));
  CHECK(dir.read("nota.txt") == "antigo\n");
  const auto bodies = model.request_bodies();
  REQUIRE(bodies.size() == 2);
  const json& answer = bodies[1]["messages"].back();
  CHECK(answer["role"] == "tool");
  CHECK(answer["tool_call_id"] == "c1");
  CHECK(hz::test01::error_gaps(answer["content"].get<std::string>(), "erro: ", {"write_file"}) ==
        "");
}

TEST_CASE("responder s na confirmação deixa a ferramenta rodar") {
  ScriptedModel model(write_file_scenario());
  const TempDir dir;
  dir.write("nota.txt", "antigo\n");
  const auto result = run_stage({"--base-url", model.base_url(), "--model", "m", "--workspace",
                                 dir.path().string(), "--prompt", "troque a nota"},
                                "s\n");
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 0);
  CHECK(contains(result.err, "permitir write_file"));
  CHECK(dir.read("nota.txt") == "novo\n");
}

TEST_CASE("com --yes a ferramenta roda sem perguntar") {
  ScriptedModel model(write_file_scenario());
  const TempDir dir;
  dir.write("nota.txt", "antigo\n");
  const auto result = run_stage({"--base-url", model.base_url(), "--model", "m", "--workspace",
                                 dir.path().string(), "--prompt", "troque a nota", "--yes"});
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 0);
  CHECK_FALSE(contains(result.err, "permitir"));
  CHECK(dir.read("nota.txt") == "novo\n");
}

TEST_CASE("--system-prompt troca o prompt de sistema") {
  ScriptedModel model(R"({"name": "regras", "steps": [{"content": "oi"}]})");
  const TempDir dir;
  const auto rules = dir.write("regras.txt", "Só responda oi.");
  const auto result =
      run_stage({"--base-url", model.base_url(), "--model", "m", "--workspace", dir.path().string(),
                 "--system-prompt", rules.string(), "--prompt", "olá"});
  hz::testing::throw_if_stubbed(result);
  CHECK(result.exit_code == 0);
  CHECK(result.out == "oi\n");
  const auto bodies = model.request_bodies();
  REQUIRE(bodies.size() == 1);
  const json sent =
      hz::test01::wire_messages({hz::Message::system("Só responda oi."), hz::Message::user("olá")});
  INFO(hz::test01::json_difference(bodies[0]["messages"], sent));
  CHECK(bodies[0]["messages"] == sent);
}

TEST_CASE("--context-window avisa uma vez só quando um pedido chega perto da janela") {
  // Os pedidos da segunda-feira vão de ~800 a ~1600 tokens (bytes / 4): com uma
  // janela de 1000, do segundo em diante todos passam de 80%.
  const auto result = run_stage({"--context-window", "1000"});
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 0);
  CHECK_FALSE(result.out.empty());
  CHECK(hz::testing::occurrences(result.err, "⚠ janela de contexto: este pedido tem cerca de ") ==
        1);
  CHECK(contains(result.err, "% da janela do modelo (1000 tokens).\n"));
  CHECK(contains(result.err, "OLLAMA_CONTEXT_LENGTH=32768 ollama serve"));
  // O aviso sai antes da resposta que estourou, e o turno segue até o fim.
  CHECK(result.err.find("⚠ janela de contexto") < result.err.find("■ desfecho: success"));
}

TEST_CASE("sem --context-window, com o mock, não há aviso de janela de contexto") {
  const auto result = run_stage({});
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 0);
  CHECK_FALSE(contains(result.err, "janela de contexto"));
  const auto huge = run_stage({"--context-window", "1000000"});
  CHECK(huge.exit_code == 0);
  CHECK_FALSE(contains(huge.err, "janela de contexto"));
}

TEST_CASE("erro do provedor encerra com código 1 e mensagem clara") {
  ScriptedModel model(R"({"name": "caiu", "steps": [
    {"error": {"status": 500, "message": "o servidor caiu"}}
  ]})");
  const TempDir dir;
  const auto result = run_stage({"--base-url", model.base_url(), "--model", "m", "--workspace",
                                 dir.path().string(), "--prompt", "oi"});
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(contains(result.err,
                 "hz-01-loop: erro do provedor: o provedor respondeu HTTP 500: o servidor caiu\n"));
}

TEST_CASE("entradas ruins saem com código 2 e mensagem clara") {
  const TempDir dir;
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases{
      {{"--max-turns", "0"}, "--max-turns precisa ser pelo menos 1"},
      {{"--max-turns", "-3"}, "--max-turns precisa ser pelo menos 1"},
      {{"--max-tool-output", "10"}, "--max-tool-output precisa ser pelo menos 64"},
      {{"--context-window", "-1"}, "--context-window precisa ser 0 ou mais"},
      {{"--max-turns", "muitos"}, "max-turns"},
      {{"--flag-que-nao-existe"}, "flag-que-nao-existe"},
      {{"--system-prompt", (dir / "nao-existe.txt").string()}, "--system-prompt"},
      {{"--system-prompt", dir.path().string()},
       "--system-prompt: " + dir.path().string() + " é uma pasta, não um arquivo"},
      {{"--scenario", "cenario-que-nao-existe"}, "cenario-que-nao-existe"},
      {{"--workspace", (dir / "nao-existe").string()}, "não é uma pasta que existe"},
      {{"--trace", (dir / "nao-existe" / "t.jsonl").string()}, "--trace"},
      {{"--base-url", "http://127.0.0.1:1/v1", "--workspace", dir.path().string()},
       "falta --model"},
  };
  for (const auto& c : cases) {
    std::string shown;
    for (const auto& arg : c.args) shown += arg + " ";
    CAPTURE(shown);
    const auto result = run_stage(c.args);
    CAPTURE(result.err);
    CHECK(result.exit_code == 2);
    CHECK(result.out.empty());
    CHECK(contains(result.err, c.message));
  }
}

TEST_CASE("--help mostra as flags e sai com 0") {
  const auto result = run_stage({"--help"});
  CHECK(result.exit_code == 0);
  for (const char* flag : {"--scenario", "--base-url", "--model", "--api-key", "--prompt",
                           "--max-turns", "--workspace", "--trace", "--yes", "--system-prompt",
                           "--max-tool-output", "--context-window"}) {
    CAPTURE(flag);
    CHECK(contains(result.out, flag));
  }
  CHECK(contains(result.out, "padrão: 20"));
}

TEST_CASE("--help diz que os sinais matam a etapa depois de encerrar o comando") {
  const auto result = run_stage({"--help"});
  CHECK(result.exit_code == 0);
  CHECK(contains(result.out,
                 "códigos de saída:\n  0 success · 3 max_turns\n  Ctrl-C, SIGTERM e SIGHUP: o "
                 "comando em curso é encerrado e o programa morre do\n    sinal (o shell mostra "
                 "130, 143 ou 129).\n"));
}

TEST_CASE("SIGTERM, SIGHUP e Ctrl-C matam a etapa 01 sem deixar o comando rodando") {
  // O comando põe um filho em segundo plano (do grupo dele) e espera: o sinal
  // chega ao harness, e o filho, num grupo próprio, só morre se o harness o matar.
  for (const auto& expected :
       {std::pair{"TERM", 143}, std::pair{"HUP", 129}, std::pair{"INT", 130}}) {
    const std::string signal = expected.first;  // TERM, HUP, INT
    const int code = expected.second;
    CAPTURE(signal);
    const TempDir dir;
    ScriptedModel model(R"({"name": "lento", "steps": [
      {"tool_calls": [{"name": "run_shell",
                       "arguments": {"command": "sleep 30 & echo $! > pid; wait"}}]}]})");
    std::string script = hz::testing::signal_script(
        "'" + hz::testing::bin_path("hz-01-loop").string() + "' --base-url '" + model.base_url() +
            "' --model m --yes --prompt rode --workspace '" + dir.path().string() +
            "' </dev/null >/dev/null 2>'" + (dir / "err").string() + "'",
        signal, "[ -s '" + (dir / "pid").string() + "' ]");
    script += "echo \"código: $code\"\n" + hz::testing::child_state_script(dir / "pid");
    script += "cat '" + (dir / "err").string() + "' >&2\n";
    const auto result = hz::testing::run_program({"/bin/sh", "-c", script}, "",
                                                 {"OPENAI_BASE_URL=", "OPENAI_API_KEY="});
    hz::testing::throw_if_stubbed(result);
    CAPTURE(result.err);
    CHECK(result.out == "código: " + std::to_string(code) + "\nfilho: encerrado\n");
  }
}

// ---- o que chega ao terminal e o que se perde na saída ------------------------

namespace {

// run_stage com o stdout redirecionado pelo shell (">/dev/full", ">&-").
ProcessResult run_stage_with_stdout(const std::string& redirect, std::vector<std::string> args) {
  const std::vector<std::string> shell{"/bin/sh", "-c", "exec \"$0\" \"$@\" " + redirect,
                                       hz::testing::bin_path("hz-01-loop").string()};
  args.insert(args.begin(), shell.begin(), shell.end());
  return hz::testing::run_program(args, "", {"OPENAI_BASE_URL=", "OPENAI_API_KEY=", "NO_COLOR=1"});
}

}  // namespace

TEST_CASE("resposta que não chega ao stdout termina com 1 e aviso em stderr") {
  for (const std::string redirect : {">/dev/full", ">&-"}) {
    CAPTURE(redirect);
    ScriptedModel model(R"({"name": "resposta", "steps": [{"content": "pronto"}]})");
    const TempDir dir;
    const auto result = run_stage_with_stdout(
        redirect, {"--base-url", model.base_url(), "--model", "m", "--workspace",
                   dir.path().string(), "--prompt", "oi", "--trace", (dir / "t.jsonl").string()});
    CAPTURE(result.err);
    CHECK(result.exit_code == 1);
    CHECK(hz::testing::occurrences(
              result.err, "hz-01-loop: não foi possível escrever a resposta na saída padrão\n") ==
          1);
    CHECK(model.request_bodies().size() == 1);
    // Com o stdout fechado, o trace abre com o número 1: a resposta não pode ir parar nele.
    CHECK_FALSE(contains(dir.read("t.jsonl"), "pronto\n"));
  }
}

TEST_CASE("--trace que não pode ser escrito avisa uma vez e termina com 1") {
  ScriptedModel model(R"({"name": "resposta", "steps": [{"content": "pronto"}]})");
  const TempDir dir;
  const auto result = run_stage({"--base-url", model.base_url(), "--model", "m", "--workspace",
                                 dir.path().string(), "--prompt", "oi", "--trace", "/dev/full"});
  CAPTURE(result.err);
  CHECK(result.exit_code == 1);
  CHECK(result.out == "pronto\n");  // a resposta em si chegou
  CHECK(contains(result.err,
                 "aviso: não foi possível gravar o trace em /dev/full: No space left on device; "
                 "os eventos seguintes não serão gravados\n"));
  CHECK(hz::testing::occurrences(result.err, "não foi possível gravar o trace") == 1);
}

TEST_CASE("resposta, cenário e falhas do mock chegam ao terminal sem controles crus") {
  // Limpar a tela, OSC 52 (área de transferência), OSC 0 (título) e CSI C1.
  const TempDir dir;
  const auto scenario = dir.write("tela.json", R"({
    "name": "tela\u001b[2J",
    "model": "m\u001b]0;titulo\u0007",
    "steps": [{"content": "feito\u001b[2J\u001b]52;c;ZWNobw==\u0007\u009b31m"}]
  })");
  // Duas linhas no chat: a segunda passa do fim do roteiro, e o mock registra.
  const auto result = run_stage(
      {"--scenario", scenario.string(), "--workspace", dir.path().string()}, "um\ndois\n");
  CAPTURE(result.err);
  CHECK(result.exit_code == 1);
  CHECK(result.out == "feito\\x1b[2J\\x1b]52;c;ZWNobw==\\x07\\u009b31m\n");
  for (const std::string& text : {result.out, result.err}) {
    CHECK_FALSE(contains(text, "\x1b"));
    CHECK_FALSE(contains(text, "\x07"));
    CHECK_FALSE(contains(text, "\xc2\x9b"));
  }
  CHECK(contains(result.err, "cenário tela\\x1b[2J"));
  CHECK(contains(result.err,
                 "hz-01-loop: o mock registrou: pedido 2: o roteiro \"tela\\x1b[2J\" "
                 "acabou"));
}
