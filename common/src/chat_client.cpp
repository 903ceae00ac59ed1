#include "hz/chat_client.hpp"

#include <charconv>
#include <cmath>
#include <utility>

#include "hz/text.hpp"

namespace hz {

using nlohmann::json;

namespace {

std::string join_url(std::string base, std::string_view path) {
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + std::string(path);
}

std::vector<std::string> request_headers(const EndpointConfig& config, bool has_body) {
  std::vector<std::string> headers;
  if (has_body) headers.emplace_back("Content-Type: application/json");
  headers.emplace_back("Accept: application/json");
  if (!config.api_key.empty()) headers.push_back("Authorization: Bearer " + config.api_key);
  return headers;
}

ModelError transport_error(const HttpError& error) {
  ModelError out;
  out.kind = error.kind == HttpError::Kind::timeout ? ModelError::Kind::timeout
                                                    : ModelError::Kind::connection;
  out.message = error.message;
  return out;
}

// Retry-After em segundos ("7", "1.5"). A forma com data HTTP é rara nas
// APIs de modelos e fica de fora: sem número, sem dica.
std::optional<double> parse_retry_after(const HttpResponse& response) {
  const auto header = response.header("retry-after");
  if (!header || header->empty()) return std::nullopt;
  double seconds = 0;
  const char* first = header->data();
  const char* last = first + header->size();
  const auto [end, ec] = std::from_chars(first, last, seconds);
  if (ec != std::errc() || end != last || !std::isfinite(seconds) || seconds < 0) {
    return std::nullopt;
  }
  return seconds;
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
  out.retry_after_seconds = parse_retry_after(response);
  out.message = "o provedor respondeu HTTP " + std::to_string(response.status);
  if (const std::string detail = provider_message(response.body); !detail.empty()) {
    out.message += ": " + detail;
  }
  return out;
}

bool is_success(long status) { return status >= 200 && status < 300; }

}  // namespace

OpenAiClient::OpenAiClient(EndpointConfig config)
    : config_(std::move(config)), http_(config_.http) {}

Result<ChatReply, ModelError> OpenAiClient::complete(const ChatRequest& request) {
  const std::string body = encode_request(request);
  auto response = http_.post(join_url(config_.base_url, "/chat/completions"), body,
                             request_headers(config_, true));
  if (!response) return transport_error(response.error());
  if (!is_success(response->status)) return status_error(*response);
  auto reply = decode_reply(response->body);
  if (!reply) {
    ModelError error;
    error.kind = ModelError::Kind::malformed;
    error.http_status = static_cast<int>(response->status);
    error.message = reply.error().message;
    return error;
  }
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
