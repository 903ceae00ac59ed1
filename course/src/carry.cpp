#include "hz/course/carry.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

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

// As etapas anteriores ao destino, da mais próxima para a mais antiga, lidas
// só quando uma região precisa delas: marcadores quebrados numa etapa antiga
// só viram erro se o carry teve de olhar para ela.
class EarlierStages {
 public:
  EarlierStages(const fs::path& root, const std::vector<StagePlan>& plans)
      : root_(root), plans_(plans), regions_(plans.size()), own_(plans.size()) {}

  std::size_t size() const { return plans_.size(); }
  const std::string& stage(std::size_t k) const { return plans_[k].stage; }

  // A região `id` em exercises/<etapa k>, se ela existe lá.
  const FoundRegion* region(std::size_t k, const std::string& id,
                            std::vector<std::string>& errors) {
    if (!regions_[k]) regions_[k] = regions_of(root_, plans_[k], errors);
    const auto found = regions_[k]->find(id);
    return found == regions_[k]->end() ? nullptr : &found->second;
  }

  // O código da área // SEU-CODIGO de cada arquivo de exercises/<etapa k>.
  const std::map<std::string, FoundRegion>& own(std::size_t k) {
    if (!own_[k]) own_[k] = own_code_of(root_, plans_[k]);
    return *own_[k];
  }

 private:
  const fs::path& root_;
  const std::vector<StagePlan>& plans_;
  std::vector<std::optional<std::map<std::string, FoundRegion>>> regions_;
  std::vector<std::optional<std::map<std::string, FoundRegion>>> own_;
};

// O que o destino recebe numa região que ainda é o stub: a resposta da etapa
// anterior mais próxima que a tem. Sem resposta em nenhuma, a região entra em
// not_answered com o arquivo da etapa mais antiga que a tem (a do exercício,
// onde o aluno a escreve).
std::string carried_region(EarlierStages& earlier, const Region& r, const std::string& current,
                           const std::string& shown, CarryReport& report) {
  const FoundRegion* oldest = nullptr;
  for (std::size_t k = 0; k < earlier.size(); ++k) {
    const FoundRegion* source = earlier.region(k, r.id, report.errors);
    if (source == nullptr) break;  // a região nasceu depois desta etapa
    if (source->answered) {
      report.carried.push_back({r.id, shown, earlier.stage(k)});
      return source->text;
    }
    oldest = source;
    if (earlier.stage(k) == r.stage) break;  // a etapa do exercício: antes dela, não há
  }
  if (oldest != nullptr) report.not_answered.push_back({r.id, oldest->file});
  return current;
}

// O código da área // SEU-CODIGO de um arquivo vem da etapa anterior mais
// próxima que tem código nela. De uma etapa mais antiga que a imediatamente
// anterior, só se alguma região do mesmo arquivo também veio de lá ou de
// antes: as funções auxiliares vão junto com as respostas que as usam, e uma
// área que o aluno esvaziou de propósito na etapa anterior continua vazia.
std::optional<std::size_t> own_code_source(EarlierStages& earlier, const std::string& rel,
                                           const std::string& shown, const CarryReport& report) {
  for (std::size_t k = 0; k < earlier.size(); ++k) {
    if (!earlier.own(k).count(rel)) continue;
    if (k == 0) return k;
    for (const RegionMove& m : report.carried) {
      if (m.file != shown || m.id == kOwnCode) continue;
      for (std::size_t j = k; j < earlier.size(); ++j) {
        if (m.from == earlier.stage(j)) return k;
      }
    }
    return std::nullopt;
  }
  return std::nullopt;
}

// Leva o código da área do aluno para a área vazia do arquivo de mesmo nome
// no destino.
void carry_own_code(const fs::path& root, const StagePlan& to_plan, EarlierStages& earlier,
                    CarryReport& report) {
  std::set<std::string> files;
  for (std::size_t k = 0; k < earlier.size(); ++k) {
    for (const auto& entry : earlier.own(k)) files.insert(entry.first);
  }
  for (const std::string& rel : files) {
    const fs::path path = root / "exercises" / to_plan.stage / rel;
    const std::string shown = display_path(root, path);
    const std::optional<std::size_t> k = own_code_source(earlier, rel, shown, report);
    if (!k) continue;
    const FoundRegion& source = earlier.own(*k).at(rel);
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
    report.carried.push_back({kOwnCode, shown, earlier.stage(*k)});
  }
}

}  // namespace

CarryReport carry_answers(const fs::path& root, const std::vector<StagePlan>& earlier_plans,
                          const StagePlan& to_plan) {
  CarryReport report;
  EarlierStages earlier(root, earlier_plans);
  for (const PlannedFile& f : to_plan.files) {
    if (!is_marked_source(f.rel)) continue;
    const fs::path path = root / "exercises" / to_plan.stage / f.rel;
    const std::string shown = display_path(root, path);
    rewrite_regions(
        path, shown,
        [&](const Region& r, const std::string& current) {
          if (earlier.size() == 0 || earlier.region(0, r.id, report.errors) == nullptr) {
            return current;  // exercício novo desta etapa
          }
          const auto stub = f.stubs.find(r.id);
          if (stub == f.stubs.end() || stub->second != current) {
            report.already_written.push_back({r.id, shown});
            return current;
          }
          return carried_region(earlier, r, current, shown, report);
        },
        report.errors);
  }
  carry_own_code(root, to_plan, earlier, report);
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
