#include "hz/stage/console.hpp"

#include <algorithm>
#include <cctype>
#include <istream>
#include <ostream>

#include "hz/terminal.hpp"
#include "hz/text.hpp"

namespace hz::stage {

bool ask_permission(std::istream& in, std::ostream& out, std::string_view tool_name,
                    const nlohmann::json& args) {
  // O conteúdo de um write_file pode ter milhares de linhas; a pergunta mostra
  // o começo e o fim, o bastante para decidir.
  out << "permitir " << tool_name << " " << truncate_middle(args.dump(), 400) << "? [s/N] "
      << std::flush;
  std::string answer;
  if (!std::getline(in, answer)) {
    out << "\n";
    return false;
  }
  std::string word;
  for (char c : answer) {
    if (!std::isspace(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return word == "s" || word == "sim" || word == "y" || word == "yes";
}

int run_chat(std::istream& in, std::ostream& out,
             const std::function<int(const std::string&)>& turn) {
  int last = 0;
  std::string line;
  while (true) {
    out << "você> " << std::flush;
    if (!std::getline(in, line)) break;
    const bool blank =
        std::all_of(line.begin(), line.end(), [](unsigned char c) { return std::isspace(c) != 0; });
    if (!blank) last = turn(line);
  }
  out << "\n";
  return last;
}

std::string user_line(std::string_view text, bool color) {
  return paint("você> ", Tint::bold, color) + std::string(text);
}

}  // namespace hz::stage
