// Frases que o aluno escreve (um motivo, uma mensagem de erro, um aviso ao
// modelo): o teste não as compara inteiras, confere os fatos que o contrato
// manda citar, e a falha diz o que falta ("não cita \"19\"").
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include "hz/testing/printing.hpp"

namespace hz::testing {

// fact aparece em text? Um número (só algarismos) vale inteiro: o 8 de
// "8 bytes" conta, o de "18" não.
inline bool cites(std::string_view text, std::string_view fact) {
  const bool number = !fact.empty() && fact.find_first_not_of("0123456789") == fact.npos;
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  for (auto at = text.find(fact); at != text.npos; at = text.find(fact, at + 1)) {
    const std::size_t end = at + fact.size();
    if (!number ||
        ((at == 0 || !digit(text[at - 1])) && (end == text.size() || !digit(text[end])))) {
      return true;
    }
  }
  return false;
}

// O que falta à frase: começar por prefix (vazio: qualquer começo) e citar
// cada fato. Vazio quando nada falta.
inline std::string reason_gaps(std::string_view text, std::string_view prefix,
                               std::initializer_list<std::string_view> facts) {
  std::string gaps;
  const auto add = [&](const std::string& gap) { gaps += (gaps.empty() ? "" : "; ") + gap; };
  if (!text.starts_with(prefix)) add("não começa por " + std::string(prefix));
  for (std::string_view fact : facts) {
    if (!cites(text, fact)) add("não cita " + quoted(fact));
  }
  return gaps;
}

// Os nomes aparecem em text, um depois do outro? Vazio se sim; senão, o
// primeiro que falta depois do anterior.
template <class Names>
std::string order_gaps(std::string_view text, const Names& names) {
  std::size_t from = 0;
  for (std::string_view name : names) {
    const std::size_t at = text.find(name, from);
    if (at == std::string_view::npos) return "não cita " + quoted(name) + " depois do anterior";
    from = at + name.size();
  }
  return "";
}

inline std::string order_gaps(std::string_view text,
                              std::initializer_list<std::string_view> names) {
  return order_gaps<std::initializer_list<std::string_view>>(text, names);
}

}  // namespace hz::testing
