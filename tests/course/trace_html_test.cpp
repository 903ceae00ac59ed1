#include <doctest/doctest.h>

#include "string_makers.hpp"

#include <regex>
#include <string>
#include <vector>

#include "fixture.hpp"
#include "html_check.hpp"
#include "hz/course/trace_html.hpp"

using hz::course::html_text;
using hz::course::render_trace_html;
using hz::course::TraceHtml;
using hz::course::test::check_html;
using hz::course::test::run_course;
using hz::course::test::Tree;

namespace {

// O trace de `hz-01-loop --trace` com o cenário monday, como a etapa o escreve.
const char* const kMonday =
    R"({"event":"model_request","messages":2,"tools":5,"turn":1}
{"cost_usd":0.0,"event":"model_response","finish_reason":"tool_calls","tool_calls":1,"turn":1,"usage":{"completion_tokens":31,"prompt_tokens":412}}
{"arguments":"{\"command\":\"sh test_login.sh\"}","call_id":"call_1","event":"tool_start","name":"run_shell","turn":1}
{"call_id":"call_1","event":"tool_end","ok":false,"output_bytes":160,"summary":"código de saída: 1 · test_login ... FALHOU …","turn":1}
{"event":"model_request","messages":4,"tools":5,"turn":2}
{"cost_usd":0.0,"event":"model_response","finish_reason":"tool_calls","tool_calls":1,"turn":2,"usage":{"completion_tokens":36,"prompt_tokens":503}}
{"arguments":"{\"path\":\"config.ini\"}","call_id":"call_2","event":"tool_start","name":"read_file","turn":2}
{"call_id":"call_2","event":"tool_end","ok":true,"output_bytes":104,"summary":"# Configuração do serviço de login. · [session] …","turn":2}
{"event":"model_request","messages":6,"tools":5,"turn":3}
{"cost_usd":0.0,"event":"model_response","finish_reason":"tool_calls","tool_calls":1,"turn":3,"usage":{"completion_tokens":72,"prompt_tokens":618}}
{"arguments":"{\"new_text\":\"cookie_ttl_seconds = 3600\",\"old_text\":\"cookie_ttl_seconds = 0\",\"path\":\"config.ini\"}","call_id":"call_3","event":"tool_start","name":"edit_file","turn":3}
{"call_id":"call_3","event":"tool_end","ok":true,"output_bytes":27,"summary":"arquivo editado: config.ini","turn":3}
{"event":"model_request","messages":8,"tools":5,"turn":4}
{"cost_usd":0.0,"event":"model_response","finish_reason":"tool_calls","tool_calls":1,"turn":4,"usage":{"completion_tokens":29,"prompt_tokens":712}}
{"arguments":"{\"command\":\"sh test_login.sh\"}","call_id":"call_4","event":"tool_start","name":"run_shell","turn":4}
{"call_id":"call_4","event":"tool_end","ok":true,"output_bytes":94,"summary":"código de saída: 0 · test_login ... ok …","turn":4}
{"event":"model_request","messages":10,"tools":5,"turn":5}
{"cost_usd":0.0,"event":"model_response","finish_reason":"stop","tool_calls":0,"turn":5,"usage":{"completion_tokens":58,"prompt_tokens":806}}
{"cost_usd":0.0,"event":"turn_end","outcome":"success","turns":5,"usage":{"completion_tokens":226,"prompt_tokens":3051}}
)";

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
  CHECK(all(html, R"re(class="valor-chamadas">(\d+)<)re") == std::vector<std::string>{"5"});
  CHECK(all(html, R"re(class="valor-ferramentas">(\d+)<)re") == std::vector<std::string>{"4"});
  CHECK(all(html, R"re(class="valor-desfecho">([^<]*)<)re") == std::vector<std::string>{"success"});
  CHECK(all(html, R"re(class="valor-tokens">(\d+)<)re") == std::vector<std::string>{"3277"});
  CHECK(html.find("<span class=\"detalhe\">3051 enviados + 226 gerados</span>") !=
        std::string::npos);
  CHECK(html.find("<span class=\"detalhe\">1 com erro</span>") != std::string::npos);

  // Uma caixa por chamada, com os tokens de cada uma, na ordem.
  CHECK(all(html, R"re(<li class="chamada" id="chamada-(\d+)")re") ==
        std::vector<std::string>{"1", "2", "3", "4", "5"});
  CHECK(all(html, R"re(class="tokens-prompt">(\d+)<)re") ==
        std::vector<std::string>{"412", "503", "618", "712", "806"});
  CHECK(all(html, R"re(class="tokens-completion">(\d+)<)re") ==
        std::vector<std::string>{"31", "36", "72", "29", "58"});

  // O gráfico: uma barra por chamada, que leva até ela, mais alta a cada chamada.
  CHECK(all(html, R"re(<title>chamada \d+: (\d+) tokens enviados</title>)re") ==
        std::vector<std::string>{"412", "503", "618", "712", "806"});
  CHECK(all(html, R"re(<a href="#chamada-(\d+)"><rect)re") ==
        std::vector<std::string>{"1", "2", "3", "4", "5"});
  const auto heights = all(html, R"re(<rect class="barra"[^>]* height="([0-9.]+)")re");
  REQUIRE(heights.size() == 5);
  for (std::size_t i = 1; i < heights.size(); ++i) {
    CHECK(std::stod(heights[i]) > std::stod(heights[i - 1]));
  }

  // O desfecho, como o turn_end o conta.
  CHECK(html.find("<li class=\"desfecho ok\" id=\"turno-1-desfecho\"><div class=\"caixa\">■ "
                  "Desfecho: <span class=\"rotulo-desfecho\">success</span> · 5 chamadas ao "
                  "modelo · 3277 tokens (3051 enviados + 226 gerados)</div></li>") !=
        std::string::npos);

  // As ferramentas, com argumentos e resultado.
  CHECK(count(html, "<div class=\"ferramenta ok\"") == 3);
  CHECK(count(html, "<div class=\"ferramenta falhou\"") == 1);
  CHECK(html.find("<code class=\"nome\">edit_file</code>") != std::string::npos);
  CHECK(html.find("<dl class=\"campos argumentos\"><dt>new_text</dt><dd>cookie_ttl_seconds = "
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
  CHECK(all(page.html, R"re(class="valor-tokens">(\d+)<)re") == std::vector<std::string>{"105"});
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
  CHECK(page.html.find("valor-desfecho\">&lt;b&gt;success&lt;/b&gt;<") != std::string::npos);
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
  CHECK(page.html.find("<span class=\"rotulo\">linhas inválidas</span><span class=\"valor\">4<") !=
        std::string::npos);
}

TEST_CASE(
    "trace-html: eventos de outras etapas e desconhecidos aparecem pelo nome, com os campos") {
  const std::string jsonl =
      R"({"event":"journal_resume","steps":3}
{"event":"model_request","turn":1,"messages":2}
{"event":"retry","turn":1,"attempt":2,"delay_ms":500,"reason":"HTTP 429"}
{"event":"stream_fallback","turn":1}
{"event":"model_response","turn":1,"tool_calls":0,"usage":{"prompt_tokens":9,"completion_tokens":3}}
{"event":"repetition_warning","turn":1,"repeats":3}
{"event":"coisa_nova","valor":[1,2]}
{"event":"turn_end","outcome":"repetition","turns":1}
)";
  const TraceHtml page = render_trace_html(jsonl, "t");
  require_well_formed(page.html);
  const std::string& html = page.html;
  CHECK(
      html.find("<strong>retomada do diário</strong> <code class=\"meta\">journal_resume</code>") !=
      std::string::npos);
  CHECK(html.find("<strong>nova tentativa</strong> <code class=\"meta\">retry</code>") !=
        std::string::npos);
  CHECK(html.find("<dt>attempt</dt><dd>2</dd><dt>delay_ms</dt><dd>500</dd><dt>reason</dt><dd>HTTP "
                  "429</dd>") != std::string::npos);
  CHECK(html.find("<strong>streaming desligado</strong>") != std::string::npos);
  CHECK(html.find("<strong>aviso de repetição</strong>") != std::string::npos);
  CHECK(html.find("<strong><code>coisa_nova</code></strong>") != std::string::npos);
  CHECK(html.find("<dt>valor</dt><dd>[1,2]</dd>") != std::string::npos);
  CHECK(count(html, "<div class=\"evento aviso\"") == 3);
  // A nova tentativa aconteceu dentro da chamada 1: aparece dentro da caixa dela.
  const std::size_t call = html.find("id=\"chamada-1\"");
  const std::size_t retry = html.find("<code class=\"meta\">retry</code>");
  const std::size_t end_of_call = html.find("</div></li>\n", html.find("coisa_nova") - 200);
  CHECK(call < retry);
  CHECK(retry < end_of_call);
  CHECK(html.find("<li class=\"desfecho alerta\" id=\"turno-1-desfecho\">") != std::string::npos);
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
  CHECK(all(page.html, R"re(<section class="turno" id="turno-(\d+)">)re") ==
        std::vector<std::string>{"1", "2"});
  CHECK(all(page.html, R"re(<h3>(Turno \d+)</h3>)re") ==
        std::vector<std::string>{"Turno 1", "Turno 2"});
  CHECK(page.html.find("id=\"turno-1-desfecho\"") != std::string::npos);
  CHECK(page.html.find("href=\"#turno-2-desfecho\"><span class=\"rotulo\">desfecho</span>") !=
        std::string::npos);
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
  CHECK(all(page.html, R"re(<div class="ferramenta (\w+)" id="ferramenta-\d+")re") ==
        std::vector<std::string>{"ok", "aberta"});
  CHECK(page.html.find("<span class=\"selo aberta\">sem resposta</span>") != std::string::npos);
  CHECK(page.html.find("Sem desfecho: o trace termina antes do <code>turn_end</code>") !=
        std::string::npos);
  CHECK(page.html.find("sem contagem de tokens") != std::string::npos);
  CHECK(page.html.find("<pre class=\"argumentos\">nao e json</pre>") != std::string::npos);
  CHECK(page.html.find("<dt>path</dt><dd>a</dd>") != std::string::npos);
  CHECK(page.html.find("não trazem <code>usage</code>") != std::string::npos);
  CHECK(page.html.find("<svg") == std::string::npos);
}

TEST_CASE("trace-html: um trace vazio vira uma página que diz isso") {
  const TraceHtml page = render_trace_html("", "vazio.jsonl");
  const auto report = check_html(page.html);
  CHECK(report.errors.empty());
  CHECK(page.html.find("<p class=\"nota\">O trace está vazio.</p>") != std::string::npos);
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
  CHECK(to_stdout.code == 0);
  CHECK(to_stdout.out == render_trace_html(kMonday, "t.jsonl").html);
  CHECK(to_stdout.err == "  19 eventos, 5 chamadas ao modelo, 4 ferramentas; desfecho: success\n");
}

TEST_CASE("hz-course trace-html avisa das linhas inválidas no stderr") {
  Tree t;
  t.write("t.jsonl", "lixo\n{\"event\":\"turn_end\",\"outcome\":\"success\",\"turns\":0}\n");
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
      "uso: hz-course trace-html ARQUIVO.jsonl [--out ARQUIVO.html|-] [--title TÍTULO]\n";

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
