// hz-03-repetition-detector: o loop do agente com os freios da etapa 02 e o
// detector de repetição (capítulo 3) como um programa que roda.
//
// O mesmo chat da etapa 02 (orçamento, prazo do turno, tempos do transporte,
// novas tentativas, streaming, Ctrl-C; etapas/shared/chat_driver.hpp), mais o
// detector: a mesma chamada com o mesmo resultado, sozinha ou num ciclo,
// recebe um aviso e, se continuar, encerra o turno (--repetition-window,
// --repetition-threshold, --repetition-exempt).
//
// stdout: só as respostas finais (num terminal, a resposta aparece enquanto
// chega). stderr: o trace humano, as perguntas e os avisos. Código de saída: o
// do desfecho do último turno (success 0, max_turns 3, budget 4, timeout 5,
// provider_error 6, repetition 7, cancelled 128 + o sinal: 130 no Ctrl-C, 143
// no SIGTERM, 129 no SIGHUP), 2 para erro de uso, 1 para erro de ambiente
// (inclusive uma resposta que não pôde ser escrita no stdout ou um --trace que
// ficou incompleto).
#include <string>
#include <utility>

#include "chat_driver.hpp"
#include "hz/cli.hpp"
#include "hz/tools.hpp"
#include "hz/workspace.hpp"
#include "outcome.hpp"
#include "repetition_cli.hpp"
#include "stage_cli.hpp"

namespace {

constexpr const char* kProgram = "hz-03-repetition-detector";

int run(int argc, char** argv) {
  hz::stage::BrakeFlags flags;
  hz::stage::RepetitionFlags repetition_flags;
  hz::FlagParser parser(kProgram,
                        "Etapa 03: o detector de repetição, sobre os freios da etapa 02.");
  hz::stage::add_brake_flags(parser, flags);
  hz::stage::add_repetition_flags(parser, repetition_flags);
  parser.set_epilog(hz::stage::outcomes_help(
      {hz::Outcome::success, hz::Outcome::max_turns, hz::Outcome::budget, hz::Outcome::timeout,
       hz::Outcome::provider_error, hz::Outcome::repetition},
      true));
  auto limits = hz::stage::read_brake_flags(kProgram, parser, flags, argc, argv);
  if (!limits) return limits.error();
  auto repetition = hz::stage::read_repetition(repetition_flags);
  if (!repetition) return hz::stage::usage_error(kProgram, repetition.error().message);

  hz::stage::ChatDriver chat(kProgram, flags, std::move(limits).value());
  if (const auto failed = chat.open()) return *failed;
  chat.config().repetition = *repetition;
  chat.announce(hz::stage::describe_repetition(*repetition));
  chat.start(hz::basic_tools(hz::Workspace(chat.session().workspace), chat.shell()));
  const int code = chat.converse(chat.prompt(), [&chat](const std::string& text) {
    return chat.finish_turn(chat.turn(text));
  });
  return chat.close(code);
}

}  // namespace

int main(int argc, char** argv) { return hz::stage::guarded_main(kProgram, run, argc, argv); }
