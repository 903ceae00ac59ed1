#include "hz/course/progress.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

#include "hz/course/stub_verdict.hpp"
#include "hz/text.hpp"
#include "hz/trace_words.hpp"

namespace hz::course {
namespace {

using hz::words::plural;

}  // namespace

TestLabels parse_ctest_json(std::string_view text) {
  TestLabels out;
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  if (!json.is_object() || !json.contains("tests") || !json["tests"].is_array()) {
    out.error = "não é a saída de ctest --show-only=json-v1";
    return out;
  }
  // Um arquivo truncado ou de outra versão não derruba o relatório: o que não
  // tem a forma esperada fica de fora.
  for (const nlohmann::json& test : json["tests"]) {
    if (!test.is_object() || !test.contains("name") || !test["name"].is_string()) continue;
    std::vector<std::string>& labels = out.labels[test["name"].get<std::string>()];
    const nlohmann::json properties = test.value("properties", nlohmann::json::array());
    if (!properties.is_array()) continue;
    for (const nlohmann::json& property : properties) {
      if (!property.is_object() || property.value("name", nlohmann::json()) != "LABELS" ||
          !property.contains("value")) {
        continue;
      }
      for (const nlohmann::json& label : property["value"]) {
        if (label.is_string()) labels.push_back(label.get<std::string>());
      }
    }
  }
  return out;
}

int StageProgress::done() const {
  return static_cast<int>(std::count_if(exercises.begin(), exercises.end(), [](const auto& e) {
    return e.state == ExerciseState::done;
  }));
}

const ExerciseProgress* StageProgress::next() const {
  for (const ExerciseProgress& e : exercises) {
    if (e.state != ExerciseState::done) return &e;
  }
  return nullptr;
}

StageProgress stage_progress(std::string_view stage, const Catalog& catalog,
                             const JunitReport& report, const TestLabels& labels) {
  StageProgress progress;
  progress.stage = std::string(stage);
  for (const ExerciseInfo* info : catalog.of_stage(stage)) {
    ExerciseProgress e;
    e.info = info;
    bool real_failure = false;
    for (const TestResult& t : report.tests) {
      const auto it = labels.labels.find(t.name);
      if (it == labels.labels.end() ||
          std::find(it->second.begin(), it->second.end(), info->id) == it->second.end()) {
        continue;
      }
      ++e.total;
      if (t.status == TestStatus::passed) {
        ++e.passed;
      } else if (!is_stub_failure(t)) {
        real_failure = true;
        e.failures.push_back(&t);
      }
    }
    if (e.total == 0) {
      e.state = ExerciseState::no_tests;
    } else if (e.passed == e.total) {
      e.state = ExerciseState::done;
    } else {
      e.state = real_failure ? ExerciseState::failing : ExerciseState::not_started;
    }
    progress.exercises.push_back(std::move(e));
  }
  for (const TestResult& t : report.tests) {
    const auto it = labels.labels.find(t.name);
    if (it != labels.labels.end() &&
        std::find(it->second.begin(), it->second.end(), stage) == it->second.end()) {
      continue;  // um teste de outra etapa no mesmo relatório
    }
    ++progress.total;
    if (t.status == TestStatus::passed) ++progress.passed;
    const bool of_exercise =
        it != labels.labels.end() &&
        std::any_of(it->second.begin(), it->second.end(), [&catalog, stage](const auto& label) {
          const ExerciseInfo* info = catalog.find(label);
          return info != nullptr && info->stage == stage;
        });
    if (of_exercise) continue;
    ++progress.other_total;
    if (t.status == TestStatus::passed) {
      ++progress.other_passed;
    } else {
      progress.other_failures.push_back(&t);
    }
  }
  return progress;
}

std::string progress_line(const StageProgress& p) {
  std::string line = p.stage + ": ";
  if (!p.exercises.empty()) {
    line += std::to_string(p.done()) + " de " +
            plural(static_cast<int>(p.exercises.size()), "exercício feito", "exercícios feitos") +
            " · ";
  }
  return line + std::to_string(p.passed) + "/" + std::to_string(p.total) + " testes passando";
}

std::string next_step_line(const StageProgress& p) {
  const ExerciseProgress* next = p.next();
  if (next == nullptr) {
    if (p.total > 0 && p.passed < p.total) {
      return "Próximo: os exercícios passam, mas há testes da etapa falhando (veja acima: " +
             std::string("./hz test ") + p.stage + ")";
    }
    return "Etapa " + p.stage + " completa.";
  }
  if (next->state == ExerciseState::no_tests) {
    return "Próximo: " + next->info->id +
           " não tem testes neste relatório (o build da etapa passou?)";
  }
  return "Próximo: " + next->info->id + " — leia " + next->info->where() +
         "; teste com ./hz test " + next->info->id + " (dica: ./hz hint " + next->info->id + ")";
}

namespace {

// Uma falha sem nenhuma saída: o doctest escreve sempre alguma coisa quando um
// teste falha, até num crash, então o processo foi parado de fora. Quase
// sempre pelo tempo-limite de cada caso (HZ_TEST_TIMEOUT), de um laço que não
// termina; e o ctest não põe isso no relatório JUnit.
std::string silent_failure(const TestResult& t) {
  if (t.seconds >= 10) {
    return "  o teste não escreveu nada e foi parado depois de " +
           std::to_string(std::lround(t.seconds)) +
           " s: passou do tempo-limite de um caso de teste (um laço que não termina?)\n";
  }
  const long tenths = std::lround(t.seconds * 10);
  return "  o teste não escreveu nada: o processo parou depois de " + std::to_string(tenths / 10) +
         "," + std::to_string(tenths % 10) + " s, antes do relatório do doctest\n";
}

// "── nome" e a saída de cada falha, até max; depois, quantas ficaram de fora.
void render_failures(std::ostringstream& out, const std::vector<const TestResult*>& failures,
                     std::size_t max, const std::string& rerun) {
  std::size_t shown = 0;
  for (const TestResult* t : failures) {
    if (shown++ == max) {
      out << "(e mais " << failures.size() - max << ": ./hz test " << rerun << " mostra todas)\n";
      break;
    }
    out << "── " << t->name << "\n" << t->output;
    if (!t->output.empty() && t->output.back() != '\n') out << "\n";
    if (t->output.empty() && t->status == TestStatus::failed) out << silent_failure(*t);
  }
}

constexpr std::string_view kOthers = "sem exercício";

}  // namespace

std::string render_stage_report(const StageProgress& p, std::size_t max_failures) {
  std::ostringstream out;
  out << progress_line(p) << "\n";
  std::size_t width = p.other_total > 0 ? utf8_length(kOthers) : 0;
  for (const ExerciseProgress& e : p.exercises) width = std::max(width, utf8_length(e.info->id));
  // O alinhamento conta caracteres, não bytes ("exercício" tem um de dois bytes).
  const auto pad = [width](std::string_view text) {
    return std::string(text) + std::string(width - utf8_length(text), ' ');
  };
  const ExerciseProgress* first_failing = nullptr;
  for (const ExerciseProgress& e : p.exercises) {
    const char* mark = "✗";
    std::string note;
    switch (e.state) {
      case ExerciseState::done:
        mark = "✓";
        break;
      case ExerciseState::not_started:
        mark = "·";
        note = "  ainda é o stub";
        break;
      case ExerciseState::failing:
        note = "  " + plural(static_cast<int>(e.failures.size()), "teste falha", "testes falham");
        if (first_failing == nullptr) first_failing = &e;
        break;
      case ExerciseState::no_tests:
        note = "  nenhum teste rodou";
        break;
    }
    out << "  " << mark << " " << pad(e.info->id) << "  " << e.passed << "/" << e.total << note
        << "\n";
  }
  if (p.other_total > 0) {
    const bool ok = p.other_failures.empty();
    out << "  " << (ok ? "✓" : "✗") << " " << pad(kOthers) << "  " << p.other_passed << "/"
        << p.other_total;
    if (!ok) {
      out << "  "
          << plural(static_cast<int>(p.other_failures.size()), "teste falha", "testes falham");
    }
    out << "\n";
  }
  if (first_failing != nullptr) {
    out << "\nFalhas de " << first_failing->info->id << ":\n";
    render_failures(out, first_failing->failures, max_failures, first_failing->info->id);
  } else if (p.next() == nullptr && !p.other_failures.empty()) {
    // Com um exercício por fazer, estes falham também pelo stub dele: só depois.
    out << "\nFalhas dos testes " << kOthers << ":\n";
    render_failures(out, p.other_failures, max_failures, p.stage);
  }
  out << next_step_line(p) << "\n";
  return out.str();
}

}  // namespace hz::course
