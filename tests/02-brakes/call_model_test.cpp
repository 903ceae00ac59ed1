// call_model na etapa 02: uma tentativa com as opções da chamada (streaming,
// tempo, cancelamento) e o custo dela no model_response. E call_options, que
// monta essas opções a partir da configuração e do prazo do turno.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agent_loop.hpp"
#include "helpers.hpp"
#include "hz/chat_client.hpp"
#include "hz/testing/scripted_model.hpp"

using hz::Message;
using hz::test01::echo_tool;
using hz::test01::event_difference;
using hz::test02::prices;
using nlohmann::json;
using std::chrono::milliseconds;

namespace {

struct Rig {
  explicit Rig(std::string_view scenario)
      : model(scenario), client(model.endpoint()), box({echo_tool()}), config{"modelo-teste", 10} {}

  hz::ChatReply call(const hz::CallOptions& options = {}) {
    return hz::call_model(history, config, client, box, recorded.trace(), 1, options);
  }

  hz::testing::ScriptedModel model;
  hz::OpenAiClient client;
  hz::ToolBox box;
  hz::test01::RecordedTrace recorded;
  hz::LoopConfig config;
  std::vector<Message> history{Message::system("regras"), Message::user("oi")};
};

// Um ChatModel que guarda as opções que recebeu e responde "ok".
class OptionsSpy final : public hz::ChatModel {
 public:
  hz::Result<hz::ChatReply, hz::ModelError> complete(const hz::ChatRequest& request) override {
    return call(request, {});
  }
  hz::Result<hz::ChatReply, hz::ModelError> call(const hz::ChatRequest&,
                                                 const hz::CallOptions& options) override {
    seen = options;
    hz::ChatReply reply;
    reply.message = Message::assistant("ok");
    reply.finish_reason = "stop";
    reply.usage.reported = true;
    return reply;
  }
  hz::CallOptions seen;
};

}  // namespace

TEST_SUITE_BEGIN("02-brakes/call-model");

TEST_CASE("call_model passa ao modelo as opções da chamada") {
  OptionsSpy spy;
  const hz::ToolBox box({echo_tool()});
  hz::test01::RecordedTrace recorded;
  const hz::LoopConfig config{"m", 10};
  std::atomic<bool> cancel{true};
  hz::CallOptions options;
  options.stream = true;
  options.timeout = milliseconds(1234);
  options.should_abort = [&cancel] { return cancel.load(); };
  hz::call_model({Message::user("oi")}, config, spy, box, recorded.trace(), 1, options);
  CHECK(spy.seen.stream);
  REQUIRE(spy.seen.timeout.has_value());
  CHECK(spy.seen.timeout->count() == 1234);
  REQUIRE(spy.seen.should_abort);
  CHECK(spy.seen.should_abort());
}

TEST_CASE("call_model com streaming pede stream e o uso no fim") {
  Rig rig(R"({"name": "s", "steps": [{"content": "olá você",
    "usage": {"prompt_tokens": 10, "completion_tokens": 2}}]})");
  hz::CallOptions options;
  options.stream = true;
  std::string streamed;
  options.on_text = [&streamed](std::string_view text) { streamed += text; };
  const hz::ChatReply reply = rig.call(options);
  CHECK(reply.message.content == "olá você");
  CHECK(reply.streamed);
  CHECK(streamed == "olá você");
  const auto bodies = rig.model.request_bodies();
  REQUIRE(bodies.size() == 1);
  // value(), e não [], que num json const sem a chave aborta o teste.
  INFO("o corpo do pedido: " << bodies[0].dump());
  CHECK(bodies[0].value("stream", json()) == true);
  CHECK(bodies[0].value("stream_options", json()) == json{{"include_usage", true}});
}

TEST_CASE("o model_response traz o custo da chamada pelo preço da configuração") {
  Rig rig(R"({"name": "custo", "steps": [{"content": "pronto",
    "usage": {"prompt_tokens": 1000, "completion_tokens": 500}}]})");
  rig.config.prices = prices("2.50", "10.00");
  rig.call();
  const std::vector<json> expected{
      {{"event", "model_request"}, {"turn", 1}, {"messages", 2}, {"tools", 1}},
      {{"event", "model_response"},
       {"turn", 1},
       {"usage", {{"prompt_tokens", 1000}, {"completion_tokens", 500}}},
       {"cost_usd", 0.0075},
       {"estimated", false}}};
  CHECK(event_difference(rig.recorded.events(), expected) == "iguais");
}

TEST_CASE("resposta sem uso informado volta com a estimativa pelos bytes, marcada") {
  // Sem "usage", com {} ou com 0/0: nada informado, e o provedor cobrou do mesmo jeito.
  for (const char* step : {R"("quirks": ["no_usage"], "steps": [{"content": "pronto"}])",
                           R"("steps": [{"content": "pronto", "usage": {}}])",
                           R"("steps": [{"content": "pronto",
                               "usage": {"prompt_tokens": 0, "completion_tokens": 0}}])"}) {
    CAPTURE(step);
    Rig rig(std::string(R"({"name": "sem-uso", )") + step + "}");
    rig.config.prices = prices("2.50", "10.00");
    const hz::ChatReply reply = rig.call();
    const auto requests = rig.model.requests();
    REQUIRE(requests.size() == 1);
    CHECK(reply.request_bytes == requests[0].raw_body.size());
    const hz::Usage expected = hz::estimate_usage(reply.request_bytes, reply.response_bytes);
    CHECK(reply.usage.prompt_tokens == expected.prompt_tokens);
    CHECK(reply.usage.completion_tokens == expected.completion_tokens);
    CHECK(reply.usage.estimated);
    const auto events = rig.recorded.events();
    REQUIRE(events.size() == 2);
    CHECK(events[1]["estimated"] == true);
    CHECK(events[1]["cost_usd"] == hz::to_usd(hz::call_cost(expected, rig.config.prices)));
    CHECK(events[1]["cost_usd"].get<double>() > 0);
  }
}

TEST_CASE("só total_tokens: todos os tokens pelo preço mais caro, marcados estimados") {
  Rig rig(R"({"name": "so-total", "steps": [{"content": "pronto",
    "usage": {"total_tokens": 1000}}]})");
  rig.config.prices = prices("2.50", "10.00");
  const hz::ChatReply reply = rig.call();
  CHECK(reply.usage == hz::Usage{0, 1000, false, true});
  const std::vector<json> expected{
      {{"event", "model_request"}, {"turn", 1}, {"messages", 2}, {"tools", 1}},
      {{"event", "model_response"},
       {"turn", 1},
       {"usage", {{"prompt_tokens", 0}, {"completion_tokens", 1000}}},
       {"cost_usd", 0.01},
       {"estimated", true}}};
  CHECK(event_difference(rig.recorded.events(), expected) == "iguais");
}

TEST_CASE("quando o cliente desiste do streaming, o trace diz por quê") {
  Rig rig(R"({"name": "recusa", "quirks": ["reject_stream_options"], "steps": [
    {"content": "sem streaming", "usage": {"prompt_tokens": 5, "completion_tokens": 2}}]})");
  hz::CallOptions options;
  options.stream = true;
  const hz::ChatReply reply = rig.call(options);
  CHECK(reply.message.content == "sem streaming");
  CHECK(rig.model.request_bodies().size() == 2);
  const std::vector<json> expected{
      {{"event", "model_request"}, {"turn", 1}},
      {{"event", "stream_fallback"}, {"turn", 1}, {"reason", reply.fallback}},
      {{"event", "model_response"}, {"turn", 1}, {"estimated", false}}};
  CHECK(event_difference(rig.recorded.events(), expected) == "iguais");
  CHECK_FALSE(reply.fallback.empty());
}

TEST_CASE("call_model com o cancelamento já pedido não chega a enviar") {
  Rig rig(R"({"name": "nunca", "steps": [{"content": "nunca"}]})");
  hz::CallOptions options;
  options.should_abort = [] { return true; };
  std::optional<hz::ModelError::Kind> kind;
  try {
    rig.call(options);
  } catch (const hz::ProviderFailure& failure) {
    kind = failure.error().kind;
  }
  REQUIRE(kind.has_value());
  CHECK(*kind == hz::ModelError::Kind::aborted);
  CHECK(rig.model.requests().size() == 0);
}

TEST_CASE("call_model ainda lança ProviderFailure numa falha, sem model_response") {
  Rig rig(R"({"name": "caiu", "steps": [{"error": {"status": 503, "message": "fora do ar"}}]})");
  std::string message = "(nenhuma exceção)";
  try {
    rig.call();
  } catch (const hz::ProviderFailure& failure) {
    message = failure.what();
  }
  CHECK(message == "o provedor respondeu HTTP 503: fora do ar");
  const std::vector<json> expected{{{"event", "model_request"}, {"turn", 1}}};
  CHECK(event_difference(rig.recorded.events(), expected) == "iguais");
}

TEST_SUITE_END();

// call_options não é exercício: estes testes passam também com os stubs.

TEST_CASE("call_options leva streaming, tempo da chamada e o Ctrl-C da configuração") {
  std::atomic<bool> cancel{false};
  hz::LoopConfig config{"m", 10};
  config.stream = true;
  config.call_timeout = milliseconds(30000);
  config.cancel = &cancel;
  const hz::CallOptions options = hz::call_options(config, std::nullopt);
  CHECK(options.stream);
  REQUIRE(options.timeout.has_value());
  CHECK(options.timeout->count() == 30000);
  REQUIRE(options.should_abort);
  CHECK_FALSE(options.should_abort());
  cancel = true;
  CHECK(options.should_abort());
}

TEST_CASE("call_options usa o menor entre o tempo da chamada e o que falta do prazo") {
  hz::LoopConfig config{"m", 10};
  config.call_timeout = milliseconds(30000);
  CHECK(hz::call_options(config, milliseconds(1200)).timeout->count() == 1200);
  CHECK(hz::call_options(config, milliseconds(45000)).timeout->count() == 30000);
  config.call_timeout = milliseconds(0);
  CHECK(hz::call_options(config, milliseconds(700)).timeout->count() == 700);
  CHECK_FALSE(hz::call_options(config, std::nullopt).timeout.has_value());
  CHECK_FALSE(hz::call_options(config, std::nullopt).should_abort);
}
