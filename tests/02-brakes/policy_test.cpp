// Os freios: abort_check (o que não espera o fim do passo, na ordem da
// precedência) e after_step, que começa por ele e dá a nota de orçamento.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>

#include "budget.hpp"
#include "helpers.hpp"
#include "policy.hpp"

using hz::Brakes;
using hz::Budget;
using hz::Decision;
using hz::Outcome;
using hz::TurnState;
using hz::test02::FakeClock;
using hz::test02::shown;
using std::chrono::milliseconds;

namespace {

// Um turno que começou agora no relógio falso.
TurnState started_at(const FakeClock& clock) {
  TurnState state;
  state.started = clock.now();
  return state;
}

std::string shown_decision(const Decision& decision) {
  switch (decision.kind) {
    case Decision::Kind::proceed:
      return "segue";
    case Decision::Kind::proceed_with_note:
      return "segue com nota: " + decision.note;
    case Decision::Kind::stop:
      return "para: " + std::string(hz::to_string(decision.outcome));
  }
  return "?";
}

}  // namespace

TEST_SUITE_BEGIN("02-brakes/abort-check");

TEST_CASE("sem nenhum freio ligado, abort_check deixa seguir") {
  FakeClock clock;
  Budget unlimited;
  unlimited.charge(1'000'000);
  std::atomic<bool> cancel{false};
  const Brakes brakes(&unlimited, milliseconds(0), &cancel, clock);
  const TurnState state = started_at(clock);
  clock.advance(std::chrono::hours(5));
  CHECK(shown(brakes.abort_check(state)) == "(segue)");
  const Brakes none(nullptr, milliseconds(0), nullptr, clock);
  CHECK(shown(none.abort_check(state)) == "(segue)");
}

TEST_CASE("Ctrl-C para com cancelled") {
  FakeClock clock;
  std::atomic<bool> cancel{false};
  const Brakes brakes(nullptr, milliseconds(0), &cancel, clock);
  const TurnState state = started_at(clock);
  CHECK(shown(brakes.abort_check(state)) == "(segue)");
  cancel = true;
  CHECK(shown(brakes.abort_check(state)) == "cancelled");
}

TEST_CASE("o orçamento esgotado para com budget") {
  FakeClock clock;
  Budget budget(1000);
  const Brakes brakes(&budget, milliseconds(0), nullptr, clock);
  const TurnState state = started_at(clock);
  budget.charge(999);
  CHECK(shown(brakes.abort_check(state)) == "(segue)");
  budget.charge(1);
  CHECK(shown(brakes.abort_check(state)) == "budget");
  // Uma fatia esgota quando o pai esgota, mesmo sem ter gasto a dela (exhausted()).
  Budget parent(1000);
  Budget slice = parent.slice(500);
  const Brakes sliced(&slice, milliseconds(0), nullptr, clock);
  parent.charge(1000);
  CHECK(shown(sliced.abort_check(state)) == "budget");
}

TEST_CASE("o prazo do turno vencido para com timeout, e não antes") {
  FakeClock clock;
  const Brakes brakes(nullptr, milliseconds(2000), nullptr, clock);
  const TurnState state = started_at(clock);
  clock.advance(milliseconds(1999));
  CHECK(shown(brakes.abort_check(state)) == "(segue)");
  clock.advance(milliseconds(1));
  CHECK(shown(brakes.abort_check(state)) == "timeout");
}

TEST_CASE("vários freios ao mesmo tempo: vale a precedência cancelled, budget, timeout") {
  FakeClock clock;
  Budget budget(10);
  std::atomic<bool> cancel{false};
  const Brakes brakes(&budget, milliseconds(100), &cancel, clock);
  const TurnState state = started_at(clock);
  clock.advance(milliseconds(100));
  CHECK(shown(brakes.abort_check(state)) == "timeout");
  budget.charge(10);
  CHECK(shown(brakes.abort_check(state)) == "budget");
  cancel = true;
  CHECK(shown(brakes.abort_check(state)) == "cancelled");
}

TEST_CASE("after_step para pelos mesmos freios de abort_check") {
  FakeClock clock;
  Budget budget(500);
  const Brakes checks(&budget, milliseconds(0), nullptr, clock);
  const Brakes brakes(&budget, milliseconds(0), nullptr, clock);
  const TurnState state = started_at(clock);
  budget.charge(500);
  CHECK(shown(checks.abort_check(state)) == "budget");
  CHECK(shown_decision(brakes.after_step(state)) == "para: budget");
}

TEST_CASE("after_step avisa o modelo uma vez quando o gasto chega a 80 por cento do teto") {
  FakeClock clock;
  Budget budget(1000);  // US$ 0.001
  const Brakes brakes(&budget, milliseconds(0), nullptr, clock);
  TurnState state = started_at(clock);
  budget.charge(799);
  Decision decision = brakes.after_step(state);
  CHECK(shown_decision(decision) == "segue");
  CHECK_FALSE(decision.memory.budget_noted);
  budget.charge(1);
  decision = brakes.after_step(state);
  CHECK(shown_decision(decision) ==
        "segue com nota: [nota do harness: restam US$ 0.0002 do orçamento de US$ 0.001 desta "
        "conversa; conclua o trabalho e responda sem chamar mais ferramentas]");
  CHECK(decision.memory.budget_noted);
  // Sem guardar a memória, os freios dariam a mesma nota de novo: eles não lembram de nada.
  CHECK(shown_decision(brakes.after_step(state)) == shown_decision(decision));
  state.memory = decision.memory;  // o que o loop faz depois de cada passo
  budget.charge(100);
  decision = brakes.after_step(state);
  CHECK(shown_decision(decision) == "segue");
  CHECK(decision.memory.budget_noted);
}

TEST_CASE("after_step sem teto nunca dá nota de orçamento") {
  FakeClock clock;
  Budget unlimited;
  unlimited.charge(1'000'000'000);
  const Brakes brakes(&unlimited, milliseconds(0), nullptr, clock);
  CHECK(shown_decision(brakes.after_step(started_at(clock))) == "segue");
}

TEST_SUITE_END();
