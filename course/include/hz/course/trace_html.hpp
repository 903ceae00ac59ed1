#pragma once

// O trace de uma etapa (o JSONL de `hz-NN --trace ARQUIVO`) como uma página
// HTML autocontida: CSS e SVG embutidos, sem JavaScript, sem nada de fora.
// A página mostra um resumo, um gráfico dos tokens enviados em cada chamada
// ao modelo (o histórico crescendo) e a linha do tempo de cada turno.
//
// O trace é entrada não confiável (carrega o que o modelo escreveu): tudo o
// que vem dele é escapado, bytes que não são UTF-8 viram U+FFFD, caracteres
// de controle viram os símbolos visíveis (U+2400...), e linhas que não são um
// objeto JSON com "event" aparecem na página como linhas inválidas. Nada
// disso lança exceção.

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace hz::course {

// O que a página mostra, em números (para a mensagem da linha de comando e
// para os testes conferirem a página).
struct TraceSummary {
  int events = 0;         // linhas que são eventos válidos
  int invalid_lines = 0;  // linhas não vazias que não são eventos
  int model_calls = 0;    // eventos model_request
  int tool_calls = 0;     // eventos tool_start
  int tool_errors = 0;    // tool_end com "ok": false
  int turns = 0;          // turnos (cada turn_end fecha um; o último pode não ter fechado)
  // prompt_tokens de cada chamada, em ordem; -1 quando a chamada não tem
  // resposta com usage.
  std::vector<long long> prompt_tokens;
  std::string outcome;  // o "outcome" do último turn_end; vazio se não houver
};

struct TraceHtml {
  std::string html;
  TraceSummary summary;
};

// `jsonl`: o conteúdo do arquivo de trace. `title`: o que a página chama de
// título (normalmente o nome do arquivo); também é escapado.
TraceHtml render_trace_html(std::string_view jsonl, std::string_view title);

// Texto qualquer como texto de HTML: UTF-8 válido, controles visíveis, e
// & < > " ' escapados. Serve para conteúdo e para valores de atributo.
std::string html_text(std::string_view text);

// `hz-course trace-html ARQUIVO.jsonl [--out ARQUIVO.html|-] [--title TÍTULO]`
// (args[0] é "trace-html"). Sem --out, a página vai ao lado do trace, com a
// extensão trocada por .html; "--out -" escreve no stdout. Códigos como os de
// hz::course::run: 0 escrita, 1 não deu para escrever, 2 erro de uso ou trace
// ilegível. Linhas inválidas não são erro: aparecem na página, e o stderr avisa.
int trace_html_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace hz::course
