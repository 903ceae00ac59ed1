#include "agent_loop.hpp"

#include <utility>

#include "hz/text.hpp"
#include "think.hpp"

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
  // EXERCICIO 01-loop/call-model: a resposta do modelo a esta conversa, registrada no trace
  // O modelo não guarda nada entre chamadas: cada pedido carrega a conversa toda.
  ChatRequest request{config.model, history, tools.schemas()};
  trace.emit({{"event", "model_request"},
              {"turn", turn},
              {"messages", request.messages.size()},
              {"tools", request.tools.size()}});
  Result<ChatReply, ModelError> reply = model.complete(request);
  if (!reply) throw ProviderFailure(reply.error());
  trace.emit({{"event", "model_response"},
              {"turn", turn},
              {"tool_calls", reply->message.tool_calls.size()},
              {"finish_reason", reply->finish_reason},
              {"usage", usage_json(reply->usage)},
              {"cost_usd", 0.0}});
  return std::move(reply).value();
  // FIM-EXERCICIO
}
// end-listing: call-model

// listing: run-tool
ToolResult run_tool(const ToolCall& call, const ToolBox& tools, Trace& trace, int turn) {
  // EXERCICIO 01-loop/run-tool: a chamada despachada, com o seu par de eventos no trace
  trace.emit({{"event", "tool_start"},
              {"turn", turn},
              {"call_id", call.id},
              {"name", call.name},
              {"arguments", call.arguments}});
  ToolResult result = tools.dispatch(call);
  trace.emit({{"event", "tool_end"},
              {"turn", turn},
              {"call_id", call.id},
              {"ok", result.ok},
              {"output_bytes", result.output_bytes},
              {"summary", brief(result.message.content, 2, 120)}});
  return result;
  // FIM-EXERCICIO
}
// end-listing: run-tool

// listing: run-turn
TurnResult run_turn(std::vector<Message>& history, const LoopConfig& config, ChatModel& model,
                    const ToolBox& tools, Trace& trace) {
  // EXERCICIO 01-loop/loop: um turno inteiro, até o modelo responder sem pedir ferramentas
  TurnResult result;
  // for, não while: nenhuma sequência de respostas faz o laço passar de max_turns.
  for (int turn = 1; turn <= config.max_turns; ++turn) {
    ChatReply reply = call_model(history, config, model, tools, trace, turn);
    result.model_calls = turn;
    result.usage += reply.usage;
    history.push_back(without_think(reply.message));

    // Parada estrutural: decide a forma da resposta, não o finish_reason.
    if (reply.message.tool_calls.empty()) {
      result.outcome = Outcome::success;
      result.final_text = history.back().content;
      return finish(std::move(result), trace);
    }
    // Uma mensagem tool por pedido, na ordem em que vieram.
    for (const ToolCall& call : reply.message.tool_calls) {
      history.push_back(run_tool(call, tools, trace, turn).message);
    }
  }
  result.outcome = Outcome::max_turns;
  return finish(std::move(result), trace);
  // FIM-EXERCICIO
}
// end-listing: run-turn

}  // namespace hz
