#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "hz/testing/temp_dir.hpp"
#include "hz/tools.hpp"

namespace fs = std::filesystem;
using hz::ToolOutput;
using hz::testing::TempDir;
using nlohmann::json;

namespace {

// As ferramentas de uma pasta temporária, procuradas pelo nome.
struct Fixture {
  TempDir dir;
  hz::Workspace workspace{dir.path()};
  std::vector<hz::Tool> tools = hz::basic_tools(workspace, {std::chrono::milliseconds(5000), 64});

  ToolOutput run(const std::string& name, const json& args) {
    auto it = std::find_if(tools.begin(), tools.end(),
                           [&](const hz::Tool& t) { return t.schema.name == name; });
    REQUIRE(it != tools.end());
    return it->run(args);
  }
};

void check_output(const ToolOutput& output, bool ok, const std::string& text) {
  CHECK(output.ok == ok);
  CHECK(output.text == text);
}

}  // namespace

TEST_CASE("basic_tools oferece as cinco ferramentas nesta ordem") {
  Fixture f;
  std::vector<std::string> names;
  for (const auto& tool : f.tools) names.push_back(tool.schema.name);
  CHECK(names ==
        std::vector<std::string>{"read_file", "write_file", "edit_file", "list_dir", "run_shell"});
}

TEST_CASE("só as ferramentas que escrevem ou executam pedem aprovação") {
  Fixture f;
  std::vector<bool> approval;
  for (const auto& tool : f.tools) approval.push_back(tool.needs_approval);
  CHECK(approval == std::vector<bool>{false, true, true, false, true});
  CHECK(hz::append_file_tool(f.workspace).needs_approval);
}

TEST_CASE("os schemas exigem os argumentos documentados de cada ferramenta") {
  Fixture f;
  CHECK(
      f.tools[2].schema.parameters.dump() ==
      R"({"properties":{"new_text":{"description":"o trecho que entra no lugar","type":"string"},"old_text":{"description":"o trecho atual, que aparece exatamente uma vez no arquivo","type":"string"},"path":{"description":"caminho do arquivo, relativo à raiz do workspace","type":"string"}},"required":["path","old_text","new_text"],"type":"object"})");
  CHECK(f.tools[0].schema.parameters["required"] == json::array({"path"}));
  CHECK(f.tools[1].schema.parameters["required"] == json::array({"path", "content"}));
  CHECK(f.tools[3].schema.parameters["required"] == json::array({"path"}));
  CHECK(f.tools[4].schema.parameters["required"] == json::array({"command"}));
  CHECK(hz::append_file_tool(f.workspace).schema.parameters["required"] ==
        json::array({"path", "content"}));
}

TEST_CASE("read_file devolve o conteúdo exato") {
  Fixture f;
  f.dir.write("config.ini", "porta=80\n");
  check_output(f.run("read_file", {{"path", "config.ini"}}), true, "porta=80\n");
}

TEST_CASE("read_file falha com arquivo inexistente pasta ou caminho fora") {
  Fixture f;
  fs::create_directory(f.dir / "src");
  check_output(f.run("read_file", {{"path", "nada.txt"}}), false,
               "arquivo não encontrado: nada.txt");
  check_output(f.run("read_file", {{"path", "src"}}), false,
               "src é uma pasta; use list_dir para ver o conteúdo");
  check_output(f.run("read_file", {{"path", "../x"}}), false, "caminho fora do workspace: ../x");
  check_output(f.run("read_file", json::object()), false,
               "argumento \"path\" ausente ou não é texto");
  check_output(f.run("read_file", {{"path", 3}}), false,
               "argumento \"path\" ausente ou não é texto");
}

TEST_CASE("write_file cria pastas sobrescreve e conta os bytes") {
  Fixture f;
  check_output(f.run("write_file", {{"path", "a/b/c.txt"}, {"content", "olá"}}), true,
               "arquivo escrito: a/b/c.txt (4 bytes)");
  CHECK(f.dir.read("a/b/c.txt") == "olá");
  check_output(f.run("write_file", {{"path", "a/b/c.txt"}, {"content", "x"}}), true,
               "arquivo escrito: a/b/c.txt (1 bytes)");
  CHECK(f.dir.read("a/b/c.txt") == "x");
}

TEST_CASE("write_file falha em pasta e fora do workspace") {
  Fixture f;
  fs::create_directory(f.dir / "src");
  check_output(f.run("write_file", {{"path", "src"}, {"content", "x"}}), false, "src é uma pasta");
  check_output(f.run("write_file", {{"path", "."}, {"content", "x"}}), false, ". é uma pasta");
  check_output(f.run("write_file", {{"path", "/tmp/x"}, {"content", "x"}}), false,
               "caminho absoluto não é permitido: /tmp/x (use um caminho relativo à raiz do "
               "workspace)");
  check_output(f.run("write_file", {{"path", "a.txt"}}), false,
               "argumento \"content\" ausente ou não é texto");
}

TEST_CASE("edit_file troca o trecho que aparece uma vez") {
  Fixture f;
  f.dir.write("config.ini", "host=x\nporta=80\n");
  check_output(
      f.run("edit_file",
            {{"path", "config.ini"}, {"old_text", "porta=80"}, {"new_text", "porta=8080"}}),
      true, "arquivo editado: config.ini");
  CHECK(f.dir.read("config.ini") == "host=x\nporta=8080\n");
}

TEST_CASE("edit_file falha quando o trecho não aparece ou aparece mais de uma vez") {
  Fixture f;
  f.dir.write("a.txt", "aaa\nb\n");
  check_output(f.run("edit_file", {{"path", "a.txt"}, {"old_text", "zzz"}, {"new_text", "y"}}),
               false, "texto não encontrado em a.txt");
  check_output(f.run("edit_file", {{"path", "a.txt"}, {"old_text", "aa"}, {"new_text", "y"}}),
               false,
               "texto aparece 2 vezes em a.txt; inclua mais contexto para que apareça uma vez só");
  check_output(f.run("edit_file", {{"path", "a.txt"}, {"old_text", ""}, {"new_text", "y"}}), false,
               "old_text não pode ser vazio");
  check_output(f.run("edit_file", {{"path", "b.txt"}, {"old_text", "a"}, {"new_text", "y"}}), false,
               "arquivo não encontrado: b.txt");
  CHECK(f.dir.read("a.txt") == "aaa\nb\n");
}

TEST_CASE("list_dir lista em ordem com barra nas pastas") {
  Fixture f;
  f.dir.write("b.txt", "");
  f.dir.write("a.txt", "");
  f.dir.write("src/x.cpp", "");
  f.dir.write(".oculto", "");
  check_output(f.run("list_dir", {{"path", "."}}), true, ".oculto\na.txt\nb.txt\nsrc/\n");
  check_output(f.run("list_dir", {{"path", "src"}}), true, "x.cpp\n");
}

TEST_CASE("list_dir falha com pasta inexistente ou arquivo e avisa pasta vazia") {
  Fixture f;
  f.dir.write("a.txt", "");
  fs::create_directory(f.dir / "vazia");
  check_output(f.run("list_dir", {{"path", "nada"}}), false, "pasta não encontrada: nada");
  check_output(f.run("list_dir", {{"path", "a.txt"}}), false, "a.txt não é uma pasta");
  check_output(f.run("list_dir", {{"path", "vazia"}}), true, "(pasta vazia)");
}

TEST_CASE("run_shell devolve código de saída e saída juntando stdout e stderr") {
  Fixture f;
  check_output(f.run("run_shell", {{"command", "echo um; echo dois >&2"}}), true,
               "código de saída: 0\num\ndois\n");
  check_output(f.run("run_shell", {{"command", "true"}}), true, "código de saída: 0");
}

TEST_CASE("run_shell roda na raiz do workspace sem stdin") {
  Fixture f;
  f.dir.write("teste.sh", "echo rodou aqui\n");
  check_output(f.run("run_shell", {{"command", "sh teste.sh; cat; pwd"}}), true,
               "código de saída: 0\nrodou aqui\n" + f.dir.path().string() + "\n");
}

TEST_CASE("run_shell com código diferente de zero é falha") {
  Fixture f;
  check_output(f.run("run_shell", {{"command", "echo FALHOU; exit 3"}}), false,
               "código de saída: 3\nFALHOU\n");
}

TEST_CASE("run_shell informa processo morto por sinal") {
  Fixture f;
  check_output(f.run("run_shell", {{"command", "kill -TERM $$"}}), false,
               "código de saída: 143 (encerrado pelo sinal 15)");
}

TEST_CASE("run_shell não mexe na saída que cabe no limite") {
  Fixture f;  // limite de 64 bytes
  check_output(f.run("run_shell", {{"command", "printf '%064d' 0"}}), true,
               "código de saída: 0\n" + std::string(64, '0'));
}

TEST_CASE("run_shell corta o meio da saída que passa do limite e guarda começo e fim") {
  Fixture f;  // limite de 64 bytes: 32 do começo e 32 do fim
  // 6 + 100 + 3 = 109 bytes, 45 omitidos.
  check_output(
      f.run("run_shell", {{"command", "printf COMECO; printf '%0100d' 0; printf FIM"}}), true,
      "código de saída: 0\n[saída de 109 bytes: mostrando o começo e o fim]\nCOMECO" +
          std::string(26, '0') + "[... 45 bytes omitidos ...]" + std::string(29, '0') + "FIM");
  check_output(f.run("run_shell", {{"command", "printf '%065d' 0"}}), true,
               "código de saída: 0\n[saída de 65 bytes: mostrando o começo e o fim]\n" +
                   std::string(32, '0') + "[... 1 bytes omitidos ...]" + std::string(32, '0'));
}

TEST_CASE("run_shell com saída de 1 MiB guarda o fim onde estão os erros") {
  TempDir dir;
  const hz::Workspace workspace(dir.path());
  auto tools = hz::basic_tools(workspace);  // limite padrão de 64 KiB
  const ToolOutput output = tools[4].run(
      {{"command",
        "echo INICIO; head -c 1048576 /dev/zero | tr '\\0' q; echo; echo FIMSAIDA; exit 2"}});
  // 7 + 1048576 + 1 + 9 = 1048593 bytes; ficam 32768 de cada ponta.
  const std::size_t total = 7 + 1048576 + 1 + 9;
  check_output(output, false,
               "código de saída: 2\n[saída de " + std::to_string(total) +
                   " bytes: mostrando o começo e o fim]\nINICIO\n" + std::string(32768 - 7, 'q') +
                   "[... " + std::to_string(total - 65536) + " bytes omitidos ...]" +
                   std::string(32768 - 10, 'q') + "\nFIMSAIDA\n");
}

TEST_CASE("run_shell no tempo esgotado também guarda começo e fim") {
  TempDir dir;
  const hz::Workspace workspace(dir.path());
  auto tools = hz::basic_tools(workspace, {std::chrono::milliseconds(200), 16});
  // O teste espera o próprio timeout, que é o comportamento sob teste.
  const ToolOutput output =
      tools[4].run({{"command", "printf COMECO; printf '%0100d' 0; printf FIM; sleep 5"}});
  check_output(output, false,
               "tempo esgotado após 200 ms; o comando foi encerrado\n"
               "[saída de 109 bytes: mostrando o começo e o fim]\nCOMECO00" +
                   std::string("[... 93 bytes omitidos ...]") + "00000FIM");
}

TEST_CASE("run_shell mata o comando quando o tempo esgota") {
  TempDir dir;
  const hz::Workspace workspace(dir.path());
  auto tools = hz::basic_tools(workspace, {std::chrono::milliseconds(200), 1024});
  const auto start = std::chrono::steady_clock::now();
  // O teste espera o próprio timeout, que é o comportamento sob teste.
  const ToolOutput output = tools[4].run({{"command", "echo começou; sleep 5; echo nunca"}});
  const auto elapsed = std::chrono::steady_clock::now() - start;
  check_output(output, false, "tempo esgotado após 200 ms; o comando foi encerrado\ncomeçou\n");
  CHECK(elapsed < std::chrono::seconds(3));
}

TEST_CASE("run_shell não espera filhos deixados em segundo plano") {
  Fixture f;
  const auto start = std::chrono::steady_clock::now();
  check_output(f.run("run_shell", {{"command", "sleep 5 & echo pronto"}}), true,
               "código de saída: 0\npronto\n");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(3));
}

TEST_CASE("append_file acrescenta a cada chamada") {
  Fixture f;
  const hz::Tool append = hz::append_file_tool(f.workspace);
  check_output(append.run({{"path", "log/notas.txt"}, {"content", "um\n"}}), true,
               "texto acrescentado a log/notas.txt (3 bytes)");
  check_output(append.run({{"path", "log/notas.txt"}, {"content", "dois\n"}}), true,
               "texto acrescentado a log/notas.txt (5 bytes)");
  CHECK(f.dir.read("log/notas.txt") == "um\ndois\n");
  check_output(append.run({{"path", "../x"}, {"content", "a"}}), false,
               "caminho fora do workspace: ../x");
}
