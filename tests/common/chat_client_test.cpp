// OpenAiClient::call sem streaming: opções por chamada (prazo, cancelamento)
// e os fatos para a conta (bytes, cobrado ou não).
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>

#include "hz/chat_client.hpp"
#include "hz/testing/printing.hpp"
#include "hz/testing/scripted_model.hpp"
#include "local_server.hpp"

using hz::ModelError;
using hz::testing::ScriptedModel;
using std::chrono::milliseconds;

namespace {

using hz::testing::hello_request;

// Um ChatModel de teste que só sabe complete().
class FakeModel final : public hz::ChatModel {
 public:
  hz::Result<hz::ChatReply, ModelError> complete(const hz::ChatRequest& request) override {
    ++calls;
    hz::ChatReply reply;
    reply.message = hz::Message::assistant("eco: " + request.messages.back().content);
    return reply;
  }
  int calls = 0;
};

}  // namespace

TEST_CASE("ChatModel::call por padrão ignora as opções e chama complete") {
  FakeModel model;
  hz::CallOptions options;
  options.stream = true;
  int texts = 0;
  options.on_text = [&texts](std::string_view) { ++texts; };
  options.should_abort = [] { return true; };
  options.timeout = milliseconds(0);
  hz::ChatModel& seam = model;
  auto reply = seam.call(hello_request(), options);
  REQUIRE(reply.ok());
  CHECK(reply->message.content == "eco: oi");
  CHECK_FALSE(reply->streamed);
  CHECK(model.calls == 1);
  CHECK(texts == 0);
}

TEST_CASE("OpenAiClient::complete conta os bytes enviados e recebidos") {
  ScriptedModel model(R"({"name":"t","steps":[
    {"content":"pronto","usage":{"prompt_tokens":12,"completion_tokens":3}}]})");
  hz::OpenAiClient client(model.endpoint());
  const hz::ChatRequest request = hello_request();
  auto reply = client.complete(request);
  REQUIRE(reply.ok());
  CHECK(reply->request_bytes == hz::encode_request(request).size());
  CHECK(reply->response_bytes > 100);
  CHECK_FALSE(reply->streamed);
  CHECK(reply->fallback.empty());
  CHECK(reply->usage == hz::Usage{12, 3, true});
  CHECK(client.streaming_enabled());
}

TEST_CASE("OpenAiClient::call sem stream é o mesmo pedido de complete") {
  ScriptedModel model(R"({"name":"t","steps":[
    {"content":"a","expect":{"stream":false}},{"content":"b","expect":{"stream":false}}]})");
  hz::OpenAiClient client(model.endpoint());
  REQUIRE(client.call(hello_request(), {}).ok());
  REQUIRE(client.complete(hello_request()).ok());
  const auto bodies = model.request_bodies();
  REQUIRE(bodies.size() == 2);
  CHECK(bodies[0] == bodies[1]);
  CHECK(bodies[0] == hz::to_json(hello_request()));
  CHECK(model.failures().empty());
}

TEST_CASE("OpenAiClient::call usa o timeout da chamada no lugar do da configuração") {
  ScriptedModel model(R"({"name":"t","steps":[{"fault":"hang"}]})");
  hz::EndpointConfig config = model.endpoint();
  config.http.timeout = std::chrono::seconds(10);
  hz::OpenAiClient client(config);
  hz::CallOptions options;
  options.timeout = milliseconds(150);
  auto reply = client.call(hello_request(), options);
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().kind == ModelError::Kind::timeout);
  CHECK(reply.error().message ==
        "tempo esgotado (150 ms) falando com " + model.base_url() + "/chat/completions");
  CHECK_FALSE(reply.error().billed);
}

TEST_CASE("OpenAiClient::call com prazo esgotado ou cancelamento pedido não envia nada") {
  ScriptedModel model(R"({"name":"t","steps":[{"content":"nunca"}]})");
  hz::OpenAiClient client(model.endpoint());
  hz::CallOptions late;
  late.timeout = milliseconds(-5);
  auto expired = client.call(hello_request(), late);
  REQUIRE_FALSE(expired.ok());
  CHECK(expired.error().kind == ModelError::Kind::timeout);
  CHECK(expired.error().message ==
        "tempo esgotado (-5 ms) antes de falar com " + model.base_url() + "/chat/completions");

  hz::CallOptions cancelled;
  cancelled.should_abort = [] { return true; };
  auto aborted = client.call(hello_request(), cancelled);
  REQUIRE_FALSE(aborted.ok());
  CHECK(aborted.error().kind == ModelError::Kind::aborted);
  CHECK(aborted.error().message == "pedido a " + model.base_url() + "/chat/completions cancelado");
  CHECK(model.requests().empty());
}

TEST_CASE("OpenAiClient::call cancela uma chamada pendurada quando should_abort vira verdadeira") {
  ScriptedModel model(R"({"name":"t","steps":[{"fault":"hang"}]})");
  hz::OpenAiClient client(model.endpoint());
  hz::CallOptions options;
  // Só depois que o pedido chegou ao mock: prova que a consulta se repete
  // enquanto o servidor não responde.
  options.should_abort = [&model] { return !model.requests().empty(); };
  auto reply = client.call(hello_request(), options);
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().kind == ModelError::Kind::aborted);
  CHECK_FALSE(reply.error().billed);
  CHECK(reply.error().request_bytes == hz::encode_request(hello_request()).size());
  CHECK(reply.error().response_bytes == 0);
  CHECK(model.requests().size() == 1);
}

TEST_CASE("OpenAiClient marca como cobrado o 200 com corpo que não dá para ler") {
  ScriptedModel model(R"({"name":"t","steps":[{"fault":"malformed"},{"fault":"truncate_stream",
    "content":"uma resposta que chega pela metade"}]})");
  hz::OpenAiClient client(model.endpoint());
  auto malformed = client.call(hello_request(), {});
  REQUIRE_FALSE(malformed.ok());
  CHECK(malformed.error().kind == ModelError::Kind::malformed);
  CHECK(malformed.error().billed);
  CHECK(malformed.error().response_bytes > 0);
  CHECK(malformed.error().request_bytes == hz::encode_request(hello_request()).size());

  auto cut = client.call(hello_request(), {});
  REQUIRE_FALSE(cut.ok());
  CHECK(cut.error().kind == ModelError::Kind::connection);
  CHECK(cut.error().message ==
        "a conexão caiu no meio da resposta de " + model.base_url() + "/chat/completions");
  CHECK(cut.error().billed);
  CHECK(cut.error().response_bytes > 0);
}

TEST_CASE("OpenAiClient não marca como cobrado um erro HTTP nem uma conexão recusada") {
  ScriptedModel model(R"({"name":"t","steps":[{"error":{"status":500,"message":"caiu"}}]})");
  hz::OpenAiClient client(model.endpoint());
  auto reply = client.call(hello_request(), {});
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().kind == ModelError::Kind::http);
  CHECK_FALSE(reply.error().billed);
  CHECK(reply.error().response_bytes > 0);
}

TEST_CASE("OpenAiClient devolve too_large para uma resposta maior que o limite") {
  hz::testing::LocalServer server;
  server.http().Post("/v1/chat/completions", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string(10000, ' ') + R"({"choices":[]})", "application/json");
  });
  server.start();
  hz::EndpointConfig config;
  config.base_url = server.url("/v1");
  config.http.max_response_bytes = 4096;
  hz::OpenAiClient client(config);
  auto reply = client.call(hello_request(), {});
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().kind == ModelError::Kind::too_large);
  CHECK(reply.error().message == "a resposta de " + server.url("/v1/chat/completions") +
                                     " passou do limite de 4096 bytes (max_response_bytes) e foi "
                                     "interrompida");
  CHECK(reply.error().billed);
  CHECK(reply.error().response_bytes <= 4096);
}
