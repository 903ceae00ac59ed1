#include "hz/wire.hpp"

#include <set>
#include <utility>

namespace hz {

using nlohmann::json;

std::string_view to_string(Role role) {
  switch (role) {
    case Role::system:
      return "system";
    case Role::user:
      return "user";
    case Role::assistant:
      return "assistant";
    case Role::tool:
      return "tool";
  }
  return "user";
}

Message Message::system(std::string text) { return {Role::system, std::move(text), {}, {}}; }

Message Message::user(std::string text) { return {Role::user, std::move(text), {}, {}}; }

Message Message::assistant(std::string text, std::vector<ToolCall> calls) {
  return {Role::assistant, std::move(text), std::move(calls), {}};
}

Message Message::tool(std::string call_id, std::string text) {
  return {Role::tool, std::move(text), {}, std::move(call_id)};
}

Usage& Usage::operator+=(const Usage& other) {
  prompt_tokens += other.prompt_tokens;
  completion_tokens += other.completion_tokens;
  reported = reported || other.reported;
  return *this;
}

json to_json(const Message& message) {
  json out = json::object();
  out["role"] = to_string(message.role);
  switch (message.role) {
    case Role::assistant: {
      // A OpenAI pede content null (e não "") quando o assistente só pediu ferramentas.
      if (message.content.empty() && !message.tool_calls.empty()) {
        out["content"] = nullptr;
      } else {
        out["content"] = message.content;
      }
      if (!message.tool_calls.empty()) {
        json calls = json::array();
        for (const ToolCall& call : message.tool_calls) {
          calls.push_back({{"id", call.id},
                           {"type", "function"},
                           {"function", {{"name", call.name}, {"arguments", call.arguments}}}});
        }
        out["tool_calls"] = std::move(calls);
      }
      break;
    }
    case Role::tool:
      out["tool_call_id"] = message.tool_call_id;
      out["content"] = message.content;
      break;
    case Role::system:
    case Role::user:
      out["content"] = message.content;
      break;
  }
  return out;
}

json to_json(const ToolSchema& tool) {
  return {{"type", "function"},
          {"function",
           {{"name", tool.name},
            {"description", tool.description},
            {"parameters", tool.parameters.is_null() ? json::object() : tool.parameters}}}};
}

json to_json(const ChatRequest& request) {
  json out = json::object();
  out["model"] = request.model;
  json messages = json::array();
  for (const Message& message : request.messages) messages.push_back(to_json(message));
  out["messages"] = std::move(messages);
  // Alguns servidores recusam "tools": [] — sem ferramentas, o campo some.
  if (!request.tools.empty()) {
    json tools = json::array();
    for (const ToolSchema& tool : request.tools) tools.push_back(to_json(tool));
    out["tools"] = std::move(tools);
  }
  return out;
}

std::string encode_request(const ChatRequest& request) {
  // Saída de ferramenta pode trazer bytes que não são UTF-8 (um arquivo
  // binário, um programa qualquer): trocar por U+FFFD em vez de lançar.
  return to_json(request).dump(-1, ' ', false, json::error_handler_t::replace);
}

namespace {

std::string text_of(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  // Alguns provedores mandam content como lista de partes {"type":"text","text":...}.
  if (value.is_array()) {
    std::string text;
    for (const json& part : value) {
      if (part.is_string()) {
        text += part.get<std::string>();
      } else if (part.is_object() && part.contains("text") && part["text"].is_string()) {
        text += part["text"].get<std::string>();
      }
    }
    return text;
  }
  return {};
}

std::string string_field(const json& object, const char* key) {
  if (!object.is_object()) return {};
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return {};
  return it->get<std::string>();
}

long integer_field(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end()) return 0;
  if (it->is_number_integer()) return it->get<long>();
  if (it->is_number_float()) return static_cast<long>(it->get<double>());
  return 0;
}

// Argumentos: o texto exatamente como veio; se veio objeto (alguns
// provedores), vira o texto JSON dele. Ausente: "{}", o que a OpenAI manda
// para uma ferramenta sem argumentos.
std::string arguments_of(const json& function) {
  auto it = function.find("arguments");
  if (it == function.end() || it->is_null()) return "{}";
  if (it->is_string()) return it->get<std::string>();
  return it->dump(-1, ' ', false, json::error_handler_t::replace);
}

std::vector<ToolCall> tool_calls_of(const json& message) {
  std::vector<ToolCall> calls;
  auto it = message.find("tool_calls");
  if (it == message.end() || !it->is_array()) return calls;
  for (const json& entry : *it) {
    if (!entry.is_object()) continue;
    ToolCall call;
    call.id = string_field(entry, "id");
    const json* function = &entry;  // alguns mandam name/arguments sem o envelope "function"
    if (auto f = entry.find("function"); f != entry.end() && f->is_object()) function = &*f;
    call.name = string_field(*function, "name");
    call.arguments = arguments_of(*function);
    calls.push_back(std::move(call));
  }
  // Ids ausentes ganham "call_<índice>", determinísticos e únicos dentro da resposta,
  // para que a mensagem tool de volta case com o pedido.
  std::set<std::string> used;
  for (const ToolCall& call : calls) {
    if (!call.id.empty()) used.insert(call.id);
  }
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (!calls[i].id.empty()) continue;
    std::string id = "call_" + std::to_string(i);
    for (int suffix = 1; used.count(id) != 0; ++suffix) {
      id = "call_" + std::to_string(i) + "_" + std::to_string(suffix);
    }
    used.insert(id);
    calls[i].id = std::move(id);
  }
  return calls;
}

Result<ChatReply> decode_object(const json& root) {
  if (!root.is_object()) return Error{"resposta do modelo não é um objeto JSON"};
  auto choices = root.find("choices");
  if (choices == root.end() || !choices->is_array()) {
    // Um 200 com corpo de erro no formato OpenAI: melhor mostrar a mensagem do provedor.
    if (auto error = root.find("error"); error != root.end()) {
      std::string detail = error->is_object() ? string_field(*error, "message") : text_of(*error);
      if (!detail.empty()) return Error{"resposta do modelo traz um erro: " + detail};
    }
    return Error{"resposta do modelo sem \"choices\""};
  }
  if (choices->empty()) return Error{"resposta do modelo com \"choices\" vazio"};
  const json& choice = choices->front();
  if (!choice.is_object()) return Error{"resposta do modelo com choices[0] que não é objeto"};
  auto message = choice.find("message");
  if (message == choice.end() || !message->is_object()) {
    return Error{"resposta do modelo sem \"message\" em choices[0]"};
  }

  ChatReply reply;
  reply.message.role = Role::assistant;
  if (auto content = message->find("content"); content != message->end()) {
    reply.message.content = text_of(*content);
  }
  reply.message.tool_calls = tool_calls_of(*message);
  reply.reasoning = string_field(*message, "reasoning_content");
  if (reply.reasoning.empty()) reply.reasoning = string_field(*message, "reasoning");
  reply.finish_reason = string_field(choice, "finish_reason");
  if (auto usage = root.find("usage"); usage != root.end() && usage->is_object()) {
    reply.usage.prompt_tokens = integer_field(*usage, "prompt_tokens");
    reply.usage.completion_tokens = integer_field(*usage, "completion_tokens");
    reply.usage.reported = true;
  }
  return reply;
}

}  // namespace

Result<Message> message_from_json(const json& value) {
  try {
    if (!value.is_object()) return Error{"mensagem não é um objeto JSON"};
    const std::string role = string_field(value, "role");
    Message message;
    if (role == "system") {
      message.role = Role::system;
    } else if (role == "user") {
      message.role = Role::user;
    } else if (role == "assistant") {
      message.role = Role::assistant;
    } else if (role == "tool") {
      message.role = Role::tool;
    } else if (role.empty()) {
      return Error{"mensagem sem \"role\""};
    } else {
      return Error{"mensagem com \"role\" desconhecido: " + role};
    }
    if (auto content = value.find("content"); content != value.end()) {
      message.content = text_of(*content);
    }
    if (message.role == Role::assistant) message.tool_calls = tool_calls_of(value);
    if (message.role == Role::tool) message.tool_call_id = string_field(value, "tool_call_id");
    return message;
  } catch (const json::exception& e) {
    return Error{std::string("mensagem com JSON inesperado: ") + e.what()};
  }
}

Result<ChatReply> decode_reply(std::string_view body) {
  // Corpo vindo da rede: nada aqui pode lançar para fora.
  try {
    if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) {
      return Error{"resposta do modelo veio vazia"};
    }
    json root = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (root.is_discarded()) return Error{"resposta do modelo não é JSON válido"};
    return decode_object(root);
  } catch (const std::exception& e) {
    return Error{std::string("resposta do modelo com JSON inesperado: ") + e.what()};
  }
}

}  // namespace hz
