#include "hz/chat_client.hpp"

#include <utility>

#include "hz/text.hpp"

namespace hz {

using nlohmann::json;

namespace {

std::string join_url(std::string base, std::string_view path) {
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + std::string(path);
}

constexpr const char* kFallbackRejected =
    "o servidor recusou o pedido com streaming (HTTP 400); a chamada foi refeita sem streaming, e "
    "a sessão segue sem streaming";
constexpr const char* kFallbackNoUsage =
    "o servidor não mandou o uso de tokens no streaming; a sessão segue sem streaming para que o "
    "uso seja o de verdade";
constexpr const char* kFallbackLostToolCalls =
    "o streaming terminou com finish_reason \"tool_calls\" sem nenhuma tool call; a chamada foi "
    "refeita sem streaming, e a sessão segue sem streaming";

std::vector<std::string> request_headers(const EndpointConfig& config, bool has_body,
                                         bool stream = false) {
  std::vector<std::string> headers;
  if (has_body) headers.emplace_back("Content-Type: application/json");
  headers.emplace_back(stream ? "Accept: text/event-stream" : "Accept: application/json");
  if (!config.api_key.empty()) headers.push_back("Authorization: Bearer " + config.api_key);
  return headers;
}

ModelError transport_error(const HttpError& error) {
  ModelError out;
  switch (error.kind) {
    case HttpError::Kind::timeout:
      out.kind = ModelError::Kind::timeout;
      break;
    case HttpError::Kind::idle:
      out.kind = ModelError::Kind::idle;
      break;
    case HttpError::Kind::too_large:
      out.kind = ModelError::Kind::too_large;
      break;
    case HttpError::Kind::aborted:
      out.kind = ModelError::Kind::aborted;
      break;
    case HttpError::Kind::connect:
    case HttpError::Kind::other:
      out.kind = ModelError::Kind::connection;
      break;
  }
  out.message = error.message;
  return out;
}

// A mensagem do provedor, se o corpo tem o formato de erro da OpenAI
// ({"error":{"message":...}}); senão, a primeira linha do corpo.
std::string provider_message(const std::string& body) {
  const json root = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (root.is_object()) {
    if (auto error = root.find("error"); error != root.end()) {
      if (error->is_string()) return printable(error->get<std::string>());
      if (error->is_object()) {
        if (auto message = error->find("message");
            message != error->end() && message->is_string()) {
          return printable(message->get<std::string>());
        }
      }
    }
  }
  return brief(printable(body), 1, 200);
}

ModelError status_error(const HttpResponse& response) {
  ModelError out;
  out.kind = ModelError::Kind::http;
  out.http_status = static_cast<int>(response.status);
  out.retry_after_seconds = retry_after_seconds(response, std::chrono::system_clock::now());
  out.message = "o provedor respondeu HTTP " + std::to_string(response.status);
  if (const std::string detail = provider_message(response.body); !detail.empty()) {
    out.message += ": " + detail;
  }
  return out;
}

bool is_success(long status) { return status >= 200 && status < 300; }

}  // namespace

// O que uma chamada acumula entre as tentativas: o prazo e os fatos da conta.
struct OpenAiClient::Attempt {
  using Clock = std::chrono::steady_clock;

  Attempt(const CallOptions& call_options, std::chrono::milliseconds budget)
      : options(call_options), deadline(Clock::now() + budget), first_timeout(budget) {}

  // A primeira tentativa leva o prazo inteiro (e a mensagem de tempo
  // esgotado mostra o número que quem chamou passou); um reenvio, o que sobrou.
  HttpRequestOptions http() {
    HttpRequestOptions out;
    out.should_abort = options.should_abort;
    if (!started) {
      out.timeout = first_timeout;
      started = true;
    } else {
      out.timeout = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    }
    return out;
  }

  void count(const HttpResponse& response) { response_bytes += response.received_bytes; }
  void count(const HttpError& error) {
    response_bytes += error.received_bytes;
    if (is_success(error.status)) billed = true;
  }

  template <class T>
  Result<T, ModelError> stamp(Result<T, ModelError> result) const {
    if (result) {
      result->request_bytes = request_bytes;
      result->response_bytes = response_bytes;
      return result;
    }
    ModelError error = result.error();
    error.request_bytes = request_bytes;
    error.response_bytes = response_bytes;
    error.billed = billed;
    return error;
  }

  const CallOptions& options;
  Clock::time_point deadline;
  std::chrono::milliseconds first_timeout;
  bool started = false;
  std::size_t request_bytes = 0;
  std::size_t response_bytes = 0;
  bool billed = false;
};

OpenAiClient::OpenAiClient(EndpointConfig config)
    : config_(std::move(config)), http_(config_.http) {}

Result<ChatReply, ModelError> OpenAiClient::complete(const ChatRequest& request) {
  return call(request, CallOptions{});
}

Result<ChatReply, ModelError> OpenAiClient::call(const ChatRequest& request,
                                                 const CallOptions& options) {
  Attempt attempt(options, options.timeout.value_or(config_.http.timeout));
  if (options.stream && streaming_enabled()) {
    return attempt.stamp(call_streaming(request, attempt));
  }
  return attempt.stamp(send_plain(request, attempt));
}

Result<ChatReply, ModelError> OpenAiClient::call_streaming(const ChatRequest& request,
                                                           Attempt& attempt) {
  auto streamed = send_streaming(request, attempt);
  if (!streamed) {
    const ModelError& error = streamed.error();
    if (error.kind != ModelError::Kind::http || error.http_status != 400) return streamed;
    auto plain = send_plain(request, attempt);
    // O pedido simples também falhou: o 400 não era por causa do streaming.
    if (!plain) return plain;
    streaming_fallback_ = kFallbackRejected;
    plain->fallback = streaming_fallback_;
    return plain;
  }
  ChatReply reply = std::move(streamed).value();
  if (!reply.streamed) return reply;  // o servidor ignorou "stream" e mandou JSON comum

  if (reply.finish_reason == "tool_calls" && reply.message.tool_calls.empty()) {
    streaming_fallback_ = kFallbackLostToolCalls;
    attempt.billed = true;  // a resposta descartada já foi cobrada
    auto plain = send_plain(request, attempt);
    if (!plain) return plain;
    // As duas tentativas foram cobradas; somar só quando ambas informaram,
    // para reported continuar querendo dizer "números do servidor".
    if (plain->usage.reported && reply.usage.reported) plain->usage += reply.usage;
    plain->fallback = streaming_fallback_;
    return plain;
  }
  if (!reply.usage.reported) {
    streaming_fallback_ = kFallbackNoUsage;
    reply.fallback = streaming_fallback_;
  }
  return reply;
}

Result<ChatReply, ModelError> OpenAiClient::send_plain(const ChatRequest& request,
                                                       Attempt& attempt) {
  const std::string body = encode_request(request);
  attempt.request_bytes += body.size();
  auto response = http_.post(join_url(config_.base_url, "/chat/completions"), body,
                             request_headers(config_, true), attempt.http());
  if (!response) {
    attempt.count(response.error());
    return transport_error(response.error());
  }
  attempt.count(*response);
  if (!is_success(response->status)) return status_error(*response);
  auto reply = decode_reply(response->body);
  if (!reply) {
    attempt.billed = true;
    ModelError error;
    error.kind = ModelError::Kind::malformed;
    error.http_status = static_cast<int>(response->status);
    error.message = reply.error().message;
    return error;
  }
  return std::move(reply).value();
}

Result<ChatReply, ModelError> OpenAiClient::send_streaming(const ChatRequest& request,
                                                           Attempt& attempt) {
  const std::string body = encode_stream_request(request);
  attempt.request_bytes += body.size();
  StreamDecoder decoder(attempt.options.on_text);
  HttpRequestOptions http = attempt.http();
  http.on_body = [&decoder](std::string_view bytes) { decoder.feed(bytes); };
  auto response = http_.post(join_url(config_.base_url, "/chat/completions"), body,
                             request_headers(config_, true, true), http);
  if (!response) {
    const HttpError& failure = response.error();
    attempt.count(failure);
    ModelError error = transport_error(failure);
    if (error.kind == ModelError::Kind::connection && is_success(failure.status)) {
      error.message = "o streaming foi cortado: " + error.message;
    }
    return error;
  }
  attempt.count(*response);
  if (!is_success(response->status)) return status_error(*response);
  auto reply = decoder.finish();
  if (!reply) {
    attempt.billed = true;
    ModelError error;
    error.kind = reply.error().kind == StreamError::Kind::cut ? ModelError::Kind::connection
                                                              : ModelError::Kind::malformed;
    error.http_status = static_cast<int>(response->status);
    error.message = reply.error().message;
    return error;
  }
  reply->streamed = !decoder.plain_json();
  return std::move(reply).value();
}

Result<std::vector<std::string>, ModelError> OpenAiClient::list_models() {
  auto response = http_.get(join_url(config_.base_url, "/models"), request_headers(config_, false));
  if (!response) return transport_error(response.error());
  if (!is_success(response->status)) return status_error(*response);

  ModelError malformed;
  malformed.kind = ModelError::Kind::malformed;
  malformed.http_status = static_cast<int>(response->status);
  malformed.message = "lista de modelos ilegível (esperava {\"data\":[{\"id\":...}]})";
  const json root = json::parse(response->body, nullptr, /*allow_exceptions=*/false);
  if (!root.is_object()) return malformed;
  auto data = root.find("data");
  if (data == root.end() || !data->is_array()) return malformed;
  std::vector<std::string> ids;
  for (const json& entry : *data) {
    if (!entry.is_object()) continue;
    if (auto id = entry.find("id"); id != entry.end() && id->is_string()) {
      ids.push_back(id->get<std::string>());
    }
  }
  return ids;
}

}  // namespace hz
