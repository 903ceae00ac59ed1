// O dinheiro fora dos exercícios: ler e escrever dólares exatos, a tabela de
// preços (e a que vem com o curso) e por que tudo isso é inteiro. Estes
// testes passam também com os stubs (veja passes-on-stubs.txt).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "helpers.hpp"
#include "hz/testing/process.hpp"
#include "money.hpp"

using hz::Micros;
using hz::Prices;
using hz::Usage;
using hz::test02::prices;

namespace {

std::string parsed(const char* text) {
  auto value = hz::parse_usd(text);
  return value ? std::to_string(*value) : "Error: " + value.error().message;
}

std::string read_source(const char* relative) {
  std::ifstream in(hz::testing::source_path(relative));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

// listing: float-drift
TEST_CASE("somar 0.1 dez vezes em double não dá 1, e em micro-dólares dá") {
  double dollars = 0.0;
  Micros micros = 0;
  for (int i = 0; i < 10; ++i) {
    dollars += 0.1;
    micros += hz::parse_usd("0.1").value();
  }
  CHECK(dollars != 1.0);  // 0.9999999999999999
  CHECK(micros == 1'000'000);
}
// end-listing: float-drift

TEST_CASE("parse_usd lê dólares exatos, até o micro-dólar") {
  CHECK(parsed("2.50") == "2500000");
  CHECK(parsed("0.000001") == "1");
  CHECK(parsed("10") == "10000000");
  CHECK(parsed(".5") == "500000");
  CHECK(parsed("3.") == "3000000");
  CHECK(parsed("0") == "0");
  CHECK(parsed("1000000000") == "1000000000000000");
}

TEST_CASE("parse_usd recusa o que não é um valor em dólares, dizendo por quê") {
  CHECK(parsed("2,50") ==
        "Error: \"2,50\" não é um valor em dólares: use ponto para separar os centavos, como em "
        "2.50");
  CHECK(parsed("") ==
        "Error: \"\" não é um valor em dólares: use só dígitos e um ponto, como em "
        "2.50");
  CHECK(parsed("-1") ==
        "Error: \"-1\" não é um valor em dólares: use só dígitos e um ponto, "
        "como em 2.50");
  CHECK(parsed("1e3") ==
        "Error: \"1e3\" não é um valor em dólares: use só dígitos e um ponto, "
        "como em 2.50");
  CHECK(parsed("0.0000001") ==
        "Error: \"0.0000001\" não é um valor em dólares: no máximo 6 casas decimais (um "
        "micro-dólar)");
  CHECK(parsed("1000000001") ==
        "Error: \"1000000001\" não é um valor em dólares: passa de US$ 1000000000");
  CHECK(parsed("99999999999999999999999") ==
        "Error: \"99999999999999999999999\" não é um valor em dólares: passa de US$ 1000000000");
}

TEST_CASE("format_usd mostra pelo menos os centavos e nenhum zero inútil") {
  CHECK(hz::format_usd(2'500'000) == "2.50");
  CHECK(hz::format_usd(2'500) == "0.0025");
  CHECK(hz::format_usd(1) == "0.000001");
  CHECK(hz::format_usd(0) == "0.00");
  CHECK(hz::format_usd(105'600) == "0.1056");
  CHECK(hz::format_usd(1'234'500'000) == "1234.50");
  CHECK(hz::format_usd(-50'000) == "-0.05");
}

TEST_CASE("parse_price_table lê preços como texto e acha o modelo com ou sem etiqueta") {
  auto table = hz::parse_price_table(R"({"comment": "teste", "models": {
    "gpt-4.1": {"input": "2.00", "output": "8.00"},
    "qwen3": {"input": "0", "output": "0", "comment": "local"}}})");
  REQUIRE_MESSAGE(table.ok(), table.error().message);
  const hz::Prices gpt = hz::find_price(*table, "gpt-4.1");
  CHECK(gpt.known);
  CHECK(gpt.input_per_million == 2'000'000);
  CHECK(gpt.output_per_million == 8'000'000);
  const hz::Prices local = hz::find_price(*table, "qwen3:8b");
  CHECK(local.known);
  CHECK(local.input_per_million == 0);
  CHECK_FALSE(hz::find_price(*table, "gpt-4.1-mini").known);
  CHECK_FALSE(hz::find_price(*table, "hz-mock").known);
}

TEST_CASE("parse_price_table recusa números JSON e campos desconhecidos") {
  auto number = hz::parse_price_table(R"({"models": {"m": {"input": 2.5, "output": "1"}}})");
  REQUIRE_FALSE(number.ok());
  CHECK(number.error().message == "modelo \"m\", campo \"input\": use texto, como \"2.50\"");
  auto typo = hz::parse_price_table(R"({"models": {"m": {"imput": "1", "output": "1"}}})");
  REQUIRE_FALSE(typo.ok());
  CHECK(typo.error().message == "modelo \"m\": campo desconhecido \"imput\"");
  auto missing = hz::parse_price_table(R"({"models": {"m": {"input": "1"}}})");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message == "modelo \"m\", campo \"output\": obrigatório");
  auto broken = hz::parse_price_table("{");
  REQUIRE_FALSE(broken.ok());
  CHECK(broken.error().message == "a tabela de preços não é um objeto JSON válido");
}

TEST_CASE("a tabela de preços do curso lê e tem os modelos que o livro cita") {
  auto table = hz::parse_price_table(read_source("etapas/support/prices.json"));
  REQUIRE_MESSAGE(table.ok(), table.error().message);
  const hz::Prices gpt = hz::find_price(*table, "gpt-4.1-mini");
  CHECK(gpt.known);
  CHECK(gpt.input_per_million == 400'000);
  CHECK(gpt.output_per_million == 1'600'000);
  CHECK(hz::find_price(*table, "qwen3:8b").known);
  CHECK(hz::find_price(*table, "llama3.2:3b").known);
}

TEST_CASE("billable_usage: o uso informado passa como veio") {
  const Usage sent{812, 35, true};
  CHECK(hz::billable_usage(sent, 4000, 400, prices("2.50", "10.00")) == sent);
}

TEST_CASE("billable_usage: só o total vai todo para o lado de preço mais caro") {
  const Usage total{0, 0, false, false, 900};
  CHECK(hz::billable_usage(total, 4000, 400, prices("2.50", "10.00")) ==
        Usage{0, 900, false, true});
  CHECK(hz::billable_usage(total, 4000, 400, prices("10.00", "2.50")) ==
        Usage{900, 0, false, true});
  // Preços iguais ou desconhecidos: a saída, que costuma ser a mais cara.
  CHECK(hz::billable_usage(total, 4000, 400, prices("1.00", "1.00")) == Usage{0, 900, false, true});
  CHECK(hz::billable_usage(total, 4000, 400, Prices{}) == Usage{0, 900, false, true});
}

TEST_CASE("billable_usage: nada que sirva vira a estimativa pelos bytes") {
  CHECK(hz::billable_usage(Usage{}, 4001, 10, prices("2.50", "10.00")) ==
        hz::estimate_usage(4001, 10));
}
