// O modelo roteirizado: um servidor OpenAI Chat Completions determinístico.
//
// Roda dentro do processo (testes sobem um em porta efêmera de 127.0.0.1) ou
// sozinho (hz-mock). Responde seguindo um roteiro (Scenario), grava cada
// pedido e registra falhas (expectativa não cumprida, pedido depois do fim do
// roteiro) para os testes conferirem.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "hz/mock/scenario.hpp"
#include "hz/result.hpp"

namespace hz::mock {

struct RecordedRequest {
  std::string method;    // "POST", "GET"
  std::string path;      // "/v1/chat/completions"
  std::string raw_body;  // corpo exatamente como chegou
  nlohmann::json body;   // corpo lido como JSON (null se não era JSON)
};

// Quantas conexões o servidor atende ao mesmo tempo, cada uma na sua thread
// (criadas sob demanda). Pedidos "hang", conexões keep-alive ociosas e
// clientes lentos ocupam uma cada; só além deste teto uma conexão nova espera
// outra terminar.
inline constexpr std::size_t kMaxConcurrentConnections = 256;

class MockServer {
 public:
  explicit MockServer(Scenario scenario);
  ~MockServer();  // chama stop()
  MockServer(const MockServer&) = delete;
  MockServer& operator=(const MockServer&) = delete;

  // Abre host:port (0 = porta efêmera) numa thread própria e só volta quando
  // já aceita conexões. Devolve a porta. host vazio é erro.
  Result<int> start(const std::string& host = "127.0.0.1", int port = 0);

  // Para rápido (dezenas de milissegundos no pior caso), mesmo com conexões
  // keep-alive ociosas ou um passo "hang"/"stall_stream" em andamento. Idempotente.
  void stop();

  std::string base_url() const;  // "http://HOST:PORT/v1"
  int port() const;              // 0 enquanto não estiver rodando

  const Scenario& scenario() const;

  std::vector<RecordedRequest> requests() const;
  // Uma linha por problema: expectativa que falhou, pedido além do roteiro.
  std::vector<std::string> failures() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hz::mock
