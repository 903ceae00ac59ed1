#include "hz/mock/scenario.hpp"

#include "hz/mock/embedded.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

namespace hz::mock {
namespace {

using nlohmann::json;

// Onde estamos no arquivo, para as mensagens de erro dizerem arquivo, passo e campo.
struct Where {
  std::string file;
  int step = 0;  // 0: fora dos passos

  Error fail(const std::string& field, const std::string& problem) const {
    std::string text = file + ": ";
    if (step > 0) text += "passo " + std::to_string(step) + ": ";
    if (!field.empty()) text += "campo \"" + field + "\": ";
    return Error{text + problem};
  }
};

// Campos desconhecidos são erro: um "conten" digitado errado deve aparecer
// como erro, não como uma resposta vazia misteriosa.
std::optional<Error> reject_unknown(const json& object, std::initializer_list<const char*> known,
                                    const Where& where, const std::string& prefix) {
  for (const auto& item : object.items()) {
    bool found = std::any_of(known.begin(), known.end(),
                             [&](const char* name) { return item.key() == name; });
    if (!found) return where.fail(prefix + item.key(), "campo desconhecido");
  }
  return std::nullopt;
}

// Leitores tipados: devolvem o erro já com o nome do campo.
std::optional<Error> read_text(const json& object, const char* key, std::string* out,
                               const Where& where, const std::string& prefix = "") {
  auto it = object.find(key);
  if (it == object.end()) return std::nullopt;
  if (!it->is_string()) return where.fail(prefix + key, "esperava texto");
  *out = it->get<std::string>();
  return std::nullopt;
}

// Um inteiro JSON entre min e max. O nlohmann guarda inteiros grandes como
// sem sinal; comparar antes de converter evita que 4294967295 vire -1 num int.
bool integer_in_range(const json& value, long min, long max) {
  if (value.is_number_unsigned()) {
    const auto number = value.get<std::uint64_t>();
    return (min <= 0 || number >= static_cast<std::uint64_t>(min)) &&
           number <= static_cast<std::uint64_t>(max);
  }
  if (!value.is_number_integer()) return false;
  const auto number = value.get<std::int64_t>();
  return number >= min && number <= max;
}

std::optional<Error> read_count(const json& value, const std::string& field, long* out,
                                const Where& where) {
  if (!integer_in_range(value, 0, std::numeric_limits<long>::max())) {
    return where.fail(field, "esperava um número inteiro não negativo");
  }
  *out = value.get<long>();
  return std::nullopt;
}

// Inteiro de min a max; `unit` (se houver) vai entre parênteses na mensagem:
// campo "error.retry_after": esperava um inteiro de 0 a 86400 (segundos)
std::optional<Error> read_bounded(const json& value, const std::string& field, long min, long max,
                                  long* out, const Where& where, const std::string& unit = "") {
  if (!integer_in_range(value, min, max)) {
    return where.fail(field, "esperava um inteiro de " + std::to_string(min) + " a " +
                                 std::to_string(max) + (unit.empty() ? "" : " (" + unit + ")"));
  }
  *out = value.get<long>();
  return std::nullopt;
}

std::optional<Error> read_text_list(const json& value, const std::string& field,
                                    std::vector<std::string>* out, const Where& where) {
  if (value.is_string()) {
    out->push_back(value.get<std::string>());
    return std::nullopt;
  }
  if (!value.is_array()) return where.fail(field, "esperava texto ou lista de textos");
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string()) {
      return where.fail(field + "[" + std::to_string(i) + "]", "esperava texto");
    }
    out->push_back(value[i].get<std::string>());
  }
  return std::nullopt;
}

std::optional<Error> read_quirks(const json& value, const std::string& field, Quirks* quirks,
                                 const Where& where) {
  if (!value.is_array()) return where.fail(field, "esperava uma lista de textos");
  for (std::size_t i = 0; i < value.size(); ++i) {
    std::string item_field = field + "[" + std::to_string(i) + "]";
    if (!value[i].is_string()) return where.fail(item_field, "esperava texto");
    const auto name = value[i].get<std::string>();
    if (name == "arguments_as_object") {
      quirks->arguments_as_object = true;
    } else if (name == "missing_ids") {
      quirks->missing_ids = true;
    } else if (name == "no_usage") {
      quirks->no_usage = true;
    } else if (name == "reject_stream_options") {
      quirks->reject_stream_options = true;
    } else if (name == "stream_ignores_usage") {
      quirks->stream_ignores_usage = true;
    } else if (name == "stream_drops_tool_calls") {
      quirks->stream_drops_tool_calls = true;
    } else {
      return where.fail(item_field, "peculiaridade desconhecida \"" + name +
                                        "\" (use arguments_as_object, missing_ids, no_usage, "
                                        "reject_stream_options, stream_ignores_usage ou "
                                        "stream_drops_tool_calls)");
    }
  }
  return std::nullopt;
}

std::optional<Error> read_tool_call(const json& value, std::size_t index, ScriptedToolCall* call,
                                    const Where& where) {
  const std::string prefix = "tool_calls[" + std::to_string(index) + "].";
  if (!value.is_object())
    return where.fail("tool_calls[" + std::to_string(index) + "]", "esperava um objeto");
  if (auto e = reject_unknown(value, {"id", "name", "arguments"}, where, prefix)) return e;
  if (!value.contains("name")) return where.fail(prefix + "name", "obrigatório");
  if (auto e = read_text(value, "name", &call->name, where, prefix)) return e;
  if (auto e = read_text(value, "id", &call->id, where, prefix)) return e;
  call->arguments = "{}";
  if (auto it = value.find("arguments"); it != value.end()) {
    // Objeto: codificado como texto, como a OpenAI faz. Texto: vai como está,
    // para um roteiro poder mandar JSON inválido de propósito.
    if (it->is_object()) {
      call->arguments = it->dump();
    } else if (it->is_string()) {
      call->arguments = it->get<std::string>();
    } else {
      return where.fail(prefix + "arguments", "esperava um objeto ou texto");
    }
  }
  return std::nullopt;
}

std::optional<Error> read_expectation(const json& value, Expectation* expect, const Where& where) {
  if (!value.is_object()) return where.fail("expect", "esperava um objeto");
  if (auto e = reject_unknown(value,
                              {"message_count", "last_role", "last_contains", "contains",
                               "tool_call_id", "tools_include", "model", "stream"},
                              where, "expect.")) {
    return e;
  }
  if (auto it = value.find("message_count"); it != value.end()) {
    long count = 0;
    if (auto e = read_count(*it, "expect.message_count", &count, where)) return e;
    expect->message_count = static_cast<std::size_t>(count);
  }
  std::string text;
  if (value.contains("last_role")) {
    if (auto e = read_text(value, "last_role", &text, where, "expect.")) return e;
    if (text != "system" && text != "user" && text != "assistant" && text != "tool") {
      return where.fail("expect.last_role", "esperava system, user, assistant ou tool");
    }
    expect->last_role = text;
  }
  if (auto it = value.find("last_contains"); it != value.end()) {
    if (auto e = read_text_list(*it, "expect.last_contains", &expect->last_contains, where)) {
      return e;
    }
  }
  if (auto it = value.find("contains"); it != value.end()) {
    if (auto e = read_text_list(*it, "expect.contains", &expect->contains, where)) return e;
  }
  if (value.contains("tool_call_id")) {
    if (auto e = read_text(value, "tool_call_id", &text, where, "expect.")) return e;
    expect->tool_call_id = text;
  }
  if (auto it = value.find("tools_include"); it != value.end()) {
    if (auto e = read_text_list(*it, "expect.tools_include", &expect->tools_include, where)) {
      return e;
    }
  }
  if (value.contains("model")) {
    if (auto e = read_text(value, "model", &text, where, "expect.")) return e;
    expect->model = text;
  }
  if (auto it = value.find("stream"); it != value.end()) {
    if (!it->is_boolean()) return where.fail("expect.stream", "esperava true ou false");
    expect->stream = it->get<bool>();
  }
  return std::nullopt;
}

std::string default_error_type(int status) {
  if (status == 401) return "authentication_error";
  if (status == 403) return "permission_error";
  if (status == 404) return "not_found_error";
  if (status == 429) return "rate_limit_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

std::optional<Error> read_http_error(const json& value, ScriptedHttpError* error,
                                     const Where& where) {
  if (!value.is_object()) return where.fail("error", "esperava um objeto");
  if (auto e = reject_unknown(
          value, {"status", "message", "type", "code", "retry_after", "retry_after_ms"}, where,
          "error.")) {
    return e;
  }
  auto status = value.find("status");
  if (status == value.end()) return where.fail("error.status", "obrigatório");
  if (!status->is_number_integer() || status->get<long>() < 400 || status->get<long>() > 599) {
    return where.fail("error.status", "esperava um código HTTP de erro (400 a 599)");
  }
  error->status = status->get<int>();
  error->message = "erro simulado pelo hz-mock (HTTP " + std::to_string(error->status) + ")";
  error->type = default_error_type(error->status);
  if (auto e = read_text(value, "message", &error->message, where, "error.")) return e;
  if (auto e = read_text(value, "type", &error->type, where, "error.")) return e;
  if (auto it = value.find("code"); it != value.end() && !it->is_null()) {
    if (!it->is_string()) return where.fail("error.code", "esperava texto ou null");
    error->code = it->get<std::string>();
  }
  if (auto it = value.find("retry_after"); it != value.end()) {
    long seconds = 0;
    if (auto e = read_bounded(*it, "error.retry_after", 0, kMaxRetryAfterSeconds, &seconds, where,
                              "segundos")) {
      return e;
    }
    error->retry_after = static_cast<int>(seconds);
  }
  if (auto it = value.find("retry_after_ms"); it != value.end()) {
    long ms = 0;
    if (auto e = read_bounded(*it, "error.retry_after_ms", 0, kMaxRetryAfterMs, &ms, where,
                              "milissegundos")) {
      return e;
    }
    error->retry_after_ms = static_cast<int>(ms);
  }
  return std::nullopt;
}

// As falhas que mandam (parte de) uma resposta roteirizada.
bool carries_reply(Fault fault) {
  return fault == Fault::none || fault == Fault::truncate_stream || fault == Fault::stall_stream;
}

bool has_reply_fields(const json& step) {
  for (const char* key : {"content", "tool_calls", "usage", "finish_reason", "reasoning_content",
                          "reasoning", "quirks"}) {
    if (step.contains(key)) return true;
  }
  return false;
}

std::optional<Error> read_step(const json& value, const Quirks& scenario_quirks, Step* step,
                               const Where& where) {
  if (!value.is_object()) return where.fail("", "esperava um objeto");
  if (auto e = reject_unknown(
          value,
          {"comment", "content", "tool_calls", "usage", "finish_reason", "reasoning_content",
           "reasoning", "quirks", "repeat", "expect", "delay_ms", "chunk_delay_ms", "error",
           "fault", "truncate_after", "stall_after"},
          where, "")) {
    return e;
  }
  if (auto e = read_text(value, "content", &step->content, where)) return e;
  if (auto it = value.find("tool_calls"); it != value.end()) {
    if (!it->is_array()) return where.fail("tool_calls", "esperava uma lista");
    for (std::size_t i = 0; i < it->size(); ++i) {
      ScriptedToolCall call;
      if (auto e = read_tool_call((*it)[i], i, &call, where)) return e;
      step->tool_calls.push_back(std::move(call));
    }
  }
  if (auto it = value.find("usage"); it != value.end()) {
    if (!it->is_object()) return where.fail("usage", "esperava um objeto");
    if (auto e = reject_unknown(*it, {"prompt_tokens", "completion_tokens", "total_tokens"}, where,
                                "usage.")) {
      return e;
    }
    ScriptedUsage usage;
    for (auto [key, slot] : {std::pair{"prompt_tokens", &usage.prompt_tokens},
                             std::pair{"completion_tokens", &usage.completion_tokens},
                             std::pair{"total_tokens", &usage.total_tokens}}) {
      auto field = it->find(key);
      if (field == it->end()) continue;
      long count = 0;
      if (auto e =
              read_bounded(*field, std::string("usage.") + key, 0, kMaxTokens, &count, where)) {
        return e;
      }
      *slot = count;
    }
    step->usage = usage;
  }
  step->finish_reason = step->tool_calls.empty() ? "stop" : "tool_calls";
  if (auto e = read_text(value, "finish_reason", &step->finish_reason, where)) return e;
  if (auto e = read_text(value, "reasoning_content", &step->reasoning_content, where)) return e;
  if (auto e = read_text(value, "reasoning", &step->reasoning, where)) return e;
  step->quirks = scenario_quirks;
  if (auto it = value.find("quirks"); it != value.end()) {
    if (auto e = read_quirks(*it, "quirks", &step->quirks, where)) return e;
  }

  if (auto it = value.find("repeat"); it != value.end()) {
    if (it->is_string() && it->get<std::string>() == "forever") {
      step->forever = true;
    } else if (integer_in_range(*it, 1, kMaxRepeat)) {
      step->repeat = it->get<int>();
    } else {
      return where.fail(
          "repeat", "esperava um inteiro de 1 a " + std::to_string(kMaxRepeat) + " ou \"forever\"");
    }
  }
  if (auto it = value.find("expect"); it != value.end()) {
    if (auto e = read_expectation(*it, &step->expect, where)) return e;
  }
  long ms = 0;
  if (auto it = value.find("delay_ms"); it != value.end()) {
    if (auto e = read_bounded(*it, "delay_ms", 0, kMaxDelayMs, &ms, where, "milissegundos")) {
      return e;
    }
    step->delay_ms = static_cast<int>(ms);
  }
  if (auto it = value.find("chunk_delay_ms"); it != value.end()) {
    if (auto e = read_bounded(*it, "chunk_delay_ms", 0, kMaxDelayMs, &ms, where, "milissegundos")) {
      return e;
    }
    step->chunk_delay_ms = static_cast<int>(ms);
  }

  if (auto it = value.find("error"); it != value.end()) {
    if (value.contains("fault")) return where.fail("error", "não combina com \"fault\"");
    if (has_reply_fields(value)) {
      return where.fail("error", "um passo de erro não leva campos de resposta");
    }
    ScriptedHttpError error;
    if (auto e = read_http_error(*it, &error, where)) return e;
    step->error = std::move(error);
  }
  if (auto it = value.find("fault"); it != value.end()) {
    if (!it->is_string()) return where.fail("fault", "esperava texto");
    const auto name = it->get<std::string>();
    if (name == "hang") {
      step->fault = Fault::hang;
    } else if (name == "drop") {
      step->fault = Fault::drop;
    } else if (name == "malformed") {
      step->fault = Fault::malformed;
    } else if (name == "truncate_stream") {
      step->fault = Fault::truncate_stream;
    } else if (name == "stall_stream") {
      step->fault = Fault::stall_stream;
    } else {
      return where.fail("fault", "falha desconhecida \"" + name +
                                     "\" (use hang, drop, malformed, truncate_stream ou "
                                     "stall_stream)");
    }
    if (!carries_reply(step->fault) && has_reply_fields(value)) {
      return where.fail("fault", "\"" + name + "\" não leva campos de resposta");
    }
  }
  if (auto it = value.find("truncate_after"); it != value.end()) {
    if (step->fault != Fault::truncate_stream) {
      return where.fail("truncate_after", "só vale com \"fault\": \"truncate_stream\"");
    }
    long events = 0;
    if (auto e = read_bounded(*it, "truncate_after", 1, kMaxRepeat, &events, where)) return e;
    step->truncate_after = static_cast<int>(events);
  }
  if (auto it = value.find("stall_after"); it != value.end()) {
    if (step->fault != Fault::stall_stream) {
      return where.fail("stall_after", "só vale com \"fault\": \"stall_stream\"");
    }
    long events = 0;
    if (auto e = read_bounded(*it, "stall_after", 0, kMaxRepeat, &events, where)) return e;
    step->stall_after = static_cast<int>(events);
  }
  // Sem resposta roteirizada não há eventos para atrasar.
  if (value.contains("chunk_delay_ms")) {
    if (step->error) return where.fail("chunk_delay_ms", "não combina com \"error\"");
    if (!carries_reply(step->fault)) {
      return where.fail("chunk_delay_ms", "não combina com \"fault\": \"" +
                                              std::string(to_string(step->fault)) + "\"");
    }
  }
  return std::nullopt;
}

// Linha e coluna (a partir de 1) do byte `byte` (contado a partir de 1, como o
// nlohmann::json informa), para erros de sintaxe.
std::string line_and_column(std::string_view text, std::size_t byte) {
  byte = std::min(byte > 0 ? byte - 1 : 0, text.size());
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < byte; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "linha " + std::to_string(line) + ", coluna " + std::to_string(column);
}

std::optional<Error> read_workspace(const json& value, std::string_view origin, Scenario* scenario,
                                    const Where& where) {
  if (!value.is_string() || value.get<std::string>().empty()) {
    return where.fail("workspace", "esperava o caminho de uma pasta");
  }
  std::filesystem::path path(value.get<std::string>());
  if (path.is_relative()) {
    std::filesystem::path origin_dir = std::filesystem::path(origin).parent_path();
    path = (origin_dir.empty() ? scenario_dir() : origin_dir) / path;
  }
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  if (ec || !std::filesystem::is_directory(absolute, ec)) {
    return where.fail("workspace", "a pasta " + path.string() + " não existe");
  }
  scenario->workspace = absolute.lexically_normal();
  return std::nullopt;
}

std::optional<Error> read_selection(const json& value, Selection* selection, const Where& where) {
  if (!value.is_string()) return where.fail("select", "esperava texto");
  const auto name = value.get<std::string>();
  if (name == "by_request") {
    *selection = Selection::by_request;
  } else if (name == "by_assistant_messages") {
    *selection = Selection::by_assistant_messages;
  } else {
    return where.fail(
        "select", "modo desconhecido \"" + name + "\" (use by_request ou by_assistant_messages)");
  }
  return std::nullopt;
}

}  // namespace

std::string_view to_string(Fault fault) {
  switch (fault) {
    case Fault::none:
      return "none";
    case Fault::hang:
      return "hang";
    case Fault::drop:
      return "drop";
    case Fault::malformed:
      return "malformed";
    case Fault::truncate_stream:
      return "truncate_stream";
    case Fault::stall_stream:
      return "stall_stream";
  }
  return "?";
}

std::string_view to_string(Selection selection) {
  switch (selection) {
    case Selection::by_request:
      return "by_request";
    case Selection::by_assistant_messages:
      return "by_assistant_messages";
  }
  return "?";
}

namespace {

// Os campos de cima do cenário, menos os passos (os quirks valem para todos eles).
std::optional<Error> read_header(const json& document, std::string_view origin, Scenario* scenario,
                                 Quirks* quirks, const Where& where) {
  scenario->name = std::filesystem::path(origin).stem().string();
  if (auto e = read_text(document, "name", &scenario->name, where)) return *e;
  if (auto e = read_text(document, "description", &scenario->description, where)) return *e;
  if (auto e = read_text(document, "prompt", &scenario->prompt, where)) return *e;
  if (auto e = read_text(document, "model", &scenario->model, where)) return *e;
  if (auto it = document.find("workspace"); it != document.end()) {
    if (auto e = read_workspace(*it, origin, scenario, where)) return *e;
  }
  if (auto it = document.find("quirks"); it != document.end()) {
    if (auto e = read_quirks(*it, "quirks", quirks, where)) return *e;
  }
  if (auto it = document.find("select"); it != document.end()) {
    if (auto e = read_selection(*it, &scenario->select, where)) return *e;
  }
  if (auto it = document.find("ollama_context_length"); it != document.end()) {
    long tokens = 0;
    if (auto e =
            read_bounded(*it, "ollama_context_length", 1, kMaxTokens, &tokens, where, "tokens")) {
      return *e;
    }
    scenario->ollama_context_length = tokens;
  }
  return std::nullopt;
}

}  // namespace

Result<Scenario> parse_scenario(std::string_view json_text, std::string_view origin) {
  Scenario scenario;
  const std::filesystem::path origin_path(origin);
  scenario.origin = origin_path.filename().string();
  if (scenario.origin.empty()) scenario.origin = "cenário";
  Where where{scenario.origin, 0};

  json document;
  try {
    document = json::parse(json_text.begin(), json_text.end());
  } catch (const json::parse_error& e) {
    return where.fail("", "não é JSON válido (" + line_and_column(json_text, e.byte) + ")");
  } catch (const json::out_of_range&) {
    // Um número que não cabe num double ("1e999") vem por outra exceção, sem a posição.
    return where.fail("", "não é JSON válido (um número grande demais para um double)");
  }

  if (!document.is_object()) return where.fail("", "esperava um objeto JSON no topo");
  if (auto e = reject_unknown(document,
                              {"comment", "name", "description", "prompt", "workspace", "model",
                               "quirks", "select", "ollama_context_length", "steps"},
                              where, "")) {
    return *e;
  }
  Quirks quirks;
  if (auto e = read_header(document, origin, &scenario, &quirks, where)) return *e;

  auto steps = document.find("steps");
  if (steps == document.end()) return where.fail("steps", "obrigatório");
  if (!steps->is_array()) return where.fail("steps", "esperava uma lista");
  if (steps->empty()) return where.fail("steps", "precisa de pelo menos um passo");
  for (std::size_t i = 0; i < steps->size(); ++i) {
    Where step_where{where.file, static_cast<int>(i + 1)};
    if (i > 0 && scenario.steps.back().forever) {
      return step_where.fail(
          "", "nunca seria usado: o passo " + std::to_string(i) + " repete para sempre");
    }
    Step step;
    if (auto e = read_step((*steps)[i], quirks, &step, step_where)) return *e;
    scenario.steps.push_back(std::move(step));
  }
  return scenario;
}

Result<Scenario> load_scenario(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Error{path.string() + ": não consegui abrir o arquivo de cenário"};
  }
  std::ostringstream text;
  text << in.rdbuf();
  // Caminho absoluto: um "workspace" relativo é relativo ao arquivo, não à pasta atual.
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  return parse_scenario(text.str(), (ec ? path : absolute).string());
}

}  // namespace hz::mock
