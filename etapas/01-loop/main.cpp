// hz-01-loop: o loop do agente (capítulo 1) como um programa que roda.
//
// Sem endpoint, roda o cenário de segunda-feira contra o mock embutido, numa
// cópia temporária da pasta do cenário: as ferramentas rodam de verdade lá.
// Com --base-url (ou OPENAI_BASE_URL), fala com um modelo real.
//
// stdout: só as respostas finais. stderr: o trace humano, as perguntas e os
// erros. Código de saída: o do desfecho do último turno (success 0,
// max_turns 3), 2 para erro de uso, 1 para erro do provedor ou de ambiente
// (inclusive uma resposta que não pôde ser escrita no stdout ou um --trace
// que ficou incompleto).
//
// Texto do modelo e do cenário só chega ao terminal escapado (hz::printable).
#include <cstddef>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "agent_loop.hpp"
#include "context.hpp"
#include "hz/cli.hpp"
#include "hz/stage/console.hpp"
#include "hz/stage/context_guard.hpp"
#include "hz/stage/flags.hpp"
#include "hz/stage/session.hpp"
#include "hz/terminal.hpp"
#include "hz/text.hpp"
#include "hz/tools.hpp"
#include "hz/workspace.hpp"
#include "outcome.hpp"
#include "stage_cli.hpp"
#include "tool_dispatch.hpp"

namespace {

constexpr const char* kProgram = "hz-01-loop";

// Com prompt, um turno só (mostrado como a linha do usuário); sem ele, o chat
// no stdin, uma linha por turno. Etapa 01: uma falha do provedor encerra o
// programa (código 1); a etapa 02 faz retry e a transforma no desfecho
// provider_error.
int converse(const std::string& prompt, bool color,
             const std::function<int(const std::string&)>& one_turn) {
  try {
    if (prompt.empty()) return hz::stage::run_chat(std::cin, std::cerr, one_turn);
    std::cerr << hz::stage::user_line(prompt, color) << "\n";
    return one_turn(prompt);
  } catch (const hz::ProviderFailure& failure) {
    std::cerr << kProgram << ": erro do provedor: " << hz::printable(failure.what()) << "\n";
    return 1;
  }
}

int run(int argc, char** argv) {
  hz::stage::StageFlags flags;
  hz::FlagParser parser(kProgram,
                        "Etapa 01: o loop do agente (envia, lê, roda ferramentas ou para).");
  hz::stage::add_stage_flags(parser, flags);
  parser.set_epilog(
      hz::stage::outcomes_help({hz::Outcome::success, hz::Outcome::max_turns}, false));
  if (const auto done = hz::stage::read_flags(kProgram, parser, flags, argc, argv)) return *done;
  auto system_prompt = hz::stage::system_prompt_of(flags.common);
  if (!system_prompt) return hz::stage::usage_error(kProgram, system_prompt.error().message);

  auto trace = hz::stage::open_trace(flags.common.trace);
  if (!trace) return hz::stage::usage_error(kProgram, trace.error().message);
  auto session = hz::stage::open_session(flags.common, hz::stage::kDemoScenario);
  if (!session) {
    std::cerr << kProgram << ": " << session.error().message << "\n";
    return session.error().exit_code;
  }
  (*trace)->set_model(session->model_name);  // o "model" de cada model_request no JSONL
  const bool color = hz::wants_color(2);
  std::cerr << hz::paint(hz::stage::describe(*session), hz::Tint::dim, color);

  // A etapa 01 não trata sinais: Ctrl-C, SIGTERM e SIGHUP a matam. Antes de
  // morrer, ela mata o comando que o run_shell roda (ele vive num grupo
  // próprio, que o sinal do terminal não alcança).
  hz::end_commands_on_signals();
  const hz::ToolBox tools(hz::basic_tools(hz::Workspace(session->workspace)),
                          hz::stage::approver_for(*session, flags.common),
                          static_cast<std::size_t>(flags.max_tool_output));
  const hz::LoopConfig config{session->model_name, flags.common.max_turns};
  std::vector<hz::Message> history = hz::start_conversation(*system_prompt);
  // O loop fala com o modelo através do aviso de janela de contexto cheia.
  const auto model = hz::stage::guard_context(flags.common, *session, std::cerr);

  bool answer_lost = false;
  auto one_turn = [&](const std::string& text) {
    hz::add_user_message(history, text);
    hz::TurnResult result = hz::run_turn(history, config, *model, tools, **trace);
    if (!result.final_text.empty() && !hz::stage::write_answer(std::cout, result.final_text)) {
      answer_lost = true;
    }
    return hz::exit_code(result.outcome);
  };

  const std::string& prompt =
      flags.common.prompt.empty() ? session->scenario_prompt : flags.common.prompt;
  const int code = converse(prompt, color, one_turn);
  return hz::stage::closing_code(std::cerr, kProgram, *session, answer_lost, (*trace)->failed(),
                                 code);
}

}  // namespace

int main(int argc, char** argv) { return hz::stage::guarded_main(kProgram, run, argc, argv); }
