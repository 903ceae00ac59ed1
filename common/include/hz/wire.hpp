// O formato de fio do OpenAI Chat Completions: mensagens, tool calls e uso
// de tokens, e a conversão de/para JSON.
//
// A decodificação é tolerante às variações dos provedores (o mock imita cada
// uma; veja mock-server/README.md): argumentos como objeto em vez de string,
// tool calls sem id, content nulo, campos de raciocínio
// (reasoning_content/reasoning), ausência de usage.
// Nenhuma função daqui lança exceção por causa de JSON vindo da rede.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "hz/result.hpp"

namespace hz {

enum class Role { system, user, assistant, tool };

// "system", "user", "assistant", "tool".
std::string_view to_string(Role role);

// Um pedido estruturado de ação feito pelo modelo.
struct ToolCall {
  std::string id;         // casa a resposta (mensagem tool) com o pedido
  std::string name;       // nome da ferramenta
  std::string arguments;  // texto JSON exatamente como o modelo enviou (pode ser inválido)

  bool operator==(const ToolCall&) const = default;
};

struct Message {
  Role role = Role::user;
  std::string content;               // pode ser vazio (assistente só com tool calls)
  std::vector<ToolCall> tool_calls;  // só no papel assistant
  std::string tool_call_id;          // só no papel tool

  static Message system(std::string text);
  static Message user(std::string text);
  static Message assistant(std::string text, std::vector<ToolCall> calls = {});
  static Message tool(std::string call_id, std::string text);

  bool operator==(const Message&) const = default;
};

// Tokens de uma chamada (ou a soma de várias).
struct Usage {
  long prompt_tokens = 0;
  long completion_tokens = 0;
  bool reported = false;  // o provedor mandou "usage"? (alguns não mandam)

  long total() const { return prompt_tokens + completion_tokens; }
  Usage& operator+=(const Usage& other);
  bool operator==(const Usage&) const = default;
};

// O que o modelo sabe sobre uma ferramenta: nome, descrição e o JSON Schema
// dos argumentos (um objeto com "properties" e "required").
struct ToolSchema {
  std::string name;
  std::string description;
  nlohmann::json parameters;
};

struct ChatRequest {
  std::string model;
  std::vector<Message> messages;
  std::vector<ToolSchema> tools;
};

struct ChatReply {
  Message message;            // sempre com role assistant
  std::string finish_reason;  // como veio; o loop não decide por ele
  Usage usage;
  std::string reasoning;  // reasoning_content/reasoning, se o provedor mandou; nunca volta no histórico
};

// Mensagens e pedidos em JSON, exatamente como vão no corpo do POST.
nlohmann::json to_json(const Message& message);
nlohmann::json to_json(const ToolSchema& tool);
nlohmann::json to_json(const ChatRequest& request);
std::string encode_request(const ChatRequest& request);

// Lê uma mensagem do JSON (usado pelo mock para gravar pedidos e pelo journal).
Result<Message> message_from_json(const nlohmann::json& json);

// Lê o corpo de uma resposta não-streaming de /chat/completions.
// Tolerante às variações listadas no topo; erro só quando não há como
// extrair uma mensagem (corpo que não é JSON, sem "choices", etc.).
Result<ChatReply> decode_reply(std::string_view body);

}  // namespace hz
