// Transporte HTTP sobre libcurl: um handle reutilizável por cliente, com
// keep-alive, timeouts e sem compressão (no loopback, comprimir só custa).
//
// Limites de cada pedido (HttpOptions e HttpRequestOptions):
// - timeout: o pedido inteiro, da conexão ao último byte;
// - idle_timeout: silêncio do servidor depois que a resposta começou a
//   chegar. Um servidor lento mas vivo (um byte de vez em quando) nunca cai
//   por ele; um que parou no meio cai com Kind::idle, distinto de timeout.
//   Antes do primeiro byte da resposta só valem connect_timeout e timeout:
//   sem streaming, o servidor não manda nada enquanto gera, e isso é normal.
//   Zero ou negativo desliga o idle_timeout;
// - max_response_bytes: cabeçalhos e corpo juntos; passou, a transferência
//   para e o erro é Kind::too_large. A memória fica limitada por ele;
// - should_abort: consultada pelo menos a cada 100 ms; verdadeira, o pedido
//   para com Kind::aborted.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hz/result.hpp"

namespace hz {

struct HttpResponse {
  long status = 0;
  std::string body;  // vazio quando o corpo foi entregue a HttpRequestOptions::on_body
  std::vector<std::pair<std::string, std::string>> headers;  // nomes em minúsculas
  std::size_t received_bytes = 0;  // bytes do corpo, inclusive os entregues a on_body

  // Primeiro cabeçalho com esse nome (comparação sem diferenciar maiúsculas).
  std::optional<std::string> header(std::string_view name) const;
};

struct HttpError {
  enum class Kind {
    connect,    // não conectou, ou a conexão caiu
    timeout,    // passou do timeout do pedido (ou do de conexão)
    other,      // qualquer outra falha do libcurl
    idle,       // a resposta começou e parou: nada por idle_timeout
    too_large,  // a resposta passou de max_response_bytes
    aborted,    // should_abort pediu para parar
  };
  Kind kind = Kind::other;
  std::string message;  // em português, pronto para mostrar
  // O que já tinha chegado quando o pedido falhou: um status 200 aqui quer
  // dizer que o servidor aceitou o pedido (e um provedor pago já cobrou).
  long status = 0;                 // 0: nenhuma linha de status chegou
  std::size_t received_bytes = 0;  // bytes do corpo recebidos antes da falha
};

struct HttpOptions {
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds timeout{120000};      // a requisição inteira
  std::chrono::milliseconds idle_timeout{60000};  // silêncio no meio da resposta
  std::size_t max_response_bytes = std::size_t{16} * 1024 * 1024;
};

// Opções de um pedido só; as vazias usam as do cliente.
struct HttpRequestOptions {
  // Substitui HttpOptions::timeout neste pedido. Zero ou negativo: o pedido
  // nem sai e a resposta é Kind::timeout.
  std::optional<std::chrono::milliseconds> timeout;
  // Chamada na thread do pedido, antes de enviar e pelo menos a cada 100 ms.
  // Para atender a um Ctrl-C, leia aqui um std::atomic<bool> (ou
  // volatile std::sig_atomic_t) que o tratador do sinal marca.
  std::function<bool()> should_abort;
  // Se definida, recebe o corpo de uma resposta 2xx em pedaços, à medida que
  // chegam, e HttpResponse::body fica vazio. Respostas de outros status
  // continuam inteiras em body (para a mensagem de erro).
  std::function<void(std::string_view)> on_body;
};

// Não é thread-safe: um HttpClient por thread. Não copiável; movível.
// Uma exceção lançada por should_abort ou on_body interrompe o pedido e
// sai de post() depois que o libcurl foi deixado em ordem.
class HttpClient {
 public:
  explicit HttpClient(HttpOptions options = {});
  ~HttpClient();
  HttpClient(HttpClient&&) noexcept;
  HttpClient& operator=(HttpClient&&) noexcept;
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Cabeçalhos extras no formato "Nome: valor".
  Result<HttpResponse, HttpError> post(const std::string& url, std::string_view body,
                                       const std::vector<std::string>& headers = {});
  Result<HttpResponse, HttpError> post(const std::string& url, std::string_view body,
                                       const std::vector<std::string>& headers,
                                       const HttpRequestOptions& options);
  Result<HttpResponse, HttpError> get(const std::string& url,
                                      const std::vector<std::string>& headers = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Quanto esperar antes de repetir, em segundos, pelos cabeçalhos da resposta:
// primeiro "retry-after-ms" (milissegundos, pode ter fração), depois
// "Retry-After" em segundos (pode ter fração) ou como data HTTP (a distância
// de now até ela). Valor negativo, data no passado ou texto ilegível não
// contam: vazio quando nenhum dos dois serve.
std::optional<double> retry_after_seconds(const HttpResponse& response,
                                          std::chrono::system_clock::time_point now);

}  // namespace hz
