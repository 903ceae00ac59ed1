#include "expectation.hpp"

#include <algorithm>
#include <vector>

namespace hz::mock::detail {
namespace {

using nlohmann::json;

std::string in_quotes(const std::string& text) { return "\"" + text + "\""; }

// Trechos longos (saídas de ferramentas) viram uma linha curta na mensagem de falha.
std::string excerpt(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  constexpr std::size_t kMax = 160;
  if (text.size() > kMax) {
    std::size_t cut = kMax;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0U) == 0x80U) --cut;
    text = text.substr(0, cut) + "...";
  }
  return in_quotes(text);
}

std::string joined(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += in_quotes(items[i]);
  }
  return out + "]";
}

const json* find_field(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string text_field(const json& object, const char* key) {
  const json* value = find_field(object, key);
  return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
}

std::vector<std::string> offered_tools(const json& request) {
  std::vector<std::string> names;
  const json* tools = find_field(request, "tools");
  if (tools == nullptr || !tools->is_array()) return names;
  for (const auto& tool : *tools) {
    const json* function = find_field(tool, "function");
    if (function != nullptr) names.push_back(text_field(*function, "name"));
  }
  return names;
}

}  // namespace

std::string message_text(const json& message) {
  const json* content = find_field(message, "content");
  if (content == nullptr) return "";
  if (content->is_string()) return content->get<std::string>();
  std::string text;
  if (content->is_array()) {
    for (const auto& part : *content) text += text_field(part, "text");
  }
  return text;
}

std::optional<std::string> check_expectation(const Expectation& expect, const json& request) {
  static const json kEmpty = json::array();
  const json* found = find_field(request, "messages");
  const json& messages = found != nullptr && found->is_array() ? *found : kEmpty;
  const json last = messages.empty() ? json::object() : messages.back();

  if (expect.message_count && messages.size() != *expect.message_count) {
    return "esperava " + std::to_string(*expect.message_count) + " mensagens, vieram " +
           std::to_string(messages.size());
  }
  if (expect.last_role) {
    const std::string role = messages.empty() ? "(nenhuma mensagem)" : text_field(last, "role");
    if (role != *expect.last_role) {
      return "esperava a última mensagem com papel " + in_quotes(*expect.last_role) + ", veio " +
             in_quotes(role);
    }
  }
  const std::string last_text = message_text(last);
  for (const auto& piece : expect.last_contains) {
    if (last_text.find(piece) == std::string::npos) {
      return "esperava que a última mensagem contivesse " + in_quotes(piece) + ", veio " +
             excerpt(last_text);
    }
  }
  for (const auto& piece : expect.contains) {
    bool seen = std::any_of(messages.begin(), messages.end(), [&](const json& message) {
      return message_text(message).find(piece) != std::string::npos;
    });
    if (!seen) return "esperava " + in_quotes(piece) + " em alguma mensagem, não veio em nenhuma";
  }
  if (expect.tool_call_id) {
    std::vector<std::string> ids;
    for (const auto& message : messages) {
      if (text_field(message, "role") == "tool") ids.push_back(text_field(message, "tool_call_id"));
    }
    if (std::find(ids.begin(), ids.end(), *expect.tool_call_id) == ids.end()) {
      return "esperava uma mensagem tool com tool_call_id " + in_quotes(*expect.tool_call_id) +
             ", vieram " + joined(ids);
    }
  }
  const auto tools = offered_tools(request);
  for (const auto& name : expect.tools_include) {
    if (std::find(tools.begin(), tools.end(), name) == tools.end()) {
      return "esperava a ferramenta " + in_quotes(name) + " entre as oferecidas, vieram " +
             joined(tools);
    }
  }
  if (expect.model) {
    const std::string model = text_field(request, "model");
    if (model != *expect.model) {
      return "esperava model " + in_quotes(*expect.model) + ", veio " + in_quotes(model);
    }
  }
  if (expect.stream) {
    const json* stream = find_field(request, "stream");
    const bool streaming = stream != nullptr && stream->is_boolean() && stream->get<bool>();
    if (streaming != *expect.stream) {
      return std::string("esperava stream ") + (*expect.stream ? "true" : "false") + ", veio " +
             (streaming ? "true" : "false");
    }
  }
  return std::nullopt;
}

}  // namespace hz::mock::detail
