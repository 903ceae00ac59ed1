// hz-doctor: confere se um servidor tem o que o curso precisa (./hz doctor).
//
// stdout: uma linha por conferência e o resumo. stderr: erros de uso.
// Código de saída: 0 se todas as conferências obrigatórias passam, 1 se
// alguma falha, 2 para erro de uso.
#include <chrono>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

#include "hz/cli.hpp"
#include "hz/stage/doctor.hpp"
#include "hz/terminal.hpp"

namespace {

int usage_error(const std::string& message) {
  std::cerr << "hz-doctor: " << message << "\nUse hz-doctor --help para ver as opções.\n";
  return 2;
}

std::string from_env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

int run(int argc, char** argv) {
  hz::stage::DoctorConfig config;
  int timeout_seconds = 300;
  hz::FlagParser parser(
      "hz-doctor",
      "Confere se um servidor compatível com OpenAI tem o que o curso precisa (chat, ferramentas,\n"
      "streaming, uso de tokens, janela de contexto) e diz o que mudar. Sai com 0 só se todas as\n"
      "conferências obrigatórias passam.");
  parser.add_string("base-url", &config.base_url,
                    "o servidor, ex.: http://localhost:11434/v1 (padrão: $OPENAI_BASE_URL)", "URL");
  parser.add_string("model", &config.model, "o modelo a conferir, ex.: qwen3:8b", "NOME");
  parser.add_string("api-key", &config.api_key, "chave da API (padrão: $OPENAI_API_KEY)", "CHAVE");
  parser.add_int("timeout", &timeout_seconds,
                 "tempo máximo de cada pedido; a primeira resposta de um modelo grande inclui "
                 "carregá-lo (padrão: 300)",
                 "SEGUNDOS");
  auto help = parser.parse(argc, argv);
  if (!help) return usage_error(help.error().message);
  if (*help) {
    std::cout << parser.answer();
    return 0;
  }
  if (config.base_url.empty()) config.base_url = from_env("OPENAI_BASE_URL");
  if (config.api_key.empty()) config.api_key = from_env("OPENAI_API_KEY");
  if (config.base_url.empty()) {
    return usage_error("falta --base-url (ex.: --base-url http://localhost:11434/v1)");
  }
  if (config.model.empty()) return usage_error("falta --model (ex.: --model qwen3:8b)");
  if (timeout_seconds < 1) return usage_error("--timeout precisa ser pelo menos 1");
  config.http.timeout = std::chrono::seconds(timeout_seconds);
  config.http.idle_timeout = std::chrono::seconds(timeout_seconds);
  config.color = hz::wants_color(1);
  return hz::stage::doctor_exit_code(hz::stage::run_doctor(config, std::cout));
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "hz-doctor: erro: " << error.what() << "\n";
    return 1;
  }
}
