// Alvo: a dica de espera dos cabeçalhos de um erro HTTP (hz::retry_after_seconds):
// retry-after-ms e Retry-After, em segundos ou como data HTTP.
//
// Entrada: o valor de retry-after-ms até o primeiro \n, o de Retry-After no
// resto (sem um \n, só Retry-After).
//
// Propriedades: não lança; a dica, quando há, é um número finito e não negativo.
#include <chrono>
#include <cmath>
#include <exception>
#include <string>

#include "hz/http.hpp"
#include "support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = hz::fuzz::text_of(data, size);
  hz::HttpResponse response;
  response.status = 429;
  const std::size_t newline = text.find('\n');
  if (newline != std::string_view::npos) {
    response.headers.emplace_back("retry-after-ms", std::string(text.substr(0, newline)));
    response.headers.emplace_back("retry-after", std::string(text.substr(newline + 1)));
  } else {
    response.headers.emplace_back("retry-after", std::string(text));
  }
  // Um instante fixo: a mesma entrada dá sempre o mesmo resultado.
  const auto now = std::chrono::system_clock::from_time_t(1700000000);
  try {
    const auto seconds = hz::retry_after_seconds(response, now);
    if (seconds) {
      hz::fuzz::check(std::isfinite(*seconds) && *seconds >= 0, "dica finita e não negativa");
    }
  } catch (const std::exception& error) {
    hz::fuzz::escaped("retry_after_seconds", error);
  }
  return 0;
}
