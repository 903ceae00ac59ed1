#include "canonical_json.hpp"

#include <cmath>
#include <cstdint>

#include "hz/not_implemented.hpp"

// SEU-CODIGO: includes, constantes e funções suas (./hz carry e ./hz update os levam)
// FIM-SEU-CODIGO

namespace hz {
namespace {

// 2^53: até aqui, todo inteiro cabe exato num double.
constexpr double kMaxExactInteger = 9007199254740992.0;

// Strings, inteiros, true, false e null: o dump compacto do nlohmann já é a
// forma canônica. Com replace, bytes UTF-8 inválidos (só possíveis num valor
// montado em C++, o parser os recusa) não fazem o dump lançar.
void append_leaf(std::string& out, const nlohmann::json& leaf) {
  out += leaf.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// listing: append-canonical
void append_canonical(std::string& out, const nlohmann::json& value) {
  // TODO EXERCICIO 03-repetition-detector/canonical-json: um só texto por valor JSON
  throw hz::NotImplemented("03-repetition-detector/canonical-json",
                           "livro/03-repetition-detector.md, \"Exercício 1 — JSON canônico\"");
  // FIM-EXERCICIO
}
// end-listing: append-canonical

}  // namespace

std::string canonical_json(const nlohmann::json& value) {
  std::string out;
  append_canonical(out, value);
  return out;
}

}  // namespace hz
