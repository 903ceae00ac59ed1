// A retomada: do journal de volta ao estado da conversa. Onde o turno aberto
// volta ao loop está em entry.hpp; o que fazer com uma chamada de ferramenta
// que começou e não terminou, em replay.hpp.
//
// Tudo aqui é função pura sobre os registros (journal_record.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "hz/result.hpp"
#include "hz/tools.hpp"
#include "hz/wire.hpp"
#include "hz/workspace.hpp"
#include "journal_record.hpp"
#include "money.hpp"
#include "policy.hpp"
#include "repetition.hpp"
#include "replay.hpp"
#include "tool_dispatch.hpp"

namespace hz {

// listing: resume-state
// O resultado de uma ferramenta no turno em curso, para o detector de
// repetição observar de novo (a janela dele é do turno).
struct TurnToolResult {
  ToolCall call;
  bool ok = false;
  std::string content;
  bool operator==(const TurnToolResult&) const = default;
};

// Uma tool call da última resposta do modelo que ainda não tem resultado.
// Sem intent, ela nem começou (o processo caiu antes de gravar a intenção):
// roda normalmente. Com intent, pode ter tido efeito: decide_replay.
struct UnfinishedCall {
  ToolCall call;
  std::optional<Intent> intent;
  bool operator==(const UnfinishedCall&) const = default;
};

// O que a retomada faz primeiro.
enum class NextStep {
  wait_user,    // o último turno terminou (ou nenhum começou): espera o usuário
  run_tools,    // há chamadas da última resposta sem resultado (unfinished)
  call_model,   // o turno está aberto e a última resposta foi respondida: chama o modelo
  finish_turn,  // a última resposta não pediu ferramentas: o turno acabou em success,
                // só falta gravar o turn_end
};

struct ResumeState {
  nlohmann::json settings = nlohmann::json::object();  // as do start
  std::vector<Message> history;                        // com o prompt de sistema do start, se havia
  std::int64_t last_seq = 0;
  int turns_ended = 0;                       // turnos com turn_end
  bool turn_open = false;                    // o último turno começou e não tem turn_end
  int model_calls = 0;                       // chamadas ao modelo no turno aberto
  Micros turn_cost = 0;                      // o que o turno aberto já gastou
  Micros spent = 0;                          // a conversa inteira (o Budget recomeça daqui)
  std::vector<TurnToolResult> turn_results;  // do turno aberto, em ordem
  std::vector<std::string> turn_notes;       // notas da política no turno aberto
  bool budget_noted = false;                 // uma delas trouxe o aviso de orçamento
  std::vector<UnfinishedCall> unfinished;    // em ordem
  NextStep next = NextStep::wait_user;
  // call_model: a política já respondeu ao último passo (o último registro
  // não é o result de uma chamada), ou o turno ainda não teve passo. Falso:
  // a queda pode ter vindo antes da resposta dela.
  bool last_step_decided = true;
};

std::string_view to_string(NextStep step);
// end-listing: resume-state

// Reconstrói o estado a partir dos registros conferidos (read_journal),
// fazendo com ele, registro a registro, o que o loop fez ao gravá-los. O
// dinheiro gasto é o cost_micros de cada turn_end mais o dos reply do turno
// aberto (somas com saturação). O turno aberto vai de um user ao turn_end
// seguinte, e o user e o turn_end zeram os campos dele (model_calls,
// turn_cost, turn_results, turn_notes, budget_noted); uma nota fora do turno
// aberto só entra no histórico (o que ela faria nesses campos, o próximo user
// zera). Uma chamada pendente é uma das pedidas pelo último reply que ainda
// não tem o seu result.
// Um journal que o loop nunca gravaria é um erro. A frase é sua, e os testes
// conferem que ela cita o registro como at_seq (em resume.cpp) o escreve,
// "seq 3 (user)", e o call_id do registro (intent, result); e que cada linha
// abaixo tem a sua
// (tirando o registro citado, duas frases nunca são iguais):
//   nenhum registro
//   o primeiro registro não é start
//   um start que não é o primeiro
//   user com turno aberto
//   reply sem turno aberto (antes do primeiro user ou depois de um turn_end)
//   reply com alguma chamada pendente
//   intent de uma chamada que não está pendente ou que já tem a sua
//   result de uma chamada que não está pendente
//   note quando o histórico reconstruído ainda está vazio (antes do primeiro
//   user, se as settings do start não têm um system_prompt de texto; com
//   alguma mensagem no histórico, dentro ou fora de um turno, a nota vale)
//   turn_end sem turno aberto
//   turn_end com alguma chamada pendente
Result<ResumeState> rebuild_state(const std::vector<Record>& records);

// Uma intenção que não bate com a chamada que o modelo pediu (outro nome ou
// outros argumentos, para o mesmo call_id): o journal foi mexido, e retomar
// seria rodar o que ninguém pediu. Uma frase por intenção assim, com o seq
// não disponível aqui: "call_1: a intenção diz append_file, a resposta do
// modelo pede edit_file". Vazio: todas batem.
std::vector<std::string> intent_mismatches(const ResumeState& state);

// O desfecho do turn_end com que o journal termina; vazio se ele termina
// noutro registro (um turno aberto, ou nenhum turno).
std::optional<std::string> last_outcome(const std::vector<Record>& records);

// listing: settings-differences
// As diferenças entre as configurações gravadas no start e as de agora, uma
// frase por chave, em ordem alfabética:
//   model: no journal "gpt-4.1-mini", agora "gpt-4.1"
// Uma chave que só existe de um lado aparece como (ausente). Vazio: iguais.
std::vector<std::string> settings_differences(const nlohmann::json& journaled,
                                              const nlohmann::json& current);
// end-listing: settings-differences

}  // namespace hz
