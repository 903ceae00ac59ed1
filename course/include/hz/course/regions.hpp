#pragma once

// As regiões de exercício de um arquivo-fonte, vistas dos dois lados.
//
// Na solução (solutions/NN), a região guarda a resposta:
//   // EXERCICIO 01-loop/dispatch: <instrução de uma linha>
//   ...a resposta...
//   // FIM-EXERCICIO
//
// No exercício (exercises/NN, gerado), a mesma região guarda o stub ou o
// código do aluno; a instrução pode continuar em linhas de comentário:
//   // TODO EXERCICIO 01-loop/dispatch: <instrução>
//   throw hz::NotImplemented(...);
//   // FIM-EXERCICIO
//
// Uma região é uma sequência de comandos dentro do corpo de uma função: o
// gerador põe ali um throw, e a prova da CI põe um if antes da resposta.

#include <string>
#include <string_view>
#include <vector>

namespace hz::course {

struct Region {
  std::string id;           // "01-loop/dispatch"
  std::string stage;        // "01-loop"
  std::string instruction;  // o texto do marcador de abertura (sem continuação)
  std::string indent;       // a indentação do marcador de abertura
  std::size_t open = 0;     // índice (a partir de 0) da linha de abertura
  std::size_t close = 0;    // índice da linha // FIM-EXERCICIO
};

enum class Side { solution, exercise };

struct RegionScan {
  std::vector<std::string> lines;  // o texto em linhas, cada uma com o seu terminador
  std::vector<Region> regions;     // na ordem do arquivo
  std::string error;               // vazio se ok; senão "arquivo:linha: mensagem"
};

// Acha as regiões de `text`. Na solução, "// TODO EXERCICIO" é erro (é a
// grafia do lado dos exercícios) e vice-versa.
RegionScan scan_regions(std::string_view text, std::string_view shown_path, Side side);

// As linhas de uma região, da abertura ao fechamento, juntas.
std::string region_text(const RegionScan& scan, const Region& region);

// As linhas entre a abertura e o fechamento (sem os marcadores), juntas.
std::string region_body(const RegionScan& scan, const Region& region);

}  // namespace hz::course
