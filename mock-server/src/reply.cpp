#include "reply.hpp"

#include <algorithm>

namespace hz::mock::detail {
namespace {

using nlohmann::json;

long tokens_for_bytes(std::size_t bytes) { return static_cast<long>((bytes + 3) / 4); }

// "arguments_as_object": alguns provedores mandam o objeto em vez do texto.
// Só dá para fazer isso com argumentos que são JSON; os inválidos seguem como texto.
json arguments_on_wire(const ScriptedToolCall& call, const Quirks& quirks) {
  if (quirks.arguments_as_object) {
    json parsed = json::parse(call.arguments, nullptr, false);
    if (!parsed.is_discarded()) return parsed;
  }
  return call.arguments;
}

json chunk(const ReplyContext& context, json delta, const json& finish_reason, bool include_usage) {
  json choice = {{"index", 0},
                 {"delta", std::move(delta)},
                 {"logprobs", nullptr},
                 {"finish_reason", finish_reason}};
  json body = {{"id", "chatcmpl-hz-" + std::to_string(context.ordinal)},
               {"object", "chat.completion.chunk"},
               {"created", kCreated},
               {"model", context.model},
               {"choices", json::array({std::move(choice)})}};
  // A OpenAI manda "usage": null em todo pedaço quando include_usage está ligado.
  if (include_usage) body["usage"] = nullptr;
  return body;
}

std::string event(const json& body) { return "data: " + dump(body) + "\n\n"; }

json usage_json(const ScriptedUsage& usage) {
  json out = json::object();
  if (usage.prompt_tokens) out["prompt_tokens"] = *usage.prompt_tokens;
  if (usage.completion_tokens) out["completion_tokens"] = *usage.completion_tokens;
  if (usage.total_tokens) {
    out["total_tokens"] = *usage.total_tokens;
  } else if (usage.prompt_tokens && usage.completion_tokens) {
    out["total_tokens"] = *usage.prompt_tokens + *usage.completion_tokens;
  }
  return out;
}

bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0U) == 0x80U; }

}  // namespace

std::string dump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::vector<std::string> split_words(const std::string& text) {
  // Cada pedaço é uma palavra com o espaço que a segue, como os tokens de um
  // modelo de verdade chegam; espaço nunca parte um caractere UTF-8.
  std::vector<std::string> pieces;
  std::string current;
  for (std::size_t i = 0; i < text.size(); ++i) {
    current += text[i];
    bool at_space = text[i] == ' ' || text[i] == '\n';
    bool next_is_word = i + 1 < text.size() && text[i + 1] != ' ' && text[i + 1] != '\n';
    if (at_space && next_is_word) {
      pieces.push_back(std::move(current));
      current.clear();
    }
  }
  if (!current.empty()) pieces.push_back(std::move(current));
  return pieces;
}

std::vector<std::string> split_bytes(const std::string& text, std::size_t piece) {
  std::vector<std::string> pieces;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = std::min(start + piece, text.size());
    while (end < text.size() && is_continuation_byte(text[end])) ++end;
    pieces.push_back(text.substr(start, end - start));
    start = end;
  }
  return pieces;
}

std::vector<ScriptedToolCall> resolve_tool_calls(const Step& step, const ReplyContext& context) {
  std::vector<ScriptedToolCall> calls = step.tool_calls;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (calls[i].id.empty()) {
      calls[i].id = "call_" + std::to_string(context.call_number) + "_" + std::to_string(i + 1);
    }
  }
  return calls;
}

ScriptedUsage usage_for(const Step& step, const ReplyContext& context) {
  if (step.usage) return *step.usage;
  std::size_t reply_bytes =
      step.content.size() + step.reasoning_content.size() + step.reasoning.size();
  for (const auto& call : step.tool_calls) reply_bytes += call.name.size() + call.arguments.size();
  ScriptedUsage usage;
  usage.prompt_tokens = tokens_for_bytes(context.request_bytes);
  usage.completion_tokens = std::max(1L, tokens_for_bytes(reply_bytes));
  return usage;
}

json completion_body(const Step& step, const ReplyContext& context) {
  json message = {{"role", "assistant"}};
  const auto calls = resolve_tool_calls(step, context);
  // Como a OpenAI: content null quando a resposta é só tool calls.
  if (step.content.empty() && !calls.empty()) {
    message["content"] = nullptr;
  } else {
    message["content"] = step.content;
  }
  if (!calls.empty()) {
    json wire_calls = json::array();
    for (const auto& call : calls) {
      json wire = {
          {"type", "function"},
          {"function", {{"name", call.name}, {"arguments", arguments_on_wire(call, step.quirks)}}}};
      if (!step.quirks.missing_ids) wire["id"] = call.id;
      wire_calls.push_back(std::move(wire));
    }
    message["tool_calls"] = std::move(wire_calls);
  }
  if (!step.reasoning_content.empty()) message["reasoning_content"] = step.reasoning_content;
  if (!step.reasoning.empty()) message["reasoning"] = step.reasoning;

  json body = {{"id", "chatcmpl-hz-" + std::to_string(context.ordinal)},
               {"object", "chat.completion"},
               {"created", kCreated},
               {"model", context.model},
               {"choices", json::array({{{"index", 0},
                                         {"message", std::move(message)},
                                         {"logprobs", nullptr},
                                         {"finish_reason", step.finish_reason}}})}};
  if (!step.quirks.no_usage) body["usage"] = usage_json(usage_for(step, context));
  return body;
}

std::vector<std::string> stream_events(const Step& step, const ReplyContext& context,
                                       bool include_usage) {
  std::vector<std::string> events;
  auto push = [&](json delta, const json& finish) {
    events.push_back(event(chunk(context, std::move(delta), finish, include_usage)));
  };

  push({{"role", "assistant"}, {"content", ""}}, nullptr);
  for (const auto& piece : split_words(step.reasoning_content)) {
    push({{"reasoning_content", piece}}, nullptr);
  }
  for (const auto& piece : split_words(step.reasoning)) push({{"reasoning", piece}}, nullptr);
  for (const auto& piece : split_words(step.content)) push({{"content", piece}}, nullptr);

  // Servidores que não sabem fazer streaming de tool calls mandam o texto e
  // o finish_reason, e as chamadas somem.
  const auto calls = step.quirks.stream_drops_tool_calls ? std::vector<ScriptedToolCall>()
                                                         : resolve_tool_calls(step, context);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    // Primeiro o cabeçalho da chamada (índice, id, nome), depois os argumentos
    // em pedaços: o cliente precisa juntá-los pelo índice.
    const json wire_arguments = arguments_on_wire(calls[i], step.quirks);
    const bool as_object = !wire_arguments.is_string();
    json header = {
        {"index", i},
        {"type", "function"},
        {"function",
         {{"name", calls[i].name}, {"arguments", as_object ? wire_arguments : json("")}}}};
    if (!step.quirks.missing_ids) header["id"] = calls[i].id;
    push({{"tool_calls", json::array({std::move(header)})}}, nullptr);
    if (as_object) continue;
    for (const auto& piece : split_bytes(calls[i].arguments, 8)) {
      push({{"tool_calls", json::array({{{"index", i}, {"function", {{"arguments", piece}}}}})}},
           nullptr);
    }
  }

  push(json::object(), step.finish_reason);
  if (include_usage && !step.quirks.no_usage) {
    json last = {{"id", "chatcmpl-hz-" + std::to_string(context.ordinal)},
                 {"object", "chat.completion.chunk"},
                 {"created", kCreated},
                 {"model", context.model},
                 {"choices", json::array()},
                 {"usage", usage_json(usage_for(step, context))}};
    events.push_back(event(last));
  }
  events.push_back("data: [DONE]\n\n");
  return events;
}

json error_body(const std::string& message, const std::string& type, const std::string& code) {
  return {{"error",
           {{"message", message},
            {"type", type},
            {"param", nullptr},
            {"code", code.empty() ? json(nullptr) : json(code)}}}};
}

}  // namespace hz::mock::detail
