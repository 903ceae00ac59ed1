// Os freios da linha de comando (etapa 02 em diante), lidos contra o núcleo
// da etapa que inclui este cabeçalho.
//
// Este cabeçalho não é uma biblioteca: cada main.cpp de etapa o inclui, e ele
// compila contra o money.hpp, o budget.hpp e o agent_loop.hpp daquela etapa
// (o mesmo truque dos testes das etapas anteriores, que rodam contra o núcleo
// da seguinte). Assim o que é igual nos executáveis 02, 03 e 04 existe uma vez
// só, e cada etapa continua usando os próprios tipos (LoopConfig, Prices).
// Tudo é inline: cada executável tem a sua cópia compilada, e nenhum junta
// dois núcleos.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>

#include "agent_loop.hpp"
#include "budget.hpp"
#include "hz/http.hpp"
#include "hz/result.hpp"
#include "hz/stage/limits.hpp"
#include "hz/terminal.hpp"
#include "hz/text.hpp"
#include "hz/trace.hpp"
#include "money.hpp"

namespace hz::stage {

// Os freios como o usuário os pediu, já lidos.
struct Limits {
  std::optional<Micros> budget;
  std::optional<Prices> prices;  // das flags; vazio: da tabela
  HttpOptions http;
  std::chrono::milliseconds turn_deadline{0};
  int max_retries = 0;
  bool stream = true;
};

inline Result<Micros> read_usd(const std::string& text, const std::string& flag) {
  auto value = parse_usd(text);
  if (!value) return Error{"--" + flag + ": " + value.error().message};
  return value;
}

// As flags dos freios lidas e conferidas, ou o Error da primeira inválida.
inline Result<Limits> read_limits(const LimitFlags& flags) {
  Limits limits;
  auto http = http_options(flags);
  if (!http) return http.error();
  limits.http = *http;
  auto deadline = parse_seconds(flags.turn_timeout, "turn-timeout");
  if (!deadline) return deadline.error();
  limits.turn_deadline = *deadline;
  if (!flags.budget_usd.empty()) {
    auto budget = read_usd(flags.budget_usd, "budget-usd");
    if (!budget) return budget.error();
    limits.budget = *budget;
  }
  if (flags.price_input.empty() != flags.price_output.empty()) {
    return Error{"--price-input e --price-output vão juntos (o preço tem duas partes)"};
  }
  if (!flags.price_input.empty()) {
    auto input = read_usd(flags.price_input, "price-input");
    if (!input) return input.error();
    auto output = read_usd(flags.price_output, "price-output");
    if (!output) return output.error();
    if (*input > kMaxPricePerMillion || *output > kMaxPricePerMillion) {
      return Error{"--price-input e --price-output vão até US$ 1000000 por milhão"};
    }
    limits.prices = Prices{*input, *output, true};
  }
  if (flags.max_retries < 0 || flags.max_retries > 100) {
    return Error{"--max-retries vai de 0 a 100"};
  }
  limits.max_retries = flags.max_retries;
  limits.stream = !flags.no_stream;
  return limits;
}

// O preço do modelo: o das flags ou o da tabela embutida.
inline Prices price_of(const Limits& limits, const std::string& model) {
  if (limits.prices) return *limits.prices;
  // A tabela vem do próprio repositório: se ela não lê, é bug (lança).
  auto table = parse_price_table(embedded_price_table());
  if (!table) throw std::runtime_error("etapas/support/prices.json: " + table.error().message);
  return find_price(*table, model);
}

// Os freios em config: preço, tempos, novas tentativas e streaming. O
// orçamento, o relógio e a flag do Ctrl-C são do main, que os cria e os põe.
inline void apply_limits(LoopConfig& config, const Limits& limits) {
  config.prices = price_of(limits, config.model);
  config.call_timeout = limits.http.timeout;
  config.turn_deadline = limits.turn_deadline;
  config.retry.max_retries = limits.max_retries;
  config.stream = limits.stream;
}

// "limites: ..." (sem o fim de linha), para stderr, no começo: o que vai parar o turno.
inline std::string describe_limits(const LoopConfig& config, const Limits& limits) {
  std::string text = "limites: " + std::to_string(config.max_turns) + " chamadas por turno";
  text += limits.budget ? " · orçamento US$ " + format_usd(*limits.budget) : " · sem orçamento";
  if (config.prices.known) {
    text += " · preço US$ " + format_usd(config.prices.input_per_million) + " / US$ " +
            format_usd(config.prices.output_per_million) + " por milhão";
  } else {
    text += " · preço desconhecido";
  }
  if (config.turn_deadline.count() > 0) {
    text += " · prazo do turno " + seconds_text(config.turn_deadline);
  }
  text += " · " + std::to_string(config.retry.max_retries) + " novas tentativas";
  text += config.stream ? " · streaming" : " · sem streaming";
  return text;
}

// Sem preço, o gasto conta zero e o teto nunca chega: quem pediu um teto
// precisa saber que ele não vale (preço desconhecido não é custo zero).
inline void warn_if_unpriced(std::ostream& err, const LoopConfig& config, const Limits& limits,
                             bool color) {
  if (!limits.budget || config.prices.known) return;
  err << paint("aviso: o modelo " + printable(config.model) +
                   " não está na tabela de preços (etapas/support/prices.json): o "
                   "orçamento NÃO pode ser cumprido. Informe --price-input e "
                   "--price-output (0 e 0 para um modelo local).\n",
               Tint::yellow, color);
}

// Depois de cada turno, com teto: quanto da conversa já foi gasto.
inline void show_spent(std::ostream& err, const Budget& budget, const Limits& limits, bool color) {
  if (!limits.budget) return;
  err << paint("  orçamento da conversa: US$ " + format_usd(budget.spent()) + " de US$ " +
                   format_usd(*limits.budget) + " gastos\n",
               Tint::dim, color);
}

// O relógio do trace seguindo o do loop (LoopConfig::clock): a hora de
// parede de quando o trace passa a usá-lo, mais o quanto `clock` andou desde
// então. Pré-condição: clock vive mais que o trace que o usa.
inline TraceClock trace_clock_of(const Clock& clock) {
  return anchored_trace_clock([&clock] {
    return static_cast<std::int64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(clock.now().time_since_epoch())
            .count());
  });
}

}  // namespace hz::stage
