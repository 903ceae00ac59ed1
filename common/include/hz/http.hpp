// Transporte HTTP sobre libcurl: um handle reutilizável por cliente, com
// keep-alive, timeouts e sem compressão (no loopback, comprimir só custa).
#pragma once

#include <chrono>
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
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // nomes em minúsculas

  // Primeiro cabeçalho com esse nome (comparação sem diferenciar maiúsculas).
  std::optional<std::string> header(std::string_view name) const;
};

struct HttpError {
  enum class Kind { connect, timeout, other };
  Kind kind = Kind::other;
  std::string message;  // em português, pronto para mostrar
};

struct HttpOptions {
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds timeout{120000};  // a requisição inteira
};

// Não é thread-safe: um HttpClient por thread. Não copiável; movível.
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
  Result<HttpResponse, HttpError> get(const std::string& url,
                                      const std::vector<std::string>& headers = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hz
