// call_cost: o custo de uma chamada em micro-dólares inteiros, pelo preço por
// milhão de tokens, arredondado para cima e sem estourar.
#include <doctest/doctest.h>

#include "helpers.hpp"
#include "money.hpp"

using hz::Micros;
using hz::Prices;
using hz::Usage;
using hz::test02::prices;
using hz::test02::usd;

namespace {

Usage tokens(long prompt, long completion) {
  Usage usage;
  usage.prompt_tokens = prompt;
  usage.completion_tokens = completion;
  usage.reported = true;
  return usage;
}

}  // namespace

TEST_SUITE_BEGIN("02-brakes/call-cost");

TEST_CASE("call_cost cobra entrada e saída, cada uma pelo seu preço por milhão") {
  // 1000 × US$ 2,50 / 1 milhão = US$ 0,0025; 500 × US$ 10 / 1 milhão = US$ 0,005.
  const Prices gpt4o = prices("2.50", "10.00");
  CHECK(usd(hz::call_cost(tokens(1000, 0), gpt4o)) == usd(2'500));
  CHECK(usd(hz::call_cost(tokens(0, 500), gpt4o)) == usd(5'000));
  CHECK(usd(hz::call_cost(tokens(1000, 500), gpt4o)) == usd(7'500));
  CHECK(usd(hz::call_cost(tokens(1'000'000, 1'000'000), gpt4o)) == usd(12'500'000));
}

TEST_CASE("call_cost arredonda para cima, nunca para baixo") {
  const Prices mini = prices("0.15", "0.60");
  CHECK(usd(hz::call_cost(tokens(1, 0), mini)) == usd(1));   // 0,15 micro-dólar
  CHECK(usd(hz::call_cost(tokens(7, 0), mini)) == usd(2));   // 1,05
  CHECK(usd(hz::call_cost(tokens(20, 0), mini)) == usd(3));  // 3,00: exato, sem +1
  CHECK(usd(hz::call_cost(tokens(0, 3), mini)) == usd(2));   // 1,80
}

TEST_CASE("call_cost arredonda a soma das duas partes, não cada parte") {
  // 0,4 + 0,4 = 0,8 micro-dólar: um (arredondando cada parte seriam dois).
  CHECK(usd(hz::call_cost(tokens(1, 1), prices("0.40", "0.40"))) == usd(1));
  // 0,5 + 0,6 = 1,1: dois.
  CHECK(usd(hz::call_cost(tokens(1, 1), prices("0.50", "0.60"))) == usd(2));
}

TEST_CASE("call_cost não estoura com muitos tokens e o maior preço") {
  // 10^12 tokens × 10^12 micro-dólares por milhão passaria de 2^63 se
  // multiplicado antes de dividir.
  const Prices top{hz::kMaxPricePerMillion, hz::kMaxPricePerMillion - 1, true};
  CHECK(usd(hz::call_cost(tokens(1'000'000'000'000, 0), top)) == usd(1'000'000'000'000'000'000));
  CHECK(usd(hz::call_cost(tokens(1'000'000'000'000, 1'000'000'000'000), top)) ==
        usd(1'999'999'999'999'000'000));
}

TEST_CASE("call_cost com preço zero ou desconhecido custa zero") {
  CHECK(usd(hz::call_cost(tokens(5000, 300), Prices{})) == usd(0));
  CHECK(usd(hz::call_cost(tokens(5000, 300), prices("0", "0"))) == usd(0));
}

TEST_CASE("call_cost trata contagens negativas como zero") {
  CHECK(usd(hz::call_cost(tokens(-5, 1000), prices("1.00", "1.00"))) == usd(1'000));
  CHECK(usd(hz::call_cost(tokens(-5, -7), prices("1.00", "1.00"))) == usd(0));
}

TEST_CASE("a estimativa pelos bytes custa como um uso informado") {
  // 4001 bytes enviados: 1001 tokens; 10 recebidos: 3 tokens.
  const Usage guess = hz::estimate_usage(4001, 10);
  CHECK(guess.prompt_tokens == 1001);
  CHECK(guess.completion_tokens == 3);
  CHECK(guess.estimated);
  // 1001 × 2,50 + 3 × 10 = 2502,5 + 30 → 2533.
  CHECK(usd(hz::call_cost(guess, prices("2.50", "10.00"))) == usd(2'533));
}

TEST_SUITE_END();
