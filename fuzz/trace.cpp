// Alvo: os dois leitores de trace. Cada linha do JSONL que é JSON vai para a
// linha humana (hz::render_human), como um evento qualquer; o arquivo
// inteiro vira a página de hz-course trace-html (hz::course::render_trace_html).
//
// Propriedades: nada lança; a linha humana não leva controles crus ao
// terminal (o trace carrega o que o modelo e as ferramentas escreveram); a
// página é HTML bem formado para o conferidor estrito dos testes do curso
// (tests/course/html_check.hpp): o que veio do trace não escapa do texto.
#include <exception>
#include <string>

#include "html_check.hpp"
#include "hz/course/trace_html.hpp"
#include "hz/trace.hpp"
#include "support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view jsonl = hz::fuzz::text_of(data, size);
  using hz::fuzz::check;
  try {
    std::string_view rest = jsonl;
    while (!rest.empty()) {
      const std::size_t end = rest.find('\n');
      const std::string_view line = rest.substr(0, end);
      rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
      const auto event = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (event.is_discarded()) continue;
      check(hz::fuzz::terminal_safe(hz::render_human(event)),
            "a linha humana não leva controles crus");
    }
    const hz::course::TraceHtml page = hz::course::render_trace_html(jsonl, "fuzz.jsonl");
    const auto html = hz::course::test::check_html(page.html);
    if (!html.errors.empty()) {
      std::fprintf(stderr, "hz-fuzz: %s\n", html.errors.front().c_str());
      hz::fuzz::fail("a página do trace é HTML bem formado");
    }
  } catch (const std::exception& error) {
    hz::fuzz::escaped("trace", error);
  }
  return 0;
}
