#pragma once

// Reconhece as linhas de marcador do curso (formato fixo em hz-plan/DESIGN):
//   // EXERCICIO 01-loop/loop-body: instrução
//   // STUB: código do stub
//   // FIM-EXERCICIO
//   // listing: nome        (ou "# listing: nome" em CMake/shell)
//   // end-listing: nome
// Uma linha que parece marcador mas foge da grafia vira `unknown`, para que um
// erro de digitação não passe calado para exercises/ ou para o livro.

#include <string>
#include <string_view>

namespace hz::course {

enum class MarkerKind { none, exercise, stub, end_exercise, listing, end_listing, unknown };

struct Marker {
  MarkerKind kind = MarkerKind::none;
  std::string stage;        // exercise: "01-loop"
  std::string id;           // exercise: "loop-body"; listing/end_listing: nome da região
  std::string text;         // exercise: instrução; stub: código sem o prefixo
  std::string problem;      // unknown: o que está errado, em português
};

// Classifica o corpo de uma linha (sem terminador).
Marker classify_line(std::string_view line_body);

// Verdadeiro para as linhas que uma listagem do livro omite (qualquer marcador).
bool is_marker_line(std::string_view line_body);

}  // namespace hz::course
