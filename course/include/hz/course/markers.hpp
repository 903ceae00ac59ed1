#pragma once

// Reconhece as linhas de marcador do curso:
//   // EXERCICIO 01-loop/loop: instrução         (abre uma região, na solução)
//   // TODO EXERCICIO 01-loop/loop: instrução    (abre a mesma região, no exercício)
//   // FIM-EXERCICIO                              (fecha, nos dois lados)
//   // SEU-CODIGO: texto livre                    (abre a área do aluno, em exercises/)
//   // FIM-SEU-CODIGO                             (fecha a área)
//   // listing: nome        (ou "# listing: nome" em CMake/shell)
//   // end-listing: nome
// Uma linha que parece marcador mas foge da grafia vira `unknown`, para que um
// erro de digitação não passe calado para exercises/ ou para o livro.

#include <string>
#include <string_view>

namespace hz::course {

enum class MarkerKind {
  none,
  exercise,
  todo,
  end_exercise,
  own,
  end_own,
  listing,
  end_listing,
  unknown
};

struct Marker {
  MarkerKind kind = MarkerKind::none;
  std::string stage;    // exercise/todo: "01-loop"
  std::string id;       // exercise/todo: "loop"; listing/end_listing: nome da região
  std::string text;     // exercise/todo: a instrução
  std::string problem;  // unknown: o que está errado, em português
};

// Classifica o corpo de uma linha (sem terminador).
Marker classify_line(std::string_view line_body);

// Verdadeiro para as linhas que uma listagem do livro omite: os marcadores de
// listagem e os de exercício do lado da solução. O "// TODO EXERCICIO" e o
// "// FIM-EXERCICIO" de um exercício aparecem (veja listings.cpp).
bool is_marker_line(std::string_view line_body);

}  // namespace hz::course
