// hz-02-brakes: o loop do agente com freios (capítulo 2) como um programa que
// roda.
//
// O mesmo chat da etapa 01, mais: orçamento em dólares por conversa
// (--budget-usd, com os preços de etapas/support/prices.json ou de
// --price-input/--price-output), prazo do turno (--turn-timeout), tempos do
// transporte, novas tentativas com backoff (--max-retries), streaming
// (--no-stream desliga) e Ctrl-C, que interrompe o turno e mantém a conversa.
// O chat em volta do loop (sessão, freios, resposta ao vivo, código de saída)
// é o de etapas/shared/chat_driver.hpp, o mesmo das etapas 03 e 04.
//
// stdout: só as respostas finais (num terminal, a resposta aparece enquanto
// chega). stderr: o trace humano, as perguntas e os avisos. Código de saída: o
// do desfecho do último turno (success 0, max_turns 3, budget 4, timeout 5,
// provider_error 6, cancelled 128 + o sinal: 130 no Ctrl-C, 143 no SIGTERM, 129
// no SIGHUP), 2 para erro de uso, 1 para erro de ambiente (inclusive uma
// resposta que não pôde ser escrita no stdout ou um --trace que ficou
// incompleto).
#include <string>

#include "chat_driver.hpp"
#include "hz/cli.hpp"
#include "hz/tools.hpp"
#include "hz/workspace.hpp"
#include "outcome.hpp"
#include "stage_cli.hpp"

namespace {

constexpr const char* kProgram = "hz-02-brakes";

int run(int argc, char** argv) {
  hz::stage::BrakeFlags flags;
  hz::FlagParser parser(kProgram,
                        "Etapa 02: os freios (orçamento, prazo, novas tentativas, Ctrl-C).");
  hz::stage::add_brake_flags(parser, flags);
  parser.set_epilog(
      hz::stage::outcomes_help({hz::Outcome::success, hz::Outcome::max_turns, hz::Outcome::budget,
                                hz::Outcome::timeout, hz::Outcome::provider_error},
                               true));
  auto limits = hz::stage::read_brake_flags(kProgram, parser, flags, argc, argv);
  if (!limits) return limits.error();

  hz::stage::ChatDriver chat(kProgram, flags, std::move(limits).value());
  if (const auto failed = chat.open()) return *failed;
  chat.announce();
  chat.start(hz::basic_tools(hz::Workspace(chat.session().workspace), chat.shell()));
  const int code = chat.converse(chat.prompt(), [&chat](const std::string& text) {
    return chat.finish_turn(chat.turn(text));
  });
  return chat.close(code);
}

}  // namespace

int main(int argc, char** argv) { return hz::stage::guarded_main(kProgram, run, argc, argv); }
