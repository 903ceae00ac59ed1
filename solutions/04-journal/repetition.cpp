#include "repetition.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "canonical_json.hpp"

namespace hz {
namespace {

// Os argumentos como JSON, ou nada se o texto não é JSON válido ou é fundo
// demais para canonical_json (que é recursivo). O parser do nlohmann não é
// recursivo e informa a profundidade de cada elemento ao callback: quantos
// níveis já estão abertos (o 101º objeto ou array abre com 100).
std::optional<nlohmann::json> parse_arguments(const std::string& text) {
  using Event = nlohmann::json::parse_event_t;
  bool too_deep = false;
  const auto watch_depth = [&too_deep](int depth, Event event, nlohmann::json&) {
    const bool opens = event == Event::object_start || event == Event::array_start;
    if (opens && depth >= kMaxCanonicalDepth) too_deep = true;
    return true;
  };
  nlohmann::json parsed = nlohmann::json::parse(text, watch_depth, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || too_deep) return std::nullopt;
  return parsed;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += separator;
    out += parts[i];
  }
  return out;
}

}  // namespace

std::uint64_t fnv1a_64(std::string_view bytes, std::uint64_t hash) {
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= kFnvPrime;
  }
  return hash;
}

// listing: call-key
std::uint64_t call_key(const ToolCall& call) {
  // EXERCICIO 03-repetition-detector/call-key: uma chave igual só para chamadas iguais
  // Vazio vale {}, como no despacho: "" e "{}" rodam a mesma chamada.
  const bool blank = call.arguments.find_first_not_of(" \t\r\n") == std::string::npos;
  const std::optional<nlohmann::json> args =
      blank ? nlohmann::json::object() : parse_arguments(call.arguments);
  const std::string text = args ? canonical_json(*args) : call.arguments;
  // Entre o nome e os argumentos, um byte que nenhum texto UTF-8 válido tem.
  constexpr std::string_view separator = "\xff";
  return fnv1a_64(text, fnv1a_64(separator, fnv1a_64(call.name)));
  // FIM-EXERCICIO
}
// end-listing: call-key

Observation observation_of(const ToolCall& call, std::string_view result_text, bool ok, int step) {
  return Observation{call_key(call), fnv1a_64(result_text), ok, call.name, call.id, step};
}

bool same_call_and_result(const Observation& a, const Observation& b) {
  return a.key == b.key && a.result_hash == b.result_hash;
}

std::string_view to_string(Repetition kind) {
  switch (kind) {
    case Repetition::fresh:
      return "new";
    case Repetition::progress:
      return "progress";
    case Repetition::repeat:
      return "repeat";
    case Repetition::cycle:
      return "cycle";
    case Repetition::exempt:
      return "exempt";
  }
  return "?";
}

std::string_view to_string(Action action) {
  switch (action) {
    case Action::none:
      return "none";
    case Action::warn:
      return "warn";
    case Action::stop:
      return "stop";
  }
  return "?";
}

Result<RepetitionConfig> check_repetition_config(RepetitionConfig config) {
  if (config.window < 2 || config.window > kMaxRepetitionWindow) {
    return Error{
        "a janela do detector de repetição (--repetition-window) precisa ficar entre 2 e " +
        std::to_string(kMaxRepetitionWindow) + "; veio " + std::to_string(config.window)};
  }
  if (config.threshold < 2 || config.threshold > config.window) {
    return Error{
        "o limiar do detector de repetição (--repetition-threshold) precisa ficar entre 2 "
        "e a janela (" +
        std::to_string(config.window) + "); veio " + std::to_string(config.threshold)};
  }
  return config;
}

// listing: compare-with-last
Repetition compare_with_last(std::span<const Observation> earlier, const Observation& now) {
  // EXERCICIO 03-repetition-detector/slow-or-stuck: progresso lento ou chamada travada?
  // Só a última vez importa: uma sondagem que já mudou de resposta segue sendo progresso.
  for (auto it = earlier.rbegin(); it != earlier.rend(); ++it) {
    if (it->key == now.key) {
      return it->result_hash == now.result_hash ? Repetition::repeat : Repetition::progress;
    }
  }
  return Repetition::fresh;
  // FIM-EXERCICIO
}
// end-listing: compare-with-last

// listing: cycle-period
int cycle_period(std::span<const Observation> history) {
  // EXERCICIO 03-repetition-detector/cycle: a janela termina num ciclo de período p?
  for (std::size_t period = 2; period <= std::size_t{kMaxCyclePeriod}; ++period) {
    if (history.size() < 2 * period) break;
    const std::span<const Observation> tail = history.last(2 * period);
    bool repeated = true;
    bool varied = false;  // A-A-A-A é repetição, que a contagem já pega
    for (std::size_t i = 0; i < period; ++i) {
      repeated = repeated && same_call_and_result(tail[i], tail[i + period]);
      varied = varied || !same_call_and_result(tail[i], tail[0]);
    }
    if (repeated && varied) return static_cast<int>(period);
  }
  return 0;
  // FIM-EXERCICIO
}
// end-listing: cycle-period

// listing: nudge
std::string nudge_text(const Verdict& verdict) {
  // EXERCICIO 03-repetition-detector/nudge: a nota que tira o modelo da repetição
  if (!verdict.stuck) return "";
  std::string what;
  if (verdict.kind == Repetition::repeat) {
    what = "Você chamou " + verdict.name + " " + std::to_string(verdict.count) +
           " vezes com os mesmos argumentos e recebeu sempre o mesmo " +
           (verdict.ok ? "resultado" : "erro") + ": repetir a chamada não traz nada novo.";
  } else if (verdict.kind == Repetition::cycle) {
    what = "Suas últimas " + std::to_string(2 * verdict.period) +
           " chamadas repetiram duas vezes a mesma sequência (" + join(verdict.cycle, " → ") +
           "), com os mesmos argumentos e os mesmos resultados: repetir a sequência não traz "
           "nada novo.";
  } else {
    return "";
  }
  return std::string(kNudgeMark) + what + " " + std::string(kNudgeAdvice);
  // FIM-EXERCICIO
}
// end-listing: nudge

void append_nudge(Message& tool_message, const Verdict& verdict) {
  const std::string text = nudge_text(verdict);
  if (text.empty()) return;
  if (!tool_message.content.empty()) tool_message.content += "\n\n";
  tool_message.content += text;
}

RepetitionDetector::RepetitionDetector(RepetitionConfig config) : config_(std::move(config)) {
  if (const Result<RepetitionConfig> checked = check_repetition_config(config_); !checked) {
    throw std::invalid_argument(checked.error().message);
  }
}

// listing: observe
Verdict RepetitionDetector::observe(const Observation& now) {
  if (is_exempt(now.name)) {
    return Verdict{.kind = Repetition::exempt, .count = 0, .name = now.name, .ok = now.ok};
  }
  // EXERCICIO 03-repetition-detector/window: o veredito da janela depois de mais uma chamada
  Verdict verdict{.name = now.name, .ok = now.ok};
  const std::size_t earlier =
      std::min(history_.size(), static_cast<std::size_t>(config_.window) - 1);
  const std::span<const Observation> window = std::span(history_).last(earlier);
  verdict.kind = compare_with_last(window, now);
  verdict.count +=
      static_cast<int>(std::count_if(window.begin(), window.end(), [&now](const Observation& seen) {
        return same_call_and_result(seen, now);
      }));
  verdict.stuck = verdict.kind == Repetition::repeat && verdict.count >= config_.threshold;
  remember(now);
  if (!verdict.stuck) {
    verdict.period = cycle_period(history_);
    if (verdict.period > 0) {
      verdict.kind = Repetition::cycle;
      verdict.stuck = true;
      for (const Observation& seen :
           std::span(history_).last(static_cast<std::size_t>(verdict.period))) {
        verdict.cycle.push_back(seen.name);
      }
    }
  }
  if (verdict.stuck) verdict.action = strike(now.step);
  return verdict;
  // FIM-EXERCICIO
}
// end-listing: observe

void RepetitionDetector::reset() {
  history_.clear();
  strikes_ = 0;
  warned_step_ = 0;
}

bool RepetitionDetector::is_exempt(std::string_view name) const {
  return std::find(config_.exempt.begin(), config_.exempt.end(), name) != config_.exempt.end();
}

// A janela é W, mas um ciclo de período 3 precisa de 6 observações.
void RepetitionDetector::remember(const Observation& now) {
  history_.push_back(now);
  const std::size_t keep = std::max<std::size_t>(config_.window, 2 * kMaxCyclePeriod);
  if (history_.size() > keep) history_.erase(history_.begin());
}

// listing: strike
// Dois avisos: o primeiro travamento do turno avisa; o próximo para. Um
// travamento no mesmo step do aviso não conta de novo: o aviso ainda está
// indo para o modelo, junto com os resultados desse step.
Action RepetitionDetector::strike(int step) {
  if (strikes_ == 0) {
    strikes_ = 1;
    warned_step_ = step;
    return Action::warn;
  }
  if (step == warned_step_) return Action::none;
  strikes_ = 2;
  return Action::stop;
}
// end-listing: strike

}  // namespace hz
