#include "agent_loop.hpp"

#include <algorithm>
#include <random>
#include <utility>

#include "hz/text.hpp"
#include "records.hpp"
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
  // EXERCICIO 02-brakes/call-model: uma tentativa, com o que ela custou no trace
  ChatRequest request{config.model, history, tools.schemas()};
  trace.emit({{"event", "model_request"},
              {"turn", turn},
              {"messages", request.messages.size()},
              {"tools", request.tools.size()}});
  Result<ChatReply, ModelError> reply = model.call(request, options);
  if (!reply) throw ProviderFailure(reply.error());
  if (!reply->fallback.empty()) {
    trace.emit({{"event", "stream_fallback"}, {"turn", turn}, {"reason", reply->fallback}});
  }
  // Sem um "usage" que sirva, o provedor cobrou do mesmo jeito: billable_usage estima.
  reply->usage =
      billable_usage(reply->usage, reply->request_bytes, reply->response_bytes, config.prices);
  trace.emit({{"event", "model_response"},
              {"turn", turn},
              {"tool_calls", reply->message.tool_calls.size()},
              {"finish_reason", reply->finish_reason},
              {"usage", usage_json(reply->usage)},
              {"cost_usd", to_usd(call_cost(reply->usage, config.prices))},
              {"estimated", reply->usage.estimated}});
  return std::move(reply).value();
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
  // EXERCICIO 02-brakes/retry: a resposta do passo, insistindo só enquanto vale a pena
  for (int attempt = 1;; ++attempt) {
    if (const std::optional<Outcome> stop = brakes.abort_check(state)) return *stop;
    state.model_calls = turn;
    if (attempt > 1) ++state.retries;  // só conta a nova tentativa que sai de verdade
    try {
      ChatReply reply = call_model(history, config, model, tools, trace, turn,
                                   call_options(config, brakes.time_left(state)));
      bill(state, config, reply.usage);
      return reply;
    } catch (const ProviderFailure& failure) {
      const ModelError& error = failure.error();
      // O provedor cobra quando aceita o pedido, mesmo que a resposta não sirva.
      const Micros cost =
          error.billed
              ? bill(state, config, estimate_usage(error.request_bytes, error.response_bytes))
              : 0;
      report_failure(trace, turn, attempt, error, cost);
      state.error = error.message;
      if (const std::optional<Outcome> stop = brakes.abort_check(state)) return *stop;
      if (!is_retryable(error) || attempt > config.retry.max_retries) {
        return Outcome::provider_error;
      }
      const std::chrono::milliseconds delay =
          backoff_delay(attempt - 1, error.retry_after_seconds, config.retry, draw(config));
      wait_to_retry(config, brakes, state, trace, turn, attempt + 1, delay, error);
    }
  }
  // FIM-EXERCICIO
}
// end-listing: call-with-retry

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
TurnResult run_steps(std::vector<Message>& history, const LoopConfig& config, ChatModel& model,
                     const ToolBox& tools, Trace& trace, TurnState state, const Entry& entry) {
  const TracedBrakes brakes = brakes_for(config, trace);
  // Todo caminho termina aqui: o turn_end e o TurnResult saem do mesmo estado.
  auto end = [&](Outcome outcome, std::string text = {}) {
    return finish(outcome, std::move(text), state, config, trace);
  };
  // listing: loop
  // EXERCICIO 04-journal/loop: o turno desde entry, gravando cada passo antes do histórico
  if (entry.phase == Entry::Phase::finish) return end(Outcome::success, history.back().content);
  // A primeira metade do passo: perguntar ao modelo. Vazio: siga para as ferramentas.
  auto ask_model = [&](int turn) -> std::optional<TurnResult> {
    const Micros before = state.cost_micros;
    Result<ChatReply, Outcome> reply =
        call_with_retry(history, config, model, tools, trace, turn, brakes, state);
    if (!reply) return end(reply.error());  // nada da tentativa entra no histórico
    Message message = without_think(reply->message);
    if (!record(config, state, reply_record(message, reply->usage, state.cost_micros - before))) {
      return end(Outcome::journal);  // a resposta não entra: o histórico segue válido
    }
    history.push_back(std::move(message));

    // Parada estrutural: decide a forma da resposta, não o finish_reason.
    if (reply->message.tool_calls.empty()) return end(Outcome::success, history.back().content);

    state.last_calls = reply->message.tool_calls;
    state.last_results.clear();
    return std::nullopt;
  };
  // for, não while: nenhuma sequência de respostas faz o laço passar de max_turns.
  for (int turn = entry.call; turn <= config.max_turns; ++turn) {
    // Um passo retomado nas ferramentas (run_tools, decide) já tem a resposta.
    if (turn > entry.call || entry.phase == Entry::Phase::call_model) {
      if (std::optional<TurnResult> done = ask_model(turn)) return std::move(*done);
    }
    // As chamadas do passo ainda sem resultado (um passo retomado já tem as primeiras).
    for (std::size_t i = state.last_results.size(); i < state.last_calls.size(); ++i) {
      if (const std::optional<Outcome> stop = brakes.abort_check(state)) {
        skip_tools(history, state.last_calls, i, *stop, trace, turn, config, state);
        return end(*stop);
      }
      if (!run_call(history, state.last_calls[i], entry, tools, config, state, trace, turn)) {
        skip_tools(history, state.last_calls, i, Outcome::journal, trace, turn, config, state);
        return end(Outcome::journal);
      }
      state.last_results.push_back(history.back());
    }
    const Decision decision = brakes.after_step(state);
    if (decision.kind == Decision::Kind::stop) return end(decision.outcome);
    const bool budget_note = decision.memory.budget_noted && !state.memory.budget_noted;
    state.memory = decision.memory;  // a política responde; o loop registra
    if (decision.kind == Decision::Kind::proceed_with_note) {
      if (!record(config, state, note_record(decision.note, decision.note_call_id, budget_note))) {
        return end(Outcome::journal);
      }
      add_note(history, decision, trace, turn);
    }
  }
  return end(Outcome::max_turns);
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
