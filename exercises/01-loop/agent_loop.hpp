// O loop do agente: envia o histórico ao modelo, guarda a resposta, roda as
// ferramentas pedidas e repete até o modelo responder sem tool calls ou até
// o limite de chamadas.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "hz/chat_client.hpp"
#include "hz/trace.hpp"
#include "hz/wire.hpp"
#include "outcome.hpp"
#include "tool_dispatch.hpp"

namespace hz {

// listing: loop-config
// Quantas chamadas ao modelo um turno pode fazer quando ninguém diz (--max-turns).
inline constexpr int kDefaultMaxTurns = 20;

struct LoopConfig {
  std::string model;                 // o campo "model" de cada pedido
  int max_turns = kDefaultMaxTurns;  // pré-condição: >= 1
};
// end-listing: loop-config

// listing: provider-failure
// A chamada ao modelo falhou (rede, HTTP de erro, corpo ilegível).
//
// Na etapa 01 isso ainda não é um desfecho: o loop lança esta exceção e o main
// a captura uma vez ("erro do provedor: ...", código 1). A etapa 02 troca por
// retry com backoff e pelo desfecho provider_error.
class ProviderFailure : public std::runtime_error {
 public:
  explicit ProviderFailure(ModelError error);
  const ModelError& error() const { return error_; }

 private:
  ModelError error_;
};
// end-listing: provider-failure

// listing: run-turn
// Roda um turno: a partir do histórico (que já termina com a mensagem do
// usuário), chama o modelo no máximo config.max_turns vezes. Acrescenta ao
// histórico cada resposta do assistente (sem <think>) e uma mensagem tool por
// tool call, na ordem dos pedidos. Emite no trace model_request,
// model_response, tool_start, tool_end e, no fim, turn_end.
//
// Lança ProviderFailure se uma chamada ao modelo falhar; nada que o modelo
// peça (nem o que as ferramentas façam) lança daqui.
TurnResult run_turn(std::vector<Message>& history, const LoopConfig& config, ChatModel& model,
                    const ToolBox& tools, Trace& trace);
// end-listing: run-turn

// Os passos do protocolo que run_turn encadeia, públicos para que cada um seja
// lido (e testado) sozinho. `turn` é a chamada ao modelo em curso (1, 2, ...).

// listing: call-model
// Envia o histórico inteiro e os schemas das ferramentas, entre os eventos
// model_request {turn, messages, tools} e model_response {turn, tool_calls,
// finish_reason, usage {prompt_tokens, completion_tokens}, cost_usd}.
// Lança ProviderFailure se a chamada falhar (sem emitir model_response).
ChatReply call_model(const std::vector<Message>& history, const LoopConfig& config,
                     ChatModel& model, const ToolBox& tools, Trace& trace, int turn);
// end-listing: call-model

// listing: run-tool
// Despacha uma tool call entre os eventos tool_start {turn, call_id, name,
// arguments} e tool_end {turn, call_id, ok, output_bytes, summary} e devolve o
// resultado do despacho (a mensagem tool que responde a ela, o ok e os bytes).
// summary: brief(texto, 2, 120).
ToolResult run_tool(const ToolCall& call, const ToolBox& tools, Trace& trace, int turn);
// end-listing: run-tool

}  // namespace hz
