#include "hz/course/trace_html.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hz/cli.hpp"
#include "hz/course/lines.hpp"
#include "hz/json_integer.hpp"
#include "hz/saturating.hpp"
#include "hz/text.hpp"
#include "hz/trace_time.hpp"
#include "hz/trace_words.hpp"

namespace hz::course {

using nlohmann::json;

namespace {

// ------------------------------------------------------------------ texto

// Lê um código UTF-8 em `s[i]`; devolve o tamanho da sequência, ou 0 se ela
// for inválida (curta, longa demais, sobrelonga, surrogate, acima de U+10FFFF).
std::size_t decode_utf8(std::string_view s, std::size_t i, unsigned& cp) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned b0 = byte(i);
  std::size_t len = 0;
  unsigned min = 0;
  if (b0 < 0x80) {
    cp = b0;
    return 1;
  } else if ((b0 & 0xE0) == 0xC0) {
    len = 2, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

// O texto chega do modelo e das ferramentas: um ESC cru ou um byte solto não
// pode virar marcação nem sumir calado. Bytes que não são UTF-8 viram U+FFFD;
// controles aparecem como no trace do terminal (hz::printable, sobre o UTF-8
// já válido): \x1b, \x7f, \u0085. O \r de um \r\n some.
std::string visible_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    unsigned cp = 0;
    const std::size_t len = decode_utf8(s, i, cp);
    if (len == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD em UTF-8
      ++i;
      continue;
    }
    if (cp != '\r' || i + 1 == s.size() || s[i + 1] != '\n') out.append(s.substr(i, len));
    i += len;
  }
  return printable(out);
}

std::string escape(std::string_view s) {
  static constexpr std::string_view kSpecial = "&<>\"'";
  static constexpr const char* kEntities[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (char c : s) {
    const std::size_t k = kSpecial.find(c);
    out += k == std::string_view::npos ? std::string_view(&c, 1) : kEntities[k];
  }
  return out;
}

std::string dump(const json& value, int indent = -1) {
  return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

// ------------------------------------------------------- campos do evento

// Os campos podem faltar ou vir com o tipo errado: a página mostra o que dá.
// O valor de `key`, ou nullptr se faltar (ou se `object` não for um objeto).
const json* member(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::optional<long long> integer(const json& object, const char* key) {
  const json* value = member(object, key);
  return value != nullptr ? json_integer(*value) : std::nullopt;
}

// Um número finito, ou 0.
double real(const json& object, const char* key) {
  const json* value = member(object, key);
  const double v = value != nullptr && value->is_number() ? value->get<double>() : 0;
  return std::isfinite(v) ? v : 0;
}

std::string field(const json& object, const char* key) {
  const json* value = member(object, key);
  if (value == nullptr || value->is_null()) return {};
  return value->is_string() ? value->get<std::string>() : dump(*value);
}

// Os tokens do "usage" de um model_response ou de um turn_end, os que houver.
struct Tokens {
  std::optional<long long> prompt;
  std::optional<long long> completion;
};

Tokens tokens_of(const json& event) {
  const json* usage = member(event, "usage");
  if (usage == nullptr) return {};
  return {integer(*usage, "prompt_tokens"), integer(*usage, "completion_tokens")};
}

using hz::words::plural;

std::optional<bool> boolean(const json& object, const char* key) {
  const json* value = member(object, key);
  if (value == nullptr || !value->is_boolean()) return std::nullopt;
  return value->get<bool>();
}

bool flag(const json& object, const char* key) { return boolean(object, key).value_or(false); }

// A hora do evento ("time"), em nanossegundos desde 1970; vazio se faltar
// (um trace de antes das horas) ou não for uma hora do trace.
std::optional<std::int64_t> time_of(const json& event) {
  const json* time = member(event, "time");
  if (time == nullptr || !time->is_string()) return std::nullopt;
  return parse_trace_time(time->get_ref<const std::string&>());
}

// O "duration_ms" de um evento, se for um número que serve.
std::optional<double> duration_of(const json& event) {
  const json* value = member(event, "duration_ms");
  if (value == nullptr || !value->is_number()) return std::nullopt;
  const double ms = value->get<double>();
  if (!std::isfinite(ms) || ms < 0 || ms > 1e15) return std::nullopt;
  return ms;
}

// Um valor em dólares que serve: finito e dentro de ±10^12 (como no trace do terminal).
double dollars(const json& object, const char* key) {
  const double value = real(object, key);
  return std::fabs(value) <= 1e12 ? value : 0;
}

// Um número com um formato do printf ("%.1f"): todos os daqui cabem no buffer.
std::string printf_text(const char* format, double value) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// "412 ms", "0.42 ms", "2.35 s".
std::string duration_text(double ms) {
  if (ms < 1) return printf_text("%.2f ms", ms);
  if (ms < 10) return printf_text("%.1f ms", ms);
  if (ms < 1000) return printf_text("%.0f ms", ms);
  return printf_text("%.2f s", ms / 1000);
}

// ------------------------------------------------------------------ modelo

// Um nó da linha do tempo. Uma chamada ao modelo junta model_request e
// model_response (ou model_error: a tentativa falhou) e guarda, como filhos,
// o que aconteceu até a próxima chamada (ferramentas, avisos). Uma ferramenta
// junta tool_start e tool_end.
struct Node {
  enum class Kind { call, tool, other, invalid };
  Kind kind = Kind::other;
  int number = 0;  // chamada N, ferramenta N, evento N ou linha N (inválida)
  int line = 0;    // a linha do trace do primeiro evento
  json first;
  std::optional<json> second;
  std::string raw;                    // a linha inválida, como veio
  bool failed = false;                // chamada: terminou em model_error; ferramenta: "ok": false
  bool retry = false;                 // chamada: nova tentativa da anterior, que falhou
  std::optional<std::int64_t> start;  // a hora do primeiro evento
  std::optional<std::int64_t> end;    // a hora do segundo
  std::vector<Node> children;

  // A duração: o "duration_ms" de quem fechou, ou a diferença das horas.
  std::optional<double> duration_ms() const {
    if (second) {
      if (auto ms = duration_of(*second)) return ms;
    }
    if (start && end && *end >= *start) return hz::duration_ms(*end - *start);
    return std::nullopt;
  }
};

struct Turn {
  int number = 0;
  std::vector<Node> entries;
  std::optional<json> end;
  int end_line = 0;
  std::optional<std::int64_t> start_time;  // a do primeiro evento com hora
  std::optional<std::int64_t> end_time;    // a do último
  int calls = 0;                           // model_request que não são novas tentativas
  int retries = 0;                         // model_request depois de uma tentativa que falhou

  // Como o turn_end conta (as palavras da linha do terminal); sem turn_end, contado aqui.
  long long model_calls() const { return counted("turns", calls); }
  long long model_retries() const { return counted("retries", retries); }
  long long counted(const char* key, int here) const {
    return (end ? integer(*end, key) : std::nullopt).value_or(here);
  }
  // "cost_known" do turn_end (etapa 02 em diante); vazio na etapa 01.
  std::optional<bool> cost_known() const {
    return end ? boolean(*end, "cost_known") : std::nullopt;
  }
};

struct Model {
  std::vector<Turn> turns;
  TraceSummary summary;
  long long prompt_total = 0;
  long long completion_total = 0;
  double cost = 0;
  bool cost_unknown = false;  // algum turn_end disse "cost_known": false
  std::optional<std::int64_t> first_time;
  std::optional<std::int64_t> last_time;
  int first_untimed_line = 0;  // a primeira linha de evento sem "time" (0: nenhuma)
};

class Builder {
 public:
  void add_line(int line_number, std::string_view line) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;
    json event = json::parse(line.begin(), line.end(), nullptr, false);
    if (event.is_discarded() || !event.is_object() || !event.contains("event") ||
        !event["event"].is_string()) {
      Node node;
      node.kind = Node::Kind::invalid;
      node.number = line_number;
      node.line = line_number;
      node.raw = std::string(line);
      ++model_.summary.invalid_lines;
      container().push_back(std::move(node));
      return;
    }
    ++model_.summary.events;
    line_ = line_number;
    now_ = time_of(event);
    if (now_) {
      if (!model_.first_time) model_.first_time = now_;
      model_.last_time = std::max(model_.last_time.value_or(*now_), *now_);
      if (!current_.start_time) current_.start_time = now_;
      current_.end_time = std::max(current_.end_time.value_or(*now_), *now_);
    } else {
      ++model_.summary.untimed_events;
      if (model_.first_untimed_line == 0) model_.first_untimed_line = line_number;
    }
    const std::string name = event["event"].get<std::string>();
    if (name == "model_request") {
      start_call(std::move(event));
    } else if ((name == "model_response" || name == "model_error") && open_call() != nullptr &&
               !open_call()->second) {
      finish_call(std::move(event), name == "model_error");
    } else if (name == "tool_start") {
      container().push_back(
          node_of(Node::Kind::tool, ++model_.summary.tool_calls, std::move(event)));
    } else if (name == "tool_end" && finish_tool(event)) {
      // casado com o tool_start
    } else if (name == "turn_end") {
      finish_turn(std::move(event));
    } else {
      container().push_back(node_of(Node::Kind::other, ++others_, std::move(event)));
    }
  }

  Model take() {
    if (!current_.entries.empty()) close_turn();
    TraceSummary& s = model_.summary;
    s.turns = static_cast<int>(model_.turns.size());
    for (const Turn& t : model_.turns) {
      s.model_calls = saturating_add(s.model_calls, t.model_calls());
      s.retries = saturating_add(s.retries, t.model_retries());
    }
    s.timed = s.events > 0 && s.untimed_events == 0;
    if (model_.first_time && model_.last_time) {
      s.duration_ms = hz::duration_ms(*model_.last_time - *model_.first_time);
    }
    return std::move(model_);
  }

 private:
  Node* open_call() { return call_ ? &current_.entries[*call_] : nullptr; }

  std::vector<Node>& container() {
    Node* call = open_call();
    return call != nullptr ? call->children : current_.entries;
  }

  Node node_of(Node::Kind kind, int number, json event) {
    Node node;
    node.kind = kind;
    node.number = number;
    node.line = line_;
    node.start = now_;
    node.first = std::move(event);
    return node;
  }

  void start_call(json event) {
    Node node = node_of(Node::Kind::call, ++model_.summary.attempts, std::move(event));
    const Node* previous = open_call();
    node.retry = previous != nullptr && previous->failed;
    ++(node.retry ? current_.retries : current_.calls);
    current_.entries.push_back(std::move(node));
    call_ = current_.entries.size() - 1;
    model_.summary.prompt_tokens.push_back(-1);
  }

  void finish_call(json event, bool failed) {
    Node* call = open_call();
    if (!failed) {
      const Tokens tokens = tokens_of(event);
      if (tokens.prompt) {
        model_.summary.prompt_tokens.back() = *tokens.prompt;
        model_.prompt_total = saturating_add(model_.prompt_total, *tokens.prompt);
      }
      model_.completion_total =
          saturating_add(model_.completion_total, tokens.completion.value_or(0));
    }
    call->failed = failed;
    call->end = now_;
    call->second = std::move(event);
  }

  // Casa pelo call_id com a ferramenta aberta mais recente; sem id que case,
  // com a última aberta. Sem nenhuma aberta, o evento aparece sozinho.
  bool finish_tool(const json& event) {
    std::vector<Node>& nodes = container();
    const std::string id = field(event, "call_id");
    Node* match = nullptr;
    for (auto it = nodes.rbegin(); it != nodes.rend() && match == nullptr; ++it) {
      if (it->kind == Node::Kind::tool && !it->second && field(it->first, "call_id") == id) {
        match = &*it;
      }
    }
    for (auto it = nodes.rbegin(); it != nodes.rend() && match == nullptr; ++it) {
      if (it->kind == Node::Kind::tool && !it->second) match = &*it;
    }
    if (match == nullptr) return false;
    if (!flag(event, "ok")) ++model_.summary.tool_errors;
    match->failed = !flag(event, "ok");
    match->end = now_;
    match->second = event;
    return true;
  }

  void finish_turn(json event) {
    model_.summary.outcome = field(event, "outcome");
    model_.cost += dollars(event, "cost_usd");
    if (boolean(event, "cost_known") == false) model_.cost_unknown = true;
    current_.end = std::move(event);
    current_.end_line = line_;
    close_turn();
  }

  void close_turn() {
    current_.number = static_cast<int>(model_.turns.size()) + 1;
    model_.turns.push_back(std::move(current_));
    current_ = Turn{};
    call_.reset();
  }

  Model model_;
  Turn current_;
  std::optional<std::size_t> call_;  // índice da chamada aberta em current_.entries
  int others_ = 0;
  int line_ = 0;
  std::optional<std::int64_t> now_;  // a hora do evento sendo lido
};

Model build_model(std::string_view jsonl) {
  Builder builder;
  int line_number = 0;
  std::size_t start = 0;
  while (start < jsonl.size()) {
    std::size_t end = jsonl.find('\n', start);
    if (end == std::string_view::npos) end = jsonl.size();
    builder.add_line(++line_number, jsonl.substr(start, end - start));
    start = end + 1;
  }
  return builder.take();
}

// Todos os nós, na ordem do trace: cada entrada de um turno e, logo depois,
// os filhos dela.
std::vector<const Node*> all_nodes(const Model& model) {
  std::vector<const Node*> nodes;
  for (const Turn& t : model.turns) {
    for (const Node& e : t.entries) {
      nodes.push_back(&e);
      for (const Node& c : e.children) nodes.push_back(&c);
    }
  }
  return nodes;
}

// ------------------------------------------------------------------ página

// As classes e as âncoras são em inglês; o texto que a pessoa lê, em português.
constexpr const char* kStyle = R"CSS(
:root {
  --bg: #f6f7f9; --paper: #ffffff; --ink: #1d2430; --muted: #5f6b7a; --rule: #dfe3e8;
  --blue: #2f6fde; --blue-soft: #e8f0fd; --green: #1f8a4c; --green-soft: #e6f5ec;
  --red: #c0392b; --red-soft: #fbeaea; --amber: #b26a00; --amber-soft: #fdf3e1;
  --grey-soft: #eef1f4;
  --mono: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
a { color: var(--blue); text-decoration: none; }
a:hover { text-decoration: underline; }
header.top { background: #1d2430; color: #fff; padding: 22px 0 14px; }
header.top .width, main { max-width: 980px; margin: 0 auto; padding: 0 20px; }
header.top .about { margin: 0; color: #9fb0c8; font-size: 13px; letter-spacing: .04em;
  text-transform: uppercase; }
header.top h1 { margin: 4px 0 10px; font-size: 24px; font-weight: 600; word-break: break-all; }
header.top nav a { color: #cfe0ff; margin-right: 18px; font-size: 14px; }
h2 { font-size: 19px; margin: 34px 0 10px; }
h3 { font-size: 16px; margin: 0; }
.outcome-banner { display: block; margin-top: 22px; border-radius: 12px; padding: 16px 20px;
  border: 3px solid var(--red); background: var(--red-soft); color: var(--ink); }
a.outcome-banner:hover { text-decoration: none; }
.outcome-banner .label { display: block; color: var(--muted); font-size: 13px;
  text-transform: uppercase; letter-spacing: .06em; }
.outcome-banner .value { display: block; font-family: var(--mono); font-size: 40px;
  font-weight: 800; line-height: 1.15; color: var(--red); }
.outcome-banner .meaning { display: block; font-size: 17px; font-weight: 600; margin-top: 2px; }
.outcome-banner .detail { display: block; color: var(--muted); font-size: 14px; margin-top: 4px; }
.outcome-banner.ok { border-color: var(--green); background: var(--green-soft); }
.outcome-banner.ok .value { color: var(--green); }
.outcome-banner.warning { border-color: var(--amber); background: var(--amber-soft); }
.outcome-banner.warning .value { color: var(--amber); }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(170px, 1fr)); gap: 12px;
  margin-top: 14px; }
.card { display: block; background: var(--paper); border: 1px solid var(--rule);
  border-radius: 10px; padding: 12px 14px; color: var(--ink); }
a.card:hover { text-decoration: none; border-color: var(--blue); }
.card .label { display: block; color: var(--muted); font-size: 12px; text-transform: uppercase;
  letter-spacing: .04em; }
.card .value { display: block; font-size: 24px; font-weight: 650; margin-top: 2px;
  white-space: nowrap; }
.card .value .unknown { font-size: 18px; }
.card .detail { display: block; color: var(--muted); font-size: 13px; }
.card.warning { background: var(--amber-soft); border-color: #f0d7a6; }
.card.warning .value { color: var(--amber); }
.card.error { background: var(--red-soft); border-color: #efc4c0; }
.card.error .value { color: var(--red); }
.panel { background: var(--paper); border: 1px solid var(--rule); border-radius: 10px;
  padding: 14px 16px; margin-bottom: 18px; }
.note { color: var(--muted); margin: 0 0 8px; font-size: 14px; }
svg.chart { width: 100%; height: auto; display: block; }
svg.chart .grid { stroke: var(--rule); stroke-width: 1; }
svg.chart .axis { fill: var(--muted); font-size: 12px; }
svg.chart .bar { fill: var(--blue); }
svg.chart a:hover .bar { fill: #1d4fa8; }
svg.chart .bar.tool { fill: var(--green); }
svg.chart .bar.failed { fill: var(--red); }
svg.chart .bar.retry { fill: #7fa6ee; }
svg.chart .row-label { fill: var(--ink); font-size: 12px; font-family: var(--mono); }
svg.chart .bar-value { fill: var(--ink); font-size: 11px; }
svg.chart .separator { stroke: var(--muted); stroke-dasharray: 4 4; }
svg.chart .turn-label { fill: var(--muted); font-size: 11px; }
svg.chart .outcome-line { stroke: var(--ink); stroke-width: 2; }
.turn { margin-bottom: 26px; }
.turn > h3 { margin: 0 0 10px; }
ol.track { list-style: none; margin: 0; padding: 0 0 0 22px; border-left: 2px solid var(--rule); }
ol.track > li { position: relative; margin: 0 0 12px; }
ol.track > li::before { content: ""; position: absolute; left: -31px; top: 14px; width: 12px;
  height: 12px; border-radius: 50%; background: var(--bg); border: 2px solid var(--muted); }
ol.track > li.call::before { border-color: var(--blue); background: var(--blue-soft); }
ol.track > li.outcome::before { border-color: var(--ink); background: var(--ink); }
.box { background: var(--paper); border: 1px solid var(--rule); border-radius: 10px;
  padding: 10px 14px; }
.call > .box { border-left: 4px solid var(--blue); }
.call.failed > .box { border-left-color: var(--red); }
.heading { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 10px; }
.num { font-family: var(--mono); font-size: 13px; color: var(--muted); }
.meta { color: var(--muted); font-size: 13px; }
.at { font-family: var(--mono); font-size: 12px; color: var(--muted); }
.duration { font-family: var(--mono); font-size: 13px; font-weight: 600; }
.reply { margin-top: 4px; font-size: 14px; }
.reply.failed { color: var(--red); }
.tokens, .cost { font-family: var(--mono); }
ol.children { list-style: none; margin: 10px 0 0; padding: 0; }
ol.children > li { margin: 8px 0 0; }
.tool { border: 1px solid var(--rule); border-radius: 8px; padding: 8px 12px; background: #fbfcfd; }
.tool.ok { border-left: 4px solid var(--green); }
.tool.failed { border-left: 4px solid var(--red); }
.tool.open { border-left: 4px solid var(--amber); }
code, pre { font-family: var(--mono); font-size: 13px; }
code.name { font-weight: 650; }
pre { margin: 6px 0 0; padding: 8px 10px; background: var(--grey-soft); border-radius: 6px;
  white-space: pre-wrap; word-break: break-word; max-height: 420px; overflow: auto; }
pre.result { background: #f1f6f2; }
.failed pre.result { background: #fbf0ef; }
.pre-label { font-size: 12px; color: var(--muted); margin-top: 6px; }
details > summary { cursor: pointer; color: var(--muted); font-size: 13px; margin-top: 6px; }
.badge { display: inline-block; font-size: 12px; font-weight: 600; padding: 0 8px;
  border-radius: 20px; }
.badge.ok { background: var(--green-soft); color: var(--green); }
.badge.failed { background: var(--red-soft); color: var(--red); }
.badge.open, .badge.slow { background: var(--amber-soft); color: var(--amber); }
.badge.retry { background: var(--blue-soft); color: var(--blue); }
.event { border: 1px dashed var(--rule); border-radius: 8px; padding: 8px 12px;
  background: var(--paper); }
.event .text { margin-top: 2px; }
.event.info { border: 1px solid #c9d9f5; background: var(--blue-soft); }
.event.warning { border: 1px solid #f0d7a6; background: var(--amber-soft); }
.event.error { border: 1px solid #efc4c0; background: var(--red-soft); }
.event.stop { border: 3px solid var(--red); background: var(--red-soft); font-size: 16px; }
.event.stop strong { color: var(--red); }
.event.skipped { border: 1px dashed var(--muted); background: var(--grey-soft); color: var(--muted); }
.event.invalid { border: 1px solid #efc4c0; background: var(--red-soft); }
ul.decisions { margin: 4px 0 0; padding-left: 20px; font-size: 14px; }
dl.fields { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px;
  margin: 6px 0 0; font-size: 13px; }
dl.fields dt { color: var(--muted); font-family: var(--mono); }
dl.fields dd { margin: 0; font-family: var(--mono); white-space: pre-wrap; word-break: break-word; }
dl.arguments { background: var(--grey-soft); border-radius: 6px; padding: 8px 10px; }
dl.fields dd details > summary { margin: 0; }
.outcome .box { border-width: 2px; font-size: 15px; }
.outcome.ok .box { border-color: var(--green); background: var(--green-soft); }
.outcome.warning .box { border-color: var(--amber); background: var(--amber-soft); }
.outcome.error .box { border-color: var(--red); background: var(--red-soft); }
.outcome .outcome-label { font-family: var(--mono); font-weight: 700; }
footer { max-width: 980px; margin: 30px auto 40px; padding: 0 20px; color: var(--muted);
  font-size: 13px; }
)CSS";

// success é verde; parar num freio (max_turns, budget, timeout, repetition)
// é âmbar; falha do provedor, cancelamento e journal são vermelhos.
const char* tone_of_outcome(const std::string& outcome) {
  if (outcome == "success") return "ok";
  if (outcome == "provider_error" || outcome == "cancelled" || outcome == "journal" ||
      outcome.empty()) {
    return "error";
  }
  return "warning";
}

// O que cada desfecho quer dizer, numa frase.
std::string meaning_of_outcome(const std::string& outcome) {
  if (outcome == "success") return "o modelo respondeu em texto, sem pedir mais ferramentas";
  if (outcome == "max_turns") return "o turno parou no limite de chamadas ao modelo (--max-turns)";
  if (outcome == "budget") return "o turno parou porque o orçamento da conversa acabou";
  if (outcome == "timeout") return "o turno parou porque o prazo acabou";
  if (outcome == "provider_error") {
    return "a chamada ao modelo falhou e as novas tentativas acabaram (ou não valiam)";
  }
  if (outcome == "cancelled") return "o turno foi interrompido (Ctrl-C, SIGTERM ou SIGHUP)";
  if (outcome == "repetition") return "o modelo repetiu a mesma chamada depois do aviso";
  if (outcome == "journal") return "o journal não pôde ser gravado: o turno parou";
  if (outcome.empty()) return "o trace termina antes do turn_end";
  return "desfecho que esta página não conhece";
}

// Um múltiplo "redondo" (1, 2 ou 5 vezes 10^k) que cabe ~4 vezes no máximo.
double nice_step(double max) {
  const double raw = std::max(max, 1e-9) / 4.0;
  double pow10 = 1e-6;
  while (pow10 * 10 <= raw) pow10 *= 10;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * pow10 >= raw) return m * pow10;
  }
  return pow10 * 10;
}

std::string num(double v) { return printf_text("%.1f", v); }

// Uma marca do eixo do tempo: "0 s", "250 ms", "1.5 s".
std::string tick_text(double ms) {
  if (ms == 0) return "0 s";
  return ms < 1000 ? printf_text("%g ms", ms) : printf_text("%g s", ms / 1000);
}

// Como um evento das etapas aparece: o tom da caixa, o título e o texto.
struct EventView {
  std::string tone;   // info, warning, error, stop, skipped ou vazio
  std::string title;  // HTML
  std::string text;   // HTML (pode ser vazio)
};

std::string cycle_names(const json& event) {
  auto it = event.find("cycle");
  if (it == event.end() || !it->is_array()) return "?";
  std::string names;
  for (const json& name : *it) {
    names +=
        (names.empty() ? "" : " → ") + (name.is_string() ? name.get<std::string>() : dump(name));
  }
  return names.empty() ? "?" : names;
}

// O que travou: "run_shell 3 vezes com o mesmo resultado" ou o ciclo.
std::string stuck_call(const json& event) {
  if (field(event, "kind") == "cycle") {
    return "o ciclo <code>" + html_text(cycle_names(event)) +
           "</code> duas vezes com os mesmos resultados";
  }
  return "<code>" + html_text(field(event, "name")) + "</code> " +
         std::to_string(integer(event, "count").value_or(0)) + " vezes com o mesmo resultado";
}

std::string number_text(const json& event, const char* key) {
  auto n = integer(event, key);
  return n ? std::to_string(*n) : std::string("?");
}

EventView view_of(const json& e) {
  const std::string name = field(e, "event");
  if (name == "retry") {
    EventView v{"info",
                "↻ Nova tentativa " + number_text(e, "attempt") + " em " +
                    number_text(e, "delay_ms") + " ms",
                ""};
    const std::string reason = field(e, "reason");
    if (!reason.empty()) v.text = "depois de: " + html_text(reason);
    return v;
  }
  if (name == "stream_fallback") {
    return {"warning", "⚠ Streaming desligado nesta chamada",
            "a resposta veio inteira: " + html_text(field(e, "reason"))};
  }
  if (name == "tool_skipped") {
    return {"skipped",
            "⊘ <code class=\"name\">" + html_text(field(e, "name")) + "</code> não rodou",
            "o turno terminou antes (<code>" + html_text(field(e, "outcome")) +
                "</code>); o modelo recebe um resultado que diz isso · id <code>" +
                html_text(field(e, "call_id")) + "</code>"};
  }
  if (name == "note") {
    return {"info", "⚑ Nota ao modelo",
            "<pre class=\"note-text\">" + html_text(field(e, "text")) + "</pre>"};
  }
  if (name == "tool_repetition") {
    const std::string kind = field(e, "repetition");
    const std::string who = "<code class=\"name\">" + html_text(field(e, "name")) + "</code>";
    if (kind == "repeat") {
      return {"warning",
              "↻ " + who + ": repetição " + number_text(e, "repeat_count") + "/" +
                  number_text(e, "threshold"),
              "a mesma chamada, com o mesmo resultado"};
    }
    if (kind == "progress") {
      return {"info", "↻ " + who + ": mesma chamada, resultado novo",
              "conta como progresso, não como repetição"};
    }
    if (kind == "cycle") {
      return {"warning", "↻ " + who + ": ciclo",
              "a mesma sequência de chamadas, com os mesmos resultados"};
    }
    return {"warning", "↻ " + who + ": " + html_text(kind), ""};
  }
  if (name == "repetition_warning") {
    return {"warning", "⚠ Aviso de repetição: " + stuck_call(e),
            "o modelo recebe um aviso; se repetir, o turno para"};
  }
  if (name == "repetition_stop") {
    return {"stop", "■ O turno para: repetição depois do aviso",
            stuck_call(e) + ", mesmo depois do aviso"};
  }
  if (name == "journal_resume") {
    EventView v{"info",
                "↺ Retomada do journal: " +
                    plural(integer(e, "records").value_or(0), "registro", "registros") +
                    " · próximo passo: <code>" + html_text(field(e, "next")) + "</code>",
                ""};
    auto decisions = e.find("decisions");
    if (decisions != e.end() && decisions->is_array() && !decisions->empty()) {
      v.text = "<ul class=\"decisions\">";
      for (const json& d : *decisions) {
        v.text += "<li><code>" + html_text(field(d, "name")) + "</code> (" +
                  html_text(field(d, "call_id")) + "): <strong>" + html_text(field(d, "decision")) +
                  "</strong> · " + html_text(field(d, "reason")) + "</li>";
      }
      v.text += "</ul>";
    }
    return v;
  }
  if (name == "model_response") {
    return {"warning", "Resposta do modelo sem pedido <code class=\"meta\">model_response</code>",
            ""};
  }
  if (name == "model_error") {
    return {"error", "✗ Falha do modelo sem pedido <code class=\"meta\">model_error</code>",
            html_text(field(e, "message"))};
  }
  if (name == "tool_end") {
    return {"warning", "Fim de ferramenta sem início <code class=\"meta\">tool_end</code>", ""};
  }
  return {"", "<strong><code>" + html_text(name) + "</code></strong>", ""};
}

// O custo como a linha do terminal o diz: com "cost_known" (etapa 02 em
// diante), o valor ou "custo desconhecido", porque preço desconhecido não é
// custo zero; sem ele (etapa 01), só quando houve custo.
std::string cost_text(double cost, std::optional<bool> known, bool estimated) {
  std::string text;
  if (known) {
    text = *known ? words::usd(cost) : std::string("custo desconhecido");
  } else if (cost > 0) {
    text = words::usd(cost);
  }
  if (!text.empty() && estimated && known != false) text += " (estimado)";
  return text;
}

class Page {
 public:
  Page(const Model& model, std::string_view title) : model_(model), title_(title) {
    slowest_call_ = slowest(Node::Kind::call);
    slowest_tool_ = slowest(Node::Kind::tool);
  }

  std::string render() {
    out_ += "<!DOCTYPE html>\n<html lang=\"pt-BR\">\n<head>\n<meta charset=\"utf-8\">\n";
    out_ += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    out_ += "<title>Trace: " + html_text(title_) + "</title>\n";
    out_ += "<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
    header();
    out_ += "<main>\n";
    outcome_banner();
    cards();
    timeline();
    plot_section();
    out_ += "</main>\n";
    out_ += "<footer>Página gerada por <code>hz-course trace-html</code> a partir de " +
            html_text(title_) + ": " + plural(model_.summary.events, "evento", "eventos");
    if (model_.summary.invalid_lines > 0) {
      out_ += ", " + plural(model_.summary.invalid_lines, "linha inválida", "linhas inválidas");
    }
    out_ += ".</footer>\n</body>\n</html>\n";
    return std::move(out_);
  }

 private:
  // A chamada e a ferramenta mais lentas, marcadas na linha do tempo (só
  // quando há mais de uma com duração para comparar).
  const Node* slowest(Node::Kind kind) const {
    const Node* best = nullptr;
    int timed = 0;
    for (const Node* n : all_nodes(model_)) {
      if (n->kind != kind || !n->duration_ms()) continue;
      ++timed;
      if (best == nullptr || *n->duration_ms() > *best->duration_ms()) best = n;
    }
    return timed > 1 ? best : nullptr;
  }

  void header() {
    out_ += "<header class=\"top\"><div class=\"width\">\n";
    out_ += "<p class=\"about\">harness-zero · trace</p>\n";
    out_ += "<h1>" + html_text(title_) + "</h1>\n<nav>";
    out_ += "<a href=\"#outcome\">Desfecho</a><a href=\"#summary\">Resumo</a>";
    out_ += "<a href=\"#timeline\">Linha do tempo</a><a href=\"#tokens\">Tokens por chamada</a>";
    if (model_.turns.size() > 1) {
      for (const Turn& t : model_.turns) {
        const std::string n = std::to_string(t.number);
        out_ += "<a href=\"#turn-" + n + "\">Turno " + n + "</a>";
      }
    }
    out_ += "</nav>\n</div></header>\n";
  }

  // A linha do desfecho de um turno, com as palavras do trace do terminal:
  // "5 chamadas ao modelo · 3277 tokens (...) · US$ 0.01 · 2.40 s".
  std::string turn_line(const Turn& t) const {
    std::vector<std::string> parts;
    parts.push_back(words::model_calls_text(t.model_calls(), t.model_retries()));
    if (!t.end) return join(parts);
    const json& end = *t.end;
    const auto [prompt, completion] = tokens_of(end);
    if (prompt || completion) {
      parts.push_back(std::to_string(saturating_add(prompt.value_or(0), completion.value_or(0))) +
                      " tokens (" + std::to_string(prompt.value_or(0)) + " enviados + " +
                      std::to_string(completion.value_or(0)) + " gerados)");
    }
    const std::string cost =
        cost_text(dollars(end, "cost_usd"), t.cost_known(), flag(end, "estimated"));
    if (!cost.empty()) parts.push_back("<span class=\"cost\">" + cost + "</span>");
    if (auto ms = duration_of(end)) {
      parts.push_back("<span class=\"duration\">" + duration_text(*ms) + "</span>");
    }
    const std::string error = field(end, "error");
    if (!error.empty()) parts.push_back("erro: " + html_text(error));
    return join(parts);
  }

  const Turn* last_closed() const {
    const Turn* last = nullptr;
    for (const Turn& t : model_.turns) {
      if (t.end) last = &t;
    }
    return last;
  }

  // O desfecho é o que mais aparece na página: uma faixa larga, na cor dele.
  void outcome_banner() {
    const Turn* last = last_closed();
    const std::string outcome = last != nullptr ? field(*last->end, "outcome") : std::string();
    const std::string tone = tone_of_outcome(outcome);
    const std::string cls = "outcome-banner" + (tone == "error" ? std::string() : " " + tone);
    if (last != nullptr) {
      out_ += "<a id=\"outcome\" class=\"" + cls + "\" href=\"#turn-" +
              std::to_string(last->number) + "-outcome\">";
    } else {
      out_ += "<div id=\"outcome\" class=\"" + cls + "\">";
    }
    out_ += "<span class=\"label\">desfecho" +
            std::string(model_.turns.size() > 1 ? " do último turno" : "") + "</span>";
    out_ += "<span class=\"value value-outcome\">" +
            html_text(outcome.empty() ? std::string("—") : outcome) + "</span>";
    out_ += "<span class=\"meaning\">" + html_text(meaning_of_outcome(outcome)) + "</span>";
    if (last != nullptr) out_ += "<span class=\"detail\">" + turn_line(*last) + "</span>";
    out_ += last != nullptr ? "</a>\n" : "</div>\n";
  }

  void card(const std::string& tone, const std::string& href, const std::string& label,
            const std::string& value_html, const std::string& detail_html) {
    const std::string cls = "card" + (tone.empty() ? "" : " " + tone);
    if (href.empty()) {
      out_ += "<div class=\"" + cls + "\">";
    } else {
      out_ += "<a class=\"" + cls + "\" href=\"" + href + "\">";
    }
    out_ +=
        "<span class=\"label\">" + label + "</span><span class=\"value\">" + value_html + "</span>";
    if (!detail_html.empty()) out_ += "<span class=\"detail\">" + detail_html + "</span>";
    out_ += href.empty() ? "</div>\n" : "</a>\n";
  }

  void cards() {
    const TraceSummary& s = model_.summary;
    out_ += "<section id=\"summary\" class=\"cards\" aria-label=\"Resumo\">\n";
    std::string calls_detail = words::model_calls_text(s.model_calls, s.retries);
    if (s.turns > 1) calls_detail += " em " + plural(s.turns, "turno", "turnos");
    card(s.retries > 0 ? "warning" : "", "#timeline", "chamadas ao modelo",
         "<span class=\"value-calls\">" + std::to_string(s.model_calls) + "</span>",
         "<span class=\"calls-text\">" + calls_detail + "</span>");
    card(s.tool_errors > 0 ? "warning" : "", "", "ferramentas",
         "<span class=\"value-tools\">" + std::to_string(s.tool_calls) + "</span>",
         s.tool_errors > 0 ? plural(s.tool_errors, "com erro", "com erro") : "todas ok");
    card("", "#tokens", "tokens",
         "<span class=\"value-tokens\">" +
             std::to_string(saturating_add(model_.prompt_total, model_.completion_total)) +
             "</span>",
         std::to_string(model_.prompt_total) + " enviados + " +
             std::to_string(model_.completion_total) + " gerados");
    if (model_.cost > 0 || model_.cost_unknown || any_cost_known()) {
      // Preço desconhecido não é zero: sem nenhum turno de custo conhecido, o
      // valor é "desconhecido"; com alguns, o que se sabe e o aviso.
      const bool none_known = model_.cost_unknown && !any_cost_known();
      card(model_.cost_unknown ? "warning" : "", "", "custo",
           "<span class=\"value-cost\">" +
               (none_known ? std::string("<span class=\"unknown\">desconhecido</span>")
                           : words::usd(model_.cost)) +
               "</span>",
           none_known            ? "o modelo não tem preço na tabela"
           : model_.cost_unknown ? "mais os turnos de custo desconhecido (modelo sem preço)"
                                 : "");
    }
    if (s.duration_ms) {
      card("", "#timeline", "duração",
           "<span class=\"value-duration\">" + duration_text(*s.duration_ms) + "</span>",
           "do primeiro ao último evento");
    }
    if (s.invalid_lines > 0) {
      card("error", "", "linhas inválidas", std::to_string(s.invalid_lines),
           "não são um objeto JSON com \"event\"");
    }
    out_ += "</section>\n";
  }

  bool any_cost_known() const {
    for (const Turn& t : model_.turns) {
      if (t.cost_known() == true) return true;
    }
    return false;
  }

  // ------------------------------------------------------ linha do tempo

  void timeline() {
    out_ += "<section id=\"timeline\">\n<h2>Linha do tempo</h2>\n";
    if (model_.turns.empty()) {
      out_ += "<p class=\"note\">O trace está vazio.</p>\n";
    } else if (model_.summary.untimed_events > 0) {
      out_ += "<p class=\"note untimed\">" +
              plural(model_.summary.untimed_events, "evento não tem", "eventos não têm") +
              " hora (<code>time</code>; o primeiro na linha " +
              std::to_string(model_.first_untimed_line) +
              "): o trace foi gravado antes de o trace carimbar cada evento. A linha do tempo "
              "mostra a ordem; durações, só onde há horas.</p>\n";
    }
    waterfall();
    for (const Turn& t : model_.turns) turn(t);
    out_ += "</section>\n";
  }

  struct Row {
    const Node* node;
    std::int64_t start;
    double ms;
  };

  // Cada chamada e cada ferramenta como uma barra no tempo: onde começou e
  // quanto durou. Uma chamada lenta é uma barra comprida.
  void waterfall() {
    if (!model_.first_time || !model_.last_time) return;
    std::vector<Row> rows;
    for (const Node* n : all_nodes(model_)) {
      if ((n->kind == Node::Kind::call || n->kind == Node::Kind::tool) && n->start) {
        rows.push_back({n, *n->start, n->duration_ms().value_or(0)});
      }
    }
    if (rows.empty()) return;
    const std::int64_t origin = *model_.first_time;
    double total = static_cast<double>(*model_.last_time - origin) / 1e6;
    for (const Row& r : rows) {
      total = std::max(total, static_cast<double>(r.start - origin) / 1e6 + r.ms);
    }
    total = std::max(total, 0.001);
    const double step = nice_step(total);
    const double ceiling = std::max(step, std::ceil(total / step - 1e-9) * step);
    const double width = 900;
    const double left = 190;
    const double right = 70;
    const double top = 26;
    const double row_h = 20;
    const double height = top + row_h * static_cast<double>(rows.size()) + 12;
    const double plot_w = width - left - right;
    const auto x_of = [&](double ms) { return left + plot_w * ms / ceiling; };

    out_ +=
        "<div class=\"panel\">\n<p class=\"note\">Cada barra é uma chamada ao modelo (azul; "
        "vermelha se falhou) ou uma ferramenta (verde), do começo ao fim, na escala do "
        "tempo: o que demora aparece comprido. Clique para ir até ela.</p>\n";
    out_ += "<svg class=\"chart waterfall\" viewBox=\"0 0 " + num(width) + " " + num(height) +
            "\" role=\"img\" aria-labelledby=\"waterfall-title\" "
            "xmlns=\"http://www.w3.org/2000/svg\">\n";
    out_ += "<title id=\"waterfall-title\">" +
            plural(static_cast<long long>(rows.size()), "chamada ou ferramenta",
                   "chamadas e ferramentas") +
            " em " + duration_text(total) + "</title>\n";
    for (double v = 0; v <= ceiling + step / 2; v += step) {
      const std::string x = num(x_of(v));
      out_ += "<line class=\"grid\" x1=\"" + x + "\" x2=\"" + x + "\" y1=\"" + num(top - 6) +
              "\" y2=\"" + num(height - 8) + "\"></line>";
      out_ += "<text class=\"axis\" x=\"" + x + "\" y=\"" + num(top - 10) +
              "\" text-anchor=\"middle\">" + tick_text(v) + "</text>\n";
    }
    for (const Turn& t : model_.turns) {
      if (!t.end || !t.end_time) continue;
      const std::string x = num(x_of(static_cast<double>(*t.end_time - origin) / 1e6));
      out_ += "<line class=\"outcome-line\" x1=\"" + x + "\" x2=\"" + x + "\" y1=\"" +
              num(top - 4) + "\" y2=\"" + num(height - 8) + "\"><title>desfecho do turno " +
              std::to_string(t.number) + ": " + html_text(field(*t.end, "outcome")) +
              "</title></line>\n";
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      const Node& n = *r.node;
      const bool call = n.kind == Node::Kind::call;
      const std::string id = anchor_of(n);
      const double y = top + row_h * static_cast<double>(i);
      const double x = x_of(static_cast<double>(r.start - origin) / 1e6);
      const double w = std::max(2.0, x_of(static_cast<double>(r.start - origin) / 1e6 + r.ms) - x);
      std::string cls = call ? "bar call" : "bar tool";
      if (n.failed) cls += " failed";
      if (n.retry) cls += " retry";
      const std::string label =
          call ? "#" + std::to_string(n.number) + " chamada" : "⚙ " + field(n.first, "name");
      const std::string duration = n.second ? duration_text(r.ms) : "sem fim";
      out_ += "<a href=\"#" + id + "\"><text class=\"row-label\" x=\"" + num(left - 8) + "\" y=\"" +
              num(y + 14) + "\" text-anchor=\"end\">" + html_text(brief_label(label)) +
              "</text><rect class=\"" + cls + "\" x=\"" + num(x) + "\" y=\"" + num(y + 3) +
              "\" width=\"" + num(w) + "\" height=\"" + num(row_h - 6) + "\" rx=\"3\" data-ms=\"" +
              printf_text("%.3f", r.ms) + "\"><title>" + html_text(label) + ": " + duration +
              "</title></rect><text class=\"bar-value\" x=\"" + num(x + w + 4) + "\" y=\"" +
              num(y + 14) + "\">" + duration + "</text></a>\n";
    }
    out_ += "</svg>\n</div>\n";
  }

  static std::string brief_label(const std::string& label) {
    return label.size() > 26 ? label.substr(0, 24) + "…" : label;
  }

  static std::string anchor_of(const Node& n) {
    // Na ordem de Node::Kind: call, tool, other, invalid.
    static constexpr const char* kPrefix[] = {"call-", "tool-", "event-", "line-"};
    return kPrefix[static_cast<int>(n.kind)] + std::to_string(n.number);
  }

  // "+1.234 s" desde o primeiro evento do trace, e a duração; vazio sem hora.
  std::string timing(const Node& n, const Node* slowest) const {
    std::string text;
    if (n.start && model_.first_time) {
      const double seconds = static_cast<double>(*n.start - *model_.first_time) / 1e9;
      text += "<span class=\"at\">" + printf_text("+%.3f s", seconds) + "</span>";
    }
    if (auto ms = n.duration_ms()) {
      text += "<span class=\"duration\">" + duration_text(*ms) + "</span>";
      if (&n == slowest) text += "<span class=\"badge slow\">a mais lenta</span>";
    }
    return text;
  }

  void turn(const Turn& t) {
    const std::string n = std::to_string(t.number);
    out_ += "<section class=\"turn\" id=\"turn-" + n + "\">\n";
    if (model_.turns.size() > 1) out_ += "<h3>Turno " + n + "</h3>\n";
    out_ += "<ol class=\"track\">\n";
    for (const Node& e : t.entries) node(e, t, true);
    if (t.end) {
      outcome(t, "turn-" + n + "-outcome");
    } else {
      out_ +=
          "<li class=\"outcome error\"><div class=\"box\">Sem desfecho: o trace termina "
          "antes do <code>turn_end</code> (o processo parou no meio do turno?).</div></li>\n";
    }
    out_ += "</ol>\n</section>\n";
  }

  void node(const Node& e, const Turn& t, bool top_level) {
    switch (e.kind) {
      case Node::Kind::call:
        call(e, t);
        break;
      case Node::Kind::tool:
        tool(e, top_level);
        break;
      case Node::Kind::other:
        other(e);
        break;
      case Node::Kind::invalid:
        invalid(e);
        break;
    }
  }

  void call(const Node& e, const Turn& t) {
    const std::string n = std::to_string(e.number);
    out_ += "<li class=\"call" + std::string(e.failed ? " failed" : "") + "\" id=\"call-" + n +
            "\"><div class=\"box\">\n";
    out_ += "<div class=\"heading\"><a class=\"num\" href=\"#call-" + n + "\">#" + n +
            "</a><strong class=\"title\">→ Chamada ao modelo</strong>";
    if (e.retry) out_ += "<span class=\"badge retry\">nova tentativa</span>";
    out_ += timing(e, slowest_call_) + "<span class=\"meta\">";
    std::vector<std::string> meta;
    if (auto step = integer(e.first, "turn")) meta.push_back("volta " + std::to_string(*step));
    if (auto m = integer(e.first, "messages")) {
      meta.push_back(plural(*m, "mensagem no histórico", "mensagens no histórico"));
    }
    if (auto tools = integer(e.first, "tools")) {
      meta.push_back(plural(*tools, "ferramenta oferecida", "ferramentas oferecidas"));
    }
    const std::string model = field(e.first, "model");
    if (!model.empty()) meta.push_back("modelo <code>" + html_text(model) + "</code>");
    out_ += join(meta) + "</span></div>\n";

    if (!e.second) {
      out_ +=
          "<div class=\"reply\">← <span class=\"badge open\">sem resposta</span> "
          "<span class=\"meta\">nenhum <code>model_response</code> depois deste pedido</span>"
          "</div>\n";
    } else if (e.failed) {
      const json& r = *e.second;
      out_ += "<div class=\"reply failed\">✗ <strong>a tentativa";
      if (auto attempt = integer(r, "attempt")) out_ += " " + std::to_string(*attempt);
      out_ += " falhou</strong>: " + html_text(field(r, "message"));
      std::vector<std::string> why;
      const std::string kind = field(r, "kind");
      if (!kind.empty()) why.push_back("tipo <code>" + html_text(kind) + "</code>");
      if (auto status = integer(r, "status"); status && *status > 0) {
        why.push_back("HTTP " + std::to_string(*status));
      }
      if (flag(r, "billed")) {
        why.push_back("cobrada: <span class=\"cost\">" + words::usd(dollars(r, "cost_usd")) +
                      " (estimado)</span>");
      } else if (t.cost_known()) {
        why.push_back("nada cobrado");
      }
      if (!why.empty()) out_ += " · <span class=\"meta\">" + join(why) + "</span>";
      out_ += "</div>\n";
    } else {
      const json& r = *e.second;
      const long long calls = integer(r, "tool_calls").value_or(0);
      out_ += "<div class=\"reply\">← <strong>";
      out_ += calls == 0 ? std::string("resposta em texto")
                         : plural(calls, "chamada de ferramenta", "chamadas de ferramenta");
      out_ += "</strong>";
      const auto [prompt, completion] = tokens_of(r);
      if (prompt || completion) {
        out_ += " · <span class=\"tokens\"><span class=\"tokens-prompt\">" +
                (prompt ? std::to_string(*prompt) : std::string("—")) +
                "</span> enviados + <span class=\"tokens-completion\">" +
                (completion ? std::to_string(*completion) : std::string("—")) + "</span> gerados" +
                (flag(r, "estimated") ? " (estimados)" : "") + "</span>";
      } else {
        out_ += " · <span class=\"meta\">sem contagem de tokens</span>";
      }
      const std::string finish = field(r, "finish_reason");
      if (!finish.empty()) {
        out_ +=
            " · <span class=\"meta\">finish_reason <code>" + html_text(finish) + "</code></span>";
      }
      const std::string cost =
          cost_text(dollars(r, "cost_usd"), t.cost_known(), flag(r, "estimated"));
      if (!cost.empty()) out_ += " · <span class=\"cost call-cost\">" + cost + "</span>";
      out_ += "</div>\n";
    }
    if (!e.children.empty()) {
      out_ += "<ol class=\"children\">\n";
      for (const Node& child : e.children) node(child, t, false);
      out_ += "</ol>\n";
    }
    out_ += "</div></li>\n";
  }

  // Argumentos que são um objeto JSON viram uma lista campo → valor, com os
  // textos como texto (um write_file mostra o conteúdo, não "\n" escapados);
  // o resto aparece como veio, indentado se for JSON.
  void arguments(const json& start) {
    auto it = start.find("arguments");
    if (it == start.end() || it->is_null()) return;
    json parsed = *it;
    if (it->is_string()) {
      parsed = json::parse(it->get_ref<const std::string&>(), nullptr, false);
      if (parsed.is_discarded()) {
        block("arguments", "argumentos", it->get<std::string>());
        return;
      }
    }
    if (!parsed.is_object() || parsed.empty()) {
      block("arguments", "argumentos", dump(parsed, 2));
      return;
    }
    out_ += "<div class=\"pre-label\">argumentos</div><dl class=\"fields arguments\">";
    for (auto arg = parsed.begin(); arg != parsed.end(); ++arg) {
      out_ += "<dt>" + html_text(arg.key()) + "</dt><dd>";
      const std::string value = arg->is_string() ? arg->get<std::string>() : dump(*arg);
      if (is_long(value)) {
        out_ +=
            "<details><summary>" + size_of(value) + "</summary>" + html_text(value) + "</details>";
      } else {
        out_ += html_text(value);
      }
      out_ += "</dd>";
    }
    out_ += "</dl>\n";
  }

  static bool is_long(const std::string& text) {
    return text.size() > 700 || std::count(text.begin(), text.end(), '\n') >= 14;
  }

  static std::string size_of(const std::string& text) {
    const auto lines = static_cast<long long>(std::count(text.begin(), text.end(), '\n')) + 1;
    return plural(lines, "linha", "linhas") + ", " +
           plural(static_cast<long long>(text.size()), "byte", "bytes");
  }

  // Texto longo (a saída inteira de um comando, por exemplo) fica recolhido.
  void block(const std::string& cls, const std::string& label, const std::string& text) {
    if (!is_long(text)) {
      out_ += "<div class=\"pre-label\">" + label + "</div><pre class=\"" + cls + "\">" +
              html_text(text) + "</pre>\n";
      return;
    }
    out_ += "<details><summary>" + label + " (" + size_of(text) + ")</summary><pre class=\"" + cls +
            "\">" + html_text(text) + "</pre></details>\n";
  }

  void tool(const Node& e, bool top_level) {
    const std::string n = std::to_string(e.number);
    const std::string state = !e.second ? "open" : e.failed ? "failed" : "ok";
    const char* badge = !e.second ? "sem fim registrado" : e.failed ? "erro" : "ok";
    out_ += std::string(top_level ? "<li class=\"loose\">" : "<li>") + "<div class=\"tool " +
            state + "\" id=\"tool-" + n + "\">\n";
    out_ += "<div class=\"heading\"><span>⚙ <code class=\"name\">" +
            html_text(field(e.first, "name")) + "</code></span><span class=\"badge " + state +
            "\">" + badge + "</span>";
    out_ += timing(e, slowest_tool_);
    std::vector<std::string> meta;
    if (e.second) {
      if (auto bytes = integer(*e.second, "output_bytes")) {
        meta.push_back(plural(*bytes, "byte de saída", "bytes de saída"));
      }
    }
    const std::string id = field(e.first, "call_id");
    if (!id.empty()) meta.push_back("id <code>" + html_text(id) + "</code>");
    out_ += "<span class=\"meta\">" + join(meta) + "</span></div>\n";
    arguments(e.first);
    if (e.second) {
      const std::string summary = field(*e.second, "summary");
      if (!summary.empty()) block("result", "resultado (resumo)", summary);
    }
    out_ += "</div></li>\n";
  }

  void other(const Node& e) {
    const EventView view = view_of(e.first);
    const std::string name = field(e.first, "event");
    out_ += "<li><div class=\"event" + (view.tone.empty() ? "" : " " + view.tone) + "\" id=\"" +
            anchor_of(e) + "\" data-event=\"" + html_text(name) + "\">\n<div class=\"heading\">";
    out_ += "<strong class=\"title\">" + view.title + "</strong>" + timing(e, nullptr) + "</div>\n";
    if (!view.text.empty()) out_ += "<div class=\"text\">" + view.text + "</div>\n";
    if (view.tone.empty()) {
      fields(e.first);  // um evento que a página não conhece: todos os campos
    } else {
      out_ += "<details><summary>campos do evento <code>" + html_text(name) + "</code></summary>";
      fields(e.first);
      out_ += "</details>\n";
    }
    out_ += "</div></li>\n";
  }

  void fields(const json& event) {
    std::string rows;
    for (auto it = event.begin(); it != event.end(); ++it) {
      if (it.key() == "event") continue;
      const std::string value = it->is_string() ? it->get<std::string>() : dump(*it);
      rows += "<dt>" + html_text(it.key()) + "</dt><dd>" + html_text(value) + "</dd>";
    }
    if (!rows.empty()) out_ += "<dl class=\"fields\">" + rows + "</dl>\n";
  }

  void invalid(const Node& e) {
    std::string raw = e.raw;
    if (raw.size() > 600) raw = raw.substr(0, 600) + "…";
    out_ += "<li><div class=\"event invalid\" id=\"line-" + std::to_string(e.number) +
            "\">\n<div class=\"heading\">✗ <strong>linha " + std::to_string(e.number) +
            " inválida</strong><span class=\"meta\">não é um objeto JSON com o campo "
            "\"event\"</span></div>\n<pre>" +
            html_text(raw) + "</pre></div></li>\n";
  }

  void outcome(const Turn& t, const std::string& id) {
    const std::string label = field(*t.end, "outcome");
    out_ += "<li class=\"outcome " + std::string(tone_of_outcome(label)) + "\" id=\"" + id +
            "\"><div class=\"box\">■ Desfecho: <span class=\"outcome-label\">" +
            html_text(label.empty() ? "(sem outcome)" : label) + "</span> · " + turn_line(t) +
            "</div></li>\n";
  }

  // ------------------------------------------------------ tokens

  void plot_section() {
    out_ += "<section id=\"tokens\">\n<h2>Tokens enviados por chamada ao modelo</h2>\n";
    out_ += "<div class=\"panel\">\n";
    out_ +=
        "<p class=\"note\">O modelo não guarda nada entre chamadas: cada pedido reenvia o "
        "histórico inteiro, que cresce a cada resposta e a cada resultado de ferramenta. "
        "Cada barra é o <code>prompt_tokens</code> de uma chamada; clique para ir até "
        "ela.</p>\n";
    const std::vector<long long>& tokens = model_.summary.prompt_tokens;
    const bool any = std::any_of(tokens.begin(), tokens.end(), [](long long t) { return t >= 0; });
    if (tokens.empty()) {
      out_ += "<p class=\"note\">Nenhuma chamada ao modelo no trace.</p>\n";
    } else if (!any) {
      out_ +=
          "<p class=\"note\">As respostas do modelo não trazem <code>usage</code>: não há "
          "contagem de tokens para desenhar.</p>\n";
    } else {
      plot();
    }
    out_ += "</div>\n</section>\n";
  }

  void plot() {
    const std::vector<long long>& tokens = model_.summary.prompt_tokens;
    const std::size_t n = tokens.size();
    const double width = 900;
    const double height = 300;
    const double left = 62;
    const double right = 14;
    const double top = 22;
    const double bottom = 40;
    const double plot_w = width - left - right;
    const double plot_h = height - top - bottom;
    const long long max = *std::max_element(tokens.begin(), tokens.end());
    const auto step = std::max(1LL, static_cast<long long>(nice_step(static_cast<double>(max))));
    const long long ceiling = std::max(step, ((max + step - 1) / step) * step);
    const double slot = plot_w / static_cast<double>(n);
    const double bar = std::min(46.0, slot * 0.72);
    const auto y_of = [&](long long v) {
      return top + plot_h - plot_h * static_cast<double>(v) / static_cast<double>(ceiling);
    };

    out_ += "<svg class=\"chart\" viewBox=\"0 0 " + num(width) + " " + num(height) +
            "\" role=\"img\" aria-labelledby=\"tokens-title\" "
            "xmlns=\"http://www.w3.org/2000/svg\">\n";
    out_ += "<title id=\"tokens-title\">prompt_tokens de cada uma das " +
            plural(static_cast<long long>(n), "chamada", "chamadas") + " ao modelo</title>\n";
    for (long long v = 0; v <= ceiling; v += step) {
      const std::string y = num(y_of(v));
      out_ += "<line class=\"grid\" x1=\"" + num(left) + "\" x2=\"" + num(width - right) +
              "\" y1=\"" + y + "\" y2=\"" + y + "\"></line>";
      out_ += "<text class=\"axis\" x=\"" + num(left - 8) + "\" y=\"" + num(y_of(v) + 4) +
              "\" text-anchor=\"end\">" + std::to_string(v) + "</text>\n";
    }
    out_ += "<text class=\"axis\" x=\"" + num(left + plot_w / 2) + "\" y=\"" + num(height - 4) +
            "\" text-anchor=\"middle\">chamada ao modelo</text>\n";

    // Em qual turno está cada chamada, para separar os turnos no gráfico.
    std::vector<int> turn_of;
    for (const Turn& t : model_.turns) {
      for (const Node& e : t.entries) {
        if (e.kind == Node::Kind::call) turn_of.push_back(t.number);
      }
    }
    const std::size_t label_every = slot >= 22 ? 1 : static_cast<std::size_t>(std::ceil(22 / slot));
    for (std::size_t i = 0; i < n; ++i) {
      const double cx = left + slot * (static_cast<double>(i) + 0.5);
      const std::string number = std::to_string(i + 1);
      if (i > 0 && i < turn_of.size() && turn_of[i] != turn_of[i - 1]) {
        const std::string x = num(left + slot * static_cast<double>(i));
        out_ += "<line class=\"separator\" x1=\"" + x + "\" x2=\"" + x + "\" y1=\"" + num(top - 8) +
                "\" y2=\"" + num(top + plot_h) + "\"></line>";
        out_ += "<text class=\"turn-label\" x=\"" + num(left + slot * static_cast<double>(i) + 4) +
                "\" y=\"" + num(top - 10) + "\">turno " + std::to_string(turn_of[i]) + "</text>\n";
      }
      if (i % label_every == 0) {
        out_ += "<text class=\"axis\" x=\"" + num(cx) + "\" y=\"" + num(top + plot_h + 16) +
                "\" text-anchor=\"middle\">" + number + "</text>";
      }
      if (tokens[i] < 0) continue;
      const double y = y_of(tokens[i]);
      out_ += "<a href=\"#call-" + number + "\"><rect class=\"bar\" x=\"" + num(cx - bar / 2) +
              "\" y=\"" + num(y) + "\" width=\"" + num(bar) + "\" height=\"" +
              num(top + plot_h - y) + "\" rx=\"3\"><title>chamada " + number + ": " +
              std::to_string(tokens[i]) + " tokens enviados</title></rect></a>";
      // Sem espaço para o número em cada barra, ficam o da primeira e o da última.
      if (slot >= 34 || i == 0 || i + 1 == n) {
        out_ += "<text class=\"bar-value\" x=\"" + num(cx) + "\" y=\"" + num(y - 5) +
                "\" text-anchor=\"middle\">" + std::to_string(tokens[i]) + "</text>";
      }
      out_ += "\n";
    }
    out_ += "</svg>\n";
  }

  static std::string join(const std::vector<std::string>& parts) {
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : " · ") + p;
    return out;
  }

  const Model& model_;
  std::string title_;
  std::string out_;
  const Node* slowest_call_ = nullptr;
  const Node* slowest_tool_ = nullptr;
};

// ------------------------------------------------------------------ OTLP

// FNV-1a de 64 bits: os ids saem do próprio trace (o mesmo arquivo dá os
// mesmos ids, e dois traces diferentes, ids diferentes).
std::uint64_t fnv1a(std::string_view text, std::uint64_t seed) {
  std::uint64_t hash = 14695981039346656037ULL ^ seed;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return hash == 0 ? 1 : hash;  // um id todo zero é inválido no OTLP
}

std::string hex16(std::uint64_t value) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, value >>= 4) out[static_cast<std::size_t>(i)] = kHex[value & 0xF];
  return out;
}

// Um valor de JSON como AnyValue do OTLP: inteiros como texto (int64 no
// protobuf vira string no JSON), objetos como o JSON deles em texto.
std::optional<json> any_value(const json& value) {
  if (value.is_null()) return std::nullopt;
  if (value.is_string()) return json{{"stringValue", value}};
  if (value.is_boolean()) return json{{"boolValue", value}};
  if (value.is_number_integer() || value.is_number_unsigned()) {
    if (auto n = json_integer(value)) return json{{"intValue", std::to_string(*n)}};
    return json{{"stringValue", dump(value)}};
  }
  if (value.is_number_float()) {
    const double d = value.get<double>();
    if (!std::isfinite(d)) return json{{"stringValue", dump(value)}};
    return json{{"doubleValue", d}};
  }
  if (value.is_array()) {
    json values = json::array();
    for (const json& item : value) {
      if (auto v = any_value(item.is_structured() ? json(dump(item)) : item)) values.push_back(*v);
    }
    return json{{"arrayValue", {{"values", values}}}};
  }
  return json{{"stringValue", dump(value)}};
}

void add_attribute(json& attributes, const std::string& key, const json& value) {
  if (auto v = any_value(value)) attributes.push_back({{"key", key}, {"value", *v}});
}

class Otlp {
 public:
  Otlp(const Model& model, std::string_view jsonl, std::string_view title)
      : model_(model), title_(title) {
    const std::uint64_t high = fnv1a(jsonl, 0x9e3779b97f4a7c15ULL);
    const std::uint64_t low = fnv1a(jsonl, 0x6a09e667f3bcc909ULL);
    trace_id_ = hex16(high) + hex16(low);
    seed_ = low;
  }

  TraceOtlp render() {
    TraceOtlp result;
    if (model_.summary.untimed_events > 0) {
      result.error = "o trace não tem a hora dos eventos (\"time\"; a primeira linha sem ela é a " +
                     std::to_string(model_.first_untimed_line) +
                     "): foi gravado antes de o trace carimbar cada evento. Grave de novo com "
                     "--trace para exportar em OTLP";
      return result;
    }
    if (model_.summary.events == 0) {
      result.error = "o trace não tem eventos: não há spans para exportar";
      return result;
    }
    json spans = json::array();
    for (const Turn& t : model_.turns) {
      if (t.start_time) turn(t, spans);  // um "turno" só de linhas inválidas fica de fora
    }
    json resource_attributes = json::array();
    add_attribute(resource_attributes, "service.name", "harness-zero");
    add_attribute(resource_attributes, "hz.trace.file", title_);
    const json document = {
        {"resourceSpans",
         {{{"resource", {{"attributes", resource_attributes}}},
           {"scopeSpans", {{{"scope", {{"name", "harness-zero/trace"}}}, {"spans", spans}}}}}}}};
    result.spans = static_cast<int>(spans.size());
    result.json = document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
    return result;
  }

 private:
  std::string next_span_id() { return hex16(fnv1a(std::to_string(++spans_), seed_)); }

  json span(const std::string& id, const std::string& parent, const std::string& name, int kind,
            std::int64_t start, std::int64_t end) const {
    json s = {{"traceId", trace_id_},
              {"spanId", id},
              {"name", name},
              {"kind", kind},
              {"startTimeUnixNano", std::to_string(start)},
              {"endTimeUnixNano", std::to_string(std::max(start, end))},
              {"attributes", json::array()}};
    if (!parent.empty()) s["parentSpanId"] = parent;
    return s;
  }

  static json status(bool ok, const std::string& message) {
    if (ok) return {{"code", 1}};                // STATUS_CODE_OK
    return {{"code", 2}, {"message", message}};  // STATUS_CODE_ERROR
  }

  // Os tokens de um model_response ou de um turn_end, com os nomes de GenAI.
  static void add_usage(json& attributes, const json& event) {
    const Tokens tokens = tokens_of(event);
    if (tokens.prompt) add_attribute(attributes, "gen_ai.usage.input_tokens", *tokens.prompt);
    if (tokens.completion) {
      add_attribute(attributes, "gen_ai.usage.output_tokens", *tokens.completion);
    }
  }

  static constexpr int kInternal = 1;  // SPAN_KIND_INTERNAL
  static constexpr int kClient = 3;    // SPAN_KIND_CLIENT

  // Um turno é o span de um agente (invoke_agent); as chamadas ao modelo e
  // as ferramentas são filhos dele, e o resto (novas tentativas, avisos,
  // notas) vira evento do span do turno.
  void turn(const Turn& t, json& spans) {
    const std::string id = next_span_id();
    const std::int64_t start = t.start_time.value_or(0);
    const std::int64_t end = t.end_time.value_or(start);
    json s = span(id, "", "invoke_agent harness-zero", kInternal, start, end);
    json& a = s["attributes"];
    add_attribute(a, "gen_ai.operation.name", "invoke_agent");
    add_attribute(a, "gen_ai.agent.name", "harness-zero");
    add_attribute(a, "hz.turn", t.number);
    add_attribute(a, "hz.model_calls", t.model_calls());
    add_attribute(a, "hz.retries", t.model_retries());
    std::string model;
    json events = json::array();
    const std::size_t at = spans.size();  // o span do turno vem antes dos filhos
    for (const Node& e : t.entries) {
      if (e.kind == Node::Kind::call && model.empty()) model = field(e.first, "model");
      node(e, t, id, spans, events);
      for (const Node& c : e.children) node(c, t, id, spans, events);
    }
    if (!model.empty()) add_attribute(a, "gen_ai.request.model", model);
    if (t.end) {
      add_usage(a, *t.end);
      const std::string outcome = field(*t.end, "outcome");
      add_attribute(a, "hz.outcome", outcome);
      if (t.cost_known() != false) add_attribute(a, "hz.cost_usd", dollars(*t.end, "cost_usd"));
      s["status"] = status(outcome == "success", outcome);
    } else {
      s["status"] = status(false, "o trace termina antes do turn_end");
    }
    if (!events.empty()) s["events"] = events;
    spans.insert(spans.begin() + static_cast<std::ptrdiff_t>(at), std::move(s));
  }

  void node(const Node& e, const Turn& t, const std::string& parent, json& spans, json& events) {
    if (e.kind == Node::Kind::call) {
      spans.push_back(call(e, t, parent));
    } else if (e.kind == Node::Kind::tool) {
      spans.push_back(tool(e, parent));
    } else if (e.kind == Node::Kind::other && e.start) {
      json attributes = json::array();
      for (auto it = e.first.begin(); it != e.first.end(); ++it) {
        if (it.key() != "event" && it.key() != "time")
          add_attribute(attributes, "hz." + it.key(), *it);
      }
      events.push_back({{"timeUnixNano", std::to_string(*e.start)},
                        {"name", field(e.first, "event")},
                        {"attributes", attributes}});
    }
  }

  static std::int64_t end_of(const Node& e) {
    if (e.end) return *e.end;
    if (auto ms = e.duration_ms()) return *e.start + static_cast<std::int64_t>(*ms * 1e6);
    return *e.start;
  }

  // O custo de uma chamada só vai num turno com preço: sem ele, seria um 0 falso.
  json call(const Node& e, const Turn& t, const std::string& parent) {
    const std::string model = field(e.first, "model");
    json s = span(next_span_id(), parent, model.empty() ? "chat" : "chat " + model, kClient,
                  *e.start, end_of(e));
    json& a = s["attributes"];
    add_attribute(a, "gen_ai.operation.name", "chat");
    if (!model.empty()) add_attribute(a, "gen_ai.request.model", model);
    if (auto n = integer(e.first, "messages")) add_attribute(a, "hz.messages", *n);
    if (auto n = integer(e.first, "turn")) add_attribute(a, "hz.step", *n);
    add_attribute(a, "hz.retry", e.retry);
    if (!e.second) {
      s["status"] = status(false, "sem model_response no trace");
      return s;
    }
    const json& r = *e.second;
    if (e.failed) {
      add_attribute(a, "error.type", field(r, "kind").empty() ? "_OTHER" : field(r, "kind"));
      if (auto n = integer(r, "status"); n && *n > 0)
        add_attribute(a, "http.response.status_code", *n);
      if (auto n = integer(r, "attempt")) add_attribute(a, "hz.attempt", *n);
      add_attribute(a, "hz.billed", flag(r, "billed"));
      s["status"] = status(false, field(r, "message"));
    } else {
      add_usage(a, r);
      const std::string finish = field(r, "finish_reason");
      if (!finish.empty())
        add_attribute(a, "gen_ai.response.finish_reasons", json::array({finish}));
      if (auto n = integer(r, "tool_calls")) add_attribute(a, "hz.tool_calls", *n);
      if (flag(r, "estimated")) add_attribute(a, "hz.usage_estimated", true);
      s["status"] = status(true, "");
    }
    if (t.cost_known() != false && r.contains("cost_usd")) {
      add_attribute(a, "hz.cost_usd", dollars(r, "cost_usd"));
    }
    return s;
  }

  json tool(const Node& e, const std::string& parent) {
    const std::string name = field(e.first, "name");
    json s = span(next_span_id(), parent, "execute_tool " + name, kInternal, *e.start, end_of(e));
    json& a = s["attributes"];
    add_attribute(a, "gen_ai.operation.name", "execute_tool");
    add_attribute(a, "gen_ai.tool.name", name);
    add_attribute(a, "gen_ai.tool.type", "function");
    const std::string id = field(e.first, "call_id");
    if (!id.empty()) add_attribute(a, "gen_ai.tool.call.id", id);
    const std::string arguments = field(e.first, "arguments");
    if (!arguments.empty()) add_attribute(a, "gen_ai.tool.call.arguments", arguments);
    if (!e.second) {
      s["status"] = status(false, "sem tool_end no trace");
      return s;
    }
    const std::string summary = field(*e.second, "summary");
    if (!summary.empty()) add_attribute(a, "gen_ai.tool.call.result", summary);
    if (auto n = integer(*e.second, "output_bytes")) add_attribute(a, "hz.output_bytes", *n);
    if (e.failed) add_attribute(a, "error.type", "tool_error");
    s["status"] = status(!e.failed, summary);
    return s;
  }

  const Model& model_;
  std::string title_;
  std::string trace_id_;
  std::uint64_t seed_ = 0;
  int spans_ = 0;
};

}  // namespace

std::string html_text(std::string_view text) { return escape(visible_utf8(text)); }

TraceHtml render_trace_html(std::string_view jsonl, std::string_view title) {
  const Model model = build_model(jsonl);
  return {Page(model, title).render(), model.summary};
}

TraceOtlp render_trace_otlp(std::string_view jsonl, std::string_view title) {
  const Model model = build_model(jsonl);
  TraceOtlp result = Otlp(model, jsonl, title).render();
  result.summary = model.summary;
  return result;
}

int trace_html_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  namespace fs = std::filesystem;
  const auto usage_error = [&err](const std::string& message) {
    err << "hz-course: " << message << "\n"
        << "uso: hz-course trace-html ARQUIVO.jsonl [--out ARQUIVO.html|-] [--title TÍTULO] "
           "[--otlp ARQUIVO.json|-]\n";
    return 2;
  };
  FlagParser parser("hz-course trace-html", "");
  parser.disable_help();
  std::vector<std::string> inputs;
  std::string output_text;
  std::string title_text;
  std::string otlp_text;
  parser.add_positionals(&inputs);
  parser.add_string("out", &output_text, "");
  parser.add_string("title", &title_text, "");
  parser.add_string("otlp", &otlp_text, "");
  if (const auto parsed = parser.parse(std::vector<std::string>(args.begin() + 1, args.end()));
      !parsed) {
    const FlagError& error = parsed.error();
    if (error.kind == FlagError::Kind::missing_value) {
      return usage_error("a opção --" + error.flag + " precisa de um valor");
    }
    const std::string what =
        error.kind == FlagError::Kind::unknown_flag ? "--" + error.flag : error.value;
    return usage_error("opção desconhecida para trace-html: " + what);
  }
  if (inputs.size() > 1) return usage_error("um trace por vez (veio também: " + inputs[1] + ")");
  const std::string input = inputs.empty() ? std::string() : inputs.front();
  const auto given = [&parser](const char* name, const std::string& value) {
    return parser.seen(name) ? std::optional<std::string>(value) : std::nullopt;
  };
  const std::optional<std::string> output_arg = given("out", output_text);
  const std::optional<std::string> title_arg = given("title", title_text);
  const std::optional<std::string> otlp_arg = given("otlp", otlp_text);
  if (input.empty()) return usage_error("falta o arquivo de trace (o JSONL de --trace)");

  std::error_code ec;
  if (fs::is_directory(input, ec)) return usage_error(input + " é uma pasta, não um trace");
  const std::optional<std::string> jsonl = read_file(input);
  if (!jsonl) return usage_error("não consegui ler o trace " + input);
  // `a` é o mesmo arquivo que `b` ("-", o stdout, não é arquivo nenhum).
  const auto same_file = [&ec](const fs::path& a, const fs::path& b) {
    return a != "-" && (a == b || fs::equivalent(a, b, ec));
  };
  // Com --otlp, a página só sai se --out também vier.
  const bool page_wanted = !otlp_arg || output_arg;
  fs::path output = fs::path(input).replace_extension(".html");
  if (output_arg) output = *output_arg;
  if (page_wanted && same_file(output, input)) {
    return usage_error("a página sairia por cima do próprio trace: escolha outro --out");
  }
  if (otlp_arg && same_file(*otlp_arg, input)) {
    return usage_error("o OTLP sairia por cima do próprio trace: escolha outro --otlp");
  }
  if (otlp_arg && page_wanted && *otlp_arg != "-" && same_file(output, *otlp_arg)) {
    return usage_error("--out e --otlp apontam para o mesmo arquivo");
  }
  if (otlp_arg && page_wanted && output == "-" && *otlp_arg == "-") {
    return usage_error("só um de --out e --otlp pode ir para o stdout (-)");
  }
  const std::string title = title_arg ? *title_arg : fs::path(input).filename().string();
  const bool to_stdout = (page_wanted && output == "-") || (otlp_arg && *otlp_arg == "-");
  // Com algo no stdout, o resumo vai para o stderr.
  std::ostream& report = to_stdout ? err : out;
  // No stdout ("-") ou no arquivo, que o resumo diz; falso se não deu para escrever.
  const auto emit = [&](const fs::path& path, const std::string& text, const std::string& what) {
    if (path == "-") {
      out << text;
    } else if (!write_file(path, text)) {
      err << "hz-course: não consegui escrever " << path.generic_string() << "\n";
      return false;
    } else {
      report << "escrito: " << path.generic_string() << what << "\n";
    }
    return true;
  };

  TraceSummary s;
  if (otlp_arg) {
    const TraceOtlp otlp = render_trace_otlp(*jsonl, title);
    if (!otlp.error.empty()) {
      err << "hz-course: " << input << ": " << otlp.error << "\n";
      return 2;
    }
    if (!emit(*otlp_arg, otlp.json, " (OTLP/JSON, " + plural(otlp.spans, "span", "spans") + ")")) {
      return 1;
    }
    s = otlp.summary;
  }
  if (page_wanted) {
    const TraceHtml page = render_trace_html(*jsonl, title);
    if (!emit(output, page.html, "")) return 1;
    s = page.summary;
  }
  report << "  " << plural(s.events, "evento", "eventos") << ", "
         << words::model_calls_text(s.model_calls, s.retries) << ", "
         << plural(s.tool_calls, "ferramenta", "ferramentas")
         << "; desfecho: " << (s.outcome.empty() ? "nenhum (falta o turn_end)" : s.outcome) << "\n";
  if (s.invalid_lines > 0) {
    err << "aviso: "
        << plural(s.invalid_lines, "linha do trace não é um evento JSON",
                  "linhas do trace não são eventos JSON")
        << (page_wanted ? (s.invalid_lines == 1 ? "; a página a mostra como inválida"
                                                : "; a página as mostra como inválidas")
                        : (s.invalid_lines == 1 ? "; fica fora do OTLP" : "; ficam fora do OTLP"))
        << "\n";
  }
  if (page_wanted && s.events > 0 && s.untimed_events > 0) {
    err << "aviso: " << plural(s.untimed_events, "evento não tem", "eventos não têm")
        << " hora (um trace de antes das horas): a linha do tempo mostra só a ordem\n";
  }
  return 0;
}

}  // namespace hz::course
