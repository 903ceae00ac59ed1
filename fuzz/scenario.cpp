// Alvo: o arquivo de cenário do mock (hz::mock::parse_scenario).
//
// Propriedades: nunca lança (o cabeçalho promete: todo problema volta como
// Error com o nome do arquivo); um erro começa com o nome do arquivo; um
// cenário lido tem passos e cada número dentro da faixa de scenario.hpp.
#include <exception>
#include <optional>

#include "hz/mock/scenario.hpp"
#include "support.hpp"

namespace {

void check_step(const hz::mock::Step& step) {
  using hz::fuzz::check;
  namespace mock = hz::mock;
  check(step.forever || (step.repeat >= 1 && step.repeat <= mock::kMaxRepeat), "repeat na faixa");
  check(step.delay_ms >= 0 && step.delay_ms <= mock::kMaxDelayMs, "delay_ms na faixa");
  check(step.chunk_delay_ms >= 0 && step.chunk_delay_ms <= mock::kMaxDelayMs,
        "chunk_delay_ms na faixa");
  check(step.truncate_after >= 0 && step.truncate_after <= mock::kMaxRepeat,
        "truncate_after na faixa");
  if (step.stall_after) {
    check(*step.stall_after >= 0 && *step.stall_after <= mock::kMaxRepeat, "stall_after na faixa");
  }
  if (step.usage) {
    // Cada contagem é opcional (o cenário pode dar só uma): ausente, não há faixa a conferir.
    const auto in_range = [](const std::optional<long>& count) {
      return !count || (*count >= 0 && *count <= hz::mock::kMaxTokens);
    };
    check(in_range(step.usage->prompt_tokens), "prompt_tokens na faixa");
    check(in_range(step.usage->completion_tokens), "completion_tokens na faixa");
    check(in_range(step.usage->total_tokens), "total_tokens na faixa");
  }
  if (step.error) {
    check(step.error->status >= 400 && step.error->status <= 599, "status de erro HTTP");
    check(!step.error->retry_after || (*step.error->retry_after >= 0 &&
                                       *step.error->retry_after <= mock::kMaxRetryAfterSeconds),
          "retry_after na faixa");
    check(!step.error->retry_after_ms || (*step.error->retry_after_ms >= 0 &&
                                          *step.error->retry_after_ms <= mock::kMaxRetryAfterMs),
          "retry_after_ms na faixa");
    check(step.fault == hz::mock::Fault::none, "erro HTTP não combina com fault");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto scenario = hz::mock::parse_scenario(hz::fuzz::text_of(data, size), "fuzz.json");
    if (!scenario) {
      hz::fuzz::check(scenario.error().message.rfind("fuzz.json: ", 0) == 0,
                      "o erro começa com o nome do arquivo");
      return 0;
    }
    hz::fuzz::check(!scenario->steps.empty(), "um cenário lido tem passos");
    for (const hz::mock::Step& step : scenario->steps) check_step(step);
  } catch (const std::exception& error) {
    hz::fuzz::escaped("parse_scenario", error);
  }
  return 0;
}
