#include "hz/http.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <mutex>

namespace hz {

namespace {

void global_init_once() {
  // curl_global_init não é thread-safe; chamá-lo uma vez só, antes do primeiro handle.
  static std::once_flag flag;
  std::call_once(flag, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

size_t on_body(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* headers = static_cast<std::vector<std::pair<std::string, std::string>>*>(user);
  const std::string_view line(data, size * count);
  // Uma nova linha de status (100 Continue, redirecionamento) começa um novo bloco.
  if (line.rfind("HTTP/", 0) == 0) {
    headers->clear();
  } else if (const auto colon = line.find(':'); colon != std::string_view::npos) {
    headers->emplace_back(lower(trim(line.substr(0, colon))), trim(line.substr(colon + 1)));
  }
  return size * count;
}

// Proxies do ambiente continuam valendo, mas nunca para o loopback (o mock).
std::string no_proxy_list() {
  std::string list = "localhost,127.0.0.1,::1";
  for (const char* name : {"no_proxy", "NO_PROXY"}) {
    if (const char* value = std::getenv(name); value != nullptr && *value != '\0') {
      list += ',';
      list += value;
      break;
    }
  }
  return list;
}

HttpError to_error(CURLcode code, const char* detail_buffer, const std::string& url,
                   const HttpOptions& options, bool connected) {
  const std::string detail = (detail_buffer != nullptr && *detail_buffer != '\0')
                                 ? std::string(detail_buffer)
                                 : std::string(curl_easy_strerror(code));
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
      if (!connected) {
        return {HttpError::Kind::timeout, "tempo esgotado (" +
                                              std::to_string(options.connect_timeout.count()) +
                                              " ms) conectando a " + url};
      }
      return {
          HttpError::Kind::timeout,
          "tempo esgotado (" + std::to_string(options.timeout.count()) + " ms) falando com " + url};
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
      return {HttpError::Kind::connect,
              "não foi possível resolver o endereço de " + url + ": " + detail};
    case CURLE_COULDNT_CONNECT:
      // O detalhe do curl traz o tempo gasto ("after 0 ms"); sem ele a mensagem é estável.
      return {HttpError::Kind::connect,
              "não foi possível conectar a " + url + " (o servidor está rodando?)"};
    case CURLE_GOT_NOTHING:
      return {HttpError::Kind::connect, "o servidor fechou a conexão sem responder: " + url};
    case CURLE_SEND_ERROR:
      return {HttpError::Kind::connect, "falha ao enviar o pedido para " + url + ": " + detail};
    case CURLE_RECV_ERROR:
      return {HttpError::Kind::connect, "falha ao receber a resposta de " + url + ": " + detail};
    case CURLE_PARTIAL_FILE:
      return {HttpError::Kind::connect,
              "a conexão caiu no meio da resposta de " + url + ": " + detail};
    default:
      return {HttpError::Kind::other, "erro de HTTP falando com " + url + ": " + detail};
  }
}

}  // namespace

std::optional<std::string> HttpResponse::header(std::string_view name) const {
  const std::string wanted = lower(name);
  for (const auto& [key, value] : headers) {
    if (key == wanted) return value;
  }
  return std::nullopt;
}

struct HttpClient::Impl {
  HttpOptions options;
  CURL* curl = nullptr;
  std::string no_proxy;

  explicit Impl(HttpOptions opts) : options(opts), no_proxy(no_proxy_list()) {
    global_init_once();
    curl = curl_easy_init();
  }
  ~Impl() {
    if (curl != nullptr) curl_easy_cleanup(curl);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  Result<HttpResponse, HttpError> perform(const std::string& url, const std::string_view* body,
                                          const std::vector<std::string>& extra_headers) {
    if (curl == nullptr) return HttpError{HttpError::Kind::other, "libcurl não inicializou"};
    // curl_easy_reset zera as opções mas guarda as conexões vivas: o keep-alive
    // continua valendo e nenhuma opção de um pedido vaza para o próximo.
    curl_easy_reset(curl);

    HttpResponse response;
    char detail[CURL_ERROR_SIZE] = {};
    curl_slist* headers = nullptr;
    for (const std::string& header : extra_headers) {
      headers = curl_slist_append(headers, header.c_str());
    }
    // Sem "Expect: 100-continue": o curl esperaria até 1 s por um 100 que o
    // servidor não precisa mandar.
    headers = curl_slist_append(headers, "Expect:");

    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(options.connect_timeout.count()));
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(options.timeout.count()));
    curl_easy_setopt(curl, CURLOPT_NOPROXY, no_proxy.c_str());
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, detail);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response.body);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response.headers);
    if (body != nullptr) {
      curl_easy_setopt(curl, CURLOPT_POST, 1L);
      curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body->data());
      curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body->size()));
    } else {
      curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
    }

    const CURLcode code = curl_easy_perform(curl);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, nullptr);
    curl_slist_free_all(headers);
    // O buffer de erro vive nesta pilha; o handle não pode guardá-lo.
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, nullptr);
    if (code != CURLE_OK) {
      // Pretransfer só é marcado quando a conexão (nova ou reaproveitada) ficou
      // pronta: zero quer dizer que o tempo esgotou ainda conectando.
      curl_off_t connect_time = 0;
      curl_off_t pretransfer_time = 0;
      curl_easy_getinfo(curl, CURLINFO_CONNECT_TIME_T, &connect_time);
      curl_easy_getinfo(curl, CURLINFO_PRETRANSFER_TIME_T, &pretransfer_time);
      return to_error(code, detail, url, options, connect_time > 0 || pretransfer_time > 0);
    }
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
    return response;
  }
};

HttpClient::HttpClient(HttpOptions options) : impl_(std::make_unique<Impl>(options)) {}
HttpClient::~HttpClient() = default;
HttpClient::HttpClient(HttpClient&&) noexcept = default;
HttpClient& HttpClient::operator=(HttpClient&&) noexcept = default;

Result<HttpResponse, HttpError> HttpClient::post(const std::string& url, std::string_view body,
                                                 const std::vector<std::string>& headers) {
  if (!impl_) impl_ = std::make_unique<Impl>(HttpOptions{});
  return impl_->perform(url, &body, headers);
}

Result<HttpResponse, HttpError> HttpClient::get(const std::string& url,
                                                const std::vector<std::string>& headers) {
  if (!impl_) impl_ = std::make_unique<Impl>(HttpOptions{});
  return impl_->perform(url, nullptr, headers);
}

}  // namespace hz
