#pragma once

// Texto como lista de linhas que preserva cada byte: o gerador de exercícios
// promete que, fora das regiões marcadas, a saída é idêntica à entrada.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
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

// Caminho com '/' relativo a `root` (para mensagens e comparação).
std::string display_path(const std::filesystem::path& root, const std::filesystem::path& p);

// Lê o arquivo inteiro em binário; nullopt se não der para abrir.
std::optional<std::string> read_file(const std::filesystem::path& p);

// Escreve o arquivo inteiro em binário; false se falhar.
bool write_file(const std::filesystem::path& p, std::string_view content);

}  // namespace hz::course
