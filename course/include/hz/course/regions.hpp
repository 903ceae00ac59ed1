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
//
// Cada arquivo de exercises/ com regiões tem também, no nível do arquivo, a
// área do aluno: o lugar dos includes, constantes e funções auxiliares dele.
// O gerador a escreve vazia (as duas linhas de marcador); o que o aluno puser
// entre elas a regeneração nunca sobrescreve e o ./hz carry leva adiante:
//   // SEU-CODIGO: <uma linha de explicação>
//   ...o código do aluno...
//   // FIM-SEU-CODIGO

#include <optional>
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

// A área do aluno: os índices das linhas de abertura e de fechamento.
struct OwnArea {
  std::size_t open = 0;
  std::size_t close = 0;
};

struct RegionScan {
  std::vector<std::string> lines;  // o texto em linhas, cada uma com o seu terminador
  std::vector<Region> regions;     // na ordem do arquivo
  std::optional<OwnArea> own;      // no máximo uma por arquivo, fora das regiões
  std::string error;               // vazio se ok; senão "arquivo:linha: mensagem"
};

// Acha as regiões de `text`. Na solução, "// TODO EXERCICIO" é erro (é a
// grafia do lado dos exercícios) e vice-versa.
RegionScan scan_regions(std::string_view text, std::string_view shown_path, Side side);

// As linhas de uma região, da abertura ao fechamento, juntas.
std::string region_text(const RegionScan& scan, const Region& region);

// As linhas entre a abertura e o fechamento (sem os marcadores), juntas.
std::string region_body(const RegionScan& scan, const Region& region);

// O código do aluno na área // SEU-CODIGO (vazio sem área).
std::string own_body(const RegionScan& scan);

// Tem algo além de espaços e linhas em branco?
bool has_code(std::string_view text);

// O texto com a área do aluno trocada por outro corpo (o mesmo texto, sem área).
std::string with_own_body(const RegionScan& scan, std::string_view body);

// O texto com cada região e a área do aluno trocadas por uma marca: o que é
// do curso no arquivo, para comparar duas versões dele.
std::string outside_regions(const RegionScan& scan);

// O número (a partir de 1) da primeira linha de `text` que está fora das
// regiões e da área e difere da linha correspondente de `other`, contando só
// as linhas de fora nos dois; 0 se o que está fora é igual.
std::size_t first_outside_difference(const RegionScan& text, const RegionScan& other);

}  // namespace hz::course
