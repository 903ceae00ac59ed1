// Rodar um executável do projeto e capturar o que ele fez.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace hz::testing {

struct ProcessResult {
  int exit_code = -1;  // 128 + sinal se foi morto por um sinal
  std::string out;     // stdout inteiro
  std::string err;     // stderr inteiro
};

// Roda argv[0] (um caminho, sem busca no PATH e sem shell) com argv como
// argumentos, stdin_text na entrada padrão e o ambiente atual mais extra_env
// ("NOME=valor", substitui se já existir). Lê stdout e stderr ao mesmo tempo.
// Passado o timeout, mata o processo (SIGKILL): exit_code 137 e uma linha
// "[run_program: tempo esgotado ...]" no fim de err. Lança std::runtime_error
// só se não conseguir criar os pipes ou o processo.
ProcessResult run_program(const std::vector<std::string>& argv, const std::string& stdin_text = "",
                          const std::vector<std::string>& extra_env = {},
                          std::chrono::milliseconds timeout = std::chrono::seconds(60));

// Para os testes de sinais de verdade, trechos de /bin/sh:
//
// signal_script: roda `command` (com os redirecionamentos que quiser) em
// segundo plano, espera a condição de shell `ready` (a cada 20 ms, por no
// máximo 10 s, ou até o processo sair sozinho: um stub), manda SIG`signal`
// (INT, TERM, HUP) `times` vezes seguidas e espera o processo. O código de
// saída dele fica na variável $code; quem chama decide o que imprimir.
std::string signal_script(const std::string& command, const std::string& signal,
                          const std::string& ready, int times = 1);

// child_state_script: imprime "filho: encerrado" se o processo cujo pid está
// em pid_file já não vive (um zumbi, estado Z em /proc, já morreu: só espera
// quem o colha, e o kill -0 ainda o acharia), ou "filho: vivo", e o mata. Um
// SIGKILL já mandado leva um instante para valer: espera por até 2 s.
std::string child_state_script(const std::filesystem::path& pid_file);

// Se a saída de um processo traz o trecho: as conferências de mensagem sem
// fixar a saída inteira. Vale como bool (sem explicit: `bool ok =
// contains(...)` também serve); guarda o texto e o trecho para que um
// CHECK(contains(...)) que falha mostre os dois, e não só "false". Definidos
// em printing.cpp, ao lado de quoted(), que os imprime.
struct TextSearch {
  std::string text;
  std::string piece;
  bool found = false;
  operator bool() const { return found; }  // NOLINT(google-explicit-constructor)
};
TextSearch contains(std::string_view text, std::string_view piece);
// Quantas vezes o trecho aparece no texto, sem sobreposição ("aa" em
// "aaaa": 2; um trecho vazio: 0). Para uma mensagem que deve sair uma vez só,
// ou nenhuma.
std::size_t occurrences(std::string_view text, std::string_view piece);
// "\"trecho\" não aparece em \"texto\"" (ou "aparece em", para um CHECK_FALSE),
// com o texto entre aspas e escapado; um texto longo sai cortado no meio.
std::ostream& operator<<(std::ostream& out, const TextSearch& search);

// build/bin/<name>: onde o CMake põe os executáveis (HZ_BIN_DIR).
std::filesystem::path bin_path(std::string_view name);

// <raiz do repositório>/<relative> (HZ_SOURCE_DIR).
std::filesystem::path source_path(std::string_view relative);

}  // namespace hz::testing
