// O cliente de um endpoint compatível com OpenAI (POST /chat/completions).
//
// ChatModel é a costura que o loop enxerga: uma chamada, uma resposta ou um
// erro. OpenAiClient é a implementação real sobre HTTP; o mock de testes
// (mock-server/) fala o mesmo protocolo, então o loop nunca sabe com quem fala.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hz/http.hpp"
#include "hz/result.hpp"
#include "hz/wire.hpp"

namespace hz {

struct ModelError {
  enum class Kind {
    connection,  // não conectou, conexão caiu, streaming cortado
    timeout,     // passou do tempo da chamada inteira
    http,        // status HTTP de erro (4xx/5xx); veja http_status
    malformed,   // 200 com corpo que não dá para ler (ou com um erro do provedor dentro)
    idle,        // a resposta começou e parou: nada por HttpOptions::idle_timeout
    too_large,   // a resposta passou de HttpOptions::max_response_bytes
    aborted,     // CallOptions::should_abort pediu para parar
  };
  Kind kind = Kind::connection;
  int http_status = 0;
  // Quanto esperar antes de repetir, dos cabeçalhos retry-after-ms ou
  // Retry-After (veja hz::retry_after_seconds); vazio sem dica válida.
  std::optional<double> retry_after_seconds;
  std::string message;  // em português; inclui a mensagem do provedor

  // Fatos para a conta, somando as tentativas desta chamada.
  std::size_t request_bytes = 0;   // bytes dos corpos JSON enviados
  std::size_t response_bytes = 0;  // bytes de corpo recebidos
  // Alguma tentativa recebeu 2xx e a chamada não deu uma resposta (JSON
  // quebrado, streaming cortado, parado ou cancelado no meio, reenvio que
  // falhou depois de um streaming descartado): o provedor já cobrou.
  bool billed = false;
};

// Opções de uma chamada só.
struct CallOptions {
  // Pedir a resposta em streaming (SSE). O cliente pode decidir não usar
  // (veja OpenAiClient); ChatReply::streamed diz o que aconteceu.
  bool stream = false;
  // Recebe cada pedaço de texto que chega por streaming, na thread da
  // chamada. Só o texto que veio por streaming passa por aqui: se a resposta
  // final não veio assim (ChatReply::streamed falso), quem chamou mostra
  // message.content. Numa chamada refeita, on_text pode ter recebido o texto
  // da primeira tentativa, que foi descartada; ChatReply::fallback diz isso.
  std::function<void(std::string_view)> on_text;
  // Consultada na thread da chamada, antes de enviar e pelo menos a cada
  // 100 ms durante a transferência; verdadeira, a chamada para com
  // ModelError::Kind::aborted. Para o Ctrl-C, leia aqui um std::atomic<bool>
  // que o tratador do sinal marca.
  std::function<bool()> should_abort;
  // Substitui HttpOptions::timeout para a chamada inteira, reenvios
  // incluídos (a etapa 02 passa o que sobra até o prazo do turno). Zero ou
  // negativo: nada é enviado e o erro é timeout.
  std::optional<std::chrono::milliseconds> timeout;
};

class ChatModel {
 public:
  virtual ~ChatModel() = default;
  virtual Result<ChatReply, ModelError> complete(const ChatRequest& request) = 0;
  // A chamada com opções. Esta implementação ignora as opções e chama
  // complete(request): um modelo falso de teste continua valendo.
  virtual Result<ChatReply, ModelError> call(const ChatRequest& request,
                                             const CallOptions& /*options*/) {
    return complete(request);
  }
};

struct EndpointConfig {
  std::string base_url;  // ex.: http://localhost:11434/v1 (sem barra final, mas tolera)
  std::string api_key;   // vazio: sem cabeçalho Authorization
  HttpOptions http;
};

// Fala com o servidor por HTTP. complete(request) é call(request, {}): sem
// streaming, sem cancelamento, com os timeouts de EndpointConfig::http.
//
// Streaming (CallOptions::stream): o pedido leva "stream": true e
// "stream_options": {"include_usage": true}; a resposta é montada por
// hz::StreamDecoder. Um streaming que termina sem "data: [DONE]" ou sem
// finish_reason é erro connection ("cortado"), não uma resposta pela metade.
//
// Servidores que não fazem streaming direito. O cliente lembra, até ser
// destruído, que o streaming não serve com este servidor, e a partir daí
// faz toda chamada sem streaming. Acontece quando:
// (a) o servidor responde HTTP 400 a um pedido com streaming (alguns
//     recusam stream_options): o mesmo pedido é refeito uma vez sem
//     streaming. Se o refeito também dá erro, o problema não era o
//     streaming: o erro volta e o streaming continua ligado;
// (b) o streaming termina sem o uso de tokens: a resposta vale, e os
//     próximos pedidos vão sem streaming para que o uso seja o de verdade;
// (c) o streaming termina com finish_reason "tool_calls" e nenhuma tool call
//     (servidores que perdem os deltas de tool call): o pedido é refeito uma
//     vez sem streaming.
// A resposta em que isso aconteceu traz a frase em ChatReply::fallback; a
// mesma frase fica em streaming_fallback().
class OpenAiClient final : public ChatModel {
 public:
  explicit OpenAiClient(EndpointConfig config);
  Result<ChatReply, ModelError> complete(const ChatRequest& request) override;
  Result<ChatReply, ModelError> call(const ChatRequest& request,
                                     const CallOptions& options) override;
  // GET /models: os ids dos modelos que o servidor anuncia.
  Result<std::vector<std::string>, ModelError> list_models();

  // Por que o streaming foi desligado nesta sessão; vazio enquanto vale.
  const std::string& streaming_fallback() const { return streaming_fallback_; }
  bool streaming_enabled() const { return streaming_fallback_.empty(); }

 private:
  struct Attempt;
  Result<ChatReply, ModelError> send_plain(const ChatRequest& request, Attempt& attempt);
  Result<ChatReply, ModelError> send_streaming(const ChatRequest& request, Attempt& attempt);
  Result<ChatReply, ModelError> call_streaming(const ChatRequest& request, Attempt& attempt);

  EndpointConfig config_;
  HttpClient http_;
  std::string streaming_fallback_;
};

}  // namespace hz
