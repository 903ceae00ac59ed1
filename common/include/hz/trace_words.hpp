// As palavras que mais de um leitor mostra: a linha humana do terminal
// (hz/trace.hpp) e a página do `./hz trace` (hz-course) contam as chamadas ao
// modelo, as novas tentativas e o dinheiro do mesmo jeito, e o plural() serve
// também às mensagens do hz-course e do hz-doctor. Só cabeçalho (e só a
// biblioteca padrão), porque o hz-course não usa hz::common.
#pragma once

#include <cmath>
#include <string>

namespace hz::words {

// "1 chamada ao modelo", "3 novas tentativas".
inline std::string plural(long long count, const char* singular, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? singular : many);
}

// Dólares com a precisão de um micro-dólar, sem zeros inúteis: "US$ 0.0025",
// "US$ 2.00". Quem chama garante um valor finito de até ±10^12.
inline std::string usd(double cost) {
  long long micros = std::llround(cost * 1e6);
  std::string sign;
  if (micros < 0) {
    sign = "-";
    micros = -micros;
  }
  std::string cents = std::to_string(micros % 1000000);
  cents.insert(0, 6 - cents.size(), '0');
  while (cents.size() > 2 && cents.back() == '0') cents.pop_back();
  return "US$ " + sign + std::to_string(micros / 1000000) + "." + cents;
}

// As chamadas de um turno como o turn_end as conta: "5 chamadas ao modelo",
// ou "1 chamada ao modelo · 2 novas tentativas" (uma nova tentativa repete a
// mesma chamada: não conta como outra).
inline std::string model_calls_text(long long calls, long long retries) {
  std::string text = plural(calls, "chamada ao modelo", "chamadas ao modelo");
  if (retries > 0) text += " · " + plural(retries, "nova tentativa", "novas tentativas");
  return text;
}

}  // namespace hz::words
