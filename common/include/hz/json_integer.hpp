// Um número de JSON lido como inteiro, sem comportamento indefinido.
//
// Traces e respostas podem ter sido escritos por qualquer um: um 6.66e87 num
// campo "turn" é JSON válido, e converter um double maior que long long é
// comportamento indefinido em C++. Só cabeçalho (e só nlohmann_json), para
// que o hz-course, que não usa hz::common, use o mesmo.
#pragma once

#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

namespace hz {

// O maior inteiro aceito: 2^53, o último que um double (e qualquer leitor de
// JSON) representa sem perder a unidade. Somas de mil deles cabem em long long.
inline constexpr long long kMaxJsonInteger = 9'007'199'254'740'992LL;

// value como inteiro: o inteiro do JSON, ou a parte inteira de um double, se
// estiver entre -kMaxJsonInteger e kMaxJsonInteger. Vazio para o resto (outro
// tipo, NaN, infinito, fora da faixa).
inline std::optional<long long> json_integer(const nlohmann::json& value) {
  if (value.is_number_unsigned()) {
    const auto number = value.get<std::uint64_t>();
    if (number > static_cast<std::uint64_t>(kMaxJsonInteger)) return std::nullopt;
    return static_cast<long long>(number);
  }
  if (value.is_number_integer()) {
    const auto number = value.get<long long>();
    if (number < -kMaxJsonInteger || number > kMaxJsonInteger) return std::nullopt;
    return number;
  }
  if (value.is_number_float()) {
    // Comparar antes de converter; NaN falha as duas comparações.
    const double number = value.get<double>();
    const auto limit = static_cast<double>(kMaxJsonInteger);
    if (!(number >= -limit && number <= limit)) return std::nullopt;
    return static_cast<long long>(number);
  }
  return std::nullopt;
}

}  // namespace hz
