#include "canonical_json.hpp"

#include <cmath>
#include <cstdint>

namespace hz {
namespace {

// 2^53: até aqui, todo inteiro cabe exato num double.
constexpr double kMaxExactInteger = 9007199254740992.0;

// Strings, inteiros, true, false e null: o dump compacto do nlohmann já é a
// forma canônica. Com replace, bytes UTF-8 inválidos (só possíveis num valor
// montado em C++, o parser os recusa) não fazem o dump lançar.
void append_leaf(std::string& out, const nlohmann::json& leaf) {
  out += leaf.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// listing: append-canonical
void append_canonical(std::string& out, const nlohmann::json& value) {
  // EXERCICIO 03-repetition-detector/canonical-json: um só texto por valor JSON
  if (value.is_object()) {
    // nlohmann::json guarda objetos num std::map<std::string, ...>: a
    // iteração já sai na ordem dos bytes (std::string compara como unsigned char).
    out += '{';
    for (auto item = value.begin(); item != value.end(); ++item) {
      if (item != value.begin()) out += ',';
      append_leaf(out, item.key());
      out += ':';
      append_canonical(out, item.value());
    }
    out += '}';
  } else if (value.is_array()) {
    out += '[';
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (i > 0) out += ',';
      append_canonical(out, value[i]);
    }
    out += ']';
  } else if (value.is_number_float()) {
    const double number = value.get<double>();
    if (std::isfinite(number) && std::trunc(number) == number &&
        std::fabs(number) <= kMaxExactInteger) {
      out += std::to_string(static_cast<std::int64_t>(number));  // 1.0 → 1, -0.0 → 0
    } else {
      append_leaf(out, value);  // o double mais curto que volta ao mesmo valor
    }
  } else {
    append_leaf(out, value);
  }
  // FIM-EXERCICIO
}
// end-listing: append-canonical

}  // namespace

std::string canonical_json(const nlohmann::json& value) {
  std::string out;
  append_canonical(out, value);
  return out;
}

}  // namespace hz
