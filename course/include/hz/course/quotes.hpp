#pragma once

// As mensagens de erro que o livro e os guias citam conferidas com os testes:
// um `erro: ...`, `cancelado: ...` ou `hz-04-journal: journal J: ...` no texto
// precisa ser o que algum teste afirma, letra por letra, como as listagens são
// o código. No texto, "...", "…", URL, ARQUIVO, J, DIR e N ficam no lugar do que varia
// (um caminho, um número); nos testes, o que é montado com + também varia.

#include <string>
#include <string_view>
#include <vector>

namespace hz::course {

// O texto de cada literal de string de um fonte C++, com os literais
// vizinhos ("a" "b") já juntados; numa soma "a" + x + "b", o que não é literal
// vira kVaries. Literais crus (R"(...)") entram inteiros.
inline constexpr char kVaries = '\x1f';
std::vector<std::string> string_literals(std::string_view cpp);

struct Quote {
  int line = 0;      // a linha do texto em que a citação começa
  std::string text;  // o que está entre as crases (ou aspas), com os espaços reduzidos a um
};

// As citações de mensagem de um Markdown, fora dos blocos de código: um
// trecho entre crases, ou entre aspas, que começa como uma mensagem do
// harness (erro:, cancelado:, aviso:, tempo esgotado, falha ao, ⚠ ou o nome
// de um executável seguido de ": ").
std::vector<Quote> message_quotes(std::string_view markdown);

// Verdadeiro se algum dos literais contém a citação, com as marcas do que
// varia valendo qualquer texto (e o que varia nos literais valendo qualquer
// marca da citação).
bool quoted_in(std::string_view quote, const std::vector<std::string>& literals);

}  // namespace hz::course
