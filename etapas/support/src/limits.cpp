#include "hz/stage/limits.hpp"

#include <algorithm>

namespace hz::stage {

void add_limit_flags(FlagParser& parser, LimitFlags& flags) {
  parser.add_string("budget-usd", &flags.budget_usd,
                    "teto de gasto da conversa em dólares, ex.: 0.50 (padrão: sem teto)", "USD");
  parser.add_string("price-input", &flags.price_input,
                    "preço de entrada em dólares por milhão de tokens (padrão: o da tabela "
                    "etapas/support/prices.json para o modelo); use junto com --price-output",
                    "USD");
  parser.add_string("price-output", &flags.price_output,
                    "preço de saída em dólares por milhão de tokens; use junto com --price-input",
                    "USD");
  parser.add_string(
      "timeout", &flags.timeout,
      "tempo máximo de uma chamada ao modelo, em segundos (padrão: " + flags.timeout + ")", "S");
  parser.add_string(
      "turn-timeout", &flags.turn_timeout,
      "prazo do turno inteiro, em segundos; 0 desliga (padrão: " + flags.turn_timeout + ")", "S");
  parser.add_string(
      "connect-timeout", &flags.connect_timeout,
      "tempo máximo para conectar ao endpoint, em segundos (padrão: " + flags.connect_timeout + ")",
      "S");
  parser.add_string("idle-timeout", &flags.idle_timeout,
                    "silêncio máximo no meio de uma resposta, em segundos; 0 desliga (padrão: " +
                        flags.idle_timeout + ")",
                    "S");
  parser.add_int("max-retries", &flags.max_retries,
                 "novas tentativas de uma chamada que falhou por rede, 408, 409, 429 ou 5xx "
                 "(padrão: " +
                     std::to_string(flags.max_retries) + ")");
  parser.add_bool("no-stream", &flags.no_stream,
                  "pede as respostas inteiras, sem streaming (padrão: com streaming)");
}

Result<std::chrono::milliseconds> parse_seconds(std::string_view text, std::string_view flag) {
  const std::string bad = "--" + std::string(flag) + ": \"" + std::string(text) + "\" ";
  const std::size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction =
      dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  auto digits = [](std::string_view part) {
    return std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if ((whole.empty() && fraction.empty()) || !digits(whole) || !digits(fraction)) {
    return Error{bad + "não é um número de segundos (ex.: 30 ou 1.5)"};
  }
  if (fraction.size() > 3) return Error{bad + "tem mais de 3 casas decimais (milissegundos)"};
  constexpr long long kDayMs = 24LL * 60 * 60 * 1000;
  long long ms = 0;
  for (char c : whole) {
    ms = ms * 10 + (c - '0');
    if (ms > kDayMs) return Error{bad + "passa de um dia"};
  }
  for (std::size_t i = 0; i < 3; ++i) {
    ms = ms * 10 + (i < fraction.size() ? fraction[i] - '0' : 0);
  }
  if (ms > kDayMs) return Error{bad + "passa de um dia"};
  return std::chrono::milliseconds(ms);
}

std::string seconds_text(std::chrono::milliseconds ms) {
  std::string text = std::to_string(ms.count() / 1000);
  if (const long long rest = ms.count() % 1000; rest != 0) {
    std::string decimals = std::to_string(rest);
    decimals.insert(0, 3 - decimals.size(), '0');
    while (decimals.back() == '0') decimals.pop_back();
    text += "." + decimals;
  }
  return text + " s";
}

Result<HttpOptions> http_options(const LimitFlags& flags) {
  HttpOptions http;
  auto connect = parse_seconds(flags.connect_timeout, "connect-timeout");
  if (!connect) return connect.error();
  auto timeout = parse_seconds(flags.timeout, "timeout");
  if (!timeout) return timeout.error();
  auto idle = parse_seconds(flags.idle_timeout, "idle-timeout");
  if (!idle) return idle.error();
  if (connect->count() == 0) return Error{"--connect-timeout precisa ser maior que zero"};
  if (timeout->count() == 0) return Error{"--timeout precisa ser maior que zero"};
  http.connect_timeout = *connect;
  http.timeout = *timeout;
  http.idle_timeout = *idle;
  return http;
}

}  // namespace hz::stage
