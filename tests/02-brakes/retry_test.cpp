// call_with_retry contra o mock, com o relógio falso: quantos pedidos o mock
// recebeu, quanto o loop esperou entre eles (exatamente), o que entrou na conta
// e o que o trace contou.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agent_loop.hpp"
#include "budget.hpp"
#include "helpers.hpp"
#include "hz/chat_client.hpp"
#include "hz/testing/scripted_model.hpp"
#include "policy.hpp"

using hz::Message;
using hz::Outcome;
using hz::test01::echo_tool;
using hz::test01::event_difference;
using hz::test02::FakeClock;
using hz::test02::prices;
using hz::test02::shown;
using hz::test02::usd;
using nlohmann::json;
using std::chrono::milliseconds;

namespace {

// O mock, o cliente HTTP de verdade, um relógio falso e um sorteio fixo (0:
// sem jitter). max_retries 2, como nos SDKs.
struct RetryRig {
  explicit RetryRig(std::string_view scenario)
      : model(scenario), client(model.endpoint()), box({echo_tool()}), config{"modelo-teste", 10} {
    config.retry.max_retries = 2;
    config.clock = &clock;
    config.random = [] { return 0.0; };
    config.cancel = &cancel;
  }

  hz::Result<hz::ChatReply, Outcome> call() {
    const hz::Brakes brakes(config.budget, config.turn_deadline, config.cancel, clock);
    state.started = clock.now();
    return hz::call_with_retry(history, config, client, box, recorded.trace(), 1, brakes, state);
  }

  std::size_t requests() const { return model.requests().size(); }

  hz::testing::ScriptedModel model;
  hz::OpenAiClient client;
  hz::ToolBox box;
  hz::test01::RecordedTrace recorded;
  FakeClock clock;
  std::atomic<bool> cancel{false};
  hz::LoopConfig config;
  hz::TurnState state;
  std::vector<Message> history{Message::system("regras"), Message::user("oi")};
};

std::string shown(const hz::Result<hz::ChatReply, Outcome>& result) {
  if (result) return "resposta: " + result->message.content;
  return "desfecho: " + std::string(hz::to_string(result.error()));
}

// O corpo que o mock manda no fault "malformed" sem streaming.
constexpr std::string_view kMalformedBody = "<html><body><h1>502 Bad Gateway</h1></body></html>\n";

}  // namespace

TEST_SUITE_BEGIN("02-brakes/retry");

TEST_CASE("500, 503 e depois a resposta: duas novas tentativas, 500 ms e 1000 ms") {
  RetryRig rig(R"({"name": "instavel", "steps": [
    {"error": {"status": 500, "message": "erro interno"}},
    {"error": {"status": 503, "message": "sobrecarregado"}},
    {"content": "enfim", "usage": {"prompt_tokens": 10, "completion_tokens": 2}}
  ]})");
  const auto result = rig.call();
  CHECK(shown(result) == "resposta: enfim");
  CHECK(rig.requests() == 3);
  CHECK(shown(rig.clock.sleeps) == "500 ms, 1000 ms");
  CHECK(rig.state.retries == 2);
  CHECK(rig.state.model_calls == 1);
  const std::vector<json> expected{
      {{"event", "model_request"}, {"turn", 1}},
      {{"event", "model_error"},
       {"turn", 1},
       {"attempt", 1},
       {"kind", "http"},
       {"status", 500},
       {"message", "o provedor respondeu HTTP 500: erro interno"},
       {"billed", false}},
      {{"event", "retry"},
       {"turn", 1},
       {"attempt", 2},
       {"delay_ms", 500},
       {"status", 500},
       {"reason", "o provedor respondeu HTTP 500: erro interno"}},
      {{"event", "model_request"}, {"turn", 1}},
      {{"event", "model_error"}, {"attempt", 2}, {"status", 503}},
      {{"event", "retry"}, {"attempt", 3}, {"delay_ms", 1000}, {"status", 503}},
      {{"event", "model_request"}, {"turn", 1}},
      {{"event", "model_response"}, {"turn", 1}}};
  CHECK(event_difference(rig.recorded.events(), expected) == "iguais");
}

TEST_CASE("o jitter sorteado entra na espera") {
  RetryRig rig(R"({"name": "jitter", "steps": [
    {"error": {"status": 502}}, {"error": {"status": 502}}, {"content": "ok"}
  ]})");
  rig.config.random = [] { return 0.5; };
  const auto result = rig.call();
  CHECK(shown(result) == "resposta: ok");
  CHECK(shown(rig.clock.sleeps) == "437 ms, 875 ms");
}

TEST_CASE("429 com Retry-After espera o que o servidor pediu") {
  RetryRig rig(R"({"name": "limite", "steps": [
    {"error": {"status": 429, "message": "devagar", "retry_after": 2}},
    {"error": {"status": 429, "retry_after": 7, "retry_after_ms": 250}},
    {"content": "ok"}
  ]})");
  const auto result = rig.call();
  CHECK(shown(result) == "resposta: ok");
  CHECK(rig.requests() == 3);
  CHECK(shown(rig.clock.sleeps) == "2000 ms, 250 ms");
}

TEST_CASE("401 falha na hora: provider_error com a mensagem do provedor, sem esperar") {
  RetryRig rig(R"({"name": "chave", "steps": [
    {"error": {"status": 401, "message": "Incorrect API key provided"}},
    {"content": "não devia chegar"}
  ]})");
  const auto result = rig.call();
  CHECK(shown(result) == "desfecho: provider_error");
  CHECK(rig.requests() == 1);
  CHECK(shown(rig.clock.sleeps) == "(nenhum)");
  CHECK(rig.state.error == "o provedor respondeu HTTP 401: Incorrect API key provided");
  CHECK(rig.state.retries == 0);
}

TEST_CASE("esgotadas as novas tentativas, provider_error com a última mensagem") {
  RetryRig rig(R"({"name": "fora", "steps": [
    {"error": {"status": 503, "message": "sobrecarregado"}},
    {"error": {"status": 502, "message": "gateway caiu"}},
    {"error": {"status": 503, "message": "fora do ar"}},
    {"content": "a 4ª tentativa: passou de max_retries 2"}
  ]})");
  const auto result = rig.call();
  CHECK(shown(result) == "desfecho: provider_error");
  CHECK(rig.requests() == 3);
  CHECK(shown(rig.clock.sleeps) == "500 ms, 1000 ms");
  CHECK(rig.state.retries == 2);
  CHECK(rig.state.error == "o provedor respondeu HTTP 503: fora do ar");
}

TEST_CASE("sem novas tentativas configuradas (a etapa 01), a primeira falha encerra") {
  RetryRig rig(
      R"({"name": "uma", "steps": [{"error": {"status": 500}}, {"content": "não devia chegar"}]})");
  rig.config.retry.max_retries = 0;
  const auto result = rig.call();
  CHECK(shown(result) == "desfecho: provider_error");
  CHECK(rig.requests() == 1);
}

TEST_CASE("a conexão que cai sem resposta vale nova tentativa") {
  RetryRig rig(R"({"name": "queda", "steps": [{"fault": "drop"}, {"content": "voltei"}]})");
  const auto result = rig.call();
  CHECK(shown(result) == "resposta: voltei");
  CHECK(rig.requests() == 2);
  CHECK(shown(rig.clock.sleeps) == "500 ms");
  const auto events = rig.recorded.events();
  REQUIRE(events.size() >= 2);
  CHECK(events[1]["kind"] == "connection");
  CHECK(events[1]["billed"] == false);
}

TEST_CASE("o corpo ilegível foi cobrado: entra na conta pela estimativa e o loop tenta de novo") {
  RetryRig rig(R"({"name": "quebrado", "steps": [
    {"fault": "malformed"},
    {"content": "ok", "usage": {"prompt_tokens": 100, "completion_tokens": 20}}
  ]})");
  hz::Budget budget(1'000'000);
  rig.config.budget = &budget;
  rig.config.prices = prices("2.50", "10.00");
  const auto result = rig.call();
  CHECK(shown(result) == "resposta: ok");
  const auto requests = rig.model.requests();
  REQUIRE(requests.size() == 2);
  const hz::Usage guess = hz::estimate_usage(requests[0].raw_body.size(), kMalformedBody.size());
  const hz::Micros billed = hz::call_cost(guess, rig.config.prices);
  CHECK(billed > 0);
  // A resposta: 100 × 2,50 + 20 × 10 = 450 micro-dólares.
  CHECK(usd(rig.state.cost_micros) == usd(billed + 450));
  CHECK(usd(budget.spent()) == usd(billed + 450));
  CHECK(rig.state.cost_estimated);
  CHECK(rig.state.usage.prompt_tokens == guess.prompt_tokens + 100);
  const auto events = rig.recorded.events();
  REQUIRE(events.size() >= 2);
  CHECK(events[1]["kind"] == "malformed");
  CHECK(events[1]["billed"] == true);
  CHECK(events[1]["cost_usd"] == hz::to_usd(billed));
}

TEST_CASE("uma falha cobrada que esgota o orçamento impede a próxima tentativa") {
  RetryRig rig(
      R"({"name": "caro", "steps": [{"fault": "malformed"}, {"content": "não devia chegar"}]})");
  hz::Budget budget(10);
  rig.config.budget = &budget;
  rig.config.prices = prices("2.50", "10.00");
  const auto result = rig.call();
  CHECK(shown(result) == "desfecho: budget");
  CHECK(rig.requests() == 1);
  CHECK(shown(rig.clock.sleeps) == "(nenhum)");
  CHECK(budget.spent() > 10);
}

TEST_CASE("Ctrl-C durante a espera do backoff encerra antes da próxima tentativa") {
  RetryRig rig(
      R"({"name": "espera", "steps": [{"error": {"status": 500}}, {"content": "não devia chegar"}]})");
  rig.clock.on_sleep = [&rig] { rig.cancel = true; };
  const auto result = rig.call();
  CHECK(shown(result) == "desfecho: cancelled");
  CHECK(rig.requests() == 1);
  CHECK(shown(rig.clock.sleeps) == "500 ms");
  CHECK_MESSAGE(rig.state.retries == 0,
                "state.retries conta as novas tentativas que saíram; a que o Ctrl-C impediu "
                "depois da espera não conta");
}

TEST_CASE("a espera não passa do prazo do turno, e o prazo vencido encerra com timeout") {
  RetryRig rig(
      R"({"name": "prazo", "steps": [{"error": {"status": 500}}, {"content": "não devia chegar"}]})");
  rig.config.turn_deadline = milliseconds(300);
  const auto result = rig.call();
  CHECK(shown(result) == "desfecho: timeout");
  CHECK(rig.requests() == 1);
  CHECK(shown(rig.clock.sleeps) == "300 ms");
  CHECK_MESSAGE(rig.state.retries == 0,
                "state.retries conta as novas tentativas que saíram; a que o prazo impediu "
                "depois da espera não conta");
}

TEST_CASE("um freio já acionado não deixa nem a primeira tentativa sair") {
  RetryRig rig(R"({"name": "nada", "steps": [{"content": "não devia chegar"}]})");
  rig.cancel = true;
  const auto result = rig.call();
  CHECK(shown(result) == "desfecho: cancelled");
  CHECK(rig.requests() == 0);
  CHECK(event_difference(rig.recorded.events(), {}) == "iguais");
}

TEST_CASE("a falha cobrada da última tentativa também entra na conta") {
  // Sem novas tentativas: a decisão de parar não pode pular a conta.
  RetryRig rig(
      R"({"name": "ultima", "steps": [{"fault": "malformed"}, {"content": "não devia chegar"}]})");
  rig.config.retry.max_retries = 0;
  hz::Budget budget(1'000'000);
  rig.config.budget = &budget;
  rig.config.prices = prices("2.50", "10.00");
  const auto result = rig.call();
  CHECK(shown(result) == "desfecho: provider_error");
  const auto requests = rig.model.requests();
  REQUIRE(requests.size() == 1);
  const hz::Usage guess = hz::estimate_usage(requests[0].raw_body.size(), kMalformedBody.size());
  const hz::Micros billed = hz::call_cost(guess, rig.config.prices);
  CHECK(usd(budget.spent()) == usd(billed));
  CHECK(usd(rig.state.cost_micros) == usd(billed));
  const auto events = rig.recorded.events();
  REQUIRE(events.size() >= 2);
  CHECK(events[1]["event"] == "model_error");
  CHECK(events[1]["cost_usd"] == hz::to_usd(billed));
}

TEST_CASE("a última tentativa cobrada que estoura o teto termina em budget, não provider_error") {
  // O freio que a própria falha acionou vale mais que "acabaram as tentativas".
  RetryRig rig(R"({"name": "ultima-cara", "steps": [{"fault": "malformed"}, {"content": "x"}]})");
  rig.config.retry.max_retries = 0;
  hz::Budget budget(10);
  rig.config.budget = &budget;
  rig.config.prices = prices("2.50", "10.00");
  const auto result = rig.call();
  CHECK(shown(result) == "desfecho: budget");
  CHECK(rig.requests() == 1);
  CHECK(budget.spent() > 10);
}

TEST_SUITE_END();
