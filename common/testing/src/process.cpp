#include "hz/testing/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>
#include <stdexcept>

extern char** environ;

namespace hz::testing {

namespace {

using Clock = std::chrono::steady_clock;

struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int value) : fd(value) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  void reset() {
    if (fd >= 0) close(fd);
    fd = -1;
  }
};

// pipe com FD_CLOEXEC nas duas pontas. No Linux, pipe2 faz isso de uma vez;
// o macOS não tem pipe2, e lá vai pipe + fcntl (POSIX).
bool pipe_cloexec(int fds[2]) {
#ifdef __linux__
  return pipe2(fds, O_CLOEXEC) == 0;
#else
  if (pipe(fds) != 0) return false;
  if (fcntl(fds[0], F_SETFD, FD_CLOEXEC) == 0 && fcntl(fds[1], F_SETFD, FD_CLOEXEC) == 0) {
    return true;
  }
  const int error = errno;
  close(fds[0]);
  close(fds[1]);
  errno = error;
  return false;
#endif
}

void make_pipe(Fd* read_end, Fd* write_end) {
  int fds[2];
  if (!pipe_cloexec(fds)) {
    throw std::runtime_error(std::string("run_program: pipe falhou: ") + std::strerror(errno));
  }
  read_end->fd = fds[0];
  write_end->fd = fds[1];
}

// O ambiente do filho, montado antes do fork (depois dele, nada de malloc).
std::vector<std::string> child_environment(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view current(*entry);
    const std::string_view name = current.substr(0, current.find('='));
    const bool overridden = std::any_of(extra.begin(), extra.end(), [&](const std::string& e) {
      return std::string_view(e).substr(0, e.find('=')) == name;
    });
    if (!overridden) env.emplace_back(current);
  }
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

ProcessResult run_program(const std::vector<std::string>& argv, const std::string& stdin_text,
                          const std::vector<std::string>& extra_env,
                          std::chrono::milliseconds timeout) {
  if (argv.empty()) throw std::invalid_argument("run_program: argv vazio");
  // Escrever num pipe cujo leitor já saiu mataria o teste com SIGPIPE; com
  // o sinal ignorado, write devolve EPIPE e seguimos.
  static std::once_flag ignore_sigpipe;
  std::call_once(ignore_sigpipe, [] { std::signal(SIGPIPE, SIG_IGN); });

  std::vector<std::string> args = argv;
  std::vector<std::string> env = child_environment(extra_env);
  std::vector<char*> arg_ptrs = pointers(args);
  std::vector<char*> env_ptrs = pointers(env);

  Fd in_read, in_write, out_read, out_write, err_read, err_write;
  make_pipe(&in_read, &in_write);
  make_pipe(&out_read, &out_write);
  make_pipe(&err_read, &err_write);

  const pid_t pid = fork();
  if (pid < 0) {
    throw std::runtime_error(std::string("run_program: fork falhou: ") + std::strerror(errno));
  }
  if (pid == 0) {
    dup2(in_read.fd, STDIN_FILENO);
    dup2(out_write.fd, STDOUT_FILENO);
    dup2(err_write.fd, STDERR_FILENO);
#if defined(__linux__) && defined(SYS_close_range)
    syscall(SYS_close_range, 3U, ~0U, 0U);
#endif
    signal(SIGPIPE, SIG_DFL);
    execve(arg_ptrs[0], arg_ptrs.data(), env_ptrs.data());
    constexpr char message[] = "run_program: execve falhou\n";
    (void)!write(STDERR_FILENO, message, sizeof message - 1);
    _exit(127);
  }
  in_read.reset();
  out_write.reset();
  err_write.reset();
  fcntl(in_write.fd, F_SETFL, fcntl(in_write.fd, F_GETFL) | O_NONBLOCK);
  if (stdin_text.empty()) in_write.reset();

  ProcessResult result;
  std::size_t written = 0;
  const auto deadline = Clock::now() + timeout;
  bool timed_out = false;
  char buffer[16384];
  // Lê stdout e stderr e escreve stdin ao mesmo tempo: um filho que enche um
  // pipe enquanto esperamos o outro travaria os dois.
  while (out_read.fd >= 0 || err_read.fd >= 0) {
    pollfd fds[3];
    int count = 0;
    Fd* owners[3];
    std::string* sinks[3] = {nullptr, nullptr, nullptr};
    if (out_read.fd >= 0) {
      fds[count] = {out_read.fd, POLLIN, 0};
      sinks[count] = &result.out;
      owners[count++] = &out_read;
    }
    if (err_read.fd >= 0) {
      fds[count] = {err_read.fd, POLLIN, 0};
      sinks[count] = &result.err;
      owners[count++] = &err_read;
    }
    if (in_write.fd >= 0) {
      fds[count] = {in_write.fd, POLLOUT, 0};
      owners[count++] = &in_write;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    const int ready = poll(fds, static_cast<nfds_t>(count), static_cast<int>(left));
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < count && ready > 0; ++i) {
      if (fds[i].revents == 0) continue;
      if (sinks[i] != nullptr) {
        const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
        if (n > 0) {
          sinks[i]->append(buffer, static_cast<std::size_t>(n));
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
          owners[i]->reset();
        }
      } else {
        const ssize_t n =
            write(fds[i].fd, stdin_text.data() + written, stdin_text.size() - written);
        if (n > 0) written += static_cast<std::size_t>(n);
        if ((n < 0 && errno != EINTR && errno != EAGAIN) || written == stdin_text.size()) {
          owners[i]->reset();  // fim da entrada (ou o filho fechou a dele)
        }
      }
    }
  }
  in_write.reset();
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.exit_code = 128 + WTERMSIG(status);
  }
  if (timed_out) {
    result.err += "\n[run_program: tempo esgotado após " + std::to_string(timeout.count()) +
                  " ms; processo morto]\n";
  }
  return result;
}

std::filesystem::path bin_path(std::string_view name) {
  return std::filesystem::path(HZ_BIN_DIR) / std::string(name);
}

std::filesystem::path source_path(std::string_view relative) {
  return std::filesystem::path(HZ_SOURCE_DIR) / std::string(relative);
}

std::string signal_script(const std::string& command, const std::string& signal,
                          const std::string& ready, int times) {
  std::string script = command + " & pid=$!\n";
  script += "i=0; until " + ready + " || ! kill -0 $pid 2>/dev/null; do ";
  script += "sleep 0.02; i=$((i+1)); [ $i -gt 500 ] && break; done\n";
  for (int i = 0; i < times; ++i) script += "kill -" + signal + " $pid\n";
  return script + "wait $pid; code=$?\n";
}

std::string child_state_script(const std::filesystem::path& pid_file) {
  const std::string pid = "\"$(cat '" + pid_file.string() + "')\"";
  // O SIGKILL que o harness manda ao grupo já foi, mas o kernel o entrega
  // quando o filho volta a rodar: com a máquina ocupada (o TSan, dois núcleos),
  // o filho ainda aparece vivo logo depois. Pergunta a cada 20 ms, por até 2 s;
  // um filho que ninguém matou vive os 30 s do sleep e continua "vivo" (com
  // os stubs, é o que acontece: mais que 2 s de espera atrasaria cada teste).
  const std::string state = "state=$(cut -d' ' -f3 /proc/" + pid + "/stat 2>/dev/null)";
  return "tries=0\n" + state + "\n" +
         "while [ -n \"$state\" ] && [ \"$state\" != Z ] && [ $tries -lt 100 ]; do\n" +
         "  sleep 0.02; tries=$((tries + 1)); " + state + "\ndone\n" +
         "case \"$state\" in ''|Z) echo 'filho: encerrado' ;; *) echo 'filho: vivo'; kill -9 " +
         pid + " ;; esac\n";
}

}  // namespace hz::testing
