// Os limites do HttpClient que dependem do relógio: silêncio no meio da
// resposta (idle_timeout), servidor lento mas vivo, timeout do pedido,
// cancelamento. Esperas reais e curtas: o arquivo inteiro roda em menos de 2 s.
#include <doctest/doctest.h>

#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>

#include "hz/http.hpp"
#include "local_server.hpp"

using hz::HttpError;
using hz::testing::LocalServer;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

// Cabeçalhos e "abc", depois silêncio até o servidor parar.
void serve_then_fall_silent(LocalServer& server) {
  server.http().Post("/silent", [&server](const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("text/plain", [&server](std::size_t, httplib::DataSink& sink) {
      sink.write("abc", 3);
      server.wait_for_stop(std::chrono::seconds(30));
      return false;
    });
  });
}

milliseconds since(Clock::time_point start) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - start);
}

}  // namespace

TEST_CASE("HttpOptions tem idle de 60 s e limite de resposta de 16 MiB por padrão") {
  const hz::HttpOptions options;
  CHECK(options.idle_timeout == std::chrono::seconds(60));
  CHECK(options.max_response_bytes == std::size_t{16} * 1024 * 1024);
  CHECK(options.timeout == std::chrono::seconds(120));
}

TEST_CASE("HttpClient corta com idle o servidor que para no meio da resposta") {
  LocalServer server;
  serve_then_fall_silent(server);
  server.start();
  hz::HttpOptions options;
  options.idle_timeout = milliseconds(150);
  options.timeout = std::chrono::seconds(10);
  hz::HttpClient http(options);
  const auto start = Clock::now();
  auto response = http.post(server.url("/silent"), "{}");
  REQUIRE_FALSE(response.ok());
  CHECK(response.error().kind == HttpError::Kind::idle);
  CHECK(response.error().message == "nenhum byte de " + server.url("/silent") +
                                        " em 150 ms (idle_timeout): o servidor parou no meio "
                                        "da resposta");
  CHECK(response.error().status == 200);
  CHECK(response.error().received_bytes == 3);
  CHECK(since(start) < milliseconds(2000));
}

TEST_CASE("HttpClient não corta por idle o servidor lento que manda um byte a cada 100 ms") {
  LocalServer server;
  server.http().Post("/drip", [&server](const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("text/plain",
                                     [&server](std::size_t offset, httplib::DataSink& sink) {
                                       // 12 bytes, um a cada 100 ms: 1,1 s no total, mais que o
                                       // idle_timeout de 1 s.
                                       if (offset >= 12) {
                                         sink.done();
                                         return true;
                                       }
                                       if (offset > 0 && server.wait_for_stop(milliseconds(100)))
                                         return false;
                                       return sink.write("x", 1);
                                     });
  });
  server.start();
  hz::HttpOptions options;
  options.idle_timeout = std::chrono::seconds(1);
  options.timeout = std::chrono::seconds(10);
  hz::HttpClient http(options);
  const auto start = Clock::now();
  auto response = http.post(server.url("/drip"), "{}");
  INFO((response ? std::string() : response.error().message));
  REQUIRE(response.ok());
  CHECK(response->body == "xxxxxxxxxxxx");
  CHECK(response->received_bytes == 12);
  CHECK(since(start) >= milliseconds(1100));
}

TEST_CASE("HttpClient sem idle_timeout (zero) espera o servidor calado até o timeout") {
  LocalServer server;
  serve_then_fall_silent(server);
  server.start();
  hz::HttpOptions options;
  options.idle_timeout = milliseconds(0);
  options.timeout = milliseconds(100);
  hz::HttpClient http(options);
  auto response = http.post(server.url("/silent"), "{}");
  REQUIRE_FALSE(response.ok());
  CHECK(response.error().kind == HttpError::Kind::timeout);
}

TEST_CASE("HttpClient dá timeout, e não idle, quando o servidor não manda nem o cabeçalho") {
  // Antes do primeiro byte, o servidor pode estar só gerando a resposta: idle não conta.
  LocalServer server;
  server.http().Post("/mute", [&server](const httplib::Request&, httplib::Response& res) {
    server.wait_for_stop(std::chrono::seconds(30));
    res.set_content("tarde", "text/plain");
  });
  server.start();
  hz::HttpOptions options;
  options.idle_timeout = milliseconds(50);
  options.timeout = std::chrono::seconds(10);
  hz::HttpClient http(options);
  hz::HttpRequestOptions request;
  request.timeout = milliseconds(150);
  auto response = http.post(server.url("/mute"), "{}", {}, request);
  REQUIRE_FALSE(response.ok());
  CHECK(response.error().kind == HttpError::Kind::timeout);
  CHECK(response.error().message == "tempo esgotado (150 ms) falando com " + server.url("/mute"));
  CHECK(response.error().status == 0);
}

TEST_CASE("HttpClient consulta should_abort durante o silêncio e cancela o pedido") {
  LocalServer server;
  serve_then_fall_silent(server);
  server.start();
  hz::HttpOptions options;
  options.idle_timeout = std::chrono::seconds(10);
  options.timeout = std::chrono::seconds(10);
  hz::HttpClient http(options);
  std::atomic<bool> got_body{false};
  int polls_after_body = 0;
  hz::HttpRequestOptions request;
  request.on_body = [&got_body](std::string_view) { got_body = true; };
  // Só pede para parar na segunda consulta depois do corpo: prova que ela
  // acontece também com o servidor calado.
  request.should_abort = [&] { return got_body && ++polls_after_body >= 2; };
  const auto start = Clock::now();
  auto response = http.post(server.url("/silent"), "{}", {}, request);
  REQUIRE_FALSE(response.ok());
  CHECK(response.error().kind == HttpError::Kind::aborted);
  CHECK(response.error().message == "pedido a " + server.url("/silent") + " cancelado");
  CHECK(response.error().status == 200);
  CHECK(since(start) < milliseconds(1500));
}

TEST_CASE("HttpClient nem conecta quando should_abort já é verdadeira ou o prazo acabou") {
  // Um socket que escuta e nunca aceita: uma conexão do cliente ficaria na fila dele.
  const hz::testing::LoopbackSocket listening = hz::testing::loopback_socket(4);
  const int listener = listening.fd;
  const std::string url = "http://127.0.0.1:" + std::to_string(listening.port) + "/x";
  auto pending_connection = [listener] {
    pollfd ready{listener, POLLIN, 0};
    return poll(&ready, 1, 20) > 0;
  };

  hz::HttpClient http;
  hz::HttpRequestOptions abort;
  abort.should_abort = [] { return true; };
  auto aborted = http.post(url, "{}", {}, abort);
  REQUIRE_FALSE(aborted.ok());
  CHECK(aborted.error().kind == HttpError::Kind::aborted);
  CHECK(aborted.error().message == "pedido a " + url + " cancelado");
  CHECK_FALSE(pending_connection());

  hz::HttpRequestOptions late;
  late.timeout = milliseconds(0);
  auto expired = http.post(url, "{}", {}, late);
  REQUIRE_FALSE(expired.ok());
  CHECK(expired.error().kind == HttpError::Kind::timeout);
  CHECK(expired.error().message == "tempo esgotado (0 ms) antes de falar com " + url);
  CHECK_FALSE(pending_connection());
  close(listener);
}

TEST_CASE("HttpClient para no limite um corpo sem fim, com a memória limitada") {
  // Antes do servidor: a thread dele ainda escreve o bloco depois que o
  // cliente desiste, até o destrutor do servidor pará-la (achado pelo TSan).
  const std::string block(64 * 1024, 'z');
  LocalServer server;
  server.http().Post("/endless", [&block](const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("text/plain", [&block](std::size_t, httplib::DataSink& sink) {
      return sink.write(block.data(), block.size());
    });
  });
  server.start();
  hz::HttpOptions options;
  options.max_response_bytes = 1024 * 1024;
  options.timeout = std::chrono::seconds(5);  // sem o limite, o teste falha em vez de pendurar
  hz::HttpClient http(options);
  const std::string url = server.url("/endless");
  auto response = http.post(url, "{}");
  REQUIRE_FALSE(response.ok());
  CHECK(response.error().kind == HttpError::Kind::too_large);
  CHECK(response.error().message ==
        "a resposta de " + url +
            " passou do limite de 1 MiB (max_response_bytes) e foi interrompida");
  CHECK(response.error().status == 200);
  CHECK(response.error().received_bytes <= options.max_response_bytes);
  CHECK(response.error().received_bytes > options.max_response_bytes / 2);

  // Com o corpo entregue em pedaços (streaming), o mesmo limite.
  std::size_t delivered = 0;
  hz::HttpRequestOptions request;
  request.on_body = [&delivered](std::string_view bytes) { delivered += bytes.size(); };
  auto streamed = http.post(url, "{}", {}, request);
  REQUIRE_FALSE(streamed.ok());
  CHECK(streamed.error().kind == HttpError::Kind::too_large);
  CHECK(delivered <= options.max_response_bytes);
  CHECK(delivered == streamed.error().received_bytes);
}

TEST_CASE("HttpClient diz o limite em bytes quando ele não é um número redondo de MiB") {
  LocalServer server;
  server.http().Post("/big", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string(5000, 'a'), "text/plain");
  });
  server.start();
  hz::HttpOptions options;
  options.max_response_bytes = 4000;
  hz::HttpClient http(options);
  auto response = http.post(server.url("/big"), "{}");
  REQUIRE_FALSE(response.ok());
  CHECK(response.error().message == "a resposta de " + server.url("/big") +
                                        " passou do limite de 4000 bytes (max_response_bytes) e "
                                        "foi interrompida");
}
