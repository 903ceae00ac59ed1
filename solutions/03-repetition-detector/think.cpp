#include "think.hpp"

namespace hz {

// listing: strip-think
std::string strip_think(std::string_view text) {
  // EXERCICIO 01-loop/strip-think: o texto que a pessoa deve ver, sem o raciocínio
  constexpr std::string_view open = "<think>";
  constexpr std::string_view close = "</think>";
  const std::size_t first_close = text.find(close);
  if (first_close != std::string_view::npos && first_close < text.find(open)) {
    text.remove_prefix(first_close + close.size());  // a abertura ficou no template
  }
  std::string out;
  while (!text.empty()) {
    const std::size_t start = text.find(open);
    out.append(text.substr(0, start));
    if (start == std::string_view::npos) break;
    const std::size_t end = text.find(close, start + open.size());
    if (end == std::string_view::npos) break;  // sem fechamento: some até o fim
    text.remove_prefix(end + close.size());
  }
  const std::size_t first = out.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return out.substr(first, out.find_last_not_of(" \t\r\n") - first + 1);
  // FIM-EXERCICIO
}
// end-listing: strip-think

}  // namespace hz
