#pragma once

// As respostas do aluno de uma etapa para a seguinte, e as de referência na
// correção.
//
// exercises/02-brakes traz como stubs também as regiões da etapa 01 (nenhuma
// pasta entrega uma resposta antiga). `carry` leva o código que o aluno já
// escreveu para as regiões de mesmo id em exercises/<destino> que ainda são o
// stub gerado; uma região que um capítulo reescreve tem id novo e não é
// levada. A resposta vem da etapa anterior mais próxima que a tem: numa cópia
// com a etapa 02 liberada (./hz export --release), as regiões da 01 dentro de
// exercises/02-brakes ainda são stubs, e o `carry 03-repetition-detector` as
// busca em exercises/01-loop, onde o aluno as escreveu. O código da área
// // SEU-CODIGO de cada arquivo vai para a área do arquivo de mesmo nome, se
// ela está vazia. `fill` faz o contrário na correção: põe nas regiões das
// etapas anteriores a resposta de referência, para que a nota de uma etapa
// dependa só das regiões dela. `release` põe a resposta de referência das
// etapas escolhidas na cópia dos alunos.

#include <filesystem>
#include <string>
#include <vector>

#include "hz/course/exercises.hpp"

namespace hz::course {

struct RegionMove {
  std::string id;
  std::string file;      // relativo à raiz, com '/'
  std::string from{};    // no carry, a etapa de onde a resposta veio (vazio nos outros)
  std::string was_in{};  // no update, o arquivo em que a resposta estava, se mudou de arquivo
};

// O id com que a área do aluno (// SEU-CODIGO) aparece num RegionMove.
inline constexpr const char* kOwnCode = "SEU-CODIGO";

struct CarryReport {
  std::vector<RegionMove> carried;          // levadas
  std::vector<RegionMove> already_written;  // o destino já tinha código do aluno: ficou
  std::vector<RegionMove> not_answered;     // stub em todas as etapas anteriores: nada a levar
  std::vector<RegionMove> own_left;  // área com código sem área de mesmo arquivo no destino
  std::vector<std::string> errors;
};

// `to_plan` é o plano de exercises/<to> (para reconhecer os stubs intocados);
// `earlier`, os das etapas antes dela, da mais próxima para a mais antiga. Uma
// região que ainda é o stub no destino recebe a resposta da primeira etapa de
// `earlier` em que ela não é o stub (RegionMove::from diz qual). A área
// // SEU-CODIGO vem da etapa mais próxima com código nela; de uma etapa mais
// antiga que earlier[0], só se alguma região do mesmo arquivo veio de lá ou de
// antes.
CarryReport carry_answers(const std::filesystem::path& root, const std::vector<StagePlan>& earlier,
                          const StagePlan& to_plan);

// Em root/exercises/<plan.stage>, troca cada região de uma etapa anterior pela
// resposta de referência (plan.answers, calculado de solutions/). Devolve as
// regiões trocadas.
CarryReport fill_reference(const std::filesystem::path& root, const StagePlan& plan);

// Em root/exercises/<plan.stage>, troca cada região das etapas em `stages`
// pela resposta de referência: o professor libera a resposta de uma etapa
// depois do prazo (./hz export --release), e quem travou ali segue adiante.
// Vale para todas as pastas de exercises/ em que a região aparece. Devolve
// as regiões trocadas.
CarryReport release_reference(const std::filesystem::path& root, const StagePlan& plan,
                              const std::vector<std::string>& stages);

}  // namespace hz::course
