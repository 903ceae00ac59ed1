// Cenários embutidos: achar pelo nome, copiar a fixture, e as histórias de
// segunda e quarta rodadas de ponta a ponta com ferramentas de verdade.
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <doctest/doctest.h>

#include "support.hpp"

namespace hz::mock {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST_CASE("find_scenario acha cenário pelo nome e por caminho") {
  auto monday = find_scenario("monday");
  REQUIRE(monday.ok());
  CHECK(*monday == scenario_dir() / "monday.json");
  auto example = find_scenario("examples/quirks");
  REQUIRE(example.ok());
  CHECK(*example == scenario_dir() / "examples/quirks.json");
  auto by_path = find_scenario((scenario_dir() / "wednesday.json").string());
  REQUIRE(by_path.ok());
  CHECK(*by_path == scenario_dir() / "wednesday.json");
}

TEST_CASE("find_scenario com nome desconhecido lista os disponíveis") {
  auto missing = find_scenario("sexta");
  REQUIRE_FALSE(missing.ok());
  const std::string& message = missing.error().message;
  CHECK(message.rfind("cenário \"sexta\" não existe em " + scenario_dir().string() +
                          " (disponíveis: monday, wednesday, wednesday-cycle, brakes/",
                      0) == 0);
  // As subpastas que os guias citam (./hz demo --scenario brakes/budget) entram
  // na lista; as fixtures de workspaces/ não são cenários.
  for (const char* name : {"brakes/budget", "examples/streaming", "journal/notes", "doctor/ok"}) {
    CHECK_MESSAGE(message.find(std::string(" ") + name + ",") != std::string::npos,
                  "falta " << name << " em: " << message);
  }
  CHECK(message.find("workspaces") == std::string::npos);
  const std::string tail = "; ou passe o caminho de um arquivo .json)";
  REQUIRE(message.size() > tail.size());
  CHECK(message.substr(message.size() - tail.size()) == tail);
  auto no_file = find_scenario("/nao/existe.json");
  REQUIRE_FALSE(no_file.ok());
  CHECK(no_file.error().message.rfind(
            "cenário \"/nao/existe.json\": arquivo não encontrado (nomes embutidos: monday, "
            "wednesday, wednesday-cycle, brakes/",
            0) == 0);
}

TEST_CASE("copy_fixture_to_temp faz uma cópia nova com o bit de execução") {
  Scenario monday = test::embedded_scenario("monday");
  auto first = copy_fixture_to_temp(monday);
  auto second = copy_fixture_to_temp(monday);
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  CHECK(*first != *second);
  CHECK(first->filename().string().rfind("hz-workspace-", 0) == 0);
  CHECK(first->parent_path() == fs::temp_directory_path());
  CHECK(read_text(*first / "config.ini") == read_text(*monday.workspace / "config.ini"));
  const auto perms = fs::status(*first / "test_login.sh").permissions();
  CHECK((perms & fs::perms::owner_exec) != fs::perms::none);
  // A cópia é independente da fixture.
  std::ofstream(*first / "config.ini") << "mudado\n";
  CHECK(read_text(*second / "config.ini") == read_text(*monday.workspace / "config.ini"));
  fs::remove_all(*first);
  fs::remove_all(*second);
}

TEST_CASE("copy_fixture_to_temp sem fixture cria pasta vazia") {
  auto dir = copy_fixture_to_temp(test::scenario_from(R"({"steps": [{}]})"));
  REQUIRE(dir.ok());
  CHECK(fs::is_directory(*dir));
  CHECK(fs::is_empty(*dir));
  fs::remove_all(*dir);
}

// Um harness mínimo, só para provar que o roteiro casa com a fixture: roda as
// ferramentas de verdade na cópia e devolve a saída real ao modelo.
struct ToolRun {
  std::string output;
};

ToolRun run_tool(const fs::path& workspace, const json& call) {
  const std::string name = call["function"]["name"];
  const json args = json::parse(call["function"]["arguments"].get<std::string>());
  if (name == "run_shell") {
    const std::string command =
        "cd '" + workspace.string() + "' && " + args["command"].get<std::string>() + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string output;
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
    const int status = pclose(pipe);
    return {output + "[exit " + std::to_string(WEXITSTATUS(status)) + "]"};
  }
  if (name == "read_file") return {read_text(workspace / args["path"].get<std::string>())};
  if (name == "edit_file") {
    const fs::path path = workspace / args["path"].get<std::string>();
    std::string text = read_text(path);
    const std::string old_text = args["old_text"];
    auto at = text.find(old_text);
    REQUIRE(at != std::string::npos);
    text.replace(at, old_text.size(), args["new_text"].get<std::string>());
    std::ofstream(path, std::ios::binary) << text;
    return {"ok: 1 trecho trocado em " + args["path"].get<std::string>()};
  }
  FAIL("ferramenta inesperada: " << name);
  return {};
}

struct Story {
  std::vector<json> replies;
  json messages;
};

Story run_story(test::Served& served, const Scenario& scenario, const fs::path& workspace,
                int max_turns) {
  Story story;
  story.messages = json::array({{{"role", "system"}, {"content", "Você é um agente de código."}},
                                {{"role", "user"}, {"content", scenario.prompt}}});
  json tools = json::array();
  for (const char* name : {"read_file", "write_file", "edit_file", "list_dir", "run_shell"}) {
    tools.push_back({{"type", "function"},
                     {"function", {{"name", name}, {"parameters", {{"type", "object"}}}}}});
  }
  for (int turn = 0; turn < max_turns; ++turn) {
    json reply =
        served.chat({{"model", "hz-mock"}, {"messages", story.messages}, {"tools", tools}});
    story.replies.push_back(reply);
    const json message = reply["choices"][0]["message"];
    story.messages.push_back(message);
    if (!message.contains("tool_calls")) break;
    for (const auto& call : message["tool_calls"]) {
      story.messages.push_back({{"role", "tool"},
                                {"tool_call_id", call["id"]},
                                {"content", run_tool(workspace, call).output}});
    }
  }
  return story;
}

TEST_CASE("a história de segunda roda inteira com as ferramentas de verdade") {
  Scenario monday = test::embedded_scenario("monday");
  CHECK(monday.prompt == "o teste test_login falhou, corrija");
  auto workspace = copy_fixture_to_temp(monday);
  REQUIRE(workspace.ok());
  test::Served served(monday);
  Story story = run_story(served, monday, *workspace, 10);

  CHECK(served.server().failures().empty());
  REQUIRE(story.replies.size() == 5);
  CHECK(story.replies.back()["choices"][0]["finish_reason"] == "stop");
  CHECK(read_text(*workspace / "config.ini").find("cookie_ttl_seconds = 3600") !=
        std::string::npos);
  // O uso cresce a cada chamada: o histórico inteiro é reenviado.
  for (std::size_t i = 1; i < story.replies.size(); ++i) {
    CHECK(story.replies[i]["usage"]["prompt_tokens"] >
          story.replies[i - 1]["usage"]["prompt_tokens"]);
  }
  fs::remove_all(*workspace);
}

TEST_CASE("a história de segunda falha alto se a saída da ferramenta não chegar") {
  Scenario monday = test::embedded_scenario("monday");
  test::Served served(monday);
  json messages = json::array({{{"role", "user"}, {"content", monday.prompt}}});
  json tools = json::array();
  for (const char* name : {"read_file", "edit_file", "run_shell"}) {
    tools.push_back({{"type", "function"}, {"function", {{"name", name}}}});
  }
  json first = served.chat({{"messages", messages}, {"tools", tools}});
  messages.push_back(first["choices"][0]["message"]);
  // Um harness quebrado que devolve uma saída inventada em vez da real.
  messages.push_back({{"role", "tool"}, {"tool_call_id", "call_1"}, {"content", "tudo certo"}});
  auto res = served.post({{"messages", messages}, {"tools", tools}});
  REQUIRE(res);
  CHECK(res->status == 400);
  CHECK(served.server().failures() ==
        std::vector<std::string>{"passo 2 (pedido 2): esperava que a última mensagem contivesse "
                                 "\"FALHOU\", veio \"tudo certo\""});
}

TEST_CASE("a história de quarta repete a mesma chamada e o teste falha sempre") {
  Scenario wednesday = test::embedded_scenario("wednesday");
  auto workspace = copy_fixture_to_temp(wednesday);
  REQUIRE(workspace.ok());
  test::Served served(wednesday);
  Story story = run_story(served, wednesday, *workspace, 12);

  CHECK(story.replies.size() == 12);  // nunca termina sozinha
  CHECK(served.server().failures().empty());
  std::set<std::string> ids;
  for (const auto& reply : story.replies) {
    const json call = reply["choices"][0]["message"]["tool_calls"][0];
    CHECK(call["function"]["name"] == "run_shell");
    CHECK(call["function"]["arguments"] == R"({"command":"sh test_login.sh"})");
    ids.insert(call["id"].get<std::string>());
  }
  CHECK(ids.size() == 12);  // ids diferentes a cada volta, como num provedor real
  for (const auto& message : story.messages) {
    if (message["role"] == "tool")
      CHECK(message["content"].get<std::string>().find("FALHOU") != std::string::npos);
  }
  // Sem usage no roteiro, a estimativa cresce com o histórico.
  CHECK(story.replies.back()["usage"]["prompt_tokens"] >
        story.replies.front()["usage"]["prompt_tokens"]);
  fs::remove_all(*workspace);
}

}  // namespace
}  // namespace hz::mock
