// Conferência de mantenedor (ctest -L maintainer): o CMakePresets.json é JSON
// estático e não sabe de etapas/stages.txt. Cada etapa listada precisa de um
// preset de teste por trilha (ctest --preset 01-loop, ctest --preset
// exercises-01-loop) que filtre pelo rótulo ancorado da etapa; sem esta
// conferência, uma etapa nova ficaria sem preset e ninguém perceberia.

#include <doctest/doctest.h>

#include "string_makers.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const fs::path kRoot = HZ_SOURCE_ROOT;

std::string read(const fs::path& rel) {
  std::ifstream in(kRoot / rel, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "não consegui ler " << rel.generic_string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// As etapas de etapas/stages.txt, como o CMake e o ./hz as leem.
std::vector<std::string> listed_stages(const std::string& text) {
  std::vector<std::string> stages;
  std::istringstream lines(text);
  const std::regex stage("^([0-9][0-9]-[a-z0-9-]+).*");
  std::smatch m;
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_match(line, m, stage)) stages.push_back(m[1].str());
  }
  return stages;
}

const json* find_preset(const json& presets, const std::string& kind, const std::string& name) {
  if (!presets.contains(kind)) return nullptr;
  for (const json& p : presets.at(kind)) {
    if (p.value("name", "") == name) return &p;
  }
  return nullptr;
}

// Um campo do preset ou, se ele não tem, do preset de que herda (como o CMake).
json inherited(const json& presets, const std::string& kind, const json& preset,
               const std::string& field, int depth = 0) {
  if (preset.contains(field)) return preset.at(field);
  if (depth > 8 || !preset.contains("inherits")) return nullptr;
  const json& parents = preset.at("inherits");
  std::vector<std::string> names;
  if (parents.is_string()) names.push_back(parents.get<std::string>());
  if (parents.is_array()) {
    for (const json& n : parents) names.push_back(n.get<std::string>());
  }
  for (const std::string& name : names) {
    if (const json* parent = find_preset(presets, kind, name)) {
      json value = inherited(presets, kind, *parent, field, depth + 1);
      if (!value.is_null()) return value;
    }
  }
  return nullptr;
}

// Os problemas dos presets de teste das etapas: um preset que falta, que
// aponta para a configuração errada ou que não filtra pelo rótulo ^ETAPA$.
std::vector<std::string> stage_preset_problems(const json& presets,
                                               const std::vector<std::string>& stages) {
  std::vector<std::string> problems;
  const std::vector<std::pair<std::string, std::string>> tracks = {{"", "default"},
                                                                   {"exercises-", "exercises"}};
  for (const std::string& stage : stages) {
    for (const auto& [prefix, configure] : tracks) {
      const std::string name = prefix + stage;
      const json* preset = find_preset(presets, "testPresets", name);
      if (preset == nullptr) {
        problems.push_back("falta o preset de teste \"" + name + "\" (etapa " + stage +
                           " de etapas/stages.txt)");
        continue;
      }
      const json configured = inherited(presets, "testPresets", *preset, "configurePreset");
      if (configured != configure) {
        problems.push_back("o preset de teste \"" + name + "\" deveria usar a configuração \"" +
                           configure + "\"");
      }
      const json filter = inherited(presets, "testPresets", *preset, "filter");
      const std::string label =
          filter.is_object() && filter.contains("include") && filter.at("include").contains("label")
              ? filter.at("include").at("label").get<std::string>()
              : "";
      if (label != "^" + stage + "$") {
        problems.push_back("o preset de teste \"" + name + "\" deveria filtrar pelo rótulo \"^" +
                           stage + "$\"");
      }
    }
  }
  return problems;
}

json presets_file() {
  const json presets = json::parse(read("CMakePresets.json"), nullptr, false);
  REQUIRE_FALSE(presets.is_discarded());
  return presets;
}

}  // namespace

TEST_CASE("toda etapa de etapas/stages.txt tem um preset de teste em cada trilha") {
  const std::vector<std::string> stages = listed_stages(read("etapas/stages.txt"));
  REQUIRE_FALSE(stages.empty());
  CHECK(stage_preset_problems(presets_file(), stages) == std::vector<std::string>{});
}

TEST_CASE("a conferência dos presets acusa etapa sem preset, configuração e rótulo errados") {
  const json presets = json::parse(R"({
    "testPresets": [
      {"name": "default", "configurePreset": "default"},
      {"name": "exercises", "configurePreset": "exercises"},
      {"name": "01-a", "inherits": "default", "filter": {"include": {"label": "01-a"}}},
      {"name": "exercises-01-a", "inherits": "default",
       "filter": {"include": {"label": "^01-a$"}}}
    ]})");
  CHECK(stage_preset_problems(presets, {"01-a", "02-b"}) ==
        std::vector<std::string>{
            "o preset de teste \"01-a\" deveria filtrar pelo rótulo \"^01-a$\"",
            "o preset de teste \"exercises-01-a\" deveria usar a configuração \"exercises\"",
            "falta o preset de teste \"02-b\" (etapa 02-b de etapas/stages.txt)",
            "falta o preset de teste \"exercises-02-b\" (etapa 02-b de etapas/stages.txt)"});
  CHECK(listed_stages("# comentário\n01-a\n02-b: x.cpp y.cpp\n\n") ==
        std::vector<std::string>{"01-a", "02-b"});
}

TEST_CASE("os presets de workflow configuram, compilam e testam cada trilha") {
  const json presets = presets_file();
  // Presets de workflow só existem a partir da versão 6 do formato (CMake 3.25).
  CHECK(presets.at("version").get<int>() >= 6);
  for (const std::string name : {"default", "exercises"}) {
    INFO("workflow " << name);
    const json* workflow = find_preset(presets, "workflowPresets", name);
    REQUIRE(workflow != nullptr);
    std::vector<std::string> steps;
    for (const json& step : workflow->at("steps")) {
      steps.push_back(step.at("type").get<std::string>() + " " +
                      step.at("name").get<std::string>());
    }
    CHECK(steps == std::vector<std::string>{"configure " + name, "build " + name, "test " + name});
    CHECK(find_preset(presets, "buildPresets", name) != nullptr);
    CHECK(find_preset(presets, "testPresets", name) != nullptr);
  }
}

TEST_CASE("todo \"ctest --preset\" e \"cmake --workflow --preset\" dos guias existe") {
  const json presets = presets_file();
  std::vector<fs::path> guides = {"README.md"};
  for (const auto& entry : fs::directory_iterator(kRoot / "etapas")) {
    if (fs::exists(entry.path() / "README.md")) {
      guides.push_back(fs::relative(entry.path() / "README.md", kRoot));
    }
  }
  for (const auto& entry : fs::directory_iterator(kRoot / "livro")) {
    if (entry.path().extension() == ".md") guides.push_back(fs::relative(entry.path(), kRoot));
  }
  const std::regex command(R"re((ctest|cmake --workflow) --preset[ =]([A-Za-z0-9_.-]+))re");
  int seen = 0;
  for (const fs::path& guide : guides) {
    const std::string text = read(guide);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), command);
         it != std::sregex_iterator(); ++it) {
      ++seen;
      const std::string kind = (*it)[1].str() == "ctest" ? "testPresets" : "workflowPresets";
      INFO(guide.generic_string() << ": " << it->str());
      CHECK(find_preset(presets, kind, (*it)[2].str()) != nullptr);
    }
  }
  CHECK(seen > 0);
}
