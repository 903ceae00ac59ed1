#include "hz/course/stage_diff.hpp"

#include <algorithm>
#include <set>
#include <string_view>
#include <utility>

#include "hz/course/lines.hpp"
#include "hz/course/listings.hpp"

namespace fs = std::filesystem;

namespace hz::course {
namespace {

// As dicas (./hz hint) moram em exercises/NN/hints.md, ao lado do código; o
// diff do livro é do código e não as mostra, nem na cópia dos alunos, que o
// faz a partir de exercises/.
constexpr std::string_view kHints = "hints.md";

std::set<std::string> files_under(const fs::path& dir) {
  std::set<std::string> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator();
       ++it) {
    if (!it->is_regular_file()) continue;
    std::string rel = it->path().lexically_relative(dir).generic_string();
    if (rel != kHints) out.insert(std::move(rel));
  }
  return out;
}

std::vector<std::string> line_bodies(const std::optional<std::string>& text) {
  std::vector<std::string> out;
  if (!text) return out;
  for (const std::string& line : split_keep_eol(*text)) out.emplace_back(body(line));
  return out;
}

}  // namespace

std::string stage_diff(const fs::path& root, const std::string& tree, const std::string& previous,
                       const std::string& stage, std::vector<std::string>* changed) {
  const fs::path a_dir = root / tree / previous;
  const fs::path b_dir = root / tree / stage;
  std::set<std::string> all = files_under(a_dir);
  for (const std::string& f : files_under(b_dir)) all.insert(f);
  std::string out;
  for (const std::string& rel : all) {
    const std::optional<std::string> a = read_file(a_dir / rel);
    const std::optional<std::string> b = read_file(b_dir / rel);
    if (a && b && *a == *b) continue;
    if (changed != nullptr) changed->push_back(rel);
    const std::string a_name = a ? tree + "/" + previous + "/" + rel : "/dev/null";
    const std::string b_name = b ? tree + "/" + stage + "/" + rel : "/dev/null";
    out += "diff -ru " + tree + "/" + previous + "/" + rel + " " + tree + "/" + stage + "/" + rel +
           "\n";
    out += "--- " + a_name + "\n+++ " + b_name + "\n";
    for (const std::string& line : unified_diff(line_bodies(a), line_bodies(b))) out += line + "\n";
  }
  return out;
}

ChainReport check_stage_chain(const fs::path& root, const StageList& stages, bool update,
                              const std::string& tree) {
  ChainReport report;
  std::error_code ec;
  for (std::size_t i = 1; i < stages.stages.size(); ++i) {
    const StageInfo& previous = stages.stages[i - 1];
    const StageInfo& stage = stages.stages[i];
    if (!fs::is_directory(root / tree / stage.name, ec) ||
        !fs::is_directory(root / tree / previous.name, ec)) {
      continue;
    }
    ++report.pairs;
    // O manifesto: só os arquivos listados podem diferir da etapa anterior.
    if (fs::is_directory(root / "solutions" / stage.name, ec)) {
      std::vector<std::string> changed;
      stage_diff(root, "solutions", previous.name, stage.name, &changed);
      for (const std::string& rel : changed) {
        if (std::find(stage.changes.begin(), stage.changes.end(), rel) == stage.changes.end()) {
          report.problems.push_back(
              "solutions/" + stage.name + "/" + rel + " difere de solutions/" + previous.name +
              "/" + rel + ", mas etapas/stages.txt não o lista entre as mudanças de " + stage.name +
              " (uma correção feita numa etapa vai para as seguintes com "
              "./hz propagate " +
              previous.name + ")");
        }
      }
      for (const std::string& rel : stage.changes) {
        if (std::find(changed.begin(), changed.end(), rel) == changed.end()) {
          report.problems.push_back("etapas/stages.txt:" + std::to_string(stage.line) + ": " +
                                    stage.name + " lista " + rel + ", que não difere de " +
                                    previous.name + " (tire da lista)");
        }
      }
    }
    const fs::path diff_path = root / "livro" / "diffs" / (stage.name + ".diff");
    const std::string wanted = stage_diff(root, tree, previous.name, stage.name);
    const std::optional<std::string> current = read_file(diff_path);
    if (current && *current == wanted) continue;
    if (update) {
      fs::create_directories(diff_path.parent_path());
      if (!write_file(diff_path, wanted)) {
        report.problems.push_back(display_path(root, diff_path) + ": não consegui escrever");
      } else {
        report.diffs_written.push_back(display_path(root, diff_path));
      }
    } else {
      report.problems.push_back(display_path(root, diff_path) + (current ? " não é" : " falta: é") +
                                " o diff de " + tree + "/" + previous.name + " para " + tree + "/" +
                                stage.name + " (rode ./hz stages --update)");
    }
  }
  return report;
}

}  // namespace hz::course
