// O que todo executável de etapa faz em volta do núcleo, lido contra o núcleo
// da etapa que inclui este cabeçalho (o agent_loop.hpp, o context.hpp, o
// outcome.hpp e o tool_dispatch.hpp dela): as flags de toda etapa com os
// padrões do núcleo, o --help com os códigos de saída, os erros de uso, o
// prompt de sistema, quem aprova as ferramentas e o main que não deixa uma
// exceção escapar. Como o brakes_cli.hpp, não é uma biblioteca: veja o
// comentário de lá.
#pragma once

#include <cstddef>
#include <exception>
#include <initializer_list>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent_loop.hpp"
#include "context.hpp"
#include "hz/cli.hpp"
#include "hz/result.hpp"
#include "hz/stage/console.hpp"
#include "hz/stage/flags.hpp"
#include "hz/stage/session.hpp"
#include "hz/tools.hpp"
#include "outcome.hpp"
#include "tool_dispatch.hpp"

namespace hz::stage {

// O cenário de quem roda a etapa sem endpoint nem --scenario.
inline constexpr std::string_view kDemoScenario = "monday";

// As flags de toda etapa: as comuns (--max-turns no padrão do núcleo) e
// --max-tool-output.
struct StageFlags {
  CommonFlags common = [] {
    CommonFlags flags;
    flags.max_turns = kDefaultMaxTurns;
    return flags;
  }();
  int max_tool_output = static_cast<int>(kDefaultMaxToolOutput);
};

inline void add_max_tool_output_flag(FlagParser& parser, int& bytes) {
  parser.add_int("max-tool-output", &bytes,
                 "bytes da saída de uma ferramenta que entram no histórico; o meio do resto é "
                 "cortado (padrão: " +
                     std::to_string(bytes) + ")",
                 "BYTES");
}

// As comuns e depois --max-tool-output, a ordem do --help.
inline void add_stage_flags(FlagParser& parser, StageFlags& flags) {
  add_common_flags(parser, flags.common);
  add_max_tool_output_flag(parser, flags.max_tool_output);
}

// A seção "códigos de saída" do --help. Os códigos saem do próprio
// outcome.hpp: não há como divergirem.
inline std::string outcomes_help(std::initializer_list<Outcome> outcomes, bool handles_signals) {
  std::vector<OutcomeCode> codes;
  for (const Outcome outcome : outcomes) {
    codes.push_back(OutcomeCode{std::string(to_string(outcome)), exit_code(outcome)});
  }
  return exit_codes_help(codes, handles_signals);
}

// Um erro de uso: a mensagem e a dica do --help em stderr, e o código 2.
inline int usage_error(std::string_view program, const std::string& message) {
  std::cerr << program << ": " << message << "\n"
            << "Use " << program << " --help para ver as opções.\n";
  return 2;
}

// Lê argv e confere as flags de toda etapa. Devolve o código com que o
// programa sai já (0 depois de --help ou --version, com a resposta no stdout;
// 2 num erro de uso), ou vazio para seguir.
inline std::optional<int> read_flags(std::string_view program, FlagParser& parser,
                                     const StageFlags& flags, int argc, char** argv) {
  auto help = parser.parse(argc, argv);
  if (!help) return usage_error(program, help.error().message);
  if (*help) {
    std::cout << parser.answer();
    return 0;
  }
  if (flags.common.max_turns < 1)
    return usage_error(program, "--max-turns precisa ser pelo menos 1");
  if (flags.max_tool_output < 64) {
    return usage_error(program, "--max-tool-output precisa ser pelo menos 64");
  }
  return std::nullopt;
}

// O prompt de sistema: o arquivo de --system-prompt ou o padrão da etapa. O
// Error cita a flag.
inline Result<std::string> system_prompt_of(const CommonFlags& flags) {
  if (flags.system_prompt.empty()) return std::string(default_system_prompt());
  auto text = read_text_file(flags.system_prompt);
  if (!text) return Error{"--system-prompt: " + text.error().message};
  return std::move(text).value();
}

// Com modelo real, quem escreve ou executa pergunta antes no terminal (a não
// ser com --yes); o roteiro do mock já é conhecido, então não pergunta (vazio).
inline Approver approver_for(const Session& session, const CommonFlags& flags) {
  if (session.scripted || flags.yes) return {};
  return [](const Tool& tool, const nlohmann::json& args) {
    return ask_permission(std::cin, std::cerr, tool.schema.name, args);
  };
}

// O main de toda etapa: run com os descritores padrão garantidos, e um erro
// de inicialização ou um bug viram uma mensagem clara e o código 1 em vez de
// um abort.
inline int guarded_main(std::string_view program, int (*run)(int, char**), int argc, char** argv) {
  guard_standard_fds();
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << program << ": erro: " << error.what() << "\n";
    return 1;
  }
}

}  // namespace hz::stage
