#include "hz/course/trace_html.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hz/course/lines.hpp"
#include "hz/json_integer.hpp"
#include "hz/saturating.hpp"

namespace hz::course {

using nlohmann::json;

namespace {

// ------------------------------------------------------------------ texto

void append_utf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

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
// pode virar marcação nem sumir calado. Controles aparecem como no trace do
// terminal (hz::printable): \x1b, \x7f, \u0085. O \r de um \r\n some.
std::string visible_utf8(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    unsigned cp = 0;
    const std::size_t len = decode_utf8(s, i, cp);
    if (len == 0) {
      append_utf8(out, 0xFFFD);
      ++i;
      continue;
    }
    if (cp == '\r' && i + 1 < s.size() && s[i + 1] == '\n') {
      // some
    } else if (cp == '\n' || cp == '\t') {
      out += static_cast<char>(cp);
    } else if (cp < 0x20 || cp == 0x7F) {
      out += "\\x";
      out += kHex[cp >> 4];
      out += kHex[cp & 0xF];
    } else if (cp >= 0x80 && cp < 0xA0) {
      out += "\\u00";
      out += kHex[cp >> 4];
      out += kHex[cp & 0xF];
    } else {
      out.append(s.substr(i, len));
    }
    i += len;
  }
  return out;
}

std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string dump(const json& value, int indent = -1) {
  return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

// ------------------------------------------------------- campos do evento

// Os campos podem faltar ou vir com o tipo errado: a página mostra o que dá.
std::optional<long long> integer(const json& object, const char* key) {
  if (!object.is_object()) return std::nullopt;
  auto it = object.find(key);
  if (it == object.end()) return std::nullopt;
  return json_integer(*it);
}

double real(const json& object, const char* key) {
  if (!object.is_object()) return 0;
  auto it = object.find(key);
  if (it == object.end() || !it->is_number()) return 0;
  const double v = it->get<double>();
  return std::isfinite(v) ? v : 0;
}

std::string field(const json& object, const char* key) {
  if (!object.is_object()) return {};
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return {};
  if (it->is_string()) return it->get<std::string>();
  return dump(*it);
}

const json& usage_of(const json& event) {
  static const json empty = json::object();
  if (!event.is_object()) return empty;
  auto it = event.find("usage");
  return it != event.end() && it->is_object() ? *it : empty;
}

bool ok_of(const json& tool_end) {
  auto it = tool_end.find("ok");
  return it != tool_end.end() && it->is_boolean() && it->get<bool>();
}

std::string plural(long long n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string money(double usd) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "US$ %.4f", usd);
  return buffer;
}

// ------------------------------------------------------------------ modelo

// Um nó da linha do tempo. Uma chamada ao modelo junta model_request e
// model_response e guarda, como filhos, o que aconteceu até a próxima
// chamada (ferramentas, avisos). Uma ferramenta junta tool_start e tool_end.
struct Node {
  enum class Kind { call, tool, other, invalid };
  Kind kind = Kind::other;
  int number = 0;  // chamada N, ferramenta N, evento N ou linha N (inválida)
  json first;
  std::optional<json> second;
  std::string raw;  // a linha inválida, como veio
  std::vector<Node> children;
};

struct Turn {
  int number = 0;
  std::vector<Node> entries;
  std::optional<json> end;
};

struct Model {
  std::vector<Turn> turns;
  TraceSummary summary;
  long long prompt_total = 0;
  long long completion_total = 0;
  double cost = 0;
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
      node.raw = std::string(line);
      ++model_.summary.invalid_lines;
      container().push_back(std::move(node));
      return;
    }
    ++model_.summary.events;
    const std::string name = event["event"].get<std::string>();
    if (name == "model_request") {
      start_call(std::move(event));
    } else if (name == "model_response" && open_call() != nullptr && !open_call()->second) {
      finish_call(std::move(event));
    } else if (name == "tool_start") {
      start_tool(std::move(event));
    } else if (name == "tool_end" && finish_tool(event)) {
      // casado com o tool_start
    } else if (name == "turn_end") {
      finish_turn(std::move(event));
    } else {
      add_other(std::move(event));
    }
  }

  Model take() {
    if (!current_.entries.empty()) {
      current_.number = static_cast<int>(model_.turns.size()) + 1;
      model_.turns.push_back(std::move(current_));
    }
    model_.summary.turns = static_cast<int>(model_.turns.size());
    return std::move(model_);
  }

 private:
  Node* open_call() { return call_ ? &current_.entries[*call_] : nullptr; }

  std::vector<Node>& container() {
    Node* call = open_call();
    return call != nullptr ? call->children : current_.entries;
  }

  void start_call(json event) {
    Node node;
    node.kind = Node::Kind::call;
    node.number = ++model_.summary.model_calls;
    node.first = std::move(event);
    current_.entries.push_back(std::move(node));
    call_ = current_.entries.size() - 1;
    model_.summary.prompt_tokens.push_back(-1);
  }

  void finish_call(json event) {
    const json& usage = usage_of(event);
    const std::optional<long long> prompt = integer(usage, "prompt_tokens");
    if (prompt) {
      model_.summary.prompt_tokens.back() = *prompt;
      model_.prompt_total = saturating_add(model_.prompt_total, *prompt);
    }
    model_.completion_total =
        saturating_add(model_.completion_total, integer(usage, "completion_tokens").value_or(0));
    open_call()->second = std::move(event);
  }

  void start_tool(json event) {
    Node node;
    node.kind = Node::Kind::tool;
    node.number = ++model_.summary.tool_calls;
    node.first = std::move(event);
    container().push_back(std::move(node));
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
    if (!ok_of(event)) ++model_.summary.tool_errors;
    match->second = event;
    return true;
  }

  void finish_turn(json event) {
    model_.summary.outcome = field(event, "outcome");
    model_.cost += real(event, "cost_usd");
    current_.end = std::move(event);
    current_.number = static_cast<int>(model_.turns.size()) + 1;
    model_.turns.push_back(std::move(current_));
    current_ = Turn{};
    call_.reset();
  }

  void add_other(json event) {
    Node node;
    node.kind = Node::Kind::other;
    node.number = ++others_;
    node.first = std::move(event);
    container().push_back(std::move(node));
  }

  Model model_;
  Turn current_;
  std::optional<std::size_t> call_;  // índice da chamada aberta em current_.entries
  int others_ = 0;
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

// ------------------------------------------------------------------ página

constexpr const char* kStyle = R"CSS(
:root {
  --fundo: #f6f7f9; --papel: #ffffff; --tinta: #1d2430; --fraco: #5f6b7a; --linha: #dfe3e8;
  --azul: #2f6fde; --azul-claro: #e8f0fd; --verde: #1f8a4c; --verde-claro: #e6f5ec;
  --vermelho: #c0392b; --vermelho-claro: #fbeaea; --ambar: #b26a00; --ambar-claro: #fdf3e1;
  --cinza-claro: #eef1f4;
  --mono: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--fundo); color: var(--tinta);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
a { color: var(--azul); text-decoration: none; }
a:hover { text-decoration: underline; }
header.topo { background: #1d2430; color: #fff; padding: 22px 0 14px; }
header.topo .largura, main { max-width: 980px; margin: 0 auto; padding: 0 20px; }
header.topo .sobre { margin: 0; color: #9fb0c8; font-size: 13px; letter-spacing: .04em;
  text-transform: uppercase; }
header.topo h1 { margin: 4px 0 10px; font-size: 24px; font-weight: 600; word-break: break-all; }
header.topo nav a { color: #cfe0ff; margin-right: 18px; font-size: 14px; }
h2 { font-size: 19px; margin: 34px 0 10px; }
h3 { font-size: 16px; margin: 0; }
.cartoes { display: grid; grid-template-columns: repeat(auto-fit, minmax(170px, 1fr)); gap: 12px;
  margin-top: 22px; }
.cartao { display: block; background: var(--papel); border: 1px solid var(--linha);
  border-radius: 10px; padding: 12px 14px; color: var(--tinta); }
a.cartao:hover { text-decoration: none; border-color: var(--azul); }
.cartao .rotulo { display: block; color: var(--fraco); font-size: 12px; text-transform: uppercase;
  letter-spacing: .04em; }
.cartao .valor { display: block; font-size: 24px; font-weight: 650; margin-top: 2px;
  white-space: nowrap; }
.cartao .detalhe { display: block; color: var(--fraco); font-size: 13px; }
.cartao.ok { background: var(--verde-claro); border-color: #b9e2c8; }
.cartao.ok .valor { color: var(--verde); }
.cartao.alerta { background: var(--ambar-claro); border-color: #f0d7a6; }
.cartao.alerta .valor { color: var(--ambar); }
.cartao.erro { background: var(--vermelho-claro); border-color: #efc4c0; }
.cartao.erro .valor { color: var(--vermelho); }
.painel { background: var(--papel); border: 1px solid var(--linha); border-radius: 10px;
  padding: 14px 16px; }
.nota { color: var(--fraco); margin: 0 0 8px; font-size: 14px; }
svg.grafico { width: 100%; height: auto; display: block; }
svg.grafico .grade { stroke: var(--linha); stroke-width: 1; }
svg.grafico .eixo { fill: var(--fraco); font-size: 12px; }
svg.grafico .barra { fill: var(--azul); }
svg.grafico a:hover .barra { fill: #1d4fa8; }
svg.grafico .valor-barra { fill: var(--tinta); font-size: 11px; }
svg.grafico .separador { stroke: var(--fraco); stroke-dasharray: 4 4; }
svg.grafico .turno-rotulo { fill: var(--fraco); font-size: 11px; }
.turno { margin-bottom: 26px; }
.turno > h3 { margin: 0 0 10px; }
ol.linha { list-style: none; margin: 0; padding: 0 0 0 22px; border-left: 2px solid var(--linha); }
ol.linha > li { position: relative; margin: 0 0 12px; }
ol.linha > li::before { content: ""; position: absolute; left: -31px; top: 14px; width: 12px;
  height: 12px; border-radius: 50%; background: var(--fundo); border: 2px solid var(--fraco); }
ol.linha > li.chamada::before { border-color: var(--azul); background: var(--azul-claro); }
ol.linha > li.desfecho::before { border-color: var(--tinta); background: var(--tinta); }
.caixa { background: var(--papel); border: 1px solid var(--linha); border-radius: 10px;
  padding: 10px 14px; }
.chamada > .caixa { border-left: 4px solid var(--azul); }
.cabecalho { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 10px; }
.num { font-family: var(--mono); font-size: 13px; color: var(--fraco); }
.meta { color: var(--fraco); font-size: 13px; }
.resposta { margin-top: 4px; font-size: 14px; }
.tokens { font-family: var(--mono); }
ol.filhos { list-style: none; margin: 10px 0 0; padding: 0; }
ol.filhos > li { margin: 8px 0 0; }
.ferramenta { border: 1px solid var(--linha); border-radius: 8px; padding: 8px 12px;
  background: #fbfcfd; }
.ferramenta.ok { border-left: 4px solid var(--verde); }
.ferramenta.falhou { border-left: 4px solid var(--vermelho); }
.ferramenta.aberta { border-left: 4px solid var(--ambar); }
code, pre { font-family: var(--mono); font-size: 13px; }
code.nome { font-weight: 650; }
pre { margin: 6px 0 0; padding: 8px 10px; background: var(--cinza-claro); border-radius: 6px;
  white-space: pre-wrap; word-break: break-word; max-height: 420px; overflow: auto; }
pre.resultado { background: #f1f6f2; }
.falhou pre.resultado { background: #fbf0ef; }
.rotulo-pre { font-size: 12px; color: var(--fraco); margin-top: 6px; }
details > summary { cursor: pointer; color: var(--fraco); font-size: 13px; margin-top: 6px; }
.selo { display: inline-block; font-size: 12px; font-weight: 600; padding: 0 8px;
  border-radius: 20px; }
.selo.ok { background: var(--verde-claro); color: var(--verde); }
.selo.falhou { background: var(--vermelho-claro); color: var(--vermelho); }
.selo.aberta { background: var(--ambar-claro); color: var(--ambar); }
.evento { border: 1px dashed var(--linha); border-radius: 8px; padding: 8px 12px;
  background: var(--papel); }
.evento.aviso { border: 1px solid #f0d7a6; background: var(--ambar-claro); }
.evento.invalido { border: 1px solid #efc4c0; background: var(--vermelho-claro); }
dl.campos { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px;
  margin: 6px 0 0; font-size: 13px; }
dl.campos dt { color: var(--fraco); font-family: var(--mono); }
dl.campos dd { margin: 0; font-family: var(--mono); white-space: pre-wrap; word-break: break-word; }
dl.argumentos { background: var(--cinza-claro); border-radius: 6px; padding: 8px 10px; }
dl.campos dd details > summary { margin: 0; }
.desfecho .caixa { border-width: 2px; font-size: 15px; }
.desfecho.ok .caixa { border-color: var(--verde); background: var(--verde-claro); }
.desfecho.alerta .caixa { border-color: var(--ambar); background: var(--ambar-claro); }
.desfecho.erro .caixa { border-color: var(--vermelho); background: var(--vermelho-claro); }
.desfecho .rotulo-desfecho { font-family: var(--mono); font-weight: 700; }
footer { max-width: 980px; margin: 30px auto 40px; padding: 0 20px; color: var(--fraco);
  font-size: 13px; }
)CSS";

// success é verde; parar num freio (max_turns, budget, timeout, repetition)
// é âmbar; falha do provedor e cancelamento são vermelhos.
const char* tone_of_outcome(const std::string& outcome) {
  if (outcome == "success") return "ok";
  if (outcome == "provider_error" || outcome == "cancelled" || outcome.empty()) return "erro";
  return "alerta";
}

struct EventLook {
  const char* label;
  const char* tone;  // "aviso" ou ""
};

// Eventos que as etapas seguintes acrescentam; os demais aparecem pelo nome.
EventLook look_of(const std::string& name) {
  if (name == "retry") return {"nova tentativa", "aviso"};
  if (name == "repetition_warning") return {"aviso de repetição", "aviso"};
  if (name == "stream_fallback") return {"streaming desligado", "aviso"};
  if (name == "journal_resume") return {"retomada do diário", ""};
  if (name == "model_response") return {"resposta do modelo sem pedido", "aviso"};
  if (name == "tool_end") return {"fim de ferramenta sem início", "aviso"};
  return {nullptr, ""};
}

class Page {
 public:
  Page(const Model& model, std::string_view title) : model_(model), title_(title) {}

  std::string render() {
    out_ += "<!DOCTYPE html>\n<html lang=\"pt-BR\">\n<head>\n<meta charset=\"utf-8\">\n";
    out_ += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    out_ += "<title>Trace: " + html_text(title_) + "</title>\n";
    out_ += "<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
    header();
    out_ += "<main>\n";
    cards();
    plot_section();
    timeline();
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
  void header() {
    out_ += "<header class=\"topo\"><div class=\"largura\">\n";
    out_ += "<p class=\"sobre\">harness-zero · trace</p>\n";
    out_ += "<h1>" + html_text(title_) + "</h1>\n<nav>";
    out_ += "<a href=\"#resumo\">Resumo</a><a href=\"#tokens\">Tokens por chamada</a>";
    out_ += "<a href=\"#linha-do-tempo\">Linha do tempo</a>";
    if (model_.turns.size() > 1) {
      for (const Turn& t : model_.turns) {
        const std::string n = std::to_string(t.number);
        out_ += "<a href=\"#turno-" + n + "\">Turno " + n + "</a>";
      }
    }
    out_ += "</nav>\n</div></header>\n";
  }

  void card(const std::string& tone, const std::string& href, const std::string& label,
            const std::string& value_html, const std::string& detail_html) {
    const std::string cls = "cartao" + (tone.empty() ? "" : " " + tone);
    if (href.empty()) {
      out_ += "<div class=\"" + cls + "\">";
    } else {
      out_ += "<a class=\"" + cls + "\" href=\"" + href + "\">";
    }
    out_ += "<span class=\"rotulo\">" + label + "</span><span class=\"valor\">" + value_html +
            "</span>";
    if (!detail_html.empty()) out_ += "<span class=\"detalhe\">" + detail_html + "</span>";
    out_ += href.empty() ? "</div>\n" : "</a>\n";
  }

  void cards() {
    const TraceSummary& s = model_.summary;
    out_ += "<section id=\"resumo\" class=\"cartoes\" aria-label=\"Resumo\">\n";
    const Turn* last_closed = nullptr;
    for (const Turn& t : model_.turns) {
      if (t.end) last_closed = &t;
    }
    if (last_closed != nullptr) {
      card(tone_of_outcome(s.outcome),
           "#turno-" + std::to_string(last_closed->number) + "-desfecho", "desfecho",
           "<span class=\"valor-desfecho\">" + html_text(s.outcome) + "</span>",
           model_.turns.size() > 1 ? "do último turno" : "");
    } else {
      card("erro", "", "desfecho", "<span class=\"valor-desfecho\">—</span>",
           "nenhum turn_end no trace");
    }
    card("", "#linha-do-tempo", "chamadas ao modelo",
         "<span class=\"valor-chamadas\">" + std::to_string(s.model_calls) + "</span>",
         s.turns > 1 ? "em " + plural(s.turns, "turno", "turnos") : "");
    card(s.tool_errors > 0 ? "alerta" : "", "", "ferramentas",
         "<span class=\"valor-ferramentas\">" + std::to_string(s.tool_calls) + "</span>",
         s.tool_errors > 0 ? plural(s.tool_errors, "com erro", "com erro") : "todas ok");
    card("", "#tokens", "tokens",
         "<span class=\"valor-tokens\">" +
             std::to_string(saturating_add(model_.prompt_total, model_.completion_total)) +
             "</span>",
         std::to_string(model_.prompt_total) + " enviados + " +
             std::to_string(model_.completion_total) + " gerados");
    if (model_.cost > 0) card("", "", "custo", money(model_.cost), "");
    if (s.invalid_lines > 0) {
      card("erro", "", "linhas inválidas", std::to_string(s.invalid_lines),
           "não são um objeto JSON com \"event\"");
    }
    out_ += "</section>\n";
  }

  void plot_section() {
    out_ += "<section id=\"tokens\">\n<h2>Tokens enviados por chamada ao modelo</h2>\n";
    out_ += "<div class=\"painel\">\n";
    out_ +=
        "<p class=\"nota\">O modelo não guarda nada entre chamadas: cada pedido reenvia o "
        "histórico inteiro, que cresce a cada resposta e a cada resultado de ferramenta. "
        "Cada barra é o <code>prompt_tokens</code> de uma chamada; clique para ir até "
        "ela.</p>\n";
    const std::vector<long long>& tokens = model_.summary.prompt_tokens;
    const bool any = std::any_of(tokens.begin(), tokens.end(), [](long long t) { return t >= 0; });
    if (tokens.empty()) {
      out_ += "<p class=\"nota\">Nenhuma chamada ao modelo no trace.</p>\n";
    } else if (!any) {
      out_ +=
          "<p class=\"nota\">As respostas do modelo não trazem <code>usage</code>: não há "
          "contagem de tokens para desenhar.</p>\n";
    } else {
      plot();
    }
    out_ += "</div>\n</section>\n";
  }

  // Um múltiplo "redondo" (1, 2 ou 5 vezes 10^k) que cabe ~4 vezes no máximo.
  static long long nice_step(long long max) {
    const double raw = static_cast<double>(std::max(max, 1LL)) / 4.0;
    double pow10 = 1;
    while (pow10 * 10 <= raw) pow10 *= 10;
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
      if (m * pow10 >= raw) return std::max(1LL, static_cast<long long>(m * pow10));
    }
    return static_cast<long long>(pow10 * 10);
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
    const long long step = nice_step(max);
    const long long ceiling = std::max(step, ((max + step - 1) / step) * step);
    const double slot = plot_w / static_cast<double>(n);
    const double bar = std::min(46.0, slot * 0.72);
    const auto y_of = [&](long long v) {
      return top + plot_h - plot_h * static_cast<double>(v) / static_cast<double>(ceiling);
    };
    const auto num = [](double v) {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.1f", v);
      return std::string(buffer);
    };

    out_ += "<svg class=\"grafico\" viewBox=\"0 0 " + num(width) + " " + num(height) +
            "\" role=\"img\" aria-labelledby=\"grafico-titulo\" "
            "xmlns=\"http://www.w3.org/2000/svg\">\n";
    out_ += "<title id=\"grafico-titulo\">prompt_tokens de cada uma das " +
            plural(static_cast<long long>(n), "chamada", "chamadas") + " ao modelo</title>\n";
    for (long long v = 0; v <= ceiling; v += step) {
      const std::string y = num(y_of(v));
      out_ += "<line class=\"grade\" x1=\"" + num(left) + "\" x2=\"" + num(width - right) +
              "\" y1=\"" + y + "\" y2=\"" + y + "\"></line>";
      out_ += "<text class=\"eixo\" x=\"" + num(left - 8) + "\" y=\"" + num(y_of(v) + 4) +
              "\" text-anchor=\"end\">" + std::to_string(v) + "</text>\n";
    }
    out_ += "<text class=\"eixo\" x=\"" + num(left + plot_w / 2) + "\" y=\"" + num(height - 4) +
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
        out_ += "<line class=\"separador\" x1=\"" + x + "\" x2=\"" + x + "\" y1=\"" + num(top - 8) +
                "\" y2=\"" + num(top + plot_h) + "\"></line>";
        out_ += "<text class=\"turno-rotulo\" x=\"" +
                num(left + slot * static_cast<double>(i) + 4) + "\" y=\"" + num(top - 10) +
                "\">turno " + std::to_string(turn_of[i]) + "</text>\n";
      }
      if (i % label_every == 0) {
        out_ += "<text class=\"eixo\" x=\"" + num(cx) + "\" y=\"" + num(top + plot_h + 16) +
                "\" text-anchor=\"middle\">" + number + "</text>";
      }
      if (tokens[i] < 0) continue;
      const double y = y_of(tokens[i]);
      out_ += "<a href=\"#chamada-" + number + "\"><rect class=\"barra\" x=\"" + num(cx - bar / 2) +
              "\" y=\"" + num(y) + "\" width=\"" + num(bar) + "\" height=\"" +
              num(top + plot_h - y) + "\" rx=\"3\"><title>chamada " + number + ": " +
              std::to_string(tokens[i]) + " tokens enviados</title></rect></a>";
      // Sem espaço para o número em cada barra, ficam o da primeira e o da última.
      if (slot >= 34 || i == 0 || i + 1 == n) {
        out_ += "<text class=\"valor-barra\" x=\"" + num(cx) + "\" y=\"" + num(y - 5) +
                "\" text-anchor=\"middle\">" + std::to_string(tokens[i]) + "</text>";
      }
      out_ += "\n";
    }
    out_ += "</svg>\n";
  }

  void timeline() {
    out_ += "<section id=\"linha-do-tempo\">\n<h2>Linha do tempo</h2>\n";
    if (model_.turns.empty()) out_ += "<p class=\"nota\">O trace está vazio.</p>\n";
    for (const Turn& t : model_.turns) turn(t);
    out_ += "</section>\n";
  }

  void turn(const Turn& t) {
    const std::string n = std::to_string(t.number);
    out_ += "<section class=\"turno\" id=\"turno-" + n + "\">\n";
    if (model_.turns.size() > 1) out_ += "<h3>Turno " + n + "</h3>\n";
    out_ += "<ol class=\"linha\">\n";
    for (const Node& e : t.entries) node(e, true);
    if (t.end) {
      outcome(*t.end, "turno-" + n + "-desfecho");
    } else {
      out_ +=
          "<li class=\"desfecho erro\"><div class=\"caixa\">Sem desfecho: o trace termina "
          "antes do <code>turn_end</code> (o processo parou no meio do turno?).</div></li>\n";
    }
    out_ += "</ol>\n</section>\n";
  }

  void node(const Node& e, bool top_level) {
    switch (e.kind) {
      case Node::Kind::call:
        call(e);
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

  void call(const Node& e) {
    const std::string n = std::to_string(e.number);
    out_ += "<li class=\"chamada\" id=\"chamada-" + n + "\"><div class=\"caixa\">\n";
    out_ += "<div class=\"cabecalho\"><a class=\"num\" href=\"#chamada-" + n + "\">#" + n +
            "</a><strong class=\"titulo\">→ Chamada ao modelo</strong><span class=\"meta\">";
    std::vector<std::string> meta;
    if (auto volta = integer(e.first, "turn")) meta.push_back("volta " + std::to_string(*volta));
    if (auto m = integer(e.first, "messages")) {
      meta.push_back(plural(*m, "mensagem no histórico", "mensagens no histórico"));
    }
    if (auto tools = integer(e.first, "tools")) {
      meta.push_back(plural(*tools, "ferramenta oferecida", "ferramentas oferecidas"));
    }
    out_ += join(meta) + "</span></div>\n";

    if (!e.second) {
      out_ +=
          "<div class=\"resposta\">← <span class=\"selo aberta\">sem resposta</span> "
          "<span class=\"meta\">nenhum <code>model_response</code> depois deste pedido</span>"
          "</div>\n";
    } else {
      const json& r = *e.second;
      const long long calls = integer(r, "tool_calls").value_or(0);
      out_ += "<div class=\"resposta\">← <strong>";
      out_ += calls == 0 ? std::string("resposta em texto")
                         : plural(calls, "chamada de ferramenta", "chamadas de ferramenta");
      out_ += "</strong>";
      const json& usage = usage_of(r);
      const std::optional<long long> prompt = integer(usage, "prompt_tokens");
      const std::optional<long long> completion = integer(usage, "completion_tokens");
      if (prompt || completion) {
        out_ += " · <span class=\"tokens\"><span class=\"tokens-prompt\">" +
                (prompt ? std::to_string(*prompt) : std::string("—")) +
                "</span> enviados + <span class=\"tokens-completion\">" +
                (completion ? std::to_string(*completion) : std::string("—")) +
                "</span> gerados</span>";
      } else {
        out_ += " · <span class=\"meta\">sem contagem de tokens</span>";
      }
      const std::string finish = field(r, "finish_reason");
      if (!finish.empty()) {
        out_ +=
            " · <span class=\"meta\">finish_reason <code>" + html_text(finish) + "</code></span>";
      }
      const double cost = real(r, "cost_usd");
      if (cost > 0) out_ += " · " + money(cost);
      out_ += "</div>\n";
    }
    if (!e.children.empty()) {
      out_ += "<ol class=\"filhos\">\n";
      for (const Node& child : e.children) node(child, false);
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
        block("argumentos", "argumentos", it->get<std::string>());
        return;
      }
    }
    if (!parsed.is_object() || parsed.empty()) {
      block("argumentos", "argumentos", dump(parsed, 2));
      return;
    }
    out_ += "<div class=\"rotulo-pre\">argumentos</div><dl class=\"campos argumentos\">";
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
      out_ += "<div class=\"rotulo-pre\">" + label + "</div><pre class=\"" + cls + "\">" +
              html_text(text) + "</pre>\n";
      return;
    }
    out_ += "<details><summary>" + label + " (" + size_of(text) + ")</summary><pre class=\"" + cls +
            "\">" + html_text(text) + "</pre></details>\n";
  }

  void tool(const Node& e, bool top_level) {
    const std::string n = std::to_string(e.number);
    std::string state = "aberta";
    if (e.second) state = ok_of(*e.second) ? "ok" : "falhou";
    out_ += std::string(top_level ? "<li class=\"avulsa\">" : "<li>") + "<div class=\"ferramenta " +
            state + "\" id=\"ferramenta-" + n + "\">\n";
    out_ += "<div class=\"cabecalho\"><span>⚙ <code class=\"nome\">" +
            html_text(field(e.first, "name")) + "</code></span>";
    if (state == "ok") {
      out_ += "<span class=\"selo ok\">ok</span>";
    } else if (state == "falhou") {
      out_ += "<span class=\"selo falhou\">erro</span>";
    } else {
      out_ += "<span class=\"selo aberta\">sem fim registrado</span>";
    }
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
      if (!summary.empty()) block("resultado", "resultado (resumo)", summary);
    }
    out_ += "</div></li>\n";
  }

  void other(const Node& e) {
    const std::string name = field(e.first, "event");
    const EventLook look = look_of(name);
    out_ += "<li><div class=\"evento" + std::string(*look.tone ? " " : "") + look.tone +
            "\" id=\"evento-" + std::to_string(e.number) + "\">\n<div class=\"cabecalho\">";
    out_ += std::string(*look.tone ? "⚠ " : "· ");
    if (look.label != nullptr) {
      out_ += "<strong>" + std::string(look.label) + "</strong> <code class=\"meta\">" +
              html_text(name) + "</code>";
    } else {
      out_ += "<strong><code>" + html_text(name) + "</code></strong>";
    }
    out_ += "</div>\n";
    fields(e.first);
    out_ += "</div></li>\n";
  }

  void fields(const json& event) {
    std::string rows;
    for (auto it = event.begin(); it != event.end(); ++it) {
      if (it.key() == "event") continue;
      const std::string value = it->is_string() ? it->get<std::string>() : dump(*it);
      rows += "<dt>" + html_text(it.key()) + "</dt><dd>" + html_text(value) + "</dd>";
    }
    if (!rows.empty()) out_ += "<dl class=\"campos\">" + rows + "</dl>\n";
  }

  void invalid(const Node& e) {
    std::string raw = e.raw;
    if (raw.size() > 600) raw = raw.substr(0, 600) + "…";
    out_ += "<li><div class=\"evento invalido\">\n<div class=\"cabecalho\">✗ <strong>linha " +
            std::to_string(e.number) +
            " inválida</strong><span class=\"meta\">não é um objeto JSON com o campo "
            "\"event\"</span></div>\n<pre>" +
            html_text(raw) + "</pre></div></li>\n";
  }

  void outcome(const json& end, const std::string& id) {
    const std::string label = field(end, "outcome");
    out_ += "<li class=\"desfecho " + std::string(tone_of_outcome(label)) + "\" id=\"" + id +
            "\"><div class=\"caixa\">■ Desfecho: <span class=\"rotulo-desfecho\">" +
            html_text(label.empty() ? "(sem outcome)" : label) + "</span>";
    if (auto turns = integer(end, "turns")) {
      out_ += " · " + plural(*turns, "chamada ao modelo", "chamadas ao modelo");
    }
    const json& usage = usage_of(end);
    const std::optional<long long> prompt = integer(usage, "prompt_tokens");
    const std::optional<long long> completion = integer(usage, "completion_tokens");
    if (prompt || completion) {
      out_ += " · " + std::to_string(prompt.value_or(0) + completion.value_or(0)) + " tokens (" +
              std::to_string(prompt.value_or(0)) + " enviados + " +
              std::to_string(completion.value_or(0)) + " gerados)";
    }
    const double cost = real(end, "cost_usd");
    if (cost > 0) out_ += " · " + money(cost);
    out_ += "</div></li>\n";
  }

  static std::string join(const std::vector<std::string>& parts) {
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : " · ") + p;
    return out;
  }

  const Model& model_;
  std::string title_;
  std::string out_;
};

}  // namespace

std::string html_text(std::string_view text) { return escape(visible_utf8(text)); }

TraceHtml render_trace_html(std::string_view jsonl, std::string_view title) {
  const Model model = build_model(jsonl);
  return {Page(model, title).render(), model.summary};
}

int trace_html_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  namespace fs = std::filesystem;
  const auto usage_error = [&err](const std::string& message) {
    err << "hz-course: " << message << "\n"
        << "uso: hz-course trace-html ARQUIVO.jsonl [--out ARQUIVO.html|-] [--title TÍTULO]\n";
    return 2;
  };
  std::string input;
  std::optional<std::string> output_arg;
  std::optional<std::string> title_arg;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--out" || a == "--title") {
      if (i + 1 >= args.size()) return usage_error("a opção " + a + " precisa de um valor");
      (a == "--out" ? output_arg : title_arg) = args[++i];
    } else if (a.size() > 1 && a[0] == '-') {
      return usage_error("opção desconhecida para trace-html: " + a);
    } else if (!input.empty()) {
      return usage_error("um trace por vez (veio também: " + a + ")");
    } else {
      input = a;
    }
  }
  if (input.empty()) return usage_error("falta o arquivo de trace (o JSONL de --trace)");

  std::error_code ec;
  if (fs::is_directory(input, ec)) return usage_error(input + " é uma pasta, não um trace");
  const std::optional<std::string> jsonl = read_file(input);
  if (!jsonl) return usage_error("não consegui ler o trace " + input);
  fs::path output = fs::path(input).replace_extension(".html");
  if (output_arg) output = *output_arg;
  const bool to_stdout = output == "-";
  if (!to_stdout && (output == fs::path(input) || fs::equivalent(output, input, ec))) {
    return usage_error("a página sairia por cima do próprio trace: escolha outro --out");
  }
  const std::string title = title_arg ? *title_arg : fs::path(input).filename().string();

  const TraceHtml page = render_trace_html(*jsonl, title);
  if (to_stdout) {
    out << page.html;
  } else if (!write_file(output, page.html)) {
    err << "hz-course: não consegui escrever " << output.generic_string() << "\n";
    return 1;
  }
  // Com a página no stdout, o resumo vai para o stderr.
  std::ostream& report = to_stdout ? err : out;
  const TraceSummary& s = page.summary;
  if (!to_stdout) report << "escrito: " << output.generic_string() << "\n";
  report << "  " << plural(s.events, "evento", "eventos") << ", "
         << plural(s.model_calls, "chamada ao modelo", "chamadas ao modelo") << ", "
         << plural(s.tool_calls, "ferramenta", "ferramentas")
         << "; desfecho: " << (s.outcome.empty() ? "nenhum (falta o turn_end)" : s.outcome) << "\n";
  if (s.invalid_lines > 0) {
    err << "aviso: "
        << plural(s.invalid_lines, "linha do trace não é um evento JSON; a página a mostra",
                  "linhas do trace não são eventos JSON; a página as mostra")
        << " como inválida" << (s.invalid_lines == 1 ? "" : "s") << "\n";
  }
  return 0;
}

}  // namespace hz::course
