#pragma once

// Texto como lista de linhas que preserva cada byte: o gerador de exercícios
// promete que, fora das regiões marcadas, a saída é idêntica à entrada.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hz/text.hpp"  // hz::trim, que os leitores do curso usam em toda linha

namespace hz::course {

// Divide `text` em linhas que mantêm o próprio terminador ("\n" ou "\r\n");
// a última pode não ter terminador. Juntar o resultado devolve `text`.
std::vector<std::string> split_keep_eol(std::string_view text);

// A linha sem o terminador ("\n", "\r\n").
std::string_view body(std::string_view line);

// O terminador da linha ("", "\n" ou "\r\n").
std::string_view eol(std::string_view line);

// Espaços e tabulações iniciais.
std::string_view leading_ws(std::string_view line);

// Um parágrafo de Markdown fora dos blocos cercados (```), numa linha só: as
// linhas juntadas por um espaço, sem o recuo nem o ">" de citação do começo.
// Quem confere o livro (os "N testes", as mensagens citadas) lê parágrafos,
// porque uma frase quebra de linha em qualquer lugar.
struct ProseParagraph {
  std::string text;
  std::vector<std::pair<std::size_t, int>> starts;  // (onde em text começa, linha do arquivo)

  int first_line() const { return starts.empty() ? 0 : starts.front().second; }
  // A linha do arquivo de text[pos].
  int line_at(std::size_t pos) const;
};

// Os parágrafos do texto, na ordem; o que está entre ``` fica de fora (as
// listagens e as saídas têm conferência própria).
std::vector<ProseParagraph> prose_paragraphs(std::string_view markdown);

// Caminho com '/' relativo a `root` (para mensagens e comparação).
std::string display_path(const std::filesystem::path& root, const std::filesystem::path& p);

// Lê o arquivo inteiro em binário; nullopt se não der para abrir.
std::optional<std::string> read_file(const std::filesystem::path& p);

// Escreve o arquivo inteiro em binário; false se falhar.
bool write_file(const std::filesystem::path& p, std::string_view content);

// `s` entre aspas simples para o /bin/sh, que o lê como uma palavra só.
std::string shell_quote(std::string_view s);

// O stdout de `command`, rodado pelo /bin/sh; nullopt se ele não rodou ou
// saiu com código diferente de 0.
std::optional<std::string> command_output(const std::string& command);

}  // namespace hz::course
