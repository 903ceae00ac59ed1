#include "hz/course/quotes.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "hz/course/lines.hpp"

namespace hz::course {
namespace {

// Espaços, tabulações e quebras de linha seguidos viram um espaço só.
std::string squeeze(std::string_view text) {
  std::string out;
  bool space = false;
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  if (space && !out.empty()) out += ' ';
  return out;
}

// O conteúdo do literal que começa em cpp[at] (a aspa); at vai para depois
// da aspa que fecha. Escapes comuns viram o caractere; os outros ficam.
std::string read_literal(std::string_view cpp, std::size_t& at) {
  std::string out;
  for (++at; at < cpp.size() && cpp[at] != '"' && cpp[at] != '\n'; ++at) {
    if (cpp[at] != '\\' || at + 1 >= cpp.size()) {
      out += cpp[at];
      continue;
    }
    const char next = cpp[++at];
    out += next == 'n' ? '\n' : next == 't' ? '\t' : next;
  }
  if (at < cpp.size()) ++at;
  return out;
}

// R"delim( ... )delim" começando em cpp[at] (o R); at vai para depois dele.
std::string read_raw(std::string_view cpp, std::size_t& at) {
  const std::size_t open = cpp.find('(', at);
  if (open == std::string_view::npos) {
    at = cpp.size();
    return {};
  }
  const std::string close = ")" + std::string(cpp.substr(at + 2, open - at - 2)) + "\"";
  const std::size_t end = cpp.find(close, open);
  const std::size_t stop = end == std::string_view::npos ? cpp.size() : end;
  std::string out(cpp.substr(open + 1, stop - open - 1));
  at = end == std::string_view::npos ? cpp.size() : end + close.size();
  return out;
}

std::size_t skip_space(std::string_view cpp, std::size_t at) {
  while (at < cpp.size() && std::isspace(static_cast<unsigned char>(cpp[at]))) ++at;
  return at;
}

// Depois de um literal: outro literal colado ("a" "b"), ou "+ expr +" antes
// de outro literal na mesma soma (a expr vira kVaries). Devolve onde o
// próximo literal começa, ou npos se a soma acabou.
std::size_t continuation(std::string_view cpp, std::size_t at, bool& varies) {
  std::size_t next = skip_space(cpp, at);
  varies = false;
  if (next < cpp.size() && cpp[next] == '"') return next;
  if (next >= cpp.size() || cpp[next] != '+') return std::string_view::npos;
  // Uma expressão curta, sem outra aspa, ponto e vírgula nem vírgula, até o próximo "+ \"".
  const std::size_t stop = cpp.find_first_of("\";,{}", next + 1);
  if (stop == std::string_view::npos || cpp[stop] != '"') return std::string_view::npos;
  std::size_t plus = stop;
  while (plus > next && std::isspace(static_cast<unsigned char>(cpp[plus - 1]))) --plus;
  if (plus <= next + 1 || cpp[plus - 1] != '+') return std::string_view::npos;
  varies = true;
  return stop;
}

bool starts_like_message(std::string_view q) {
  static constexpr std::array<std::string_view, 6> kOpenings{
      "erro:", "cancelado:", "aviso:", "tempo esgotado", "falha ao", "⚠ "};
  for (const std::string_view p : kOpenings) {
    if (q.substr(0, p.size()) == p) return true;
  }
  // "hz-04-journal: ...": o nome de um executável do curso.
  if (q.substr(0, 3) != "hz-") return false;
  std::size_t i = 3;
  while (i < q.size() && (std::islower(static_cast<unsigned char>(q[i])) ||
                          std::isdigit(static_cast<unsigned char>(q[i])) || q[i] == '-'))
    ++i;
  return i > 3 && q.substr(i, 2) == ": ";
}

void collect(const ProseParagraph& p, std::vector<Quote>& out) {
  std::string rest = p.text;  // sem os trechos entre crases, para achar as aspas
  for (std::size_t open = rest.find('`'); open != std::string::npos; open = rest.find('`')) {
    const std::size_t close = rest.find('`', open + 1);
    if (close == std::string::npos) break;
    const std::string q = squeeze(std::string_view(rest).substr(open + 1, close - open - 1));
    if (starts_like_message(q)) out.push_back({p.line_at(open), q});
    std::fill(rest.begin() + static_cast<long>(open), rest.begin() + static_cast<long>(close) + 1,
              ' ');
  }
  for (std::size_t open = rest.find('"'); open != std::string::npos;) {
    const std::size_t close = rest.find('"', open + 1);
    if (close == std::string::npos) break;
    const std::string q = squeeze(std::string_view(rest).substr(open + 1, close - open - 1));
    if (starts_like_message(q)) out.push_back({p.line_at(open), q});
    open = rest.find('"', close + 1);
  }
}

// As partes fixas da citação, entre as marcas do que varia.
std::vector<std::string> fixed_parts(std::string_view quote) {
  static constexpr std::array<std::string_view, 7> kMarks{"...", "…", "URL", "ARQUIVO",
                                                          "DIR", "J", "N"};
  std::vector<std::string> parts(1);
  std::size_t i = 0;
  while (i < quote.size()) {
    std::size_t matched = 0;
    for (const std::string_view m : kMarks) {
      if (quote.substr(i, m.size()) != m) continue;
      const bool word = std::isalpha(static_cast<unsigned char>(m.front()));
      const auto is_word = [&](std::size_t k) {
        return k < quote.size() &&
               (std::isalnum(static_cast<unsigned char>(quote[k])) || quote[k] == '_');
      };
      if (word && ((i > 0 && is_word(i - 1)) || is_word(i + m.size()))) continue;
      matched = m.size();
      break;
    }
    if (matched == 0) {
      parts.back() += quote[i++];
      continue;
    }
    parts.emplace_back();
    i += matched;
  }
  parts.erase(std::remove(parts.begin(), parts.end(), std::string()), parts.end());
  return parts;
}

}  // namespace

std::vector<std::string> string_literals(std::string_view cpp) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < cpp.size()) {
    const bool raw = cpp.substr(at, 2) == "R\"" &&
                     (at == 0 || !std::isalnum(static_cast<unsigned char>(cpp[at - 1])));
    if (raw) {
      out.push_back(read_raw(cpp, at));
      continue;
    }
    const bool plain = cpp[at] == '"' && (at == 0 || cpp[at - 1] != '\'');
    if (!plain) {
      ++at;
      continue;
    }
    std::string text = read_literal(cpp, at);
    bool varies = false;
    for (std::size_t next = continuation(cpp, at, varies); next != std::string_view::npos;
         next = continuation(cpp, at, varies)) {
      if (varies) text += kVaries;
      at = next;
      text += read_literal(cpp, at);
    }
    out.push_back(squeeze(text));
  }
  return out;
}

std::vector<Quote> message_quotes(std::string_view markdown) {
  std::vector<Quote> out;
  for (const ProseParagraph& p : prose_paragraphs(markdown)) collect(p, out);
  return out;
}

bool quoted_in(std::string_view quote, const std::vector<std::string>& literals) {
  const std::vector<std::string> parts = fixed_parts(squeeze(quote));
  if (parts.empty()) return false;
  for (const std::string& literal : literals) {
    std::size_t from = 0;
    bool all = true;
    for (const std::string& part : parts) {
      const std::size_t found = literal.find(part, from);
      if (found == std::string::npos) {
        all = false;
        break;
      }
      from = found + part.size();
    }
    if (all) return true;
  }
  return false;
}

}  // namespace hz::course
