// O executável hz-mock: URL na primeira linha, sinais, falhas e códigos de saída.
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "support.hpp"

extern char** environ;

namespace hz::mock {
namespace {

using nlohmann::json;

// Um hz-mock rodando, com stdout e stderr em pipes.
class Process {
 public:
  explicit Process(std::vector<std::string> args) {
    args.insert(args.begin(), HZ_MOCK_BIN);
    REQUIRE(pipe(out_) == 0);
    REQUIRE(pipe(err_) == 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out_[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err_[1], 2);
    posix_spawn_file_actions_addclose(&actions, out_[0]);
    posix_spawn_file_actions_addclose(&actions, err_[0]);
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    REQUIRE(posix_spawn(&pid_, HZ_MOCK_BIN, &actions, nullptr, argv.data(), environ) == 0);
    posix_spawn_file_actions_destroy(&actions);
    close(out_[1]);
    close(err_[1]);
  }
  ~Process() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    close(out_[0]);
    close(err_[0]);
  }
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  // A primeira linha do stdout (teto de 5 s para um teste quebrado não travar).
  std::string first_line() {
    std::string line;
    char c = 0;
    while (line.empty() || line.back() != '\n') {
      pollfd fd{out_[0], POLLIN, 0};
      REQUIRE(poll(&fd, 1, 5000) == 1);
      if (read(out_[0], &c, 1) != 1) break;
      line += c;
    }
    if (!line.empty() && line.back() == '\n') line.pop_back();
    return line;
  }

  // Manda o sinal (0: nenhum), espera sair e devolve o código de saída.
  int finish(int signal_number) {
    if (signal_number != 0) kill(pid_, signal_number);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  std::string all_stderr() { return drain(err_[0]); }

  // O stderr inteiro, se o processo fechá-lo (sair) em até timeout_ms; senão
  // nullopt, e o destrutor mata o processo: um erro que não sai não trava o teste.
  std::optional<std::string> stderr_if_exits(int timeout_ms) {
    std::string text;
    char buffer[1024];
    while (true) {
      pollfd fd{err_[0], POLLIN, 0};
      if (poll(&fd, 1, timeout_ms) != 1) return std::nullopt;
      const ssize_t n = read(err_[0], buffer, sizeof buffer);
      if (n <= 0) return text;
      text.append(buffer, static_cast<std::size_t>(n));
    }
  }
  std::string all_stdout() { return drain(out_[0]); }

 private:
  static std::string drain(int fd) {
    std::string text;
    char buffer[1024];
    ssize_t n = 0;
    while ((n = read(fd, buffer, sizeof buffer)) > 0)
      text.append(buffer, static_cast<std::size_t>(n));
    return text;
  }

  pid_t pid_ = -1;
  int out_[2] = {-1, -1};
  int err_[2] = {-1, -1};
};

int port_of(const std::string& url) {
  const std::string prefix = "http://127.0.0.1:";
  REQUIRE(url.rfind(prefix, 0) == 0);
  REQUIRE(url.size() > prefix.size() + 3);
  CHECK(url.substr(url.size() - 3) == "/v1");
  return std::stoi(url.substr(prefix.size()));
}

TEST_CASE("hz-mock imprime a URL base e sai com 0 no SIGTERM") {
  Process mock({"--scenario", "examples/text"});
  const int port = port_of(mock.first_line());
  httplib::Client client("127.0.0.1", port);
  auto res = client.Post("/v1/chat/completions", test::user_only().dump(), "application/json");
  REQUIRE(res);
  CHECK(json::parse(res->body)["choices"][0]["message"]["content"] == "Oi! Sou o hz-mock.");
  CHECK(mock.finish(SIGTERM) == 0);
  CHECK(mock.all_stderr().find("hz-mock: parado (SIGTERM), 1 pedido, 0 falhas") !=
        std::string::npos);
}

TEST_CASE("hz-mock lista as falhas no stderr e sai com 1 no SIGINT") {
  Process mock({"--scenario=examples/text", "--host", "127.0.0.1"});
  const int port = port_of(mock.first_line());
  httplib::Client client("127.0.0.1", port);
  for (int i = 0; i < 2; ++i) {
    client.Post("/v1/chat/completions", test::user_only().dump(), "application/json");
  }
  CHECK(mock.finish(SIGINT) == 1);
  CHECK(mock.all_stderr().find("hz-mock: falha: pedido 2: o roteiro \"text\" acabou") !=
        std::string::npos);
}

TEST_CASE("hz-mock com cenário inválido sai com 2 e diz o motivo") {
  Process missing({"--scenario", "sexta"});
  CHECK(missing.finish(0) == 2);
  CHECK(missing.all_stderr().rfind("hz-mock: cenário \"sexta\" não existe em ", 0) == 0);
  CHECK(missing.all_stdout().empty());

  Process no_flag({});
  CHECK(no_flag.finish(0) == 2);
  CHECK(no_flag.all_stderr() ==
        "hz-mock: falta --scenario NOME|ARQUIVO\n(use --help para ver as opções)\n");

  Process bad_port({"--scenario", "monday", "--port", "abc"});
  CHECK(bad_port.finish(0) == 2);
  CHECK(bad_port.all_stderr().find("--port espera um número de 0 a 65535, veio \"abc\"") !=
        std::string::npos);
}

TEST_CASE("hz-mock recusa --host vazio com erro de uso") {
  for (const auto& args : {std::vector<std::string>{"--scenario", "monday", "--host", ""},
                           std::vector<std::string>{"--scenario", "monday", "--host="}}) {
    Process mock(args);
    const auto err = mock.stderr_if_exits(5000);
    REQUIRE(err);
    CHECK(*err ==
          "hz-mock: --host espera um endereço (ex.: 127.0.0.1), veio vazio\n"
          "(use --help para ver as opções)\n");
    CHECK(mock.finish(0) == 2);
    CHECK(mock.all_stdout().empty());
  }
}

// Um cenário num arquivo temporário, apagado no fim do teste.
struct TempScenario {
  explicit TempScenario(const std::string& text) {
    path = std::filesystem::temp_directory_path() /
           ("hz-mock-main-test-" + std::to_string(getpid()) + ".json");
    std::ofstream(path) << text;
  }
  ~TempScenario() { std::filesystem::remove(path); }
  std::filesystem::path path;
};

TEST_CASE("hz-mock escapa bytes de controle do cenário e dos pedidos no terminal") {
  // Nome com ESC (mudaria a cor do terminal) e uma expectativa que mostra o que chegou.
  TempScenario scenario(R"({"name": "cor\u001b[31m", "steps": [{"expect": {"last_contains": "x"},
                                                                "content": "ok"}]})");
  Process mock({"--scenario", scenario.path.string()});
  const int port = port_of(mock.first_line());
  httplib::Client client("127.0.0.1", port);
  json body = test::user_only("titulo\x1b]0;invadido\x07 e\nlinha falsa \xc2\x9b 2J");
  client.Post("/v1/chat/completions", body.dump(), "application/json");
  client.Post("/v1/chat/completions", body.dump(), "application/json");
  CHECK(mock.finish(SIGTERM) == 1);
  const std::string err = mock.all_stderr();
  CHECK(err.find('\x1b') == std::string::npos);
  CHECK(err.find('\x07') == std::string::npos);
  CHECK(err.find("\xc2\x9b") == std::string::npos);
  CHECK(err.find("hz-mock: cenário cor\\x1b[31m (1 passo) em http://127.0.0.1:") == 0);
  // A expectativa já troca \n por espaço no trecho; o resto vira escape visível.
  CHECK(err.find("hz-mock: falha: passo 1 (pedido 1): esperava que a última mensagem contivesse "
                 "\"x\", veio \"titulo\\x1b]0;invadido\\x07 e linha falsa \\u009b 2J\"\n") !=
        std::string::npos);
  CHECK(err.find("hz-mock: falha: pedido 2: o roteiro \"cor\\x1b[31m\" acabou") !=
        std::string::npos);
}

TEST_CASE("hz-mock escapa bytes de controle nos erros do cenário") {
  TempScenario scenario("{\"steps\": [{\"conten\\u001b[2J\": \"x\"}]}");
  Process mock({"--scenario", scenario.path.string()});
  CHECK(mock.finish(0) == 2);
  CHECK(mock.all_stderr() == "hz-mock: " + scenario.path.filename().string() +
                                 ": passo 1: campo \"conten\\x1b[2J\": campo desconhecido\n");
}

TEST_CASE("hz-mock --help mostra o uso em português") {
  Process help({"--help"});
  CHECK(help.finish(0) == 0);
  CHECK(help.all_stdout().rfind("uso: hz-mock --scenario NOME|ARQUIVO", 0) == 0);
}

}  // namespace
}  // namespace hz::mock
