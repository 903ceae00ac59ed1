// O que os testes da etapa 02 compartilham. Reaproveita os ajudantes da
// etapa 01 (RecordedTrace, event_difference, json_difference, echo_tool...) e
// acrescenta o relógio falso, que "dorme" sem esperar e anota quanto dormiu.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "../01-loop/helpers.hpp"
#include "agent_loop.hpp"
#include "clock.hpp"
#include "hz/result.hpp"
#include "money.hpp"
#include "outcome.hpp"

namespace hz::test02 {

// Um relógio que só anda quando alguém manda: sleep_for avança na hora e
// guarda o atraso; on_sleep roda depois de cada espera (para um teste fazer
// algo "durante" o backoff, como apertar Ctrl-C).
class FakeClock final : public Clock {
 public:
  time_point now() const override { return now_; }
  void sleep_for(std::chrono::milliseconds delay) override {
    sleeps.push_back(delay);
    now_ += delay;
    if (on_sleep) on_sleep();
  }
  void advance(std::chrono::milliseconds delay) { now_ += delay; }

  std::vector<std::chrono::milliseconds> sleeps;
  std::function<void()> on_sleep;

 private:
  time_point now_ = time_point(std::chrono::hours(1));
};

// "500 ms, 1000 ms": atrasos que um CHECK compara e mostra.
inline std::string shown(const std::vector<std::chrono::milliseconds>& delays) {
  std::string text;
  for (auto delay : delays) {
    text += (text.empty() ? "" : ", ") + std::to_string(delay.count()) + " ms";
  }
  return text.empty() ? "(nenhum)" : text;
}

inline std::string shown(std::chrono::milliseconds delay) {
  return std::to_string(delay.count()) + " ms";
}

// O que um freio respondeu: o rótulo ou "(segue)".
inline std::string shown(const std::optional<Outcome>& outcome) {
  return outcome ? std::string(to_string(*outcome)) : std::string("(segue)");
}

// "US$ 0.0075 (7500)": micro-dólares legíveis numa falha.
inline std::string usd(Micros amount) {
  return "US$ " + format_usd(amount) + " (" + std::to_string(amount) + ")";
}

// Preços em dólares por milhão, escritos como texto (parse_usd, exato).
inline Prices prices(const char* input, const char* output) {
  return Prices{parse_usd(input).value(), parse_usd(output).value(), true};
}

}  // namespace hz::test02
