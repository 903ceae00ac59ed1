#include "money.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace hz {

namespace {

// Os preços são por milhão de tokens.
constexpr Micros kTokensPerPrice = 1'000'000;
constexpr Micros kMaxWholeDollars = 1'000'000'000;

bool all_digits(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

// listing: call-cost
Micros call_cost(const Usage& usage, const Prices& prices) {
  // EXERCICIO 02-brakes/call-cost: o custo exato da chamada, nunca a menos, sem estourar
  // tokens × preço passaria de 2^63 com números grandes. Separando cada preço
  // em milhões inteiros e resto, só a parte do resto precisa ser dividida.
  const Micros input = std::max<Micros>(0, usage.prompt_tokens);
  const Micros output = std::max<Micros>(0, usage.completion_tokens);
  const Micros whole = input * (prices.input_per_million / kTokensPerPrice) +
                       output * (prices.output_per_million / kTokensPerPrice);
  const Micros rest = input * (prices.input_per_million % kTokensPerPrice) +
                      output * (prices.output_per_million % kTokensPerPrice);
  return whole + (rest + kTokensPerPrice - 1) / kTokensPerPrice;
  // FIM-EXERCICIO
}
// end-listing: call-cost

// listing: estimate-usage
Usage estimate_usage(std::size_t request_bytes, std::size_t response_bytes) {
  Usage usage;
  usage.prompt_tokens = static_cast<long>((request_bytes + 3) / 4);
  usage.completion_tokens = static_cast<long>((response_bytes + 3) / 4);
  usage.estimated = true;
  return usage;
}
// end-listing: estimate-usage

// listing: billable-usage
Usage billable_usage(const Usage& sent, std::size_t request_bytes, std::size_t response_bytes,
                     const Prices& prices) {
  if (sent.reported) return sent;
  if (sent.unsplit_tokens <= 0) return estimate_usage(request_bytes, response_bytes);
  Usage usage;
  if (prices.output_per_million >= prices.input_per_million) {
    usage.completion_tokens = sent.unsplit_tokens;
  } else {
    usage.prompt_tokens = sent.unsplit_tokens;
  }
  usage.estimated = true;
  return usage;
}
// end-listing: billable-usage

Result<Micros> parse_usd(std::string_view text) {
  auto bad = [text](const std::string& why) {
    return Error{"\"" + std::string(text) + "\" não é um valor em dólares: " + why};
  };
  if (text.find(',') != std::string_view::npos) {
    return bad("use ponto para separar os centavos, como em 2.50");
  }
  const std::size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction =
      dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  if ((whole.empty() && fraction.empty()) || !all_digits(whole) || !all_digits(fraction)) {
    return bad("use só dígitos e um ponto, como em 2.50");
  }
  if (fraction.size() > 6) return bad("no máximo 6 casas decimais (um micro-dólar)");
  Micros dollars = 0;
  for (char c : whole) {
    dollars = dollars * 10 + (c - '0');
    if (dollars > kMaxWholeDollars) return bad("passa de US$ 1000000000");
  }
  Micros micros = 0;
  for (std::size_t i = 0; i < 6; ++i) {
    micros = micros * 10 + (i < fraction.size() ? fraction[i] - '0' : 0);
  }
  return dollars * kMicrosPerDollar + micros;
}

std::string format_usd(Micros amount) {
  std::string sign;
  if (amount < 0) {
    sign = "-";
    amount = -amount;
  }
  std::string cents = std::to_string(amount % kMicrosPerDollar);
  cents.insert(0, 6 - cents.size(), '0');
  while (cents.size() > 2 && cents.back() == '0') cents.pop_back();
  return sign + std::to_string(amount / kMicrosPerDollar) + "." + cents;
}

namespace {

Result<Micros> read_price(const nlohmann::json& entry, const std::string& model, const char* key) {
  const std::string where = "modelo \"" + model + "\", campo \"" + key + "\": ";
  auto it = entry.find(key);
  if (it == entry.end()) return Error{where + "obrigatório"};
  // Um número JSON passaria por double no parser; o texto chega exato.
  if (!it->is_string()) return Error{where + "use texto, como \"2.50\""};
  auto price = parse_usd(it->get<std::string>());
  if (!price) return Error{where + price.error().message};
  if (*price > kMaxPricePerMillion) return Error{where + "acima de US$ 1000000 por milhão"};
  return price;
}

}  // namespace

Result<PriceTable> parse_price_table(std::string_view json_text) {
  const nlohmann::json root = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (!root.is_object()) return Error{"a tabela de preços não é um objeto JSON válido"};
  for (const auto& [key, value] : root.items()) {
    if (key != "comment" && key != "models") return Error{"campo desconhecido \"" + key + "\""};
  }
  auto models = root.find("models");
  if (models == root.end() || !models->is_object()) {
    return Error{"campo \"models\": esperava um objeto {\"modelo\": {\"input\", \"output\"}}"};
  }
  PriceTable table;
  for (const auto& [model, entry] : models->items()) {
    if (!entry.is_object()) return Error{"modelo \"" + model + "\": esperava um objeto"};
    for (const auto& [key, value] : entry.items()) {
      if (key != "input" && key != "output" && key != "comment") {
        return Error{"modelo \"" + model + "\": campo desconhecido \"" + key + "\""};
      }
    }
    auto input = read_price(entry, model, "input");
    if (!input) return input.error();
    auto output = read_price(entry, model, "output");
    if (!output) return output.error();
    table[model] = Prices{*input, *output, true};
  }
  return table;
}

Prices find_price(const PriceTable& table, std::string_view model) {
  if (auto it = table.find(model); it != table.end()) return it->second;
  const std::size_t colon = model.find(':');
  if (colon != std::string_view::npos) {
    if (auto it = table.find(model.substr(0, colon)); it != table.end()) return it->second;
  }
  return Prices{};
}

}  // namespace hz
