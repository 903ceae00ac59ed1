// hz-03-repetition-detector: o loop do agente com os freios da etapa 02 e o
// detector de repetição (capítulo 3) como um programa que roda.
//
// O mesmo chat da etapa 02 (orçamento, prazo do turno, tempos do transporte,
// novas tentativas, streaming, Ctrl-C), mais o detector: a mesma chamada com
// o mesmo resultado, sozinha ou num ciclo, recebe um aviso e, se continuar,
// encerra o turno (--repetition-window, --repetition-threshold,
// --repetition-exempt).
//
// stdout: só as respostas finais (num terminal, a resposta aparece enquanto
// chega). stderr: o trace humano, as perguntas e os avisos. Código de saída: o
// do desfecho do último turno (success 0, max_turns 3, budget 4, timeout 5,
// provider_error 6, repetition 7, cancelled 128 + o sinal: 130 no Ctrl-C, 143
// no SIGTERM, 129 no SIGHUP), 2 para erro de uso, 1 para erro de ambiente
// (inclusive uma resposta que não pôde ser escrita no stdout ou um --trace que
// ficou incompleto).
#include <unistd.h>

#include <cstddef>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agent_loop.hpp"
#include "brakes_cli.hpp"
#include "budget.hpp"
#include "chat_cli.hpp"
#include "clock.hpp"
#include "context.hpp"
#include "hz/cli.hpp"
#include "hz/stage/console.hpp"
#include "hz/stage/context_guard.hpp"
#include "hz/stage/flags.hpp"
#include "hz/stage/interrupt.hpp"
#include "hz/stage/limits.hpp"
#include "hz/stage/live.hpp"
#include "hz/stage/session.hpp"
#include "hz/terminal.hpp"
#include "hz/text.hpp"
#include "hz/tools.hpp"
#include "hz/workspace.hpp"
#include "money.hpp"
#include "outcome.hpp"
#include "repetition.hpp"
#include "repetition_cli.hpp"
#include "retry.hpp"
#include "tool_dispatch.hpp"

namespace {

constexpr const char* kProgram = "hz-03-repetition-detector";
constexpr const char* kDemoScenario = "monday";

int usage_error(const std::string& message) {
  std::cerr << kProgram << ": " << message << "\n"
            << "Use " << kProgram << " --help para ver as opções.\n";
  return 2;
}

int run(int argc, char** argv) {
  hz::stage::CommonFlags flags;
  flags.max_turns = hz::kDefaultMaxTurns;
  hz::stage::LimitFlags limit_flags;
  limit_flags.max_retries = hz::kDefaultMaxRetries;
  int max_tool_output = static_cast<int>(hz::kDefaultMaxToolOutput);
  hz::stage::RepetitionFlags repetition_flags;

  hz::FlagParser parser(kProgram,
                        "Etapa 03: o detector de repetição, sobre os freios da etapa 02.");
  hz::stage::add_common_flags(parser, flags);
  hz::stage::add_limit_flags(parser, limit_flags);
  const std::string cut_help =
      "bytes da saída de uma ferramenta que entram no histórico; o meio do resto é cortado "
      "(padrão: " +
      std::to_string(max_tool_output) + ")";
  parser.add_int("max-tool-output", &max_tool_output, cut_help, "BYTES");
  hz::stage::add_repetition_flags(parser, repetition_flags);
  // Os códigos do --help saem do próprio outcome.hpp: não há como divergirem.
  auto code_of = [](hz::Outcome outcome) {
    return hz::stage::OutcomeCode{std::string(hz::to_string(outcome)), hz::exit_code(outcome)};
  };
  parser.set_epilog(hz::stage::exit_codes_help(
      {code_of(hz::Outcome::success), code_of(hz::Outcome::max_turns), code_of(hz::Outcome::budget),
       code_of(hz::Outcome::timeout), code_of(hz::Outcome::provider_error),
       code_of(hz::Outcome::repetition)},
      true));
  auto help = parser.parse(argc, argv);
  if (!help) return usage_error(help.error().message);
  if (*help) {
    std::cout << parser.answer();
    return 0;
  }
  if (flags.max_turns < 1) return usage_error("--max-turns precisa ser pelo menos 1");
  if (max_tool_output < 64) return usage_error("--max-tool-output precisa ser pelo menos 64");
  auto limits = hz::stage::read_limits(limit_flags);
  if (!limits) return usage_error(limits.error().message);
  auto repetition = hz::stage::read_repetition(repetition_flags);
  if (!repetition) return usage_error(repetition.error().message);

  auto system_prompt = hz::stage::system_prompt_of(flags);
  if (!system_prompt) return usage_error(system_prompt.error().message);

  auto trace = hz::stage::open_trace(flags.trace);
  if (!trace) return usage_error(trace.error().message);
  auto session = hz::stage::open_session(flags, kDemoScenario, limits->http);
  if (!session) {
    std::cerr << kProgram << ": " << session.error().message << "\n";
    return session.error().exit_code;
  }
  (*trace)->set_model(session->model_name);  // o "model" de cada model_request no JSONL
  const bool color = hz::wants_color(2);

  // Ctrl-C, SIGTERM e SIGHUP só marcam a flag; quem a lê é o loop, o transporte e o run_shell.
  hz::stage::install_interrupt_handler();
  std::atomic<bool>& cancel = hz::stage::interrupt_flag();
  hz::SystemClock clock(&cancel);
  // Um orçamento por conversa: os turnos do chat gastam do mesmo.
  hz::Budget budget = limits->budget ? hz::Budget(*limits->budget) : hz::Budget();

  hz::LoopConfig config{session->model_name, flags.max_turns};
  config.budget = &budget;
  hz::stage::apply_limits(config, *limits);
  config.clock = &clock;
  // As horas e as durações do trace saem do mesmo relógio que o prazo e o backoff.
  (*trace)->set_clock(hz::stage::trace_clock_of(clock));
  config.cancel = &cancel;
  config.repetition = *repetition;

  std::cerr << hz::paint(hz::stage::describe(*session) +
                             hz::stage::describe_limits(config, *limits) +
                             hz::stage::describe_repetition(*config.repetition) + "\n",
                         hz::Tint::dim, color);
  hz::stage::warn_if_unpriced(std::cerr, config, *limits, color);

  hz::ShellOptions shell;
  shell.cancel = &cancel;
  const hz::ToolBox tools(hz::basic_tools(hz::Workspace(session->workspace), shell),
                          hz::stage::approver_for(*session, flags),
                          static_cast<std::size_t>(max_tool_output));

  // Num terminal, a resposta aparece enquanto chega; fora dele, só no fim.
  const bool live = config.stream && isatty(STDOUT_FILENO) == 1;
  // O loop fala com o modelo através do aviso de janela de contexto cheia.
  const auto guarded = hz::stage::guard_context(flags, *session, std::cerr);
  hz::stage::LiveText live_text(std::cout);
  hz::stage::LiveModel live_model(*guarded, live_text);
  hz::ChatModel& model = live ? static_cast<hz::ChatModel&>(live_model) : *guarded;

  std::vector<hz::Message> history = hz::start_conversation(*system_prompt);
  const bool chat = flags.prompt.empty() && session->scenario_prompt.empty();
  bool answer_lost = false;
  auto one_turn = [&](const std::string& text) {
    hz::add_user_message(history, text);
    const hz::TurnResult result = hz::run_turn(history, config, model, tools, **trace);
    const bool shown = live && live_model.last_reply_shown();
    if (!result.final_text.empty() && !shown &&
        !hz::stage::write_answer(std::cout, result.final_text)) {
      answer_lost = true;
    }
    hz::stage::show_spent(std::cerr, budget, *limits, color);
    if (result.outcome != hz::Outcome::cancelled) return hz::exit_code(result.outcome);
    if (chat && hz::stage::chat_goes_on()) hz::stage::say_chat_goes_on(std::cerr, color);
    return hz::stage::cancelled_exit_code();  // 128 + o sinal: 130, 143 ou 129
  };

  int code = 0;
  const std::string prompt = flags.prompt.empty() ? session->scenario_prompt : flags.prompt;
  if (!prompt.empty()) {
    std::cerr << hz::stage::user_line(prompt, color) << "\n";
    code = one_turn(prompt);
  } else {
    code = hz::stage::run_interruptible_chat(std::cin, std::cerr, cancel, one_turn);
  }
  return hz::stage::closing_code(std::cerr, kProgram, *session, answer_lost, (*trace)->failed(),
                                 code);
}

}  // namespace

int main(int argc, char** argv) {
  hz::stage::guard_standard_fds();
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    // Erros de inicialização e bugs: uma mensagem clara em vez de um abort.
    std::cerr << kProgram << ": erro: " << error.what() << "\n";
    return 1;
  }
}
