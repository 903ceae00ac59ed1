#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <optional>

#include "hz/chat_client.hpp"
#include "hz/http.hpp"
#include "hz/testing/scripted_model.hpp"

using hz::ModelError;
using hz::testing::ScriptedModel;

namespace {

// Uma porta de 127.0.0.1 onde ninguém escuta: pega uma efêmera e a fecha.
int closed_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  socklen_t length = sizeof address;
  REQUIRE(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0);
  close(fd);
  return ntohs(address.sin_port);
}

hz::ChatRequest hello() {
  hz::ChatRequest request;
  request.model = "hz-mock";
  request.messages = {hz::Message::user("oi")};
  return request;
}

ModelError complete_error(const ScriptedModel& model,
                          std::optional<hz::HttpOptions> http = std::nullopt) {
  hz::EndpointConfig config = model.endpoint();
  if (http) config.http = *http;
  hz::OpenAiClient client(config);
  auto reply = client.complete(hello());
  REQUIRE_FALSE(reply.ok());
  return reply.error();
}

}  // namespace

TEST_CASE("HttpClient faz GET e devolve status corpo e cabeçalhos em minúsculas") {
  ScriptedModel model(R"({"name":"t","steps":[{"content":"oi"}]})");
  hz::HttpClient http;
  auto response = http.get(model.base_url() + "/models");
  REQUIRE(response.ok());
  CHECK(response->status == 200);
  CHECK(nlohmann::json::parse(response->body)["data"][0]["id"] == "hz-mock");
  REQUIRE(response->header("Content-Type").has_value());
  CHECK(response->header("CONTENT-TYPE")->rfind("application/json", 0) == 0);
  for (const auto& [name, value] : response->headers) {
    for (char c : name) CHECK_FALSE((c >= 'A' && c <= 'Z'));
  }
  CHECK_FALSE(response->header("x-nao-existe").has_value());
}

TEST_CASE("HttpClient reutiliza o cliente em vários pedidos") {
  ScriptedModel model(R"({"name":"t","steps":[{"content":"oi","repeat":"forever"}]})");
  hz::HttpClient http;
  for (int i = 0; i < 3; ++i) {
    auto response = http.post(model.base_url() + "/chat/completions",
                              R"({"model":"m","messages":[{"role":"user","content":"oi"}]})",
                              {"Content-Type: application/json"});
    REQUIRE(response.ok());
    CHECK(response->status == 200);
  }
  CHECK(model.request_bodies().size() == 3);
  CHECK(model.failures().empty());
}

TEST_CASE("HttpClient informa conexão recusada numa porta fechada") {
  const std::string url = "http://127.0.0.1:" + std::to_string(closed_port()) + "/v1/models";
  hz::HttpClient http;
  auto response = http.get(url);
  REQUIRE_FALSE(response.ok());
  CHECK(response.error().kind == hz::HttpError::Kind::connect);
  CHECK(response.error().message ==
        "não foi possível conectar a " + url + " (o servidor está rodando?)");
}

TEST_CASE("OpenAiClient envia o pedido codificado e lê a resposta") {
  ScriptedModel model(R"({"name":"t","steps":[
    {"content":"pronto","usage":{"prompt_tokens":12,"completion_tokens":3}}]})");
  hz::OpenAiClient client(model.endpoint());
  const hz::ChatRequest request = hello();
  auto reply = client.complete(request);
  REQUIRE(reply.ok());
  CHECK(reply->message == hz::Message::assistant("pronto"));
  CHECK(reply->finish_reason == "stop");
  CHECK(reply->usage == hz::Usage{12, 3, true});
  REQUIRE(model.requests().size() == 1);
  CHECK(model.requests()[0].method == "POST");
  CHECK(model.requests()[0].path == "/v1/chat/completions");
  CHECK(model.requests()[0].raw_body == hz::encode_request(request));
  CHECK(model.request_bodies() == std::vector<nlohmann::json>{hz::to_json(request)});
}

TEST_CASE("OpenAiClient tolera barra final na base_url") {
  ScriptedModel model(R"({"name":"t","steps":[{"content":"oi"}]})");
  hz::EndpointConfig config = model.endpoint();
  config.base_url += "/";
  hz::OpenAiClient client(config);
  REQUIRE(client.complete(hello()).ok());
  CHECK(model.requests()[0].path == "/v1/chat/completions");
}

TEST_CASE("OpenAiClient lê as peculiaridades de provedores através do fio") {
  ScriptedModel model(R"({"name":"t","steps":[
    {"tool_calls":[{"name":"read_file","arguments":"{\"path\":\"a.txt\"}"},
                   {"name":"list_dir","arguments":"{\"path\":\".\"}"}],
     "finish_reason":"stop","reasoning_content":"vou olhar",
     "quirks":["missing_ids","arguments_as_object","no_usage"]}]})");
  hz::OpenAiClient client(model.endpoint());
  auto reply = client.complete(hello());
  REQUIRE(reply.ok());
  CHECK(reply->message.tool_calls ==
        std::vector<hz::ToolCall>{{"call_0", "read_file", R"({"path":"a.txt"})"},
                                  {"call_1", "list_dir", R"({"path":"."})"}});
  CHECK(reply->finish_reason == "stop");
  CHECK(reply->reasoning == "vou olhar");
  CHECK_FALSE(reply->usage.reported);
}

TEST_CASE("OpenAiClient devolve erro HTTP com Retry-After e a mensagem do provedor") {
  ScriptedModel model(R"({"name":"t","steps":[
    {"error":{"status":429,"message":"limite de taxa atingido","retry_after":7}}]})");
  const ModelError error = complete_error(model);
  CHECK(error.kind == ModelError::Kind::http);
  CHECK(error.http_status == 429);
  REQUIRE(error.retry_after_seconds.has_value());
  CHECK(*error.retry_after_seconds == 7.0);
  CHECK(error.message == "o provedor respondeu HTTP 429: limite de taxa atingido");
}

TEST_CASE("OpenAiClient sem Retry-After deixa a dica vazia") {
  ScriptedModel model(R"({"name":"t","steps":[{"error":{"status":500,"message":"caiu"}}]})");
  const ModelError error = complete_error(model);
  CHECK(error.kind == ModelError::Kind::http);
  CHECK(error.http_status == 500);
  CHECK_FALSE(error.retry_after_seconds.has_value());
  CHECK(error.message == "o provedor respondeu HTTP 500: caiu");
}

TEST_CASE("OpenAiClient chama de malformed um 200 que não é JSON") {
  ScriptedModel model(R"({"name":"t","steps":[{"fault":"malformed"}]})");
  const ModelError error = complete_error(model);
  CHECK(error.kind == ModelError::Kind::malformed);
  CHECK(error.http_status == 200);
  CHECK(error.message == "resposta do modelo não é JSON válido");
}

TEST_CASE("OpenAiClient informa conexão derrubada sem resposta") {
  ScriptedModel model(R"({"name":"t","steps":[{"fault":"drop"}]})");
  const ModelError error = complete_error(model);
  CHECK(error.kind == ModelError::Kind::connection);
  CHECK(error.message ==
        "o servidor fechou a conexão sem responder: " + model.base_url() + "/chat/completions");
}

TEST_CASE("OpenAiClient informa conexão recusada numa porta fechada") {
  hz::EndpointConfig config;
  config.base_url = "http://127.0.0.1:" + std::to_string(closed_port()) + "/v1";
  hz::OpenAiClient client(config);
  auto reply = client.complete(hello());
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().kind == ModelError::Kind::connection);
  CHECK(reply.error().message == "não foi possível conectar a " + config.base_url +
                                     "/chat/completions (o servidor está rodando?)");
}

TEST_CASE("OpenAiClient devolve timeout quando o servidor não responde") {
  ScriptedModel model(R"({"name":"t","steps":[{"fault":"hang"}]})");
  hz::HttpOptions http;
  http.connect_timeout = std::chrono::milliseconds(1000);
  http.timeout = std::chrono::milliseconds(200);
  // O teste espera o próprio timeout do cliente, que é o comportamento sob teste.
  const ModelError error = complete_error(model, http);
  CHECK(error.kind == ModelError::Kind::timeout);
  CHECK(error.message ==
        "tempo esgotado (200 ms) falando com " + model.base_url() + "/chat/completions");
}

TEST_CASE("OpenAiClient lista os modelos do servidor") {
  ScriptedModel model(R"({"name":"t","model":"qwen-falso","steps":[{"content":"oi"}]})");
  hz::OpenAiClient client(model.endpoint());
  auto models = client.list_models();
  REQUIRE(models.ok());
  CHECK(*models == std::vector<std::string>{"qwen-falso"});
}

TEST_CASE("OpenAiClient devolve timeout também numa conexão reaproveitada") {
  ScriptedModel model(R"({"name":"t","steps":[{"content":"oi"},{"fault":"hang"}]})");
  hz::EndpointConfig config = model.endpoint();
  config.http.timeout = std::chrono::milliseconds(200);
  hz::OpenAiClient client(config);
  REQUIRE(client.complete(hello()).ok());
  auto reply = client.complete(hello());
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().kind == ModelError::Kind::timeout);
  CHECK(reply.error().message ==
        "tempo esgotado (200 ms) falando com " + model.base_url() + "/chat/completions");
}
