#include "hz/testing/printing.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "hz/testing/process.hpp"
#include "hz/text.hpp"

namespace hz {

std::ostream& operator<<(std::ostream& out, Role role) { return out << to_string(role); }

std::ostream& operator<<(std::ostream& out, const ToolCall& call) {
  return out << call.name << "(id=" << testing::quoted(call.id)
             << ", arguments=" << testing::quoted(call.arguments) << ")";
}

std::ostream& operator<<(std::ostream& out, const Message& message) {
  out << message.role;
  if (message.role == Role::tool) out << "(" << testing::quoted(message.tool_call_id) << ")";
  out << " " << testing::quoted(message.content);
  if (!message.tool_calls.empty()) out << " + " << message.tool_calls;
  return out;
}

std::ostream& operator<<(std::ostream& out, const Usage& usage) {
  return out << "Usage{prompt_tokens=" << usage.prompt_tokens
             << ", completion_tokens=" << usage.completion_tokens
             << ", reported=" << (usage.reported ? "true" : "false")
             << ", estimated=" << (usage.estimated ? "true" : "false") << "}";
}

std::ostream& operator<<(std::ostream& out, const std::vector<Message>& messages) {
  out << "{" << messages.size() << (messages.size() == 1 ? " mensagem" : " mensagens");
  for (std::size_t i = 0; i < messages.size(); ++i) out << "\n  [" << i << "] " << messages[i];
  return out << "\n}";
}

std::ostream& operator<<(std::ostream& out, const std::vector<ToolCall>& calls) {
  out << "[";
  for (std::size_t i = 0; i < calls.size(); ++i) out << (i == 0 ? "" : ", ") << calls[i];
  return out << "]";
}

std::ostream& operator<<(std::ostream& out, const SseEvent& event) {
  return out << "SseEvent{event=" << testing::quoted(event.event)
             << ", data=" << testing::quoted(event.data)
             << ", error=" << testing::quoted(event.error) << "}";
}

std::ostream& operator<<(std::ostream& out, const std::vector<SseEvent>& events) {
  out << "[";
  for (std::size_t i = 0; i < events.size(); ++i) out << (i == 0 ? "" : ", ") << events[i];
  return out << "]";
}

std::ostream& operator<<(std::ostream& out, ModelError::Kind kind) {
  switch (kind) {
    case ModelError::Kind::connection:
      return out << "connection";
    case ModelError::Kind::timeout:
      return out << "timeout";
    case ModelError::Kind::http:
      return out << "http";
    case ModelError::Kind::malformed:
      return out << "malformed";
    case ModelError::Kind::idle:
      return out << "idle";
    case ModelError::Kind::too_large:
      return out << "too_large";
    case ModelError::Kind::aborted:
      return out << "aborted";
  }
  return out << "?";
}

doctest::String toString(Role role) { return testing::printed(role); }

doctest::String toString(ModelError::Kind kind) { return testing::printed(kind); }

}  // namespace hz

namespace hz::testing {

std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\x%02x", c);
          out += buffer;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

TextSearch contains(std::string_view text, std::string_view piece) {
  return {std::string(text), std::string(piece), text.find(piece) != std::string_view::npos};
}

std::size_t occurrences(std::string_view text, std::string_view piece) {
  if (piece.empty()) return 0;  // "" está em toda parte: contar não terminaria
  std::size_t count = 0;
  for (std::size_t at = text.find(piece); at != std::string_view::npos;
       at = text.find(piece, at + piece.size())) {
    ++count;
  }
  return count;
}

std::ostream& operator<<(std::ostream& out, const TextSearch& search) {
  constexpr std::size_t kShown = 4000;  // bytes do texto numa falha
  // testing::, não quoted solto: com std::string, o ADL acharia std::quoted.
  return out << testing::quoted(search.piece)
             << (search.found ? " aparece em " : " não aparece em ")
             << testing::quoted(truncate_middle(search.text, kShown));
}

namespace {

std::string item_text(const Message& message) {
  std::ostringstream out;
  out << message;
  return out.str();
}

std::string item_text(const std::string& line) { return testing::quoted(line); }

// noun e nouns: "mensagem" e "mensagens", ou "linha" e "linhas".
template <class T>
std::string difference_of(const std::vector<T>& actual, const std::vector<T>& expected,
                          const std::string& noun, const std::string& nouns) {
  const std::size_t common = std::min(actual.size(), expected.size());
  for (std::size_t i = 0; i < common; ++i) {
    if (actual[i] == expected[i]) continue;
    return "a " + noun + " [" + std::to_string(i) +
           "] difere:\n  veio:     " + item_text(actual[i]) +
           "\n  esperada: " + item_text(expected[i]);
  }
  if (actual.size() == expected.size()) return "iguais";
  return "as primeiras " + std::to_string(common) + " " + nouns + " são iguais, mas veio " +
         std::to_string(actual.size()) + " e eram esperadas " + std::to_string(expected.size());
}

}  // namespace

std::string first_difference(const std::vector<Message>& actual,
                             const std::vector<Message>& expected) {
  return difference_of(actual, expected, "mensagem", "mensagens");
}

std::string first_difference(const std::vector<std::string>& actual,
                             const std::vector<std::string>& expected) {
  return difference_of(actual, expected, "linha", "linhas");
}

}  // namespace hz::testing

namespace doctest {

String StringMaker<std::string>::convert(const std::string& text) {
  return String(hz::testing::quoted(text).c_str());
}

String StringMaker<std::string_view>::convert(std::string_view text) {
  return String(hz::testing::quoted(text).c_str());
}

String StringMaker<const char*>::convert(const char* text) {
  return text == nullptr ? String("nullptr") : String(hz::testing::quoted(text).c_str());
}

String StringMaker<std::vector<std::string>>::convert(const std::vector<std::string>& texts) {
  std::string out = "{" + std::to_string(texts.size()) + (texts.size() == 1 ? " texto" : " textos");
  for (std::size_t i = 0; i < texts.size(); ++i) {
    out += "\n  [" + std::to_string(i) + "] " + hz::testing::quoted(texts[i]);
  }
  out += "\n}";
  return String(out.c_str());
}

}  // namespace doctest
