#include <doctest/doctest.h>

#include "string_makers.hpp"

#include <string>
#include <vector>

#include "html_check.hpp"

using hz::course::test::check_html;

namespace {

std::vector<std::string> errors_of(const std::string& html) { return check_html(html).errors; }

}  // namespace

TEST_CASE("o conferidor de HTML aceita o que as páginas do curso escrevem") {
  const std::string html =
      "<!DOCTYPE html>\n<html lang=\"pt-BR\"><head><meta charset=\"utf-8\">"
      "<title>a < b & c</title><style>p > a { color: red; }</style></head>\n"
      "<body><!-- comentário com <tags> --><p id=\"a\">x &amp; y &#39; &#x2192;<br />"
      "<a href=\"#b\">b</a> <a href=\"https://exemplo.com/#fora\">fora</a></p>"
      "<h2 id=\"há\">há</h2><a href=\"#h%C3%A1\">acento</a>"
      "<svg viewBox=\"0 0 1 1\"><title>t</title><rect x=\"0\"/><a "
      "href=\"#a\"><rect></rect></a></svg>"
      "<div id=\"b\"></div></body></html>\n";
  const auto report = check_html(html);
  CHECK(report.errors.empty());
  CHECK(report.ids == std::set<std::string>{"a", "b", "há"});
  CHECK(report.internal_links == std::vector<std::string>{"b", "há", "a"});
}

TEST_CASE("o conferidor de HTML acusa tags sem fechar, fechamentos trocados e '/>' fora do SVG") {
  CHECK(errors_of("<div><p>x</div>") ==
        std::vector<std::string>{"linha 1: </div> fecha <p>, aberto na linha 1"});
  CHECK(errors_of("<div>\n<span>x</span>") ==
        std::vector<std::string>{"linha 1: <div> aberto e nunca fechado"});
  CHECK(errors_of("</p>") == std::vector<std::string>{"linha 1: </p> sem nada aberto"});
  CHECK(errors_of("<div/>") == std::vector<std::string>{"linha 1: <div/> não fecha em HTML"});
  CHECK(errors_of("<style>p{}") ==
        std::vector<std::string>{"linha 1: <style> aberto e nunca fechado"});
  CHECK(errors_of("<!-- x") == std::vector<std::string>{"linha 1: comentário sem fim"});
  CHECK(
      errors_of("<a href=\"x>y</a>") ==
      std::vector<std::string>{"linha 1: valor de atributo sem fim em <a>", "linha 1: <a sem '>'"});
}

TEST_CASE("o conferidor de HTML acusa texto que escapou sem escapar") {
  CHECK(errors_of("<p>1 < 2</p>") == std::vector<std::string>{"linha 1: '<' solto no texto"});
  CHECK(errors_of("<p>a & b</p>") == std::vector<std::string>{"linha 1: '&' solto no texto"});
  CHECK(errors_of("<p>a > b</p>") == std::vector<std::string>{"linha 1: '>' solto no texto"});
  CHECK(errors_of("<p title=\"a & b\">x</p>") ==
        std::vector<std::string>{"linha 1: '&' solto num atributo de <p>"});
  CHECK(errors_of("<p a=\"1\" a=\"2\">x</p>") ==
        std::vector<std::string>{"linha 1: atributo a repetido em <p>"});
}

TEST_CASE("o conferidor de HTML acusa id repetido e link interno sem destino") {
  CHECK(errors_of("<p id=\"x\">a</p>\n<p id=\"x\">b</p>") ==
        std::vector<std::string>{"linha 2: id repetido: x"});
  CHECK(errors_of("<a href=\"#nada\">a</a><a href=\"#\">b</a>") ==
        std::vector<std::string>{"link interno sem destino: #nada", "link interno sem destino: #"});
  CHECK(errors_of("<p id=\"\">a</p>") == std::vector<std::string>{"linha 1: id vazio"});
}
