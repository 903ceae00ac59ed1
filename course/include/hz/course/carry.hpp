#pragma once

// As respostas do aluno de uma etapa para a seguinte, e as de referência na
// correção.
//
// exercises/02-brakes traz como stubs também as regiões da etapa 01 (nenhuma
// pasta entrega uma resposta antiga). `carry` leva o código que o aluno já
// escreveu em exercises/01-loop para as regiões de mesmo id em
// exercises/02-brakes que ainda são o stub gerado; uma região que o capítulo 2
// reescreve tem id novo e não é levada. O código da área // SEU-CODIGO de
// cada arquivo vai para a área do arquivo de mesmo nome, se ela está vazia. `fill` faz o contrário
// na correção: põe nas regiões das etapas anteriores a resposta de referência, para que a nota de
// uma etapa dependa só das regiões dela. `release` põe a resposta de referência das etapas
// escolhidas na cópia dos alunos.

#include <filesystem>
#include <string>
#include <vector>

#include "hz/course/exercises.hpp"

namespace hz::course {

struct RegionMove {
  std::string id;
  std::string file;  // relativo à raiz, com '/'
};

// O id com que a área do aluno (// SEU-CODIGO) aparece num RegionMove.
inline constexpr const char* kOwnCode = "SEU-CODIGO";

struct CarryReport {
  std::vector<RegionMove> carried;          // levadas
  std::vector<RegionMove> already_written;  // o destino já tinha código do aluno: ficou
  std::vector<RegionMove> not_answered;     // a origem ainda é o stub: nada a levar
  std::vector<RegionMove> own_left;  // área com código sem área de mesmo arquivo no destino
  std::vector<std::string> errors;
};

// `to_plan` é o plano de exercises/<to> (para reconhecer os stubs intocados);
// `from_plan`, o de exercises/<from>.
CarryReport carry_answers(const std::filesystem::path& root, const StagePlan& from_plan,
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
