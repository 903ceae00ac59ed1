#include "hz/course/grades_csv.hpp"

#include <fstream>
#include <system_error>

namespace hz::course {

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string grade_of(const Score& s) {
  if (s.total <= 0) return "0.0";
  // Em décimos, arredondado para o mais próximo (meio para cima), sem ponto flutuante.
  const long long tenths = (100LL * s.passed + s.total / 2) / s.total;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10);
}

std::string grades_line(std::string_view student, std::string_view stage, const Score& s) {
  return csv_field(student) + "," + csv_field(stage) + "," + std::to_string(s.passed) + "," +
         std::to_string(s.total) + "," + grade_of(s);
}

bool append_grade(const std::filesystem::path& file, const std::string& line) {
  std::error_code ec;
  const bool fresh =
      !std::filesystem::exists(file, ec) || std::filesystem::file_size(file, ec) == 0;
  std::ofstream out(file, std::ios::binary | std::ios::app);
  if (!out) return false;
  if (fresh) out << kGradesHeader << "\n";
  out << line << "\n";
  return static_cast<bool>(out.flush());
}

}  // namespace hz::course
