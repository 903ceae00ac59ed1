// O chat das etapas 02 em diante, montado uma vez só: as flags dos freios,
// a sessão e o trace, o Ctrl-C, o relógio e o orçamento da conversa, a
// LoopConfig com os freios, a linha "limites:", a resposta ao vivo, cada turno
// e o código de saída. O main.cpp de cada etapa declara as flags que a etapa
// acrescenta e liga o núcleo dela (o detector, o journal) entre open() e
// start(). Como o brakes_cli.hpp, não é uma biblioteca: veja o comentário de
// lá.
#pragma once

#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agent_loop.hpp"
#include "brakes_cli.hpp"
#include "budget.hpp"
#include "clock.hpp"
#include "context.hpp"
#include "hz/cli.hpp"
#include "hz/stage/console.hpp"
#include "hz/stage/context_guard.hpp"
#include "hz/stage/interrupt.hpp"
#include "hz/stage/limits.hpp"
#include "hz/stage/live.hpp"
#include "hz/stage/session.hpp"
#include "hz/terminal.hpp"
#include "hz/tools.hpp"
#include "hz/trace.hpp"
#include "hz/workspace.hpp"
#include "outcome.hpp"
#include "retry.hpp"
#include "stage_cli.hpp"
#include "tool_dispatch.hpp"

namespace hz::stage {

// As flags das etapas 02 em diante: as de toda etapa e as dos freios, com as
// novas tentativas no padrão do núcleo.
struct BrakeFlags : StageFlags {
  LimitFlags limits = [] {
    LimitFlags flags;
    flags.max_retries = kDefaultMaxRetries;
    return flags;
  }();
};

// As comuns, as dos freios e --max-tool-output, a ordem do --help.
inline void add_brake_flags(FlagParser& parser, BrakeFlags& flags) {
  add_common_flags(parser, flags.common);
  add_limit_flags(parser, flags.limits);
  add_max_tool_output_flag(parser, flags.max_tool_output);
}

// read_flags e, depois, os freios lidos (read_limits); o erro é o código com
// que o programa sai já (0 depois de --help, 2 num erro de uso).
inline Result<Limits, int> read_brake_flags(std::string_view program, FlagParser& parser,
                                            const BrakeFlags& flags, int argc, char** argv) {
  if (const auto done = read_flags(program, parser, flags, argc, argv)) return *done;
  auto limits = read_limits(flags.limits);
  if (!limits) return usage_error(program, limits.error().message);
  return std::move(limits).value();
}

// Uma conversa com freios, do começo ao código de saída. Não se copia nem se
// move: a LoopConfig aponta para o orçamento e o relógio daqui.
class ChatDriver {
 public:
  ChatDriver(std::string_view program, const BrakeFlags& flags, Limits limits)
      : program_(program),
        flags_(flags),
        limits_(std::move(limits)),
        budget_(limits_.budget ? Budget(*limits_.budget) : Budget()) {}
  ChatDriver(const ChatDriver&) = delete;
  ChatDriver& operator=(const ChatDriver&) = delete;

  // O prompt de sistema, o trace, a sessão, o tratador de Ctrl-C e a
  // LoopConfig com os freios, o relógio e o orçamento. Vazio: tudo aberto;
  // senão, o código de saída, com a mensagem já em stderr.
  std::optional<int> open() {
    auto system_prompt = system_prompt_of(flags_.common);
    if (!system_prompt) return usage_error(program_, system_prompt.error().message);
    system_prompt_ = std::move(system_prompt).value();
    auto trace = open_trace(flags_.common.trace);
    if (!trace) return usage_error(program_, trace.error().message);
    trace_ = std::move(trace).value();
    auto session = open_session(flags_.common, kDemoScenario, limits_.http);
    if (!session) {
      std::cerr << program_ << ": " << session.error().message << "\n";
      return session.error().exit_code;
    }
    session_.emplace(std::move(session).value());
    trace_->set_model(session_->model_name);  // o "model" de cada model_request no JSONL
    color_ = wants_color(2);

    // Ctrl-C, SIGTERM e SIGHUP só marcam a flag; quem a lê é o loop, o transporte e o run_shell.
    install_interrupt_handler();
    config_.model = session_->model_name;
    config_.max_turns = flags_.common.max_turns;
    config_.budget = &budget_;  // um orçamento por conversa: os turnos do chat gastam do mesmo
    apply_limits(config_, limits_);
    config_.clock = &clock_;
    // As horas e as durações do trace saem do mesmo relógio que o prazo e o backoff.
    trace_->set_clock(trace_clock_of(clock_));
    config_.cancel = &cancel_;
    return std::nullopt;
  }

  // Para stderr: com quem se fala, onde se trabalha e o que vai parar o
  // turno (extra: o pedaço da linha "limites:" que a etapa acrescenta), e o
  // aviso de um orçamento sem preço.
  void announce(const std::string& extra = {}) const {
    std::cerr << paint(describe(*session_) + describe_limits(config_, limits_) + extra + "\n",
                       Tint::dim, color_);
    warn_if_unpriced(std::cerr, config_, limits_, color_);
  }

  // As opções do run_shell: o Ctrl-C interrompe o comando em curso.
  ShellOptions shell() const {
    ShellOptions options;
    options.cancel = &cancel_;
    return options;
  }

  // As ferramentas do chat, com quem as aprova, e o modelo com que o loop
  // fala: pelo aviso de janela de contexto cheia e, num terminal com
  // streaming, com a resposta aparecendo enquanto chega. Começa o histórico.
  void start(std::vector<Tool> tools) {
    tools_.emplace(std::move(tools), approver_for(*session_, flags_.common),
                   static_cast<std::size_t>(flags_.max_tool_output));
    live_ = config_.stream && isatty(STDOUT_FILENO) == 1;
    guarded_ = guard_context(flags_.common, *session_, std::cerr);
    live_model_.emplace(*guarded_, live_text_);
    history_ = start_conversation(system_prompt_);
  }

  // Um turno novo com a mensagem do usuário.
  TurnResult turn(const std::string& text) {
    add_user_message(history_, text);
    return run_turn(history_, config_, model(), *tools_, *trace_);
  }

  // A resposta final no stdout, se a resposta ao vivo já não a mostrou.
  void show_answer(const TurnResult& result) {
    const bool shown = live_ && live_model_->last_reply_shown();
    if (!result.final_text.empty() && !shown && !write_answer(std::cout, result.final_text)) {
      answer_lost_ = true;
    }
  }

  // Depois da resposta: o gasto da conversa e o código do desfecho; num
  // turno cancelado, 128 + o sinal (130, 143 ou 129), e o chat diz se segue.
  int end_turn(const TurnResult& result) const {
    show_spent(std::cerr, budget_, limits_, color_);
    if (result.outcome != Outcome::cancelled) return exit_code(result.outcome);
    if (chatting() && chat_goes_on()) say_chat_goes_on(std::cerr, color_);
    return cancelled_exit_code();
  }

  int finish_turn(const TurnResult& result) {
    show_answer(result);
    return end_turn(result);
  }

  // O pedido do turno único: --prompt, ou o pedido padrão do cenário.
  std::string prompt() const {
    return flags_.common.prompt.empty() ? session_->scenario_prompt : flags_.common.prompt;
  }
  // Sem pedido nenhum, a conversa é um chat no stdin.
  bool chatting() const {
    return flags_.common.prompt.empty() && session_->scenario_prompt.empty();
  }

  // Com prompt, um turno só (mostrado como a linha do usuário); sem ele, o
  // chat no stdin, uma linha por turno. O código do último turno.
  int converse(const std::string& prompt, const std::function<int(const std::string&)>& one_turn) {
    if (prompt.empty()) return run_interruptible_chat(std::cin, std::cerr, cancel_, one_turn);
    std::cerr << user_line(prompt, color_) << "\n";
    return one_turn(prompt);
  }

  // O código de saída do programa (closing_code): o do último turno, ou 1
  // com resposta perdida ou trace incompleto.
  int close(int code) const {
    return closing_code(std::cerr, program_, *session_, answer_lost_, trace_->failed(), code);
  }

  Session& session() { return *session_; }
  LoopConfig& config() { return config_; }
  Budget& budget() { return budget_; }
  Trace& trace() { return *trace_; }
  std::vector<Message>& history() { return history_; }
  const ToolBox& tools() const { return *tools_; }
  ChatModel& model() { return live_ ? static_cast<ChatModel&>(*live_model_) : *guarded_; }
  const Limits& limits() const { return limits_; }
  const std::string& system_prompt() const { return system_prompt_; }
  bool color() const { return color_; }
  bool& answer_lost() { return answer_lost_; }

 private:
  std::string_view program_;
  const BrakeFlags& flags_;
  Limits limits_;
  std::atomic<bool>& cancel_ = interrupt_flag();
  SystemClock clock_{&cancel_};
  Budget budget_;
  LoopConfig config_{};
  std::string system_prompt_;
  std::unique_ptr<Trace> trace_;
  std::optional<Session> session_;
  bool color_ = false;
  std::optional<ToolBox> tools_;
  bool live_ = false;
  std::unique_ptr<ContextGuard> guarded_;
  LiveText live_text_{std::cout};
  std::optional<LiveModel> live_model_;
  std::vector<Message> history_;
  bool answer_lost_ = false;
};

}  // namespace hz::stage
