#include "hz/course/listings.hpp"

#include <algorithm>
#include <regex>
#include <system_error>

#include "hz/course/lines.hpp"
#include "hz/course/markers.hpp"

namespace fs = std::filesystem;

namespace hz::course {
namespace {

std::vector<std::string> bodies(std::string_view text) {
  std::vector<std::string> out;
  for (const std::string& line : split_keep_eol(text)) out.emplace_back(body(line));
  return out;
}

bool blank(std::string_view s) { return s.find_first_not_of(" \t") == std::string_view::npos; }

// Remove a indentação comum às linhas não vazias; linhas só de espaço ficam vazias.
std::vector<std::string> dedent(std::vector<std::string> lines) {
  std::size_t common = std::string::npos;
  for (const std::string& l : lines) {
    if (!blank(l)) common = std::min(common, leading_ws(l).size());
  }
  for (std::string& l : lines) {
    if (blank(l)) {
      l.clear();
    } else {
      l.erase(0, common);
    }
  }
  return lines;
}

// Caminho de dentro do repositório: relativo e sem "..".
bool safe_relative(const fs::path& p) {
  if (p.empty() || p.is_absolute()) return false;
  for (const fs::path& part : p) {
    if (part == "..") return false;
  }
  return true;
}

struct Fence {
  char ch = 0;
  std::size_t len = 0;
};

// "```cpp" abre uma cerca de 3 crases; até 3 espaços de recuo, como no CommonMark.
bool parse_fence(std::string_view line, Fence& fence) {
  const std::string_view ws = leading_ws(line);
  if (ws.size() > 3) return false;
  const std::string_view t = line.substr(ws.size());
  if (t.empty() || (t[0] != '`' && t[0] != '~')) return false;
  std::size_t n = 0;
  while (n < t.size() && t[n] == t[0]) ++n;
  if (n < 3) return false;
  fence = {t[0], n};
  return true;
}

bool closes(std::string_view line, const Fence& open) {
  Fence f;
  if (!parse_fence(line, f)) return false;
  return f.ch == open.ch && f.len >= open.len && trim(line).size() == f.len;
}

}  // namespace

Expected expected_listing(const fs::path& root, const std::string& spec) {
  Expected result;
  const std::size_t hash = spec.find('#');
  const std::string file = spec.substr(0, hash);
  const std::string region = hash == std::string::npos ? "" : spec.substr(hash + 1);
  if (!safe_relative(fs::path(file))) {
    result.error = "caminho inválido '" + file + "' (use um caminho relativo à raiz, sem '..')";
    return result;
  }
  const std::optional<std::string> text = read_file(root / file);
  if (!text || fs::is_directory(root / file)) {
    result.error = "o arquivo " + file + " não existe";
    return result;
  }
  const std::vector<std::string> all = bodies(*text);

  // Num .diff (livro/diffs/), a região é o caminho de um arquivo dentro da
  // etapa: a listagem é o trecho do diff desse arquivo, do "---" ao fim.
  if (hash != std::string::npos && file.size() > 5 && file.substr(file.size() - 5) == ".diff") {
    const std::string suffix = "/" + region;
    std::size_t start = all.size();
    for (std::size_t i = 0; i < all.size(); ++i) {
      const std::string& l = all[i];
      if (l.rfind("diff -ru ", 0) == 0 && l.size() >= suffix.size() &&
          l.compare(l.size() - suffix.size(), suffix.size(), suffix) == 0) {
        start = i + 1;
        break;
      }
    }
    if (start == all.size()) {
      result.error = "o arquivo " + region + " não aparece em " + file;
      return result;
    }
    std::size_t stop = start;
    while (stop < all.size() && all[stop].rfind("diff -ru ", 0) != 0) ++stop;
    result.lines.assign(all.begin() + static_cast<std::ptrdiff_t>(start),
                        all.begin() + static_cast<std::ptrdiff_t>(stop));
    return result;
  }

  std::size_t begin = 0;
  std::size_t end = all.size();
  if (hash != std::string::npos) {
    bool found_begin = false;
    bool found_end = false;
    for (std::size_t i = 0; i < all.size(); ++i) {
      const Marker m = classify_line(all[i]);
      if (m.id != region) continue;
      if (m.kind == MarkerKind::listing) {
        if (found_begin) {
          result.error = "a região " + region + " aparece duas vezes em " + file + " (linhas " +
                         std::to_string(begin) + " e " + std::to_string(i + 1) + ")";
          return result;
        }
        found_begin = true;
        begin = i + 1;
      } else if (m.kind == MarkerKind::end_listing && found_begin && !found_end) {
        found_end = true;
        end = i;
      }
    }
    if (!found_begin) {
      result.error = "a região " + region + " não existe em " + file +
                     " (marque com // listing: " + region + " e // end-listing: " + region + ")";
      return result;
    }
    if (!found_end) {
      result.error = "a região " + region + " em " + file + " não tem // end-listing: " + region;
      return result;
    }
  }
  std::vector<std::string> kept;
  bool in_todo = false;  // numa região do lado dos exercícios, o FIM-EXERCICIO aparece
  for (std::size_t i = begin; i < end; ++i) {
    const MarkerKind kind = classify_line(all[i]).kind;
    if (kind == MarkerKind::todo) in_todo = true;
    if (kind == MarkerKind::end_exercise && in_todo) {
      in_todo = false;
      kept.push_back(all[i]);
      continue;
    }
    if (!is_marker_line(all[i])) kept.push_back(all[i]);
  }
  result.lines = dedent(std::move(kept));
  return result;
}

std::vector<std::string> unified_diff(const std::vector<std::string>& expected,
                                      const std::vector<std::string>& actual) {
  // LCS clássico: as listagens têm dezenas de linhas, O(n*m) basta.
  const std::size_t n = expected.size();
  const std::size_t m = actual.size();
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      lcs[i][j] =
          expected[i] == actual[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  struct Op {
    char tag;          // ' ', '-', '+'
    std::size_t a, b;  // posição em expected/actual antes da operação
  };
  std::vector<Op> ops;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && expected[i] == actual[j]) {
      ops.push_back({' ', i++, j++});
    } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
      ops.push_back({'+', i, j++});
    } else {
      ops.push_back({'-', i++, j});
    }
  }
  // Troca "+ depois -" por "- depois +" dentro de cada trecho alterado, como o diff faz.
  for (std::size_t k = 0; k < ops.size();) {
    std::size_t e = k;
    while (e < ops.size() && ops[e].tag != ' ') ++e;
    std::stable_partition(ops.begin() + static_cast<std::ptrdiff_t>(k),
                          ops.begin() + static_cast<std::ptrdiff_t>(e),
                          [](const Op& op) { return op.tag == '-'; });
    k = e == k ? k + 1 : e;
  }

  constexpr std::size_t kContext = 3;
  std::vector<std::string> out;
  std::size_t k = 0;
  while (k < ops.size()) {
    if (ops[k].tag == ' ') {
      ++k;
      continue;
    }
    // Um trecho: começa kContext antes da mudança e vai até kContext depois da
    // última mudança que esteja a no máximo 2*kContext linhas iguais da anterior.
    const std::size_t start = k >= kContext ? k - kContext : 0;
    std::size_t last = k;
    std::size_t scan = k;
    while (scan < ops.size()) {
      if (ops[scan].tag != ' ') {
        last = scan;
        ++scan;
        continue;
      }
      std::size_t run = scan;
      while (run < ops.size() && ops[run].tag == ' ') ++run;
      if (run == ops.size() || run - scan > 2 * kContext) break;
      scan = run;
    }
    const std::size_t stop = std::min(ops.size(), last + 1 + kContext);
    std::size_t a_count = 0;
    std::size_t b_count = 0;
    for (std::size_t q = start; q < stop; ++q) {
      if (ops[q].tag != '+') ++a_count;
      if (ops[q].tag != '-') ++b_count;
    }
    // Linhas de cada lado antes do trecho (as posições guardadas nas operações
    // deixam de valer depois da troca de ordem acima).
    std::size_t a_before = 0;
    std::size_t b_before = 0;
    for (std::size_t q = 0; q < start; ++q) {
      if (ops[q].tag != '+') ++a_before;
      if (ops[q].tag != '-') ++b_before;
    }
    const std::size_t a_start = a_count == 0 ? a_before : a_before + 1;
    const std::size_t b_start = b_count == 0 ? b_before : b_before + 1;
    out.push_back("@@ -" + std::to_string(a_start) + "," + std::to_string(a_count) + " +" +
                  std::to_string(b_start) + "," + std::to_string(b_count) + " @@");
    for (std::size_t q = start; q < stop; ++q) {
      const std::string& text = ops[q].tag == '+' ? actual[ops[q].b] : expected[ops[q].a];
      out.push_back(std::string(1, ops[q].tag) + text);
    }
    k = stop;
  }
  return out;
}

std::string map_listing_spec(const std::string& spec, ListingSource source) {
  constexpr std::string_view kSolutions = "solutions/";
  if (source == ListingSource::exercises && spec.rfind(kSolutions, 0) == 0) {
    return "exercises/" + spec.substr(kSolutions.size());
  }
  return spec;
}

std::vector<fs::path> checked_documents(const fs::path& root) {
  std::vector<fs::path> docs;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(root / "livro", ec)) {
    if (e.is_regular_file() && e.path().extension() == ".md") docs.push_back(e.path());
  }
  for (const fs::directory_entry& e : fs::directory_iterator(root / "etapas", ec)) {
    if (e.is_directory() && fs::is_regular_file(e.path() / "README.md", ec)) {
      docs.push_back(e.path() / "README.md");
    }
  }
  for (const char* rel : {"README.md", "common/README.md", "mock-server/README.md"}) {
    if (fs::is_regular_file(root / rel, ec)) docs.push_back(root / rel);
  }
  std::sort(docs.begin(), docs.end());
  return docs;
}

namespace {

// O bloco cercado que começa em lines[open]: o índice da linha que o fecha, ou
// lines.size() se não há uma.
std::size_t block_end(const std::vector<std::string>& lines, std::size_t open) {
  Fence fence;
  parse_fence(body(lines[open]), fence);
  std::size_t close = open + 1;
  while (close < lines.size() && !closes(body(lines[close]), fence)) ++close;
  return close;
}

// Um documento com os blocos dos marcadores trocados; `edited` diz se algum mudou.
std::string edit_document(const std::string& shown, const std::vector<std::string>& lines,
                          const std::regex& marker,
                          const std::function<std::optional<BlockEdit>(const MarkedBlock&)>& visit,
                          bool& edited) {
  std::string text;
  Fence fence;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string trimmed(trim(body(lines[i])));
    MarkedBlock block{shown, i + 1, {}, MarkedBlock::Shape::ok, {}, lines};
    if (trimmed.rfind("<!--", 0) != 0 || !std::regex_match(trimmed, block.marker, marker)) {
      text += lines[i];
      if (parse_fence(body(lines[i]), fence)) {  // o bloco passa inteiro
        const std::size_t close = block_end(lines, i);
        for (std::size_t q = i + 1; q <= close && q < lines.size(); ++q) text += lines[q];
        i = close;
      }
      continue;
    }
    const bool opens = i + 1 < lines.size() && parse_fence(body(lines[i + 1]), fence);
    const std::size_t close = opens ? block_end(lines, i + 1) : lines.size();
    if (!opens || close == lines.size()) {
      block.shape = opens ? MarkedBlock::Shape::unclosed : MarkedBlock::Shape::no_block;
    } else {
      for (std::size_t q = i + 2; q < close; ++q) block.body.emplace_back(body(lines[q]));
    }
    const std::optional<BlockEdit> edit = visit(block);
    if (!edit) {
      text += lines[i];
      continue;
    }
    edited = true;
    const std::string nl(eol(lines[i]).empty() ? "\n" : eol(lines[i]));
    text += edit->comment ? *edit->comment + nl : lines[i];
    if (block.shape != MarkedBlock::Shape::ok) continue;
    text += lines[i + 1];
    for (const std::string& l : edit->body ? *edit->body : block.body) text += l + nl;
    text += lines[close];
    i = close;
  }
  return text;
}

}  // namespace

void edit_marked_blocks(const fs::path& root, const std::vector<fs::path>& docs,
                        const std::regex& marker,
                        const std::function<std::optional<BlockEdit>(const MarkedBlock&)>& visit,
                        std::vector<std::string>& files_updated,
                        std::vector<std::string>& problems) {
  for (const fs::path& doc : docs) {
    const std::string shown = display_path(root, doc);
    const std::optional<std::string> text = read_file(doc);
    if (!text) {
      problems.push_back(shown + ": não consegui ler o arquivo");
      continue;
    }
    bool edited = false;
    const std::string rewritten =
        edit_document(shown, split_keep_eol(*text), marker, visit, edited);
    if (!edited) continue;
    if (write_file(doc, rewritten)) {
      files_updated.push_back(shown);
    } else {
      problems.push_back(shown + ": não consegui reescrever o arquivo");
    }
  }
}

ListingReport check_listings(const fs::path& root, bool update, ListingSource source) {
  ListingReport report;
  static const std::regex kListing(R"(<!--.*listing:.*)");
  static const std::regex kComment(R"(<!--\s*listing:\s*(\S+?)\s*-->)");
  const auto visit = [&](const MarkedBlock& block) -> std::optional<BlockEdit> {
    ++report.checked;
    std::smatch match;
    const std::string comment = block.marker.str(0);
    if (!std::regex_match(comment, match, kComment)) {
      report.problems.push_back(block.where() +
                                ": comentário de listagem malformado (formato: <!-- "
                                "listing: CAMINHO#REGIAO -->)");
      return std::nullopt;
    }
    const std::string written_spec = match[1].str();
    const std::string spec = map_listing_spec(written_spec, source);
    if (block.shape != MarkedBlock::Shape::ok) {
      report.problems.push_back(
          block.where() +
          (block.shape == MarkedBlock::Shape::no_block
               ? ": a listagem " + spec +
                     " precisa de um bloco cercado (```) logo na linha seguinte"
               : ": bloco de código da listagem " + spec + " sem cerca de fechamento"));
      return std::nullopt;
    }
    const Expected expected = expected_listing(root, spec);
    if (!expected.error.empty()) {
      report.problems.push_back(block.where() + ": " + expected.error);
      return std::nullopt;
    }
    // Com a fonte exercises, o comentário passa a dizer de onde o bloco vem.
    const bool moved = spec != written_spec;
    if (expected.lines == block.body && !(update && moved)) return std::nullopt;
    if (update) {
      ++report.updated;
      std::string line(body(block.lines[block.line - 1]));
      if (moved) line.replace(line.find(written_spec), written_spec.size(), spec);
      return BlockEdit{line, expected.lines};
    }
    report.problems.push_back(block.where() + ": a listagem " + spec + " não bate com o código");
    report.problems.push_back("--- " + spec + " (código)");
    report.problems.push_back("+++ " + block.doc + ":" + std::to_string(block.line + 2) +
                              " (documento)");
    for (std::string& d : unified_diff(expected.lines, block.body)) {
      report.problems.push_back(std::move(d));
    }
    return std::nullopt;
  };
  edit_marked_blocks(root, checked_documents(root), kListing, visit, report.files_updated,
                     report.problems);
  return report;
}

}  // namespace hz::course
