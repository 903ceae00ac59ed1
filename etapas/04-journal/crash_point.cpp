#include "crash_point.hpp"

#include <signal.h>

#include <array>
#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace hz {
namespace {

constexpr std::array<std::pair<Boundary, std::string_view>, 5> kNames{{
    {Boundary::after_reply, "after_reply"},
    {Boundary::before_intent, "before_intent"},
    {Boundary::after_intent, "after_intent"},
    {Boundary::after_effect, "after_effect"},
    {Boundary::after_result, "after_result"},
}};

std::string known_names() {
  std::string names;
  for (const auto& [boundary, name] : kNames) {
    if (!names.empty()) names += ", ";
    names += name;
  }
  return names;
}

}  // namespace

std::string_view to_string(Boundary boundary) {
  for (const auto& [value, name] : kNames) {
    if (value == boundary) return name;
  }
  return "?";
}

Result<std::optional<CrashPoint>> parse_crash_at(std::string_view text) {
  if (text.empty()) return std::optional<CrashPoint>{};
  const std::string shown = "HZ_CRASH_AT=" + std::string(text);
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) {
    return Error{shown + ": use <fronteira>:<n>, como after_intent:1"};
  }
  const std::string_view name = text.substr(0, colon);
  const std::string_view count = text.substr(colon + 1);
  CrashPoint point;
  bool found = false;
  for (const auto& [value, known] : kNames) {
    if (known == name) {
      point.boundary = value;
      found = true;
    }
  }
  if (!found) {
    return Error{shown + ": fronteira desconhecida \"" + std::string(name) + "\" (use " +
                 known_names() + ")"};
  }
  // Só dígitos, sem sinal e sem zero à esquerda; até 9 dígitos não estoura int.
  const bool digits = !count.empty() && count.size() <= 9 && count.front() != '0' &&
                      count.find_first_not_of("0123456789") == std::string_view::npos;
  if (!digits) return Error{shown + ": a ocorrência deve ser um inteiro a partir de 1"};
  point.occurrence = std::stoi(std::string(count));
  return std::optional<CrashPoint>{point};
}

CrashPoints CrashPoints::from_env() {
  const char* value = std::getenv("HZ_CRASH_AT");
  auto point = parse_crash_at(value == nullptr ? "" : value);
  if (!point) throw std::invalid_argument(point.error().message);
  return CrashPoints(*point);
}

void CrashPoints::reach(Boundary boundary) {
  if (!point_ || point_->boundary != boundary) return;
  if (++seen_ == point_->occurrence) raise(SIGKILL);
}

Result<std::int64_t> CrashingSink::append(nlohmann::json rec) {
  const auto type = rec.find("type");
  const std::string name = type != rec.end() && type->is_string() ? type->get<std::string>() : "";
  if (name == "intent") points_.reach(Boundary::before_intent);
  if (name == "result") points_.reach(Boundary::after_effect);
  Result<std::int64_t> seq = inner_.append(std::move(rec));
  if (!seq) return seq;
  if (name == "reply") points_.reach(Boundary::after_reply);
  if (name == "intent") points_.reach(Boundary::after_intent);
  if (name == "result") points_.reach(Boundary::after_result);
  return seq;
}

}  // namespace hz
