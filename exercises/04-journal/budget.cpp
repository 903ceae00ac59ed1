#include "budget.hpp"

#include <algorithm>
#include <limits>

#include "hz/not_implemented.hpp"

// SEU-CODIGO: includes, constantes e funções suas (./hz carry e ./hz update os levam)
// FIM-SEU-CODIGO

namespace hz {

Budget::Budget(Micros ceiling) : ceiling_(ceiling) {}

// listing: charge
void Budget::charge(Micros amount) {
  if (amount <= 0) return;
  constexpr Micros kMax = std::numeric_limits<Micros>::max();
  spent_ = spent_ > kMax - amount ? kMax : spent_ + amount;
  if (parent_ != nullptr) parent_->charge(amount);
}
// end-listing: charge

// listing: remaining
std::optional<Micros> Budget::remaining() const {
  // TODO EXERCICIO 02-brakes/budget: quanto ainda pode ser gasto sem furar nenhum teto
  throw hz::NotImplemented("02-brakes/budget",
                           "livro/02-brakes.md, \"Exercício 2 — O orçamento e as fatias\"");
  // FIM-EXERCICIO
}
// end-listing: remaining

bool Budget::exhausted() const {
  const std::optional<Micros> left = remaining();
  return left.has_value() && *left == 0;
}

Budget Budget::slice(Micros amount) {
  Budget child(amount);
  child.parent_ = this;
  return child;
}

}  // namespace hz
