// Dinheiro em micro-dólares inteiros.
//
// Um double não representa 0,1 exatamente, e somar custos pequenos milhares
// de vezes acumula o erro: o teto de gasto precisa de uma conta que feche.
// Aqui todo valor é um inteiro de micro-dólares (US$ 1 = 1.000.000), os
// preços são micro-dólares por milhão de tokens e nenhuma conta passa por
// ponto flutuante. O double só aparece para mostrar (cost_usd nos eventos).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "hz/result.hpp"
#include "hz/wire.hpp"

namespace hz {

// listing: micros
using Micros = std::int64_t;
inline constexpr Micros kMicrosPerDollar = 1'000'000;
// O maior preço aceito: US$ 1.000.000 por milhão de tokens. Com ele e com as
// contagens de tokens que hz::decode_reply aceita (até 10^12), nenhuma conta
// de call_cost passa de 2^63.
inline constexpr Micros kMaxPricePerMillion = 1'000'000 * kMicrosPerDollar;

// Preço de um modelo, em micro-dólares por milhão de tokens.
struct Prices {
  Micros input_per_million = 0;   // tokens de entrada (prompt_tokens)
  Micros output_per_million = 0;  // tokens de saída (completion_tokens)
  bool known = false;             // false: não se sabe o preço (custo desconhecido, não zero)
};

// Só para mostrar (cost_usd nos eventos): a conta nunca volta daqui.
inline double to_usd(Micros amount) {
  return static_cast<double>(amount) / static_cast<double>(kMicrosPerDollar);
}
// end-listing: micros

// listing: call-cost
// O custo de uma chamada: prompt_tokens ao preço de entrada mais
// completion_tokens ao preço de saída, arredondado para CIMA ao micro-dólar
// (nunca cobrar menos do que o provedor). Conta exata em inteiros, sem
// estourar com até 10^12 tokens e preços até kMaxPricePerMillion. Contagens
// negativas valem zero. Preço desconhecido custa 0 (quem chama sabe que não é
// zero de verdade: Prices::known).
Micros call_cost(const Usage& usage, const Prices& prices);
// end-listing: call-cost

// listing: estimate-usage
// Quando o provedor cobrou e não disse quanto (sem "usage", corpo ilegível,
// streaming cortado): uns 4 bytes por token, arredondado para cima, dos bytes
// enviados (entrada) e recebidos (saída). Marca estimated.
Usage estimate_usage(std::size_t request_bytes, std::size_t response_bytes);
// end-listing: estimate-usage

// listing: billable-usage
// O uso que a conta paga, a partir do que a resposta trouxe: os números do
// provedor, se ele mandou a divisão (reported); só o total (unsplit_tokens):
// todos no lado de preço mais caro, para nunca contar menos do que foi gasto,
// marcado estimated; nada que sirva ({}, 0/0, contagem inválida, sem "usage"):
// estimate_usage dos bytes.
Usage billable_usage(const Usage& sent, std::size_t request_bytes, std::size_t response_bytes,
                     const Prices& prices);
// end-listing: billable-usage

// "2.50" → 2500000. Só dígitos, com ponto e no máximo 6 casas decimais; até
// US$ 1.000.000.000. Sem sinal, sem vírgula, sem expoente: o Error diz o que
// está errado (em português).
Result<Micros> parse_usd(std::string_view text);

// 2500000 → "2.50"; 2500 → "0.0025"; 1 → "0.000001". Pelo menos duas casas,
// sem zeros inúteis depois delas.
std::string format_usd(Micros amount);

// Os preços conhecidos, por nome de modelo.
using PriceTable = std::map<std::string, Prices, std::less<>>;

// Lê uma tabela de preços em JSON:
//   {"comment": "...", "models": {"gpt-4.1": {"input": "2.00", "output": "8.00"}, ...}}
// Preços como texto (lidos por parse_usd, sem passar por double); "comment"
// é aceito no topo e em cada modelo. Erro com o modelo e o campo.
Result<PriceTable> parse_price_table(std::string_view json_text);

// O preço de um modelo: o nome exato ou, se não houver, o nome sem a etiqueta
// depois do ":" (o Ollama chama de "qwen3:8b" o "qwen3"). Desconhecido:
// Prices{} (known falso).
Prices find_price(const PriceTable& table, std::string_view model);

}  // namespace hz
