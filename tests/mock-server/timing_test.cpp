// Falhas de tempo para os limites do harness: streaming que para no meio sem
// fechar a conexão (stall_stream) e resposta lenta mas viva (chunk_delay_ms).
// Os limites testados são os do próprio transporte: esperas reais e curtas.
#include <chrono>

#include <doctest/doctest.h>

#include "support.hpp"

namespace hz::mock {
namespace {

using nlohmann::json;
using test::RawConnection;
using test::Served;
using Clock = std::chrono::steady_clock;
using test::elapsed_ms;

json streaming(json body = test::user_only()) {
  body["stream"] = true;
  return body;
}

// Silêncio: a conexão continua aberta e nada chega por este tempo.
constexpr int kSilenceMs = 100;

TEST_CASE("stall_stream manda alguns eventos e fica em silêncio com a conexão aberta") {
  Served served(test::embedded_scenario("examples/stall-stream"));
  RawConnection connection(served.port());
  connection.send(test::post_text("/v1/chat/completions", streaming().dump()));
  REQUIRE(connection.read_until("data: ", 2000, 2));
  CHECK(connection.read_to_end(kSilenceMs) == RawConnection::End::timeout);

  const std::string bytes = connection.bytes();
  CHECK(bytes.rfind("HTTP/1.1 200 OK\r\n", 0) == 0);
  auto data = test::sse_data(test::raw_body(bytes));
  REQUIRE(data.size() == 2);  // stall_after: 2
  CHECK(json::parse(data[0])["choices"][0]["delta"] ==
        json{{"role", "assistant"}, {"content", ""}});
  CHECK(json::parse(data[1])["choices"][0]["delta"] == json{{"content", "Esta "}});
  CHECK(bytes.find("\r\n0\r\n\r\n") == std::string::npos);

  // O stop() encerra o silêncio na hora: a conexão cai sem [DONE].
  const auto stop_start = Clock::now();
  served.server().stop();
  CHECK(elapsed_ms(stop_start) < 500.0);
  CHECK(connection.read_to_end(2000) != RawConnection::End::timeout);
  CHECK(connection.bytes() == bytes);
  CHECK(served.server().failures().empty());
}

TEST_CASE("stall_stream com stall_after 0 manda só os cabeçalhos e sem streaming metade do corpo") {
  Served served(test::embedded_scenario("examples/stall-stream"));
  {
    // Passo 1 sem streaming: Content-Length do corpo inteiro, metade chega, e silêncio.
    RawConnection connection(served.port());
    connection.send(test::post_text("/v1/chat/completions", test::user_only().dump()));
    REQUIRE(connection.read_until("\r\n\r\n", 2000));
    CHECK(connection.read_to_end(kSilenceMs) == RawConnection::End::timeout);
    const std::string header = "Content-Length: ";
    const auto at = connection.bytes().find(header);
    REQUIRE(at != std::string::npos);
    const std::size_t promised = std::stoul(connection.bytes().substr(at + header.size()));
    const std::string body = test::raw_body(connection.bytes());
    CHECK(body.size() == promised / 2);
    CHECK(body.rfind("{\"choices\":", 0) == 0);
  }
  {
    // Passo 2 com streaming: os cabeçalhos chegam, nenhum evento, e silêncio.
    RawConnection connection(served.port());
    connection.send(test::post_text("/v1/chat/completions", streaming().dump()));
    REQUIRE(connection.read_until("\r\n\r\n", 2000));
    CHECK(connection.read_to_end(kSilenceMs) == RawConnection::End::timeout);
    CHECK(connection.bytes().find("Content-Type: text/event-stream\r\n") != std::string::npos);
    CHECK(test::raw_body(connection.bytes()).empty());
  }
  // Quem desistiu não atrapalha o passo seguinte.
  CHECK(served.chat(test::user_only())["choices"][0]["message"]["content"] ==
        "Agora respondi inteiro.");
  CHECK(served.server().failures().empty());
}

TEST_CASE("chunk_delay_ms espaça os eventos e um cliente com limite sem dados maior recebe tudo") {
  Served served(test::embedded_scenario("examples/slow-stream"));
  // Limite de tempo sem dados (read timeout) maior que os 25 ms entre eventos.
  served.client().set_read_timeout(std::chrono::milliseconds(200));
  const auto start = Clock::now();
  auto res = served.post(streaming());
  const double took = elapsed_ms(start);
  REQUIRE(res);
  CHECK(res->status == 200);
  auto data = test::sse_data(res->body);
  // Papel, "Devagar ", "e ", "sempre.", finish_reason e [DONE]: 6 eventos, 25 ms antes de cada.
  REQUIRE(data.size() == 6);
  CHECK(data.back() == "[DONE]");
  std::string content;
  for (std::size_t i = 0; i + 1 < data.size(); ++i) {
    const json delta = json::parse(data[i])["choices"][0]["delta"];
    if (delta.contains("content")) content += delta["content"].get<std::string>();
  }
  CHECK(content == "Devagar e sempre.");
  CHECK(took >= 6 * 25.0);
}

TEST_CASE("chunk_delay_ms maior que o limite sem dados do cliente faz o cliente desistir") {
  Served served(test::scenario_from(R"({"steps": [{"content": "x", "chunk_delay_ms": 300}]})"));
  served.client().set_read_timeout(std::chrono::milliseconds(30));
  auto res = served.post(streaming());
  CHECK_FALSE(res);
  CHECK(res.error() == httplib::Error::Read);
}

TEST_CASE("chunk_delay_ms sem streaming manda o corpo em pedaços de 64 bytes") {
  Served served(test::embedded_scenario("examples/slow-stream"));
  served.client().set_read_timeout(std::chrono::milliseconds(200));
  const auto start = Clock::now();
  json reply = served.chat(test::user_only());
  const double took = elapsed_ms(start);
  CHECK(reply["choices"][0]["message"]["content"] == "Devagar e sempre.");
  const std::size_t pieces = (reply.dump().size() + 63) / 64;
  CHECK(pieces >= 3);
  CHECK(took >= static_cast<double>(pieces) * 25.0);
}

}  // namespace
}  // namespace hz::mock
