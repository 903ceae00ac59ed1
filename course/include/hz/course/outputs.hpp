#pragma once

// As saídas capturadas do livro: traces, contagens e totais de tokens que o
// mock torna determinísticos. Cada uma é regenerada dos executáveis de verdade
// e conferida, como as listagens.
//
// No livro, um comentário HTML logo antes de um bloco cercado:
//   <!-- output: build/bin/hz-01-loop --scenario wednesday --max-turns 5 2>&1 >/dev/null -->
//   <!-- output lines=1-4,...,-1: build/bin/hz-01-loop --trace "$HZ_OUT/t.jsonl" >/dev/null 2>&1;
//   cat "$HZ_OUT/t.jsonl" -->
// O comando roda com /bin/sh na raiz do repositório, com NO_COLOR=1, a entrada
// vazia e HZ_OUT numa pasta temporária nova; o bloco é o stdout dele, depois
// de trocar o que muda a cada execução (porta do mock, pastas temporárias)
// por "...". lines= escolhe linhas: N, N-M, -K (a K-ésima do fim) e "..."
// (uma linha "..." literal). Medidas de tempo não entram em blocos conferidos.
// Um ^ solto no comando (uma palavra) são os comandos ("$ ...") do bloco
// ```console logo acima, como o leitor os digita; o que vem antes prepara, e o
// que vem depois filtra:
//   ```console
//   $ bin/hz-02-brakes --scenario brakes/flaky
//   ```
//   <!-- output: ^ 2>&1 >/dev/null | tail -n +5 -->

#include <filesystem>
#include <string>
#include <vector>

namespace hz::course {

// O que muda a cada execução vira "...": a porta em 127.0.0.1:PORTA, as
// pastas temporárias hz-<nome>-XXXXXX e a pasta HZ_OUT.
std::string normalize_output(std::string text, const std::string& out_dir);

// Aplica lines= ao texto (linhas sem terminador). Erro: spec inválida.
bool select_lines(const std::vector<std::string>& lines, const std::string& spec,
                  std::vector<std::string>& selected, std::string& error);

struct OutputReport {
  int checked = 0;
  int updated = 0;
  std::vector<std::string> files_updated;
  std::vector<std::string> problems;
};

// Confere (ou, com update, reescreve) os blocos <!-- output: ... --> de
// root/livro/*.md. `only` (se não vazio) limita aos arquivos com esse nome.
// `bin` (se não vazio): a pasta dos executáveis que um "bin/" no começo de uma
// palavra do comando quer dizer (o link bin/ da raiz segue a trilha ativa, e
// quem confere escolhe o build).
OutputReport check_outputs(const std::filesystem::path& root, bool update,
                           const std::string& only = "", const std::string& bin = "");

// O comando com cada "bin/" no começo de uma palavra trocado por "BIN/".
std::string with_bin(const std::string& command, const std::string& bin);

}  // namespace hz::course
