#include "agent_loop.hpp"

#include <utility>

#include "hz/not_implemented.hpp"
#include "hz/text.hpp"

namespace hz {

ProviderFailure::ProviderFailure(ModelError error)
    : std::runtime_error(error.message), error_(std::move(error)) {}

namespace {

nlohmann::json usage_json(const Usage& usage) {
  return {{"prompt_tokens", usage.prompt_tokens}, {"completion_tokens", usage.completion_tokens}};
}

// Os passos do protocolo. [[maybe_unused]]: nos exercícios, o corpo do loop
// é um stub e ainda não os chama.

// Envia o histórico inteiro e os schemas: o modelo não guarda nada entre
// chamadas, então cada pedido carrega a conversa toda.
[[maybe_unused]] ChatReply send(const std::vector<Message>& history, const LoopConfig& config,
                                ChatModel& model, const ToolBox& tools, Trace& trace, int turn) {
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
}

// O raciocínio <think>...</think> serviu para a resposta; no histórico ele só
// gastaria contexto em todas as chamadas seguintes.
[[maybe_unused]] Message without_think(Message message) {
  message.content = strip_think(message.content);
  return message;
}

[[maybe_unused]] Message run_tool(const ToolCall& call, const ToolBox& tools, Trace& trace,
                                  int turn) {
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
  return std::move(result.message);
}

TurnResult finish(TurnResult result, Trace& trace) {
  trace.emit({{"event", "turn_end"},
              {"outcome", to_string(result.outcome)},
              {"turns", result.model_calls},
              {"usage", usage_json(result.usage)},
              {"cost_usd", result.cost_usd}});
  return result;
}

}  // namespace

// listing: run-turn
TurnResult run_turn(std::vector<Message>& history, const LoopConfig& config, ChatModel& model,
                    const ToolBox& tools, Trace& trace) {
  TurnResult result;
  // for, não while: nenhuma sequência de respostas faz o laço passar de max_turns.
  for (int turn = 1; turn <= config.max_turns; ++turn) {
    // TODO EXERCICIO 01-loop/loop-body: envie, guarde sem <think>, pare sem tool calls; senão rode-as
    (void)history;
    (void)model;
    (void)tools;
    throw hz::NotImplemented("01-loop/loop-body");
    // FIM-EXERCICIO
  }
  result.outcome = Outcome::max_turns;
  return finish(std::move(result), trace);
}
// end-listing: run-turn

}  // namespace hz
