// Budget: o teto da conversa e as fatias que um filho recebe. Cada teste
// pergunta remaining() ou exhausted(), as duas respostas do exercício.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "budget.hpp"
#include "helpers.hpp"

using hz::Budget;
using hz::Micros;

namespace {

// "600" ou "(sem teto)": o que sobra, como um CHECK mostra.
std::string left(const Budget& budget) {
  const std::optional<Micros> remaining = budget.remaining();
  return remaining ? std::to_string(*remaining) : std::string("(sem teto)");
}

}  // namespace

TEST_SUITE_BEGIN("02-brakes/budget");

TEST_CASE("sem teto o orçamento só conta o gasto") {
  Budget budget;
  budget.charge(500);
  CHECK(budget.spent() == 500);
  CHECK(left(budget) == "(sem teto)");
  CHECK_FALSE(budget.exhausted());
}

TEST_CASE("o orçamento acaba quando o gasto chega ao teto") {
  Budget budget(1000);
  CHECK(left(budget) == "1000");
  budget.charge(400);
  CHECK(left(budget) == "600");
  CHECK_FALSE(budget.exhausted());
  budget.charge(600);
  CHECK(left(budget) == "0");
  CHECK(budget.exhausted());
}

TEST_CASE("o que sobra nunca é negativo, mesmo quando uma chamada passa do teto") {
  Budget budget(1000);
  budget.charge(900);
  budget.charge(300);  // a última chamada custou mais do que sobrava
  CHECK(budget.spent() == 1200);
  CHECK(left(budget) == "0");
  CHECK(budget.exhausted());
}

TEST_CASE("gasto negativo é ignorado: dinheiro gasto não volta") {
  Budget budget(1000);
  budget.charge(700);
  budget.charge(-500);
  CHECK(budget.spent() == 700);
  CHECK(left(budget) == "300");
}

TEST_CASE("a fatia não passa do próprio teto e o gasto dela conta no pai") {
  Budget parent(1000);
  Budget child = parent.slice(300);
  CHECK(left(child) == "300");
  child.charge(300);
  CHECK(child.exhausted());
  CHECK(parent.spent() == 300);
  CHECK(left(parent) == "700");
  CHECK_FALSE(parent.exhausted());
}

TEST_CASE("o filho não gasta o que o pai não tem") {
  Budget parent(1000);
  parent.charge(800);
  Budget child = parent.slice(500);
  CHECK(left(child) == "200");
  child.charge(150);
  CHECK(parent.spent() == 950);
  CHECK(left(child) == "50");
  parent.charge(50);  // outro gasto do pai acaba com o que o filho tinha
  CHECK(left(child) == "0");
  CHECK(child.exhausted());
  CHECK(child.spent() == 150);
}

TEST_CASE("a fatia de um pai sem teto vale o próprio teto") {
  Budget parent;
  Budget child = parent.slice(300);
  CHECK(left(child) == "300");
  child.charge(100);
  CHECK(parent.spent() == 100);
  CHECK(left(parent) == "(sem teto)");
  CHECK(left(child) == "200");
}

TEST_CASE("o neto respeita o que sobra no avô") {
  Budget grandparent(1000);
  grandparent.charge(900);
  Budget parent = grandparent.slice(500);
  Budget child = parent.slice(400);
  CHECK(left(child) == "100");
  child.charge(100);
  CHECK(grandparent.spent() == 1000);
  CHECK(grandparent.exhausted());
  CHECK(parent.exhausted());
  CHECK(child.exhausted());
}

TEST_SUITE_END();
