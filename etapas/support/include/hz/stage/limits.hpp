// As flags dos freios (etapa 02 em diante): orçamento, preços, tempos,
// novas tentativas e streaming; e a tabela de preços embutida.
//
// Aqui elas ficam como o usuário as escreveu. Dinheiro é lido pelo núcleo de
// cada etapa (parse_usd, em money.hpp: o capítulo 2 ensina por que em
// inteiros); tempos, por parse_seconds.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "hz/cli.hpp"
#include "hz/http.hpp"
#include "hz/result.hpp"

namespace hz::stage {

struct LimitFlags {
  std::string budget_usd;             // --budget-usd: vazio, sem teto
  std::string price_input;            // --price-input: US$ por milhão de tokens de entrada
  std::string price_output;           // --price-output: idem, de saída
  std::string timeout = "600";        // --timeout: uma chamada ao modelo, em segundos
  std::string turn_timeout = "0";     // --turn-timeout: o turno inteiro; 0: sem prazo
  std::string connect_timeout = "5";  // --connect-timeout
  std::string idle_timeout = "60";    // --idle-timeout: silêncio no meio da resposta
  int max_retries = 2;                // --max-retries (o padrão dos SDKs oficiais)
  bool no_stream = false;             // --no-stream
};

// Registra as flags acima em parser, com os padrões atuais de flags na ajuda.
void add_limit_flags(FlagParser& parser, LimitFlags& flags);

// Segundos escritos como "30", "1.5" ou "0.25" (até 3 casas) em milissegundos
// exatos, sem passar por double. Até 1 dia. O Error cita a flag.
Result<std::chrono::milliseconds> parse_seconds(std::string_view text, std::string_view flag);

// O contrário de parse_seconds, para mostrar: 2000 ms → "2 s"; 1500 ms → "1.5 s".
std::string seconds_text(std::chrono::milliseconds ms);

// Os tempos do transporte a partir das flags (connect, timeout, idle), ou o
// Error da primeira flag inválida. Zero em --timeout ou --connect-timeout é
// erro; zero em --idle-timeout desliga o limite de silêncio.
Result<HttpOptions> http_options(const LimitFlags& flags);

// O conteúdo de etapas/support/prices.json, embutido pelo CMake no executável.
std::string_view embedded_price_table();

}  // namespace hz::stage
