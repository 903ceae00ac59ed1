#include "hz/stage/interrupt.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>

#include "hz/terminal.hpp"
#include "hz/tools.hpp"

namespace hz::stage {
namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<int> g_signal{0};  // o primeiro sinal desde a última vez que a flag foi desmarcada
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "a flag e o sinal precisam ser escritos de dentro do tratador de sinal");

// listing: sigint
// Só funções seguras em tratador de sinal: operações em atomics sem trava,
// kill (em kill_running_commands), write e _exit.
void on_signal(int signal_number) {
  int none = 0;
  g_signal.compare_exchange_strong(none, signal_number);
  if (g_interrupted.exchange(true)) {
    // O segundo sinal não espera o turno: mata os comandos em curso (eles
    // vivem num grupo próprio, que o sinal do terminal não alcança) e sai.
    hz::kill_running_commands();
    constexpr char kCtrlC[] = "\nsegundo Ctrl-C: saindo\n";
    constexpr char kOther[] = "\nsegundo sinal: saindo\n";
    const bool ctrl_c = signal_number == SIGINT;
    const ssize_t ignored = ctrl_c ? write(STDERR_FILENO, kCtrlC, sizeof kCtrlC - 1)
                                   : write(STDERR_FILENO, kOther, sizeof kOther - 1);
    static_cast<void>(ignored);
    _exit(128 + signal_number);
  }
}
// end-listing: sigint

}  // namespace

std::atomic<bool>& interrupt_flag() { return g_interrupted; }

int cancelled_exit_code() {
  const int signal_number = g_signal.load();
  return 128 + (signal_number == 0 ? SIGINT : signal_number);
}

void install_interrupt_handler() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // sem SA_RESTART, de propósito
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP})
    sigaction(signal_number, &action, nullptr);
}

int run_interruptible_chat(std::istream& in, std::ostream& out, std::atomic<bool>& interrupted,
                           const std::function<int(const std::string&)>& turn) {
  int last = 0;
  std::string line;
  while (true) {
    out << "você> " << std::flush;
    if (!std::getline(in, line)) {
      out << "\n";
      return interrupted.load() ? cancelled_exit_code() : last;
    }
    const bool blank =
        std::all_of(line.begin(), line.end(), [](unsigned char c) { return std::isspace(c) != 0; });
    if (blank) continue;
    last = turn(line);
    if (interrupted.load() && !chat_goes_on()) return last;
    if (interrupted.exchange(false)) {
      g_signal.store(0);
      in.clear();
      // O std::cin lê pelo FILE* do stdin, que guarda o erro do read() interrompido.
      if (&in == &std::cin) std::clearerr(stdin);
    }
  }
}

bool chat_goes_on() {
  const int signal_number = g_signal.load();
  return signal_number == 0 || signal_number == SIGINT;
}

void say_chat_goes_on(std::ostream& out, bool color) {
  out << paint("  turno interrompido; a conversa continua (Ctrl-C no prompt, ou Ctrl-D, sai)\n",
               Tint::dim, color);
}

}  // namespace hz::stage
