// Conferências de mantenedor (ctest -L maintainer) do que não roda aqui: o Dev
// Container, a imagem Debian e os workflows do GitHub. Sem contêiner e sem
// forge, a prova é estática: os arquivos são bem formados, todo comando que
// os workflows rodam existe no repositório, e a lista de pacotes é uma só (a
// APT_PACKAGES do ./hz) no ./hz, no Dockerfile e nos workflows.

#include <doctest/doctest.h>

#include "string_makers.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hz/course/counts.hpp"
#include "hz/course/progress.hpp"
#include "yaml_json.hpp"

namespace fs = std::filesystem;
using hz::course::test::parse_yaml;
using nlohmann::json;

namespace {

const fs::path kRoot = HZ_SOURCE_ROOT;

std::string read(const std::string& rel) {
  std::ifstream in(kRoot / rel, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "não consegui ler " << rel);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  return {std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
}

std::set<std::string> as_set(const std::vector<std::string>& words) {
  return {words.begin(), words.end()};
}

// ------------------------------------------------------------ o script ./hz

std::vector<std::string> hz_apt_packages() {
  const std::string hz = read("hz");
  const std::size_t start = hz.find("\nAPT_PACKAGES=(");
  REQUIRE(start != std::string::npos);
  const std::size_t open = hz.find('(', start);
  const std::size_t close = hz.find(')', open);
  return split_words(hz.substr(open + 1, close - open - 1));
}

// Os subcomandos do case de main(): "    grade) cmd_grade ..." etc.
std::set<std::string> hz_subcommands() {
  const std::string hz = read("hz");
  const std::size_t start = hz.find("\nmain() {");
  REQUIRE(start != std::string::npos);
  const std::string body = hz.substr(start, hz.find("\n}", start) - start);
  std::set<std::string> names;
  const std::regex line(R"re(\n\s+([a-z][a-z| -]*)\)\s+cmd_)re");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), line); it != std::sregex_iterator();
       ++it) {
    std::string alternatives = (*it)[1].str();
    std::replace(alternatives.begin(), alternatives.end(), '|', ' ');
    for (const std::string& name : split_words(alternatives)) names.insert(name);
  }
  return names;
}

// Os marcadores que o ./hz export troca no autograding.yml (sed -e s|@X@|...|g).
std::set<std::string> hz_export_placeholders() {
  const std::string hz = read("hz");
  std::set<std::string> found;
  const std::regex sed(R"re("s\|(@[A-Z_]+@)\|)re");
  for (auto it = std::sregex_iterator(hz.begin(), hz.end(), sed); it != std::sregex_iterator();
       ++it) {
    found.insert((*it)[1].str());
  }
  return found;
}

std::vector<std::string> stages() {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(kRoot / "etapas")) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory() && std::regex_match(name, std::regex("[0-9][0-9]-.+"))) {
      found.push_back(name);
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

// ------------------------------------------------------------- o Dockerfile

// Continuações de linha (\ no fim) juntadas, como o Docker faz.
std::string docker_logical(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::vector<std::string> docker_arg(const std::string& dockerfile, const std::string& name) {
  const std::string logical = docker_logical(dockerfile);
  std::smatch m;
  const std::regex arg("\nARG " + name + "=\"([^\"]*)\"");
  REQUIRE_MESSAGE(std::regex_search(logical, m, arg), "falta ARG " << name << " no Dockerfile");
  return split_words(m[1].str());
}

// --------------------------------------------------------------- workflows

// Um workflow de course/export/ como o ./hz export o escreve (os mesmos
// valores padrão): autograding.yml ou classroom.yml.
std::string exported_workflow(const std::string& file) {
  std::string text = read("course/export/" + file);
  std::string stage_list;
  for (const std::string& s : stages())
    stage_list += (stage_list.empty() ? "" : ", ") + ("\"" + s + "\"");
  const std::vector<std::pair<std::string, std::string>> values = {
      {"@TEMPLATE_REPO@", "DONO/NOME-DO-MODELO"},
      {"@TEMPLATE_REF@", "main"},
      {"@STAGES@", stage_list}};
  for (const auto& [marker, value] : values) {
    for (std::size_t at = text.find(marker); at != std::string::npos; at = text.find(marker, at)) {
      text.replace(at, marker.size(), value);
      at += value.size();
    }
  }
  return text;
}

std::string exported_autograding() { return exported_workflow("autograding.yml"); }
std::string exported_classroom() { return exported_workflow("classroom.yml"); }

struct Workflow {
  std::string name;
  json doc;
};

std::vector<Workflow> workflows() {
  std::vector<Workflow> out;
  const std::vector<std::pair<std::string, std::string>> files = {
      {".github/workflows/ci.yml", read(".github/workflows/ci.yml")},
      {"course/export/autograding.yml (exportado)", exported_autograding()},
      {"course/export/classroom.yml (exportado)", exported_classroom()}};
  for (const auto& file : files) {
    const auto parsed = parse_yaml(file.second);
    INFO(file.first);
    REQUIRE(parsed.error == "");
    out.push_back({file.first, parsed.value});
  }
  return out;
}

std::vector<json> steps_of(const json& doc) {
  std::vector<json> steps;
  for (const auto& job : doc.at("jobs").items()) {
    for (const json& step : job.value().at("steps")) steps.push_back(step);
  }
  return steps;
}

// Palavras de uma linha de shell: aspas juntam e somem; ; && || | separam.
std::vector<std::string> shell_words(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  const auto flush = [&] {
    if (in_word) words.push_back(word);
    word.clear();
    in_word = false;
  };
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else {
        word += c;
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      flush();
    } else if (c == '#' && !in_word) {
      break;
    } else if (c == ';' || c == '|' || c == '&') {
      flush();
      std::string op(1, c);
      if ((c == '|' || c == '&') && i + 1 < line.size() && line[i + 1] == c) op += line[++i];
      words.push_back(op);
    } else {
      word += c;
      in_word = true;
    }
  }
  flush();
  return words;
}

// Cada comando de um script de "run:" (continuações juntadas), como palavras.
std::vector<std::vector<std::string>> commands_of(const std::string& script) {
  std::string joined;
  for (std::size_t i = 0; i < script.size(); ++i) {
    if (script[i] == '\\' && i + 1 < script.size() && script[i + 1] == '\n') {
      ++i;
    } else {
      joined += script[i];
    }
  }
  std::vector<std::vector<std::string>> commands;
  std::istringstream lines(joined);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> current;
    for (const std::string& w : shell_words(line)) {
      if (w == ";" || w == "&&" || w == "||" || w == "|" || w == "&") {
        if (!current.empty()) commands.push_back(current);
        current.clear();
      } else {
        current.push_back(w);
      }
    }
    if (!current.empty()) commands.push_back(current);
  }
  // Palavras-chave e atribuições no começo não são o comando.
  for (auto& c : commands) {
    static const std::set<std::string> kKeywords = {"if", "then", "else", "elif", "fi", "!"};
    while (!c.empty() && (kKeywords.count(c.front()) > 0 ||
                          std::regex_match(c.front(), std::regex("[A-Z_][A-Z0-9_]*=.*")))) {
      c.erase(c.begin());
    }
  }
  commands.erase(std::remove_if(commands.begin(), commands.end(),
                                [](const auto& c) { return c.empty() || c.front() == "[["; }),
                 commands.end());
  return commands;
}

// Um caminho do repositório num workflow: ./x, .ci/x, .devcontainer, e .grader/x
// (o checkout do modelo do professor, que é este repositório).
bool repo_path(const std::string& word, std::string& rel) {
  if (word.rfind(".grader/", 0) == 0) {
    rel = word.substr(8);
  } else if (word.rfind("./", 0) == 0) {
    rel = word.substr(2);
  } else if (word.rfind(".ci/", 0) == 0 || word.rfind(".devcontainer", 0) == 0) {
    rel = word;
  } else {
    return false;
  }
  return true;
}

std::vector<std::string> command_problems(const std::vector<std::string>& command) {
  static const std::set<std::string> kSystem = {"apt-get", "docker", "echo", "exit", "git"};
  std::vector<std::string> problems;
  std::string rel;
  const std::string& program = command.front();
  if (!repo_path(program, rel) && kSystem.count(program) == 0) {
    problems.push_back("comando desconhecido: " + program);
  }
  for (std::size_t i = 0; i < command.size(); ++i) {
    if (!repo_path(command[i], rel)) continue;
    const fs::path path = kRoot / rel;
    if (!fs::exists(path)) {
      problems.push_back("não existe no repositório: " + command[i]);
      continue;
    }
    if (fs::is_regular_file(path) &&
        (fs::status(path).permissions() & fs::perms::owner_exec) == fs::perms::none) {
      problems.push_back("não é executável: " + command[i]);
    }
    if (rel == "hz") {
      const std::set<std::string> known = hz_subcommands();
      if (i + 1 >= command.size() || known.count(command[i + 1]) == 0) {
        problems.push_back("subcomando do ./hz que não existe: " +
                           (i + 1 < command.size() ? command[i + 1] : std::string("(nenhum)")));
      }
    }
  }
  return problems;
}

// Os pacotes de um "apt-get install" (sem as opções).
std::vector<std::string> apt_install_packages(const std::vector<std::string>& command) {
  std::vector<std::string> packages;
  const auto install = std::find(command.begin(), command.end(), "install");
  if (command.front() != "apt-get" || install == command.end()) return packages;
  for (auto it = std::next(install); it != command.end(); ++it) {
    if (!it->empty() && it->front() != '-') packages.push_back(*it);
  }
  return packages;
}

}  // namespace

TEST_CASE("devcontainer.json é JSON válido e aponta para o Dockerfile e o compile_commands.json") {
  const json config = json::parse(read(".devcontainer/devcontainer.json"), nullptr, false);
  REQUIRE_FALSE(config.is_discarded());
  CHECK(config.at("build").at("dockerfile") == "Dockerfile");
  CHECK(fs::is_regular_file(kRoot / ".devcontainer/Dockerfile"));

  const std::string dockerfile = read(".devcontainer/Dockerfile");
  std::smatch user;
  REQUIRE(std::regex_search(dockerfile, user, std::regex("\nARG USERNAME=([a-z_][a-z0-9_-]*)\n")));
  CHECK(config.at("remoteUser") == user[1].str());

  const std::vector<std::string> post_create = split_words(config.at("postCreateCommand"));
  REQUIRE(post_create.size() == 2);
  CHECK(post_create[0] == "./hz");
  CHECK(hz_subcommands().count(post_create[1]) == 1);

  const json& vscode = config.at("customizations").at("vscode");
  const json& settings = vscode.at("settings");
  // O compile_commands.json da raiz é o link que o ./hz aponta para o build da
  // trilha ativa: o editor segue a trilha (build/ fixo levaria à resposta).
  CHECK(settings.at("C_Cpp.default.compileCommands") == "${workspaceFolder}/compile_commands.json");
  const json& clangd = settings.at("clangd.arguments");
  CHECK(std::find(clangd.begin(), clangd.end(), "--compile-commands-dir=${workspaceFolder}") !=
        clangd.end());
  const json& extensions = vscode.at("extensions");
  CHECK(std::find(extensions.begin(), extensions.end(), "ms-vscode.cpptools") != extensions.end());
  CHECK(std::find(extensions.begin(), extensions.end(), "llvm-vs-code-extensions.vscode-clangd") !=
        extensions.end());
}

TEST_CASE("o Dockerfile parte do debian:12 e instala exatamente os APT_PACKAGES do ./hz") {
  const std::string dockerfile = read(".devcontainer/Dockerfile");
  CHECK(dockerfile.find("\nFROM debian:12\n") != std::string::npos);

  const std::vector<std::string> hz = hz_apt_packages();
  const std::vector<std::string> image = docker_arg(dockerfile, "HZ_APT_PACKAGES");
  CHECK(as_set(image) == as_set(hz));
  CHECK(image.size() == hz.size());

  const std::set<std::string> dev = as_set(docker_arg(dockerfile, "HZ_DEV_PACKAGES"));
  for (const char* tool : {"git", "sudo", "clang-14", "clang", "clang-format"}) {
    CHECK_MESSAGE(dev.count(tool) == 1, "falta " << tool << " em HZ_DEV_PACKAGES");
  }
  // As duas listas entram no mesmo apt-get install.
  const std::string logical = docker_logical(dockerfile);
  CHECK(std::regex_search(
      logical,
      std::regex(
          R"re(apt-get install -y --no-install-recommends\s+\$HZ_APT_PACKAGES \$HZ_DEV_PACKAGES)re")));
  // Um usuário comum com sudo, que é o do contêiner.
  CHECK(dockerfile.find("NOPASSWD:ALL") != std::string::npos);
  CHECK(dockerfile.find("\nUSER $USERNAME\n") != std::string::npos);
}

TEST_CASE("os workflows são YAML bem formados, com a forma que o GitHub espera") {
  for (const Workflow& w : workflows()) {
    INFO(w.name);
    CHECK(w.doc.at("name").is_string());
    CHECK(w.doc.at("on").contains("push"));
    // O do Classroom roda no push e quando o Classroom pede (repository_dispatch).
    const bool classroom = w.name.find("classroom") != std::string::npos;
    CHECK(w.doc.at("on").contains(classroom ? "repository_dispatch" : "pull_request"));
    REQUIRE(w.doc.at("jobs").is_object());
    for (const auto& job : w.doc.at("jobs").items()) {
      INFO("job " << job.key());
      CHECK(job.value().at("runs-on") == "ubuntu-latest");
      REQUIRE(job.value().at("steps").is_array());
      CHECK_FALSE(job.value().at("steps").empty());
      for (const json& step : job.value().at("steps")) {
        CHECK(step.at("name").is_string());
        CHECK(step.contains("uses") != step.contains("run"));
        if (step.contains("uses")) {
          CHECK(std::regex_match(step.at("uses").get<std::string>(),
                                 std::regex(R"re([\w.-]+/[\w.-]+@v[0-9]+)re")));
        }
      }
    }
  }
}

std::set<std::string> markers_of(const std::string& raw) {
  std::set<std::string> markers;
  const std::regex marker("@[A-Z_]+@");
  for (auto it = std::sregex_iterator(raw.begin(), raw.end(), marker); it != std::sregex_iterator();
       ++it) {
    markers.insert(it->str());
  }
  return markers;
}

TEST_CASE(
    "os modelos do autograding.yml e do classroom.yml só têm os marcadores que o ./hz export "
    "troca") {
  const std::string raw = read("course/export/autograding.yml");
  const std::set<std::string> markers = markers_of(raw);
  CHECK(markers == std::set<std::string>{"@STAGES@", "@TEMPLATE_REF@", "@TEMPLATE_REPO@"});
  // O GRADING.md exportado diz qual dos dois workflows a cópia tem.
  std::set<std::string> all = markers;
  all.insert("@WORKFLOW@");
  CHECK(markers_of(read("course/export/GRADING.md")) == std::set<std::string>{"@WORKFLOW@"});
  CHECK(hz_export_placeholders() == all);
  // Sem as trocas, não é YAML: um export que esquecesse uma delas falharia alto.
  CHECK(parse_yaml(raw).error != "");
  const std::string classroom = read("course/export/classroom.yml");
  CHECK(markers_of(classroom) == std::set<std::string>{"@TEMPLATE_REF@", "@TEMPLATE_REPO@"});
  CHECK(parse_yaml(classroom).error != "");
}

TEST_CASE("a correção roda no debian:12, uma etapa por job, e a CI na imagem do Dev Container") {
  const json autograding = parse_yaml(exported_autograding()).value;
  const json& job = autograding.at("jobs").at("etapa");
  CHECK(job.at("container") == "debian:12");
  json expected_stages = json::array();
  for (const std::string& s : stages()) expected_stages.push_back(s);
  CHECK(job.at("strategy").at("matrix").at("stage") == expected_stages);

  const json ci = parse_yaml(read(".github/workflows/ci.yml")).value;
  std::string scripts;  // um comando por linha, palavras separadas por um espaço
  for (const json& step : steps_of(ci)) {
    if (!step.contains("run")) continue;
    for (const auto& command : commands_of(step.at("run").get<std::string>())) {
      for (const std::string& word : command) scripts += word + " ";
      scripts += "\n";
    }
  }
  CHECK(std::regex_search(
      scripts, std::regex(R"re(docker build [^\n]*-t harness-zero-ci \.devcontainer \n)re")));
  CHECK(std::regex_search(scripts,
                          std::regex(R"re(docker run [^\n]* harness-zero-ci \.ci/run \n)re")));
}

TEST_CASE(
    "todo comando que os workflows rodam existe: arquivos do repositório e subcomandos do ./hz") {
  int checked = 0;
  for (const Workflow& w : workflows()) {
    for (const json& step : steps_of(w.doc)) {
      if (!step.contains("run")) continue;
      for (const auto& command : commands_of(step.at("run").get<std::string>())) {
        ++checked;
        std::string text;
        for (const std::string& word : command) text += (text.empty() ? "" : " ") + word;
        INFO(w.name << ": " << text);
        CHECK(command_problems(command) == std::vector<std::string>{});
      }
    }
  }
  CHECK(checked >= 6);
}

TEST_CASE(
    "a conferência de comandos acusa arquivo ausente, subcomando inventado e programa estranho") {
  CHECK(command_problems({".grader/hz", "corrige", "01-loop"}) ==
        std::vector<std::string>{"subcomando do ./hz que não existe: corrige"});
  CHECK(command_problems({".ci/nao-existe"}) ==
        std::vector<std::string>{"não existe no repositório: .ci/nao-existe"});
  CHECK(command_problems({"./README.md"}) ==
        std::vector<std::string>{"não é executável: ./README.md"});
  CHECK(command_problems({"curl", "https://exemplo.com"}) ==
        std::vector<std::string>{"comando desconhecido: curl"});
  CHECK(commands_of("if [[ \"$X\" == a ]]; then\n  echo \"x; y\" && exit 1\nfi\n") ==
        std::vector<std::vector<std::string>>{{"echo", "x; y"}, {"exit", "1"}});
  CHECK(commands_of("DEBIAN_FRONTEND=noninteractive apt-get install -y \\\n  a b\n") ==
        std::vector<std::vector<std::string>>{{"apt-get", "install", "-y", "a", "b"}});
}

TEST_CASE("os workflows instalam com apt-get exatamente os APT_PACKAGES do ./hz (mais git)") {
  const std::set<std::string> hz = as_set(hz_apt_packages());
  const std::set<std::string> extras = {"git", "ca-certificates"};
  int installs = 0;
  for (const Workflow& w : workflows()) {
    for (const json& step : steps_of(w.doc)) {
      if (!step.contains("run")) continue;
      for (const auto& command : commands_of(step.at("run").get<std::string>())) {
        const std::vector<std::string> packages = apt_install_packages(command);
        if (packages.empty()) continue;
        ++installs;
        INFO(w.name);
        std::set<std::string> rest = as_set(packages);
        for (const std::string& e : extras) rest.erase(e);
        CHECK(rest == hz);
        CHECK(as_set(packages).size() == packages.size());
      }
    }
  }
  // As duas correções instalam; a CI usa a imagem do Dockerfile (conferida acima).
  CHECK(installs == 2);
}

// ---------------------------------------------------- o workflow do Classroom

namespace {

struct Grader {
  std::string id;
  std::string stage;
  int max_score = 0;
};

// Os passos autograding-command-grader do classroom.yml, na ordem, e o
// reporter (o último passo); as falhas vão para o doctest.
std::vector<Grader> classroom_graders(json* reporter) {
  const json doc = parse_yaml(exported_classroom()).value;
  REQUIRE(doc.at("jobs").size() == 1);
  const json& job = doc.at("jobs").begin().value();
  CHECK(job.at("container") == "debian:12");
  CHECK(job.at("if") == "github.actor != 'github-classroom[bot]'");
  CHECK(doc.at("permissions").at("checks") == "write");
  CHECK(doc.at("permissions").at("actions") == "read");
  CHECK(doc.at("permissions").at("contents") == "read");
  std::vector<Grader> graders;
  const json& steps = job.at("steps");
  REQUIRE_FALSE(steps.empty());
  for (const json& step : steps) {
    if (!step.contains("uses")) continue;
    const std::string uses = step.at("uses");
    if (uses.rfind("classroom-resources/", 0) != 0) continue;
    if (uses == "classroom-resources/autograding-grading-reporter@v1") {
      *reporter = step;
      continue;
    }
    INFO("passo " << step.value("name", "?"));
    CHECK(uses == "classroom-resources/autograding-command-grader@v1");
    CHECK_MESSAGE(reporter->is_null(), "um passo de correção depois do reporter não conta");
    const json& with = step.at("with");
    Grader g;
    g.id = step.at("id");
    g.stage = with.at("test-name");
    CHECK(with.at("command") == ".grader/hz grade " + g.stage + " --student .");
    CHECK(command_problems(split_words(with.at("command"))) == std::vector<std::string>{});
    const std::string timeout = with.at("timeout");
    REQUIRE(std::regex_match(timeout, std::regex("[1-9][0-9]?")));
    CHECK(std::stoi(timeout) <= 60);  // o máximo do command-grader, em minutos
    const std::string score = with.at("max-score");
    REQUIRE(std::regex_match(score, std::regex("[1-9][0-9]*")));
    g.max_score = std::stoi(score);
    graders.push_back(g);
  }
  REQUIRE_FALSE(reporter->is_null());
  CHECK(steps.back() == *reporter);
  return graders;
}

// O ctest deste build, como --show-only=json-v1: os rótulos de cada teste.
hz::course::TestLabels ctest_labels() {
  const std::string command = std::string("\"") + HZ_CTEST_COMMAND + "\" --test-dir \"" +
                              HZ_BINARY_DIR + "\" --show-only=json-v1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  REQUIRE(pclose(pipe) == 0);
  hz::course::TestLabels labels = hz::course::parse_ctest_json(out);
  REQUIRE(labels.error == "");
  return labels;
}

}  // namespace

TEST_CASE(
    "o workflow do Classroom: um command-grader por etapa e o reporter lendo o resultado de cada "
    "um") {
  json reporter;
  const std::vector<Grader> graders = classroom_graders(&reporter);
  std::vector<std::string> graded;
  std::set<std::string> ids;
  std::string runners;
  json expected_env = json::object();
  for (const Grader& g : graders) {
    graded.push_back(g.stage);
    CHECK(ids.insert(g.id).second);
    CHECK(g.id == "etapa-" + g.stage);
    runners += (runners.empty() ? "" : ",") + g.id;
    std::string upper = g.id;
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    expected_env[upper + "_RESULTS"] = "${{ steps." + g.id + ".outputs.result }}";
  }
  CHECK(graded == stages());
  // O reporter acha o resultado de cada passo em <ID EM MAIÚSCULAS>_RESULTS.
  CHECK(reporter.at("env") == expected_env);
  CHECK(reporter.at("with").at("runners") == runners);
  CHECK(reporter.at("if") == "always()");
}

TEST_CASE("o workflow do Classroom dá a cada etapa tantos pontos quantos testes ela tem no ctest") {
  json reporter;
  const std::vector<Grader> graders = classroom_graders(&reporter);
  const hz::course::TestLabels labels = ctest_labels();
  int total = 0;
  int points = 0;
  for (const Grader& g : graders) {
    INFO("etapa " << g.stage);
    const int tests = hz::course::tests_with_label(labels, g.stage);
    REQUIRE(tests > 0);  // sem os testes da etapa no ctest, não há o que comparar
    CHECK(g.max_score == tests);
    total += tests;
    points += g.max_score;
  }
  CHECK(points == total);
}

// ------------------------------------------ Docker sem o Dev Container (README)

namespace {

// Os comandos "docker ..." dos blocos cercados de um documento.
std::vector<std::vector<std::string>> docker_commands(const std::string& doc) {
  std::vector<std::vector<std::string>> found;
  std::istringstream lines(doc);
  std::string block;
  bool fenced = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("```", 0) == 0) {
      if (fenced) {
        for (auto& c : commands_of(block)) {
          if (!c.empty() && c.front() == "docker") found.push_back(c);
        }
        block.clear();
      }
      fenced = !fenced;
    } else if (fenced) {
      block += line + "\n";
    }
  }
  return found;
}

// O valor de uma opção ("-t" -> "harness-zero"), ou "" sem ela.
std::string option(const std::vector<std::string>& command, const std::string& name) {
  const auto it = std::find(command.begin(), command.end(), name);
  return it != command.end() && std::next(it) != command.end() ? *std::next(it) : "";
}

}  // namespace

TEST_CASE("o README ensina docker build e docker run com o Dockerfile do Dev Container") {
  const std::vector<std::vector<std::string>> commands = docker_commands(read("README.md"));
  std::vector<std::string> build;
  std::vector<std::string> run;
  for (const auto& c : commands) {
    if (c.size() > 1 && c[1] == "build") build = c;
    if (c.size() > 1 && c[1] == "run") run = c;
  }
  REQUIRE_MESSAGE(!build.empty(), "o README não tem um docker build num bloco de código");
  REQUIRE_MESSAGE(!run.empty(), "o README não tem um docker run num bloco de código");

  // O contexto do build é a pasta do Dockerfile do Dev Container.
  const json config = json::parse(read(".devcontainer/devcontainer.json"), nullptr, false);
  REQUIRE_FALSE(config.is_discarded());
  const std::string context = build.back();
  CHECK(context == ".devcontainer");
  CHECK(fs::is_regular_file(kRoot / context /
                            config.at("build").at("dockerfile").get<std::string>()));
  CHECK(config.at("build").at("context") == ".");
  // Todo --build-arg é um ARG do Dockerfile.
  const std::string dockerfile = read(".devcontainer/Dockerfile");
  int build_args = 0;
  for (std::size_t i = 0; i + 1 < build.size(); ++i) {
    if (build[i] != "--build-arg") continue;
    ++build_args;
    const std::string name = build[i + 1].substr(0, build[i + 1].find('='));
    CHECK_MESSAGE(std::regex_search(dockerfile, std::regex("\nARG " + name + "=")),
                  "--build-arg " << name << " não é um ARG do Dockerfile");
  }
  CHECK(build_args == 2);

  // O run usa a imagem do build, monta a pasta atual onde trabalha e roda o ./hz.
  const std::string tag = option(build, "-t");
  REQUIRE_FALSE(tag.empty());
  const std::string volume = option(run, "-v");
  const std::string workdir = option(run, "-w");
  CHECK(volume == "$PWD:" + workdir);
  const auto image = std::find(run.begin(), run.end(), tag);
  REQUIRE_MESSAGE(image != run.end(), "o docker run não usa a imagem " << tag);
  const std::vector<std::string> inside(std::next(image), run.end());
  REQUIRE(inside.size() == 2);
  CHECK(inside[0] == "./hz");
  CHECK(hz_subcommands().count(inside[1]) == 1);
  // O contêiner trabalha na casa do usuário do Dockerfile.
  std::smatch user;
  REQUIRE(std::regex_search(dockerfile, user, std::regex("\nARG USERNAME=([a-z_][a-z0-9_-]*)\n")));
  CHECK(workdir.rfind("/home/" + user[1].str() + "/", 0) == 0);
}
