#include "hz/terminal.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace hz {

bool wants_color(int fd) {
  // https://no-color.org: NO_COLOR presente e não vazio desliga a cor.
  if (const char* no_color = std::getenv("NO_COLOR"); no_color != nullptr && *no_color != '\0') {
    return false;
  }
  if (const char* term = std::getenv("TERM"); term != nullptr && std::strcmp(term, "dumb") == 0) {
    return false;
  }
  return isatty(fd) == 1;
}

std::string paint(std::string_view text, Tint tint, bool enabled) {
  const char* code = nullptr;
  switch (tint) {
    case Tint::none:
      break;
    case Tint::dim:
      code = "\x1b[2m";
      break;
    case Tint::bold:
      code = "\x1b[1m";
      break;
    case Tint::red:
      code = "\x1b[31m";
      break;
    case Tint::green:
      code = "\x1b[32m";
      break;
    case Tint::yellow:
      code = "\x1b[33m";
      break;
    case Tint::blue:
      code = "\x1b[34m";
      break;
    case Tint::cyan:
      code = "\x1b[36m";
      break;
  }
  if (!enabled || code == nullptr) return std::string(text);
  std::string out(code);
  out.append(text);
  out += "\x1b[0m";
  return out;
}

}  // namespace hz
