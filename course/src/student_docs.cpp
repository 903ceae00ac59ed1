#include "hz/course/student_docs.hpp"

#include <algorithm>
#include <regex>
#include <system_error>

#include "hz/course/lines.hpp"

namespace fs = std::filesystem;

namespace hz::course {
namespace {

constexpr std::string_view kFullStart = "<!-- curso-completo -->";
constexpr std::string_view kFullEnd = "<!-- fim-curso-completo -->";
constexpr std::string_view kStudent = "<!-- copia-do-aluno:";
constexpr std::string_view kCommentEnd = "-->";

int line_of(std::string_view text, std::size_t at) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

bool starts_line(std::string_view text, std::size_t at) { return at == 0 || text[at - 1] == '\n'; }

// Depois de uma marca que ocupa linhas inteiras, o fim da linha sai junto.
std::size_t eat_eol(std::string_view text, std::size_t at) {
  if (at < text.size() && text[at] == '\n') return at + 1;
  if (at + 1 < text.size() && text[at] == '\r' && text[at + 1] == '\n') return at + 2;
  return at;
}

bool ends_line(std::string_view text, std::size_t at) {
  return at == text.size() || eat_eol(text, at) != at;
}

std::string_view trim_all(std::string_view s) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

// Troca por espaços (mantendo as quebras de linha) o que casa com `re`: as
// posições e as linhas do resto não mudam.
void blank(std::string& text, const std::regex& re) {
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it) {
    for (long i = it->position(); i < it->position() + it->length(); ++i) {
      if (text[static_cast<std::size_t>(i)] != '\n') text[static_cast<std::size_t>(i)] = ' ';
    }
  }
}

// As linhas dentro de blocos cercados (``` ou ~~~), com as cercas.
std::vector<bool> fenced_lines(const std::vector<std::string>& lines) {
  std::vector<bool> fenced(lines.size(), false);
  bool inside = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view t = trim(body(lines[i]));
    const bool fence = t.substr(0, 3) == "```" || t.substr(0, 3) == "~~~";
    fenced[i] = inside || fence;
    if (fence) inside = !inside;
  }
  return fenced;
}

bool has_scheme(const std::string& target) {
  static const std::regex scheme("^[A-Za-z][A-Za-z0-9+.-]*:");
  return std::regex_search(target, scheme);
}

// Um caminho em `código` que manda rodar ou abrir um arquivo do repositório.
bool command_path(const std::string& code) {
  if (code.find_first_of(" \t<>*$") != std::string::npos) return false;
  if (code.find("NN") != std::string::npos || code.find("ETAPA") != std::string::npos) return false;
  if (code.rfind(".ci/", 0) == 0 || code.rfind(".github/", 0) == 0) return true;
  if (code.find('/') == std::string::npos) return false;
  const auto ends = [&](std::string_view suffix) {
    return code.size() > suffix.size() &&
           code.compare(code.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends(".sh") || ends(".yml");
}

}  // namespace

StudentCopy student_copy_text(std::string_view text) {
  StudentCopy out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t open = text.find("<!--", at);
    if (open == std::string_view::npos) {
      out.text.append(text.substr(at));
      break;
    }
    out.text.append(text.substr(at, open - at));
    const std::string_view rest = text.substr(open);
    if (rest.substr(0, kFullEnd.size()) == kFullEnd) {
      out.error = "linha " + std::to_string(line_of(text, open)) + ": " + std::string(kFullEnd) +
                  " sem um " + std::string(kFullStart) + " antes";
      return out;
    }
    if (rest.substr(0, kFullStart.size()) == kFullStart) {
      const std::size_t next_start = text.find(kFullStart, open + kFullStart.size());
      const std::size_t close = text.find(kFullEnd, open + kFullStart.size());
      if (close == std::string_view::npos ||
          (next_start != std::string_view::npos && next_start < close)) {
        out.error = "linha " + std::to_string(line_of(text, open)) + ": " +
                    std::string(kFullStart) + " sem o " + std::string(kFullEnd) + " dele";
        return out;
      }
      std::size_t after = close + kFullEnd.size();
      if (starts_line(text, open) && ends_line(text, after)) after = eat_eol(text, after);
      at = after;
      continue;
    }
    if (rest.substr(0, kStudent.size()) == kStudent) {
      const std::size_t close = text.find(kCommentEnd, open + kStudent.size());
      if (close == std::string_view::npos) {
        out.error = "linha " + std::to_string(line_of(text, open)) + ": " + std::string(kStudent) +
                    " sem o --> que o fecha";
        return out;
      }
      const std::string_view inner =
          trim_all(text.substr(open + kStudent.size(), close - open - kStudent.size()));
      out.text.append(inner);
      at = close + kCommentEnd.size();
      if (starts_line(text, open) && ends_line(text, at)) {
        const std::size_t eol_end = eat_eol(text, at);
        out.text.append(text.substr(at, eol_end - at));
        at = eol_end;
      }
      continue;
    }
    // Outro comentário (uma listagem, uma saída capturada): fica como está.
    out.text.append("<!--");
    at = open + 4;
  }
  return out;
}

std::vector<fs::path> course_markdown(const fs::path& root) {
  std::vector<fs::path> docs;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec)) {
      if (name.rfind('.', 0) == 0 || name.rfind("build", 0) == 0 || name == "node_modules") {
        it.disable_recursion_pending();
      }
      continue;
    }
    if (it->path().extension() == ".md" && it->is_regular_file(ec)) docs.push_back(it->path());
  }
  std::sort(docs.begin(), docs.end());
  return docs;
}

std::vector<DocReference> doc_references(std::string_view text) {
  const std::vector<std::string> lines = split_keep_eol(text);
  const std::vector<bool> fenced = fenced_lines(lines);
  // prose: o texto fora dos blocos de código; code: só os blocos.
  std::string prose;
  std::string code;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string blanked(body(lines[i]).size(), ' ');
    const std::string ending(eol(lines[i]));
    prose += (fenced[i] ? blanked : std::string(body(lines[i]))) + ending;
    code += (fenced[i] ? std::string(body(lines[i])) : blanked) + ending;
  }
  blank(prose, std::regex(R"re(<!--[\s\S]*?-->)re"));

  std::vector<std::pair<std::size_t, DocReference>> found;
  const auto add = [&](const std::string& where, std::size_t at, DocReference::Kind kind,
                       std::string value) {
    found.push_back({at, DocReference{kind, line_of(where, at), std::move(value)}});
  };

  // `código` primeiro (os caminhos), depois sem ele (os links).
  std::string no_code = prose;
  const std::regex inline_code("`([^`\n]+)`");
  for (auto it = std::sregex_iterator(prose.begin(), prose.end(), inline_code);
       it != std::sregex_iterator(); ++it) {
    const std::string inner((*it)[1].str());
    if (command_path(inner)) {
      add(prose, static_cast<std::size_t>(it->position()), DocReference::Kind::path, inner);
    }
  }
  blank(no_code, inline_code);
  const std::regex link(R"re(\]\(\s*<?([^)\s>]+)>?(\s+"[^"]*")?\s*\)|href="([^"]+)")re");
  for (auto it = std::sregex_iterator(no_code.begin(), no_code.end(), link);
       it != std::sregex_iterator(); ++it) {
    std::string target = (*it)[1].matched ? (*it)[1].str() : (*it)[3].str();
    if (target.empty() || target.front() == '#' || has_scheme(target)) continue;
    target = target.substr(0, target.find('#'));
    add(no_code, static_cast<std::size_t>(it->position()), DocReference::Kind::link, target);
  }
  // ./hz SUB: na prosa, o `código` pode quebrar a linha entre ./hz e SUB; num
  // bloco de código, não.
  const std::regex hz_prose(R"re((^|[^A-Za-z0-9_./-])\./hz\s+([a-z][a-z-]*))re");
  const std::regex hz_code(R"re((^|[^A-Za-z0-9_./-])\./hz[ \t]+([a-z][a-z-]*))re");
  const std::string prose_with_code = prose;
  for (const auto& [where, re] :
       {std::pair<const std::string*, const std::regex*>{&prose_with_code, &hz_prose},
        {&code, &hz_code}}) {
    for (auto it = std::sregex_iterator(where->begin(), where->end(), *re);
         it != std::sregex_iterator(); ++it) {
      add(*where, static_cast<std::size_t>(it->position(2)), DocReference::Kind::hz,
          (*it)[2].str());
    }
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<DocReference> out;
  out.reserve(found.size());
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

}  // namespace hz::course
