#pragma once

// Um conferidor estrito de HTML para os testes das páginas que o curso gera
// (hz-course trace-html, ./hz book): toda tag aberta é fechada na ordem certa
// (como em XHTML, sem os fechamentos opcionais do HTML), ids não se repetem,
// todo link interno (href="#x") aponta para um id que existe, e o texto não
// tem '<' nem '&' soltos (o sinal de conteúdo que escapou sem escapar).
//
// Não é um parser de HTML completo: entende comentários, <!DOCTYPE>, elementos
// vazios (br, meta, ...), "/>" dentro de <svg> e o conteúdo cru de <style>,
// <script>, <title> e <textarea>. É o bastante para o HTML que o pandoc e o
// trace-html escrevem, e falha alto com qualquer outra coisa.

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace hz::course::test {

struct HtmlCheck {
  std::vector<std::string> errors;  // "linha N: ..." na ordem em que aparecem
  std::set<std::string> ids;
  std::vector<std::string> internal_links;  // os alvos, sem o '#', já decodificados
  int elements = 0;
};

HtmlCheck check_html(std::string_view html);

}  // namespace hz::course::test
