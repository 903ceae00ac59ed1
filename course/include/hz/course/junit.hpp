#pragma once

// Leitura do relatório JUnit que o ctest escreve com --output-junit, pelo pugixml.
// Só o que importa: nome de cada teste, se passou, quanto levou e o que ele escreveu.

#include <string>
#include <string_view>
#include <vector>

namespace hz::course {

enum class TestStatus { passed, failed, not_run };

struct TestResult {
  std::string name;
  TestStatus status;
  std::string output;  // o <system-out> do teste (o ctest guarda a saída de cada um)
  double seconds = 0;  // o atributo time (0 se não há)
};

struct JunitReport {
  std::vector<TestResult> tests;
  std::string error;  // vazio se o XML foi entendido
};

JunitReport parse_junit(std::string_view xml);

// Quantos testes do relatório passaram, de quantos. Serve ao progresso do
// aluno (./hz progress) e à correção (./hz grade): a mesma conta nos dois.
struct Score {
  int passed = 0;
  int total = 0;
};
Score score(const JunitReport& report);

// "01-loop: 7/44 testes passando"
std::string score_line(std::string_view stage, const Score& s);

}  // namespace hz::course
