#pragma once

// Cada etapa estende a anterior: solutions/02-brakes é uma cópia inteira de
// solutions/01-loop mais o que o capítulo 2 ensina.
//
// check_stage_chain confere isso para cada par de etapas seguidas: os
// arquivos do núcleo que etapas/stages.txt não lista para a etapa são
// idênticos, byte a byte, aos da anterior; e o diff entre as duas, guardado em
// livro/diffs/NN-nome.diff (o livro mostra pedaços dele como listagens), é o
// diff de verdade.

#include <filesystem>
#include <string>
#include <vector>

#include "hz/course/catalog.hpp"

namespace hz::course {

// O diff unificado de <tree>/<previous> para <tree>/<stage>, arquivo por
// arquivo em ordem, no formato
//   diff -ru solutions/01-loop/x.cpp solutions/02-brakes/x.cpp
//   --- solutions/01-loop/x.cpp
//   +++ solutions/02-brakes/x.cpp
//   @@ ... @@
// (arquivo novo: --- /dev/null; apagado: +++ /dev/null). `tree` é
// "solutions" ou "exercises". O hints.md da pasta da etapa (as dicas do
// ./hz hint, só em exercises/) fica fora: o diff é do código, e as dicas de
// uma etapa apareceriam inteiras no livro. `changed` recebe os caminhos
// relativos que diferem.
std::string stage_diff(const std::filesystem::path& root, const std::string& tree,
                       const std::string& previous, const std::string& stage,
                       std::vector<std::string>* changed = nullptr);

struct ChainReport {
  std::vector<std::string> problems;       // prontos para imprimir
  std::vector<std::string> diffs_written;  // com update
  int pairs = 0;
};

// Confere todas as etapas seguidas que têm solutions/. Com update, reescreve
// livro/diffs/*.diff (o manifesto continua conferido). `tree` escolhe de onde
// vem o diff gravado ("exercises" na cópia dos alunos, que não mostra respostas);
// o manifesto é conferido em solutions/ quando existe.
ChainReport check_stage_chain(const std::filesystem::path& root, const StageList& stages,
                              bool update, const std::string& tree = "solutions");

}  // namespace hz::course
