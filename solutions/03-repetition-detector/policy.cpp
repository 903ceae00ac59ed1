#include "policy.hpp"

#include <algorithm>
#include <utility>

namespace hz {

Brakes::Brakes(const Budget* budget, std::chrono::milliseconds turn_deadline,
               const std::atomic<bool>* cancel, const Clock& clock)
    : budget_(budget), turn_deadline_(turn_deadline), cancel_(cancel), clock_(clock) {}

Brakes::Brakes(const Budget* budget, std::chrono::milliseconds turn_deadline,
               const std::atomic<bool>* cancel, const Clock& clock,
               std::optional<RepetitionConfig> repetition)
    : Brakes(budget, turn_deadline, cancel, clock) {
  if (repetition) {
    // Inválido lança aqui, como sempre: o detector confere o config ao nascer.
    RepetitionDetector check(*repetition);
    repetition_ = std::move(repetition);
  }
}

void append_note(std::vector<Message>& history, std::string_view note, std::string_view call_id) {
  auto target = std::find_if(history.rbegin(), history.rend(), [&](const Message& message) {
    return message.role == Role::tool && message.tool_call_id == call_id;
  });
  if (call_id.empty() || target == history.rend()) target = history.rbegin();
  target->content += "\n\n";
  target->content += note;
}

// listing: abort-check
std::optional<Outcome> Brakes::abort_check(const TurnState& state) const {
  // EXERCICIO 02-brakes/abort-check: o freio que vale agora, ou nenhum
  if (cancel_ != nullptr && cancel_->load()) return Outcome::cancelled;
  if (budget_ != nullptr && budget_->exhausted()) return Outcome::budget;
  if (turn_deadline_.count() > 0 && clock_.now() - state.started >= turn_deadline_) {
    return Outcome::timeout;
  }
  return std::nullopt;
  // FIM-EXERCICIO
}
// end-listing: abort-check

// listing: after-step
Decision Brakes::after_step(const TurnState& state) const {
  if (const std::optional<Outcome> stop = abort_check(state)) return Decision::stop(*stop);
  PolicyMemory memory = state.memory;
  if (repetition_ && !memory.detector) memory.detector.emplace(*repetition_);
  Decision decision =
      memory.detector ? watch_repetition(state, *memory.detector) : Decision::proceed();
  if (decision.kind == Decision::Kind::stop) return decision;
  if (std::optional<std::string> note = budget_note(memory)) {
    memory.budget_noted = true;
    // Depois do aviso, se houver; os eventos do detector ficam na decisão.
    if (decision.kind == Decision::Kind::proceed_with_note) decision.note += "\n\n";
    decision.kind = Decision::Kind::proceed_with_note;
    decision.note += *note;
  }
  decision.memory = std::move(memory);
  return decision;
}

// O modelo não vê o orçamento; sem o aviso, o teto só aparece como um corte
// no meio do trabalho. Uma vez por turno basta.
std::optional<std::string> Brakes::budget_note(const PolicyMemory& memory) const {
  if (memory.budget_noted || budget_ == nullptr || !budget_->ceiling()) return std::nullopt;
  const Micros ceiling = *budget_->ceiling();
  const Micros left = budget_->remaining().value_or(0);
  if ((ceiling - left) * 100 < ceiling * kBudgetNotePercent) return std::nullopt;
  return "[nota do harness: restam US$ " + format_usd(left) + " do orçamento de US$ " +
         format_usd(ceiling) +
         " desta conversa; conclua o trabalho e responda sem chamar mais ferramentas]";
}
// end-listing: after-step

// listing: watch-repetition
// Cada tool call do passo, na ordem, vira uma observação. O passo guarda o
// texto que voltou, não se a ferramenta deu certo: ok vai sempre true, e o
// aviso fala em "resultado" (um erro também é um resultado). O aviso vai no
// resultado da chamada que travou, junto da evidência. O que o detector viu
// vai na decisão, também na parada: o loop grava os eventos antes de agir.
Decision Brakes::watch_repetition(const TurnState& state, RepetitionDetector& detector) const {
  Decision decision = Decision::proceed();
  std::vector<nlohmann::json> events;
  const std::size_t answered = std::min(state.last_calls.size(), state.last_results.size());
  for (std::size_t i = 0; i < answered; ++i) {
    const Observation seen = observation_of(state.last_calls[i], state.last_results[i].content,
                                            /*ok=*/true, state.model_calls);
    const Verdict verdict = detector.observe(seen);
    report(verdict, seen, detector.config().threshold, events);
    if (verdict.action == Action::stop) {
      decision = Decision::stop(Outcome::repetition);
      break;
    }
    if (verdict.action == Action::warn) {
      decision = Decision::proceed_with_note(nudge_text(verdict), seen.call_id);
    }
  }
  decision.events = std::move(events);
  return decision;
}
// end-listing: watch-repetition

// listing: repetition-events
// O que o detector viu, para o trace, acrescentado a events:
// tool_repetition para a chamada que não é nova (progress, repeat ou cycle; a
// nova e a isenta não aparecem), e repetition_warning ou repetition_stop
// quando ela trava. Assim o "lento" e o "travado" ficam visíveis antes de o
// turno parar.
void Brakes::report(const Verdict& verdict, const Observation& seen, int threshold,
                    std::vector<nlohmann::json>& events) {
  const std::string_view kind = to_string(verdict.kind);
  if (verdict.kind != Repetition::fresh && verdict.kind != Repetition::exempt) {
    events.push_back({{"event", "tool_repetition"},
                      {"turn", seen.step},
                      {"call_id", seen.call_id},
                      {"name", seen.name},
                      {"repetition", kind},
                      {"repeat_count", verdict.count},
                      {"threshold", threshold}});
  }
  if (verdict.action == Action::none) return;
  nlohmann::json event = {
      {"event", verdict.action == Action::warn ? "repetition_warning" : "repetition_stop"},
      {"turn", seen.step},
      {"call_id", seen.call_id},
      {"name", seen.name},
      {"count", verdict.count},
      {"kind", verdict.kind == Repetition::cycle ? "cycle" : "same"}};
  if (verdict.kind == Repetition::cycle) event["cycle"] = verdict.cycle;
  events.push_back(std::move(event));
}
// end-listing: repetition-events

std::optional<std::chrono::milliseconds> Brakes::time_left(const TurnState& state) const {
  if (turn_deadline_.count() <= 0) return std::nullopt;
  const auto left =
      std::chrono::ceil<std::chrono::milliseconds>(state.started + turn_deadline_ - clock_.now());
  return std::max(left, std::chrono::milliseconds(0));
}

}  // namespace hz
