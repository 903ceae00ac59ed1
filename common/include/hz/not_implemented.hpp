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
// e HZ_STUB=01-loop/dispatch liga o stub de um exercício, um por vez, para
// provar que os testes dele falham sem ele.
inline bool exercise_stubbed(std::string_view exercise) {
  const char* wanted = std::getenv("HZ_STUB");
  return wanted != nullptr && exercise == wanted;
}

}  // namespace hz
