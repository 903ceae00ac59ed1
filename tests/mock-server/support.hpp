// Ajudantes dos testes do mock: cenários a partir de texto, um servidor no
// processo com um cliente httplib, pedidos por socket cru (para ver
// exatamente os bytes, inclusive conexões cortadas) e leitura de SSE.
#pragma once

#include <httplib.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "hz/mock/embedded.hpp"
#include "hz/mock/mock_server.hpp"
#include "hz/mock/scenario.hpp"

namespace hz::mock::test {

using nlohmann::json;

// A mensagem da primeira escolha de uma resposta de chat.
inline json message_of(const json& reply) { return reply["choices"][0]["message"]; }

// Milissegundos de relógio de verdade desde `since` (os testes de tempo do
// servidor medem o servidor, não um relógio injetado).
inline double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since)
      .count();
}

// Cenário a partir de texto JSON; o teste falha se o texto for inválido.
inline Scenario scenario_from(const std::string& text) {
  auto parsed = parse_scenario(text, "teste.json");
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  return std::move(parsed).value();
}

// Cenário embutido pelo nome (ex.: "monday", "examples/quirks").
inline Scenario embedded_scenario(const std::string& name) {
  auto path = find_scenario(name);
  REQUIRE_MESSAGE(path.ok(), (path.ok() ? "" : path.error().message));
  auto parsed = load_scenario(*path);
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  return std::move(parsed).value();
}

// Um pedido de chat mínimo: mensagens dadas, duas ferramentas oferecidas.
inline json chat_request(json messages, bool stream = false) {
  auto tool = [](const char* name) {
    return json{{"type", "function"},
                {"function",
                 {{"name", name},
                  {"description", "ferramenta de teste"},
                  {"parameters", {{"type", "object"}, {"properties", json::object()}}}}}};
  };
  json body = {{"model", "hz-mock"},
               {"messages", std::move(messages)},
               {"tools", json::array({tool("run_shell"), tool("read_file")})}};
  if (stream) body["stream"] = true;
  return body;
}

inline json user_only(const std::string& text = "oi") {
  return chat_request(json::array({{{"role", "user"}, {"content", text}}}));
}

// Servidor no processo, já rodando, com um cliente keep-alive apontado para ele.
class Served {
 public:
  explicit Served(Scenario scenario) : server_(std::move(scenario)) {
    auto port = server_.start();
    REQUIRE_MESSAGE(port.ok(), (port.ok() ? "" : port.error().message));
    port_ = *port;
    client_ = std::make_unique<httplib::Client>("127.0.0.1", port_);
    client_->set_keep_alive(true);
    client_->set_tcp_nodelay(true);
  }

  MockServer& server() { return server_; }
  httplib::Client& client() { return *client_; }
  int port() const { return port_; }

  httplib::Result post(const json& body) {
    return client_->Post("/v1/chat/completions", body.dump(), "application/json");
  }

  // Faz o pedido e exige HTTP 200 com corpo JSON; devolve o corpo.
  json chat(const json& body) {
    auto res = post(body);
    REQUIRE(res);
    INFO(res->body);
    REQUIRE(res->status == 200);
    return json::parse(res->body);
  }

 private:
  MockServer server_;
  int port_ = 0;
  std::unique_ptr<httplib::Client> client_;
};

// A resposta de um pedido HTTP feito por socket cru, byte a byte.
struct RawReply {
  std::string bytes;   // tudo o que chegou até o servidor fechar
  bool reset = false;  // a conexão terminou com erro (ECONNRESET) em vez de EOF limpo
};

// POST com "Connection: close", lendo até o servidor fechar (teto de 5 s).
RawReply raw_post(int port, const std::string& path, const std::string& body);

// O texto de um POST HTTP/1.1 com corpo JSON; `close` pede "Connection: close".
std::string post_text(const std::string& path, const std::string& body, bool close = true);

// Uma conexão TCP crua com 127.0.0.1:port, aberta enquanto o objeto viver.
// Serve para segurar conexões (ociosas, pela metade, esperando) e para ler a
// resposta aos poucos, com prazo: nenhum método espera mais que o timeout dado.
class RawConnection {
 public:
  enum class End { eof, reset, timeout };

  explicit RawConnection(int port);
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  void send(const std::string& bytes);
  // Fecha já, com RST (SO_LINGER 0) em vez do FIN de um fechamento normal.
  void reset();
  // Lê até `marker` aparecer `times` vezes no que chegou (devolve true), o
  // servidor fechar ou passar timeout_ms sem chegar nada (devolve false).
  bool read_until(const std::string& marker, int timeout_ms, int times = 1);
  // Lê até o servidor fechar ou passar timeout_ms sem chegar nada.
  End read_to_end(int timeout_ms);
  const std::string& bytes() const { return bytes_; }

 private:
  // Um recv com prazo: >0 bytes lidos, 0 fim, -1 erro, -2 prazo.
  long receive(int timeout_ms);

  int fd_ = -1;
  std::string bytes_;
};

// Os "data:" de um corpo SSE, na ordem. Falha o teste se um evento não
// seguir o enquadramento "data: ...\n\n".
std::vector<std::string> sse_data(const std::string& body);

// O corpo depois dos cabeçalhos, desfazendo o chunked (sem exigir o pedaço final).
std::string raw_body(const std::string& bytes);

}  // namespace hz::mock::test
