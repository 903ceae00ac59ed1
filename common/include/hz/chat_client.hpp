// O cliente de um endpoint compatível com OpenAI (POST /chat/completions).
//
// ChatModel é a costura que o loop enxerga: uma chamada, uma resposta ou um
// erro. OpenAiClient é a implementação real sobre HTTP; o mock de testes
// (mock-server/) fala o mesmo protocolo, então o loop nunca sabe com quem fala.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "hz/http.hpp"
#include "hz/result.hpp"
#include "hz/wire.hpp"

namespace hz {

struct ModelError {
  enum class Kind {
    connection,  // não conectou, conexão caiu
    timeout,     // passou do tempo
    http,        // status HTTP de erro (4xx/5xx); veja http_status
    malformed,   // 200 com corpo que não dá para ler
  };
  Kind kind = Kind::connection;
  int http_status = 0;
  std::optional<double> retry_after_seconds;  // do cabeçalho Retry-After
  std::string message;                        // em português; inclui a mensagem do provedor
};

class ChatModel {
 public:
  virtual ~ChatModel() = default;
  virtual Result<ChatReply, ModelError> complete(const ChatRequest& request) = 0;
};

struct EndpointConfig {
  std::string base_url;  // ex.: http://localhost:11434/v1 (sem barra final, mas tolera)
  std::string api_key;   // vazio: sem cabeçalho Authorization
  HttpOptions http;
};

class OpenAiClient final : public ChatModel {
 public:
  explicit OpenAiClient(EndpointConfig config);
  Result<ChatReply, ModelError> complete(const ChatRequest& request) override;
  // GET /models: os ids dos modelos que o servidor anuncia.
  Result<std::vector<std::string>, ModelError> list_models();

 private:
  EndpointConfig config_;
  HttpClient http_;
};

}  // namespace hz
