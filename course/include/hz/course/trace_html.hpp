#pragma once

// O trace de uma etapa (o JSONL de `hz-NN --trace ARQUIVO`) como uma página
// HTML autocontida: CSS e SVG embutidos, sem JavaScript, sem nada de fora.
// A página mostra o desfecho (o que mais aparece), um resumo com as palavras
// do trace do terminal ("1 chamada ao modelo · 2 novas tentativas"), a linha
// do tempo na escala do tempo (cada chamada e cada ferramenta como uma barra
// do começo ao fim, pelas horas "time" e "duration_ms" dos eventos), cada
// turno com os seus eventos, e um gráfico dos tokens enviados em cada
// chamada ao modelo (o histórico crescendo). O mesmo trace também sai como
// OTLP/JSON (render_trace_otlp), para abrir no Jaeger, no Phoenix ou em
// qualquer leitor de OpenTelemetry.
//
// O trace é entrada não confiável (carrega o que o modelo escreveu): tudo o
// que vem dele é escapado, bytes que não são UTF-8 viram U+FFFD, caracteres
// de controle viram os símbolos visíveis (U+2400...), e linhas que não são um
// objeto JSON com "event" aparecem na página como linhas inválidas. Nada
// disso lança exceção.

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hz::course {

// O que a página mostra, em números (para a mensagem da linha de comando e
// para os testes conferirem a página).
struct TraceSummary {
  int events = 0;         // linhas que são eventos válidos
  int invalid_lines = 0;  // linhas não vazias que não são eventos
  // Chamadas ao modelo como o turn_end as conta ("turns"; sem turn_end, os
  // model_request que não são novas tentativas) e as novas tentativas
  // ("retries"; sem turn_end, os model_request depois de um model_error).
  long long model_calls = 0;
  long long retries = 0;
  int attempts = 0;     // eventos model_request (chamadas e novas tentativas)
  int tool_calls = 0;   // eventos tool_start
  int tool_errors = 0;  // tool_end com "ok": false
  int turns = 0;        // turnos (cada turn_end fecha um; o último pode não ter fechado)
  // prompt_tokens de cada chamada, em ordem; -1 quando a chamada não tem
  // resposta com usage.
  std::vector<long long> prompt_tokens;
  std::string outcome;                // o "outcome" do último turn_end; vazio se não houver
  int untimed_events = 0;             // eventos sem "time" (um trace de antes das horas)
  bool timed = false;                 // há eventos, e todos têm hora
  std::optional<double> duration_ms;  // do primeiro ao último evento com hora
};

struct TraceHtml {
  std::string html;
  TraceSummary summary;
};

// `jsonl`: o conteúdo do arquivo de trace. `title`: o que a página chama de
// título (normalmente o nome do arquivo); também é escapado.
TraceHtml render_trace_html(std::string_view jsonl, std::string_view title);

// O trace como OTLP/JSON (o ExportTraceServiceRequest do OpenTelemetry:
// resourceSpans → scopeSpans → spans), com os nomes das convenções
// semânticas de GenAI: um span invoke_agent por turno, pai de um span chat
// por chamada ao modelo (gen_ai.request.model, gen_ai.usage.input_tokens,
// gen_ai.usage.output_tokens) e de um execute_tool por ferramenta
// (gen_ai.tool.name, gen_ai.tool.call.id); o resto (novas tentativas,
// avisos, notas) vira evento do span do turno. Ids em hexadecimal, tirados
// do conteúdo do trace (o mesmo trace dá os mesmos ids); horas em
// nanossegundos, como texto. Linhas inválidas ficam de fora. Um trace sem
// horas (de antes delas) ou sem eventos não vira OTLP: `error` diz por quê.
struct TraceOtlp {
  std::string json;  // vazio se error não for
  int spans = 0;
  std::string error;
  TraceSummary summary;
};
TraceOtlp render_trace_otlp(std::string_view jsonl, std::string_view title);

// Texto qualquer como texto de HTML: UTF-8 válido, controles visíveis, e
// & < > " ' escapados. Serve para conteúdo e para valores de atributo.
std::string html_text(std::string_view text);

// `hz-course trace-html ARQUIVO.jsonl [--out ARQUIVO.html|-] [--title TÍTULO]
// [--otlp ARQUIVO.json|-]` (args[0] é "trace-html"). Sem --out, a página vai
// ao lado do trace, com a extensão trocada por .html; "--out -" escreve no
// stdout. Com --otlp, escreve o OTLP/JSON (e a página só se --out vier
// também); um trace sem horas é erro 2. Códigos como os de
// hz::course::run: 0 escrita, 1 não deu para escrever, 2 erro de uso ou trace
// ilegível. Linhas inválidas não são erro: aparecem na página, e o stderr avisa.
int trace_html_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace hz::course
