#include "hz/text.hpp"

namespace hz {

namespace {

constexpr std::string_view kSpaces = " \t\r\n";

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

// O corte de truncate_middle sobre um texto do qual já saíram dropped bytes
// logo depois dos max_bytes / 2 + 1 primeiros (o que MiddleTruncator guarda).
// Com dropped > 0, kept ainda tem esses primeiros bytes e pelo menos os
// max_bytes - max_bytes / 2 finais, então todo byte olhado aqui é do texto
// original na posição certa; a contagem de omitidos soma o que já saiu.
std::string cut_middle(std::string_view kept, std::size_t dropped, std::size_t max_bytes) {
  if (kept.size() + dropped <= max_bytes) return std::string(kept);
  std::size_t head = max_bytes / 2;
  std::size_t tail_start = kept.size() - (max_bytes - head);
  // Recua o fim da cabeça e avança o começo da cauda até fronteiras de caractere.
  while (head > 0 && is_continuation(kept[head])) --head;
  while (tail_start < kept.size() && is_continuation(kept[tail_start])) ++tail_start;
  const std::size_t omitted = dropped + tail_start - head;
  std::string out(kept.substr(0, head));
  out += "[... " + std::to_string(omitted) + " bytes omitidos ...]";
  out.append(kept.substr(tail_start));
  return out;
}

constexpr std::size_t kCompactSlack = 4096;

// printable e printable_line: keep_layout deixa \n e \t passarem.
std::string escape_controls(std::string_view text, bool keep_layout) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const bool layout = byte == '\n' || byte == '\t';
    const bool c0 = byte < 0x20 && !(keep_layout && layout);
    // C1 (U+0080..U+009F) em UTF-8: 0xC2 seguido de 0x80..0x9F.
    const bool c1 = byte == 0xC2 && i + 1 < text.size() &&
                    (static_cast<unsigned char>(text[i + 1]) & 0xE0U) == 0x80U;
    if (c0 || byte == 0x7F) {
      out += "\\x";
      out += kHex[byte >> 4U];
      out += kHex[byte & 0x0FU];
    } else if (c1) {
      const auto next = static_cast<unsigned char>(text[++i]);
      out += "\\u00";
      out += kHex[next >> 4U];
      out += kHex[next & 0x0FU];
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

std::size_t utf8_length(std::string_view text) {
  std::size_t count = 0;
  for (char byte : text) {
    if (!is_continuation(byte)) ++count;
  }
  return count;
}

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(kSpaces);
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(kSpaces);
  return text.substr(first, last - first + 1);
}

std::string bytes_text(std::uint64_t n) {
  return std::to_string(n) + (n == 1 ? " byte" : " bytes");
}

std::string truncate_middle(std::string_view text, std::size_t max_bytes) {
  return cut_middle(text, 0, max_bytes);
}

MiddleTruncator::MiddleTruncator(std::size_t max_bytes)
    : max_bytes_(max_bytes), head_keep_(max_bytes / 2 + 1), tail_keep_(max_bytes - max_bytes / 2) {}

void MiddleTruncator::append(std::string_view chunk) {
  kept_.append(chunk);
  // Só compacta quando a sobra passa do tamanho da cauda (e de uma folga):
  // cada erase move tail_keep_ bytes e descarta pelo menos isso, o que deixa
  // o custo total linear no tamanho da entrada.
  const std::size_t limit = head_keep_ + 2 * tail_keep_ + kCompactSlack;
  if (kept_.size() <= limit) return;
  const std::size_t erase = kept_.size() - head_keep_ - tail_keep_;
  kept_.erase(head_keep_, erase);
  dropped_ += erase;
}

std::string MiddleTruncator::str() const { return cut_middle(kept_, dropped_, max_bytes_); }

std::string printable(std::string_view text) { return escape_controls(text, true); }

std::string printable_line(std::string_view text) { return escape_controls(text, false); }

std::string PrintableStream::feed(std::string_view chunk) {
  std::string joined;
  if (pending_lead_) {
    if (chunk.empty()) return {};
    joined = "\xC2";
    joined.append(chunk);
    chunk = joined;
    pending_lead_ = false;
  }
  if (!chunk.empty() && static_cast<unsigned char>(chunk.back()) == 0xC2) {
    chunk.remove_suffix(1);
    pending_lead_ = true;
  }
  return printable(chunk);
}

std::string PrintableStream::finish() {
  if (!pending_lead_) return {};
  pending_lead_ = false;
  return printable("\xC2");
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
