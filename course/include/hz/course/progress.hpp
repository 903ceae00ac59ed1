#pragma once

// O progresso do aluno: de relatórios do ctest para "o que já está feito e o
// que fazer agora", exercício por exercício.
//
// Os testes de um exercício têm o rótulo do seu id (TEST_SUITE("01-loop/loop"):
// veja cmake/HzTests.cmake); `ctest --show-only=json-v1` dá os rótulos de cada
// teste e `ctest --output-junit` dá o resultado e a saída de cada um.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "hz/course/catalog.hpp"
#include "hz/course/junit.hpp"

namespace hz::course {

// nome do teste -> rótulos, lido da saída de ctest --show-only=json-v1.
struct TestLabels {
  std::map<std::string, std::vector<std::string>> labels;
  std::string error;
};
TestLabels parse_ctest_json(std::string_view json);

enum class ExerciseState {
  done,         // todos os testes do exercício passam
  not_started,  // os testes que falham, falham só porque o stub lança NotImplemented
  failing,      // há testes falhando de verdade (o aluno está no meio)
  no_tests,     // nenhum teste do exercício rodou (não compilou? rótulo errado?)
};

struct ExerciseProgress {
  const ExerciseInfo* info = nullptr;
  ExerciseState state = ExerciseState::no_tests;
  int passed = 0;
  int total = 0;
  std::vector<const TestResult*> failures;  // os que falham de verdade, na ordem do relatório
};

struct StageProgress {
  std::string stage;
  std::vector<ExerciseProgress> exercises;  // na ordem do hints.md
  int passed = 0;                           // todos os testes da etapa
  int total = 0;
  // Os testes da etapa sem o rótulo de nenhum exercício dela (os de ponta a
  // ponta, contra o executável): quantos passam e os que falham.
  int other_passed = 0;
  int other_total = 0;
  std::vector<const TestResult*> other_failures;
  int done() const;
  // O primeiro exercício que não está feito (nullptr: todos feitos).
  const ExerciseProgress* next() const;
};

StageProgress stage_progress(std::string_view stage, const Catalog& catalog,
                             const JunitReport& report, const TestLabels& labels);

// "✗ 01-loop/dispatch  2/14 testes" e companhia: o resumo de uma etapa (os
// testes sem exercício numa linha própria), as falhas de verdade do primeiro
// exercício com falhas (o relatório do doctest, com os dois lados de cada
// comparação) ou, com todos os exercícios feitos, as dos testes sem exercício,
// e o próximo passo.
std::string render_stage_report(const StageProgress& progress, std::size_t max_failures = 3);

// "01-loop: 3 de 7 exercícios feitos · 21/49 testes passando"
std::string progress_line(const StageProgress& progress);

// O que fazer agora, em uma linha ("Próximo: ...").
std::string next_step_line(const StageProgress& progress);

}  // namespace hz::course
