#include "hz/course/stub_verdict.hpp"

#include <map>
#include <set>

#include "hz/course/lines.hpp"

namespace hz::course {

AllowList parse_allow_list(std::string_view text, std::string_view shown_path) {
  AllowList list;
  std::map<std::string, int> seen;
  int number = 0;
  for (const std::string& raw : split_keep_eol(text)) {
    ++number;
    const std::string_view line = trim(body(raw));
    if (line.empty() || line[0] == '#') continue;
    const std::string where = std::string(shown_path) + ":" + std::to_string(number) + ": ";
    const std::size_t bar = line.find('|');
    const std::string test(trim(line.substr(0, bar)));
    const std::string reason(bar == std::string_view::npos ? "" : trim(line.substr(bar + 1)));
    if (test.empty()) {
      list.error = where + "falta o nome do teste (formato: <nome do TEST_CASE> | <motivo>)";
      return list;
    }
    if (reason.empty()) {
      list.error =
          where + "falta o motivo de '" + test + "' (formato: <nome do TEST_CASE> | <motivo>)";
      return list;
    }
    const auto [it, fresh] = seen.emplace(test, number);
    if (!fresh) {
      list.error =
          where + "'" + test + "' repetido (já está na linha " + std::to_string(it->second) + ")";
      return list;
    }
    list.entries.push_back({test, reason, number});
  }
  return list;
}

bool is_stub_failure(const TestResult& t) {
  return t.output.find(" não implementado") != std::string::npos &&
         t.output.find("exercício ") != std::string::npos &&
         t.output.find("ERROR:") == std::string::npos;
}

Verdict judge_stubs(const std::vector<TestResult>& results, const AllowList& allow,
                    bool stub_failures_only) {
  Verdict v;
  std::set<std::string> allowed;
  for (const AllowEntry& e : allow.entries) allowed.insert(e.test);
  std::map<std::string, TestStatus> by_name;

  for (const TestResult& r : results) {
    by_name[r.name] = r.status;
    ++v.total;
    switch (r.status) {
      case TestStatus::failed:
        ++v.failing;
        if (stub_failures_only && !is_stub_failure(r)) {
          v.problems.push_back(
              "falha, mas não só pelo stub (o aluno leria \"testes falham\", e "
              "não \"ainda é o stub\"): " +
              r.name);
        }
        break;
      case TestStatus::passed:
        if (allowed.count(r.name) > 0) {
          ++v.allowed_passing;
        } else {
          v.problems.push_back("passa com o stub e não está na lista: " + r.name);
        }
        break;
      case TestStatus::not_run:
        // Um teste que nem rodou não prova nada sobre o stub: é o build que falhou.
        v.problems.push_back("não rodou (o teste foi compilado?): " + r.name);
        break;
    }
  }
  for (const AllowEntry& e : allow.entries) {
    const auto it = by_name.find(e.test);
    if (it == by_name.end()) {
      v.problems.push_back("está na lista mas não existe (tire da lista): " + e.test);
    } else if (it->second == TestStatus::failed) {
      v.problems.push_back("está na lista mas falha com o stub (tire da lista): " + e.test);
    }
  }
  if (v.total == 0) v.problems.push_back("nenhum teste no relatório: a etapa tem testes?");
  v.ok = v.problems.empty();
  return v;
}

}  // namespace hz::course
