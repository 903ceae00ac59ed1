#include "policy.hpp"

#include <utility>

#include "hz/not_implemented.hpp"

// SEU-CODIGO: includes, constantes e funções suas (./hz carry e ./hz update os levam)
// FIM-SEU-CODIGO

namespace hz {

Brakes::Brakes(const Budget* budget, std::chrono::milliseconds turn_deadline,
               const std::atomic<bool>* cancel, const Clock& clock)
    : budget_(budget), turn_deadline_(turn_deadline), cancel_(cancel), clock_(clock) {}

// listing: abort-check
std::optional<Outcome> Brakes::abort_check(const TurnState& state) const {
  // TODO EXERCICIO 02-brakes/abort-check: o freio que vale agora, ou nenhum
  throw hz::NotImplemented("02-brakes/abort-check",
                           "livro/02-brakes.md, \"Exercício 5 — Os freios, na ordem\"");
  // FIM-EXERCICIO
}
// end-listing: abort-check

// listing: after-step
Decision Brakes::after_step(const TurnState& state) const {
  if (const std::optional<Outcome> stop = abort_check(state)) return Decision::stop(*stop);
  Decision decision = Decision::proceed();
  decision.memory = state.memory;
  if (std::optional<std::string> note = budget_note(state.memory)) {
    decision.kind = Decision::Kind::proceed_with_note;
    decision.note = std::move(*note);
    decision.memory.budget_noted = true;
  }
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

std::optional<std::chrono::milliseconds> Brakes::time_left(const TurnState& state) const {
  if (turn_deadline_.count() <= 0) return std::nullopt;
  const auto left =
      std::chrono::ceil<std::chrono::milliseconds>(state.started + turn_deadline_ - clock_.now());
  return std::max(left, std::chrono::milliseconds(0));
}

}  // namespace hz
