#include "yaml_lite.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hz::course::test {
namespace {

using nlohmann::json;

struct Line {
  int number = 0;
  int indent = 0;       // espaços no começo
  std::string raw;      // a linha como veio (blocos literais usam esta)
  std::string content;  // sem indentação, sem comentário, sem espaços no fim
  bool tab_indent = false;
};

// Erro de leitura: carrega a mensagem até parse_yaml, que a devolve como valor.
struct Failure {
  std::string message;
};

[[noreturn]] void fail(int line, const std::string& message) {
  throw Failure{"linha " + std::to_string(line) + ": " + message};
}

std::string trim_right(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
  return s;
}

std::string trim(const std::string& s) {
  const std::size_t start = s.find_first_not_of(" \t");
  if (start == std::string::npos) return {};
  return trim_right(s.substr(start));
}

// Aspas só abrem um escalar no começo dele (depois de ": ", "- ", "[", ","):
// num escalar simples, "'" e '"' são texto, e " #" começa um comentário.
std::string strip_comment(const std::string& s) {
  char quote = 0;
  char previous = 0;  // o último caractere que não é espaço, fora de aspas
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quote != 0) {
      if (c == '\\' && quote == '"') {
        ++i;
      } else if (c == quote) {
        quote = 0;
        previous = c;
      }
      continue;
    }
    if ((c == '"' || c == '\'') && (previous == 0 || previous == ':' || previous == '-' ||
                                    previous == '[' || previous == ',' || previous == '{')) {
      quote = c;
      continue;
    }
    if (c == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t')) return s.substr(0, i);
    if (c != ' ' && c != '\t') previous = c;
  }
  return s;
}

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  std::size_t start = 0;
  int number = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    Line line;
    line.number = ++number;
    line.raw = trim_right(std::string(text.substr(start, end - start)));
    std::size_t i = 0;
    while (i < line.raw.size() && (line.raw[i] == ' ' || line.raw[i] == '\t')) {
      if (line.raw[i] == '\t') line.tab_indent = true;
      ++i;
    }
    line.indent = static_cast<int>(i);
    line.content = trim_right(strip_comment(line.raw.substr(i)));
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

bool is_item(const std::string& content) { return content == "-" || content.rfind("- ", 0) == 0; }

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Lê um escalar entre aspas que começa em text[0]; devolve o valor e quantos
// caracteres ele ocupou.
std::pair<std::string, std::size_t> quoted(const std::string& text, int line) {
  const char quote = text[0];
  std::string out;
  for (std::size_t i = 1; i < text.size(); ++i) {
    const char c = text[i];
    if (quote == '\'' && c == '\'') {
      if (i + 1 < text.size() && text[i + 1] == '\'') {
        out += '\'';
        ++i;
        continue;
      }
      return {out, i + 1};
    }
    if (quote == '"' && c == '"') return {out, i + 1};
    if (quote == '"' && c == '\\') {
      if (i + 1 >= text.size()) break;
      const char e = text[++i];
      switch (e) {
        case '\\':
          out += '\\';
          break;
        case '"':
          out += '"';
          break;
        case '/':
          out += '/';
          break;
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case '0':
          out += '\0';
          break;
        case 'u': {
          if (i + 4 >= text.size()) fail(line, "escape \\u incompleto");
          std::uint32_t cp = 0;
          for (std::size_t k = 1; k <= 4; ++k) {
            const char h = text[i + k];
            cp <<= 4;
            if (h >= '0' && h <= '9') {
              cp |= static_cast<std::uint32_t>(h - '0');
            } else if (h >= 'a' && h <= 'f') {
              cp |= static_cast<std::uint32_t>(h - 'a' + 10);
            } else if (h >= 'A' && h <= 'F') {
              cp |= static_cast<std::uint32_t>(h - 'A' + 10);
            } else {
              fail(line, "escape \\u com dígito inválido");
            }
          }
          append_utf8(out, cp);
          i += 4;
          break;
        }
        default:
          fail(line, std::string("escape desconhecido: \\") + e);
      }
      continue;
    }
    out += c;
  }
  fail(line, std::string("aspas ") + quote + " sem fechar");
}

// Divide "chave: resto"; nullopt se a linha não é uma entrada de mapa.
std::optional<std::pair<std::string, std::string>> split_key(const std::string& content, int line) {
  if (content.empty() || content[0] == '[' || content[0] == '{' || is_item(content)) {
    return std::nullopt;
  }
  if (content[0] == '"' || content[0] == '\'') {
    auto [key, used] = quoted(content, line);
    const std::string after = content.substr(used);
    if (after == ":" || after.rfind(": ", 0) == 0)
      return std::make_pair(key, trim(after.substr(1)));
    return std::nullopt;
  }
  for (std::size_t i = 0; i < content.size(); ++i) {
    if (content[i] == ':' && (i + 1 == content.size() || content[i + 1] == ' ')) {
      return std::make_pair(trim(content.substr(0, i)), trim(content.substr(i + 1)));
    }
  }
  return std::nullopt;
}

bool is_block_header(const std::string& rest) {
  return !rest.empty() && (rest[0] == '|' || rest[0] == '>');
}

json scalar(const std::string& text, int line) {
  if (text.empty()) return nullptr;
  const char c = text[0];
  if (c == '"' || c == '\'') {
    auto [value, used] = quoted(text, line);
    if (used != text.size()) fail(line, "texto depois das aspas: " + text.substr(used));
    return value;
  }
  if (c == '&' || c == '*' || c == '!') fail(line, "âncoras, apelidos e tags não são suportados");
  if (c == '@' || c == '`' || c == '%') {
    fail(line, std::string("um valor não pode começar com '") + c + "' sem aspas: " + text);
  }
  if (c == '?' && (text.size() == 1 || text[1] == ' '))
    fail(line, "chaves complexas (?) não são suportadas");
  if (text.find(": ") != std::string::npos || text.back() == ':') {
    fail(line, "': ' dentro de um valor simples (use aspas): " + text);
  }
  return text;
}

// [a, "b, c", d] numa linha só, sem listas dentro de listas.
json flow_sequence(const std::string& text, int line) {
  if (text.back() != ']') fail(line, "lista em fluxo sem ']' no fim da linha: " + text);
  json items = json::array();
  const std::string inner = trim(text.substr(1, text.size() - 2));
  if (inner.empty()) return items;
  std::size_t i = 0;
  while (true) {
    while (i < inner.size() && inner[i] == ' ') ++i;
    std::string item;
    if (i < inner.size() && (inner[i] == '"' || inner[i] == '\'')) {
      auto [value, used] = quoted(inner.substr(i), line);
      item = inner.substr(i, used);
      i += used;
      while (i < inner.size() && inner[i] == ' ') ++i;
    } else {
      const std::size_t comma = inner.find(',', i);
      item = trim(inner.substr(i, comma == std::string::npos ? std::string::npos : comma - i));
      i = comma == std::string::npos ? inner.size() : comma;
    }
    if (item.empty()) fail(line, "item vazio na lista em fluxo: " + text);
    if (item[0] == '[' || item[0] == '{')
      fail(line, "listas ou mapas dentro de listas em fluxo não são suportados");
    items.push_back(scalar(item, line));
    if (i >= inner.size()) break;
    if (inner[i] != ',') fail(line, "esperava ',' na lista em fluxo: " + text);
    ++i;
  }
  return items;
}

json inline_value(const std::string& text, int line) {
  if (!text.empty() && text[0] == '[') return flow_sequence(text, line);
  if (!text.empty() && text[0] == '{') {
    if (text == "{}") return json::object();
    fail(line, "mapas em fluxo ({...}) não são suportados, salvo {}");
  }
  return scalar(text, line);
}

class Parser {
 public:
  explicit Parser(std::vector<Line> lines) : lines_(std::move(lines)) {}

  json document() {
    for (const Line& l : lines_) {
      if (l.content == "---" || l.content == "..." || l.content.rfind("%", 0) == 0) {
        fail(l.number, "vários documentos e diretivas não são suportados");
      }
    }
    skip_blank();
    if (eof()) return nullptr;
    json value = block(0);
    skip_blank();
    if (!eof()) fail(current().number, "conteúdo fora da estrutura: " + current().content);
    return value;
  }

 private:
  bool eof() const { return i_ >= lines_.size(); }
  Line& current() { return lines_[i_]; }

  void skip_blank() {
    while (!eof() && current().content.empty()) ++i_;
  }

  void check_indent(const Line& l) {
    if (l.tab_indent) fail(l.number, "tabulação na indentação (YAML só aceita espaços)");
  }

  json block(int min_indent) {
    skip_blank();
    Line& l = current();
    check_indent(l);
    if (l.indent < min_indent) fail(l.number, "indentação menor que a esperada");
    if (is_item(l.content)) return sequence(l.indent);
    if (split_key(l.content, l.number)) return mapping(l.indent);
    ++i_;
    return inline_value(l.content, l.number);
  }

  json value_after_key(const std::string& rest, int indent, int line) {
    if (is_block_header(rest)) return block_scalar(rest, indent, line);
    if (!rest.empty()) return inline_value(rest, line);
    skip_blank();
    if (eof()) return nullptr;
    if (current().indent > indent) return block(indent + 1);
    if (current().indent == indent && is_item(current().content)) return sequence(indent);
    return nullptr;
  }

  json mapping(int indent) {
    json object = json::object();
    while (true) {
      skip_blank();
      if (eof() || current().indent < indent) break;
      const Line l = current();
      check_indent(l);
      if (l.indent > indent) fail(l.number, "indentação inesperada: " + l.content);
      const auto entry = split_key(l.content, l.number);
      if (!entry) {
        if (is_item(l.content)) break;  // a lista da chave anterior já acabou: volta ao pai
        fail(l.number, "esperava 'chave: valor': " + l.content);
      }
      const auto& [key, rest] = *entry;
      if (key.empty()) fail(l.number, "chave vazia");
      if (object.contains(key)) fail(l.number, "chave repetida: " + key);
      ++i_;
      object[key] = value_after_key(rest, indent, l.number);
    }
    return object;
  }

  json sequence(int indent) {
    json items = json::array();
    while (true) {
      skip_blank();
      if (eof() || current().indent < indent) break;
      Line& l = current();
      check_indent(l);
      if (l.indent > indent) fail(l.number, "indentação inesperada: " + l.content);
      if (!is_item(l.content)) break;  // uma chave do mapa pai, na mesma coluna
      const std::string rest = trim(l.content.substr(1));
      if (rest.empty()) {
        ++i_;
        skip_blank();
        items.push_back(!eof() && current().indent > indent ? block(indent + 1) : json());
      } else if (is_block_header(rest)) {
        ++i_;
        items.push_back(block_scalar(rest, indent, l.number));
      } else if (is_item(rest) || split_key(rest, l.number)) {
        // "- chave: valor": um mapa (ou lista) cuja coluna é a do texto depois do "- ".
        const int offset = static_cast<int>(l.content.size() - rest.size());
        l.indent += offset;
        l.content = rest;
        items.push_back(block(l.indent));
      } else {
        ++i_;
        items.push_back(inline_value(rest, l.number));
      }
    }
    return items;
  }

  // Bloco literal (|) ou dobrado (>), com o corte (-) ou a preservação (+) das
  // quebras de linha do fim. O conteúdo vem das linhas cruas: "#" é texto.
  json block_scalar(const std::string& header, int parent_indent, int line) {
    const char style = header[0];
    const char chomp = header.size() > 1 ? header[1] : ' ';
    if (header.size() > 2 || (header.size() == 2 && chomp != '-' && chomp != '+')) {
      fail(line, "cabeçalho de bloco não suportado: " + header);
    }
    std::vector<std::string> body;
    int block_indent = -1;
    while (!eof()) {
      const Line& l = current();
      if (l.raw.find_first_not_of(' ') == std::string::npos) {
        body.emplace_back();
        ++i_;
        continue;
      }
      if (l.tab_indent && l.indent <= parent_indent + 1) check_indent(l);
      if (block_indent < 0) {
        if (l.indent <= parent_indent) break;
        block_indent = l.indent;
      }
      if (l.indent < block_indent) {
        if (l.indent <= parent_indent) break;
        fail(l.number, "linha do bloco com menos indentação que a primeira");
      }
      body.push_back(l.raw.substr(static_cast<std::size_t>(block_indent)));
      ++i_;
    }
    std::size_t trailing = 0;
    while (trailing < body.size() && body[body.size() - 1 - trailing].empty()) ++trailing;
    body.resize(body.size() - trailing);
    std::string text;
    for (std::size_t k = 0; k < body.size(); ++k) {
      if (k > 0) {
        const bool fold = style == '>' && !body[k - 1].empty() && !body[k].empty() &&
                          body[k][0] != ' ' && body[k - 1][0] != ' ';
        text += fold ? " " : "\n";
      }
      text += body[k];
    }
    if (body.empty()) return chomp == '+' ? std::string(trailing, '\n') : std::string();
    if (chomp == '+') return text + std::string(trailing + 1, '\n');
    if (chomp == '-') return text;
    return text + "\n";
  }

  std::vector<Line> lines_;
  std::size_t i_ = 0;
};

}  // namespace

YamlResult parse_yaml(std::string_view text) {
  try {
    return {Parser(split_lines(text)).document(), ""};
  } catch (const Failure& f) {
    return {nullptr, f.message};
  }
}

}  // namespace hz::course::test
