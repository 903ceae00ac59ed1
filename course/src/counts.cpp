#include "hz/course/counts.hpp"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>

#include "hz/course/lines.hpp"

namespace hz::course {
namespace {

bool label_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '/' || c == '_';
}

// Os rótulos que o parágrafo nomeia: `./hz test X` e -L '^X$'.
std::set<std::string> named_labels(const std::string& text) {
  std::set<std::string> found;
  for (const std::string_view prefix : {std::string_view("./hz test "), std::string_view("'^")}) {
    for (std::size_t at = text.find(prefix); at != std::string::npos;
         at = text.find(prefix, at + 1)) {
      std::size_t end = at + prefix.size();
      while (end < text.size() && label_char(text[end])) ++end;
      std::string label = text.substr(at + prefix.size(), end - at - prefix.size());
      if (prefix == "'^" && text.compare(end, 2, "$'") != 0) continue;
      if (!label.empty() && std::isdigit(static_cast<unsigned char>(label[0]))) {
        found.insert(std::move(label));
      }
    }
  }
  return found;
}

// Os "N testes" do parágrafo (N em algarismos), na ordem.
std::vector<int> stated_counts(const std::string& text) {
  std::vector<int> counts;
  for (std::size_t at = text.find(" teste"); at != std::string::npos;
       at = text.find(" teste", at + 1)) {
    std::size_t start = at;
    while (start > 0 && std::isdigit(static_cast<unsigned char>(text[start - 1]))) --start;
    if (start == at || at - start > 6) continue;
    if (start > 0 && (std::isalnum(static_cast<unsigned char>(text[start - 1])) ||
                      text[start - 1] == '.' || text[start - 1] == ',')) {
      continue;
    }
    const std::size_t after = at + 6;
    if (after < text.size() && text[after] != 's' && label_char(text[after])) continue;
    counts.push_back(std::stoi(text.substr(start, at - start)));
  }
  return counts;
}

}  // namespace

int tests_with_label(const TestLabels& labels, std::string_view label) {
  // Um exercício conta só os testes da etapa dele, e uma etapa só os seus: no
  // build de quem mantém o curso, as cópias contra os núcleos seguintes levam
  // o rótulo do exercício, o da etapa seguinte e earlier-stages. O aluno não
  // as tem.
  const std::string_view stage = label.substr(0, label.find('/'));
  return static_cast<int>(
      std::count_if(labels.labels.begin(), labels.labels.end(), [&](const auto& entry) {
        const auto has = [&](std::string_view l) {
          return std::find(entry.second.begin(), entry.second.end(), l) != entry.second.end();
        };
        return has(label) && has(stage) && !has("earlier-stages");
      }));
}

std::vector<CountProblem> check_counts(std::string_view text, std::string_view shown,
                                       const TestLabels& labels, const StubPasses& stub_passes) {
  std::vector<CountProblem> problems;
  static const std::regex figure(R"re(([0-9][0-9]-[a-z0-9-]+): ([0-9]+)/([0-9]+) testes)re");
  // Parágrafos fora dos blocos cercados: uma listagem pode ter "N testes" num
  // comentário, e o que ela diz as listagens já conferem.
  for (ProseParagraph p : prose_paragraphs(text)) {
    const std::string where_figure = std::string(shown) + ":" + std::to_string(p.first_line());
    for (auto it = std::sregex_iterator(p.text.begin(), p.text.end(), figure);
         it != std::sregex_iterator(); ++it) {
      const std::string stage = (*it)[1].str();
      const int passing = std::stoi((*it)[2].str());
      const int total = std::stoi((*it)[3].str());
      const int real = tests_with_label(labels, stage);
      const auto stub = stub_passes.find(stage);
      const bool stub_ok = stub != stub_passes.end() && passing == stub->second;
      if (total != real) {
        problems.push_back({where_figure, "diz " + it->str() + "; " + stage + " tem " +
                                              std::to_string(real) + " testes"});
      } else if (passing != 0 && passing != total && !stub_ok) {
        problems.push_back(
            {where_figure,
             "diz " + it->str() + "; os números possíveis são 0/" + std::to_string(real) +
                 (stub == stub_passes.end()
                      ? std::string(" e ")
                      : ", " + std::to_string(stub->second) + "/" + std::to_string(real) +
                            " (só os stubs: tests/" + stage + "/passes-on-stubs.txt) e ") +
                 std::to_string(real) + "/" + std::to_string(real)});
      }
    }
    // A nota já foi conferida: o "T testes" dela não é um número solto.
    p.text = std::regex_replace(p.text, figure, "$1: (nota)");
    const std::vector<int> counts = stated_counts(p.text);
    if (counts.empty()) continue;
    const std::string where = std::string(shown) + ":" + std::to_string(p.first_line());
    const std::set<std::string> named = named_labels(p.text);
    if (named.size() != 1) {
      problems.push_back(
          {where, "diz " + std::to_string(counts.front()) +
                      " testes, mas o parágrafo precisa nomear exatamente um rótulo (./hz test "
                      "ETAPA/EXERCÍCIO ou -L '^ROTULO$') para o número ser conferido; nomeia " +
                      std::to_string(named.size())});
      continue;
    }
    const std::string& label = *named.begin();
    const int real = tests_with_label(labels, label);
    for (const int stated : counts) {
      if (stated != real) {
        problems.push_back({where, "diz " + std::to_string(stated) + " testes; " + label + " tem " +
                                       std::to_string(real)});
      }
    }
  }
  return problems;
}

}  // namespace hz::course
