#pragma once

// As notas por etapa num CSV, para a planilha do professor (./hz grade --csv).
//
// Uma linha por correção: aluno,etapa,passando,total,nota. A nota vai de 0 a
// 10, com uma casa decimal e ponto ("7.5"), proporcional aos testes passando;
// 0 testes (o código não compilou) dá 0.0. O arquivo ganha o cabeçalho na
// primeira linha quando é criado (ou está vazio); depois, só linhas novas no
// fim, e várias correções podem escrever no mesmo arquivo.

#include <filesystem>
#include <string>
#include <string_view>

#include "hz/course/junit.hpp"

namespace hz::course {

inline constexpr const char* kGradesHeader = "aluno,etapa,passando,total,nota";

// Um campo de CSV (RFC 4180): entre aspas, com as aspas dobradas, quando tem
// vírgula, aspas ou quebra de linha.
std::string csv_field(std::string_view text);

// "10 * passando / total", com uma casa ("7.5"); "0.0" sem testes.
std::string grade_of(const Score& s);

// A linha (sem o \n) de uma correção.
std::string grades_line(std::string_view student, std::string_view stage, const Score& s);

// Acrescenta a linha ao arquivo (com o cabeçalho antes, se ele é novo ou
// vazio). false se não deu para escrever.
bool append_grade(const std::filesystem::path& file, const std::string& line);

}  // namespace hz::course
