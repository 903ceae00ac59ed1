#include "hz/text.hpp"

namespace hz {

namespace {

constexpr std::string_view kSpaces = " \t\r\n";

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(kSpaces);
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(kSpaces);
  return text.substr(first, last - first + 1);
}

std::string_view trim_right(std::string_view text) {
  const auto last = text.find_last_not_of(kSpaces);
  if (last == std::string_view::npos) return {};
  return text.substr(0, last + 1);
}

bool is_continuation(char byte) { return (static_cast<unsigned char>(byte) & 0xC0U) == 0x80U; }

// Byte onde termina o n-ésimo caractere UTF-8 (ou text.size() se não há tantos).
std::size_t utf8_prefix_bytes(std::string_view text, std::size_t chars) {
  std::size_t i = 0;
  std::size_t seen = 0;
  while (i < text.size()) {
    if (!is_continuation(text[i])) {
      if (seen == chars) return i;
      ++seen;
    }
    ++i;
  }
  return text.size();
}

std::size_t utf8_length(std::string_view text) {
  std::size_t count = 0;
  for (char byte : text) {
    if (!is_continuation(byte)) ++count;
  }
  return count;
}

}  // namespace

std::string strip_think(std::string_view text) {
  constexpr std::string_view open = "<think>";
  constexpr std::string_view close = "</think>";
  // Alguns servidores já comem o <think> de abertura (ele fica no template do
  // prompt) e mandam só "raciocínio</think>resposta": um </think> antes de
  // qualquer <think> encerra um bloco que começou no início do texto.
  if (const auto first_close = text.find(close); first_close != std::string_view::npos) {
    const auto first_open = text.find(open);
    if (first_open == std::string_view::npos || first_close < first_open) {
      text.remove_prefix(first_close + close.size());
    }
  }
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const auto start = text.find(open);
    if (start == std::string_view::npos) {
      out.append(text);
      break;
    }
    out.append(text.substr(0, start));
    const auto end = text.find(close, start + open.size());
    if (end == std::string_view::npos) break;  // sem fechamento: some até o fim
    text.remove_prefix(end + close.size());
  }
  return std::string(trim(out));
}

std::string truncate_middle(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::size_t head = max_bytes / 2;
  std::size_t tail_start = text.size() - (max_bytes - head);
  // Recua o fim da cabeça e avança o começo da cauda até fronteiras de caractere.
  while (head > 0 && is_continuation(text[head])) --head;
  while (tail_start < text.size() && is_continuation(text[tail_start])) ++tail_start;
  const std::size_t omitted = tail_start - head;
  std::string out(text.substr(0, head));
  out += "[... " + std::to_string(omitted) + " bytes omitidos ...]";
  out.append(text.substr(tail_start));
  return out;
}

std::string brief(std::string_view text, std::size_t max_lines, std::size_t max_chars) {
  // O resto é sempre aparado, então cada linha tirada dele já é não vazia.
  std::string joined;
  text = trim(text);
  for (std::size_t taken = 0; !text.empty() && taken < max_lines; ++taken) {
    const auto newline = text.find('\n');
    if (taken > 0) joined += " · ";
    joined.append(trim(text.substr(0, newline)));
    text = newline == std::string_view::npos ? std::string_view{} : trim(text.substr(newline));
  }
  const std::string_view view = joined;
  if (utf8_length(view) > max_chars) {
    return std::string(trim_right(view.substr(0, utf8_prefix_bytes(view, max_chars)))) + "…";
  }
  if (!text.empty()) joined += " …";
  return joined;
}

}  // namespace hz
