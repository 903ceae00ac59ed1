// O erro que os stubs dos exercícios lançam.
//
// exercises/NN-nome é gerado a partir de solutions/NN-nome: cada região
// marcada como exercício vira um stub que lança NotImplemented, com o nome do
// exercício, para que o teste falhe com uma mensagem clara (e nunca aborte).
#pragma once

#include <stdexcept>
#include <string>

namespace hz {

class NotImplemented : public std::logic_error {
 public:
  // exercise: "01-loop/corpo-do-loop", por exemplo.
  explicit NotImplemented(const std::string& exercise)
      : std::logic_error("exercício não implementado: " + exercise +
                         " (veja o README da etapa e o capítulo do livro)") {}
};

}  // namespace hz
