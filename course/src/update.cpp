#include "hz/course/update.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <system_error>

#include "hz/course/catalog.hpp"
#include "hz/course/exercises.hpp"
#include "hz/course/lines.hpp"
#include "hz/course/regions.hpp"

namespace fs = std::filesystem;

namespace hz::course {
namespace {

// Pastas que não são do curso: builds, o git, a cópia do corretor, pacotes npm.
bool ignored_dir(const fs::path& rel) {
  const std::string name = rel.filename().string();
  const bool top = !rel.has_parent_path();
  return name == ".git" || name == "node_modules" ||
         (top && (name == ".grader" || name.rfind("build", 0) == 0));
}

// Os arquivos regulares sob root, relativos e com '/', em ordem.
std::vector<std::string> list_files(const fs::path& root) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return files;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    const fs::path rel = it->path().lexically_relative(root);
    if (it->is_directory() && !it->is_symlink()) {
      if (ignored_dir(rel)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && !it->is_symlink()) files.push_back(rel.generic_string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// "exercises/01-loop/x.cpp" -> etapa "01-loop" e "x.cpp", se for um fonte com regiões.
bool exercise_source(const std::string& rel, std::string& stage, std::string& inside) {
  const std::string prefix = "exercises/";
  if (rel.rfind(prefix, 0) != 0) return false;
  const std::size_t slash = rel.find('/', prefix.size());
  if (slash == std::string::npos) return false;
  stage = rel.substr(prefix.size(), slash - prefix.size());
  inside = rel.substr(slash + 1);
  return is_marked_source(rel);
}

struct StudentRegion {
  std::string text;  // da abertura ao fim
  std::string file;  // relativo à raiz
  bool answered = false;
  bool used = false;
};

// As etapas e o catálogo de uma árvore, para refazer os stubs dela.
struct CourseView {
  StageList stages;
  Catalog catalog;
};

CourseView load_course_view(const fs::path& root, const std::string& label,
                            std::vector<std::string>& errors) {
  CourseView side;
  side.stages = read_stage_list(root);
  if (!side.stages.error.empty()) {
    errors.push_back(label + ": " + side.stages.error);
    return side;
  }
  side.catalog = read_catalog(root, side.stages);
  for (const std::string& e : side.catalog.errors) errors.push_back(label + ": " + e);
  return side;
}

// Os stubs de exercises/<stage>/ de uma árvore, por arquivo (relativo à etapa).
std::map<std::string, std::map<std::string, std::string>> stubs_of(const fs::path& root,
                                                                   const std::string& stage,
                                                                   const Catalog& catalog) {
  std::map<std::string, std::map<std::string, std::string>> stubs;
  for (PlannedFile& f : plan_from_exercises(root, stage, catalog).files) {
    stubs[f.rel] = std::move(f.stubs);
  }
  return stubs;
}

// O que a fusão de um fonte fez com as regiões; entra no relatório só se o
// arquivo de fato muda (uma resposta que fica onde estava não é notícia).
struct Moves {
  std::vector<RegionMove> carried;
  std::vector<RegionMove> released;
  std::vector<RegionMove> released_kept;
  std::vector<RegionMove> released_replaced;
  bool outside = false;
};

void append(std::vector<RegionMove>& to, const std::vector<RegionMove>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

bool executable(fs::perms p) { return (p & fs::perms::owner_exec) != fs::perms::none; }

struct Planned {
  std::string rel;
  std::string content;
  fs::perms perms;
  bool added = false;
};

class Updater {
 public:
  Updater(const fs::path& student, const fs::path& fresh, const UpdateOptions& options)
      : student_(student), fresh_(fresh), options_(options) {}

  UpdateReport run() {
    const CourseView mine = load_course_view(student_, "a sua cópia", report_.errors);
    const CourseView theirs = load_course_view(fresh_, "a versão nova", report_.errors);
    if (!report_.errors.empty()) return report_;
    const std::vector<std::string> fresh_files = list_files(fresh_);
    if (fresh_files.empty()) {
      report_.errors.push_back(fresh_.generic_string() + ": a versão nova está vazia");
      return report_;
    }
    const std::vector<std::string> student_files = list_files(student_);
    read_student_regions(mine.catalog);
    for (const std::string& rel : fresh_files) plan_file(rel, theirs.catalog);
    if (!report_.errors.empty()) return report_;

    const std::set<std::string> in_fresh(fresh_files.begin(), fresh_files.end());
    for (const std::string& rel : student_files) {
      if (in_fresh.count(rel) == 0) report_.kept.push_back(rel);
    }
    for (const auto& [stage, regions] : student_regions_) {
      for (const auto& [id, region] : regions) {
        if (region.answered && !region.used && in_fresh.count(region.file) > 0) {
          report_.orphaned.push_back({id, region.file});
        }
      }
    }
    write_all();
    return report_;
  }

 private:
  void read_student_regions(const Catalog& catalog) {
    std::error_code ec;
    if (!fs::is_directory(student_ / "exercises", ec)) return;
    for (const std::string& stage : list_stages(student_ / "exercises")) {
      const StagePlan plan = plan_from_exercises(student_, stage, catalog);
      for (const PlannedFile& f : plan.files) {
        const std::string rel = "exercises/" + stage + "/" + f.rel;
        const RegionScan scan = scan_regions(f.content, rel, Side::exercise);
        if (!scan.error.empty()) {
          report_.errors.push_back(scan.error +
                                   " (conserte os marcadores na sua cópia e rode de novo)");
          continue;
        }
        for (const Region& r : scan.regions) {
          const std::string text = region_text(scan, r);
          const auto stub = f.stubs.find(r.id);
          student_regions_[stage][r.id] = {text, rel,
                                           stub == f.stubs.end() || stub->second != text};
        }
      }
    }
  }

  void plan_file(const std::string& rel, const Catalog& catalog) {
    std::optional<std::string> content = read_file(fresh_ / rel);
    if (!content) {
      report_.errors.push_back("não consegui ler " + (fresh_ / rel).generic_string());
      return;
    }
    std::string stage;
    std::string inside;
    Moves moves;
    if (exercise_source(rel, stage, inside)) {
      content = merge_source(rel, stage, inside, *content, catalog, moves);
    }
    if (!content) return;
    const fs::path target = student_ / rel;
    std::error_code ec;
    fs::perms perms = fs::status(fresh_ / rel).permissions();
    const bool exists = fs::is_regular_file(target, ec);
    // Uma referência liberada que não entrou é notícia mesmo sem o arquivo mudar.
    append(report_.released_kept, moves.released_kept);
    if (exists) {
      // Como o git, só o bit de execução conta: o resto das permissões depende
      // da umask de quem extraiu, e fica como está na cópia do aluno.
      const fs::perms mine = fs::status(target).permissions();
      const bool same_exec = executable(mine) == executable(perms);
      if (same_exec) perms = mine;
      const std::optional<std::string> current = read_file(target);
      if (current && *current == *content && same_exec) return;
    } else if (fs::exists(fs::symlink_status(target, ec))) {
      report_.errors.push_back(rel +
                               ": na sua cópia isto não é um arquivo comum (pasta ou link); "
                               "mova-o e rode de novo");
      return;
    }
    planned_.push_back({rel, *content, perms, !exists});
    append(report_.carried, moves.carried);
    append(report_.released, moves.released);
    append(report_.released_replaced, moves.released_replaced);
    if (moves.outside) report_.outside.push_back(rel);
  }

  // O fonte novo com as respostas do aluno nas regiões de mesmo id.
  std::optional<std::string> merge_source(const std::string& rel, const std::string& stage,
                                          const std::string& inside, const std::string& text,
                                          const Catalog& catalog, Moves& moves) {
    const RegionScan scan = scan_regions(text, rel, Side::exercise);
    if (!scan.error.empty()) {
      report_.errors.push_back(scan.error + " (na versão nova)");
      return {};
    }
    if (fresh_stubs_.count(stage) == 0) fresh_stubs_[stage] = stubs_of(fresh_, stage, catalog);
    const std::map<std::string, std::string>& stubs = fresh_stubs_[stage][inside];
    std::map<std::string, StudentRegion>& mine = student_regions_[stage];

    std::string out;
    std::size_t next = 0;
    for (const Region& r : scan.regions) {
      for (; next < r.open; ++next) out += scan.lines[next];
      next = r.close + 1;
      const std::string current = region_text(scan, r);
      const auto stub = stubs.find(r.id);
      const bool released = stub != stubs.end() && stub->second != current;
      const auto found = mine.find(r.id);
      if (found == mine.end() || !found->second.answered) {
        if (released && found != mine.end()) moves.released.push_back({r.id, rel});
        out += current;
        continue;
      }
      StudentRegion& theirs = found->second;
      theirs.used = true;
      if (theirs.text == current) {
        out += current;
      } else if (released && options_.take_released) {
        moves.released_replaced.push_back({r.id, rel});
        out += current;
      } else {
        const std::string was_in = theirs.file != rel ? theirs.file : std::string();
        (released ? moves.released_kept : moves.carried).push_back({r.id, rel, {}, was_in});
        if (!was_in.empty()) note_own_left_behind(was_in, rel);
        out += theirs.text;
      }
    }
    for (; next < scan.lines.size(); ++next) out += scan.lines[next];

    // Fora das regiões, o arquivo do aluno era igual ao novo? E o código da
    // área // SEU-CODIGO dele vai para a área do arquivo novo.
    if (const std::optional<std::string> old = read_file(student_ / rel)) {
      const RegionScan before = scan_regions(*old, rel, Side::exercise);
      moves.outside = before.error.empty() && outside_regions(before) != outside_regions(scan);
      const std::string own = before.error.empty() ? own_body(before) : std::string();
      if (has_code(own)) {
        const RegionScan merged = scan_regions(out, rel, Side::exercise);
        if (!merged.own) {
          report_.orphaned.push_back({kOwnCode, rel});
        } else if (own_body(merged) != own) {
          out = with_own_body(merged, own);
          moves.carried.push_back({kOwnCode, rel});
        }
      }
    }
    return out;
  }

  // Uma resposta saiu de was_in para rel: se a área // SEU-CODIGO de was_in
  // tem código, o aluno fica sabendo (uma vez por par de arquivos).
  void note_own_left_behind(const std::string& was_in, const std::string& rel) {
    for (const RegionMove& m : report_.own_left_behind) {
      if (m.was_in == was_in && m.file == rel) return;
    }
    const std::optional<std::string> old = read_file(student_ / was_in);
    if (!old) return;
    const RegionScan scan = scan_regions(*old, was_in, Side::exercise);
    if (scan.error.empty() && has_code(own_body(scan))) {
      report_.own_left_behind.push_back({kOwnCode, rel, {}, was_in});
    }
  }

  // Cada arquivo vai primeiro para um temporário ao lado e depois é renomeado:
  // o ./hz que roda esta atualização é um dos arquivos trocados, e o bash
  // continua lendo o antigo, intacto, até o fim.
  void write_all() {
    for (const Planned& p : planned_) {
      const fs::path target = student_ / p.rel;
      const fs::path temp = target.string() + ".hz-update";
      std::error_code ec;
      fs::create_directories(target.parent_path(), ec);
      if (!write_file(temp, p.content)) {
        report_.errors.push_back(p.rel + ": não consegui escrever");
        continue;
      }
      fs::permissions(temp, p.perms, ec);
      fs::rename(temp, target, ec);
      if (ec) {
        report_.errors.push_back(p.rel + ": não consegui trocar o arquivo (" + ec.message() + ")");
        fs::remove(temp, ec);
        continue;
      }
      (p.added ? report_.added : report_.changed).push_back(p.rel);
    }
  }

  fs::path student_;
  fs::path fresh_;
  UpdateOptions options_;
  UpdateReport report_;
  std::map<std::string, std::map<std::string, StudentRegion>> student_regions_;
  std::map<std::string, std::map<std::string, std::map<std::string, std::string>>> fresh_stubs_;
  std::vector<Planned> planned_;
};

}  // namespace

UpdateReport update_course(const fs::path& student, const fs::path& fresh,
                           const UpdateOptions& options) {
  return Updater(student, fresh, options).run();
}

}  // namespace hz::course
