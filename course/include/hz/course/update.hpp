#pragma once

// A cópia de um aluno recebe uma versão nova do curso (./hz update).
//
// A cópia do aluno nasceu do repositório-modelo do professor ("Use this
// template") e não tem história em comum com ele: um git merge não serve. A
// regra aqui é simples e não dá conflito:
// - todo arquivo da versão nova substitui o do aluno;
// - menos os fontes de exercises/NN/ (.cpp, .hpp, .h): neles, o código que o
//   aluno escreveu em cada região de exercício entra no arquivo novo, pela
//   região de mesmo id (mesmo que ela tenha mudado de arquivo dentro da
//   etapa). Uma região que o aluno não tocou (ainda é o stub) recebe o que a
//   versão nova traz, que pode ser a referência que o professor liberou;
// - arquivos que só existem na cópia do aluno ficam como estão.
// Uma região respondida que a versão nova não tem mais (renomeada ou
// removida) é relatada com o arquivo onde estava: nada se perde sem aviso.
// Primeiro tudo é planejado; com qualquer erro (marcadores quebrados), nada
// é escrito.

#include <filesystem>
#include <string>
#include <vector>

#include "hz/course/carry.hpp"

namespace hz::course {

struct UpdateOptions {
  // Nas regiões em que a versão nova traz a referência liberada e o aluno
  // já tinha escrito a sua, fica a referência (sem isto, fica a do aluno).
  bool take_released = false;
};

struct UpdateReport {
  std::vector<std::string> added;         // arquivos novos da versão nova
  std::vector<std::string> changed;       // arquivos que mudaram
  std::vector<std::string> kept;          // só na cópia do aluno (ficaram)
  std::vector<RegionMove> carried;        // respostas do aluno levadas para o arquivo novo
  std::vector<RegionMove> released;       // referências liberadas que entraram (no lugar do stub)
  std::vector<RegionMove> released_kept;  // liberadas que não entraram: o aluno tinha a sua
  std::vector<RegionMove> released_replaced;  // com take_released: trocaram a resposta do aluno
  std::vector<RegionMove> orphaned;  // respondidas que a versão nova não tem (file: onde estavam)
  // A área // SEU-CODIGO com código de um arquivo (was_in) de onde uma
  // resposta saiu para outro (file): ela fica onde estava, e a resposta pode
  // precisar do que está nela.
  std::vector<RegionMove> own_left_behind;
  // Fontes de exercises/ que diferem da versão nova fora das regiões (o
  // curso mudou ali, ou o aluno mexeu onde não devia): vale olhar o git diff.
  std::vector<std::string> outside;
  std::vector<std::string> errors;  // com erro, nada foi escrito
};

// Traz para `student` a árvore `fresh` (a versão nova, sem .git). Em ambas,
// pastas build*/ na raiz, .git, .grader e node_modules são ignoradas.
UpdateReport update_course(const std::filesystem::path& student, const std::filesystem::path& fresh,
                           const UpdateOptions& options);

}  // namespace hz::course
