// O erro que os stubs dos exercícios lançam.
//
// exercises/NN-nome é gerado a partir de solutions/NN-nome: cada região
// marcada como exercício vira um stub que lança NotImplemented com o id do
// exercício e a seção do livro que o propõe, para que o teste falhe com uma
// linha que diz o que fazer (e nunca aborte).
#pragma once

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

namespace hz {

class NotImplemented : public std::logic_error {
 public:
  // exercise: "01-loop/dispatch"; where: "livro/01-loop.md, seção "...""
  explicit NotImplemented(const std::string& exercise, const std::string& where = "")
      : std::logic_error("exercício " + exercise + " não implementado" +
                         (where.empty() ? std::string() : ": leia " + where) +
                         " (dicas: ./hz hint " + exercise + ")") {}
};

// Só a prova da CI usa: lá cada região guarda a resposta precedida de
//   if (::hz::exercise_stubbed("01-loop/dispatch")) throw ...;
// e HZ_STUB=01-loop/dispatch liga o stub de um exercício, para provar que os
// testes dele falham sem ele. Uma lista separada por vírgulas liga vários: com
// os exercícios seguintes de uma etapa como stubs, os testes de um exercício
// precisam passar (ele só depende dos anteriores).
inline bool exercise_stubbed(std::string_view exercise) {
  const char* wanted = std::getenv("HZ_STUB");
  if (wanted == nullptr) return false;
  std::string_view list = wanted;
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    if (list.substr(0, comma) == exercise) return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace hz
