#include "html_check.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

namespace hz::course::test {
namespace {

bool is_void(const std::string& name) {
  static const std::set<std::string> kVoid = {"area",   "base",  "br",    "col",  "embed",
                                              "hr",     "img",   "input", "link", "meta",
                                              "source", "track", "wbr"};
  return kVoid.count(name) > 0;
}

// Conteúdo que não é marcação: vai direto até o fechamento.
bool is_raw_text(const std::string& name) {
  return name == "style" || name == "script" || name == "title" || name == "textarea";
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == ':' || c == '_';
}

// &nome; &#123; &#x1F; no começo de `s`.
bool is_entity(std::string_view s) {
  if (s.size() < 3 || s[0] != '&') return false;
  std::size_t i = 1;
  if (s[i] == '#') {
    ++i;
    const bool hex = i < s.size() && (s[i] == 'x' || s[i] == 'X');
    if (hex) ++i;
    const std::size_t start = i;
    while (i < s.size() && (hex ? std::isxdigit(static_cast<unsigned char>(s[i]))
                                : std::isdigit(static_cast<unsigned char>(s[i])))) {
      ++i;
    }
    return i > start && i < s.size() && s[i] == ';';
  }
  const std::size_t start = i;
  while (i < s.size() && std::isalnum(static_cast<unsigned char>(s[i]))) ++i;
  return i > start && i < s.size() && s[i] == ';';
}

std::string decode_entities(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '&' && is_entity(s.substr(i))) {
      const std::size_t end = s.find(';', i);
      const std::string_view entity = s.substr(i + 1, end - i - 1);
      if (entity == "amp") {
        out += '&';
      } else if (entity == "lt") {
        out += '<';
      } else if (entity == "gt") {
        out += '>';
      } else if (entity == "quot") {
        out += '"';
      } else if (entity == "#39" || entity == "apos") {
        out += '\'';
      } else {
        out.append(s.substr(i, end - i + 1));
      }
      i = end;
    } else {
      out += s[i];
    }
  }
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Um fragmento de URL pode vir com %XX (o pandoc escreve UTF-8 cru, outros não).
std::string percent_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 && hex_value(s[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

class Checker {
 public:
  explicit Checker(std::string_view html) : html_(html) {}

  HtmlCheck run() {
    while (pos_ < html_.size()) {
      const char c = html_[pos_];
      if (c == '<') {
        markup();
      } else {
        text_char(c);
      }
    }
    for (auto it = open_.rbegin(); it != open_.rend(); ++it) {
      error_at(it->second, "<" + it->first + "> aberto e nunca fechado");
    }
    for (const std::string& link : result_.internal_links) {
      if (result_.ids.count(link) == 0) {
        result_.errors.push_back("link interno sem destino: #" + link);
      }
    }
    return std::move(result_);
  }

 private:
  int line_of(std::size_t offset) const {
    return 1 + static_cast<int>(std::count(html_.begin(), html_.begin() + offset, '\n'));
  }

  void error_at(std::size_t offset, const std::string& message) {
    result_.errors.push_back("linha " + std::to_string(line_of(offset)) + ": " + message);
  }

  void text_char(char c) {
    if (c == '&' && !is_entity(html_.substr(pos_, 40))) error_at(pos_, "'&' solto no texto");
    if (c == '>') error_at(pos_, "'>' solto no texto");
    ++pos_;
  }

  bool in_foreign() const {
    return std::any_of(open_.begin(), open_.end(),
                       [](const auto& e) { return e.first == "svg" || e.first == "math"; });
  }

  void markup() {
    const std::string_view rest = html_.substr(pos_);
    if (rest.substr(0, 4) == "<!--") {
      const std::size_t end = html_.find("-->", pos_ + 4);
      if (end == std::string_view::npos) {
        error_at(pos_, "comentário sem fim");
        pos_ = html_.size();
      } else {
        pos_ = end + 3;
      }
      return;
    }
    if (rest.size() > 1 && rest[1] == '!') {
      const std::size_t end = html_.find('>', pos_);
      pos_ = end == std::string_view::npos ? html_.size() : end + 1;
      return;
    }
    if (rest.size() > 1 && rest[1] == '/') {
      close_tag();
      return;
    }
    if (rest.size() < 2 || std::isalpha(static_cast<unsigned char>(rest[1])) == 0) {
      error_at(pos_, "'<' solto no texto");
      ++pos_;
      return;
    }
    open_tag();
  }

  std::string read_name() {
    const std::size_t start = pos_;
    while (pos_ < html_.size() && is_name_char(html_[pos_])) ++pos_;
    return std::string(html_.substr(start, pos_ - start));
  }

  void skip_spaces() {
    while (pos_ < html_.size() && std::isspace(static_cast<unsigned char>(html_[pos_])) != 0) {
      ++pos_;
    }
  }

  void close_tag() {
    const std::size_t start = pos_;
    pos_ += 2;
    const std::string name = lower(read_name());
    skip_spaces();
    if (pos_ >= html_.size() || html_[pos_] != '>') {
      error_at(start, "fechamento </" + name + " malformado");
      pos_ = std::min(html_.size(), pos_ + 1);
      return;
    }
    ++pos_;
    if (open_.empty()) {
      error_at(start, "</" + name + "> sem nada aberto");
    } else if (open_.back().first != name) {
      error_at(start, "</" + name + "> fecha <" + open_.back().first + ">, aberto na linha " +
                          std::to_string(line_of(open_.back().second)));
      // Se o nome está aberto mais acima, fecha até lá: um erro, não uma cascata.
      auto it = std::find_if(open_.rbegin(), open_.rend(),
                             [&](const auto& e) { return e.first == name; });
      if (it != open_.rend()) open_.erase(std::next(it).base(), open_.end());
    } else {
      open_.pop_back();
    }
  }

  void open_tag() {
    const std::size_t start = pos_;
    ++pos_;
    const std::string name = lower(read_name());
    std::set<std::string> seen;
    bool self_closing = false;
    while (true) {
      skip_spaces();
      if (pos_ >= html_.size()) {
        error_at(start, "<" + name + " sem '>'");
        return;
      }
      if (html_[pos_] == '>') {
        ++pos_;
        break;
      }
      if (html_.substr(pos_, 2) == "/>") {
        pos_ += 2;
        self_closing = true;
        break;
      }
      const std::string attr = lower(read_name());
      if (attr.empty()) {
        error_at(pos_, "atributo malformado em <" + name + ">");
        ++pos_;
        continue;
      }
      if (!seen.insert(attr).second)
        error_at(start, "atributo " + attr + " repetido em <" + name + ">");
      skip_spaces();
      std::string value;
      if (pos_ < html_.size() && html_[pos_] == '=') {
        ++pos_;
        skip_spaces();
        value = attribute_value(name);
      }
      attribute(start, attr, value);
    }
    ++result_.elements;
    if (self_closing) {
      if (!is_void(name) && !in_foreign()) error_at(start, "<" + name + "/> não fecha em HTML");
      return;
    }
    if (is_void(name)) return;
    if (is_raw_text(name) && !(name == "title" && in_foreign())) {
      const std::string close = "</" + name;
      std::size_t end = pos_;
      while (true) {
        end = html_.find("</", end);
        if (end == std::string_view::npos) break;
        if (lower(std::string(html_.substr(end, close.size()))) == close) break;
        end += 2;
      }
      if (end == std::string_view::npos) {
        error_at(start, "<" + name + "> aberto e nunca fechado");
        pos_ = html_.size();
        return;
      }
      pos_ = end;
      open_.emplace_back(name, start);
      close_tag();
      return;
    }
    open_.emplace_back(name, start);
  }

  std::string attribute_value(const std::string& tag) {
    if (pos_ < html_.size() && (html_[pos_] == '"' || html_[pos_] == '\'')) {
      const char quote = html_[pos_];
      const std::size_t end = html_.find(quote, pos_ + 1);
      if (end == std::string_view::npos) {
        error_at(pos_, "valor de atributo sem fim em <" + tag + ">");
        pos_ = html_.size();
        return {};
      }
      const std::string_view raw = html_.substr(pos_ + 1, end - pos_ - 1);
      for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '&' && !is_entity(raw.substr(i, 40))) {
          error_at(pos_, "'&' solto num atributo de <" + tag + ">");
        }
        if (raw[i] == '<') error_at(pos_, "'<' num atributo de <" + tag + ">");
      }
      pos_ = end + 1;
      return decode_entities(raw);
    }
    const std::size_t start = pos_;
    while (pos_ < html_.size() && std::isspace(static_cast<unsigned char>(html_[pos_])) == 0 &&
           html_[pos_] != '>') {
      ++pos_;
    }
    return decode_entities(html_.substr(start, pos_ - start));
  }

  void attribute(std::size_t tag_start, const std::string& name, const std::string& value) {
    if (name == "id") {
      if (value.empty()) error_at(tag_start, "id vazio");
      if (!result_.ids.insert(value).second) error_at(tag_start, "id repetido: " + value);
    }
    if ((name == "href" || name == "xlink:href") && !value.empty() && value[0] == '#') {
      result_.internal_links.push_back(percent_decode(value.substr(1)));
    }
  }

  std::string_view html_;
  std::size_t pos_ = 0;
  std::vector<std::pair<std::string, std::size_t>> open_;  // nome e onde abriu
  HtmlCheck result_;
};

}  // namespace

HtmlCheck check_html(std::string_view html) { return Checker(html).run(); }

}  // namespace hz::course::test
