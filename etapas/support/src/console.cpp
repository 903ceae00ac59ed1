#include "hz/stage/console.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <istream>
#include <ostream>

#include "hz/json_depth.hpp"
#include "hz/terminal.hpp"
#include "hz/text.hpp"

namespace hz::stage {

bool ask_permission(std::istream& in, std::ostream& out, std::string_view tool_name,
                    const nlohmann::json& args) {
  // O conteúdo de um write_file pode ter milhares de linhas; a pergunta mostra
  // o começo e o fim, o bastante para decidir. Argumentos aninhados fundo
  // demais estourariam a pilha do dump (veja hz/json_depth.hpp).
  const std::string shown =
      json_deeper_than(args)
          ? std::string("(argumentos aninhados fundo demais para mostrar)")
          : truncate_middle(args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                            400);
  out << "permitir " << printable(tool_name) << " " << printable(shown) << "? [s/N] " << std::flush;
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
  return paint("você> ", Tint::bold, color) + printable(text);
}

bool write_answer(std::ostream& out, std::string_view text) {
  out << printable(text) << '\n' << std::flush;
  return static_cast<bool>(out);
}

void guard_standard_fds() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // open devolve o menor número livre: este mesmo fd.
    const int reserved = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
    if (reserved >= 0 && reserved != fd) close(reserved);
  }
}

}  // namespace hz::stage
