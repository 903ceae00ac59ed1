// hz-mock: serve um cenário roteirizado como um endpoint OpenAI-compatível.
//
// A primeira linha do stdout é a URL base (http://127.0.0.1:PORTA/v1), para
// scripts lerem e passarem adiante. Serve até SIGINT/SIGTERM; então lista no
// stderr as falhas registradas (expectativas, pedidos além do roteiro).
//
// Códigos de saída: 0 sem falhas; 1 com falhas registradas ou sem conseguir
// abrir a porta; 2 erro de uso ou cenário inválido.
#include <pthread.h>
#include <signal.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>

#include "hz/cli.hpp"
#include "hz/mock/embedded.hpp"
#include "hz/mock/mock_server.hpp"
#include "hz/mock/scenario.hpp"
#include "hz/text.hpp"
#include "hz/version.hpp"

namespace {

// "1 pedido", "2 pedidos".
std::string count(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

constexpr const char* kUsage =
    "uso: hz-mock --scenario NOME|ARQUIVO [--port N] [--host ENDEREÇO]\n"
    "\n"
    "Serve um modelo roteirizado compatível com a API Chat Completions da OpenAI.\n"
    "Imprime a URL base na primeira linha e responde até receber Ctrl-C (SIGINT)\n"
    "ou SIGTERM; ao sair, lista no stderr as falhas do roteiro.\n"
    "\n"
    "  --scenario NOME|ARQUIVO  cenário embutido (ex.: monday, wednesday,\n"
    "                           examples/streaming) ou caminho de um arquivo .json\n"
    "  --port N                 porta (padrão 0: uma porta livre qualquer)\n"
    "  --host ENDEREÇO          endereço (padrão 127.0.0.1)\n"
    "  --help                   mostra esta ajuda\n"
    "  --version                mostra a versão\n"
    "\n"
    "Saída: 0 sem falhas, 1 com falhas registradas, 2 erro de uso ou cenário inválido.\n"
    "Formato dos cenários: mock-server/README.md\n";

struct Options {
  std::string scenario;
  std::string host = "127.0.0.1";
  int port = 0;
  bool help = false;
  bool version = false;
};

int usage_error(const std::string& message) {
  std::cerr << "hz-mock: " << hz::printable_line(message) << "\n(use --help para ver as opções)\n";
  return 2;
}

// Lê argv com o FlagParser de todo executável do curso, nas palavras do
// hz-mock. Devolve 0 ou o código de saída.
int parse_options(int argc, char** argv, Options* options) {
  hz::FlagParser parser("hz-mock", "");
  parser.add_string("scenario", &options->scenario, "");
  parser.add_int("port", &options->port, "");
  parser.add_string("host", &options->host, "");
  const auto parsed = parser.parse(argc, argv);
  const auto bad_port = [](const std::string& value) {
    return usage_error("--port espera um número de 0 a 65535, veio \"" + value + "\"");
  };
  if (!parsed) {
    const hz::FlagError& error = parsed.error();
    switch (error.kind) {
      case hz::FlagError::Kind::unexpected_argument:
        return usage_error("opção desconhecida: " + error.value);
      case hz::FlagError::Kind::unknown_flag:
        return usage_error("opção desconhecida: --" + error.flag);
      case hz::FlagError::Kind::missing_value:
        return usage_error("--" + error.flag + " precisa de um valor");
      case hz::FlagError::Kind::bad_value:
        if (error.flag == "port") return bad_port(error.value);
        break;
      case hz::FlagError::Kind::value_not_allowed:
        break;
    }
    return usage_error(error.message);
  }
  options->help = *parsed && !parser.version_requested();
  options->version = *parsed && parser.version_requested();
  if (options->port < 0 || options->port > 65535) return bad_port(std::to_string(options->port));
  if (parser.seen("host") && options->host.empty()) {
    return usage_error("--host espera um endereço (ex.: 127.0.0.1), veio vazio");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (int code = parse_options(argc, argv, &options); code != 0) return code;
  if (options.help) {
    std::cout << kUsage;
    return 0;
  }
  if (options.version) {
    std::cout << hz::version_line("hz-mock");
    return 0;
  }
  if (options.scenario.empty()) return usage_error("falta --scenario NOME|ARQUIVO");

  auto path = hz::mock::find_scenario(options.scenario);
  if (!path) {
    std::cerr << "hz-mock: " << hz::printable_line(path.error().message) << "\n";
    return 2;
  }
  auto scenario = hz::mock::load_scenario(*path);
  if (!scenario) {
    std::cerr << "hz-mock: " << hz::printable_line(scenario.error().message) << "\n";
    return 2;
  }

  // Os sinais são bloqueados antes de criar threads (elas herdam a máscara)
  // e atendidos por sigwait aqui: nada roda dentro de um tratador de sinal.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  const std::size_t steps = scenario->steps.size();
  const std::string name = scenario->name;
  hz::mock::MockServer server(std::move(*scenario));
  auto port = server.start(options.host, options.port);
  if (!port) {
    std::cerr << "hz-mock: " << hz::printable_line(port.error().message) << "\n";
    return 1;
  }
  std::cout << server.base_url() << std::endl;  // endl: quem lê espera esta linha já
  std::cerr << "hz-mock: cenário " << hz::printable_line(name) << " ("
            << count(steps, "passo", "passos") << ") em " << hz::printable_line(server.base_url())
            << "; Ctrl-C para parar\n";

  int received = 0;
  sigwait(&signals, &received);
  server.stop();

  const auto failures = server.failures();
  std::cerr << "hz-mock: parado (" << (received == SIGINT ? "SIGINT" : "SIGTERM") << "), "
            << count(server.requests().size(), "pedido", "pedidos") << ", "
            << count(failures.size(), "falha", "falhas") << "\n";
  for (const auto& failure : failures) {
    std::cerr << "hz-mock: falha: " << hz::printable_line(failure) << "\n";
  }
  return failures.empty() ? 0 : 1;
}
