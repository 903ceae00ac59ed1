#include "hz/trace.hpp"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>

#include "hz/json_integer.hpp"
#include "hz/terminal.hpp"
#include "hz/text.hpp"
#include "hz/trace_time.hpp"
#include "hz/trace_words.hpp"

namespace hz {

using nlohmann::json;

namespace {

using words::plural;
using words::usd;

// Os eventos vêm do próprio harness, mas a linha humana não pode derrubar
// nada por causa de um campo ausente ou de tipo errado.
long long integer(const json& event, const char* key) {
  auto it = event.find(key);
  if (it == event.end()) return 0;
  return json_integer(*it).value_or(0);
}

// Um valor em dólares: fora de ±10^12 (nenhum custo real chega perto) conta
// como ausente, porque usd() o converte para micro-dólares num long long.
double real(const json& event, const char* key) {
  constexpr double kMaxDollars = 1e12;
  auto it = event.find(key);
  if (it == event.end() || !it->is_number()) return 0;
  const double value = it->get<double>();
  return std::isfinite(value) && std::fabs(value) <= kMaxDollars ? value : 0;
}

// O dump escapa os controles C0 ("\u001b"), mas deixa DEL e os C1 (U+009B
// é um CSI) como estão: quem mostra o JSON num terminal passa por printable.
std::string dump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

// Textos de eventos carregam o que o modelo e as ferramentas produziram:
// nada de códigos de terminal crus na linha humana.
std::string text(const json& event, const char* key) {
  auto it = event.find(key);
  if (it == event.end()) return {};
  if (it->is_string()) return printable(it->get<std::string>());
  return printable(dump(*it));
}

bool flag(const json& event, const char* key) {
  auto it = event.find(key);
  return it != event.end() && it->is_boolean() && it->get<bool>();
}

// O custo de um evento. Com "cost_known" (etapa 02 em diante), sempre: o valor
// ou "custo desconhecido", porque preço desconhecido não é custo zero. Sem
// ele (etapa 01), só quando houve custo: modelos locais custam zero e não
// poluem a linha.
std::string cost_suffix(const json& event) {
  const double cost = real(event, "cost_usd");
  std::string text;
  if (auto known = event.find("cost_known"); known != event.end() && known->is_boolean()) {
    text = known->get<bool>() ? usd(cost) : std::string("custo desconhecido");
  } else if (cost > 0) {
    text = usd(cost);
  }
  if (text.empty()) return {};
  if (flag(event, "estimated") && text != "custo desconhecido") text += " (estimado)";
  return " · " + text;
}

const json& event_usage(const json& event) {
  static const json empty = json::object();
  auto it = event.find("usage");
  return it != event.end() && it->is_object() ? *it : empty;
}

std::string render_model_response(const json& event) {
  const long long calls = integer(event, "tool_calls");
  std::string line = "← modelo: ";
  line += calls == 0 ? std::string("resposta em texto")
                     : plural(calls, "chamada de ferramenta", "chamadas de ferramenta");
  const json& usage = event_usage(event);
  if (!usage.empty()) {
    line += " · " + std::to_string(integer(usage, "prompt_tokens")) + "+" +
            std::to_string(integer(usage, "completion_tokens")) +
            (flag(event, "estimated") ? " tokens estimados" : " tokens");
  }
  if (const double cost = real(event, "cost_usd"); cost > 0) line += " · " + usd(cost);
  return line;
}

std::string render_turn_end(const json& event) {
  std::string line = "■ desfecho: " + text(event, "outcome");
  line += " · " + plural(integer(event, "turns"), "chamada ao modelo", "chamadas ao modelo");
  const json& usage = event_usage(event);
  if (!usage.empty()) {
    line += " · " +
            std::to_string(integer(usage, "prompt_tokens") + integer(usage, "completion_tokens")) +
            " tokens";
  }
  line += cost_suffix(event);
  if (const long long retries = integer(event, "retries"); retries > 0) {
    line += " · " + plural(retries, "nova tentativa", "novas tentativas");
  }
  if (const std::string error = text(event, "error"); !error.empty()) line += " · erro: " + error;
  return line;
}

// Uma tentativa que falhou. Cobrada (o provedor aceitou o pedido e a resposta
// não serviu), entra na conta mesmo assim.
std::string render_model_error(const json& event) {
  std::string line = "✗ modelo: " + text(event, "message");
  if (flag(event, "billed")) {
    line += " · cobrada";
    if (const double cost = real(event, "cost_usd"); cost > 0)
      line += " " + usd(cost) + " (estimado)";
  }
  return line;
}

// Os nomes de um ciclo ("run_shell → read_file"), de um campo que deveria
// ser uma lista de textos.
std::string cycle_names(const json& event) {
  auto it = event.find("cycle");
  if (it == event.end() || !it->is_array()) return "?";
  std::string names;
  for (const json& name : *it) {
    names += (names.empty() ? "" : " → ") +
             (name.is_string() ? printable(name.get<std::string>()) : printable(dump(name)));
  }
  return names.empty() ? "?" : names;
}

// Etapa 03: como o detector classificou uma tool call que não era nova.
std::string render_tool_repetition(const json& event) {
  const std::string kind = text(event, "repetition");
  const std::string line = "  ↻ " + text(event, "name");
  if (kind == "repeat") {
    return line + ": repetição " + std::to_string(integer(event, "repeat_count")) + "/" +
           std::to_string(integer(event, "threshold")) + " (mesma chamada, mesmo resultado)";
  }
  if (kind == "progress") return line + ": mesma chamada, resultado novo (progresso)";
  if (kind == "cycle") return line + ": ciclo (a mesma sequência, com os mesmos resultados)";
  return line + ": " + kind;
}

// O que travou: "run_shell 3 vezes com o mesmo resultado" ou o ciclo.
std::string stuck_call(const json& event) {
  if (text(event, "kind") == "cycle") {
    return "o ciclo " + cycle_names(event) + " duas vezes com os mesmos resultados";
  }
  return text(event, "name") + " " + std::to_string(integer(event, "count")) +
         " vezes com o mesmo resultado";
}

// A retomada (etapa 04): de onde o turno continua e o destino de cada
// chamada que ficou sem resultado, uma linha por chamada.
std::string render_journal_resume(const json& event) {
  std::string line =
      "↺ retomada do journal: " + plural(integer(event, "records"), "registro", "registros") +
      " · próximo passo: " + text(event, "next");
  const auto decisions = event.find("decisions");
  if (decisions == event.end() || !decisions->is_array()) return line;
  for (const json& decision : *decisions) {
    line += "\n  ↺ " + text(decision, "name") + " (" + text(decision, "call_id") +
            "): " + text(decision, "decision") + " · " + brief(text(decision, "reason"), 1, 200);
  }
  return line;
}

Tint tint_of(const json& event) {
  const std::string name = text(event, "event");
  if (name == "model_request" || name == "model_response") return Tint::cyan;
  if (name == "tool_start") return Tint::yellow;
  if (name == "tool_end") return flag(event, "ok") ? Tint::green : Tint::red;
  if (name == "turn_end") return Tint::bold;
  if (name == "model_error" || name == "tool_skipped" || name == "repetition_stop") {
    return Tint::red;
  }
  if (name == "retry" || name == "stream_fallback" || name == "note" || name == "tool_repetition" ||
      name == "repetition_warning" || name == "journal_resume") {
    return Tint::yellow;
  }
  return Tint::dim;
}

}  // namespace

std::string render_human(const json& event) {
  if (!event.is_object()) {
    return "· evento inválido: " + printable(dump(event));
  }
  const std::string name = text(event, "event");
  if (name == "model_request") {
    return "→ modelo: chamada " + std::to_string(integer(event, "turn")) + " (" +
           plural(integer(event, "messages"), "mensagem", "mensagens") + ")";
  }
  if (name == "model_response") return render_model_response(event);
  if (name == "tool_start") {
    return "  ⚙ " + text(event, "name") + " " + brief(text(event, "arguments"), 1, 200);
  }
  if (name == "tool_end") {
    return std::string(flag(event, "ok") ? "  ✓ " : "  ✗ ") + text(event, "summary");
  }
  if (name == "turn_end") return render_turn_end(event);
  if (name == "model_error") return render_model_error(event);
  if (name == "retry") {
    return "↻ tentativa " + std::to_string(integer(event, "attempt")) + " em " +
           std::to_string(integer(event, "delay_ms")) + " ms";
  }
  if (name == "stream_fallback") return "⚠ streaming: " + text(event, "reason");
  if (name == "tool_skipped") {
    return "  ⊘ " + text(event, "name") + " não rodou (" + text(event, "outcome") + ")";
  }
  if (name == "note") return "  ⚑ nota ao modelo: " + brief(text(event, "text"), 1, 200);
  if (name == "journal_resume") return render_journal_resume(event);
  if (name == "tool_repetition") return render_tool_repetition(event);
  if (name == "repetition_warning") {
    return "  ⚠ repetição: " + stuck_call(event) + "; aviso ao modelo (se repetir, o turno para)";
  }
  if (name == "repetition_stop") {
    return "  ⚠ repetição depois do aviso: " + stuck_call(event) + "; o turno para";
  }

  json rest = event;
  rest.erase("event");
  std::string line = "· " + (name.empty() ? std::string("(evento sem nome)") : name);
  if (!rest.empty()) line += " " + printable(dump(rest));
  return line;
}

TraceClock system_trace_clock() {
  return [] {
    return static_cast<std::int64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                         std::chrono::system_clock::now().time_since_epoch())
                                         .count());
  };
}

TraceClock stepping_trace_clock(std::int64_t start, std::int64_t step) {
  return [next = start, step]() mutable {
    const std::int64_t now = next;
    next += step;
    return now;
  };
}

TraceClock anchored_trace_clock(std::function<std::int64_t()> monotonic) {
  const std::int64_t wall = system_trace_clock()();
  const std::int64_t origin = monotonic();
  return [monotonic = std::move(monotonic), wall, origin] { return wall + (monotonic() - origin); };
}

Trace::Trace() : Trace(TraceOptions{}) {}

Trace::Trace(TraceOptions options) : options_(std::move(options)) {
  if (!options_.clock) options_.clock = system_trace_clock();
  if (options_.jsonl_path) {
    jsonl_.open(*options_.jsonl_path, std::ios::binary | std::ios::trunc);
    if (!jsonl_) {
      throw std::runtime_error("não foi possível abrir o arquivo de trace: " +
                               options_.jsonl_path->string());
    }
  }
}

void Trace::note_failure(int error) {
  failure_ = "aviso: não foi possível gravar o trace em " + options_.jsonl_path->string();
  if (error != 0) failure_ += std::string(": ") + std::strerror(error);
  failure_ += "; os eventos seguintes não serão gravados";
  if (options_.warnings != nullptr) *options_.warnings << failure_ << '\n' << std::flush;
}

void Trace::set_clock(TraceClock clock) {
  options_.clock = clock ? std::move(clock) : system_trace_clock();
}

// A hora do evento e, em quem fecha algo, a duração desde quem abriu.
json Trace::stamped(const json& event) {
  json out = event;
  const std::int64_t now = options_.clock();
  out["time"] = format_trace_time(now);
  out.erase("duration_ms");
  const std::string name = text(event, "event");
  const auto close = [&](std::optional<std::int64_t>& started) {
    if (started) out["duration_ms"] = duration_ms(now - *started);
    started.reset();
  };
  if (!turn_started_) turn_started_ = now;
  if (name == "model_request") {
    model_started_ = now;
    if (!model_.empty()) out["model"] = model_;
  } else if (name == "model_response" || name == "model_error") {
    close(model_started_);
  } else if (name == "tool_start") {
    tools_started_[text(event, "call_id")] = now;
  } else if (name == "tool_end") {
    if (auto it = tools_started_.find(text(event, "call_id")); it != tools_started_.end()) {
      out["duration_ms"] = duration_ms(now - it->second);
      tools_started_.erase(it);
    }
  } else if (name == "turn_end") {
    close(turn_started_);
    model_started_.reset();
    tools_started_.clear();
  }
  return out;
}

TraceField::TraceField(std::string_view key, const char* value) : key_(key), value_(value) {}
TraceField::TraceField(std::string_view key, std::nullptr_t) : key_(key), value_(nullptr) {}
TraceField::TraceField(std::string_view key, std::string_view value) : key_(key), value_(value) {}
TraceField::TraceField(std::string_view key, const std::string& value) : key_(key), value_(value) {}
TraceField::TraceField(std::string_view key, bool value) : key_(key), value_(value) {}
TraceField::TraceField(std::string_view key, int value) : key_(key), value_(value) {}
TraceField::TraceField(std::string_view key, long value) : key_(key), value_(value) {}
TraceField::TraceField(std::string_view key, long long value) : key_(key), value_(value) {}
TraceField::TraceField(std::string_view key, unsigned value) : key_(key), value_(value) {}
TraceField::TraceField(std::string_view key, unsigned long value) : key_(key), value_(value) {}
TraceField::TraceField(std::string_view key, unsigned long long value) : key_(key), value_(value) {}
TraceField::TraceField(std::string_view key, double value) : key_(key), value_(value) {}
TraceField::TraceField(std::string_view key, json value) : key_(key), value_(std::move(value)) {}
TraceField::~TraceField() = default;

void Trace::emit(std::initializer_list<TraceField> fields) {
  json event = json::object();
  for (const TraceField& field : fields) event.emplace(field.key(), field.value());
  emit(event);
}

void Trace::emit(const json& event) {
  const json line = event.is_object() ? stamped(event) : event;
  if (jsonl_.is_open() && !failed()) {
    // Uma linha por evento e flush a cada uma: depois de um crash, o arquivo
    // ainda conta a história até o último evento.
    errno = 0;
    jsonl_ << line.dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
    jsonl_.flush();
    if (!jsonl_) note_failure(errno);
  }
  if (options_.human != nullptr) {
    *options_.human << paint(render_human(event), tint_of(event), options_.color) << '\n';
    options_.human->flush();
  }
}

}  // namespace hz
