#include "hz/course/exercises.hpp"

#include <algorithm>
#include <regex>
#include <set>
#include <system_error>

#include "hz/course/lines.hpp"
#include "hz/course/regions.hpp"
#include "hz/text.hpp"

namespace fs = std::filesystem;

namespace hz::course {
namespace {

constexpr std::size_t kColumns = 100;  // o ColumnLimit do .clang-format
constexpr std::string_view kInclude = "#include \"hz/not_implemented.hpp\"";
constexpr std::string_view kOwnOpen =
    "// SEU-CODIGO: includes, constantes e funções suas (./hz carry e ./hz update os levam)";
constexpr std::string_view kOwnClose = "// FIM-SEU-CODIGO";

// Só o bit de execução viaja pelo git; comparar o resto (grupo, umask) daria
// falsos alarmes entre clones.
bool same_exec_bits(fs::perms a, fs::perms b) {
  const fs::perms exec = fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec;
  return (a & exec) == (b & exec);
}

std::string cpp_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// "// TODO EXERCICIO id: instrução", quebrada em linhas de comentário que
// cabem em kColumns.
std::string todo_lines(const Region& r, std::string_view nl) {
  const std::string first = r.indent + "// TODO EXERCICIO " + r.id + ": ";
  const std::string next = r.indent + "// ";
  std::string out;
  std::string line = first;
  bool line_has_word = false;
  std::size_t i = 0;
  const std::string& text = r.instruction;
  while (i < text.size()) {
    std::size_t j = text.find(' ', i);
    if (j == std::string::npos) j = text.size();
    const std::string word = text.substr(i, j - i);
    i = j + 1;
    if (word.empty()) continue;
    const std::string candidate = line + (line_has_word ? " " : "") + word;
    if (line_has_word && hz::utf8_length(candidate) > kColumns) {
      out += line + std::string(nl);
      line = next + word;
    } else {
      line = candidate;
    }
    line_has_word = true;
  }
  return out + line + std::string(nl);
}

// throw hz::NotImplemented("id", "onde ler"); quebrado como o clang-format quebraria.
std::string throw_line(const Region& r, const ExerciseInfo* info, std::string_view prefix,
                       std::string_view nl) {
  const std::string head = r.indent + std::string(prefix) + "NotImplemented(";
  const std::string id = cpp_string(r.id);
  if (info == nullptr) return head + id + ");" + std::string(nl);
  const std::string where = cpp_string(info->where());
  const std::string one = head + id + ", " + where + ");";
  if (hz::utf8_length(one) <= kColumns) return one + std::string(nl);
  return head + id + "," + std::string(nl) + std::string(hz::utf8_length(head), ' ') + where +
         ");" + std::string(nl);
}

// O stub inteiro de uma região: TODO, throw e FIM.
std::string stub_text(const RegionScan& scan, const Region& r, const ExerciseInfo* info,
                      std::string_view nl) {
  return todo_lines(r, nl) + throw_line(r, info, "throw hz::", nl) + r.indent + "// FIM-EXERCICIO" +
         std::string(eol(scan.lines[r.close]));
}

// O stub que o gerador escreveu para a região `r` de um exercício, refeito da
// linha TODO e das linhas de comentário que a continuam.
std::string regenerated_stub(const RegionScan& scan, const Region& r, const ExerciseInfo* info) {
  Region full = r;
  const std::string continuation = r.indent + "// ";
  for (std::size_t i = r.open + 1; i < r.close; ++i) {
    const std::string_view line = body(scan.lines[i]);
    if (line.substr(0, continuation.size()) != continuation) break;
    full.instruction += " " + std::string(line.substr(continuation.size()));
  }
  const std::string_view open_eol = eol(scan.lines[r.open]);
  return stub_text(scan, full, info, open_eol.empty() ? "\n" : open_eol);
}

// Acrescenta o #include do NotImplemented, se faltar: no último bloco de
// #include "..." (depois do cabeçalho principal), em ordem alfabética; sem
// bloco assim, num bloco novo depois do último #include.
std::vector<std::string> with_include(std::vector<std::string> lines) {
  int last_include = -1;
  std::vector<std::pair<int, int>> quoted;  // blocos contíguos de #include "..."
  for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
    const std::string_view b = body(lines[i]);
    if (b == kInclude) return lines;
    if (b.rfind("#include ", 0) != 0) continue;
    last_include = i;
    if (b.rfind("#include \"", 0) == 0) {
      if (!quoted.empty() && quoted.back().second == i - 1) {
        quoted.back().second = i;
      } else {
        quoted.push_back({i, i});
      }
    }
  }
  const std::string nl =
      lines.empty() || eol(lines.front()).empty() ? "\n" : std::string(eol(lines.front()));
  const std::string include = std::string(kInclude) + nl;
  if (last_include < 0) {
    // Sem include nenhum: no começo, ou logo depois do #pragma once de um cabeçalho.
    const auto pragma = std::find_if(
        lines.begin(), lines.end(), [](const std::string& l) { return trim(l) == "#pragma once"; });
    if (pragma == lines.end()) {
      lines.insert(lines.begin(), {include, nl});
    } else {
      lines.insert(pragma + 1, {nl, include});
    }
    return lines;
  }
  // Um bloco de uma linha só com o cabeçalho principal ("agent_loop.hpp", sem
  // pasta) fica sozinho, como o clang-format o deixa; o include vai num bloco novo.
  if (!quoted.empty()) {
    const auto [begin, end] = quoted.back();
    const bool main_header_alone =
        begin == end && body(lines[begin]).find('/') == std::string_view::npos;
    if (!main_header_alone) {
      int at = begin;
      while (at <= end && body(lines[at]) < kInclude) ++at;
      lines.insert(lines.begin() + at, include);
      return lines;
    }
  }
  lines.insert(lines.begin() + last_include + 1, {nl, include});
  return lines;
}

// Acrescenta a área do aluno, vazia, depois do último #include (que, num
// arquivo com regiões, existe: with_include acabou de garantir).
std::vector<std::string> with_own_area(std::vector<std::string> lines) {
  int last_include = -1;
  for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
    if (body(lines[i]).rfind("#include ", 0) == 0) last_include = i;
  }
  const std::string nl =
      lines.empty() || eol(lines.front()).empty() ? "\n" : std::string(eol(lines.front()));
  const auto at = lines.begin() + last_include + 1;
  const bool blank_after = at != lines.end() && trim(*at).empty();
  std::vector<std::string> area = {nl, std::string(kOwnOpen) + nl, std::string(kOwnClose) + nl};
  if (!blank_after) area.push_back(nl);
  lines.insert(at, area.begin(), area.end());
  return lines;
}

}  // namespace

StubbedFile stub_out(std::string_view text, std::string_view shown_path, const StubContext& ctx) {
  StubbedFile result;
  const RegionScan scan = scan_regions(text, shown_path, Side::solution);
  if (!scan.error.empty()) {
    result.error = scan.error;
    return result;
  }
  if (scan.own) {
    result.error = std::string(shown_path) + ":" + std::to_string(scan.own->open + 1) +
                   ": a área // SEU-CODIGO é de exercises/ (o gerador a escreve, vazia, em todo "
                   "arquivo com regiões); apague-a da solução";
    return result;
  }
  if (scan.regions.empty()) {
    result.text = std::string(text);
    return result;
  }
  std::vector<std::string> out;
  std::size_t next = 0;
  for (const Region& r : scan.regions) {
    const std::string where = std::string(shown_path) + ":" + std::to_string(r.open + 1) + ": ";
    if (std::find(ctx.allowed_stages.begin(), ctx.allowed_stages.end(), r.stage) ==
        ctx.allowed_stages.end()) {
      result.error = where + "o exercício " + r.id + " é de uma etapa que não vem antes de " +
                     ctx.stage + " (o id começa com a etapa em que o exercício nasce)";
      return result;
    }
    const ExerciseInfo* info = nullptr;
    if (ctx.catalog != nullptr) {
      info = ctx.catalog->find(r.id);
      if (info == nullptr) {
        result.error = where + "o exercício " + r.id + " não está em exercises/" + r.stage +
                       "/hints.md (escreva lá a seção do livro e as dicas)";
        return result;
      }
    }
    const std::string nl(eol(scan.lines[r.open]).empty() ? "\n" : eol(scan.lines[r.open]));
    for (; next < r.open; ++next) out.push_back(scan.lines[next]);
    std::string stub = stub_text(scan, r, info, nl);
    if (ctx.mode == StubMode::stubs) {
      out.push_back(stub);
    } else {
      out.push_back(scan.lines[r.open]);
      out.push_back(throw_line(
          r, info, "if (::hz::exercise_stubbed(" + cpp_string(r.id) + ")) throw ::hz::", nl));
      for (std::size_t i = r.open + 1; i <= r.close; ++i) out.push_back(scan.lines[i]);
    }
    next = r.close + 1;
    result.exercise_ids.push_back(r.id);
    result.exercise_lines.push_back(static_cast<int>(r.open) + 1);
    result.stubs[r.id] = std::move(stub);
    result.answers[r.id] = region_body(scan, r);
    result.filled[r.id] = todo_lines(r, nl) + region_body(scan, r) + r.indent + "// FIM-EXERCICIO" +
                          std::string(eol(scan.lines[r.close]));
  }
  for (; next < scan.lines.size(); ++next) out.push_back(scan.lines[next]);
  if (ctx.mode == StubMode::stubs) {
    // O que o gerador escreve respeita o .clang-format como o resto.
    for (std::size_t i = 0; i < result.exercise_ids.size(); ++i) {
      const std::string& id = result.exercise_ids[i];
      for (const std::string& line : split_keep_eol(result.stubs.at(id))) {
        if (hz::utf8_length(body(line)) > kColumns) {
          result.error = std::string(shown_path) + ":" + std::to_string(result.exercise_lines[i]) +
                         ": o stub de " + id + " passa de " + std::to_string(kColumns) +
                         " colunas: encurte a instrução do marcador ou o título da seção";
          return result;
        }
      }
    }
  }
  // Uma região ocupa uma entrada de `out`; o #include é procurado linha a linha
  // antes das regiões, então juntar depois não muda nada.
  for (const std::string& piece : with_own_area(with_include(std::move(out)))) {
    result.text += piece;
  }
  return result;
}

bool is_marked_source(const fs::path& p) {
  static const std::set<std::string> kExtensions = {".cpp", ".cc", ".cxx", ".hpp", ".hh",
                                                    ".hxx", ".h",  ".ipp", ".inl", ".tpp"};
  return kExtensions.count(p.extension().string()) > 0;
}

std::vector<std::string> list_stages(const fs::path& dir) {
  static const std::regex kStage("[0-9][0-9]-[A-Za-z0-9_-]+");
  std::vector<std::string> stages;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (e.is_directory() && std::regex_match(name, kStage)) stages.push_back(name);
  }
  std::sort(stages.begin(), stages.end());
  return stages;
}

std::vector<std::string> stages_with_solutions(const fs::path& root, const StageList& stages) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const StageInfo& s : stages.stages) {
    if (fs::is_directory(root / "solutions" / s.name, ec)) out.push_back(s.name);
  }
  return out;
}

namespace {

// id -> resposta, das regiões que nasceram em cada etapa antes de `stage`.
std::map<std::string, std::string> earlier_answers(const fs::path& root, const std::string& stage,
                                                   const std::vector<std::string>& allowed) {
  std::map<std::string, std::string> answers;
  for (const std::string& s : allowed) {
    if (s == stage) continue;
    const fs::path dir = root / "solutions" / s;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator();
         ++it) {
      if (!it->is_regular_file() || !is_marked_source(it->path())) continue;
      const std::optional<std::string> text = read_file(it->path());
      if (!text) continue;
      const RegionScan scan = scan_regions(*text, display_path(root, it->path()), Side::solution);
      for (const Region& r : scan.regions) {
        if (r.stage == s) answers[r.id] = region_body(scan, r);
      }
    }
  }
  return answers;
}

}  // namespace

StagePlan plan_stage(const fs::path& root, const std::string& stage, const StageList& stages,
                     const Catalog& catalog, StubMode mode) {
  StagePlan plan;
  plan.stage = stage;
  const fs::path source = root / "solutions" / stage;
  StubContext ctx{stage, stages.up_to(stage), &catalog, mode};

  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(source); it != fs::recursive_directory_iterator();
       ++it) {
    if (it->is_symlink()) {
      plan.errors.push_back(display_path(root, it->path()) +
                            ":1: links simbólicos não são suportados em solutions/");
    } else if (it->is_regular_file()) {
      files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());

  const std::map<std::string, std::string> earlier =
      earlier_answers(root, stage, ctx.allowed_stages);
  std::map<std::string, std::string> seen_ids;  // id -> onde apareceu
  bool all_scanned = true;
  for (const fs::path& file : files) {
    const std::string shown = display_path(root, file);
    const std::optional<std::string> text = read_file(file);
    if (!text) {
      plan.errors.push_back(shown + ":1: não consegui ler o arquivo");
      continue;
    }
    PlannedFile planned;
    planned.rel = file.lexically_relative(source).generic_string();
    planned.perms = fs::status(file).permissions();
    if (is_marked_source(file)) {
      StubbedFile stubbed = stub_out(*text, shown, ctx);
      if (!stubbed.error.empty()) {
        plan.errors.push_back(stubbed.error);
        all_scanned = false;
        continue;
      }
      for (std::size_t i = 0; i < stubbed.exercise_ids.size(); ++i) {
        const std::string& id = stubbed.exercise_ids[i];
        const std::string where = shown + ":" + std::to_string(stubbed.exercise_lines[i]);
        const auto [it, fresh] = seen_ids.emplace(id, where);
        if (!fresh) {
          plan.errors.push_back(where + ": exercício " + id + " repetido (já aparece em " +
                                it->second + ")");
        }
        if (id.rfind(stage + "/", 0) == 0) {
          ++plan.own_exercises;
          continue;
        }
        // Uma região de uma etapa anterior guarda a mesma resposta que lá: se o
        // capítulo a reescreve, ela precisa de um id novo (o aluno não leva a
        // resposta antiga para um contrato novo).
        const std::string owner = id.substr(0, id.find('/'));
        const auto before = earlier.find(id);
        if (before == earlier.end()) {
          plan.errors.push_back(where + ": o exercício " + id + " não existe em solutions/" +
                                owner);
        } else if (before->second != stubbed.answers.at(id)) {
          plan.errors.push_back(where + ": a resposta de " + id + " difere da de solutions/" +
                                owner + " (uma região que o capítulo reescreve precisa de um id " +
                                "novo, " + stage + "/...)");
        }
      }
      plan.exercises += static_cast<int>(stubbed.exercise_ids.size());
      planned.content = std::move(stubbed.text);
      planned.stubs = std::move(stubbed.stubs);
      planned.answers = std::move(stubbed.answers);
      planned.filled = std::move(stubbed.filled);
    } else {
      planned.content = *text;
    }
    plan.files.push_back(std::move(planned));
  }

  // Cada exercício desta etapa no hints.md tem de existir no núcleo (se algum
  // arquivo não pôde ser lido, as regiões dele são desconhecidas: o erro dele basta).
  for (const ExerciseInfo* e : catalog.of_stage(stage)) {
    if (all_scanned && seen_ids.count(e->id) == 0) {
      plan.errors.push_back(e->source + ": o exercício " + e->id + " não tem região em solutions/" +
                            stage + " (marque com // EXERCICIO " + e->id + ": ...)");
    }
  }
  return plan;
}

StagePlan plan_from_exercises(const fs::path& root, const std::string& stage,
                              const Catalog& catalog) {
  StagePlan plan;
  plan.stage = stage;
  const fs::path dir = root / "exercises" / stage;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    plan.errors.push_back(display_path(root, dir) + ": a pasta não existe");
    return plan;
  }
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator();
       ++it) {
    if (it->is_regular_file() && !it->is_symlink() && is_marked_source(it->path())) {
      files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    PlannedFile planned;
    planned.rel = file.lexically_relative(dir).generic_string();
    planned.perms = fs::status(file).permissions();
    if (const std::optional<std::string> text = read_file(file)) {
      // Com marcadores quebrados, o arquivo fica sem stubs: quem o ler de novo
      // (o carry) aponta o erro.
      const RegionScan scan = scan_regions(*text, display_path(root, file), Side::exercise);
      const std::size_t regions = scan.error.empty() ? scan.regions.size() : 0;
      for (std::size_t i = 0; i < regions; ++i) {
        const Region& r = scan.regions[i];
        planned.stubs[r.id] = regenerated_stub(scan, r, catalog.find(r.id));
        ++plan.exercises;
        if (r.stage == stage) ++plan.own_exercises;
      }
      planned.content = *text;
    }
    plan.files.push_back(std::move(planned));
  }
  return plan;
}

namespace {

// Por que o arquivo do exercício tem código de alguém (vazio: não tem).
// Conta como trabalho: uma região que não é o stub gerado (nem o da geração
// anterior, `previous`), uma região que sumiu, marcadores que não dá para
// ler, código na área // SEU-CODIGO e uma linha fora das regiões e da área
// que não é o que o gerador escreve agora nem o que escreveu antes.
std::string student_work(const std::string& current, const PlannedFile& planned,
                         const std::optional<std::string>& previous, std::string_view shown) {
  const RegionScan scan = scan_regions(current, shown, Side::exercise);
  if (!scan.error.empty()) return "os marcadores não se leem (" + scan.error + ")";
  RegionScan before;
  if (previous) before = scan_regions(*previous, shown, Side::exercise);
  const auto previous_stub = [&before](const std::string& id) -> std::optional<std::string> {
    for (const Region& r : before.regions) {
      if (r.id == id) return region_text(before, r);
    }
    return std::nullopt;
  };
  // Uma região que sumiu foi apagada por alguém, talvez com a resposta no lugar.
  if (scan.regions.size() != planned.stubs.size()) {
    return "falta uma região de exercício (alguém a apagou?)";
  }
  for (const Region& r : scan.regions) {
    const auto it = planned.stubs.find(r.id);
    const std::string text = region_text(scan, r);
    if (it != planned.stubs.end() && it->second == text) continue;
    if (previous_stub(r.id) == text) continue;
    return "a região " + r.id + " não é o stub gerado";
  }
  if (has_code(own_body(scan))) return "há código entre // SEU-CODIGO e // FIM-SEU-CODIGO";
  const RegionScan now = scan_regions(planned.content, shown, Side::exercise);
  std::size_t line = first_outside_difference(scan, now);
  if (line != 0 && previous && before.error.empty() &&
      first_outside_difference(scan, before) == 0) {
    line = 0;
  }
  if (line == 0) return "";
  std::string text(trim(body(scan.lines[line - 1])));
  if (hz::utf8_length(text) > 50) text = text.substr(0, 47) + "...";
  return "a linha " + std::to_string(line) +
         ", fora das regiões e da área // SEU-CODIGO, não veio de solutions/ (\"" + text + "\")";
}

}  // namespace

std::vector<Drift> compare_stage(const fs::path& root, const StagePlan& plan,
                                 const PreviousGeneration& previous) {
  std::vector<Drift> drift;
  const fs::path target = root / "exercises" / plan.stage;
  std::set<std::string> planned = {"hints.md"};
  for (const PlannedFile& f : plan.files) {
    planned.insert(f.rel);
    const fs::path path = target / f.rel;
    const std::string shown = display_path(root, path);
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(path, ec);
    if (ec || !fs::is_regular_file(st)) {
      drift.push_back({Drift::Kind::missing, shown, false, ""});
      continue;
    }
    const std::optional<std::string> current = read_file(path);
    if (!current || *current != f.content) {
      std::string why;
      if (current && is_marked_source(path)) {
        why = student_work(*current, f, previous ? previous(f.rel) : std::nullopt, shown);
      }
      drift.push_back({Drift::Kind::differs, shown, !why.empty(), why});
    } else if (!same_exec_bits(st.permissions(), f.perms)) {
      drift.push_back({Drift::Kind::mode, shown, false, ""});
    }
  }
  std::error_code ec;
  if (fs::is_directory(target, ec)) {
    std::vector<std::string> extra;
    for (auto it = fs::recursive_directory_iterator(target);
         it != fs::recursive_directory_iterator(); ++it) {
      if (it->is_directory() && !it->is_symlink()) continue;
      const std::string rel = it->path().lexically_relative(target).generic_string();
      if (planned.count(rel) == 0) extra.push_back(display_path(root, it->path()));
    }
    std::sort(extra.begin(), extra.end());
    // Um arquivo a mais pode ser do aluno: só sai com --force.
    for (std::string& e : extra) {
      drift.push_back({Drift::Kind::extra, std::move(e), true, "o arquivo não vem de solutions/"});
    }
  }
  return drift;
}

void apply_stage(const fs::path& root, const StagePlan& plan, const std::vector<Drift>& drift,
                 bool force) {
  std::map<std::string, const PlannedFile*> by_path;
  for (const PlannedFile& f : plan.files) {
    by_path[display_path(root, root / "exercises" / plan.stage / f.rel)] = &f;
  }
  for (const Drift& d : drift) {
    if (d.student_work && !force) continue;
    const fs::path path = root / d.path;
    if (d.kind == Drift::Kind::extra) {
      fs::remove_all(path);
      continue;
    }
    const PlannedFile& f = *by_path.at(d.path);
    if (d.kind != Drift::Kind::mode) {
      fs::create_directories(path.parent_path());
      if (fs::is_symlink(fs::symlink_status(path)) || fs::is_directory(path)) fs::remove_all(path);
      if (!write_file(path, f.content)) {
        throw fs::filesystem_error("não consegui escrever", path,
                                   std::make_error_code(std::errc::io_error));
      }
    }
    fs::permissions(path, f.perms);
  }
  // Pastas que ficaram vazias depois das remoções, das mais fundas para cima.
  const fs::path target = root / "exercises" / plan.stage;
  std::error_code ec;
  if (!fs::is_directory(target, ec)) return;
  std::vector<fs::path> dirs;
  for (auto it = fs::recursive_directory_iterator(target); it != fs::recursive_directory_iterator();
       ++it) {
    if (it->is_directory() && !it->is_symlink()) dirs.push_back(it->path());
  }
  std::sort(dirs.rbegin(), dirs.rend());
  for (const fs::path& d : dirs) {
    if (fs::is_empty(d)) fs::remove(d);
  }
}

void write_plan(const fs::path& out_dir, const StagePlan& plan) {
  const fs::path target = out_dir / plan.stage;
  fs::remove_all(target);
  for (const PlannedFile& f : plan.files) {
    const fs::path path = target / f.rel;
    fs::create_directories(path.parent_path());
    if (!write_file(path, f.content)) {
      throw fs::filesystem_error("não consegui escrever", path,
                                 std::make_error_code(std::errc::io_error));
    }
    fs::permissions(path, f.perms);
  }
}

}  // namespace hz::course
