#include "agent_loop.hpp"

#include <utility>

#include "hz/not_implemented.hpp"
#include "hz/text.hpp"
#include "think.hpp"

// SEU-CODIGO: includes, constantes e funções suas (./hz carry e ./hz update os levam)
// FIM-SEU-CODIGO

namespace hz {

ProviderFailure::ProviderFailure(ModelError error)
    : std::runtime_error(error.message), error_(std::move(error)) {}

namespace {

// listing: helpers
// O raciocínio <think>...</think> serviu para a resposta; no histórico ele só
// gastaria contexto em todas as chamadas seguintes.
Message without_think(Message message) {
  message.content = strip_think(message.content);
  return message;
}

TurnResult finish(TurnResult result, Trace& trace) {
  trace.emit({{"event", "turn_end"},
              {"outcome", to_string(result.outcome)},
              {"turns", result.model_calls},
              {"usage", usage_json(result.usage)},
              {"cost_usd", result.cost_usd}});
  return result;
}
// end-listing: helpers

}  // namespace

// listing: call-model
ChatReply call_model(const std::vector<Message>& history, const LoopConfig& config,
                     ChatModel& model, const ToolBox& tools, Trace& trace, int turn) {
  // TODO EXERCICIO 01-loop/call-model: a resposta do modelo a esta conversa, registrada no trace
  throw hz::NotImplemented("01-loop/call-model",
                           "livro/01-loop.md, \"Exercício 5 — A chamada ao modelo\"");
  // FIM-EXERCICIO
}
// end-listing: call-model

// listing: run-tool
ToolResult run_tool(const ToolCall& call, const ToolBox& tools, Trace& trace, int turn) {
  // TODO EXERCICIO 01-loop/run-tool: a chamada despachada, com o seu par de eventos no trace
  throw hz::NotImplemented("01-loop/run-tool",
                           "livro/01-loop.md, \"Exercício 6 — Uma ferramenta no trace\"");
  // FIM-EXERCICIO
}
// end-listing: run-tool

// listing: run-turn
TurnResult run_turn(std::vector<Message>& history, const LoopConfig& config, ChatModel& model,
                    const ToolBox& tools, Trace& trace) {
  // TODO EXERCICIO 01-loop/loop: um turno inteiro, até o modelo responder sem pedir ferramentas
  throw hz::NotImplemented("01-loop/loop", "livro/01-loop.md, \"Exercício 7 — O loop\"");
  // FIM-EXERCICIO
}
// end-listing: run-turn

}  // namespace hz
