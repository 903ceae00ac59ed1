#include "agent_loop.hpp"

#include <algorithm>
#include <random>
#include <utility>

#include "hz/not_implemented.hpp"
#include "hz/text.hpp"
#include "records.hpp"
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

Clock& clock_of(const LoopConfig& config) {
  return config.clock != nullptr ? *config.clock : system_clock();
}

// O sorteio do jitter: o da configuração (testes) ou um gerador da thread.
double draw(const LoopConfig& config) {
  if (config.random) return config.random();
  thread_local std::mt19937_64 engine{std::random_device{}()};
  return std::uniform_real_distribution<double>(0.0, 1.0)(engine);
}

// Soma uma tentativa cobrada ao turno e ao orçamento da conversa; devolve o custo.
Micros bill(TurnState& state, const LoopConfig& config, const Usage& usage) {
  const Micros cost = call_cost(usage, config.prices);
  state.usage += usage;
  state.cost_micros += cost;
  state.cost_estimated = state.cost_estimated || usage.estimated;
  if (config.budget != nullptr) config.budget->charge(cost);
  return cost;
}

std::string_view kind_name(ModelError::Kind kind) {
  switch (kind) {
    case ModelError::Kind::connection:
      return "connection";
    case ModelError::Kind::timeout:
      return "timeout";
    case ModelError::Kind::http:
      return "http";
    case ModelError::Kind::malformed:
      return "malformed";
    case ModelError::Kind::idle:
      return "idle";
    case ModelError::Kind::too_large:
      return "too_large";
    case ModelError::Kind::aborted:
      return "aborted";
  }
  return "?";
}

void report_failure(Trace& trace, int turn, int attempt, const ModelError& error, Micros cost) {
  trace.emit({{"event", "model_error"},
              {"turn", turn},
              {"attempt", attempt},
              {"kind", kind_name(error.kind)},
              {"status", error.http_status},
              {"message", error.message},
              {"billed", error.billed},
              {"cost_usd", to_usd(cost)}});
}

void report_retry(Trace& trace, int turn, int next_attempt, std::chrono::milliseconds delay,
                  const ModelError& error) {
  trace.emit({{"event", "retry"},
              {"turn", turn},
              {"attempt", next_attempt},
              {"delay_ms", delay.count()},
              {"status", error.http_status},
              {"reason", error.message}});
}

// Espera antes da nova tentativa, no relógio da configuração, e avisa no
// trace. Uma espera que passaria do prazo do turno nem é anunciada (sem
// evento retry): dorme só até o prazo.
void wait_to_retry(const LoopConfig& config, const Brakes& brakes, const TurnState& state,
                   Trace& trace, int turn, int next_attempt, std::chrono::milliseconds delay,
                   const ModelError& error) {
  const std::optional<std::chrono::milliseconds> left = brakes.time_left(state);
  if (left && *left <= delay) {
    clock_of(config).sleep_for(*left);
    return;
  }
  report_retry(trace, turn, next_attempt, delay, error);
  clock_of(config).sleep_for(delay);
}

// O passo que grava: todo registro do turno entra no journal (se houver) por
// aqui, e só aqui. Falso: não gravou, e state.error diz por quê.
bool record(const LoopConfig& config, TurnState& state, const nlohmann::json& rec) {
  if (config.journal == nullptr) return true;
  Result<std::int64_t> seq = config.journal->append(rec);
  if (!seq) state.error = seq.error().message;
  return seq.ok();
}

// Por que uma ferramenta não rodou, para o modelo ler na próxima chamada.
std::string stop_reason(Outcome outcome) {
  switch (outcome) {
    case Outcome::cancelled:
      return "o turno foi interrompido (Ctrl-C, SIGTERM ou SIGHUP)";
    case Outcome::budget:
      return "o orçamento da conversa acabou";
    case Outcome::timeout:
      return "o prazo do turno acabou";
    case Outcome::journal:
      return "o journal parou de gravar";
    default:
      return "o turno terminou (" + std::string(to_string(outcome)) + ")";
  }
}

// Toda tool call que já está no histórico precisa da sua mensagem tool: sem
// ela, o provedor recusa o próximo pedido da conversa.
// Com journal, cada uma vira um result (ok falso): a retomada não a roda.
void skip_tools(std::vector<Message>& history, const std::vector<ToolCall>& calls, std::size_t from,
                Outcome outcome, Trace& trace, int turn, const LoopConfig& config,
                TurnState& state) {
  bool journal_ok = outcome != Outcome::journal;
  for (std::size_t i = from; i < calls.size(); ++i) {
    history.push_back(Message::tool(
        calls[i].id, "cancelado: " + stop_reason(outcome) + " antes de esta ferramenta rodar"));
    journal_ok = journal_ok &&
                 record(config, state,
                        result_record(calls[i].id, ToolOutput::failure(history.back().content)));
    trace.emit({{"event", "tool_skipped"},
                {"turn", turn},
                {"call_id", calls[i].id},
                {"name", calls[i].name},
                {"outcome", to_string(outcome)}});
  }
}

// A nota da política vai no fim de um resultado de ferramenta do passo: uma
// mensagem de usuário ou de sistema no meio do turno confundiria quem fala com
// quem. Qual resultado: o da chamada que a decisão cita (note_call_id; o aviso
// de repetição vai junto da chamada repetida) ou, sem chamada citada, o último.
void add_note(std::vector<Message>& history, const Decision& decision, Trace& trace, int turn) {
  append_note(history, decision.note, decision.note_call_id);
  trace.emit({{"event", "note"}, {"turn", turn}, {"text", decision.note}});
}

TurnState start_turn(const LoopConfig& config) {
  TurnState state;
  state.started = clock_of(config).now();
  return state;
}

// A política responde; o loop registra. Os freios como o laço os pergunta:
// os mesmos Brakes (call_with_retry os recebe assim), com um after_step que
// grava no trace o que o detector viu (Decision::events) antes de o laço
// agir. Ele esconde o de Brakes (não é virtual): o laço da etapa 02, que
// chama brakes.after_step, passa a gravar sem mudar uma linha.
struct TracedBrakes : Brakes {
  Trace& trace;

  Decision after_step(const TurnState& state) const {
    Decision decision = Brakes::after_step(state);
    for (const nlohmann::json& event : decision.events) trace.emit(event);
    return decision;
  }
};

// Cada turno ganha um detector novo.
TracedBrakes brakes_for(const LoopConfig& config, Trace& trace) {
  return {Brakes(config.budget, config.turn_deadline, config.cancel, clock_of(config),
                 config.repetition),
          trace};
}

TurnResult finish(Outcome outcome, std::string final_text, TurnState& state,
                  const LoopConfig& config, Trace& trace) {
  // O turn_end fecha o turno no journal; sem ele, a retomada continuaria o turno.
  if (outcome != Outcome::journal &&
      !record(config, state,
              turn_end_record(to_string(outcome), state.model_calls, state.cost_micros))) {
    outcome = Outcome::journal;
    final_text.clear();
  }
  TurnResult result;
  result.outcome = outcome;
  result.final_text = std::move(final_text);
  result.model_calls = state.model_calls;
  result.usage = state.usage;
  result.cost_micros = state.cost_micros;
  result.cost_usd = to_usd(state.cost_micros);
  result.cost_estimated = state.cost_estimated;
  result.retries = state.retries;
  if (outcome == Outcome::provider_error || outcome == Outcome::journal) result.error = state.error;
  trace.emit({{"event", "turn_end"},
              {"outcome", to_string(result.outcome)},
              {"turns", result.model_calls},
              {"usage", usage_json(result.usage)},
              {"cost_usd", result.cost_usd},
              {"cost_known", config.prices.known},
              {"estimated", result.cost_estimated},
              {"retries", result.retries},
              {"error", result.error}});
  return result;
}
// end-listing: helpers

// listing: journaled-tool
// Uma chamada do passo: a intenção gravada ANTES da ferramenta, depois o efeito
// e o resultado. Na retomada (replay) a intenção já está gravada, e a decisão
// dela diz se a ferramenta roda (run) ou não (done, unknown). Falso: o journal falhou.
bool run_call(std::vector<Message>& history, const ToolCall& call, const Entry& entry,
              const ToolBox& tools, const LoopConfig& config, TurnState& state, Trace& trace,
              int turn) {
  const Replay* replay = entry.replay_for(turn, call.id);
  if (config.journal == nullptr) {
    history.push_back(run_tool(call, tools, trace, turn).message);
    return true;
  }
  if (replay == nullptr &&
      !record(config, state, intent_record(intent_for(call, tools, config.workspace)))) {
    return false;
  }
  ToolResult result = replay == nullptr || replay->kind == Replay::Kind::run
                          ? run_tool(call, tools, trace, turn)
                          : tool_result(call, replay->result, tools.max_output_bytes());
  if (!record(config, state, result_record(call.id, {result.ok, result.message.content}))) {
    return false;
  }
  history.push_back(std::move(result.message));
  return true;
}
// end-listing: journaled-tool

}  // namespace

// listing: call-options
CallOptions call_options(const LoopConfig& config,
                         std::optional<std::chrono::milliseconds> time_left) {
  CallOptions options;
  options.stream = config.stream;
  options.on_text = config.on_text;
  if (config.call_timeout.count() > 0) options.timeout = config.call_timeout;
  // O prazo do turno vira o tempo da chamada: uma chamada pendurada não o atravessa.
  if (time_left) options.timeout = std::min(options.timeout.value_or(*time_left), *time_left);
  if (config.cancel != nullptr) {
    options.should_abort = [cancel = config.cancel] { return cancel->load(); };
  }
  return options;
}
// end-listing: call-options

// listing: call-model
ChatReply call_model(const std::vector<Message>& history, const LoopConfig& config,
                     ChatModel& model, const ToolBox& tools, Trace& trace, int turn,
                     const CallOptions& options) {
  // TODO EXERCICIO 02-brakes/call-model: uma tentativa, com o que ela custou no trace
  throw hz::NotImplemented("02-brakes/call-model",
                           "livro/02-brakes.md, \"Exercício 6 — Uma tentativa\"");
  // FIM-EXERCICIO
}

ChatReply call_model(const std::vector<Message>& history, const LoopConfig& config,
                     ChatModel& model, const ToolBox& tools, Trace& trace, int turn) {
  return call_model(history, config, model, tools, trace, turn, call_options(config, std::nullopt));
}
// end-listing: call-model

// listing: call-with-retry
Result<ChatReply, Outcome> call_with_retry(const std::vector<Message>& history,
                                           const LoopConfig& config, ChatModel& model,
                                           const ToolBox& tools, Trace& trace, int turn,
                                           const Brakes& brakes, TurnState& state) {
  // TODO EXERCICIO 02-brakes/retry: a resposta do passo, insistindo só enquanto vale a pena
  throw hz::NotImplemented("02-brakes/retry",
                           "livro/02-brakes.md, \"Exercício 7 — Tentar de novo\"");
  // FIM-EXERCICIO
}
// end-listing: call-with-retry

// listing: run-tool
ToolResult run_tool(const ToolCall& call, const ToolBox& tools, Trace& trace, int turn) {
  // TODO EXERCICIO 01-loop/run-tool: a chamada despachada, com o seu par de eventos no trace
  throw hz::NotImplemented("01-loop/run-tool",
                           "livro/01-loop.md, \"Exercício 6 — Uma ferramenta no trace\"");
  // FIM-EXERCICIO
}
// end-listing: run-tool

// listing: run-turn
TurnResult run_steps(std::vector<Message>& history, const LoopConfig& config, ChatModel& model,
                     const ToolBox& tools, Trace& trace, TurnState state, const Entry& entry) {
  const TracedBrakes brakes = brakes_for(config, trace);
  // Todo caminho termina aqui: o turn_end e o TurnResult saem do mesmo estado.
  auto end = [&](Outcome outcome, std::string text = {}) {
    return finish(outcome, std::move(text), state, config, trace);
  };
  // listing: loop
  // TODO EXERCICIO 04-journal/loop: o turno desde entry, gravando cada passo antes do histórico
  throw hz::NotImplemented("04-journal/loop",
                           "livro/04-journal.md, \"Exercício 7 — O laço com diário\"");
  // FIM-EXERCICIO
  // end-listing: loop
}
// end-listing: run-turn

TurnResult run_turn(std::vector<Message>& history, const LoopConfig& config, ChatModel& model,
                    const ToolBox& tools, Trace& trace) {
  return run_steps(history, config, model, tools, trace, start_turn(config), Entry{});
}

TurnResult resume_turn(std::vector<Message>& history, const ResumeState& state,
                       const LoopConfig& config, ChatModel& model, const ToolBox& tools,
                       Trace& trace) {
  history = state.history;
  if (state.next == NextStep::wait_user) {  // nenhum turno aberto: nada a fazer
    TurnResult nothing;
    nothing.outcome = Outcome::success;
    return nothing;
  }
  TurnState turn = start_turn(config);  // o prazo do turno recomeça agora
  const Entry entry = entry_point(state, tools, config.workspace, config.repetition, turn);
  trace.emit(resume_event(state, entry));
  return run_steps(history, config, model, tools, trace, std::move(turn), entry);
}

}  // namespace hz
