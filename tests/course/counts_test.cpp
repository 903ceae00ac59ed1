// hz-course counts: os "N testes" do livro conferidos com os rótulos do ctest.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "hz/course/counts.hpp"

using hz::course::check_counts;
using hz::course::CountProblem;
using hz::course::TestLabels;
using hz::course::tests_with_label;

namespace {

// Três testes do exercício 01-a/soma, um de 01-a/dobro, e uma cópia de
// 01-a/soma contra o núcleo da etapa 02-b (o rótulo da etapa é o da seguinte).
TestLabels sample_labels() {
  TestLabels t;
  t.labels["s1"] = {"01-a", "01-a/soma"};
  t.labels["s2"] = {"01-a", "01-a/soma"};
  t.labels["s3"] = {"01-a", "01-a/soma"};
  t.labels["d1"] = {"01-a", "01-a/dobro"};
  t.labels["[01-a] s1"] = {"02-b", "earlier-stages", "01-a/soma"};
  return t;
}

std::vector<std::string> messages(const std::vector<CountProblem>& problems) {
  std::vector<std::string> out;
  for (const CountProblem& p : problems) out.push_back(p.where + ": " + p.message);
  return out;
}

}  // namespace

TEST_CASE("tests_with_label conta só os testes da etapa do exercício, sem as cópias") {
  const TestLabels labels = sample_labels();
  CHECK(tests_with_label(labels, "01-a/soma") == 3);
  CHECK(tests_with_label(labels, "01-a") == 4);
  CHECK(tests_with_label(labels, "02-b") == 0);
  CHECK(tests_with_label(labels, "01-a/nada") == 0);
}

TEST_CASE("counts: o número certo passa; o errado diz a linha, o número e o real") {
  const TestLabels labels = sample_labels();
  const std::string ok =
      "Testes: `soma_test.cpp` (3 testes), inclusive o zero. Rode\n`./hz test 01-a/soma`.\n";
  CHECK(messages(check_counts(ok, "livro/01-a.md", labels)).empty());
  const std::string wrong =
      "# Título\n\nTestes: `soma_test.cpp` (2 testes). Rode\n"
      "`./hz test 01-a/soma`.\n\nOs 4 testes da etapa (`-L '^01-a$'`).\n";
  CHECK(messages(check_counts(wrong, "livro/01-a.md", labels)) ==
        std::vector<std::string>{"livro/01-a.md:3: diz 2 testes; 01-a/soma tem 3"});
}

TEST_CASE("counts: um número sem rótulo, ou com dois, é um problema; blocos cercados não contam") {
  const TestLabels labels = sample_labels();
  const std::string text =
      "A suíte tem 900 testes.\n\n"
      "Os 3 testes de `./hz test 01-a/soma` e de `./hz test 01-a/dobro`.\n\n"
      "```\n// 12 testes num comentário de listagem\n```\n\n"
      "Um teste só, e 1 teste de `./hz test 01-a/dobro`; 2026 testemunhas não contam.\n";
  CHECK(messages(check_counts(text, "x.md", labels)) ==
        std::vector<std::string>{
            "x.md:1: diz 900 testes, mas o parágrafo precisa nomear exatamente um rótulo "
            "(./hz test ETAPA/EXERCÍCIO ou -L '^ROTULO$') para o número ser conferido; nomeia 0",
            "x.md:3: diz 3 testes, mas o parágrafo precisa nomear exatamente um rótulo "
            "(./hz test ETAPA/EXERCÍCIO ou -L '^ROTULO$') para o número ser conferido; nomeia 2"});
}

TEST_CASE("counts: a nota ETAPA: P/T confere T com o ctest e P com 0, T ou os stubs") {
  const TestLabels labels = sample_labels();
  const hz::course::StubPasses stubs = {{"01-a", 1}};
  const std::string text =
      "Com os stubs, algo como `01-a: 1/4 testes passando`; completo, `01-a: 4/4 testes`.\n\n"
      "Antes, `01-a: 0/4 testes passando`.\n\n"
      "Errado: `01-a: 2/4 testes passando` e `01-a: 4/5 testes passando`.\n";
  CHECK(messages(check_counts(text, "GRADING.md", labels, stubs)) ==
        std::vector<std::string>{
            "GRADING.md:5: diz 01-a: 2/4 testes; os números possíveis são 0/4, 1/4 (só os "
            "stubs: tests/01-a/passes-on-stubs.txt) e 4/4",
            "GRADING.md:5: diz 01-a: 4/5 testes; 01-a tem 4 testes"});
  // Sem a lista dos stubs, só 0 e T valem.
  CHECK(
      messages(check_counts("`01-a: 1/4 testes`\n", "x.md", labels)) ==
      std::vector<std::string>{"x.md:1: diz 01-a: 1/4 testes; os números possíveis são 0/4 e 4/4"});
}
