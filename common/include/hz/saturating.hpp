// Soma de inteiros que para no teto em vez de estourar.
//
// Contas de tokens somam números que vêm de fora (uma resposta, um trace):
// estourar um inteiro com sinal é comportamento indefinido em C++. Só
// cabeçalho, para que o hz-course, que não usa hz::common, use o mesmo.
#pragma once

#include <concepts>
#include <limits>

namespace hz {

// a + b, ou o maior (menor) valor de T se a soma passar dele.
template <std::signed_integral T>
constexpr T saturating_add(T a, T b) {
  T sum{};
  if (__builtin_add_overflow(a, b, &sum)) {
    return b > 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
  }
  return sum;
}

}  // namespace hz
