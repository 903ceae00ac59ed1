#pragma once

// O julgamento "os testes falham com os stubs": cada teste da etapa precisa
// falhar na trilha de exercícios, salvo os listados (com motivo) em
// tests/NN/passes-on-stubs.txt. Uma linha da lista que não confere mais
// (o teste falha, ou nem existe) também reprova: a lista não pode apodrecer.

#include <string>
#include <string_view>
#include <vector>

#include "hz/course/junit.hpp"

namespace hz::course {

struct AllowEntry {
  std::string test;
  std::string reason;
  int line = 0;
};

struct AllowList {
  std::vector<AllowEntry> entries;
  std::string error;  // "arquivo:linha: mensagem"
};

// Formato: "<nome exato do TEST_CASE> | <motivo>"; '#' inicia comentário.
AllowList parse_allow_list(std::string_view text, std::string_view shown_path);

struct Verdict {
  bool ok = false;
  int total = 0;
  int failing = 0;
  int allowed_passing = 0;
  std::vector<std::string> problems;  // linhas prontas para imprimir
};

// A falha de t é só a do stub ("exercício ... não implementado", sem outro
// CHECK falhando antes nem um crash): é o que ./hz test e ./hz progress
// mostram como "ainda é o stub".
bool is_stub_failure(const TestResult& t);

// Com stub_failures_only, um teste que falha por outra coisa que o stub também
// reprova: o aluno que ainda não começou leria "N testes falham".
Verdict judge_stubs(const std::vector<TestResult>& results, const AllowList& allow,
                    bool stub_failures_only = false);

}  // namespace hz::course
