#include "hz/stage/context_window.hpp"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

namespace hz::stage {
namespace {

using nlohmann::json;

// Contagens plausíveis: um número inteiro positivo até 10^9 (nada de 1e300
// nem de "32k" vindo de um servidor estranho).
long plausible(const json& value) {
  if (!value.is_number_integer() && !value.is_number_unsigned()) return 0;
  const long long n = value.get<long long>();
  return n > 0 && n <= 1000000000LL ? static_cast<long>(n) : 0;
}

bool same_model(std::string_view listed, std::string_view wanted) {
  if (listed == wanted) return true;
  // O Ollama completa um nome sem etiqueta com ":latest".
  return wanted.find(':') == std::string_view::npos && listed.size() == wanted.size() + 7 &&
         listed.substr(0, wanted.size()) == wanted && listed.substr(wanted.size()) == ":latest";
}

json parse(std::string_view body) { return json::parse(body, nullptr, false); }

// A linha "num_ctx N" dos parâmetros do Modelfile (1 a 9 dígitos, espaços e
// tabs em volta, \r\n ou \n); 0 se não houver. Um <regex> aqui custava mais
// compilação que todo o resto deste arquivo.
long num_ctx_line(std::string_view parameters) {
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  while (!parameters.empty()) {
    const std::size_t end = parameters.find('\n');
    std::string_view line = parameters.substr(0, end);
    parameters = end == std::string_view::npos ? std::string_view{} : parameters.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    while (!line.empty() && blank(line.front())) line.remove_prefix(1);
    while (!line.empty() && blank(line.back())) line.remove_suffix(1);
    constexpr std::string_view key = "num_ctx";
    if (line.substr(0, key.size()) != key) continue;
    line.remove_prefix(key.size());
    if (line.empty() || !blank(line.front())) continue;
    while (!line.empty() && blank(line.front())) line.remove_prefix(1);
    if (line.empty() || line.size() > 9) continue;
    long value = 0;
    bool digits = true;
    for (const char c : line) {
      if (c < '0' || c > '9') {
        digits = false;
        break;
      }
      value = value * 10 + (c - '0');
    }
    if (digits) return value;
  }
  return 0;
}

}  // namespace

std::string server_root(std::string_view base_url) {
  std::string root(base_url);
  while (!root.empty() && root.back() == '/') root.pop_back();
  if (root.size() >= 3 && root.compare(root.size() - 3, 3, "/v1") == 0)
    root.resize(root.size() - 3);
  return root;
}

long context_from_ollama_ps(std::string_view body, std::string_view model) {
  const json doc = parse(body);
  if (!doc.is_object() || !doc.contains("models") || !doc.at("models").is_array()) return 0;
  for (const json& entry : doc.at("models")) {
    if (!entry.is_object()) continue;
    for (const char* key : {"name", "model"}) {
      if (entry.contains(key) && entry.at(key).is_string() &&
          same_model(entry.at(key).get<std::string>(), model)) {
        return entry.contains("context_length") ? plausible(entry.at("context_length")) : 0;
      }
    }
  }
  return 0;
}

ContextWindow context_from_ollama_show(std::string_view body) {
  ContextWindow window;
  const json doc = parse(body);
  if (!doc.is_object()) return window;
  if (doc.contains("parameters") && doc.at("parameters").is_string()) {
    window.tokens = num_ctx_line(doc.at("parameters").get<std::string>());
  }
  if (doc.contains("model_info") && doc.at("model_info").is_object()) {
    for (const auto& item : doc.at("model_info").items()) {
      const std::string& key = item.key();
      const std::string suffix = ".context_length";
      if (key.size() > suffix.size() &&
          key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0) {
        window.model_max = plausible(item.value());
        break;
      }
    }
  }
  return window;
}

long context_from_models(std::string_view body, std::string_view model) {
  const json doc = parse(body);
  if (!doc.is_object() || !doc.contains("data") || !doc.at("data").is_array()) return 0;
  for (const json& entry : doc.at("data")) {
    if (!entry.is_object() || !entry.contains("id") || !entry.at("id").is_string() ||
        !same_model(entry.at("id").get<std::string>(), model)) {
      continue;
    }
    // Na ordem do mais ao menos confiável: o que está carregado vale mais que o máximo.
    for (const char* key :
         {"max_model_len", "loaded_context_length", "context_length", "context_window"}) {
      if (entry.contains(key)) {
        if (long n = plausible(entry.at(key))) return n;
      }
    }
  }
  return 0;
}

bool answers_as_ollama(HttpClient& http, std::string_view base_url) {
  const auto version = http.get(server_root(base_url) + "/api/version");
  if (!version || version->status != 200) return false;
  const json doc = parse(version->body);
  return doc.is_object() && doc.contains("version") && doc.at("version").is_string();
}

ContextWindow ask_ollama(HttpClient& http, std::string_view base_url, std::string_view model) {
  const std::string root = server_root(base_url);
  ContextWindow window;
  if (auto ps = http.get(root + "/api/ps"); ps && ps->status == 200) {
    window.tokens = context_from_ollama_ps(ps->body, model);
    if (window.tokens > 0) window.source = "Ollama, /api/ps";
  }
  const json ask = {{"model", std::string(model)}};
  if (auto show = http.post(root + "/api/show", ask.dump(), {"Content-Type: application/json"});
      show && show->status == 200) {
    const ContextWindow shown = context_from_ollama_show(show->body);
    window.model_max = shown.model_max;
    if (window.tokens == 0 && shown.tokens > 0) {
      window.tokens = shown.tokens;
      window.source = "Ollama, num_ctx em /api/show";
    }
  }
  return window;
}

long server_window(HttpClient& http, std::string_view base_url, std::string_view model) {
  if (!answers_as_ollama(http, base_url)) return 0;
  return ask_ollama(http, base_url, model).tokens;
}

}  // namespace hz::stage
