// O loop do agente: envia o histórico ao modelo, guarda a resposta, roda as
// ferramentas pedidas e repete até o modelo responder sem tool calls ou até
// um freio atuar: o limite de chamadas, o orçamento, o prazo do turno, uma
// falha do provedor que as novas tentativas não resolveram, o Ctrl-C ou, da
// etapa 03 em diante, o detector de repetição (que entra pela política,
// policy.hpp: o passo é o da etapa 02). Da etapa 04 em diante, com um
// journal, cada passo concluído fica no disco antes de o seguinte começar, e
// resume_turn continua um turno que um processo morto deixou no meio.
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
#include "entry.hpp"
#include "hz/chat_client.hpp"
#include "hz/result.hpp"
#include "hz/trace.hpp"
#include "hz/wire.hpp"
#include "hz/workspace.hpp"
#include "journal.hpp"
#include "money.hpp"
#include "outcome.hpp"
#include "policy.hpp"
#include "repetition.hpp"
#include "resume.hpp"
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

  // Etapa 03. Vazio: sem detector de repetição, como na etapa 02 (o
  // hz-03-repetition-detector liga com os padrões de RepetitionConfig, janela
  // 5 e limiar 3). Pré-condição: conferido por check_repetition_config.
  std::optional<RepetitionConfig> repetition{};

  // Etapa 04. Nulo: sem journal, como na etapa 03. journal recebe cada
  // registro do turno (o Journal, ou algo na frente dele); workspace é a
  // pasta das ferramentas (as chaves do append_file e do edit_file e a
  // decisão da retomada olham o disco). Pré-condição: os dois vivem mais que
  // o turno.
  RecordSink* journal = nullptr;
  const Workspace* workspace = nullptr;
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
// note, os eventos do detector (tool_repetition, repetition_warning,
// repetition_stop; veja Decision::events em policy.hpp) e, no fim, turn_end.
//
// Antes de cada tentativa e de cada ferramenta pergunta aos freios
// (Brakes::abort_check); depois de cada passo, Brakes::after_step: os eventos
// da decisão vão para o trace antes de qualquer outra coisa, e a memória da
// decisão vira a do turno (TurnState::memory). A memória (e com
// ela a janela do detector de repetição, com config.repetition) vale por um
// turno: uma mensagem nova do usuário é um run_turn novo, com a janela vazia.
// Uma resposta sem tool calls fecha o turno em success sem perguntar aos
// freios: ela já chegou e já foi paga, mesmo que tenha passado do teto. Se o
// turno para no meio de um passo, toda tool call que já está no histórico recebe a
// sua mensagem tool ("cancelado: ..."), e uma resposta que não chegou inteira
// nunca entra: o próximo pedido da conversa é válido. Nada lança daqui.
//
// Etapa 04, com config.journal: cada resposta (reply, com o custo do passo),
// cada chamada (intent antes de rodar, result depois), cada nota e o fim do
// turno (turn_end) viram um registro, gravado e sincronizado antes do passo
// seguinte; o user é de quem chama (ele abre o turno). Um registro que não
// pôde ser gravado para o turno com o desfecho journal, a mensagem do
// journal (com o nome do arquivo) em TurnResult::error e nada mais roda.
TurnResult run_turn(std::vector<Message>& history, const LoopConfig& config, ChatModel& model,
                    const ToolBox& tools, Trace& trace);
// end-listing: run-turn

// listing: resume-turn
// Etapa 04: continua o turno que o journal deixou aberto, no mesmo laço de
// run_turn: entry_point (entry.hpp) diz onde entrar (chamar o modelo, rodar
// as ferramentas que faltam, perguntar à política ou só fechar o turno) e
// refaz o estado do turno a partir do journal (as contas e a memória dos
// freios), sem chamar a política; history vira state.history. Com
// state.next wait_user não há turno para continuar: devolve success sem
// fazer nada. As chamadas com intenção e sem resultado seguem decide_replay:
// rodar, o resultado sintetizado (feito) ou o texto de kUnknownResultText.
// Emite journal_resume (resume_event) antes de qualquer passo. Pré-condição:
// config.journal é o journal retomado, e config.budget (se houver) já foi
// cobrado de state.spent por quem chama (um orçamento por conversa). O prazo
// do turno recomeça agora.
TurnResult resume_turn(std::vector<Message>& history, const ResumeState& state,
                       const LoopConfig& config, ChatModel& model, const ToolBox& tools,
                       Trace& trace);
// end-listing: resume-turn

// listing: run-steps
// Etapa 04: o laço de run_turn e de resume_turn, o da etapa 03 entrando por
// entry (entry.hpp). finish: só fecha o turno (success, com o texto da
// última mensagem). call_model: o passo entry.call desde a chamada ao modelo.
// run_tools e decide: o passo entry.call já tem a resposta e os primeiros
// resultados (state); cada chamada que falta roda com a decisão de replay de
// entry. A resposta (reply: sem <think>, com o usage dela e o custo de todas
// as tentativas do passo) e a nota (note: com budget se traz o aviso de orçamento pela
// primeira vez no turno) vão ao journal antes do histórico. Um registro que
// falha para o turno em journal: a resposta não entra, as chamadas sem
// resultado recebem o "cancelado" e nada mais é gravado.
TurnResult run_steps(std::vector<Message>& history, const LoopConfig& config, ChatModel& model,
                     const ToolBox& tools, Trace& trace, TurnState state, const Entry& entry);
// end-listing: run-steps

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
