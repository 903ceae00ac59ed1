#include "hz/course/cli.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <ostream>
#include <system_error>

#include "hz/course/exercises.hpp"
#include "hz/course/junit.hpp"
#include "hz/course/lines.hpp"
#include "hz/course/listings.hpp"
#include "hz/course/stub_verdict.hpp"
#include "hz/course/trace_html.hpp"

namespace fs = std::filesystem;

namespace hz::course {
namespace {

constexpr const char* kUsage =
    "uso: hz-course <subcomando> [opções]\n"
    "\n"
    "subcomandos:\n"
    "  exercises --root DIR [--stage NN-nome] [--check]\n"
    "      gera exercises/NN a partir de solutions/NN (regiões de exercício viram stubs);\n"
    "      com --check não escreve nada e sai com 1 se exercises/ estiver desatualizado\n"
    "  listings --root DIR [--check | --update] [--from solutions|exercises]\n"
    "      confere (ou reescreve) as listagens de código do livro (livro/*.md); com\n"
    "      --from exercises, uma listagem de solutions/NN/... vem de exercises/NN/... (e,\n"
    "      com --update, o comentário passa a apontar para lá): o livro da cópia exportada\n"
    "      não mostra as respostas\n"
    "  passes-on-stubs --list ARQUIVO --junit ARQUIVO [--stage NN-nome]\n"
    "      julga um relatório JUnit do ctest rodado na trilha de exercícios: todo teste\n"
    "      precisa falhar, salvo os listados em tests/NN/passes-on-stubs.txt\n"
    "  progress --junit-dir DIR\n"
    "      resume DIR/<etapa>.xml (relatórios JUnit do ctest) em \"etapa: P/T testes passando\"\n"
    "  grade --junit ARQUIVO --stage NN-nome\n"
    "      a nota de uma etapa: \"NN-nome: P/T testes passando\"; sai com 0 só se todos passam\n"
    "  trace-html ARQUIVO.jsonl [--out ARQUIVO.html|-] [--title TÍTULO]\n"
    "      o trace de uma etapa (--trace) numa página HTML autocontida (padrão: ARQUIVO.html)\n"
    "  help\n"
    "      mostra esta ajuda\n";

// Opções "--nome valor" e "--bandeira"; o que sobrar é erro de uso.
struct Options {
  std::map<std::string, std::string> values;
  std::map<std::string, bool> flags;
  std::string error;
};

Options parse_options(const std::vector<std::string>& args, const std::vector<std::string>& valued,
                      const std::vector<std::string>& boolean) {
  Options o;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (std::find(valued.begin(), valued.end(), a) != valued.end()) {
      if (i + 1 >= args.size()) {
        o.error = "a opção " + a + " precisa de um valor";
        return o;
      }
      o.values[a] = args[++i];
    } else if (std::find(boolean.begin(), boolean.end(), a) != boolean.end()) {
      o.flags[a] = true;
    } else {
      o.error = "opção desconhecida para " + args[0] + ": " + a;
      return o;
    }
  }
  return o;
}

int usage_error(std::ostream& err, const std::string& message) {
  err << "hz-course: " << message << "\n" << "veja: hz-course help\n";
  return 2;
}

std::string plural(int n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

int cmd_exercises(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const Options o = parse_options(args, {"--root", "--stage"}, {"--check"});
  if (!o.error.empty()) return usage_error(err, o.error);
  const fs::path root = o.values.count("--root") ? fs::path(o.values.at("--root")) : fs::path(".");
  const bool check = o.flags.count("--check") > 0;

  if (!fs::is_directory(root / "solutions")) {
    return usage_error(err, "não achei " + (root / "solutions").generic_string() +
                                " (--root deve ser a raiz do repositório)");
  }
  std::vector<std::string> stages = list_stages(root / "solutions");
  if (o.values.count("--stage")) {
    const std::string& wanted = o.values.at("--stage");
    if (std::find(stages.begin(), stages.end(), wanted) == stages.end()) {
      return usage_error(err, "etapa desconhecida: " + wanted + " (não existe solutions/" + wanted + ")");
    }
    stages = {wanted};
  }

  // Primeiro tudo é planejado; com qualquer erro de marcador nada é escrito.
  std::vector<StagePlan> plans;
  std::vector<std::string> errors;
  for (const std::string& stage : stages) {
    plans.push_back(plan_stage(root, stage));
    for (const std::string& e : plans.back().errors) errors.push_back(e);
  }
  if (!errors.empty()) {
    for (const std::string& e : errors) err << e << "\n";
    err << "hz-course: erro nos marcadores de exercício; nada foi escrito\n";
    return 2;
  }

  // Etapas que sumiram de solutions/ (só quando todas são geradas).
  std::vector<std::string> orphans;
  if (!o.values.count("--stage")) {
    for (const std::string& s : list_stages(root / "exercises")) {
      if (std::find(stages.begin(), stages.end(), s) == stages.end()) orphans.push_back(s);
    }
  }

  std::vector<std::vector<Drift>> drifts;
  bool any = !orphans.empty();
  for (const StagePlan& plan : plans) {
    drifts.push_back(compare_stage(root, plan));
    any = any || !drifts.back().empty();
  }

  if (check) {
    if (!any) {
      for (const StagePlan& plan : plans) {
        out << "exercises/" << plan.stage << ": em dia ("
            << plural(plan.exercises, "exercício", "exercícios") << " em "
            << plural(static_cast<int>(plan.files.size()), "arquivo", "arquivos") << ")\n";
      }
      return 0;
    }
    err << "exercises/ está desatualizado: rode ./hz exercises-gen\n";
    for (const std::vector<Drift>& drift : drifts) {
      for (const Drift& d : drift) {
        switch (d.kind) {
          case Drift::Kind::missing: err << "  falta: " << d.path << "\n"; break;
          case Drift::Kind::differs: err << "  difere: " << d.path << "\n"; break;
          case Drift::Kind::mode: err << "  permissões diferem: " << d.path << "\n"; break;
          case Drift::Kind::extra: err << "  sobrando: " << d.path << "\n"; break;
        }
      }
    }
    for (const std::string& s : orphans) {
      err << "  sobrando: exercises/" << s << "/ (não existe solutions/" << s << ")\n";
    }
    return 1;
  }

  for (const std::string& s : orphans) {
    fs::remove_all(root / "exercises" / s);
    out << "  removido: exercises/" << s << "/\n";
  }
  for (std::size_t i = 0; i < plans.size(); ++i) {
    apply_stage(root, plans[i], drifts[i]);
    int written = 0;
    int removed = 0;
    for (const Drift& d : drifts[i]) {
      if (d.kind == Drift::Kind::extra) {
        ++removed;
        out << "  removido: " << d.path << "\n";
      } else {
        ++written;
        out << "  escrito: " << d.path << "\n";
      }
    }
    out << "exercises/" << plans[i].stage << ": "
        << plural(plans[i].exercises, "exercício", "exercícios") << " em "
        << plural(static_cast<int>(plans[i].files.size()), "arquivo", "arquivos");
    if (written + removed == 0) {
      out << " (já estava em dia)\n";
    } else {
      out << " (" << plural(written, "escrito", "escritos") << ", "
          << plural(removed, "removido", "removidos") << ")\n";
    }
  }
  return 0;
}

int cmd_listings(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const Options o = parse_options(args, {"--root", "--from"}, {"--check", "--update"});
  if (!o.error.empty()) return usage_error(err, o.error);
  const bool update = o.flags.count("--update") > 0;
  if (update && o.flags.count("--check")) return usage_error(err, "use --check ou --update, não os dois");
  const fs::path root = o.values.count("--root") ? fs::path(o.values.at("--root")) : fs::path(".");
  if (!fs::is_directory(root)) return usage_error(err, "a raiz " + root.generic_string() + " não existe");
  ListingSource source = ListingSource::solutions;
  if (o.values.count("--from")) {
    const std::string& from = o.values.at("--from");
    if (from == "exercises") {
      source = ListingSource::exercises;
    } else if (from != "solutions") {
      return usage_error(err, "--from deve ser solutions ou exercises (veio: " + from + ")");
    }
  }

  const ListingReport report = check_listings(root, update, source);
  for (const std::string& f : report.files_updated) out << "  atualizado: " << f << "\n";
  std::string summary = plural(report.checked, "listagem conferida", "listagens conferidas");
  if (update) summary += ", " + plural(report.updated, "atualizada", "atualizadas");
  if (report.problems.empty()) {
    out << summary << "\n";
    return 0;
  }
  for (const std::string& p : report.problems) err << p << "\n";
  err << summary << "; há listagens que não batem com o código";
  err << (update ? " (corrija o caminho ou a região)\n" : ": rode ./hz listings --update\n");
  return 1;
}

int cmd_passes_on_stubs(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const Options o = parse_options(args, {"--list", "--junit", "--stage"}, {});
  if (!o.error.empty()) return usage_error(err, o.error);
  if (!o.values.count("--junit")) return usage_error(err, "falta --junit ARQUIVO");
  if (!o.values.count("--list")) return usage_error(err, "falta --list ARQUIVO");
  const std::string list_path = o.values.at("--list");
  const std::string junit_path = o.values.at("--junit");
  const std::string label = o.values.count("--stage") ? o.values.at("--stage") : junit_path;

  const std::optional<std::string> xml = read_file(junit_path);
  if (!xml) return usage_error(err, "não consegui ler o relatório JUnit " + junit_path);
  const JunitReport report = parse_junit(*xml);
  if (!report.error.empty()) return usage_error(err, junit_path + ": " + report.error);

  // Sem lista, nenhum teste pode passar com os stubs.
  std::error_code ec;
  AllowList allow;
  if (fs::exists(list_path, ec)) {
    const std::optional<std::string> text = read_file(list_path);
    if (!text) return usage_error(err, "não consegui ler " + list_path);
    allow = parse_allow_list(*text, list_path);
    if (!allow.error.empty()) {
      err << allow.error << "\n";
      return 2;
    }
  }

  const Verdict v = judge_stubs(report.tests, allow);
  if (v.ok) {
    out << label << ": " << plural(v.total, "teste", "testes") << "; "
        << v.failing << (v.failing == 1 ? " falha" : " falham") << " com os stubs, "
        << v.allowed_passing
        << (v.allowed_passing == 1 ? " passa e está na lista\n" : " passam e estão na lista\n");
    return 0;
  }
  for (const std::string& p : v.problems) err << p << "\n";
  err << label << ": todo teste da etapa precisa falhar com os stubs, ou estar justificado em "
      << list_path << "\n";
  return 1;
}

int cmd_progress(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const Options o = parse_options(args, {"--junit-dir"}, {});
  if (!o.error.empty()) return usage_error(err, o.error);
  if (!o.values.count("--junit-dir")) return usage_error(err, "falta --junit-dir DIR");
  const fs::path dir = o.values.at("--junit-dir");
  std::vector<fs::path> reports;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    if (e.is_regular_file() && e.path().extension() == ".xml") reports.push_back(e.path());
  }
  if (ec) return usage_error(err, "não consegui ler a pasta " + dir.generic_string());
  std::sort(reports.begin(), reports.end());

  int all_passed = 0;
  int all_total = 0;
  for (const fs::path& p : reports) {
    const std::optional<std::string> xml = read_file(p);
    const JunitReport report = xml ? parse_junit(*xml) : JunitReport{{}, "não consegui ler"};
    if (!report.error.empty()) {
      err << p.generic_string() << ": " << report.error << "\n";
      return 2;
    }
    const Score s = score(report);
    out << score_line(p.stem().string(), s) << "\n";
    all_passed += s.passed;
    all_total += s.total;
  }
  out << score_line("total", {all_passed, all_total}) << "\n";
  return 0;
}

// A nota de uma etapa na correção (./hz grade). Nenhum teste rodando é
// reprovação: um build que não registrou testes não pode passar calado.
int cmd_grade(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const Options o = parse_options(args, {"--junit", "--stage"}, {});
  if (!o.error.empty()) return usage_error(err, o.error);
  if (!o.values.count("--junit")) return usage_error(err, "falta --junit ARQUIVO");
  if (!o.values.count("--stage")) return usage_error(err, "falta --stage NN-nome");
  const std::string junit_path = o.values.at("--junit");
  const std::string& stage = o.values.at("--stage");
  const std::optional<std::string> xml = read_file(junit_path);
  if (!xml) return usage_error(err, "não consegui ler o relatório JUnit " + junit_path);
  const JunitReport report = parse_junit(*xml);
  if (!report.error.empty()) return usage_error(err, junit_path + ": " + report.error);
  const Score s = score(report);
  out << score_line(stage, s) << "\n";
  if (s.total == 0) {
    err << stage << ": nenhum teste rodou (o rótulo " << stage << " não tem testes?)\n";
    return 1;
  }
  return s.passed == s.total ? 0 : 1;
}

}  // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    err << kUsage;
    return 2;
  }
  const std::string& command = args[0];
  try {
    if (command == "exercises") return cmd_exercises(args, out, err);
    if (command == "listings") return cmd_listings(args, out, err);
    if (command == "passes-on-stubs") return cmd_passes_on_stubs(args, out, err);
    if (command == "progress") return cmd_progress(args, out, err);
    if (command == "grade") return cmd_grade(args, out, err);
    if (command == "trace-html") return trace_html_command(args, out, err);
  } catch (const fs::filesystem_error& e) {
    // Disco cheio, permissão negada: erro de ambiente, não de uso.
    err << "hz-course: erro de arquivo: " << e.what() << "\n";
    return 1;
  }
  if (command == "help" || command == "--help" || command == "-h") {
    out << kUsage;
    return 0;
  }
  return usage_error(err, "subcomando desconhecido: " + command);
}

}  // namespace hz::course
