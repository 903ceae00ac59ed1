// hz-course quotes: as mensagens de erro citadas no livro conferidas com os
// literais dos testes.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "hz/course/quotes.hpp"

using hz::course::kVaries;
using hz::course::message_quotes;
using hz::course::quoted_in;
using hz::course::string_literals;

TEST_CASE("string_literals junta literais vizinhos e marca o que a soma faz variar") {
  const std::string cpp =
      "CHECK(r.err == \"journal \" + path.string() + \": a escrita do registro seq 2 \"\n"
      "               \"falhou: File too large\");\n"
      "const char* q = R\"({\"a\": \"b\"})\";\n"
      "char c = '\"'; auto s = \"tab\\tfim\\n\";\n";
  const std::vector<std::string> expected{
      std::string("journal ") + kVaries + ": a escrita do registro seq 2 falhou: File too large",
      "{\"a\": \"b\"}", "tab fim "};
  CHECK(string_literals(cpp) == expected);
}

TEST_CASE(
    "message_quotes acha as mensagens entre crases e entre aspas, fora dos blocos de código") {
  const std::string md =
      "Um parágrafo com `erro: ferramenta\n"
      "desconhecida \"x\"` e \"cancelado: o prazo do turno acabou\" e `outra coisa`.\n"
      "\n"
      "```\n"
      "erro: dentro do bloco não conta\n"
      "```\n"
      "> `hz-04-journal: journal J está vazio` e `hz-x:` e `aviso: N linhas`\n";
  const std::vector<hz::course::Quote> quotes = message_quotes(md);
  REQUIRE(quotes.size() == 4);
  CHECK(quotes[0].line == 1);
  CHECK(quotes[0].text == "erro: ferramenta desconhecida \"x\"");
  CHECK(quotes[1].line == 2);
  CHECK(quotes[1].text == "cancelado: o prazo do turno acabou");
  CHECK(quotes[2].line == 7);
  CHECK(quotes[2].text == "hz-04-journal: journal J está vazio");
  CHECK(quotes[3].text == "aviso: N linhas");
}

TEST_CASE(
    "quoted_in: o texto fixo precisa estar num literal, e as marcas do livro valem qualquer "
    "coisa") {
  const std::vector<std::string> literals{
      std::string("journal ") + kVaries + ": a escrita do registro seq 2 falhou: File too large",
      "tempo esgotado (150 ms) falando com "};
  CHECK(quoted_in("journal J: a escrita do registro seq 2 falhou: File too large", literals));
  CHECK(quoted_in("journal J: a escrita do registro seq N falhou: File too large", literals));
  CHECK(quoted_in("tempo esgotado (150 ms) falando com URL", literals));
  CHECK(quoted_in("tempo esgotado (150 ms) ...", literals));
  // Um número diferente, uma palavra trocada ou o que varia no teste sem marca no livro: não.
  CHECK_FALSE(quoted_in("journal J: a escrita do registro seq 3 falhou: File too large", literals));
  CHECK_FALSE(quoted_in("tempo esgotado (200 ms) falando com URL", literals));
  CHECK_FALSE(quoted_in("journal /tmp/j: a escrita do registro seq 2 falhou", literals));
  CHECK_FALSE(quoted_in("...", literals));
  // J, N e URL só são marcas como palavras inteiras.
  CHECK_FALSE(quoted_in("journal Jx: a escrita", literals));
}
