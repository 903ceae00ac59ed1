// Onde um turno retomado volta ao loop: a fase do passo em que ele parou, o
// estado dos freios refeito dos registros e a decisão de cada chamada que
// começou e não terminou (replay.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "hz/tools.hpp"
#include "hz/workspace.hpp"
#include "policy.hpp"
#include "repetition.hpp"
#include "replay.hpp"
#include "resume.hpp"
#include "tool_dispatch.hpp"

namespace hz {

// listing: entry
// Onde o turno aberto volta ao loop. Um passo tem três fases (chamar o
// modelo, rodar as ferramentas da resposta, perguntar à política), e a
// retomada entra numa delas, na chamada ao modelo em que o turno estava:
//   call_model  o turno acabou de abrir, ou a política já respondeu ao
//               último passo: a próxima chamada ao modelo;
//   run_tools   a última resposta tem chamadas sem resultado: as que faltam,
//               cada uma com intenção pela decisão dela (replays), e depois a
//               política;
//   decide      todas as chamadas da última resposta têm resultado e a
//               política pode não ter respondido: perguntar de novo dá a
//               mesma resposta, porque ela é função dos fatos;
//   finish      a última resposta não pediu ferramentas: só falta o turn_end.
struct Entry {
  enum class Phase { call_model, run_tools, decide, finish };
  Phase phase = Phase::call_model;
  int call = 1;  // a chamada ao modelo do passo em que o turno entra (1, 2, ...)
  // run_tools: a decisão de cada chamada com intenção e sem resultado, pelo
  // call_id (sem intenção, a chamada nem começou e roda como sempre).
  std::vector<std::pair<std::string, Replay>> replays{};

  // A decisão da chamada call_id do passo em que o turno entra; nula se não há.
  const Replay* replay_for(int step, std::string_view call_id) const;
};

std::string_view to_string(Entry::Phase phase);

// A entrada do turno aberto (state.next não é wait_user) e o estado dele,
// refeitos do journal sem chamar a política. turn recebe as contas
// (model_calls, cost_micros), a memória dos freios dos passos que a política
// já respondeu (o detector, com repetition, observa de novo os resultados
// gravados deles, em ordem; a nota de orçamento, se uma nota do turno a
// trouxe) e, em run_tools e decide, as chamadas do passo em curso com os
// resultados que elas já têm. Cada chamada com intenção e sem resultado
// ganha decide_replay, com a idempotência da ferramenta em tools; sem
// workspace, uma check fica desconhecida.
Entry entry_point(const ResumeState& state, const ToolBox& tools, const Workspace* workspace,
                  const std::optional<RepetitionConfig>& repetition, TurnState& turn);
// end-listing: entry

// O evento journal_resume do trace: {records, turn, next, pending:
// [{call_id, name, intent}], decisions: [{call_id, name, decision, reason}]},
// com uma decisão por chamada sem resultado (sem intenção: run, "a intenção
// não foi gravada: a chamada não começou").
nlohmann::json resume_event(const ResumeState& state, const Entry& entry);

}  // namespace hz
