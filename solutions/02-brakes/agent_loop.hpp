// O loop do agente: envia o histórico ao modelo, guarda a resposta, roda as
// ferramentas pedidas e repete até o modelo responder sem tool calls ou até
// um freio atuar: o limite de chamadas, o orçamento, o prazo do turno, uma
// falha do provedor que as novas tentativas não resolveram ou o Ctrl-C.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "budget.hpp"
#include "clock.hpp"
#include "hz/chat_client.hpp"
#include "hz/result.hpp"
#include "hz/trace.hpp"
#include "hz/wire.hpp"
#include "money.hpp"
#include "outcome.hpp"
#include "policy.hpp"
#include "retry.hpp"
#include "tool_dispatch.hpp"

namespace hz {

// listing: loop-config
// Quantas chamadas ao modelo um turno pode fazer quando ninguém diz (--max-turns).
inline constexpr int kDefaultMaxTurns = 20;

// Os campos da etapa 02 vêm depois dos da 01, e os padrões repetem a etapa 01:
// sem teto, sem prazo, sem novas tentativas, sem streaming.
struct LoopConfig {
  std::string model;                 // o campo "model" de cada pedido
  int max_turns = kDefaultMaxTurns;  // pré-condição: >= 1

  Budget* budget = nullptr;                    // o orçamento da conversa; nulo: sem teto
  Prices prices{};                             // o preço do modelo; padrão: desconhecido
  std::chrono::milliseconds call_timeout{0};   // uma chamada inteira; 0: o do transporte
  std::chrono::milliseconds turn_deadline{0};  // o turno inteiro; 0: sem prazo
  RetryPolicy retry{};                         // padrão: nenhuma nova tentativa
  Clock* clock = nullptr;                      // nulo: system_clock()
  std::function<double()> random{};            // o sorteio do jitter, em [0, 1); vazio: aleatório
  const std::atomic<bool>* cancel = nullptr;   // a flag do Ctrl-C; nula: sem cancelamento
  bool stream = false;                         // pedir a resposta por streaming
  std::function<void(std::string_view)> on_text{};  // o texto que chega por streaming
};
// end-listing: loop-config

// listing: provider-failure
// Uma tentativa de chamar o modelo falhou (rede, HTTP de erro, corpo ilegível).
//
// call_model lança esta exceção, como na etapa 01; call_with_retry a pega num
// lugar só e a transforma em valor: outra tentativa ou o desfecho
// provider_error. Nada dela sai de run_turn.
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
// model_response, model_error, retry, tool_start, tool_end, tool_skipped,
// note e, no fim, turn_end.
//
// Os freios: nenhuma tentativa e nenhuma ferramenta começa com um freio
// acionado (Brakes::abort_check), e depois de cada passo completo quem decide
// se o turno segue, segue com uma nota ou para é Brakes::after_step; a nota de
// orçamento sai no máximo uma vez no turno. Uma resposta sem tool calls fecha
// o turno em success sem perguntar aos freios: ela já chegou e já foi paga,
// mesmo que tenha passado do teto. Se o turno para no meio de um
// passo, toda tool call que já está no histórico recebe a sua mensagem tool
// ("cancelado: ..."), e uma resposta que não chegou inteira nunca entra: o
// próximo pedido da conversa é válido. Nada lança daqui.
TurnResult run_turn(std::vector<Message>& history, const LoopConfig& config, ChatModel& model,
                    const ToolBox& tools, Trace& trace);
// end-listing: run-turn

// Os passos do protocolo que run_turn encadeia, públicos para que cada um seja
// lido (e testado) sozinho. `turn` é a chamada ao modelo em curso (1, 2, ...).

// listing: call-options
// As opções de uma tentativa: streaming e on_text da configuração; timeout, o
// menor entre call_timeout (se > 0) e time_left (o que falta para o prazo do
// turno, se há prazo); should_abort lê config.cancel (se não for nulo).
CallOptions call_options(const LoopConfig& config,
                         std::optional<std::chrono::milliseconds> time_left);
// end-listing: call-options

// listing: call-model
// UMA tentativa: envia o histórico inteiro e os schemas das ferramentas com
// `options`, entre os eventos model_request {turn, messages, tools} e
// model_response {turn, tool_calls, finish_reason, usage {prompt_tokens,
// completion_tokens}, cost_usd, estimated}. A resposta volta com o uso que a
// conta paga (billable_usage: o informado, o total pelo preço mais caro ou a
// estimativa pelos bytes), e é por ele o custo. Se o cliente mudou de
// caminho (ChatReply::fallback não vazio), stream_fallback {turn, reason}
// vem logo antes do model_response. Lança ProviderFailure se a chamada falhar
// (sem emitir model_response).
ChatReply call_model(const std::vector<Message>& history, const LoopConfig& config,
                     ChatModel& model, const ToolBox& tools, Trace& trace, int turn,
                     const CallOptions& options);

// A de sempre (a declaração da etapa 01): com call_options(config, sem prazo).
ChatReply call_model(const std::vector<Message>& history, const LoopConfig& config,
                     ChatModel& model, const ToolBox& tools, Trace& trace, int turn);
// end-listing: call-model

// listing: call-with-retry
// A chamada ao modelo de um passo, com novas tentativas. Nenhuma tentativa
// sai, e nenhuma espera começa, com um freio acionado (brakes.abort_check): o
// resultado é o rótulo do freio, que vence também a falha da tentativa
// anterior. Cada tentativa que o provedor cobrou entra na conta (state e
// config.budget): a resposta, pelo uso dela; a falha cobrada
// (ModelError::billed), pela estimativa dos bytes.
// Falha que vale outra tentativa (is_retryable), enquanto houver
// config.retry.max_retries: espera backoff_delay no relógio da configuração
// (nunca além do prazo do turno) e tenta de novo. Contagens: o passo soma 1 a
// state.model_calls quando a primeira tentativa sai, e cada nova tentativa que
// sai soma 1 a state.retries (a que um freio impediu depois da espera não
// conta). Eventos: model_error {turn, attempt, kind, status, message,
// billed, cost_usd} a cada falha e retry {turn, attempt, delay_ms, status,
// reason} antes de cada nova tentativa; attempt conta as tentativas do passo
// a partir de 1 (no retry, a que vai sair). Esgotadas as tentativas (ou numa
// falha que não vale repetir), sem freio acionado: provider_error, com a
// mensagem da última falha em state.error.
Result<ChatReply, Outcome> call_with_retry(const std::vector<Message>& history,
                                           const LoopConfig& config, ChatModel& model,
                                           const ToolBox& tools, Trace& trace, int turn,
                                           const Brakes& brakes, TurnState& state);
// end-listing: call-with-retry

// listing: run-tool
// Despacha uma tool call entre os eventos tool_start {turn, call_id, name,
// arguments} e tool_end {turn, call_id, ok, output_bytes, summary} e devolve o
// resultado do despacho (a mensagem tool que responde a ela, o ok e os bytes).
// summary: brief(texto, 2, 120).
ToolResult run_tool(const ToolCall& call, const ToolBox& tools, Trace& trace, int turn);
// end-listing: run-tool

}  // namespace hz
