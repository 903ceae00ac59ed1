// A hora dos eventos do trace: como o Trace a escreve e como quem lê o JSONL
// (o hz-course) a entende.
//
// Cada evento leva "time", a hora UTC em ISO 8601 com microssegundos
// ("2025-06-02T09:00:00.125000Z"), e os que fecham algo (tool_end,
// model_response, model_error, turn_end) levam "duration_ms", o tempo desde
// o que abriram, em milissegundos com três casas. Só cabeçalho (e só a
// biblioteca padrão), para o hz-course, que não usa hz::common, ler o mesmo
// formato que o Trace escreve.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace hz {

namespace trace_time_detail {

// Dias desde 1970-01-01 de uma data do calendário gregoriano (e o inverso):
// o algoritmo de Howard Hinnant, "chrono-compatible low-level date algorithms".
constexpr std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

struct Civil {
  std::int64_t year;
  unsigned month;
  unsigned day;
};

constexpr Civil civil_from_days(std::int64_t z) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return {static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2), m, d};
}

inline bool digits(std::string_view s, std::size_t at, std::size_t n, unsigned& value) {
  if (at + n > s.size()) return false;
  value = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    value = value * 10 + static_cast<unsigned>(s[i] - '0');
  }
  return true;
}

}  // namespace trace_time_detail

// Nanossegundos desde 1970-01-01T00:00:00Z como "AAAA-MM-DDThh:mm:ss.uuuuuuZ"
// (os nanossegundos abaixo do microssegundo caem). Anos de 0 a 9999.
inline std::string format_trace_time(std::int64_t unix_nanos) {
  using namespace trace_time_detail;
  constexpr std::int64_t kPerDay = 86'400'000'000'000LL;
  std::int64_t days = unix_nanos / kPerDay;
  std::int64_t rest = unix_nanos % kPerDay;
  if (rest < 0) {
    rest += kPerDay;
    --days;
  }
  const Civil date = civil_from_days(days);
  const std::int64_t micros = rest / 1000;
  const std::int64_t seconds = micros / 1'000'000;
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%06lldZ",
                static_cast<long long>(date.year), date.month, date.day,
                static_cast<long long>(seconds / 3600), static_cast<long long>(seconds / 60 % 60),
                static_cast<long long>(seconds % 60), static_cast<long long>(micros % 1'000'000));
  return buffer;
}

// O inverso de format_trace_time: aceita de 0 a 9 casas depois do ponto e
// exige o Z. Vazio para qualquer outra coisa (inclusive datas impossíveis).
inline std::optional<std::int64_t> parse_trace_time(std::string_view text) {
  using namespace trace_time_detail;
  unsigned year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digits(text, 0, 4, year) || text.size() < 20 || text[4] != '-' ||
      !digits(text, 5, 2, month) || text[7] != '-' || !digits(text, 8, 2, day) ||
      (text[10] != 'T' && text[10] != 't') || !digits(text, 11, 2, hour) || text[13] != ':' ||
      !digits(text, 14, 2, minute) || text[16] != ':' || !digits(text, 17, 2, second)) {
    return std::nullopt;
  }
  std::size_t at = 19;
  std::int64_t fraction = 0;
  if (at < text.size() && text[at] == '.') {
    std::size_t places = 0;
    for (++at; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at) {
      if (++places > 9) return std::nullopt;
      fraction = fraction * 10 + (text[at] - '0');
    }
    if (places == 0) return std::nullopt;
    for (; places < 9; ++places) fraction *= 10;
  }
  if (at + 1 != text.size() || (text[at] != 'Z' && text[at] != 'z')) return std::nullopt;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  const std::int64_t days = days_from_civil(year, month, day);
  if (civil_from_days(days).day != day) return std::nullopt;  // 31 de abril, 30 de fevereiro
  return ((days * 24 + hour) * 60 + minute) * 60'000'000'000LL +
         static_cast<std::int64_t>(second) * 1'000'000'000LL + fraction;
}

// Uma duração em nanossegundos como o "duration_ms" do trace: milissegundos
// arredondados ao microssegundo (1234567 ns → 1.235).
inline double duration_ms(std::int64_t nanos) {
  return static_cast<double>(std::llround(static_cast<double>(nanos) / 1000.0)) / 1000.0;
}

}  // namespace hz
