#include "hz/stage/interrupt.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>

#include "hz/terminal.hpp"

namespace hz::stage {
namespace {

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free,
              "a flag do Ctrl-C precisa ser escrita de dentro do tratador de sinal");

// listing: sigint
// Só funções seguras em tratador de sinal: exchange num atomic sem trava,
// write e _exit.
void on_sigint(int) {
  if (g_interrupted.exchange(true)) {
    constexpr char kMessage[] = "\nsegundo Ctrl-C: saindo\n";
    const ssize_t ignored = write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
    static_cast<void>(ignored);
    _exit(130);
  }
}
// end-listing: sigint

}  // namespace

std::atomic<bool>& interrupt_flag() { return g_interrupted; }

void install_interrupt_handler() {
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // sem SA_RESTART, de propósito
  sigaction(SIGINT, &action, nullptr);
}

int run_interruptible_chat(std::istream& in, std::ostream& out, std::atomic<bool>& interrupted,
                           const std::function<int(const std::string&)>& turn) {
  int last = 0;
  std::string line;
  while (true) {
    out << "você> " << std::flush;
    if (!std::getline(in, line)) {
      out << "\n";
      return interrupted.load() ? 130 : last;
    }
    const bool blank =
        std::all_of(line.begin(), line.end(), [](unsigned char c) { return std::isspace(c) != 0; });
    if (blank) continue;
    last = turn(line);
    if (interrupted.exchange(false)) {
      in.clear();
      // O std::cin lê pelo FILE* do stdin, que guarda o erro do read() interrompido.
      if (&in == &std::cin) std::clearerr(stdin);
    }
  }
}

void say_chat_goes_on(std::ostream& out, bool color) {
  out << paint("  turno interrompido; a conversa continua (Ctrl-C no prompt, ou Ctrl-D, sai)\n",
               Tint::dim, color);
}

}  // namespace hz::stage
