// OpenAiClient::call com streaming, contra o mock e contra servidores de
// teste que fazem o que o mock não faz (erro no meio, streaming parado, SSE
// com CRLF e comentários), e os desvios para servidores que não fazem
// streaming direito.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "hz/chat_client.hpp"
#include "hz/testing/printing.hpp"
#include "hz/testing/scripted_model.hpp"
#include "local_server.hpp"

using hz::ModelError;
using hz::testing::LocalServer;
using hz::testing::ScriptedModel;
using nlohmann::json;

namespace {

constexpr const char* kRejected =
    "o servidor recusou o pedido com streaming (HTTP 400); a chamada foi refeita sem streaming, e "
    "a sessão segue sem streaming";
constexpr const char* kNoUsage =
    "o servidor não mandou o uso de tokens no streaming; a sessão segue sem streaming para que o "
    "uso seja o de verdade";
constexpr const char* kLostToolCalls =
    "o streaming terminou com finish_reason \"tool_calls\" sem nenhuma tool call; a chamada foi "
    "refeita sem streaming, e a sessão segue sem streaming";

using hz::testing::hello_request;

struct Streaming {
  hz::CallOptions options;
  std::vector<std::string> texts;

  Streaming() {
    options.stream = true;
    options.on_text = [this](std::string_view text) { texts.emplace_back(text); };
  }
  std::string joined() const {
    std::string all;
    for (const std::string& text : texts) all += text;
    return all;
  }
};

// Um servidor que responde a /v1/chat/completions com este corpo SSE, em
// pedaços do tamanho pedido (cada pedaço sai num write separado).
void serve_sse(LocalServer& server, std::string body, std::size_t piece = 1 << 20) {
  server.http().Post(
      "/v1/chat/completions", [body, piece](const httplib::Request&, httplib::Response& res) {
        res.set_chunked_content_provider(
            "text/event-stream", [body, piece](std::size_t offset, httplib::DataSink& sink) {
              if (offset >= body.size()) {
                sink.done();
                return true;
              }
              return sink.write(body.data() + offset, std::min(piece, body.size() - offset));
            });
      });
  server.start();
}

hz::EndpointConfig endpoint_of(const LocalServer& server) {
  hz::EndpointConfig config;
  config.base_url = server.url("/v1");
  config.http.timeout = std::chrono::seconds(10);
  return config;
}

std::string sse_chunk(const std::string& delta, const std::string& finish = "null") {
  return R"(data: {"choices":[{"index":0,"delta":)" + delta + R"(,"finish_reason":)" + finish +
         "}]}\n\n";
}

// Um servidor que começa o streaming com o pedaço deste delta e depois se cala
// (sem fechar a conexão) até o servidor parar.
void serve_then_fall_silent(LocalServer& server, const std::string& delta) {
  const std::string first = sse_chunk(delta);
  server.http().Post(
      "/v1/chat/completions", [&server, first](const httplib::Request&, httplib::Response& res) {
        res.set_chunked_content_provider("text/event-stream",
                                         [&server, first](std::size_t, httplib::DataSink& sink) {
                                           sink.write(first.data(), first.size());
                                           server.wait_for_stop(std::chrono::seconds(30));
                                           return false;
                                         });
      });
  server.start();
}

}  // namespace

TEST_CASE("OpenAiClient em streaming passa o texto aos pedaços e monta a resposta completa") {
  auto model = ScriptedModel::from_scenario("examples/streaming");
  hz::OpenAiClient client(model.endpoint());
  Streaming streaming;
  auto streamed = client.call(hello_request(), streaming.options);
  REQUIRE(streamed.ok());
  CHECK(streaming.texts == std::vector<std::string>{"Vou ", "ler ", "os ", "dois ", "arquivos."});
  CHECK(streamed->message.content == "Vou ler os dois arquivos.");
  CHECK(streamed->message.tool_calls ==
        std::vector<hz::ToolCall>{{"call_1", "read_file", R"({"path":"config.ini"})"},
                                  {"call_2", "read_file", R"({"path":"test_login.sh"})"}});
  CHECK(streamed->finish_reason == "tool_calls");
  CHECK(streamed->usage == hz::Usage{200, 45, true});
  CHECK(streamed->streamed);
  CHECK(streamed->fallback.empty());
  CHECK(streamed->request_bytes == hz::encode_stream_request(hello_request()).size());
  CHECK(streamed->response_bytes > 500);
  CHECK(client.streaming_enabled());

  auto plain = client.call(hello_request(), {});
  REQUIRE(plain.ok());
  CHECK(plain->message.content == "Os dois arquivos estão certos; o problema é outro.");
  CHECK_FALSE(plain->streamed);

  const auto bodies = model.request_bodies();
  REQUIRE(bodies.size() == 2);
  CHECK(bodies[0]["stream"] == true);
  CHECK(bodies[0]["stream_options"] == json{{"include_usage", true}});
  CHECK_FALSE(bodies[1].contains("stream"));
  CHECK(model.failures().empty());
}

TEST_CASE("OpenAiClient em streaming lê as peculiaridades de provedores") {
  ScriptedModel model(R"({"name":"t","steps":[
    {"tool_calls":[{"name":"read_file","arguments":"{\"path\":\"a.txt\"}"},
                   {"name":"list_dir","arguments":"{\"path\":\".\"}"}],
     "finish_reason":"stop","reasoning_content":"vou olhar",
     "usage":{"prompt_tokens":5,"completion_tokens":7},
     "quirks":["missing_ids","arguments_as_object"]}]})");
  hz::OpenAiClient client(model.endpoint());
  Streaming streaming;
  auto reply = client.call(hello_request(), streaming.options);
  REQUIRE(reply.ok());
  CHECK(reply->message.tool_calls ==
        std::vector<hz::ToolCall>{{"call_0", "read_file", R"({"path":"a.txt"})"},
                                  {"call_1", "list_dir", R"({"path":"."})"}});
  CHECK(reply->finish_reason == "stop");
  CHECK(reply->reasoning == "vou olhar");
  CHECK(reply->usage == hz::Usage{5, 7, true});
  CHECK(streaming.texts.empty());
}

TEST_CASE("OpenAiClient chama de cortado o streaming que cai no meio, e marca como cobrado") {
  ScriptedModel model(R"({"name":"t","steps":[{"fault":"truncate_stream","truncate_after":3,
    "content":"Esta resposta nunca chega inteira ao cliente."}]})");
  hz::OpenAiClient client(model.endpoint());
  Streaming streaming;
  auto reply = client.call(hello_request(), streaming.options);
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().kind == ModelError::Kind::connection);
  CHECK(reply.error().message == "o streaming foi cortado: a conexão caiu no meio da resposta de " +
                                     model.base_url() + "/chat/completions");
  CHECK(reply.error().billed);
  CHECK(reply.error().http_status == 0);
  CHECK(reply.error().response_bytes > 0);
  CHECK(streaming.joined() == "Esta resposta ");
}

TEST_CASE("OpenAiClient chama de cortado o streaming que termina limpo sem [DONE]") {
  LocalServer server;
  serve_sse(server,
            sse_chunk(R"({"content":"meia "})") + sse_chunk(R"({"content":"frase"})", "\"stop\""));
  hz::OpenAiClient client(endpoint_of(server));
  Streaming streaming;
  auto reply = client.call(hello_request(), streaming.options);
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().kind == ModelError::Kind::connection);
  CHECK(reply.error().message == "o streaming foi cortado: terminou sem \"data: [DONE]\"");
  CHECK(reply.error().http_status == 200);
  CHECK(reply.error().billed);
  CHECK(streaming.joined() == "meia frase");
}

TEST_CASE("OpenAiClient chama de malformado o streaming com um evento que não é JSON") {
  ScriptedModel model(R"({"name":"t","steps":[{"fault":"malformed"}]})");
  hz::OpenAiClient client(model.endpoint());
  Streaming streaming;
  auto reply = client.call(hello_request(), streaming.options);
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().kind == ModelError::Kind::malformed);
  CHECK(
      reply.error().message ==
      R"(o streaming trouxe um evento que não é JSON válido: {"choices": [{"delta": {"content": "Ol)");
  CHECK(reply.error().billed);
}

TEST_CASE("OpenAiClient devolve a mensagem do provedor de um erro no meio do streaming") {
  LocalServer server;
  serve_sse(server, sse_chunk(R"({"content":"Começ"})") +
                        "data: {\"error\":{\"message\":\"servidor sobrecarregado\"}}\n\n"
                        "data: [DONE]\n\n");
  hz::OpenAiClient client(endpoint_of(server));
  Streaming streaming;
  auto reply = client.call(hello_request(), streaming.options);
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().kind == ModelError::Kind::malformed);
  CHECK(reply.error().message == "o streaming trouxe um erro do provedor: servidor sobrecarregado");
  CHECK(reply.error().http_status == 200);
  CHECK(reply.error().billed);
  CHECK(streaming.joined() == "Começ");
}

TEST_CASE("OpenAiClient lê a linha error: do llama.cpp no streaming") {
  LocalServer server;
  serve_sse(server,
            "error: {\"code\":400,\"message\":\"o pedido passa do contexto\","
            "\"type\":\"invalid_request_error\"}\n\n");
  hz::OpenAiClient client(endpoint_of(server));
  Streaming streaming;
  auto reply = client.call(hello_request(), streaming.options);
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().message ==
        "o streaming trouxe um erro do provedor: o pedido passa do contexto");
}

TEST_CASE("OpenAiClient lê SSE com CRLF, comentários e eventos partidos entre pedaços da rede") {
  LocalServer server;
  std::string body = ": keep-alive\r\n\r\n";
  body +=
      "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Olá, "
      "\"}}]}\r\n\r\n";
  body += ": processando\r\n\r\n";
  body += "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"mundo\"}}]}\r\n\r\n";
  body += "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\r\n\r\n";
  body += "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2}}\r\n\r\n";
  body += "data: [DONE]\r\n\r\n";
  serve_sse(server, body, 5);
  hz::OpenAiClient client(endpoint_of(server));
  Streaming streaming;
  auto reply = client.call(hello_request(), streaming.options);
  INFO((reply ? std::string() : reply.error().message));
  REQUIRE(reply.ok());
  CHECK(reply->message.content == "Olá, mundo");
  CHECK(streaming.joined() == "Olá, mundo");
  CHECK(reply->usage == hz::Usage{3, 2, true});
  CHECK(reply->response_bytes == body.size());
  CHECK(reply->streamed);
}

TEST_CASE("OpenAiClient lê como resposta comum o JSON de um servidor que ignorou o stream") {
  LocalServer server;
  server.http().Post("/v1/chat/completions", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(
        R"({"choices":[{"message":{"content":"sem stream"},"finish_reason":"stop"}],"usage":{"prompt_tokens":2,"completion_tokens":2}})",
        "application/json");
  });
  server.start();
  hz::OpenAiClient client(endpoint_of(server));
  Streaming streaming;
  auto reply = client.call(hello_request(), streaming.options);
  REQUIRE(reply.ok());
  CHECK(reply->message.content == "sem stream");
  CHECK_FALSE(reply->streamed);
  CHECK(reply->fallback.empty());
  CHECK(streaming.texts.empty());
  CHECK(client.streaming_enabled());
}

TEST_CASE("OpenAiClient dá idle quando o streaming para no meio, e marca como cobrado") {
  LocalServer server;
  serve_then_fall_silent(server, R"({"content":"Pens"})");
  hz::EndpointConfig config = endpoint_of(server);
  config.http.idle_timeout = std::chrono::milliseconds(150);
  hz::OpenAiClient client(config);
  Streaming streaming;
  auto reply = client.call(hello_request(), streaming.options);
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().kind == ModelError::Kind::idle);
  CHECK(reply.error().message == "nenhum byte de " + server.url("/v1/chat/completions") +
                                     " em 150 ms (idle_timeout): o servidor parou no meio da "
                                     "resposta");
  CHECK(reply.error().billed);
  CHECK(streaming.joined() == "Pens");
}

TEST_CASE("OpenAiClient cancela um streaming em andamento pelo should_abort") {
  LocalServer server;
  serve_then_fall_silent(server, R"({"content":"Um"})");
  hz::OpenAiClient client(endpoint_of(server));
  Streaming streaming;
  streaming.options.should_abort = [&streaming] { return !streaming.texts.empty(); };
  auto reply = client.call(hello_request(), streaming.options);
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().kind == ModelError::Kind::aborted);
  CHECK(reply.error().billed);
  CHECK(streaming.joined() == "Um");
}

TEST_CASE("OpenAiClient limita o tamanho do streaming como o de qualquer resposta") {
  LocalServer server;
  std::string body;
  for (int i = 0; i < 200; ++i) body += sse_chunk(R"({"content":"bla bla bla bla "})");
  serve_sse(server, body, 512);
  hz::EndpointConfig config = endpoint_of(server);
  config.http.max_response_bytes = 4096;
  hz::OpenAiClient client(config);
  Streaming streaming;
  auto reply = client.call(hello_request(), streaming.options);
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().kind == ModelError::Kind::too_large);
  CHECK(reply.error().response_bytes <= 4096);
}

// --- Desvios para servidores que não fazem streaming direito --------------------

TEST_CASE("OpenAiClient refaz sem streaming quando o servidor recusa o streaming com 400") {
  ScriptedModel model(R"({"name":"t","steps":[
    {"error":{"status":400,"message":"stream_options não é suportado"}},
    {"content":"sem streaming","usage":{"prompt_tokens":4,"completion_tokens":2},
     "expect":{"stream":false}},
    {"content":"de novo","expect":{"stream":false}}]})");
  hz::OpenAiClient client(model.endpoint());
  Streaming streaming;
  auto reply = client.call(hello_request(), streaming.options);
  REQUIRE(reply.ok());
  CHECK(reply->message.content == "sem streaming");
  CHECK(reply->fallback == kRejected);
  CHECK_FALSE(reply->streamed);
  CHECK(reply->usage == hz::Usage{4, 2, true});
  CHECK(reply->request_bytes == hz::encode_stream_request(hello_request()).size() +
                                    hz::encode_request(hello_request()).size());
  CHECK(streaming.texts.empty());
  CHECK_FALSE(client.streaming_enabled());
  CHECK(client.streaming_fallback() == kRejected);

  // O resto da sessão vai sem streaming, e o aviso não se repete.
  auto next = client.call(hello_request(), streaming.options);
  REQUIRE(next.ok());
  CHECK(next->message.content == "de novo");
  CHECK(next->fallback.empty());
  CHECK_FALSE(next->streamed);
  CHECK(model.failures().empty());
}

TEST_CASE("OpenAiClient devolve o erro e mantém o streaming quando o 400 não era do streaming") {
  ScriptedModel model(R"({"name":"t","steps":[
    {"error":{"status":400,"message":"contexto grande demais"}},
    {"error":{"status":400,"message":"contexto grande demais"},"expect":{"stream":false}},
    {"content":"ok","expect":{"stream":true}}]})");
  hz::OpenAiClient client(model.endpoint());
  Streaming streaming;
  auto reply = client.call(hello_request(), streaming.options);
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().kind == ModelError::Kind::http);
  CHECK(reply.error().http_status == 400);
  CHECK(reply.error().message == "o provedor respondeu HTTP 400: contexto grande demais");
  CHECK(client.streaming_enabled());
  REQUIRE(client.call(hello_request(), streaming.options).ok());
  CHECK(model.failures().empty());
}

TEST_CASE("OpenAiClient guarda a resposta de um streaming sem uso e segue sem streaming") {
  ScriptedModel model(R"({"name":"t","steps":[
    {"content":"sem uso","quirks":["no_usage"],"expect":{"stream":true}},
    {"content":"com uso","usage":{"prompt_tokens":8,"completion_tokens":2},
     "expect":{"stream":false}}]})");
  hz::OpenAiClient client(model.endpoint());
  Streaming streaming;
  auto reply = client.call(hello_request(), streaming.options);
  REQUIRE(reply.ok());
  CHECK(reply->message.content == "sem uso");
  CHECK(reply->streamed);
  CHECK_FALSE(reply->usage.reported);
  CHECK(reply->fallback == kNoUsage);
  CHECK(streaming.joined() == "sem uso");
  CHECK(client.streaming_fallback() == kNoUsage);

  auto next = client.call(hello_request(), streaming.options);
  REQUIRE(next.ok());
  CHECK(next->usage == hz::Usage{8, 2, true});
  CHECK_FALSE(next->streamed);
  CHECK(model.failures().empty());
}

TEST_CASE("OpenAiClient refaz sem streaming quando o finish_reason tool_calls vem sem tool calls") {
  ScriptedModel model(R"({"name":"t","steps":[
    {"content":"Vou ler.","finish_reason":"tool_calls",
     "usage":{"prompt_tokens":10,"completion_tokens":3},"expect":{"stream":true}},
    {"content":"Vou ler.","tool_calls":[{"id":"c1","name":"read_file","arguments":{"path":"a"}}],
     "usage":{"prompt_tokens":10,"completion_tokens":9},"expect":{"stream":false}}]})");
  hz::OpenAiClient client(model.endpoint());
  Streaming streaming;
  auto reply = client.call(hello_request(), streaming.options);
  REQUIRE(reply.ok());
  CHECK(reply->message.tool_calls ==
        std::vector<hz::ToolCall>{{"c1", "read_file", R"({"path":"a"})"}});
  CHECK(reply->fallback == kLostToolCalls);
  CHECK_FALSE(reply->streamed);
  // As duas tentativas foram cobradas.
  CHECK(reply->usage == hz::Usage{20, 12, true});
  // O texto da primeira tentativa já tinha passado por on_text.
  CHECK(streaming.joined() == "Vou ler.");
  CHECK_FALSE(client.streaming_enabled());
  CHECK(model.failures().empty());
}

TEST_CASE("OpenAiClient dá ao reenvio só o que sobrou do prazo da chamada") {
  ScriptedModel model(R"({"name":"t","steps":[
    {"error":{"status":400,"message":"sem stream_options"},"delay_ms":200},
    {"fault":"hang"}]})");
  hz::OpenAiClient client(model.endpoint());
  Streaming streaming;
  streaming.options.timeout = std::chrono::milliseconds(400);
  auto reply = client.call(hello_request(), streaming.options);
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().kind == ModelError::Kind::timeout);
  // "tempo esgotado (N ms) falando com ...": N é o que sobrou, não os 400 ms inteiros.
  const std::string& message = reply.error().message;
  const std::string prefix = "tempo esgotado (";
  REQUIRE(message.rfind(prefix, 0) == 0);
  const long left = std::strtol(message.c_str() + prefix.size(), nullptr, 10);
  CHECK(left > 0);
  CHECK(left <= 200);
  CHECK(message.substr(message.find(" ms)")) ==
        " ms) falando com " + model.base_url() + "/chat/completions");
}

TEST_CASE("OpenAiClient marca como cobrado o reenvio que falha depois de um streaming descartado") {
  ScriptedModel model(R"({"name":"t","steps":[
    {"content":"Vou ler.","finish_reason":"tool_calls","expect":{"stream":true}},
    {"error":{"status":503,"message":"fora do ar"},"expect":{"stream":false}}]})");
  hz::OpenAiClient client(model.endpoint());
  Streaming streaming;
  auto reply = client.call(hello_request(), streaming.options);
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().message == "o provedor respondeu HTTP 503: fora do ar");
  CHECK(reply.error().billed);
  CHECK(reply.error().request_bytes == hz::encode_stream_request(hello_request()).size() +
                                           hz::encode_request(hello_request()).size());
  CHECK_FALSE(client.streaming_enabled());
  CHECK(model.failures().empty());
}

TEST_CASE("limite conhecido: um streaming só de comentários keep-alive não dá idle, só timeout") {
  // Um comentário a cada 50 ms é byte chegando: o idle_timeout (150 ms) não corta, e só o
  // prazo da chamada (timeout) para o streaming. Com os padrões (600 s por tentativa, 3
  // tentativas), um servidor assim segura o turno por até 30 minutos.
  LocalServer server;
  server.http().Post("/v1/chat/completions",
                     [&server](const httplib::Request&, httplib::Response& res) {
                       res.set_chunked_content_provider(
                           "text/event-stream", [&server](std::size_t, httplib::DataSink& sink) {
                             const std::string comment = ": keep-alive\n\n";
                             if (!sink.write(comment.data(), comment.size())) return false;
                             return !server.wait_for_stop(std::chrono::milliseconds(50));
                           });
                     });
  server.start();
  hz::EndpointConfig config = endpoint_of(server);
  config.http.idle_timeout = std::chrono::milliseconds(150);
  config.http.timeout = std::chrono::milliseconds(600);
  hz::OpenAiClient client(config);
  Streaming streaming;
  auto reply = client.call(hello_request(), streaming.options);
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.error().kind == ModelError::Kind::timeout);
  CHECK(reply.error().message ==
        "tempo esgotado (600 ms) falando com " + server.url("/v1/chat/completions"));
  CHECK(streaming.texts.empty());
}

TEST_CASE("limite conhecido: os bytes de um streaming, de onde sai o uso estimado, contam o SSE") {
  // Sem usage, o uso é estimado pelos bytes recebidos (bytes ÷ 4), e num streaming eles
  // incluem o enquadramento de cada pedaço: aqui, 2 letras de texto em 333 bytes. A
  // estimativa fica acima do gasto, nunca abaixo.
  const std::string body = sse_chunk(R"({"role":"assistant","content":""})") +
                           sse_chunk(R"({"content":"o"})") + sse_chunk(R"({"content":"k"})") +
                           sse_chunk("{}", R"("stop")") + "data: [DONE]\n\n";
  LocalServer server;
  serve_sse(server, body);
  hz::OpenAiClient client(endpoint_of(server));
  Streaming streaming;
  auto reply = client.call(hello_request(), streaming.options);
  REQUIRE_MESSAGE(reply.ok(), (reply.ok() ? "" : reply.error().message));
  CHECK(reply->message.content == "ok");
  CHECK_FALSE(reply->usage.reported);
  CHECK(reply->response_bytes == body.size());
  CHECK(body.size() == 333);
}
