// Falhas roteirizadas: erros HTTP, atraso, travamento, conexão derrubada,
// corpo inválido e resposta cortada.
#include <chrono>
#include <thread>

#include <doctest/doctest.h>

#include "support.hpp"

namespace hz::mock {
namespace {

using nlohmann::json;
using test::Served;
using Clock = std::chrono::steady_clock;
using test::elapsed_ms;

TEST_CASE("erro 429 tem corpo da OpenAI e Retry-After") {
  Served served(test::embedded_scenario("examples/http-errors"));
  auto res = served.post(test::user_only());
  REQUIRE(res);
  CHECK(res->status == 429);
  CHECK(res->get_header_value("Retry-After") == "2");
  CHECK(res->get_header_value("Content-Type") == "application/json");
  CHECK(json::parse(res->body) == json::parse(R"({"error": {
    "message": "Rate limit reached for requests", "type": "rate_limit_error",
    "param": null, "code": "rate_limit_exceeded"}})"));
}

TEST_CASE("retry_after_ms vira o cabeçalho retry-after-ms, com ou sem Retry-After") {
  Served served(test::embedded_scenario("examples/retry-after-ms"));
  auto both = served.post(test::user_only());
  REQUIRE(both);
  CHECK(both->status == 429);
  CHECK(both->get_header_value("Retry-After") == "1");
  CHECK(both->get_header_value("retry-after-ms") == "250");
  auto only_ms = served.post(test::user_only());
  REQUIRE(only_ms);
  CHECK(only_ms->status == 503);
  CHECK_FALSE(only_ms->has_header("Retry-After"));
  CHECK(only_ms->get_header_value("retry-after-ms") == "40");
  CHECK(served.chat(test::user_only())["choices"][0]["message"]["content"] == "Agora deu certo.");
}

TEST_CASE("o cabeçalho retry-after-ms sai em minúsculas, como a OpenAI manda") {
  Served served(test::embedded_scenario("examples/retry-after-ms"));
  auto reply = test::raw_post(served.port(), "/v1/chat/completions", test::user_only().dump());
  CHECK(reply.bytes.rfind("HTTP/1.1 429 Too Many Requests\r\n", 0) == 0);
  CHECK(reply.bytes.find("\r\nRetry-After: 1\r\n") != std::string::npos);
  CHECK(reply.bytes.find("\r\nretry-after-ms: 250\r\n") != std::string::npos);
}

TEST_CASE("erros 500 e 401 seguem o roteiro e depois vem a resposta") {
  Served served(test::embedded_scenario("examples/http-errors"));
  served.post(test::user_only());
  auto server_error = served.post(test::user_only());
  REQUIRE(server_error);
  CHECK(server_error->status == 500);
  CHECK_FALSE(server_error->has_header("Retry-After"));
  CHECK(json::parse(server_error->body)["error"] ==
        json::parse(R"({"message": "The server had an error while processing your request.",
                        "type": "server_error", "param": null, "code": null})"));
  auto unauthorized = served.post(test::user_only());
  REQUIRE(unauthorized);
  CHECK(unauthorized->status == 401);
  CHECK(json::parse(unauthorized->body)["error"]["type"] == "authentication_error");
  CHECK(served.chat(test::user_only())["choices"][0]["message"]["content"] == "Agora deu certo.");
  // Erro roteirizado não é falha do roteiro: o harness recebeu o que o cenário mandou.
  CHECK(served.server().failures().empty());
}

TEST_CASE("delay_ms atrasa a resposta") {
  Served served(test::embedded_scenario("examples/delay"));
  auto start = Clock::now();
  json reply = served.chat(test::user_only());
  CHECK(elapsed_ms(start) >= 30.0);
  CHECK(reply["choices"][0]["message"]["content"] == "Respondi devagar.");
}

TEST_CASE("hang nunca responde e o stop termina rápido") {
  Served served(test::embedded_scenario("examples/hang"));
  served.client().set_read_timeout(std::chrono::milliseconds(200));
  auto start = Clock::now();
  auto res = served.post(test::user_only());
  CHECK_FALSE(res);
  CHECK(res.error() == httplib::Error::Read);
  CHECK(elapsed_ms(start) >= 200.0);

  auto stop_start = Clock::now();
  served.server().stop();
  CHECK(elapsed_ms(stop_start) < 500.0);
}

TEST_CASE("hang em andamento é liberado pelo stop") {
  // O cliente fica esperando sem timeout curto; o stop() derruba a conexão.
  Served served(test::embedded_scenario("examples/hang"));
  bool answered = true;
  std::thread waiting([&] { answered = static_cast<bool>(served.post(test::user_only())); });
  // Espera o pedido chegar ao servidor (gravado) antes de parar.
  while (served.server().requests().empty()) std::this_thread::yield();
  auto stop_start = Clock::now();
  served.server().stop();
  waiting.join();
  CHECK(elapsed_ms(stop_start) < 500.0);
  CHECK_FALSE(answered);
}

TEST_CASE("drop fecha a conexão sem resposta nenhuma") {
  Served served(test::embedded_scenario("examples/drop"));
  auto reply = test::raw_post(served.port(), "/v1/chat/completions", test::user_only().dump());
  CHECK(reply.bytes.empty());
  // O passo seguinte responde normalmente, numa conexão nova.
  CHECK(served.chat(test::user_only())["choices"][0]["message"]["content"] == "Voltei.");
  CHECK(served.server().failures().empty());
}

TEST_CASE("drop aparece como erro de leitura para um cliente HTTP") {
  Served served(test::embedded_scenario("examples/drop"));
  auto res = served.post(test::user_only());
  CHECK_FALSE(res);
  CHECK(res.error() == httplib::Error::Read);
}

TEST_CASE("malformed responde 200 com corpo que não é JSON") {
  Served served(test::embedded_scenario("examples/malformed"));
  auto res = served.post(test::user_only());
  REQUIRE(res);
  CHECK(res->status == 200);
  CHECK(res->body == "<html><body><h1>502 Bad Gateway</h1></body></html>\n");
  CHECK(json::parse(res->body, nullptr, false).is_discarded());
}

TEST_CASE("malformed em streaming manda um evento que não é JSON") {
  Served served(test::scenario_from(R"({"steps": [{"fault": "malformed"}]})"));
  json body = test::user_only();
  body["stream"] = true;
  auto res = served.post(body);
  REQUIRE(res);
  CHECK(res->status == 200);
  auto data = test::sse_data(res->body);
  REQUIRE(data.size() == 3);
  CHECK_FALSE(json::parse(data[0], nullptr, false).is_discarded());
  CHECK(json::parse(data[1], nullptr, false).is_discarded());
  CHECK(data[2] == "[DONE]");
}

TEST_CASE("truncate_stream corta o streaming sem finish_reason e sem DONE") {
  Served served(test::embedded_scenario("examples/truncate-stream"));
  json body = test::user_only();
  body["stream"] = true;
  auto reply = test::raw_post(served.port(), "/v1/chat/completions", body.dump());
  CHECK(reply.bytes.rfind("HTTP/1.1 200 OK\r\n", 0) == 0);
  // Sem o pedaço final do chunked: a conexão caiu no meio.
  CHECK(reply.bytes.find("\r\n0\r\n\r\n") == std::string::npos);
  auto data = test::sse_data(test::raw_body(reply.bytes));
  CHECK(data.size() == 3);  // truncate_after: 3
  for (const auto& text : data) {
    CHECK(text != "[DONE]");
    CHECK(json::parse(text)["choices"][0]["finish_reason"].is_null());
  }
}

TEST_CASE("truncate_stream sem truncate_after corta na metade dos eventos") {
  Served served(test::embedded_scenario("examples/truncate-stream"));
  served.post(test::user_only());  // gasta o passo 1
  json body = test::user_only();
  body["stream"] = true;
  auto reply = test::raw_post(served.port(), "/v1/chat/completions", body.dump());
  auto data = test::sse_data(test::raw_body(reply.bytes));
  // Papel + cabeçalho da chamada + pedaços dos argumentos + final = N eventos; chega a metade.
  CHECK(data.size() >= 3);
  std::string arguments;
  for (const auto& text : data) {
    const json delta = json::parse(text)["choices"][0]["delta"];
    if (delta.contains("tool_calls")) {
      arguments += delta["tool_calls"][0]["function"]["arguments"].get<std::string>();
    }
  }
  CHECK_FALSE(arguments.empty());
  CHECK(json::parse(arguments, nullptr, false).is_discarded());  // argumentos incompletos
}

TEST_CASE("truncate_stream sem streaming entrega metade do corpo prometido") {
  Served served(test::embedded_scenario("examples/truncate-stream"));
  auto reply = test::raw_post(served.port(), "/v1/chat/completions", test::user_only().dump());
  const std::string header = "Content-Length: ";
  auto at = reply.bytes.find(header);
  REQUIRE(at != std::string::npos);
  const std::size_t promised = std::stoul(reply.bytes.substr(at + header.size()));
  const std::string body = test::raw_body(reply.bytes);
  CHECK(body.size() == promised / 2);
  CHECK(json::parse(body, nullptr, false).is_discarded());

  auto res = served.post(test::user_only());  // um cliente HTTP vê erro de leitura
  CHECK_FALSE(res);
}

}  // namespace
}  // namespace hz::mock
