#include "budget.hpp"

#include <algorithm>
#include <limits>

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
  // EXERCICIO 02-brakes/budget: quanto ainda pode ser gasto sem furar nenhum teto
  std::optional<Micros> left;
  if (ceiling_) left = std::max<Micros>(0, *ceiling_ - spent_);
  if (parent_ != nullptr) {
    // O filho não gasta o que o pai não tem.
    if (const std::optional<Micros> above = parent_->remaining()) {
      left = left ? std::min(*left, *above) : *above;
    }
  }
  return left;
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
