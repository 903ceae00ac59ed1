#include "hz/http.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <mutex>

#include "hz/text.hpp"

namespace hz {

namespace {

using Clock = std::chrono::steady_clock;

// Mesmo sem should_abort, o laço acorda nesse intervalo: é o que garante a
// consulta a cada 100 ms e a precisão do idle_timeout.
constexpr std::chrono::milliseconds kPollInterval{100};

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

std::string describe_bytes(std::size_t bytes) {
  constexpr std::size_t kMiB = 1024 * 1024;
  if (bytes >= kMiB && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  return std::to_string(bytes) + " bytes";
}

// O que os callbacks do libcurl veem de um pedido em andamento.
struct Transfer {
  HttpResponse* response = nullptr;
  CURL* curl = nullptr;
  const std::function<void(std::string_view)>* on_body = nullptr;
  std::size_t limit = 0;
  std::size_t header_bytes = 0;
  bool started = false;  // chegou algum byte da resposta
  Clock::time_point last_byte;
  long body_status = -1;  // o status, lido no primeiro pedaço do corpo
  bool too_large = false;
  std::exception_ptr failure;  // exceção de on_body, relançada depois do curl

  void touch() {
    started = true;
    last_byte = Clock::now();
  }
};

size_t write_body(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const size_t bytes = size * count;
  transfer->touch();
  if (transfer->header_bytes + transfer->response->received_bytes + bytes > transfer->limit) {
    transfer->too_large = true;
    return 0;  // qualquer valor diferente de bytes faz o libcurl parar
  }
  transfer->response->received_bytes += bytes;
  if (transfer->body_status < 0) {
    transfer->body_status = 0;
    curl_easy_getinfo(transfer->curl, CURLINFO_RESPONSE_CODE, &transfer->body_status);
  }
  const bool success = transfer->body_status >= 200 && transfer->body_status < 300;
  if (transfer->on_body != nullptr && *transfer->on_body && success) {
    // Uma exceção não pode atravessar o C do libcurl.
    try {
      (*transfer->on_body)(std::string_view(data, bytes));
    } catch (...) {
      transfer->failure = std::current_exception();
      return 0;
    }
  } else {
    transfer->response->body.append(data, bytes);
  }
  return bytes;
}

size_t write_header(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const size_t bytes = size * count;
  transfer->touch();
  transfer->header_bytes += bytes;
  if (transfer->header_bytes > transfer->limit) {
    transfer->too_large = true;
    return 0;
  }
  auto& headers = transfer->response->headers;
  const std::string_view line(data, bytes);
  // Uma nova linha de status (100 Continue, redirecionamento) começa um novo bloco.
  if (line.rfind("HTTP/", 0) == 0) {
    headers.clear();
  } else if (const auto colon = line.find(':'); colon != std::string_view::npos) {
    headers.emplace_back(lower(trim(line.substr(0, colon))),
                         std::string(trim(line.substr(colon + 1))));
  }
  return bytes;
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

// As mensagens do libcurl vêm em inglês; as comuns viram frases em português
// que dizem o que conferir. Só as raras levam o detalhe original, marcado.
HttpError curl_error(CURLcode code, const char* detail_buffer, long os_errno,
                     const std::string& url, const HttpOptions& options,
                     std::chrono::milliseconds timeout, bool connected) {
  const std::string detail = (detail_buffer != nullptr && *detail_buffer != '\0')
                                 ? std::string(detail_buffer)
                                 : std::string(curl_easy_strerror(code));
  using Kind = HttpError::Kind;
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
      if (!connected) {
        return {Kind::timeout, "tempo esgotado (" +
                                   std::to_string(options.connect_timeout.count()) +
                                   " ms) conectando a " + url};
      }
      return {Kind::timeout,
              "tempo esgotado (" + std::to_string(timeout.count()) + " ms) falando com " + url};
    case CURLE_COULDNT_RESOLVE_HOST:
      return {Kind::connect, "não foi possível resolver o endereço de " + url +
                                 " (o nome do servidor está certo?)"};
    case CURLE_COULDNT_RESOLVE_PROXY:
      return {Kind::connect, "não foi possível resolver o endereço do proxy para falar com " + url +
                                 " (confira http_proxy e https_proxy)"};
    case CURLE_COULDNT_CONNECT:
      // O detalhe do curl traz o tempo gasto ("after 0 ms"); sem ele a mensagem é estável.
      return {Kind::connect, "não foi possível conectar a " + url + " (o servidor está rodando?)"};
    case CURLE_GOT_NOTHING:
      return {Kind::connect, "o servidor fechou a conexão sem responder: " + url};
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
      if (os_errno == ECONNRESET) {
        return {Kind::connect, "o servidor derrubou a conexão (reset) com " + url};
      }
      if (code == CURLE_SEND_ERROR) {
        return {Kind::connect, "falha ao enviar o pedido para " + url};
      }
      return {Kind::connect, "falha ao receber a resposta de " + url};
    case CURLE_PARTIAL_FILE:
      return {Kind::connect, "a conexão caiu no meio da resposta de " + url};
    case CURLE_SSL_CONNECT_ERROR:
      return {Kind::connect, "falha ao abrir a conexão segura (TLS) com " + url +
                                 " (o servidor fala HTTPS nessa porta?)"};
    case CURLE_PEER_FAILED_VERIFICATION:
      return {Kind::connect, "o certificado TLS de " + url +
                                 " não foi aceito (vencido, autoassinado ou de outro nome)"};
    case CURLE_SSL_CACERT_BADFILE:
      return {
          Kind::connect,
          "não foi possível ler os certificados de autoridade do sistema para falar com " + url};
    case CURLE_UNSUPPORTED_PROTOCOL:
      return {Kind::other, "protocolo não suportado em " + url + " (use http:// ou https://)"};
    case CURLE_URL_MALFORMAT:
      return {Kind::other, "endereço inválido: " + url};
    default:
      return {Kind::other,
              "erro de HTTP falando com " + url + " (detalhe do libcurl: " + detail + ")"};
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
  CURLM* multi = nullptr;
  CURL* curl = nullptr;
  std::string no_proxy;

  explicit Impl(HttpOptions opts) : options(opts), no_proxy(no_proxy_list()) {
    global_init_once();
    // O laço de multi (em vez de curl_easy_perform) é o que deixa consultar
    // should_abort e o silêncio do servidor a cada 100 ms: o easy_perform só
    // volta ao chamador no fim. As conexões vivas ficam no multi.
    multi = curl_multi_init();
    curl = curl_easy_init();
  }
  ~Impl() {
    if (curl != nullptr) curl_easy_cleanup(curl);
    if (multi != nullptr) curl_multi_cleanup(multi);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  Result<HttpResponse, HttpError> perform(const std::string& url, const std::string_view* body,
                                          const std::vector<std::string>& extra_headers,
                                          const HttpRequestOptions& request) {
    if (curl == nullptr || multi == nullptr) {
      return HttpError{HttpError::Kind::other, "libcurl não inicializou"};
    }
    const std::chrono::milliseconds timeout = request.timeout.value_or(options.timeout);
    if (timeout.count() <= 0) {
      // Zero no CURLOPT_TIMEOUT_MS quer dizer "sem limite": o oposto do pedido.
      return HttpError{
          HttpError::Kind::timeout,
          "tempo esgotado (" + std::to_string(timeout.count()) + " ms) antes de falar com " + url};
    }
    if (request.should_abort && request.should_abort()) return aborted(url);

    // curl_easy_reset zera as opções mas guarda as conexões vivas: o keep-alive
    // continua valendo e nenhuma opção de um pedido vaza para o próximo.
    curl_easy_reset(curl);

    HttpResponse response;
    Transfer transfer;
    transfer.response = &response;
    transfer.curl = curl;
    transfer.on_body = &request.on_body;
    transfer.limit = options.max_response_bytes;

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
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
    curl_easy_setopt(curl, CURLOPT_NOPROXY, no_proxy.c_str());
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, detail);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, write_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, write_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
    if (body != nullptr) {
      curl_easy_setopt(curl, CURLOPT_POST, 1L);
      curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body->data());
      curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body->size()));
    } else {
      curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
    }

    std::optional<HttpError::Kind> stopped;
    CURLcode code = CURLE_OK;
    if (curl_multi_add_handle(multi, curl) != CURLM_OK) {
      code = CURLE_FAILED_INIT;
    } else {
      stopped = drive(transfer, request, code);
      curl_multi_remove_handle(multi, curl);
    }
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, nullptr);
    curl_slist_free_all(headers);
    // O buffer de erro vive nesta pilha; o handle não pode guardá-lo.
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, nullptr);
    if (transfer.failure) std::rethrow_exception(transfer.failure);

    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    if (transfer.too_large) stopped = HttpError::Kind::too_large;
    if (stopped || code != CURLE_OK) {
      HttpError error =
          stopped ? stop_error(*stopped, url)
                  : curl_error(code, detail, os_errno(), url, options, timeout, was_connected());
      error.status = status;
      error.received_bytes = response.received_bytes;
      return error;
    }
    response.status = status;
    return response;
  }

  // Roda o pedido até o fim, ou até um dos limites que o libcurl não conhece.
  // Devolve o limite que parou o pedido; sem ele, code é o resultado do curl.
  std::optional<HttpError::Kind> drive(Transfer& transfer, const HttpRequestOptions& request,
                                       CURLcode& code) {
    for (;;) {
      int running = 0;
      if (curl_multi_perform(multi, &running) != CURLM_OK) {
        code = CURLE_FAILED_INIT;
        return std::nullopt;
      }
      if (running == 0) break;
      if (request.should_abort) {
        bool abort = false;
        try {
          abort = request.should_abort();
        } catch (...) {
          // O chamador decide o que fazer com a exceção; o pedido para aqui.
          transfer.failure = std::current_exception();
          return HttpError::Kind::aborted;
        }
        if (abort) return HttpError::Kind::aborted;
      }
      auto wait = kPollInterval;
      if (transfer.started && options.idle_timeout.count() > 0) {
        const auto silent = std::chrono::duration_cast<std::chrono::milliseconds>(
            Clock::now() - transfer.last_byte);
        if (silent >= options.idle_timeout) return HttpError::Kind::idle;
        wait = std::min(wait, options.idle_timeout - silent);
      }
      curl_multi_poll(multi, nullptr, 0, static_cast<int>(std::max<long long>(1, wait.count())),
                      nullptr);
    }
    int pending = 0;
    while (CURLMsg* message = curl_multi_info_read(multi, &pending)) {
      if (message->msg == CURLMSG_DONE) code = message->data.result;
    }
    return std::nullopt;
  }

  HttpError stop_error(HttpError::Kind kind, const std::string& url) const {
    if (kind == HttpError::Kind::idle) {
      return {kind, "nenhum byte de " + url + " em " +
                        std::to_string(options.idle_timeout.count()) +
                        " ms (idle_timeout): o servidor parou no meio da resposta"};
    }
    if (kind == HttpError::Kind::too_large) {
      return {kind, "a resposta de " + url + " passou do limite de " +
                        describe_bytes(options.max_response_bytes) +
                        " (max_response_bytes) e foi interrompida"};
    }
    return aborted(url);
  }

  static HttpError aborted(const std::string& url) {
    return {HttpError::Kind::aborted, "pedido a " + url + " cancelado"};
  }

  long os_errno() const {
    long value = 0;
    curl_easy_getinfo(curl, CURLINFO_OS_ERRNO, &value);
    return value;
  }

  // Pretransfer só é marcado quando a conexão (nova ou reaproveitada) ficou
  // pronta: zero quer dizer que o tempo esgotou ainda conectando.
  bool was_connected() const {
    curl_off_t connect_time = 0;
    curl_off_t pretransfer_time = 0;
    curl_easy_getinfo(curl, CURLINFO_CONNECT_TIME_T, &connect_time);
    curl_easy_getinfo(curl, CURLINFO_PRETRANSFER_TIME_T, &pretransfer_time);
    return connect_time > 0 || pretransfer_time > 0;
  }
};

HttpClient::HttpClient(HttpOptions options) : impl_(std::make_unique<Impl>(options)) {}
HttpClient::~HttpClient() = default;
HttpClient::HttpClient(HttpClient&&) noexcept = default;
HttpClient& HttpClient::operator=(HttpClient&&) noexcept = default;

Result<HttpResponse, HttpError> HttpClient::post(const std::string& url, std::string_view body,
                                                 const std::vector<std::string>& headers) {
  return post(url, body, headers, HttpRequestOptions{});
}

Result<HttpResponse, HttpError> HttpClient::post(const std::string& url, std::string_view body,
                                                 const std::vector<std::string>& headers,
                                                 const HttpRequestOptions& options) {
  if (!impl_) impl_ = std::make_unique<Impl>(HttpOptions{});
  return impl_->perform(url, &body, headers, options);
}

Result<HttpResponse, HttpError> HttpClient::get(const std::string& url,
                                                const std::vector<std::string>& headers) {
  if (!impl_) impl_ = std::make_unique<Impl>(HttpOptions{});
  return impl_->perform(url, nullptr, headers, HttpRequestOptions{});
}

namespace {

// Um número decimal e nada mais: "7", "1.5". Nada de "7s", "inf" ou negativos.
std::optional<double> non_negative_number(const std::string& text) {
  double value = 0;
  const char* first = text.data();
  const char* last = first + text.size();
  const auto [end, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || end != last || !std::isfinite(value) || value < 0) return std::nullopt;
  return value;
}

// Data HTTP ("Wed, 21 Oct 2015 07:28:00 GMT" e as formas antigas). O
// curl_getdate aceita quase tudo, até números soltos; uma data de verdade
// sempre traz o nome do mês, então sem letras não é data.
std::optional<double> seconds_until_date(const std::string& text,
                                         std::chrono::system_clock::time_point now) {
  const bool has_letter =
      std::any_of(text.begin(), text.end(), [](unsigned char c) { return std::isalpha(c) != 0; });
  if (!has_letter) return std::nullopt;
  const std::time_t when = curl_getdate(text.c_str(), nullptr);
  if (when == -1) return std::nullopt;
  // A conta em double, sem from_time_t: os nanossegundos do system_clock
  // estouram depois do ano 2262, e o servidor escolhe o ano que quiser.
  const double seconds =
      static_cast<double>(when) - std::chrono::duration<double>(now.time_since_epoch()).count();
  if (seconds < 0) return std::nullopt;
  return seconds;
}

}  // namespace

std::optional<double> retry_after_seconds(const HttpResponse& response,
                                          std::chrono::system_clock::time_point now) {
  // retry-after-ms é o que a OpenAI e a Azure mandam quando querem precisão.
  if (const auto millis = response.header("retry-after-ms")) {
    if (const auto value = non_negative_number(*millis)) return *value / 1000.0;
  }
  const auto header = response.header("retry-after");
  if (!header || header->empty()) return std::nullopt;
  if (const auto seconds = non_negative_number(*header)) return seconds;
  return seconds_until_date(*header, now);
}

}  // namespace hz
