#include "hz/course/markers.hpp"

#include <algorithm>
#include <array>

#include "hz/course/lines.hpp"

namespace hz::course {
namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.';
}

bool is_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!is_name_char(c)) return false;
  }
  return true;
}

// Palavras que só aparecem em marcadores. Qualquer comentário que comece por
// uma delas e não tenha a grafia exata é um marcador mal escrito.
constexpr std::array<std::string_view, 20> kSuspicious = {
    "EXERCICIO",      "EXERCÍCIO",      "EXERCISE",       "FIM-EXERCICIO", "FIM-EXERCÍCIO",
    "FIM_EXERCICIO",  "FIM EXERCICIO",  "FIM EXERCÍCIO",  "END-EXERCISE",  "STUB",
    "TODO EXERCICIO", "END-LISTING",    "SEU-CÓDIGO",     "SEU CODIGO",    "SEU_CODIGO",
    "FIM-SEU-CÓDIGO", "FIM SEU-CODIGO", "FIM-SEU CODIGO", "SEU-CODIGO",    "FIM-SEU-CODIGO"};

bool looks_like_marker(std::string_view after_slashes) {
  const std::string_view t = trim(after_slashes);
  for (std::string_view word : kSuspicious) {
    if (!t.starts_with(word)) continue;
    if (t.size() == word.size()) return true;
    const char next = t[word.size()];
    if (next == ' ' || next == ':' || next == '\t') return true;
  }
  return false;
}

Marker unknown(std::string problem) {
  Marker m;
  m.kind = MarkerKind::unknown;
  m.problem = std::move(problem);
  return m;
}

// "// listing: nome" e "# listing: nome" (o segundo para CMake e shell).
Marker classify_listing(std::string_view t) {
  for (std::string_view lead : {std::string_view("// "), std::string_view("# ")}) {
    for (auto [word, kind] :
         {std::pair{std::string_view("listing: "), MarkerKind::listing},
          std::pair{std::string_view("end-listing: "), MarkerKind::end_listing}}) {
      const std::string prefix = std::string(lead) + std::string(word);
      if (!t.starts_with(prefix)) continue;
      const std::string_view name = t.substr(prefix.size());
      if (!is_name(name)) {
        return unknown("nome de listagem inválido '" + std::string(name) +
                       "' (use letras, dígitos, '-', '_' ou '.')");
      }
      Marker m;
      m.kind = kind;
      m.id = std::string(name);
      return m;
    }
  }
  return {};
}

// "<etapa>/<id>: <instrução>", o resto de um marcador de abertura.
Marker parse_opening(std::string_view rest, MarkerKind kind, std::string_view written) {
  const std::string format = "// " + std::string(written) + " <etapa>/<id>: <instrução>";
  const std::size_t slash = rest.find('/');
  const std::size_t colon = rest.find(": ");
  if (slash == std::string_view::npos || colon == std::string_view::npos || slash > colon) {
    return unknown("marcador " + std::string(written) + " malformado (formato: " + format + ")");
  }
  const std::string_view stage = rest.substr(0, slash);
  const std::string_view id = rest.substr(slash + 1, colon - slash - 1);
  const std::string_view instruction = trim(rest.substr(colon + 2));
  if (!is_name(stage) || !is_name(id) || instruction.empty()) {
    return unknown("marcador " + std::string(written) + " malformado (formato: " + format + ")");
  }
  Marker m;
  m.kind = kind;
  m.stage = std::string(stage);
  m.id = std::string(id);
  m.text = std::string(instruction);
  return m;
}

Marker classify_exercise(std::string_view t) {
  constexpr std::string_view kExercise = "// EXERCICIO ";
  constexpr std::string_view kTodo = "// TODO EXERCICIO ";
  constexpr std::string_view kEnd = "// FIM-EXERCICIO";
  constexpr std::string_view kOwn = "// SEU-CODIGO";
  if (t == kEnd || t == "// FIM-SEU-CODIGO") {
    Marker m;
    m.kind = t == kEnd ? MarkerKind::end_exercise : MarkerKind::end_own;
    return m;
  }
  if (t.starts_with(kOwn) && (t.size() == kOwn.size() || t[kOwn.size()] == ':')) {
    Marker m;
    m.kind = MarkerKind::own;
    m.text = std::string(trim(t.substr(std::min(t.size(), kOwn.size() + 1))));
    return m;
  }
  if (t.starts_with(kExercise)) {
    return parse_opening(t.substr(kExercise.size()), MarkerKind::exercise, "EXERCICIO");
  }
  if (t.starts_with(kTodo)) {
    return parse_opening(t.substr(kTodo.size()), MarkerKind::todo, "TODO EXERCICIO");
  }
  if (t.starts_with("// STUB:")) {
    // A grafia antiga: o stub agora é escrito pelo gerador.
    return unknown("linha // STUB: não é mais usada: o hz-course escreve o stub (apague a linha)");
  }
  return {};
}

}  // namespace

Marker classify_line(std::string_view line_body) {
  // Espaços no fim não mudam o sentido de um marcador; no começo, são a indentação.
  const std::string_view t = trim(line_body);
  if (t.starts_with("//")) {
    Marker m = classify_exercise(t);
    if (m.kind != MarkerKind::none) return m;
    m = classify_listing(t);
    if (m.kind != MarkerKind::none) return m;
    if (looks_like_marker(t.substr(2))) {
      return unknown("marcador com grafia desconhecida: '" + std::string(t) +
                     "' (use // EXERCICIO <etapa>/<id>: ... e // FIM-EXERCICIO)");
    }
    return {};
  }
  if (t.starts_with("#")) return classify_listing(t);
  return {};
}

bool is_marker_line(std::string_view line_body) {
  const MarkerKind k = classify_line(line_body).kind;
  return k == MarkerKind::exercise || k == MarkerKind::end_exercise || k == MarkerKind::listing ||
         k == MarkerKind::end_listing;
}

}  // namespace hz::course
