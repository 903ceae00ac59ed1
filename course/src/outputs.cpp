#include "hz/course/outputs.hpp"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <system_error>

#include "hz/course/lines.hpp"
#include "hz/course/listings.hpp"

namespace fs = std::filesystem;

namespace hz::course {
namespace {

// Roda o comando e devolve o stdout (o stderr vai junto só se o comando pedir).
// O TMPDIR do comando fica dentro de out_dir: o que ele deixar em pastas
// temporárias (a cópia do workspace que um journal guarda) sai junto com ela.
std::string capture(const fs::path& root, const std::string& command, const fs::path& out_dir) {
  std::error_code ec;
  fs::create_directory(out_dir / "tmp", ec);
  const std::string line = "cd " + shell_quote(root.string()) +
                           " && NO_COLOR=1 HZ_OUT=" + shell_quote(out_dir.string()) +
                           " TMPDIR=" + shell_quote((out_dir / "tmp").string()) +
                           " timeout 120 /bin/sh -c " + shell_quote(command) +
                           " </dev/null 2>/dev/null";
  // O código de saída não importa: a saída capturada é o que o livro mostra.
  return command_output(line + "; true").value_or("");
}

fs::path fresh_dir() {
  std::string pattern = (fs::temp_directory_path() / "hz-saida-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw fs::filesystem_error("mkdtemp", std::error_code());
  return pattern;
}

std::size_t fence_ticks(std::string_view line) {
  const std::string_view t = trim(line);
  std::size_t n = 0;
  while (n < t.size() && t[n] == '`') ++n;
  return n >= 3 ? n : 0;
}

// Os comandos ("$ ...") de um bloco ```console que termina logo antes da
// linha `marker` (só linhas em branco no meio); vazio se não há um.
std::vector<std::string> console_above(const std::vector<std::string>& lines, std::size_t marker) {
  std::size_t k = marker;
  while (k > 0 && trim(body(lines[k - 1])).empty()) --k;
  if (k == 0 || trim(body(lines[k - 1])) != "```") return {};
  const std::size_t close = k - 1;
  std::size_t open = close;
  while (open > 0 && fence_ticks(body(lines[open - 1])) == 0) --open;
  if (open == 0 || trim(body(lines[open - 1])) != "```console") return {};
  std::vector<std::string> commands;
  for (std::size_t q = open; q < close; ++q) {
    const std::string_view line = body(lines[q]);
    if (line.substr(0, 2) == "$ ") commands.emplace_back(line.substr(2));
  }
  return commands;
}

std::string resolve_console(const std::string& command, const std::vector<std::string>& lines,
                            std::size_t marker, std::string& error) {
  // O ^ é uma palavra: no começo ou depois de um espaço, e antes de um espaço ou do fim.
  std::size_t at = 0;
  for (; at < command.size(); ++at) {
    if (command[at] == '^' && (at == 0 || command[at - 1] == ' ') &&
        (at + 1 == command.size() || command[at + 1] == ' ')) {
      break;
    }
  }
  if (at == command.size()) return command;
  const std::vector<std::string> commands = console_above(lines, marker);
  if (commands.empty()) {
    error = "o ^ quer dizer os comandos do bloco ```console logo acima, e não há um";
    return {};
  }
  std::string group = "{ ";
  for (const std::string& c : commands) group += c + "\n";
  return command.substr(0, at) + group + "}" + command.substr(at + 1);
}

}  // namespace

std::string normalize_output(std::string text, const std::string& out_dir) {
  if (!out_dir.empty()) {
    // O TMPDIR do comando (capture) aparece como o /tmp de sempre.
    const std::string tmp = out_dir + "/tmp/";
    for (std::size_t at = text.find(tmp); at != std::string::npos; at = text.find(tmp, at)) {
      text.replace(at, tmp.size(), "/tmp/");
    }
    for (std::size_t at = text.find(out_dir); at != std::string::npos;
         at = text.find(out_dir, at)) {
      text.replace(at, out_dir.size(), "$HZ_OUT");
    }
  }
  static const std::regex kPort(R"(127\.0\.0\.1:[0-9]+)");
  static const std::regex kTemp(R"((/[^\s'"]*)?/hz-([a-z-]+)-[A-Za-z0-9]{6}\b)");
  text = std::regex_replace(text, kPort, "127.0.0.1:...");
  text = std::regex_replace(text, kTemp, "/tmp/hz-$2-...");
  // A hora e as durações do trace JSONL mudam a cada execução.
  static const std::regex kTime(R"re("time":"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z")re");
  static const std::regex kDuration(R"re("duration_ms":[0-9.eE+-]+)re");
  text = std::regex_replace(text, kTime, R"("time":"...")");
  text = std::regex_replace(text, kDuration, R"("duration_ms":...)");
  return text;
}

bool select_lines(const std::vector<std::string>& lines, const std::string& spec,
                  std::vector<std::string>& selected, std::string& error) {
  selected.clear();
  const long n = static_cast<long>(lines.size());
  std::size_t start = 0;
  while (start <= spec.size()) {
    std::size_t comma = spec.find(',', start);
    if (comma == std::string::npos) comma = spec.size();
    const std::string item(trim(std::string_view(spec).substr(start, comma - start)));
    start = comma + 1;
    if (item == "...") {
      selected.emplace_back("...");
      continue;
    }
    // -K não tem fim de intervalo; nove dígitos bastam e cabem num long.
    static const std::regex kRange(R"((-[0-9]{1,9})|([0-9]{1,9})(?:-([0-9]{1,9}))?)");
    std::smatch m;
    if (!std::regex_match(item, m, kRange)) {
      error = "lines=: item inválido '" + item + "' (use N, N-M, -K ou ...)";
      return false;
    }
    long first = std::stol(m[1].matched ? m[1].str() : m[2].str());
    long last = m[3].matched ? std::stol(m[3].str()) : first;
    if (first < 0) first = last = n + first + 1;
    if (first < 1 || last > n || first > last) {
      error = "lines=: '" + item + "' fora das " + std::to_string(n) + " linhas da saída";
      return false;
    }
    for (long i = first; i <= last; ++i) selected.push_back(lines[static_cast<std::size_t>(i - 1)]);
  }
  return true;
}

std::string with_bin(const std::string& command, const std::string& bin) {
  if (bin.empty()) return command;
  std::string out;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const bool word_start =
        i == 0 || std::string_view(" \t\n;|&(`\"'").find(command[i - 1]) != std::string_view::npos;
    if (word_start && command.compare(i, 4, "bin/") == 0) {
      out += bin + "/";
      i += 3;
      continue;
    }
    out += command[i];
  }
  return out;
}

OutputReport check_outputs(const fs::path& root, bool update, const std::string& only,
                           const std::string& bin) {
  OutputReport report;
  std::vector<fs::path> chapters;
  for (const fs::path& doc : checked_documents(root)) {
    if (only.empty() || doc.filename() == only || display_path(root, doc) == only) {
      chapters.push_back(doc);
    }
  }
  static const std::regex kMarker(R"(<!--\s*output(?:\s+lines=(\S+))?:\s*(.*?)\s*-->)");
  const auto visit = [&](const MarkedBlock& block) -> std::optional<BlockEdit> {
    ++report.checked;
    const std::string where = block.where();
    if (block.shape != MarkedBlock::Shape::ok) {
      report.problems.push_back(where +
                                (block.shape == MarkedBlock::Shape::no_block
                                     ? ": a saída precisa de um bloco cercado (```) logo abaixo"
                                     : ": bloco da saída sem cerca de fechamento"));
      return std::nullopt;
    }
    std::string error;  // sem comando para rodar, o bloco fica como está
    const std::string command =
        resolve_console(block.marker.str(2), block.lines, block.line - 1, error);
    if (!error.empty()) {
      report.problems.push_back(where + ": " + error);
      return std::nullopt;
    }
    const fs::path out_dir = fresh_dir();
    const std::string captured =
        normalize_output(capture(root, with_bin(command, bin), out_dir), out_dir.string());
    std::error_code ec;
    fs::remove_all(out_dir, ec);
    std::vector<std::string> produced;
    for (const std::string& l : split_keep_eol(captured)) produced.emplace_back(body(l));
    std::vector<std::string> expected = produced;
    if (block.marker[1].matched && !select_lines(produced, block.marker.str(1), expected, error)) {
      report.problems.push_back(where + ": " + error);
      return std::nullopt;
    }
    if (expected == block.body) return std::nullopt;
    if (update) {
      ++report.updated;
      return BlockEdit{std::nullopt, expected};
    }
    report.problems.push_back(where + ": a saída de `" + command + "` mudou");
    report.problems.push_back("--- saída de agora");
    report.problems.push_back("+++ " + block.doc + ":" + std::to_string(block.line + 2) +
                              " (documento)");
    for (std::string& d : unified_diff(expected, block.body))
      report.problems.push_back(std::move(d));
    return std::nullopt;
  };
  edit_marked_blocks(root, chapters, kMarker, visit, report.files_updated, report.problems);
  return report;
}

}  // namespace hz::course
