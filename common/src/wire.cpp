#include "hz/wire.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <set>
#include <utility>

#include "hz/json_depth.hpp"
#include "hz/saturating.hpp"
#include "hz/text.hpp"

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

long Usage::total() const {
  return saturating_add(saturating_add(prompt_tokens, completion_tokens), unsplit_tokens);
}

Usage& Usage::operator+=(const Usage& other) {
  prompt_tokens = saturating_add(prompt_tokens, other.prompt_tokens);
  completion_tokens = saturating_add(completion_tokens, other.completion_tokens);
  unsplit_tokens = saturating_add(unsplit_tokens, other.unsplit_tokens);
  reported = reported || other.reported;
  estimated = estimated || other.estimated;
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

json usage_json(const Usage& usage) {
  return {{"prompt_tokens", usage.prompt_tokens}, {"completion_tokens", usage.completion_tokens}};
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

std::string encode_stream_request(const ChatRequest& request) {
  json body = to_json(request);
  body["stream"] = true;
  // Sem isto a OpenAI não manda o uso de tokens em streaming.
  body["stream_options"] = {{"include_usage", true}};
  return body.dump(-1, ' ', false, json::error_handler_t::replace);
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

// "resposta do modelo com JSON aninhado fundo demais (mais de 256 níveis)".
std::string too_deep(const char* what) {
  return std::string(what) + " com JSON aninhado fundo demais (mais de " +
         std::to_string(kMaxJsonDepth) + " níveis)";
}

std::string string_field(const json& object, const char* key) {
  if (!object.is_object()) return {};
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return {};
  return it->get<std::string>();
}

// Nenhum modelo gasta tanto numa chamada; um número maior é lixo do servidor
// (e somado estouraria um long).
constexpr std::int64_t kMaxTokens = 1'000'000'000'000;

// Uma contagem de tokens: ausente ou null vale 0; inteira entre 0 e
// kMaxTokens (2.0 conta como 2) vale ela; qualquer outra coisa é inválida.
std::optional<long> token_count(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return 0L;
  if (it->is_number_unsigned()) {
    const auto value = it->get<std::uint64_t>();
    if (value > static_cast<std::uint64_t>(kMaxTokens)) return std::nullopt;
    return static_cast<long>(value);
  }
  if (it->is_number_integer()) {
    const auto value = it->get<std::int64_t>();
    if (value < 0 || value > kMaxTokens) return std::nullopt;
    return static_cast<long>(value);
  }
  if (it->is_number_float()) {
    // Comparar antes de converter: converter um double fora da faixa é UB.
    const double value = it->get<double>();
    if (!std::isfinite(value) || value < 0 || value > static_cast<double>(kMaxTokens) ||
        std::floor(value) != value) {
      return std::nullopt;
    }
    return static_cast<long>(value);
  }
  return std::nullopt;
}

// O objeto "usage". Uma contagem inválida anula tudo: meio uso verdadeiro
// engana mais do que nenhum. Só vale como informado (reported) com as duas
// contagens presentes e pelo menos 1 token de entrada: todo pedido cobrado tem
// entrada, e um {} ou um 0/0 tomado como verdade faria o orçamento contar zero
// para uma chamada paga. Sem essa divisão, um total_tokens ≥ 1 vira
// unsplit_tokens; sem ele também, nada foi informado.
Usage usage_of(const json& usage) {
  auto present = [&usage](const char* key) {
    auto it = usage.find(key);
    return it != usage.end() && !it->is_null();
  };
  const auto prompt = token_count(usage, "prompt_tokens");
  const auto completion = token_count(usage, "completion_tokens");
  const auto total = token_count(usage, "total_tokens");
  Usage out;
  if (!prompt || !completion || !total) return out;
  if (present("prompt_tokens") && present("completion_tokens") && *prompt >= 1) {
    out.prompt_tokens = *prompt;
    out.completion_tokens = *completion;
    out.reported = true;
  } else if (*total >= 1) {
    out.unsplit_tokens = *total;
  }
  return out;
}

// Quanto um "usage" diz: a divisão (2), só o total (1), nada (0). Num
// streaming, um pedaço só troca o uso por outro que diga ao menos o mesmo: um
// {} tardio não apaga um uso bom que já veio.
int informative(const Usage& usage) {
  if (usage.reported) return 2;
  return usage.unsplit_tokens > 0 ? 1 : 0;
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

// Alguns mandam name/arguments sem o envelope "function".
const json& function_of(const json& entry) {
  if (auto f = entry.find("function"); f != entry.end() && f->is_object()) return *f;
  return entry;
}

// Ids ausentes ganham "call_<índice>", determinísticos e únicos dentro da resposta,
// para que a mensagem tool de volta case com o pedido.
void assign_missing_ids(std::vector<ToolCall>& calls) {
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
}

std::string too_many_calls(const std::string& count) {
  return "pede " + count + " chamadas de ferramenta; o harness aceita até " +
         std::to_string(kMaxToolCallsPerReply) + " numa resposta";
}

std::vector<ToolCall> tool_calls_of(const json& message) {
  std::vector<ToolCall> calls;
  auto it = message.find("tool_calls");
  if (it == message.end() || !it->is_array()) return calls;
  for (const json& entry : *it) {
    if (!entry.is_object()) continue;
    ToolCall call;
    call.id = string_field(entry, "id");
    const json& function = function_of(entry);
    call.name = string_field(function, "name");
    call.arguments = arguments_of(function);
    calls.push_back(std::move(call));
  }
  assign_missing_ids(calls);
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
  if (reply.message.tool_calls.size() > kMaxToolCallsPerReply) {
    return Error{"resposta do modelo " +
                 too_many_calls(std::to_string(reply.message.tool_calls.size()))};
  }
  reply.reasoning = string_field(*message, "reasoning_content");
  if (reply.reasoning.empty()) reply.reasoning = string_field(*message, "reasoning");
  reply.finish_reason = string_field(choice, "finish_reason");
  if (auto usage = root.find("usage"); usage != root.end() && usage->is_object()) {
    reply.usage = usage_of(*usage);
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
    if (json_deeper_than(body)) return Error{too_deep("resposta do modelo")};
    json root = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (root.is_discarded()) return Error{"resposta do modelo não é JSON válido"};
    return decode_object(root);
  } catch (const std::exception& e) {
    return Error{std::string("resposta do modelo com JSON inesperado: ") + e.what()};
  }
}

// --- Streaming ---------------------------------------------------------

std::vector<SseEvent> SseDecoder::feed(std::string_view bytes) {
  std::vector<SseEvent> events;
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    if (after_cr_) {
      after_cr_ = false;
      if (bytes[pos] == '\n') {
        ++pos;
        continue;
      }
    }
    const std::size_t end = bytes.find_first_of("\r\n", pos);
    if (end == std::string_view::npos) {
      line_.append(bytes.substr(pos));
      break;
    }
    line_.append(bytes.substr(pos, end - pos));
    after_cr_ = bytes[end] == '\r';
    pos = end + 1;
    take_line(events);
  }
  return events;
}

std::vector<SseEvent> SseDecoder::finish() {
  std::vector<SseEvent> events;
  if (!line_.empty()) take_line(events);
  dispatch(events);
  after_cr_ = false;
  return events;
}

void SseDecoder::take_line(std::vector<SseEvent>& events) {
  const std::string line = std::move(line_);
  line_.clear();
  if (line.empty()) {
    dispatch(events);
    return;
  }
  if (line.front() == ':') return;  // comentário (ping de keep-alive)
  const std::size_t colon = line.find(':');
  const std::string_view field = std::string_view(line).substr(0, colon);
  std::string_view value;
  if (colon != std::string::npos) {
    value = std::string_view(line).substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  if (field == "data") {
    if (has_data_) pending_.data += '\n';
    pending_.data.append(value);
    has_data_ = true;
  } else if (field == "error") {
    if (!pending_.error.empty()) pending_.error += '\n';
    pending_.error.append(value);
  } else if (field == "event") {
    pending_.event = std::string(value);
  }
}

void SseDecoder::dispatch(std::vector<SseEvent>& events) {
  if (has_data_ || !pending_.error.empty()) events.push_back(std::move(pending_));
  pending_ = SseEvent{};
  has_data_ = false;
}

namespace {

// A mensagem de um erro de provedor: {"message": ...}, {"error": {"message": ...}},
// {"error": "..."} ou texto solto.
std::string provider_error_text(std::string_view text) {
  // Fundo demais: nem monta, e a mensagem é o começo do texto, como a de um não-JSON.
  const json root =
      json_deeper_than(text) ? json() : json::parse(text, nullptr, /*allow_exceptions=*/false);
  const json* error = &root;
  if (root.is_object()) {
    if (auto inner = root.find("error"); inner != root.end() && !inner->is_null()) error = &*inner;
  }
  if (error->is_string()) return printable(error->get<std::string>());
  if (error->is_object()) {
    if (std::string message = string_field(*error, "message"); !message.empty()) {
      return printable(message);
    }
  }
  return brief(printable(text), 1, 200);
}

// Um nome ou id que pode chegar em pedaços, inteiro num delta só ou repetido
// a cada delta (com o valor todo, ou vazio como no LM Studio).
void merge_piece(std::string& field, const std::string& piece) {
  if (piece.empty() || piece == field) return;
  if (piece.rfind(field, 0) == 0) {
    field = piece;  // o servidor repete o valor acumulado com um pedaço a mais
  } else {
    field += piece;
  }
}

std::optional<long> tool_call_index(const json& entry) {
  auto it = entry.find("index");
  if (it == entry.end() || !it->is_number_integer()) return std::nullopt;
  const auto value = it->get<std::int64_t>();
  if (value < 0 || value > 1'000'000) return std::nullopt;
  return static_cast<long>(value);
}

}  // namespace

StreamDecoder::StreamDecoder(std::function<void(std::string_view)> on_text)
    : on_text_(std::move(on_text)) {
  reply_.message.role = Role::assistant;
}

void StreamDecoder::feed(std::string_view bytes) {
  if (mode_ == Mode::plain) {
    plain_body_.append(bytes);
    return;
  }
  if (mode_ == Mode::sse) {
    take_bytes(bytes);
    return;
  }
  // Até o primeiro byte que não é espaço não dá para saber se é SSE ou JSON.
  plain_body_.append(bytes);
  const std::size_t first = plain_body_.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return;
  mode_ = plain_body_[first] == '{' ? Mode::plain : Mode::sse;
  if (mode_ == Mode::plain) return;
  const std::string pending = std::move(plain_body_);
  plain_body_.clear();
  take_bytes(pending);
}

void StreamDecoder::take_bytes(std::string_view bytes) {
  if (failed_ || done_) return;
  for (const SseEvent& event : sse_.feed(bytes)) {
    take(event);
    if (failed_ || done_) return;
  }
}

void StreamDecoder::take(const SseEvent& event) {
  if (!event.error.empty()) {
    fail(StreamError::Kind::provider,
         "o streaming trouxe um erro do provedor: " + provider_error_text(event.error));
    return;
  }
  if (event.event == "error") {
    fail(StreamError::Kind::provider,
         "o streaming trouxe um erro do provedor: " + provider_error_text(event.data));
    return;
  }
  const std::string_view data = event.data;
  const std::string_view payload = trim(data);
  if (payload.empty()) return;
  if (payload == "[DONE]") {
    done_ = true;
    return;
  }
  if (json_deeper_than(data)) {
    fail(StreamError::Kind::malformed, too_deep("o streaming trouxe um evento"));
    return;
  }
  const json chunk = json::parse(data, nullptr, /*allow_exceptions=*/false);
  if (chunk.is_discarded()) {
    fail(StreamError::Kind::malformed,
         "o streaming trouxe um evento que não é JSON válido: " + brief(printable(data), 1, 120));
    return;
  }
  if (!chunk.is_object()) {
    fail(StreamError::Kind::malformed, "o streaming trouxe um evento que não é um objeto JSON: " +
                                           brief(printable(data), 1, 120));
    return;
  }
  take_chunk(chunk);
}

void StreamDecoder::take_chunk(const json& chunk) {
  if (auto error = chunk.find("error"); error != chunk.end() && !error->is_null()) {
    fail(StreamError::Kind::provider,
         "o streaming trouxe um erro do provedor: " +
             provider_error_text(error->dump(-1, ' ', false, json::error_handler_t::replace)));
    return;
  }
  if (auto usage = chunk.find("usage"); usage != chunk.end() && usage->is_object()) {
    if (Usage next = usage_of(*usage); informative(next) >= informative(reply_.usage)) {
      reply_.usage = next;
    }
  }
  auto choices = chunk.find("choices");
  if (choices == chunk.end() || !choices->is_array()) return;
  for (const json& choice : *choices) {
    if (!choice.is_object()) continue;
    // Só a primeira escolha (n = 1); outras, se vierem, não se misturam a ela.
    if (auto index = choice.find("index");
        index != choice.end() && index->is_number() && *index != 0) {
      continue;
    }
    if (auto delta = choice.find("delta"); delta != choice.end() && delta->is_object()) {
      take_delta(*delta);
    }
    if (std::string finish = string_field(choice, "finish_reason"); !finish.empty()) {
      reply_.finish_reason = std::move(finish);
    }
  }
}

void StreamDecoder::take_delta(const json& delta) {
  if (auto content = delta.find("content"); content != delta.end()) {
    const std::string piece = text_of(*content);
    if (!piece.empty()) {
      reply_.message.content += piece;
      if (on_text_) on_text_(piece);
    }
  }
  reasoning_content_ += string_field(delta, "reasoning_content");
  reasoning_ += string_field(delta, "reasoning");
  if (auto calls = delta.find("tool_calls"); calls != delta.end() && calls->is_array()) {
    for (const json& entry : *calls) {
      if (entry.is_object()) take_tool_call(entry);
    }
  }
}

void StreamDecoder::take_tool_call(const json& entry) {
  const std::string id = string_field(entry, "id");
  Slot* slot = nullptr;
  if (const auto index = tool_call_index(entry)) {
    for (Slot& existing : slots_) {
      if (existing.index == *index) slot = &existing;
    }
    if (slot == nullptr) {
      if (!room_for_call()) return;
      slot = &slots_.emplace_back(Slot{*index, {}});
    }
  } else {
    // Sem índice: um id novo abre outra chamada; o resto continua a última.
    const bool new_call = !slots_.empty() && !id.empty() && !slots_.back().call.id.empty() &&
                          slots_.back().call.id != id;
    if (slots_.empty() || new_call) {
      if (!room_for_call()) return;
      long next = 0;
      for (const Slot& existing : slots_) next = std::max(next, existing.index + 1);
      slots_.push_back(Slot{next, {}});
    }
    slot = &slots_.back();
  }
  merge_piece(slot->call.id, id);
  const json& function = function_of(entry);
  merge_piece(slot->call.name, string_field(function, "name"));
  if (auto arguments = function.find("arguments"); arguments != function.end()) {
    if (arguments->is_string()) {
      slot->call.arguments += arguments->get<std::string>();
    } else if (!arguments->is_null()) {
      slot->call.arguments = arguments->dump(-1, ' ', false, json::error_handler_t::replace);
    }
  }
}

bool StreamDecoder::room_for_call() {
  if (slots_.size() < kMaxToolCallsPerReply) return true;
  fail(StreamError::Kind::malformed,
       "o streaming " + too_many_calls("mais de " + std::to_string(kMaxToolCallsPerReply)));
  return false;
}

void StreamDecoder::fail(StreamError::Kind kind, std::string message) {
  failed_ = true;
  error_ = StreamError{kind, std::move(message)};
}

Result<ChatReply, StreamError> StreamDecoder::finish() {
  if (mode_ == Mode::plain) {
    auto reply = decode_reply(plain_body_);
    if (!reply) return StreamError{StreamError::Kind::malformed, reply.error().message};
    return std::move(reply).value();
  }
  if (!failed_ && !done_) {
    for (const SseEvent& event : sse_.finish()) {
      take(event);
      if (failed_ || done_) break;
    }
  }
  if (failed_) return error_;
  if (!done_) {
    return StreamError{StreamError::Kind::cut,
                       "o streaming foi cortado: terminou sem \"data: [DONE]\""};
  }
  if (reply_.finish_reason.empty()) {
    return StreamError{StreamError::Kind::cut,
                       "o streaming foi cortado: terminou sem finish_reason"};
  }
  ChatReply reply = std::move(reply_);
  reply.reasoning =
      reasoning_content_.empty() ? std::move(reasoning_) : std::move(reasoning_content_);
  std::stable_sort(slots_.begin(), slots_.end(),
                   [](const Slot& a, const Slot& b) { return a.index < b.index; });
  for (Slot& slot : slots_) {
    // Sem argumentos nenhum, como no caminho sem streaming: "{}".
    if (slot.call.arguments.empty()) slot.call.arguments = "{}";
    reply.message.tool_calls.push_back(std::move(slot.call));
  }
  assign_missing_ids(reply.message.tool_calls);
  return reply;
}

}  // namespace hz
