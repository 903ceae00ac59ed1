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
#include <exception>
#include <iostream>
#include <string>

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
#include "tool_dispatch.hpp"

namespace {

constexpr const char* kDemoScenario = "monday";

int usage_error(const std::string& message) {
  std::cerr << "hz-01-loop: " << message << "\n"
            << "Use hz-01-loop --help para ver as opções.\n";
  return 2;
}

int run(int argc, char** argv) {
  hz::stage::CommonFlags flags;
  flags.max_turns = hz::kDefaultMaxTurns;
  int max_tool_output = static_cast<int>(hz::kDefaultMaxToolOutput);

  hz::FlagParser parser("hz-01-loop",
                        "Etapa 01: o loop do agente (envia, lê, roda ferramentas ou para).");
  hz::stage::add_common_flags(parser, flags);
  const std::string cut_help =
      "bytes da saída de uma ferramenta que entram no histórico; o meio do resto é cortado "
      "(padrão: " +
      std::to_string(max_tool_output) + ")";
  parser.add_int("max-tool-output", &max_tool_output, cut_help, "BYTES");
  // Os códigos do --help saem do próprio outcome.hpp: não há como divergirem.
  auto code_of = [](hz::Outcome outcome) {
    return hz::stage::OutcomeCode{std::string(hz::to_string(outcome)), hz::exit_code(outcome)};
  };
  parser.set_epilog(hz::stage::exit_codes_help(
      {code_of(hz::Outcome::success), code_of(hz::Outcome::max_turns)}, false));
  auto help = parser.parse(argc, argv);
  if (!help) return usage_error(help.error().message);
  if (*help) {
    std::cout << parser.answer();
    return 0;
  }
  if (flags.max_turns < 1) return usage_error("--max-turns precisa ser pelo menos 1");
  if (max_tool_output < 64) return usage_error("--max-tool-output precisa ser pelo menos 64");

  std::string system_prompt(hz::default_system_prompt());
  if (!flags.system_prompt.empty()) {
    auto text = hz::stage::read_text_file(flags.system_prompt);
    if (!text) return usage_error("--system-prompt: " + text.error().message);
    system_prompt = std::move(text).value();
  }

  auto trace = hz::stage::open_trace(flags.trace);
  if (!trace) return usage_error(trace.error().message);
  auto session = hz::stage::open_session(flags, kDemoScenario);
  if (!session) {
    std::cerr << "hz-01-loop: " << session.error().message << "\n";
    return session.error().exit_code;
  }
  (*trace)->set_model(session->model_name);  // o "model" de cada model_request no JSONL
  const bool color = hz::wants_color(2);
  std::cerr << hz::paint(hz::stage::describe(*session), hz::Tint::dim, color);

  // Com modelo real, quem escreve ou executa pergunta antes (a não ser com
  // --yes); o roteiro do mock já é conhecido, então não pergunta.
  hz::Approver approver;
  if (!session->scripted && !flags.yes) {
    approver = [](const hz::Tool& tool, const nlohmann::json& args) {
      return hz::stage::ask_permission(std::cin, std::cerr, tool.schema.name, args);
    };
  }
  // A etapa 01 não trata sinais: Ctrl-C, SIGTERM e SIGHUP a matam. Antes de
  // morrer, ela mata o comando que o run_shell roda (ele vive num grupo
  // próprio, que o sinal do terminal não alcança).
  hz::end_commands_on_signals();
  const hz::ToolBox tools(hz::basic_tools(hz::Workspace(session->workspace)), approver,
                          static_cast<std::size_t>(max_tool_output));
  const hz::LoopConfig config{session->model_name, flags.max_turns};
  std::vector<hz::Message> history = hz::start_conversation(system_prompt);
  // O loop fala com o modelo através do aviso de janela de contexto cheia.
  const auto model = hz::stage::guard_context(flags, *session, std::cerr);

  bool answer_lost = false;
  auto one_turn = [&](const std::string& text) {
    hz::add_user_message(history, text);
    hz::TurnResult result = hz::run_turn(history, config, *model, tools, **trace);
    if (!result.final_text.empty() && !hz::stage::write_answer(std::cout, result.final_text)) {
      answer_lost = true;
    }
    return hz::exit_code(result.outcome);
  };

  int code = 0;
  try {
    std::string prompt = flags.prompt.empty() ? session->scenario_prompt : flags.prompt;
    if (!prompt.empty()) {
      std::cerr << hz::stage::user_line(prompt, color) << "\n";
      code = one_turn(prompt);
    } else {
      code = hz::stage::run_chat(std::cin, std::cerr, one_turn);
    }
  } catch (const hz::ProviderFailure& failure) {
    // Etapa 01: uma falha do provedor encerra o programa. A etapa 02 faz
    // retry e a transforma no desfecho provider_error.
    std::cerr << "hz-01-loop: erro do provedor: " << hz::printable(failure.what()) << "\n";
    code = 1;
  }
  for (const auto& failure : session->mock_failures()) {
    std::cerr << "hz-01-loop: o mock registrou: " << failure << "\n";
  }
  // Uma resposta que não chegou ao stdout, ou um trace pedido que ficou
  // incompleto, não pode terminar como sucesso.
  if (answer_lost) {
    std::cerr << "hz-01-loop: não foi possível escrever a resposta na saída padrão\n";
    code = 1;
  }
  if ((*trace)->failed() && code == 0) code = 1;
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  hz::stage::guard_standard_fds();
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    // Erros de inicialização e bugs: uma mensagem clara em vez de um abort.
    std::cerr << "hz-01-loop: erro: " << error.what() << "\n";
    return 1;
  }
}
