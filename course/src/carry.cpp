#include "hz/course/carry.hpp"

#include <algorithm>
#include <map>

#include "hz/course/lines.hpp"
#include "hz/course/regions.hpp"

namespace fs = std::filesystem;

namespace hz::course {
namespace {

struct FoundRegion {
  std::string text;  // da abertura ao fim, como está no arquivo
  std::string file;
  bool answered = false;  // difere do stub gerado
};

// As regiões de exercises/<plan.stage>, por id.
std::map<std::string, FoundRegion> regions_of(const fs::path& root, const StagePlan& plan,
                                              std::vector<std::string>& errors) {
  std::map<std::string, FoundRegion> found;
  for (const PlannedFile& f : plan.files) {
    // Um fonte sem stubs no plano ainda é lido: marcadores quebrados aparecem.
    if (!is_marked_source(f.rel)) continue;
    const fs::path path = root / "exercises" / plan.stage / f.rel;
    const std::string shown = display_path(root, path);
    const std::optional<std::string> text = read_file(path);
    if (!text) continue;
    const RegionScan scan = scan_regions(*text, shown, Side::exercise);
    if (!scan.error.empty()) {
      errors.push_back(scan.error);
      continue;
    }
    for (const Region& r : scan.regions) {
      const auto stub = f.stubs.find(r.id);
      const std::string current = region_text(scan, r);
      found[r.id] = {current, shown, stub == f.stubs.end() || stub->second != current};
    }
  }
  return found;
}

// Reescreve as regiões de um arquivo: replacement(id, texto atual) devolve o
// texto novo da região (ou o mesmo, para deixá-la).
template <class Replace>
bool rewrite_regions(const fs::path& path, const std::string& shown, Replace replacement,
                     std::vector<std::string>& errors) {
  const std::optional<std::string> text = read_file(path);
  if (!text) return false;
  const RegionScan scan = scan_regions(*text, shown, Side::exercise);
  if (!scan.error.empty()) {
    errors.push_back(scan.error);
    return false;
  }
  std::string out;
  std::size_t next = 0;
  bool changed = false;
  for (const Region& r : scan.regions) {
    for (; next < r.open; ++next) out += scan.lines[next];
    const std::string current = region_text(scan, r);
    const std::string wanted = replacement(r, current);
    changed = changed || wanted != current;
    out += wanted;
    next = r.close + 1;
  }
  for (; next < scan.lines.size(); ++next) out += scan.lines[next];
  if (changed && !write_file(path, out)) {
    errors.push_back(shown + ": não consegui escrever o arquivo");
    return false;
  }
  return changed;
}

}  // namespace

namespace {

// O código das áreas // SEU-CODIGO de exercises/<plan.stage>, por arquivo
// (relativo à etapa); só as que têm código.
std::map<std::string, FoundRegion> own_code_of(const fs::path& root, const StagePlan& plan) {
  std::map<std::string, FoundRegion> found;
  for (const PlannedFile& f : plan.files) {
    if (!is_marked_source(f.rel)) continue;
    const fs::path path = root / "exercises" / plan.stage / f.rel;
    const std::optional<std::string> text = read_file(path);
    if (!text) continue;
    const RegionScan scan = scan_regions(*text, display_path(root, path), Side::exercise);
    if (!scan.error.empty() || !has_code(own_body(scan))) continue;
    found[f.rel] = {own_body(scan), display_path(root, path), true};
  }
  return found;
}

// Leva o código da área do aluno de `from` para a área vazia do arquivo de
// mesmo nome na etapa seguinte.
void carry_own_code(const fs::path& root, const StagePlan& to_plan,
                    const std::map<std::string, FoundRegion>& from, CarryReport& report) {
  for (const auto& [rel, source] : from) {
    const fs::path path = root / "exercises" / to_plan.stage / rel;
    const std::string shown = display_path(root, path);
    const std::optional<std::string> text = read_file(path);
    const RegionScan scan = text ? scan_regions(*text, shown, Side::exercise) : RegionScan{};
    if (!text || !scan.error.empty() || !scan.own) {
      report.own_left.push_back({kOwnCode, source.file});
      continue;
    }
    const std::string current = own_body(scan);
    if (current == source.text) continue;
    if (has_code(current)) {
      report.already_written.push_back({kOwnCode, shown});
      continue;
    }
    if (!write_file(path, with_own_body(scan, source.text))) {
      report.errors.push_back(shown + ": não consegui escrever o arquivo");
      continue;
    }
    report.carried.push_back({kOwnCode, shown});
  }
}

}  // namespace

CarryReport carry_answers(const fs::path& root, const StagePlan& from_plan,
                          const StagePlan& to_plan) {
  CarryReport report;
  const std::map<std::string, FoundRegion> from = regions_of(root, from_plan, report.errors);
  const std::map<std::string, FoundRegion> own = own_code_of(root, from_plan);
  for (const PlannedFile& f : to_plan.files) {
    if (!is_marked_source(f.rel)) continue;
    const fs::path path = root / "exercises" / to_plan.stage / f.rel;
    const std::string shown = display_path(root, path);
    rewrite_regions(
        path, shown,
        [&](const Region& r, const std::string& current) {
          const auto source = from.find(r.id);
          if (source == from.end()) return current;  // exercício novo desta etapa
          const auto stub = f.stubs.find(r.id);
          if (stub == f.stubs.end() || stub->second != current) {
            report.already_written.push_back({r.id, shown});
            return current;
          }
          if (!source->second.answered) {
            report.not_answered.push_back({r.id, source->second.file});
            return current;
          }
          report.carried.push_back({r.id, shown});
          return source->second.text;
        },
        report.errors);
  }
  carry_own_code(root, to_plan, own, report);
  return report;
}

namespace {

// As regiões de exercises/<plan.stage> que `wanted` escolhe recebem a resposta de referência.
template <class Wanted>
CarryReport fill_regions(const fs::path& root, const StagePlan& plan, Wanted wanted) {
  CarryReport report;
  for (const PlannedFile& f : plan.files) {
    if (f.stubs.empty()) continue;
    const fs::path path = root / "exercises" / plan.stage / f.rel;
    const std::string shown = display_path(root, path);
    rewrite_regions(
        path, shown,
        [&](const Region& r, const std::string& current) {
          if (!wanted(r)) return current;
          const auto filled = f.filled.find(r.id);
          if (filled == f.filled.end()) return current;
          report.carried.push_back({r.id, shown});
          return filled->second;
        },
        report.errors);
  }
  return report;
}

}  // namespace

CarryReport fill_reference(const fs::path& root, const StagePlan& plan) {
  return fill_regions(root, plan, [&plan](const Region& r) { return r.stage != plan.stage; });
}

CarryReport release_reference(const fs::path& root, const StagePlan& plan,
                              const std::vector<std::string>& stages) {
  return fill_regions(root, plan, [&stages](const Region& r) {
    return std::find(stages.begin(), stages.end(), r.stage) != stages.end();
  });
}

}  // namespace hz::course
