// Resultado esperado-ou-erro: o jeito de devolver falhas previsíveis sem exceção.
//
// C++20 não tem <expected>; este tipo cobre o necessário. Falhas esperadas
// (rede, JSON inválido, arquivo fora do workspace) viajam como valores;
// exceções ficam para bugs e erros de inicialização, capturados uma vez no main.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace hz {

// Um erro legível por uma pessoa (ou pelo modelo, quando vira texto de ferramenta).
struct Error {
  std::string message;
};

template <class T, class E = Error>
class [[nodiscard]] Result {
 public:
  Result(T value)
      : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: conversão implícita desejada
  Result(E error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  // Pré-condição: ok().
  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  // Pré-condição: !ok().
  const E& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, E> state_;
};

}  // namespace hz
