// Subir e parar: pronto ao voltar do start(), stop() rápido, latência baixa.
#include <algorithm>
#include <chrono>
#include <cstdio>

#include <doctest/doctest.h>

#include "support.hpp"

namespace hz::mock {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;
using test::elapsed_ms;

Scenario forever() {
  return test::scenario_from(R"({"steps": [{"content": "x", "repeat": "forever"}]})");
}

TEST_CASE("start devolve uma porta que já aceita pedidos") {
  MockServer server(forever());
  auto port = server.start();
  REQUIRE(port.ok());
  CHECK(*port > 0);
  CHECK(server.port() == *port);
  CHECK(server.base_url() == "http://127.0.0.1:" + std::to_string(*port) + "/v1");
  // Sem esperar nada: o primeiro pedido logo depois do start() é atendido.
  httplib::Client client("127.0.0.1", *port);
  auto res = client.Post("/v1/chat/completions", test::user_only().dump(), "application/json");
  REQUIRE(res);
  CHECK(res->status == 200);
}

TEST_CASE("start duas vezes é erro e stop é idempotente") {
  MockServer server(forever());
  REQUIRE(server.start().ok());
  auto again = server.start();
  REQUIRE_FALSE(again.ok());
  CHECK(again.error().message == "o hz-mock já está rodando em " + server.base_url());
  server.stop();
  server.stop();
  CHECK(server.port() == 0);
}

TEST_CASE("depois do stop o servidor pode subir de novo e o roteiro continua") {
  MockServer server(test::embedded_scenario("examples/repeat"));
  for (int round = 0; round < 2; ++round) {
    auto port = server.start();
    REQUIRE(port.ok());
    httplib::Client client("127.0.0.1", *port);
    auto res = client.Post("/v1/chat/completions", test::user_only().dump(), "application/json");
    REQUIRE(res);
    CHECK(res->status == 200);
    server.stop();
  }
  CHECK(server.requests().size() == 2);
}

TEST_CASE("porta ocupada dá erro claro") {
  MockServer first(forever());
  auto port = first.start();
  REQUIRE(port.ok());
  MockServer second(forever());
  auto result = second.start("127.0.0.1", *port);
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().message == "não consegui abrir 127.0.0.1:" + std::to_string(*port) +
                                      " (endereço inválido ou porta em uso?)");
}

TEST_CASE("start com endereço vazio é erro em vez de uma URL sem host") {
  MockServer server(forever());
  auto result = server.start("");
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().message == "endereço vazio: use, por exemplo, 127.0.0.1");
  CHECK(server.port() == 0);
}

TEST_CASE("dezenas de ciclos de start e stop são rápidos mesmo com cliente ocioso") {
  double worst_stop_ms = 0;
  double total_ms = 0;
  constexpr int kCycles = 30;
  for (int i = 0; i < kCycles; ++i) {
    const auto cycle_start = Clock::now();
    MockServer server(forever());
    auto port = server.start();
    REQUIRE(port.ok());
    // Em metade dos ciclos um cliente keep-alive fica conectado e parado.
    httplib::Client client("127.0.0.1", *port);
    client.set_keep_alive(true);
    if (i % 2 == 0) {
      auto res = client.Post("/v1/chat/completions", test::user_only().dump(), "application/json");
      REQUIRE(res);
      CHECK(res->status == 200);
    }
    const auto stop_start = Clock::now();
    server.stop();
    const double stop_ms = elapsed_ms(stop_start);
    worst_stop_ms = std::max(worst_stop_ms, stop_ms);
    CHECK(stop_ms < 500.0);
    total_ms += elapsed_ms(cycle_start);
  }
  MESSAGE("stop mais lento: " << worst_stop_ms << " ms; ciclo médio: " << total_ms / kCycles
                              << " ms");
}

TEST_CASE("pedidos seguidos custam pouco graças ao TCP_NODELAY") {
  test::Served served(forever());
  const std::string body = test::user_only().dump();
  std::vector<double> costs;
  for (int i = 0; i < 200; ++i) {
    const auto start = Clock::now();
    auto res = served.client().Post("/v1/chat/completions", body, "application/json");
    costs.push_back(elapsed_ms(start));
    REQUIRE(res);
  }
  std::sort(costs.begin(), costs.end());
  const double median = costs[costs.size() / 2];
  MESSAGE("mediana de um pedido: " << median << " ms");
  // Sem TCP_NODELAY a mediana passa de 20 ms (ACK atrasado); o teto é folgado.
  CHECK(median < 5.0);
}

}  // namespace
}  // namespace hz::mock
