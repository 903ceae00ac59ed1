#include "hz/course/exercises.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <system_error>

#include "hz/course/lines.hpp"
#include "hz/course/markers.hpp"

namespace fs = std::filesystem;

namespace hz::course {
namespace {

std::string at(std::string_view path, int line, const std::string& message) {
  return std::string(path) + ":" + std::to_string(line) + ": " + message;
}

// Só o bit de execução viaja pelo git; comparar o resto (grupo, umask) daria
// falsos alarmes entre clones.
bool same_exec_bits(fs::perms a, fs::perms b) {
  const fs::perms exec = fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec;
  return (a & exec) == (b & exec);
}

}  // namespace

StubbedFile stub_out(std::string_view text, std::string_view shown_path, std::string_view stage) {
  StubbedFile result;
  const std::vector<std::string> lines = split_keep_eol(text);

  bool inside = false;
  int region_line = 0;
  std::string todo_line;
  std::vector<std::string> stub_lines;

  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int number = static_cast<int>(i) + 1;
    const std::string& line = lines[i];
    const std::string_view content = body(line);
    const Marker m = classify_line(content);
    const std::string indent(leading_ws(content));
    const std::string end(eol(line));

    switch (m.kind) {
      case MarkerKind::unknown:
        result.error = at(shown_path, number, m.problem);
        return result;
      case MarkerKind::exercise: {
        if (inside) {
          result.error = at(shown_path, number,
                             "EXERCICIO dentro de outro exercício (aberto na linha " +
                                 std::to_string(region_line) + "); feche com // FIM-EXERCICIO");
          return result;
        }
        if (m.stage != stage) {
          result.error = at(shown_path, number,
                            "o exercício " + m.stage + "/" + m.id + " está na etapa " +
                                std::string(stage) + " (o id deve começar com " +
                                std::string(stage) + "/)");
          return result;
        }
        inside = true;
        region_line = number;
        todo_line = indent + "// TODO EXERCICIO " + m.stage + "/" + m.id + ": " + m.text + end;
        stub_lines.clear();
        result.exercise_ids.push_back(m.stage + "/" + m.id);
        result.exercise_lines.push_back(number);
        break;
      }
      case MarkerKind::stub:
        if (!inside) {
          result.error = at(shown_path, number, "STUB fora de uma região de exercício");
          return result;
        }
        stub_lines.push_back(indent + m.text + end);
        break;
      case MarkerKind::end_exercise:
        if (!inside) {
          result.error = at(shown_path, number, "FIM-EXERCICIO sem EXERCICIO antes");
          return result;
        }
        if (stub_lines.empty()) {
          result.error = at(shown_path, region_line,
                            "região de exercício sem linhas // STUB: (o stub precisa compilar e "
                            "lançar hz::NotImplemented)");
          return result;
        }
        result.text += todo_line;
        for (const std::string& s : stub_lines) result.text += s;
        result.text += line;
        inside = false;
        break;
      case MarkerKind::none:
      case MarkerKind::listing:
      case MarkerKind::end_listing:
        if (!inside) result.text += line;
        break;
    }
  }
  if (inside) {
    result.error = at(shown_path, region_line, "EXERCICIO sem // FIM-EXERCICIO");
  }
  return result;
}

bool is_marked_source(const fs::path& p) {
  static const std::set<std::string> kExtensions = {".cpp", ".cc",  ".cxx", ".hpp", ".hh",
                                                    ".hxx", ".h",   ".ipp", ".inl", ".tpp"};
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

StagePlan plan_stage(const fs::path& root, const std::string& stage) {
  StagePlan plan;
  plan.stage = stage;
  const fs::path source = root / "solutions" / stage;

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

  std::map<std::string, std::string> seen_ids;  // id -> onde apareceu
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
      StubbedFile stubbed = stub_out(*text, shown, stage);
      if (!stubbed.error.empty()) {
        plan.errors.push_back(stubbed.error);
        continue;
      }
      for (std::size_t i = 0; i < stubbed.exercise_ids.size(); ++i) {
        const std::string where = shown + ":" + std::to_string(stubbed.exercise_lines[i]);
        const auto [it, fresh] = seen_ids.emplace(stubbed.exercise_ids[i], where);
        if (!fresh) {
          plan.errors.push_back(where + ": exercício " + stubbed.exercise_ids[i] +
                                " repetido (já aparece em " + it->second + ")");
        }
      }
      plan.exercises += static_cast<int>(stubbed.exercise_ids.size());
      planned.content = std::move(stubbed.text);
    } else {
      planned.content = *text;
    }
    plan.files.push_back(std::move(planned));
  }
  return plan;
}

std::vector<Drift> compare_stage(const fs::path& root, const StagePlan& plan) {
  std::vector<Drift> drift;
  const fs::path target = root / "exercises" / plan.stage;
  std::set<std::string> planned;
  for (const PlannedFile& f : plan.files) {
    planned.insert(f.rel);
    const fs::path path = target / f.rel;
    const std::string shown = display_path(root, path);
    std::error_code ec;
    const fs::file_status st = fs::symlink_status(path, ec);
    if (ec || !fs::is_regular_file(st)) {
      drift.push_back({Drift::Kind::missing, shown});
      continue;
    }
    const std::optional<std::string> current = read_file(path);
    if (!current || *current != f.content) {
      drift.push_back({Drift::Kind::differs, shown});
    } else if (!same_exec_bits(st.permissions(), f.perms)) {
      drift.push_back({Drift::Kind::mode, shown});
    }
  }
  std::error_code ec;
  if (fs::is_directory(target, ec)) {
    std::vector<std::string> extra;
    for (auto it = fs::recursive_directory_iterator(target); it != fs::recursive_directory_iterator();
         ++it) {
      if (it->is_directory() && !it->is_symlink()) continue;
      const std::string rel = it->path().lexically_relative(target).generic_string();
      if (planned.count(rel) == 0) extra.push_back(display_path(root, it->path()));
    }
    std::sort(extra.begin(), extra.end());
    for (std::string& e : extra) drift.push_back({Drift::Kind::extra, std::move(e)});
  }
  return drift;
}

void apply_stage(const fs::path& root, const StagePlan& plan, const std::vector<Drift>& drift) {
  std::map<std::string, const PlannedFile*> by_path;
  for (const PlannedFile& f : plan.files) {
    by_path[display_path(root, root / "exercises" / plan.stage / f.rel)] = &f;
  }
  for (const Drift& d : drift) {
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

}  // namespace hz::course
