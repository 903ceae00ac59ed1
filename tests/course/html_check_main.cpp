// hz-html-check ARQUIVO.html...: o conferidor estrito de HTML (html_check.hpp)
// como programa, para as conferências em shell (./hz book). Sai com 1 se
// algum arquivo tem erro, 2 se não deu para ler.
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "html_check.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "uso: hz-html-check ARQUIVO.html...\n";
    return 2;
  }
  int code = 0;
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    if (!in) {
      std::cerr << argv[i] << ": não consegui ler\n";
      return 2;
    }
    const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const hz::course::test::HtmlCheck report = hz::course::test::check_html(html);
    for (const std::string& e : report.errors) std::cerr << argv[i] << ": " << e << "\n";
    if (!report.errors.empty()) code = 1;
    std::cout << argv[i] << ": " << (report.errors.empty() ? "ok" : "COM ERROS") << " ("
              << report.elements << " elementos, " << report.ids.size() << " ids, "
              << report.internal_links.size() << " links internos)\n";
  }
  return code;
}
