#include "hz/course/lines.hpp"

#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

namespace hz::course {

std::vector<std::string> split_keep_eol(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t nl = text.find('\n', start);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.emplace_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

std::string_view body(std::string_view line) {
  if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::string_view eol(std::string_view line) { return line.substr(body(line).size()); }

std::string_view leading_ws(std::string_view line) {
  const std::size_t n = line.find_first_not_of(" \t");
  return n == std::string_view::npos ? line : line.substr(0, n);
}

std::string display_path(const std::filesystem::path& root, const std::filesystem::path& p) {
  return p.lexically_relative(root).generic_string();
}

std::optional<std::string> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(buffer).str();
}

bool write_file(const std::filesystem::path& p, std::string_view content) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  if (!out) return false;
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  return static_cast<bool>(out);
}

int ProseParagraph::line_at(std::size_t pos) const {
  int line = first_line();
  for (const auto& [offset, number] : starts) {
    if (offset > pos) break;
    line = number;
  }
  return line;
}

std::vector<ProseParagraph> prose_paragraphs(std::string_view markdown) {
  std::vector<ProseParagraph> out;
  ProseParagraph current;
  bool fenced = false;
  int number = 0;
  const auto flush = [&] {
    if (!current.text.empty()) out.push_back(std::move(current));
    current = ProseParagraph{};
  };
  for (const std::string& raw : split_keep_eol(markdown)) {
    ++number;
    std::string_view text = body(raw);
    const std::size_t first = text.find_first_not_of(" \t>");
    text = first == std::string_view::npos ? std::string_view() : trim(text.substr(first));
    if (text.substr(0, 3) == "```") {
      flush();
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    if (text.empty()) {
      flush();
      continue;
    }
    if (!current.text.empty()) current.text += ' ';
    current.starts.emplace_back(current.text.size(), number);
    current.text += text;
  }
  flush();
  return out;
}

std::string shell_quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::optional<std::string> command_output(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string text;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) text.append(buffer.data(), n);
  if (pclose(pipe) != 0) return std::nullopt;
  return text;
}

}  // namespace hz::course
