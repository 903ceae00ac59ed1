// Terminal: cor só num TTY, respeitando NO_COLOR (https://no-color.org).
#pragma once

#include <string>
#include <string_view>

namespace hz {

// Verdadeiro se o descritor é um terminal, NO_COLOR não está definido e TERM != dumb.
bool wants_color(int fd);

enum class Tint { none, dim, bold, red, green, yellow, blue, cyan };

// Envolve text em códigos ANSI quando enabled; senão devolve text como está.
std::string paint(std::string_view text, Tint tint, bool enabled);

}  // namespace hz
