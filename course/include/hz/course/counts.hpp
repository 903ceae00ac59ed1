#pragma once

// Os números de testes que o livro dá ("(14 testes). Rode ./hz test
// 03-repetition-detector/canonical-json") conferidos com o ctest: num
// parágrafo que diz "N testes" e nomeia um rótulo, com `./hz test ROTULO` ou
// `-L '^ROTULO$'`, N é quantos testes têm esse rótulo. Um número que não diz
// de quê é um problema também: o texto não pode afirmar o que ninguém confere.

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "hz/course/progress.hpp"

namespace hz::course {

struct CountProblem {
  std::string where;    // "livro/04-journal.md:988"
  std::string message;  // "diz 3 testes; 04-journal/durable-write tem 4"
};

// Quantos testes de cada etapa passam com os stubs: as linhas de
// tests/ETAPA/passes-on-stubs.txt (a CI reprova a lista se uma delas não passa).
using StubPasses = std::map<std::string, int, std::less<>>;

// Confere um documento (o texto dele, mostrado como shown). Uma nota
// "ETAPA: P/T testes" (a que ./hz grade imprime) também é conferida: T é o
// número de testes da etapa, e P é 0, T ou quantos passam com os stubs.
std::vector<CountProblem> check_counts(std::string_view text, std::string_view shown,
                                       const TestLabels& labels,
                                       const StubPasses& stub_passes = {});

// Quantos testes têm o rótulo (e o da etapa dele: ETAPA/EXERCÍCIO conta só os
// testes rotulados também ETAPA).
int tests_with_label(const TestLabels& labels, std::string_view label);

}  // namespace hz::course
