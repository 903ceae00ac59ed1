#include <doctest/doctest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "hz/chat_client.hpp"
#include "hz/http.hpp"
#include "hz/testing/scripted_model.hpp"
#include "local_server.hpp"

using hz::ModelError;
using hz::testing::ScriptedModel;

namespace {

// Uma porta de 127.0.0.1 onde ninguém escuta: pega uma efêmera e a fecha.
int closed_port() {
  const auto [fd, port] = hz::testing::loopback_socket(0);
  close(fd);
  return port;
}

using hz::testing::hello_request;

ModelError complete_error(const ScriptedModel& model,
                          std::optional<hz::HttpOptions> http = std::nullopt) {
  hz::EndpointConfig config = model.endpoint();
  if (http) config.http = *http;
  hz::OpenAiClient client(config);
  auto reply = client.complete(hello_request());
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
  const hz::ChatRequest request = hello_request();
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
  REQUIRE(client.complete(hello_request()).ok());
  CHECK(model.requests()[0].path == "/v1/chat/completions");
}

TEST_CASE("OpenAiClient lê as peculiaridades de provedores através do fio") {
  ScriptedModel model(R"({"name":"t","steps":[
    {"tool_calls":[{"name":"read_file","arguments":"{\"path\":\"a.txt\"}"},
                   {"name":"list_dir","arguments":"{\"path\":\".\"}"}],
     "finish_reason":"stop","reasoning_content":"vou olhar",
     "quirks":["missing_ids","arguments_as_object","no_usage"]}]})");
  hz::OpenAiClient client(model.endpoint());
  auto reply = client.complete(hello_request());
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

TEST_CASE("OpenAiClient devolve kind http e a mensagem do provedor em toda classe de erro HTTP") {
  for (const int status : {400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504, 529}) {
    CAPTURE(status);
    ScriptedModel model(R"({"name":"t","steps":[{"error":{"status":)" + std::to_string(status) +
                        R"(,"message":"recusado"}}]})");
    const ModelError error = complete_error(model);
    CHECK(error.kind == ModelError::Kind::http);
    CHECK(error.http_status == status);
    CHECK(error.message == "o provedor respondeu HTTP " + std::to_string(status) + ": recusado");
    CHECK_FALSE(error.billed);
  }
}

TEST_CASE("OpenAiClient não segue redirecionamento e não lê um 204 sem corpo como resposta") {
  hz::testing::LocalServer server;
  server.http().Post("/v1/chat/completions", [](const httplib::Request&, httplib::Response& res) {
    res.status = 301;
    res.set_header("Location", "http://127.0.0.1:1/v1/chat/completions");
    res.set_content("<html>mudou</html>", "text/html");
  });
  server.http().Post("/vazio/chat/completions",
                     [](const httplib::Request&, httplib::Response& res) { res.status = 204; });
  server.start();
  hz::EndpointConfig config;
  config.base_url = server.url("/v1");
  auto moved = hz::OpenAiClient(config).complete(hello_request());
  REQUIRE_FALSE(moved.ok());
  CHECK(moved.error().kind == ModelError::Kind::http);
  CHECK(moved.error().message == "o provedor respondeu HTTP 301: <html>mudou</html>");
  config.base_url = server.url("/vazio");
  auto empty = hz::OpenAiClient(config).complete(hello_request());
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.error().kind == ModelError::Kind::malformed);
  CHECK(empty.error().message == "resposta do modelo veio vazia");
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
  auto reply = client.complete(hello_request());
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
  REQUIRE(client.complete(hello_request()).ok());
  auto reply = client.complete(hello_request());
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().kind == ModelError::Kind::timeout);
  CHECK(reply.error().message ==
        "tempo esgotado (200 ms) falando com " + model.base_url() + "/chat/completions");
}

// --- Retry-After ----------------------------------------------------------------

namespace {

hz::HttpResponse with_headers(std::vector<std::pair<std::string, std::string>> headers) {
  hz::HttpResponse response;
  response.status = 429;
  response.headers = std::move(headers);
  return response;
}

// 21/10/2015 07:27:53 GMT: sete segundos antes da data dos testes.
const auto kNow = std::chrono::system_clock::from_time_t(1445412473);
constexpr const char* kDate = "Wed, 21 Oct 2015 07:28:00 GMT";

std::optional<double> retry_after(std::vector<std::pair<std::string, std::string>> headers) {
  return hz::retry_after_seconds(with_headers(std::move(headers)), kNow);
}

}  // namespace

TEST_CASE("retry_after_seconds lê Retry-After em segundos, com fração") {
  CHECK(retry_after({{"retry-after", "7"}}) == 7.0);
  CHECK(retry_after({{"retry-after", "1.5"}}) == 1.5);
  CHECK(retry_after({{"retry-after", "0"}}) == 0.0);
}

TEST_CASE("retry_after_seconds prefere retry-after-ms, em milissegundos com fração") {
  CHECK(retry_after({{"retry-after-ms", "1500"}}) == 1.5);
  CHECK(retry_after({{"retry-after-ms", "250.5"}}) == 0.2505);
  CHECK(retry_after({{"retry-after", "9"}, {"retry-after-ms", "20"}}) == 0.02);
}

TEST_CASE("retry_after_seconds lê Retry-After como data HTTP, relativa a agora") {
  CHECK(retry_after({{"retry-after", kDate}}) == 7.0);
  // As formas antigas da data também valem.
  CHECK(retry_after({{"retry-after", "Wednesday, 21-Oct-15 07:28:03 GMT"}}) == 10.0);
  CHECK(retry_after({{"retry-after", "Wed Oct 21 07:28:00 2015"}}) == 7.0);
}

TEST_CASE("retry_after_seconds lê uma data depois do ano 2262 sem estourar o relógio") {
  // Achado pelo fuzzing (fuzz/retry_after.cpp): o system_clock conta
  // nanossegundos num int64, que não chega ao ano 3988.
  CHECK(retry_after({{"retry-after", "Sun, 06 Nov 3988 08:49:37 GMT"}}) ==
        63708713377.0 - 1445412473.0);
}

TEST_CASE("retry_after_seconds ignora valores negativos, ilegíveis ou datas no passado") {
  CHECK_FALSE(retry_after({}).has_value());
  CHECK_FALSE(retry_after({{"retry-after", "-3"}}).has_value());
  CHECK_FALSE(retry_after({{"retry-after", "+5"}}).has_value());
  CHECK_FALSE(retry_after({{"retry-after", "logo"}}).has_value());
  CHECK_FALSE(retry_after({{"retry-after", "7s"}}).has_value());
  CHECK_FALSE(retry_after({{"retry-after", "inf"}}).has_value());
  CHECK_FALSE(retry_after({{"retry-after", "nan"}}).has_value());
  CHECK_FALSE(retry_after({{"retry-after", ""}}).has_value());
  CHECK_FALSE(retry_after({{"retry-after", "Wed, 21 Oct 2015 07:27:00 GMT"}}).has_value());
  CHECK_FALSE(retry_after({{"retry-after-ms", "-100"}}).has_value());
  // retry-after-ms inválido não esconde um Retry-After bom.
  CHECK(retry_after({{"retry-after-ms", "muito"}, {"retry-after", "3"}}) == 3.0);
}

TEST_CASE("OpenAiClient devolve a dica de retry-after-ms de um 429") {
  hz::testing::LocalServer server;
  server.http().Post("/v1/chat/completions", [](const httplib::Request&, httplib::Response& res) {
    res.status = 429;
    res.set_header("retry-after-ms", "1250");
    res.set_header("Retry-After", "2");
    res.set_content(R"({"error":{"message":"devagar"}})", "application/json");
  });
  server.start();
  hz::EndpointConfig config;
  config.base_url = server.url("/v1");
  hz::OpenAiClient client(config);
  auto reply = client.complete(hello_request());
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().http_status == 429);
  CHECK(reply.error().retry_after_seconds == 1.25);
  CHECK(reply.error().message == "o provedor respondeu HTTP 429: devagar");
}

// --- O que vai no fio e a conexão ------------------------------------------------

TEST_CASE("HttpClient reaproveita a conexão, sem Expect e sem pedir compressão") {
  hz::testing::LocalServer server;
  std::mutex mutex;
  std::set<int> ports;
  std::vector<std::string> expect_headers;
  std::vector<std::string> encodings;
  server.http().Post("/echo", [&](const httplib::Request& req, httplib::Response& res) {
    std::lock_guard<std::mutex> lock(mutex);
    ports.insert(req.remote_port);
    if (req.has_header("Expect")) expect_headers.push_back(req.get_header_value("Expect"));
    if (req.has_header("Accept-Encoding")) {
      encodings.push_back(req.get_header_value("Accept-Encoding"));
    }
    res.set_content("ok", "text/plain");
  });
  server.start();
  {
    hz::HttpClient http;
    // Um corpo grande o bastante (mais de 1 MiB) para o curl querer mandar
    // Expect: 100-continue.
    const std::string body(2 * 1024 * 1024, 'a');
    for (int i = 0; i < 3; ++i) {
      auto response = http.post(server.url("/echo"), body, {"Content-Type: application/json"});
      REQUIRE(response.ok());
      CHECK(response->status == 200);
    }
    hz::HttpRequestOptions streaming;
    streaming.on_body = [](std::string_view) {};
    REQUIRE(http.post(server.url("/echo"), "{}", {}, streaming).ok());
  }
  std::lock_guard<std::mutex> lock(mutex);
  CHECK(ports.size() == 1);
  CHECK(expect_headers.empty());
  CHECK(encodings.empty());
}

TEST_CASE("HttpClient entrega a on_body só o corpo de respostas 2xx") {
  hz::testing::LocalServer server;
  server.http().Post("/ok", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("corpo bom", "text/plain");
  });
  server.http().Post("/bad", [](const httplib::Request&, httplib::Response& res) {
    res.status = 503;
    res.set_content("fora do ar", "text/plain");
  });
  server.start();
  hz::HttpClient http;
  std::string delivered;
  hz::HttpRequestOptions request;
  request.on_body = [&delivered](std::string_view bytes) { delivered.append(bytes); };
  auto ok = http.post(server.url("/ok"), "{}", {}, request);
  REQUIRE(ok.ok());
  CHECK(delivered == "corpo bom");
  CHECK(ok->body.empty());
  CHECK(ok->received_bytes == 9);
  delivered.clear();
  auto bad = http.post(server.url("/bad"), "{}", {}, request);
  REQUIRE(bad.ok());
  CHECK(bad->status == 503);
  CHECK(delivered.empty());
  CHECK(bad->body == "fora do ar");
  CHECK(bad->received_bytes == 10);
}

TEST_CASE("HttpClient deixa sair depois do pedido a exceção lançada em on_body") {
  hz::testing::LocalServer server;
  server.http().Post("/ok", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("x", "text/plain");
  });
  server.start();
  hz::HttpClient http;
  hz::HttpRequestOptions request;
  request.on_body = [](std::string_view) { throw std::runtime_error("bug do chamador"); };
  CHECK_THROWS_WITH(static_cast<void>(http.post(server.url("/ok"), "{}", {}, request)),
                    "bug do chamador");
  // O cliente continua usável.
  CHECK(http.post(server.url("/ok"), "{}").ok());
}

// --- Mensagens de erro em português ------------------------------------------------

TEST_CASE("HttpClient traduz a conexão derrubada pelo servidor (reset)") {
  // Aceita, lê o pedido e fecha com SO_LINGER zero: o cliente recebe um RST.
  const hz::testing::LoopbackSocket listening = hz::testing::loopback_socket(1);
  const int listener = listening.fd;
  std::thread server([listener] {
    const int connection = accept(listener, nullptr, nullptr);
    if (connection < 0) return;
    char buffer[4096];
    static_cast<void>(recv(connection, buffer, sizeof buffer, 0));
    linger hard{1, 0};
    setsockopt(connection, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
    close(connection);
  });
  const std::string url =
      "http://127.0.0.1:" + std::to_string(listening.port) + "/v1/chat/completions";
  hz::HttpClient http;
  auto response = http.post(url, "{}");
  server.join();
  close(listener);
  REQUIRE_FALSE(response.ok());
  CHECK(response.error().kind == hz::HttpError::Kind::connect);
  CHECK(response.error().message == "o servidor derrubou a conexão (reset) com " + url);
}

TEST_CASE("HttpClient traduz a falha de TLS com um servidor que não fala HTTPS") {
  hz::testing::LocalServer server;
  server.http().Get("/v1/models", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("{}", "application/json");
  });
  server.start();
  const std::string url = "https://127.0.0.1:" + std::to_string(server.port()) + "/v1/models";
  hz::HttpClient http;
  auto response = http.get(url);
  REQUIRE_FALSE(response.ok());
  CHECK(response.error().kind == hz::HttpError::Kind::connect);
  CHECK(response.error().message == "falha ao abrir a conexão segura (TLS) com " + url +
                                        " (o servidor fala HTTPS nessa porta?)");
}

TEST_CASE("HttpClient traduz o nome de servidor que não existe") {
  // .invalid nunca resolve (RFC 6761).
  const std::string url = "http://nao-existe.invalid/v1/models";
  hz::HttpOptions options;
  options.connect_timeout = std::chrono::seconds(3);
  hz::HttpClient http(options);
  auto response = http.get(url);
  REQUIRE_FALSE(response.ok());
  CHECK(response.error().kind == hz::HttpError::Kind::connect);
  CHECK(response.error().message ==
        "não foi possível resolver o endereço de " + url + " (o nome do servidor está certo?)");
}

TEST_CASE("HttpClient traduz protocolo não suportado") {
  hz::HttpClient http;
  auto response = http.get("htp://127.0.0.1/x");
  REQUIRE_FALSE(response.ok());
  CHECK(response.error().message ==
        "protocolo não suportado em htp://127.0.0.1/x (use http:// ou https://)");
}
