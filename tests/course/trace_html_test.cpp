#include <doctest/doctest.h>

#include "string_makers.hpp"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "fixture.hpp"
#include "html_check.hpp"
#include "hz/course/trace_html.hpp"
#include "nlohmann/json.hpp"

using hz::course::html_text;
using hz::course::render_trace_html;
using hz::course::render_trace_otlp;
using hz::course::TraceHtml;
using hz::course::TraceOtlp;
using hz::course::test::check_html;
using hz::course::test::run_course;
using hz::course::test::Tree;
using nlohmann::json;

namespace {

// O trace de `hz-01-loop --trace` com o cenário monday, como a etapa o escreve,
// com horas redondas: começa em 2025-06-02T09:00:00Z, a chamada 3 é a mais
// lenta (1416 ms) e o turno dura 4421 ms.
const char* const kMonday =
    R"({"event":"model_request","messages":2,"model":"hz-mock","time":"2025-06-02T09:00:00.000000Z","tools":5,"turn":1}
{"cost_usd":0.0,"duration_ms":812.0,"event":"model_response","finish_reason":"tool_calls","time":"2025-06-02T09:00:00.812000Z","tool_calls":1,"turn":1,"usage":{"completion_tokens":31,"prompt_tokens":412}}
{"arguments":"{\"command\":\"sh test_login.sh\"}","call_id":"call_1","event":"tool_start","name":"run_shell","time":"2025-06-02T09:00:00.813000Z","turn":1}
{"call_id":"call_1","duration_ms":32.0,"event":"tool_end","ok":false,"output_bytes":160,"summary":"código de saída: 1 · test_login ... FALHOU …","time":"2025-06-02T09:00:00.845000Z","turn":1}
{"event":"model_request","messages":4,"model":"hz-mock","time":"2025-06-02T09:00:00.846000Z","tools":5,"turn":2}
{"cost_usd":0.0,"duration_ms":684.0,"event":"model_response","finish_reason":"tool_calls","time":"2025-06-02T09:00:01.530000Z","tool_calls":1,"turn":2,"usage":{"completion_tokens":36,"prompt_tokens":503}}
{"arguments":"{\"path\":\"config.ini\"}","call_id":"call_2","event":"tool_start","name":"read_file","time":"2025-06-02T09:00:01.531000Z","turn":2}
{"call_id":"call_2","duration_ms":2.0,"event":"tool_end","ok":true,"output_bytes":104,"summary":"# Configuração do serviço de login. · [session] …","time":"2025-06-02T09:00:01.533000Z","turn":2}
{"event":"model_request","messages":6,"model":"hz-mock","time":"2025-06-02T09:00:01.534000Z","tools":5,"turn":3}
{"cost_usd":0.0,"duration_ms":1416.0,"event":"model_response","finish_reason":"tool_calls","time":"2025-06-02T09:00:02.950000Z","tool_calls":1,"turn":3,"usage":{"completion_tokens":72,"prompt_tokens":618}}
{"arguments":"{\"new_text\":\"cookie_ttl_seconds = 3600\",\"old_text\":\"cookie_ttl_seconds = 0\",\"path\":\"config.ini\"}","call_id":"call_3","event":"tool_start","name":"edit_file","time":"2025-06-02T09:00:02.951000Z","turn":3}
{"call_id":"call_3","duration_ms":4.0,"event":"tool_end","ok":true,"output_bytes":27,"summary":"arquivo editado: config.ini","time":"2025-06-02T09:00:02.955000Z","turn":3}
{"event":"model_request","messages":8,"model":"hz-mock","time":"2025-06-02T09:00:02.956000Z","tools":5,"turn":4}
{"cost_usd":0.0,"duration_ms":654.0,"event":"model_response","finish_reason":"tool_calls","time":"2025-06-02T09:00:03.610000Z","tool_calls":1,"turn":4,"usage":{"completion_tokens":29,"prompt_tokens":712}}
{"arguments":"{\"command\":\"sh test_login.sh\"}","call_id":"call_4","event":"tool_start","name":"run_shell","time":"2025-06-02T09:00:03.611000Z","turn":4}
{"call_id":"call_4","duration_ms":29.0,"event":"tool_end","ok":true,"output_bytes":94,"summary":"código de saída: 0 · test_login ... ok …","time":"2025-06-02T09:00:03.640000Z","turn":4}
{"event":"model_request","messages":10,"model":"hz-mock","time":"2025-06-02T09:00:03.641000Z","tools":5,"turn":5}
{"cost_usd":0.0,"duration_ms":779.0,"event":"model_response","finish_reason":"stop","time":"2025-06-02T09:00:04.420000Z","tool_calls":0,"turn":5,"usage":{"completion_tokens":58,"prompt_tokens":806}}
{"cost_usd":0.0,"duration_ms":4421.0,"event":"turn_end","outcome":"success","time":"2025-06-02T09:00:04.421000Z","turns":5,"usage":{"completion_tokens":226,"prompt_tokens":3051}}
)";

// O mesmo trace gravado antes de o trace ter horas: sem "time" nem
// "duration_ms" (e sem o "model" dos pedidos, que veio junto com elas).
std::string monday_untimed() {
  static const std::regex kStamp(R"re(,"(time|duration_ms|model)":("[^"]*"|[0-9.]+))re");
  return std::regex_replace(kMonday, kStamp, "");
}

// Todas as capturas (grupo 1) de `pattern` em `text`, em ordem.
std::vector<std::string> all(const std::string& text, const std::string& pattern) {
  std::vector<std::string> found;
  const std::regex re(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it) {
    found.push_back((*it)[1].str());
  }
  return found;
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + needle.size())) {
    ++n;
  }
  return n;
}

// Confere a página inteira: HTML bem formado e todo link interno com destino.
void require_well_formed(const std::string& html) {
  const auto report = check_html(html);
  std::string errors;
  for (const std::string& e : report.errors) errors += e + "\n";
  INFO(errors);
  REQUIRE(report.errors.empty());
  REQUIRE(report.elements > 20);
}

bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t len = b < 0x80         ? 1
                      : (b >> 5) == 6  ? 2
                      : (b >> 4) == 14 ? 3
                      : (b >> 3) == 30 ? 4
                                       : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (std::size_t k = 1; k < len; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += len;
  }
  return true;
}

}  // namespace

TEST_CASE(
    "trace-html: a página do trace de segunda-feira é HTML bem formado e sem links quebrados") {
  const TraceHtml page = render_trace_html(kMonday, "monday.jsonl");
  require_well_formed(page.html);
  const auto report = check_html(page.html);
  CHECK(report.internal_links.size() >= 10);
  CHECK(page.html.rfind("<!DOCTYPE html>\n<html lang=\"pt-BR\">", 0) == 0);
  // Autocontida: nada de fora, nada de JavaScript.
  CHECK(page.html.find("<script") == std::string::npos);
  CHECK(page.html.find("src=") == std::string::npos);
  CHECK(page.html.find("<link") == std::string::npos);
  CHECK(page.html.find("@import") == std::string::npos);
  CHECK(page.html.find("url(") == std::string::npos);
}

TEST_CASE("trace-html: os números da página batem com o trace (chamadas, tokens, desfecho)") {
  const TraceHtml page = render_trace_html(kMonday, "monday.jsonl");
  const std::string& html = page.html;

  CHECK(page.summary.model_calls == 5);
  CHECK(page.summary.tool_calls == 4);
  CHECK(page.summary.tool_errors == 1);
  CHECK(page.summary.events == 19);
  CHECK(page.summary.turns == 1);
  CHECK(page.summary.outcome == "success");
  CHECK(page.summary.prompt_tokens == std::vector<long long>{412, 503, 618, 712, 806});

  // O resumo no topo.
  CHECK(all(html, R"re(class="value-calls">(\d+)<)re") == std::vector<std::string>{"5"});
  CHECK(all(html, R"re(class="value-tools">(\d+)<)re") == std::vector<std::string>{"4"});
  CHECK(all(html, R"re(value-outcome">([^<]*)<)re") == std::vector<std::string>{"success"});
  CHECK(all(html, R"re(class="value-tokens">(\d+)<)re") == std::vector<std::string>{"3277"});
  CHECK(html.find("<span class=\"detail\">3051 enviados + 226 gerados</span>") !=
        std::string::npos);
  CHECK(html.find("<span class=\"detail\">1 com erro</span>") != std::string::npos);

  // Uma caixa por chamada, com os tokens de cada uma, na ordem.
  CHECK(all(html, R"re(<li class="call" id="call-(\d+)")re") ==
        std::vector<std::string>{"1", "2", "3", "4", "5"});
  CHECK(all(html, R"re(class="tokens-prompt">(\d+)<)re") ==
        std::vector<std::string>{"412", "503", "618", "712", "806"});
  CHECK(all(html, R"re(class="tokens-completion">(\d+)<)re") ==
        std::vector<std::string>{"31", "36", "72", "29", "58"});

  // O gráfico: uma barra por chamada, que leva até ela, mais alta a cada chamada.
  CHECK(all(html, R"re(<title>chamada \d+: (\d+) tokens enviados</title>)re") ==
        std::vector<std::string>{"412", "503", "618", "712", "806"});
  CHECK(all(html, R"re(<a href="#call-(\d+)"><rect)re") ==
        std::vector<std::string>{"1", "2", "3", "4", "5"});
  const auto heights = all(html, R"re(<rect class="bar"[^>]* height="([0-9.]+)")re");
  REQUIRE(heights.size() == 5);
  for (std::size_t i = 1; i < heights.size(); ++i) {
    CHECK(std::stod(heights[i]) > std::stod(heights[i - 1]));
  }

  // O desfecho, como o turn_end o conta.
  CHECK(html.find("<li class=\"outcome ok\" id=\"turn-1-outcome\"><div class=\"box\">■ "
                  "Desfecho: <span class=\"outcome-label\">success</span> · 5 chamadas ao "
                  "modelo · 3277 tokens (3051 enviados + 226 gerados) · <span "
                  "class=\"duration\">4.42 s</span></div></li>") != std::string::npos);

  // As ferramentas, com argumentos e resultado.
  CHECK(count(html, "<div class=\"tool ok\"") == 3);
  CHECK(count(html, "<div class=\"tool failed\"") == 1);
  CHECK(html.find("<code class=\"name\">edit_file</code>") != std::string::npos);
  CHECK(html.find("<dl class=\"fields arguments\"><dt>new_text</dt><dd>cookie_ttl_seconds = "
                  "3600</dd><dt>old_text</dt><dd>cookie_ttl_seconds = 0</dd><dt>path</dt><dd>"
                  "config.ini</dd></dl>") != std::string::npos);
  CHECK(html.find("código de saída: 1 · test_login ... FALHOU …</pre>") != std::string::npos);
}

TEST_CASE("trace-html: números fora da faixa contam como ausentes, sem estourar os totais") {
  // O mesmo achado do fuzzing que a linha humana (fuzz/trace.cpp): um double
  // enorme não vira long long, e um inteiro acima de 2^53 não entra na soma.
  const TraceHtml page = render_trace_html(
      R"({"event":"model_request","messages":2,"tools":5,"turn":6.66e87}
{"event":"model_response","tool_calls":0,"turn":1,"usage":{"completion_tokens":9223372036854775807,"prompt_tokens":1e300}}
{"event":"model_request","messages":3,"tools":5,"turn":2}
{"event":"model_response","tool_calls":0,"turn":2,"usage":{"completion_tokens":5,"prompt_tokens":100}}
)",
      "faixa.jsonl");
  CHECK(page.summary.model_calls == 2);
  CHECK(page.summary.prompt_tokens == std::vector<long long>{-1, 100});
  CHECK(all(page.html, R"re(class="value-tokens">(\d+)<)re") == std::vector<std::string>{"105"});
  CHECK(check_html(page.html).errors.empty());
}

TEST_CASE("trace-html: tudo o que vem do trace é escapado, inclusive controles e bytes inválidos") {
  const std::string jsonl =
      R"({"event":"model_request","turn":1,"messages":2,"tools":1}
{"event":"model_response","turn":1,"tool_calls":1,"usage":{"prompt_tokens":10,"completion_tokens":2}}
{"event":"tool_start","turn":1,"call_id":"a&b\"><i>","name":"<img src=x onerror=alert(1)>","arguments":"{\"command\":\"<script>alert('x')</script>\"}"}
{"event":"tool_end","turn":1,"call_id":"a&b\"><i>","ok":true,"output_bytes":5,"summary":"\u001b[31mvermelho\u001b[0m e \u0007"}
{"event":"turn_end","outcome":"<b>success</b>","turns":1}
)" + std::string("{\"event\":\"x\"} \xff\xfe\n");
  const TraceHtml page = render_trace_html(jsonl, "</title><script>t</script>");
  require_well_formed(page.html);
  CHECK(valid_utf8(page.html));
  CHECK(page.html.find("<script") == std::string::npos);
  CHECK(page.html.find("<img") == std::string::npos);
  CHECK(page.html.find("<i>") == std::string::npos);
  CHECK(page.html.find("<b>") == std::string::npos);
  CHECK(page.html.find("\x1b") == std::string::npos);
  CHECK(page.html.find("<title>Trace: &lt;/title&gt;&lt;script&gt;t&lt;/script&gt;</title>") !=
        std::string::npos);
  CHECK(page.html.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;") != std::string::npos);
  CHECK(page.html.find("id <code>a&amp;b&quot;&gt;&lt;i&gt;</code>") != std::string::npos);
  CHECK(page.html.find("\\x1b[31mvermelho\\x1b[0m e \\x07") != std::string::npos);
  CHECK(page.html.find("value-outcome\">&lt;b&gt;success&lt;/b&gt;<") != std::string::npos);
  CHECK(page.html.find("{&quot;event&quot;:&quot;x&quot;} \xEF\xBF\xBD\xEF\xBF\xBD") !=
        std::string::npos);
}

TEST_CASE(
    "html_text troca bytes inválidos por U+FFFD e escreve controles como o trace do terminal") {
  CHECK(html_text("a<b>&\"'") == "a&lt;b&gt;&amp;&quot;&#39;");
  CHECK(html_text("linha\r\nnova\ttab") == "linha\nnova\ttab");
  CHECK(html_text("\x1b[0m\x7f") == "\\x1b[0m\\x7f");
  CHECK(html_text("r\rx") == "r\\x0dx");
  CHECK(html_text("\xc3\xa7\xc3") == "ç\xEF\xBF\xBD");         // ç e um byte cortado
  CHECK(html_text("\xc0\xaf") == "\xEF\xBF\xBD\xEF\xBF\xBD");  // sobrelongo
  CHECK(html_text("\xed\xa0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  CHECK(html_text("\xc2\x85") == "\\u0085");                                   // C1 (NEL)
  CHECK(html_text("\xf0\x9f\x99\x82") == "\xf0\x9f\x99\x82");                  // emoji passa
}

TEST_CASE("trace-html: linhas que não são eventos aparecem como inválidas e o resto continua") {
  const std::string jsonl =
      "{\"event\":\"model_request\",\"turn\":1,\"messages\":2}\n"
      "isto não é json\n"
      "[1,2]\n"
      "\n"
      "{\"sem_evento\":1}\n"
      "{\"event\":42}\n"
      "{\"event\":\"model_response\",\"turn\":1,\"tool_calls\":0,"
      "\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":1}}\n"
      "{\"event\":\"turn_end\",\"outcome\":\"success\",\"turns\":1}";
  const TraceHtml page = render_trace_html(jsonl, "t");
  require_well_formed(page.html);
  CHECK(page.summary.invalid_lines == 4);
  CHECK(page.summary.events == 3);
  CHECK(page.summary.prompt_tokens == std::vector<long long>{7});
  CHECK(all(page.html, R"re(<strong>linha (\d+) inválida</strong>)re") ==
        std::vector<std::string>{"2", "3", "5", "6"});
  CHECK(page.html.find("<pre>isto não é json</pre>") != std::string::npos);
  CHECK(page.html.find("<span class=\"label\">linhas inválidas</span><span class=\"value\">4<") !=
        std::string::npos);
}

TEST_CASE("trace-html: cada evento das etapas tem a sua caixa, e a parada pesa mais que o aviso") {
  const std::string jsonl =
      R"({"event":"journal_resume","records":4,"next":"run_tools","decisions":[{"call_id":"c1","name":"run_tests","decision":"run","reason":"é idempotente"}]}
{"event":"model_request","turn":1,"messages":2}
{"event":"model_error","turn":1,"attempt":1,"kind":"http","status":429,"message":"HTTP 429","billed":false,"cost_usd":0.0}
{"event":"retry","turn":1,"attempt":2,"delay_ms":500,"reason":"HTTP 429"}
{"event":"model_request","turn":1,"messages":2}
{"event":"stream_fallback","turn":1,"reason":"o servidor não manda SSE"}
{"event":"model_response","turn":1,"tool_calls":1,"usage":{"prompt_tokens":9,"completion_tokens":3}}
{"event":"tool_start","turn":1,"call_id":"c1","name":"run_shell","arguments":"{}"}
{"event":"tool_end","turn":1,"call_id":"c1","ok":false,"summary":"falhou"}
{"event":"tool_repetition","turn":1,"call_id":"c1","name":"run_shell","repetition":"repeat","repeat_count":3,"threshold":3}
{"event":"repetition_warning","turn":1,"call_id":"c1","name":"run_shell","kind":"same","count":3}
{"event":"note","turn":1,"text":"Você já rodou isto três vezes."}
{"event":"repetition_stop","turn":1,"call_id":"c1","name":"run_shell","kind":"same","count":4}
{"event":"tool_skipped","turn":1,"call_id":"c2","name":"read_file","outcome":"repetition"}
{"event":"coisa_nova","valor":[1,2]}
{"event":"turn_end","outcome":"repetition","turns":1,"retries":1}
)";
  const TraceHtml page = render_trace_html(jsonl, "t");
  require_well_formed(page.html);
  const std::string& html = page.html;
  // Uma classe por tom: a parada (stop) é a mais forte, o aviso é âmbar.
  CHECK(all(html, R"re(<div class="event ([a-z]+)" id="event-\d+" data-event="([a-z_]+)")re") ==
        std::vector<std::string>{"info", "info", "warning", "warning", "warning", "info", "stop",
                                 "skipped"});
  CHECK(html.find("↺ Retomada do journal: 4 registros · próximo passo: <code>run_tools</code>") !=
        std::string::npos);
  CHECK(html.find("<li><code>run_tests</code> (c1): <strong>run</strong> · é idempotente</li>") !=
        std::string::npos);
  CHECK(html.find("↻ Nova tentativa 2 em 500 ms") != std::string::npos);
  CHECK(html.find("⚠ Streaming desligado nesta chamada") != std::string::npos);
  CHECK(html.find("↻ <code class=\"name\">run_shell</code>: repetição 3/3") != std::string::npos);
  CHECK(html.find("⚠ Aviso de repetição: <code>run_shell</code> 3 vezes com o mesmo resultado") !=
        std::string::npos);
  CHECK(html.find("■ O turno para: repetição depois do aviso") != std::string::npos);
  CHECK(html.find("<pre class=\"note-text\">Você já rodou isto três vezes.</pre>") !=
        std::string::npos);
  CHECK(html.find("⊘ <code class=\"name\">read_file</code> não rodou") != std::string::npos);
  // A tentativa que falhou é uma chamada falha, e a seguinte é a nova tentativa dela.
  CHECK(html.find("<li class=\"call failed\" id=\"call-1\">") != std::string::npos);
  CHECK(html.find("✗ <strong>a tentativa 1 falhou</strong>: HTTP 429") != std::string::npos);
  CHECK(count(html, "<span class=\"badge retry\">nova tentativa</span>") == 1);
  CHECK(html.find("<span class=\"calls-text\">1 chamada ao modelo · 1 nova tentativa</span>") !=
        std::string::npos);
  // Um evento que a página não conhece aparece pelo nome, com todos os campos.
  CHECK(html.find("<strong><code>coisa_nova</code></strong>") != std::string::npos);
  CHECK(html.find("<dt>valor</dt><dd>[1,2]</dd>") != std::string::npos);
  // A nova tentativa aconteceu dentro da chamada 1: aparece dentro da caixa dela.
  const std::size_t call = html.find("id=\"call-1\"");
  const std::size_t retry = html.find("data-event=\"retry\"");
  const std::size_t next_call = html.find("id=\"call-2\"");
  CHECK(call < retry);
  CHECK(retry < next_call);
  CHECK(html.find("<li class=\"outcome warning\" id=\"turn-1-outcome\">") != std::string::npos);
  // O desfecho é a faixa do topo, antes do resumo.
  CHECK(html.find("id=\"outcome\" class=\"outcome-banner warning\"") < html.find("id=\"summary\""));
  CHECK(html.find("<span class=\"meaning\">o modelo repetiu a mesma chamada depois do "
                  "aviso</span>") != std::string::npos);
}

TEST_CASE("trace-html: a linha do tempo fica na escala do tempo, com a mais lenta marcada") {
  const TraceHtml page = render_trace_html(kMonday, "monday.jsonl");
  require_well_formed(page.html);
  const std::string& html = page.html;
  CHECK(page.summary.timed);
  CHECK(page.summary.untimed_events == 0);
  REQUIRE(page.summary.duration_ms.has_value());
  CHECK(*page.summary.duration_ms == 4421.0);
  CHECK(all(html, R"re(class="value-duration">([^<]*)<)re") == std::vector<std::string>{"4.42 s"});
  // Uma barra por chamada e por ferramenta, em ordem, do tamanho da duração.
  CHECK(all(html, R"re(<a href="#((?:call|tool)-\d+)"><text class="row-label")re") ==
        std::vector<std::string>{"call-1", "tool-1", "call-2", "tool-2", "call-3", "tool-3",
                                 "call-4", "tool-4", "call-5"});
  CHECK(all(html, R"re(data-ms="([0-9.]+)")re") ==
        std::vector<std::string>{"812.000", "32.000", "684.000", "2.000", "1416.000", "4.000",
                                 "654.000", "29.000", "779.000"});
  const auto xs = all(html, R"re(<rect class="bar (?:call|tool)[^"]*" x="([0-9.]+)")re");
  REQUIRE(xs.size() == 9);
  for (std::size_t i = 1; i < xs.size(); ++i) CHECK(std::stod(xs[i]) > std::stod(xs[i - 1]));
  const auto widths = all(html, R"re(<rect class="bar call"[^>]* width="([0-9.]+)")re");
  REQUIRE(widths.size() == 5);
  CHECK(std::stod(widths[2]) > std::stod(widths[0]));  // 1416 ms contra 812 ms
  // Cada caixa diz quando começou (desde o primeiro evento) e quanto durou.
  CHECK(html.find("<span class=\"at\">+1.534 s</span><span class=\"duration\">1.42 s</span><span "
                  "class=\"badge slow\">a mais lenta</span>") != std::string::npos);
  CHECK(count(html, "a mais lenta</span>") == 2);  // a chamada 3 e o primeiro run_shell
  CHECK(html.find(
            "id=\"tool-1\">\n<div class=\"heading\"><span>⚙ <code "
            "class=\"name\">run_shell</code></span><span class=\"badge failed\">erro</span><span "
            "class=\"at\">+0.813 s</span><span class=\"duration\">32 ms</span><span "
            "class=\"badge slow\">") != std::string::npos);
  CHECK(html.find("class=\"note untimed\"") == std::string::npos);
}

TEST_CASE("trace-html: um trace de antes das horas mostra a ordem e diz por quê") {
  const TraceHtml page = render_trace_html(monday_untimed(), "velho.jsonl");
  require_well_formed(page.html);
  CHECK_FALSE(page.summary.timed);
  CHECK(page.summary.untimed_events == 19);
  CHECK_FALSE(page.summary.duration_ms.has_value());
  CHECK(page.html.find("<p class=\"note untimed\">19 eventos não têm hora (<code>time</code>; o "
                       "primeiro na linha 1)") != std::string::npos);
  CHECK(page.html.find("waterfall") == std::string::npos);
  CHECK(page.html.find("class=\"duration\"") == std::string::npos);
  // Os números são os mesmos do trace com horas.
  CHECK(page.summary.model_calls == 5);
  CHECK(page.summary.prompt_tokens == std::vector<long long>{412, 503, 618, 712, 806});
}

TEST_CASE(
    "trace-html: chamadas e novas tentativas com as palavras do terminal, e o custo de cada uma") {
  // Etapa 02 com preço conhecido: duas tentativas falham (429), a terceira responde.
  const std::string jsonl =
      R"({"event":"model_request","turn":1,"messages":2,"model":"gpt-x","time":"2025-06-02T09:00:00.000000Z"}
{"event":"model_error","turn":1,"attempt":1,"kind":"http","status":429,"message":"HTTP 429","billed":false,"cost_usd":0.0,"duration_ms":10.0,"time":"2025-06-02T09:00:00.010000Z"}
{"event":"retry","turn":1,"attempt":2,"delay_ms":400,"time":"2025-06-02T09:00:00.011000Z"}
{"event":"model_request","turn":1,"messages":2,"model":"gpt-x","time":"2025-06-02T09:00:00.411000Z"}
{"event":"model_error","turn":1,"attempt":2,"kind":"idle","status":0,"message":"silêncio","billed":true,"cost_usd":0.0004,"duration_ms":9.0,"time":"2025-06-02T09:00:00.420000Z"}
{"event":"retry","turn":1,"attempt":3,"delay_ms":800,"time":"2025-06-02T09:00:00.421000Z"}
{"event":"model_request","turn":1,"messages":2,"model":"gpt-x","time":"2025-06-02T09:00:01.221000Z"}
{"event":"model_response","turn":1,"tool_calls":0,"usage":{"prompt_tokens":1000,"completion_tokens":100},"cost_usd":0.0025,"duration_ms":30.0,"time":"2025-06-02T09:00:01.251000Z"}
{"event":"turn_end","outcome":"success","turns":1,"retries":2,"usage":{"prompt_tokens":1000,"completion_tokens":100},"cost_usd":0.0029,"cost_known":true,"estimated":false,"duration_ms":1252.0,"time":"2025-06-02T09:00:01.252000Z"}
)";
  const TraceHtml page = render_trace_html(jsonl, "t");
  require_well_formed(page.html);
  const std::string& html = page.html;
  CHECK(page.summary.model_calls == 1);
  CHECK(page.summary.retries == 2);
  CHECK(page.summary.attempts == 3);
  CHECK(all(html, R"re(class="value-calls">(\d+)<)re") == std::vector<std::string>{"1"});
  CHECK(html.find("<span class=\"calls-text\">1 chamada ao modelo · 2 novas tentativas</span>") !=
        std::string::npos);
  CHECK(count(html, "<span class=\"badge retry\">nova tentativa</span>") == 2);
  // O custo de cada chamada e o do turno, como o trace do terminal os escreve.
  CHECK(all(html, R"re(<span class="cost call-cost">([^<]*)<)re") ==
        std::vector<std::string>{"US$ 0.0025"});
  CHECK(html.find("cobrada: <span class=\"cost\">US$ 0.0004 (estimado)</span>") !=
        std::string::npos);
  CHECK(html.find("HTTP 429 · <span class=\"meta\">tipo <code>http</code> · HTTP 429 · nada "
                  "cobrado</span>") != std::string::npos);
  CHECK(html.find("<span class=\"outcome-label\">success</span> · 1 chamada ao modelo · 2 novas "
                  "tentativas · 1100 tokens (1000 enviados + 100 gerados) · <span "
                  "class=\"cost\">US$ 0.0029</span> · <span class=\"duration\">1.25 s</span>") !=
        std::string::npos);
  CHECK(all(html, R"re(class="value-cost">([^<]*)<)re") == std::vector<std::string>{"US$ 0.0029"});
  CHECK(html.find("modelo <code>gpt-x</code>") != std::string::npos);

  // Sem preço (cost_known false), custo desconhecido, não zero.
  std::string unpriced = jsonl;
  unpriced.replace(unpriced.find("\"cost_known\":true"), 17, "\"cost_known\":false");
  const TraceHtml unknown = render_trace_html(unpriced, "t");
  CHECK(all(unknown.html, R"re(<span class="cost call-cost">([^<]*)<)re") ==
        std::vector<std::string>{"custo desconhecido"});
  CHECK(unknown.html.find("<span class=\"cost\">custo desconhecido</span>") != std::string::npos);
  // O cartão também: sem nenhum turno de custo conhecido, "desconhecido", e não US$ 0.00.
  CHECK(unknown.html.find("class=\"value-cost\"><span class=\"unknown\">desconhecido</span>") !=
        std::string::npos);
  // No OTLP, o custo só vai nos spans de um turno com preço: sem ele, nenhum hz.cost_usd de 0.
  CHECK(render_trace_otlp(jsonl, "t").json.find("\"hz.cost_usd\"") != std::string::npos);
  CHECK(render_trace_otlp(unpriced, "t").json.find("\"hz.cost_usd\"") == std::string::npos);
}

TEST_CASE("trace-html: cada turno aparece com o seu desfecho, e o gráfico separa os turnos") {
  const std::string jsonl =
      R"({"event":"model_request","turn":1,"messages":2}
{"event":"model_response","turn":1,"tool_calls":0,"usage":{"prompt_tokens":100,"completion_tokens":5}}
{"event":"turn_end","outcome":"success","turns":1,"usage":{"prompt_tokens":100,"completion_tokens":5}}
{"event":"model_request","turn":1,"messages":4}
{"event":"model_response","turn":1,"tool_calls":0,"usage":{"prompt_tokens":150,"completion_tokens":5}}
{"event":"turn_end","outcome":"max_turns","turns":1,"usage":{"prompt_tokens":150,"completion_tokens":5}}
)";
  const TraceHtml page = render_trace_html(jsonl, "t");
  require_well_formed(page.html);
  CHECK(page.summary.turns == 2);
  CHECK(page.summary.outcome == "max_turns");
  CHECK(all(page.html, R"re(<section class="turn" id="turn-(\d+)">)re") ==
        std::vector<std::string>{"1", "2"});
  CHECK(all(page.html, R"re(<h3>(Turno \d+)</h3>)re") ==
        std::vector<std::string>{"Turno 1", "Turno 2"});
  CHECK(page.html.find("id=\"turn-1-outcome\"") != std::string::npos);
  CHECK(page.html.find("<a id=\"outcome\" class=\"outcome-banner warning\" "
                       "href=\"#turn-2-outcome\"><span class=\"label\">desfecho do último "
                       "turno</span>") != std::string::npos);
  CHECK(page.html.find(">turno 2</text>") != std::string::npos);
}

TEST_CASE("trace-html: um trace cortado mostra a chamada sem resposta e o turno sem desfecho") {
  const std::string jsonl =
      R"({"event":"model_request","turn":1,"messages":2}
{"event":"model_response","turn":1,"tool_calls":2}
{"event":"tool_start","turn":1,"call_id":"x","name":"read_file","arguments":"{\"path\":\"a\"}"}
{"event":"tool_start","turn":1,"call_id":"y","name":"run_shell","arguments":"nao e json"}
{"event":"tool_end","turn":1,"call_id":"x","ok":true,"summary":"conteúdo de a"}
{"event":"model_request","turn":2,"messages":5}
)";
  const TraceHtml page = render_trace_html(jsonl, "t");
  require_well_formed(page.html);
  CHECK(page.summary.outcome.empty());
  CHECK(page.summary.prompt_tokens == std::vector<long long>{-1, -1});
  // O tool_end de "x" fecha "x", mesmo com "y" aberta depois dela.
  CHECK(all(page.html, R"re(<div class="tool (\w+)" id="tool-\d+")re") ==
        std::vector<std::string>{"ok", "open"});
  CHECK(page.html.find("<span class=\"badge open\">sem resposta</span>") != std::string::npos);
  CHECK(page.html.find("Sem desfecho: o trace termina antes do <code>turn_end</code>") !=
        std::string::npos);
  CHECK(page.html.find("sem contagem de tokens") != std::string::npos);
  CHECK(page.html.find("<pre class=\"arguments\">nao e json</pre>") != std::string::npos);
  CHECK(page.html.find("<dt>path</dt><dd>a</dd>") != std::string::npos);
  CHECK(page.html.find("não trazem <code>usage</code>") != std::string::npos);
  CHECK(page.html.find("<svg") == std::string::npos);
}

TEST_CASE("trace-html: um trace vazio vira uma página que diz isso") {
  const TraceHtml page = render_trace_html("", "vazio.jsonl");
  const auto report = check_html(page.html);
  CHECK(report.errors.empty());
  CHECK(page.html.find("<p class=\"note\">O trace está vazio.</p>") != std::string::npos);
  CHECK(page.html.find("Nenhuma chamada ao modelo no trace.") != std::string::npos);
}

TEST_CASE("hz-course trace-html escreve a página ao lado do trace e resume o que desenhou") {
  Tree t;
  t.write("t.jsonl", kMonday);
  const std::string input = (t.root() / "t.jsonl").string();
  const auto r = run_course({"trace-html", input});
  CHECK(r.code == 0);
  CHECK(r.out == "escrito: " + (t.root() / "t.html").generic_string() +
                     "\n  19 eventos, 5 chamadas ao modelo, 4 ferramentas; desfecho: success\n");
  CHECK(r.err.empty());
  CHECK(t.read("t.html") == render_trace_html(kMonday, "t.jsonl").html);

  const auto custom = run_course(
      {"trace-html", input, "--out", (t.root() / "p.html").string(), "--title", "Segunda"});
  CHECK(custom.code == 0);
  CHECK(t.read("p.html").find("<h1>Segunda</h1>") != std::string::npos);

  const auto to_stdout = run_course({"trace-html", input, "--out", "-"});
  CHECK_RUN(to_stdout, 0, render_trace_html(kMonday, "t.jsonl").html,
            "  19 eventos, 5 chamadas ao modelo, 4 ferramentas; desfecho: success\n");
}

TEST_CASE("hz-course trace-html avisa das linhas inválidas no stderr") {
  Tree t;
  t.write("t.jsonl",
          "lixo\n{\"event\":\"turn_end\",\"outcome\":\"success\",\"time\":\"2025-06-02T09:00:00Z\","
          "\"turns\":0}\n");
  const auto r = run_course({"trace-html", (t.root() / "t.jsonl").string()});
  CHECK(r.code == 0);
  CHECK(r.err == "aviso: 1 linha do trace não é um evento JSON; a página a mostra como inválida\n");
}

TEST_CASE(
    "hz-course trace-html recusa sobrescrever o trace, pasta, arquivo ausente e opção errada") {
  Tree t;
  t.write("t.html", "{}\n");
  const std::string input = (t.root() / "t.html").string();
  const char* const usage =
      "uso: hz-course trace-html ARQUIVO.jsonl [--out ARQUIVO.html|-] [--title TÍTULO] "
      "[--otlp ARQUIVO.json|-]\n";

  auto r = run_course({"trace-html", input});
  CHECK(r.code == 2);
  CHECK(r.err == std::string("hz-course: a página sairia por cima do próprio trace: escolha outro "
                             "--out\n") +
                     usage);
  CHECK(t.read("t.html") == "{}\n");

  r = run_course({"trace-html", t.root().string()});
  CHECK(r.code == 2);
  CHECK(r.err == "hz-course: " + t.root().string() + " é uma pasta, não um trace\n" + usage);

  r = run_course({"trace-html", (t.root() / "nao-existe.jsonl").string()});
  CHECK(r.code == 2);
  CHECK(r.err == "hz-course: não consegui ler o trace " + (t.root() / "nao-existe.jsonl").string() +
                     "\n" + usage);

  r = run_course({"trace-html"});
  CHECK(r.code == 2);
  CHECK(r.err == std::string("hz-course: falta o arquivo de trace (o JSONL de --trace)\n") + usage);

  r = run_course({"trace-html", input, "--cor"});
  CHECK(r.code == 2);
  CHECK(r.err == std::string("hz-course: opção desconhecida para trace-html: --cor\n") + usage);

  r = run_course({"trace-html", input, "--out"});
  CHECK(r.code == 2);
  CHECK(r.err == std::string("hz-course: a opção --out precisa de um valor\n") + usage);
}

namespace {

// O atributo `key` de um span do OTLP (o AnyValue inteiro), ou null.
json attribute(const json& span, const std::string& key) {
  for (const json& a : span.at("attributes")) {
    if (a.at("key") == key) return a.at("value");
  }
  return nullptr;
}

bool is_hex(const json& value, std::size_t size) {
  if (!value.is_string()) return false;
  const std::string text = value.get<std::string>();
  return text.size() == size && text.find_first_not_of("0123456789abcdef") == std::string::npos &&
         text != std::string(size, '0');
}

// 2025-06-02T09:00:00Z + ms, em nanossegundos, como o OTLP escreve (texto).
std::string nanos(long long ms) {
  return std::to_string(1'748'854'800'000'000'000LL + ms * 1'000'000);
}

}  // namespace

TEST_CASE(
    "render_trace_otlp: spans com os campos do OTLP/JSON, os nomes GenAI, os pais e as horas") {
  const TraceOtlp otlp = render_trace_otlp(kMonday, "monday.jsonl");
  REQUIRE(otlp.error.empty());
  const json document = json::parse(otlp.json);
  REQUIRE(document.at("resourceSpans").size() == 1);
  const json& resource = document["resourceSpans"][0];
  CHECK(attribute(resource.at("resource"), "service.name") ==
        json{{"stringValue", "harness-zero"}});
  REQUIRE(resource.at("scopeSpans").size() == 1);
  const json& spans = resource["scopeSpans"][0].at("spans");
  REQUIRE(spans.size() == 10);  // 1 turno + 5 chamadas + 4 ferramentas
  CHECK(otlp.spans == 10);

  const json& turn = spans[0];
  const std::string trace_id = turn.at("traceId");
  std::vector<std::string> ids;
  for (const json& span : spans) {
    CHECK(is_hex(span.at("traceId"), 32));
    CHECK(span["traceId"] == trace_id);
    CHECK(is_hex(span.at("spanId"), 16));
    ids.push_back(span["spanId"]);
    for (const char* key : {"name", "kind", "startTimeUnixNano", "endTimeUnixNano", "attributes"}) {
      CHECK_MESSAGE(span.contains(key), key);
    }
    CHECK(span["startTimeUnixNano"].is_string());
    CHECK(span["endTimeUnixNano"].is_string());
  }
  std::sort(ids.begin(), ids.end());
  CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());

  // O turno é a raiz; chamadas e ferramentas são filhas dele.
  CHECK_FALSE(turn.contains("parentSpanId"));
  CHECK(turn["name"] == "invoke_agent harness-zero");
  CHECK(attribute(turn, "gen_ai.operation.name") == json{{"stringValue", "invoke_agent"}});
  CHECK(turn["startTimeUnixNano"] == nanos(0));
  CHECK(turn["endTimeUnixNano"] == nanos(4421));
  CHECK(attribute(turn, "gen_ai.usage.input_tokens") == json{{"intValue", "3051"}});
  CHECK(attribute(turn, "gen_ai.usage.output_tokens") == json{{"intValue", "226"}});
  CHECK(attribute(turn, "hz.outcome") == json{{"stringValue", "success"}});
  CHECK(turn.at("status") == json{{"code", 1}});
  for (std::size_t i = 1; i < spans.size(); ++i)
    CHECK(spans[i].at("parentSpanId") == turn["spanId"]);

  // A chamada 3: a mais lenta, das 09:00:01.534 às 09:00:02.950.
  const json& call = spans[5];
  CHECK(call["name"] == "chat hz-mock");
  CHECK(call["kind"] == 3);
  CHECK(call["startTimeUnixNano"] == nanos(1534));
  CHECK(call["endTimeUnixNano"] == nanos(2950));
  CHECK(attribute(call, "gen_ai.operation.name") == json{{"stringValue", "chat"}});
  CHECK(attribute(call, "gen_ai.request.model") == json{{"stringValue", "hz-mock"}});
  CHECK(attribute(call, "gen_ai.usage.input_tokens") == json{{"intValue", "618"}});
  CHECK(attribute(call, "gen_ai.usage.output_tokens") == json{{"intValue", "72"}});
  CHECK(attribute(call, "gen_ai.response.finish_reasons") ==
        json{{"arrayValue", {{"values", {{{"stringValue", "tool_calls"}}}}}}});

  // A primeira ferramenta: run_shell, que falhou, das .813 às .845.
  const json& tool = spans[2];
  CHECK(tool["name"] == "execute_tool run_shell");
  CHECK(tool["kind"] == 1);
  CHECK(tool["startTimeUnixNano"] == nanos(813));
  CHECK(tool["endTimeUnixNano"] == nanos(845));
  CHECK(attribute(tool, "gen_ai.operation.name") == json{{"stringValue", "execute_tool"}});
  CHECK(attribute(tool, "gen_ai.tool.name") == json{{"stringValue", "run_shell"}});
  CHECK(attribute(tool, "gen_ai.tool.call.id") == json{{"stringValue", "call_1"}});
  CHECK(attribute(tool, "hz.output_bytes") == json{{"intValue", "160"}});
  CHECK(tool.at("status").at("code") == 2);
  CHECK(spans[4].at("status") == json{{"code", 1}});  // read_file deu certo

  // O mesmo trace dá os mesmos ids; outro trace, outros.
  CHECK(render_trace_otlp(kMonday, "monday.jsonl").json == otlp.json);
  std::string other = kMonday;
  other.replace(other.find("\"turns\":5"), 9, "\"turns\":6");
  CHECK(json::parse(render_trace_otlp(other, "x").json)["resourceSpans"][0]["scopeSpans"][0]
                                                       ["spans"][0]["traceId"] != trace_id);
}

TEST_CASE(
    "render_trace_otlp: tentativas que falham e avisos viram status de erro e eventos do turno") {
  const std::string jsonl =
      R"({"event":"model_request","turn":1,"messages":2,"time":"2025-06-02T09:00:00.000000Z"}
{"event":"model_error","turn":1,"attempt":1,"kind":"http","status":429,"message":"HTTP 429","billed":false,"cost_usd":0.0,"duration_ms":10.0,"time":"2025-06-02T09:00:00.010000Z"}
{"event":"retry","turn":1,"attempt":2,"delay_ms":400,"time":"2025-06-02T09:00:00.011000Z"}
{"event":"model_request","turn":1,"messages":2,"time":"2025-06-02T09:00:00.411000Z"}
{"event":"model_response","turn":1,"tool_calls":0,"usage":{"prompt_tokens":10,"completion_tokens":2},"time":"2025-06-02T09:00:00.420000Z"}
{"event":"turn_end","outcome":"success","turns":1,"retries":1,"time":"2025-06-02T09:00:00.421000Z"}
)";
  const TraceOtlp otlp = render_trace_otlp(jsonl, "t");
  REQUIRE(otlp.error.empty());
  const json spans = json::parse(otlp.json)["resourceSpans"][0]["scopeSpans"][0]["spans"];
  REQUIRE(spans.size() == 3);
  CHECK(spans[1]["name"] == "chat");  // sem "model" no pedido (um trace de antes do campo)
  CHECK(spans[1].at("status") == json{{"code", 2}, {"message", "HTTP 429"}});
  CHECK(attribute(spans[1], "error.type") == json{{"stringValue", "http"}});
  CHECK(attribute(spans[1], "http.response.status_code") == json{{"intValue", "429"}});
  CHECK(attribute(spans[2], "hz.retry") == json{{"boolValue", true}});
  const json& events = spans[0].at("events");
  REQUIRE(events.size() == 1);
  CHECK(events[0]["name"] == "retry");
  CHECK(events[0]["timeUnixNano"] == nanos(11));
  CHECK(attribute(events[0], "hz.delay_ms") == json{{"intValue", "400"}});
  CHECK(attribute(spans[0], "hz.retries") == json{{"intValue", "1"}});
}

TEST_CASE("render_trace_otlp recusa, com o motivo, um trace sem horas ou vazio") {
  const TraceOtlp untimed = render_trace_otlp(monday_untimed(), "t");
  CHECK(untimed.json.empty());
  CHECK(untimed.error ==
        "o trace não tem a hora dos eventos (\"time\"; a primeira linha sem ela é a 1): foi "
        "gravado antes de o trace carimbar cada evento. Grave de novo com --trace para exportar "
        "em OTLP");
  CHECK(render_trace_otlp("lixo\n", "t").error ==
        "o trace não tem eventos: não há spans para exportar");
}

TEST_CASE("hz-course trace-html --otlp escreve o OTLP/JSON; um trace sem horas é erro 2") {
  Tree t;
  t.write("t.jsonl", std::string(kMonday) + "isto não é json\n");
  t.write("velho.jsonl", monday_untimed());
  const std::string input = (t.root() / "t.jsonl").string();
  const std::string output = (t.root() / "t.otlp.json").string();
  auto r = run_course({"trace-html", input, "--otlp", output});
  CHECK_RUN(r, 0,
            "escrito: " + (t.root() / "t.otlp.json").generic_string() +
                " (OTLP/JSON, 10 spans)\n  19 eventos, 5 chamadas ao modelo, 4 ferramentas; "
                "desfecho: success\n",
            "aviso: 1 linha do trace não é um evento JSON; fica fora do OTLP\n");
  CHECK(t.read("t.otlp.json") ==
        render_trace_otlp(std::string(kMonday) + "isto não é json\n", "t.jsonl").json);
  CHECK_FALSE(std::filesystem::exists(t.root() / "t.html"));  // só o OTLP, sem --out

  r = run_course({"trace-html", input, "--otlp", "-", "--out", (t.root() / "p.html").string()});
  CHECK(r.code == 0);
  CHECK(json::parse(r.out).contains("resourceSpans"));
  CHECK(std::filesystem::exists(t.root() / "p.html"));

  const std::string old_trace = (t.root() / "velho.jsonl").string();
  r = run_course({"trace-html", old_trace, "--otlp", output + "2"});
  CHECK(r.code == 2);
  CHECK(r.err == "hz-course: " + old_trace +
                     ": o trace não tem a hora dos eventos (\"time\"; a primeira linha sem ela é "
                     "a 1): foi gravado antes de o trace carimbar cada evento. Grave de novo com "
                     "--trace para exportar em OTLP\n");
  CHECK_FALSE(std::filesystem::exists(output + "2"));

  r = run_course({"trace-html", input, "--otlp", input});
  CHECK(r.code == 2);
  CHECK(r.err.rfind("hz-course: o OTLP sairia por cima do próprio trace", 0) == 0);

  // A página de um trace sem horas sai, com um aviso.
  r = run_course({"trace-html", (t.root() / "velho.jsonl").string()});
  CHECK(r.code == 0);
  CHECK(r.err ==
        "aviso: 19 eventos não têm hora (um trace de antes das horas): a linha do tempo "
        "mostra só a ordem\n");
}
