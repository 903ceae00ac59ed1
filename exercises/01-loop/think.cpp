#include "think.hpp"

#include "hz/not_implemented.hpp"

// SEU-CODIGO: includes, constantes e funções suas (./hz carry e ./hz update os levam)
// FIM-SEU-CODIGO

namespace hz {

// listing: strip-think
std::string strip_think(std::string_view text) {
  // TODO EXERCICIO 01-loop/strip-think: o texto que a pessoa deve ver, sem o raciocínio
  throw hz::NotImplemented("01-loop/strip-think",
                           "livro/01-loop.md, \"Exercício 4 — Sem raciocínio no histórico\"");
  // FIM-EXERCICIO
}
// end-listing: strip-think

}  // namespace hz
