#include "hz/course/catalog.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <regex>
#include <set>

#include "hz/course/lines.hpp"

namespace fs = std::filesystem;

namespace hz::course {
namespace {

std::string at(std::string_view path, int line, const std::string& message) {
  return std::string(path) + ":" + std::to_string(line) + ": " + message;
}

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// "1. texto": o número e o texto; -1 se a linha não abre um item (um número
// que não cabe num int também não abre: é uma linha inesperada, não uma exceção).
int list_item(std::string_view line, std::string_view& rest) {
  std::size_t n = 0;
  while (n < line.size() && line[n] >= '0' && line[n] <= '9') ++n;
  if (n == 0 || n + 1 >= line.size() || line[n] != '.' || line[n + 1] != ' ') return -1;
  int number = 0;
  if (std::from_chars(line.data(), line.data() + n, number).ec != std::errc()) return -1;
  rest = trim(line.substr(n + 2));
  return number;
}

}  // namespace

const StageInfo* StageList::find(std::string_view name) const {
  for (const StageInfo& s : stages) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::vector<std::string> StageList::up_to(std::string_view name) const {
  std::vector<std::string> out;
  for (const StageInfo& s : stages) {
    out.push_back(s.name);
    if (s.name == name) return out;
  }
  return {};
}

StageList parse_stage_list(std::string_view text, std::string_view shown_path) {
  static const std::regex kName("[0-9][0-9]-[a-z0-9]+(-[a-z0-9]+)*");
  StageList list;
  int number = 0;
  for (const std::string& raw : split_keep_eol(text)) {
    ++number;
    std::string_view line = body(raw);
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) {
      line = line.substr(0, hash);
    }
    line = trim(line);
    if (line.empty()) continue;
    const std::size_t colon = line.find(':');
    const std::string name(trim(line.substr(0, colon)));
    if (!std::regex_match(name, kName)) {
      list.error =
          at(shown_path, number,
             "nome de etapa inválido '" + name + "' (formato: NN-nome, com minúsculas e '-')");
      return list;
    }
    if (list.find(name) != nullptr) {
      list.error = at(shown_path, number, "etapa " + name + " repetida");
      return list;
    }
    if (!list.stages.empty() && name <= list.stages.back().name) {
      list.error =
          at(shown_path, number,
             "a etapa " + name + " vem depois de " + list.stages.back().name + ": fora de ordem");
      return list;
    }
    StageInfo stage{name, {}, number};
    if (colon != std::string_view::npos) stage.changes = words(line.substr(colon + 1));
    if (list.stages.empty() && !stage.changes.empty()) {
      list.error = at(shown_path, number,
                      "a primeira etapa não estende outra: ela não tem lista de mudanças");
      return list;
    }
    list.stages.push_back(std::move(stage));
  }
  if (list.stages.empty()) list.error = std::string(shown_path) + ": nenhuma etapa listada";
  return list;
}

StageList read_stage_list(const fs::path& root) {
  const std::optional<std::string> text = read_file(root / "etapas" / "stages.txt");
  if (!text) {
    StageList list;
    list.error = "não consegui ler " + (root / "etapas" / "stages.txt").generic_string();
    return list;
  }
  return parse_stage_list(*text, "etapas/stages.txt");
}

std::string ExerciseInfo::where() const { return chapter + ", \"" + section + "\""; }

const ExerciseInfo* Catalog::find(std::string_view id) const {
  for (const ExerciseInfo& e : exercises) {
    if (e.id == id) return &e;
  }
  return nullptr;
}

std::vector<const ExerciseInfo*> Catalog::of_stage(std::string_view stage) const {
  std::vector<const ExerciseInfo*> out;
  for (const ExerciseInfo& e : exercises) {
    if (e.stage == stage) out.push_back(&e);
  }
  return out;
}

Catalog parse_hints(std::string_view text, std::string_view shown_path, std::string_view stage) {
  Catalog catalog;
  const std::vector<std::string> lines = split_keep_eol(text);
  ExerciseInfo* current = nullptr;
  int current_line = 0;
  bool in_item = false;

  auto finish = [&]() {
    if (current == nullptr) return;
    const std::string where = at(shown_path, current_line, current->id + ": ");
    if (current->chapter.empty())
      catalog.errors.push_back(where + "falta a linha \"Capítulo: livro/NN-nome.md\"");
    if (current->section.empty())
      catalog.errors.push_back(where + "falta a linha \"Seção: <título exato>\"");
    if (current->hints.size() < 2) {
      catalog.errors.push_back(where +
                               "uma escada de dicas precisa de pelo menos 2 dicas "
                               "(itens \"1. ...\", \"2. ...\")");
    }
  };

  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int number = static_cast<int>(i) + 1;
    const std::string_view line = body(lines[i]);
    if (line.starts_with("## ")) {
      finish();
      const std::string id(trim(line.substr(3)));
      const std::size_t slash = id.find('/');
      if (slash == std::string::npos || id.substr(0, slash) != stage || slash + 1 == id.size() ||
          id.find(' ') != std::string::npos) {
        catalog.errors.push_back(at(shown_path, number,
                                    "título \"## " + id +
                                        "\": esperava o id de um exercício da "
                                        "etapa, como \"## " +
                                        std::string(stage) + "/nome\""));
        current = nullptr;
        continue;
      }
      if (catalog.find(id) != nullptr) {
        catalog.errors.push_back(at(shown_path, number, "exercício " + id + " repetido"));
        current = nullptr;
        continue;
      }
      catalog.exercises.push_back({id,
                                   std::string(stage),
                                   "",
                                   "",
                                   {},
                                   std::string(shown_path) + ":" + std::to_string(number)});
      current = &catalog.exercises.back();
      current_line = number;
      in_item = false;
      continue;
    }
    if (current == nullptr) continue;
    if (line.starts_with("Capítulo: ")) {
      current->chapter = std::string(trim(line.substr(std::string_view("Capítulo: ").size())));
      in_item = false;
      continue;
    }
    if (line.starts_with("Seção: ")) {
      current->section = std::string(trim(line.substr(std::string_view("Seção: ").size())));
      in_item = false;
      continue;
    }
    std::string_view rest;
    const int item = list_item(line, rest);
    if (item > 0) {
      if (item != static_cast<int>(current->hints.size()) + 1) {
        catalog.errors.push_back(at(shown_path, number,
                                    "dica " + std::to_string(item) + " fora de ordem (esperava " +
                                        std::to_string(current->hints.size() + 1) + ")"));
      }
      current->hints.emplace_back(rest);
      in_item = true;
      continue;
    }
    if (trim(line).empty()) {
      in_item = false;
      continue;
    }
    if (in_item && line.starts_with("   ")) {
      current->hints.back() += " " + std::string(trim(line));
      continue;
    }
    catalog.errors.push_back(at(shown_path, number,
                                "linha inesperada dentro de " + current->id +
                                    " (use Capítulo:, Seção: e dicas numeradas)"));
  }
  finish();
  return catalog;
}

Catalog read_catalog(const fs::path& root, const StageList& stages) {
  Catalog all;
  for (const StageInfo& s : stages.stages) {
    const fs::path file = root / "exercises" / s.name / "hints.md";
    const std::optional<std::string> text = read_file(file);
    if (!text) continue;
    Catalog one = parse_hints(*text, display_path(root, file), s.name);
    for (ExerciseInfo& e : one.exercises) all.exercises.push_back(std::move(e));
    for (std::string& e : one.errors) all.errors.push_back(std::move(e));
  }
  return all;
}

std::vector<std::string> check_sections(const fs::path& root, const Catalog& catalog) {
  std::vector<std::string> problems;
  std::map<std::string, std::set<std::string>> headings;  // capítulo -> títulos
  std::set<std::string> missing;                          // capítulos que não existem
  for (const ExerciseInfo& e : catalog.exercises) {
    if (e.chapter.empty() || e.section.empty()) continue;
    if (headings.count(e.chapter) == 0 && missing.count(e.chapter) == 0) {
      if (const std::optional<std::string> text = read_file(root / e.chapter)) {
        std::set<std::string>& titles = headings[e.chapter];
        bool fenced = false;
        for (const std::string& raw : split_keep_eol(*text)) {
          const std::string_view line = body(raw);
          if (line.starts_with("```")) fenced = !fenced;
          if (fenced || !line.starts_with("#")) continue;
          const std::size_t level = line.find_first_not_of('#');
          if (level == std::string_view::npos || line[level] != ' ') continue;
          titles.insert(std::string(trim(line.substr(level))));
        }
      } else {
        missing.insert(e.chapter);
      }
    }
    if (missing.count(e.chapter) > 0) {
      problems.push_back(e.source + ": " + e.id + ": o capítulo " + e.chapter + " não existe");
    } else if (headings[e.chapter].count(e.section) == 0) {
      problems.push_back(e.source + ": " + e.id + ": a seção \"" + e.section +
                         "\" não é um título de " + e.chapter);
    }
  }
  return problems;
}

}  // namespace hz::course
