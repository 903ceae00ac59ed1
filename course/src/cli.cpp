#include "hz/course/cli.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <system_error>

#include <nlohmann/json.hpp>

#include "hz/cli.hpp"
#include "hz/course/carry.hpp"
#include "hz/course/catalog.hpp"
#include "hz/course/counts.hpp"
#include "hz/course/exercises.hpp"
#include "hz/course/grades_csv.hpp"
#include "hz/course/junit.hpp"
#include "hz/course/lines.hpp"
#include "hz/course/listings.hpp"
#include "hz/course/outputs.hpp"
#include "hz/course/progress.hpp"
#include "hz/course/quotes.hpp"
#include "hz/course/stage_diff.hpp"
#include "hz/course/stub_verdict.hpp"
#include "hz/course/student_docs.hpp"
#include "hz/course/trace_html.hpp"
#include "hz/course/update.hpp"
#include "hz/trace_words.hpp"
#include "hz/version.hpp"

namespace fs = std::filesystem;

namespace hz::course {
namespace {

constexpr const char* kUsage =
    "uso: hz-course <subcomando> [opções]\n"
    "\n"
    "subcomandos:\n"
    "  exercises --root DIR [--stage NN-nome] [--check | --force | --proof-out DIR]\n"
    "      gera exercises/NN a partir de solutions/NN (as regiões de exercício de todas as\n"
    "      etapas até NN viram stubs); recusa sobrescrever código que não é um stub gerado,\n"
    "      a não ser com --force; com --check não escreve nada e sai com 1 se exercises/\n"
    "      difere; com --proof-out escreve em DIR/NN a versão da prova da CI (a resposta,\n"
    "      com um throw antes dela ligado pela variável HZ_STUB=<id>)\n"
    "  listings --root DIR [--check | --update] [--from solutions|exercises]\n"
    "      confere (ou reescreve) as listagens de código do livro (livro/*.md); com\n"
    "      --from exercises, uma listagem de solutions/NN/... vem de exercises/NN/... (e,\n"
    "      com --update, o comentário passa a apontar para lá): o livro da cópia exportada\n"
    "      não mostra as respostas\n"
    "  passes-on-stubs --list ARQUIVO --junit ARQUIVO [--stage NN-nome] [--only-stub-failures]\n"
    "      julga um relatório JUnit do ctest rodado na trilha de exercícios: todo teste\n"
    "      precisa falhar, salvo os listados em tests/NN/passes-on-stubs.txt; com\n"
    "      --only-stub-failures, só pelo stub (o que ./hz test mostra como \"ainda é o stub\")\n"
    "  report --root DIR --stage NN-nome --junit ARQUIVO --tests-json ARQUIVO\n"
    "      o resumo de uma etapa exercício por exercício, as falhas de verdade do primeiro\n"
    "      exercício com falhas e o próximo passo (--junit: ctest --output-junit;\n"
    "      --tests-json: ctest --show-only=json-v1, que traz os rótulos de cada teste)\n"
    "  progress --root DIR --junit-dir DIR\n"
    "      uma linha por etapa com relatório em DIR (<etapa>.xml e <etapa>.json) e o próximo "
    "passo\n"
    "  hint --root DIR --state ARQUIVO [--exercise ID | --junit-dir DIR] [--reset]\n"
    "      a próxima dica do exercício (sem --exercise: o primeiro que não passou no resultado\n"
    "      mais novo guardado em DIR, da etapa ou dele mesmo)\n"
    "  counts --root DIR --tests-json ARQUIVO\n"
    "      confere cada \"N testes\" dos documentos com o ctest (ARQUIVO: a saída de\n"
    "      ctest --show-only=json-v1); o parágrafo nomeia o rótulo com ./hz test ROTULO;\n"
    "      numa nota \"ETAPA: P/T testes\" (também no course/export/GRADING.md), T é o\n"
    "      número de testes da etapa e P é 0, T ou o de tests/ETAPA/passes-on-stubs.txt\n"
    "  quotes --root DIR\n"
    "      confere cada mensagem de erro citada nos documentos (`erro: ...`, `hz-04-journal:\n"
    "      ...`) com os literais dos testes de tests/: algum teste precisa afirmar o texto\n"
    "  list --root DIR [--stage NN-nome]\n"
    "      os exercícios: id, etapa e a seção do livro, um por linha\n"
    "  carry --root DIR --to NN-nome [--reference CURSO]\n"
    "      leva as respostas do aluno para as regiões de mesmo id em exercises/NN que\n"
    "      ainda são o stub gerado, cada uma da etapa anterior mais próxima que a tem\n"
    "  fill --root CÓPIA --reference CURSO --stage NN-nome\n"
    "      na correção: as regiões das etapas anteriores recebem a resposta de referência\n"
    "  release --root CÓPIA --reference CURSO --stages NN-nome[,NN-nome...]\n"
    "      na cópia dos alunos (./hz export --release): as regiões dessas etapas recebem a\n"
    "      resposta de referência, em todas as pastas de exercises/ em que aparecem\n"
    "  update --root CÓPIA --from VERSÃO-NOVA [--take-released]\n"
    "      traz a versão nova do curso para a cópia de um aluno: todo arquivo é trocado, menos\n"
    "      o código do aluno nas regiões de exercises/, levado pela região de mesmo id; com\n"
    "      --take-released, a referência liberada substitui também o que o aluno escreveu\n"
    "  stages --root DIR [--check | --update] [--tree solutions|exercises]\n"
    "      confere que cada etapa só difere da anterior nos arquivos de etapas/stages.txt\n"
    "      e que livro/diffs/NN.diff é o diff de verdade (com --update, reescreve os diffs)\n"
    "  outputs --root DIR [--check | --update] [--chapter ARQUIVO.md] [--bin DIR]\n"
    "      roda os comandos dos blocos <!-- output: ... --> do livro e confere a saída;\n"
    "      com --bin, o bin/ dos comandos é DIR (o build que se quer conferir)\n"
    "  grade (--junit ARQUIVO | --not-built) --stage NN-nome [--csv ARQUIVO --student NOME]\n"
    "      a nota de uma etapa: \"NN-nome: P/T testes passando\"; sai com 0 só se todos passam;\n"
    "      --not-built: o código não compilou (0 testes); --csv acrescenta a linha\n"
    "      \"aluno,etapa,passando,total,nota\" ao arquivo (com o cabeçalho, se ele é novo)\n"
    "  student-docs --root CÓPIA\n"
    "      na cópia dos alunos (./hz export): cada .md perde o que está entre\n"
    "      <!-- curso-completo --> e <!-- fim-curso-completo --> e ganha o texto de cada\n"
    "      <!-- copia-do-aluno: TEXTO -->\n"
    "  doc-refs --root DIR [--teacher ARQ[,ARQ...] --full-course CURSO]\n"
    "      confere que todo link relativo e todo script ou workflow citado em `código` nos\n"
    "      .md de DIR existe; imprime cada ./hz SUB citado (\"aluno\" ou \"professor\",\n"
    "      ARQUIVO:LINHA e SUB, separados por tabulação) para quem chama conferir o\n"
    "      subcomando; nos documentos do professor (--teacher), um caminho pode existir só\n"
    "      no CURSO completo\n"
    "  trace-html ARQUIVO.jsonl [--out ARQUIVO.html|-] [--title TÍTULO] [--otlp ARQUIVO.json|-]\n"
    "      o trace de uma etapa (--trace) numa página HTML autocontida (padrão: ARQUIVO.html);\n"
    "      com --otlp, também em OTLP/JSON (a página só sai com --out também)\n"
    "  help\n"
    "      mostra esta ajuda\n"
    "  --version\n"
    "      mostra a versão\n";

// As opções de um subcomando, lidas pelo FlagParser de todo executável do
// curso ("--nome valor", "--nome=valor" ou "--bandeira"); o que sobrar é erro
// de uso.
struct Options {
  std::map<std::string, std::string> values;  // só as opções que vieram
  std::map<std::string, bool> flags;

  bool has(const std::string& name) const { return values.count(name) > 0; }
  const std::string& at(const std::string& name) const { return values.at(name); }
  std::string get(const std::string& name, const std::string& fallback = "") const {
    return has(name) ? at(name) : fallback;
  }
  bool flag(const std::string& name) const { return flags.count(name) > 0; }
  fs::path root() const { return get("--root", "."); }
};

// Um subcomando: as opções que aceita e o que faz com elas. Uma opção de
// `required` é escrita com o valor que espera ("--junit ARQUIVO"), que a
// mensagem de quando ela falta repete.
struct Command {
  const char* name;
  std::vector<std::string> valued;
  std::vector<std::string> required;
  std::vector<std::string> boolean;
  int (*run)(const Options&, std::ostream& out, std::ostream& err);
};

// A mensagem de uso do hz-course para um argumento recusado pelo FlagParser.
std::string option_error(const std::string& command, const FlagError& error) {
  switch (error.kind) {
    case FlagError::Kind::unexpected_argument:
      return "opção desconhecida para " + command + ": " + error.value;
    case FlagError::Kind::unknown_flag:
      return "opção desconhecida para " + command + ": --" + error.flag;
    case FlagError::Kind::missing_value:
      return "a opção --" + error.flag + " precisa de um valor";
    case FlagError::Kind::value_not_allowed:
    case FlagError::Kind::bad_value:
      break;
  }
  return error.message;
}

// As opções de args (args[0] é o subcomando), ou a mensagem de uso em `error`.
Options parse_options(const Command& command, const std::vector<std::string>& args,
                      std::string& error) {
  FlagParser parser(std::string("hz-course ") + command.name, "");
  parser.disable_help();
  std::vector<std::string> valued = command.valued;
  for (const std::string& spec : command.required) valued.push_back(spec.substr(0, spec.find(' ')));
  std::map<std::string, std::string> values;
  std::map<std::string, bool> flags;
  for (const std::string& name : valued) parser.add_string(name, &values[name], "");
  for (const std::string& name : command.boolean) parser.add_bool(name, &flags[name], "");
  Options o;
  const auto parsed = parser.parse(std::vector<std::string>(args.begin() + 1, args.end()));
  if (!parsed) {
    error = option_error(command.name, parsed.error());
    return o;
  }
  for (const std::string& name : valued) {
    if (parser.seen(name)) o.values[name] = values[name];
  }
  for (const std::string& name : command.boolean) {
    if (parser.seen(name)) o.flags[name] = true;
  }
  for (const std::string& spec : command.required) {
    if (!o.has(spec.substr(0, spec.find(' ')))) {
      error = "falta " + spec;
      break;
    }
  }
  return o;
}

// Escreve cada erro numa linha; diz se havia algum.
bool print_errors(const std::vector<std::string>& errors, std::ostream& err) {
  for (const std::string& e : errors) err << e << "\n";
  return !errors.empty();
}

int usage_error(std::ostream& err, const std::string& message) {
  err << "hz-course: " << message << "\n"
      << "veja: hz-course help\n";
  return 2;
}

using hz::words::plural;

// O que todo subcomando que mexe com etapas precisa: a lista e o catálogo.
struct Course {
  StageList stages;
  Catalog catalog;
  std::vector<std::string> errors;
};

Course load_course(const fs::path& root) {
  Course c;
  c.stages = read_stage_list(root);
  if (!c.stages.error.empty()) {
    c.errors.push_back(c.stages.error);
    return c;
  }
  c.catalog = read_catalog(root, c.stages);
  c.errors = c.catalog.errors;
  return c;
}

// O arquivo como está no último commit (HEAD) do repositório em `root`, se
// há git e o arquivo está lá.
std::optional<std::string> committed(const fs::path& root, const std::string& rel) {
  return command_output("git -C " + shell_quote(root.string()) + " show " +
                        shell_quote("HEAD:./" + rel) + " 2>/dev/null </dev/null");
}

// Cada etapa planejada, com os stubs (ou a prova, com proof); os erros de
// marcador de todas vão para `errors`, e então nada deve ser escrito.
std::vector<StagePlan> plan_stages(const fs::path& root, const std::vector<std::string>& stages,
                                   const Course& course, bool proof,
                                   std::vector<std::string>& errors) {
  std::vector<StagePlan> plans;
  for (const std::string& stage : stages) {
    plans.push_back(plan_stage(root, stage, course.stages, course.catalog,
                               proof ? StubMode::proof : StubMode::stubs));
    for (const std::string& e : plans.back().errors) errors.push_back(e);
  }
  return plans;
}

// As pastas de exercises/ cuja etapa não está em `stages`.
std::vector<std::string> orphan_stages(const fs::path& root,
                                       const std::vector<std::string>& stages) {
  std::vector<std::string> orphans;
  for (const std::string& s : list_stages(root / "exercises")) {
    if (std::find(stages.begin(), stages.end(), s) == stages.end()) orphans.push_back(s);
  }
  return orphans;
}

// O que difere entre exercises/ e o plano, etapa a etapa.
std::vector<std::vector<Drift>> drifts_of(const fs::path& root, const std::vector<StagePlan>& plans,
                                          const Course& course) {
  std::vector<std::vector<Drift>> drifts;
  for (const StagePlan& plan : plans) {
    // O que o gerador escreveu da solução do último commit: um exercício
    // igual a isso, fora das regiões, é só a geração anterior.
    const StubContext ctx{plan.stage, course.stages.up_to(plan.stage), &course.catalog,
                          StubMode::stubs};
    const auto previous = [&](const std::string& rel) -> std::optional<std::string> {
      const std::string path = "solutions/" + plan.stage + "/" + rel;
      const std::optional<std::string> text = committed(root, path);
      if (!text) return std::nullopt;
      StubbedFile stubbed = stub_out(*text, path, ctx);
      if (!stubbed.error.empty()) return std::nullopt;
      return std::move(stubbed.text);
    };
    drifts.push_back(compare_stage(root, plan, previous));
  }
  return drifts;
}

const char* drift_label(Drift::Kind kind) {
  switch (kind) {
    case Drift::Kind::missing:
      return "falta";
    case Drift::Kind::differs:
      return "difere";
    case Drift::Kind::mode:
      return "permissões diferem";
    case Drift::Kind::extra:
      return "sobrando";
  }
  return "difere";
}

// exercises --check: 0 em dia, 1 com diferenças (listadas em err).
int check_exercises(const fs::path& root, const Course& course, const std::vector<StagePlan>& plans,
                    const std::vector<std::vector<Drift>>& drifts,
                    const std::vector<std::string>& orphans, std::ostream& out, std::ostream& err) {
  bool any = !orphans.empty();
  for (const std::vector<Drift>& drift : drifts) any = any || !drift.empty();
  // As seções que os stubs mandam ler existem no capítulo.
  const std::vector<std::string> sections = check_sections(root, course.catalog);
  print_errors(sections, err);
  if (!any && sections.empty()) {
    for (const StagePlan& plan : plans) {
      out << "exercises/" << plan.stage << ": em dia ("
          << plural(plan.exercises, "exercício", "exercícios") << " em "
          << plural(static_cast<int>(plan.files.size()), "arquivo", "arquivos") << ")\n";
    }
    return 0;
  }
  if (!any) return 1;
  err << "exercises/ difere do que solutions/ gera (quem mantém o curso: ./hz exercises-gen)\n";
  for (const std::vector<Drift>& drift : drifts) {
    for (const Drift& d : drift) err << "  " << drift_label(d.kind) << ": " << d.path << "\n";
  }
  for (const std::string& s : orphans) {
    err << "  sobrando: exercises/" << s << "/ (não existe solutions/" << s << ")\n";
  }
  return 1;
}

// O trabalho de alguém nunca é apagado sem --force: verdadeiro (e a recusa
// em err) se algo seria.
bool refuse_overwrite(const std::vector<std::vector<Drift>>& drifts,
                      const std::vector<std::string>& orphans, bool force, std::ostream& err) {
  if (force) return false;
  std::vector<const Drift*> protected_files;
  for (const std::vector<Drift>& drift : drifts) {
    for (const Drift& d : drift) {
      if (d.student_work) protected_files.push_back(&d);
    }
  }
  if (!protected_files.empty()) {
    err << "hz-course: estes arquivos de exercises/ têm código que não é um stub gerado (o "
           "trabalho de alguém?) e seriam sobrescritos ou apagados:\n";
    for (const Drift* d : protected_files) err << "  " << d->path << ": " << d->why << "\n";
    err << "Nada foi escrito. O código do aluno mora nas regiões de exercício e entre "
           "// SEU-CODIGO e // FIM-SEU-CODIGO; o resto do arquivo vem de solutions/. Guarde esse "
           "trabalho (git stash, git commit) e rode de novo com --force.\n";
    return true;
  }
  if (orphans.empty()) return false;
  err << "hz-course: exercises/ tem etapas que não existem mais em solutions/: ";
  for (const std::string& s : orphans) err << s << " ";
  err << "\nNada foi escrito; rode com --force para apagá-las.\n";
  return true;
}

// Escreve o plano de cada etapa em exercises/ e conta o que mudou.
void write_exercises(const fs::path& root, const std::vector<StagePlan>& plans,
                     const std::vector<std::vector<Drift>>& drifts,
                     const std::vector<std::string>& orphans, bool force, std::ostream& out) {
  for (const std::string& s : orphans) {
    fs::remove_all(root / "exercises" / s);
    out << "  removido: exercises/" << s << "/\n";
  }
  for (std::size_t i = 0; i < plans.size(); ++i) {
    apply_stage(root, plans[i], drifts[i], force);
    int written = 0;
    int removed = 0;
    for (const Drift& d : drifts[i]) {
      const bool extra = d.kind == Drift::Kind::extra;
      ++(extra ? removed : written);
      out << (extra ? "  removido: " : "  escrito: ") << d.path << "\n";
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
}

int cmd_exercises(const Options& o, std::ostream& out, std::ostream& err) {
  const fs::path root = o.root();
  const bool check = o.flag("--check");
  const bool force = o.flag("--force");
  const bool proof = o.has("--proof-out") > 0;
  if (check && (force || proof))
    return usage_error(err, "--check não combina com --force nem --proof-out");

  if (!fs::is_directory(root / "solutions")) {
    return usage_error(err, "não achei " + (root / "solutions").generic_string() +
                                " (--root deve ser a raiz do repositório)");
  }
  const Course course = load_course(root);
  if (print_errors(course.errors, err)) return 2;
  std::vector<std::string> stages = stages_with_solutions(root, course.stages);
  if (o.has("--stage")) {
    const std::string& wanted = o.at("--stage");
    if (std::find(stages.begin(), stages.end(), wanted) == stages.end()) {
      return usage_error(err, "etapa desconhecida: " + wanted + " (não existe solutions/" + wanted +
                                  " listada em etapas/stages.txt)");
    }
    stages = {wanted};
  }

  // Primeiro tudo é planejado; com qualquer erro de marcador nada é escrito.
  std::vector<std::string> errors;
  const std::vector<StagePlan> plans = plan_stages(root, stages, course, proof, errors);
  if (print_errors(errors, err)) {
    err << "hz-course: erro nos marcadores de exercício; nada foi escrito\n";
    return 2;
  }
  if (proof) {
    const fs::path out_dir = o.at("--proof-out");
    for (const StagePlan& plan : plans) {
      write_plan(out_dir, plan);
      out << out_dir.generic_string() << "/" << plan.stage << ": "
          << plural(plan.exercises, "exercício", "exercícios") << " com a chave HZ_STUB\n";
    }
    return 0;
  }

  // Etapas que sumiram de solutions/ (só quando todas são geradas).
  const std::vector<std::string> orphans =
      o.has("--stage") ? std::vector<std::string>{} : orphan_stages(root, stages);
  const std::vector<std::vector<Drift>> drifts = drifts_of(root, plans, course);
  if (check) return check_exercises(root, course, plans, drifts, orphans, out, err);
  if (refuse_overwrite(drifts, orphans, force, err)) return 1;
  write_exercises(root, plans, drifts, orphans, force, out);
  return 0;
}

int cmd_listings(const Options& o, std::ostream& out, std::ostream& err) {
  const bool update = o.flag("--update");
  if (update && o.flag("--check")) return usage_error(err, "use --check ou --update, não os dois");
  const fs::path root = o.root();
  if (!fs::is_directory(root))
    return usage_error(err, "a raiz " + root.generic_string() + " não existe");
  ListingSource source = ListingSource::solutions;
  if (o.has("--from")) {
    const std::string& from = o.at("--from");
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
  print_errors(report.problems, err);
  err << summary << "; há listagens que não batem com o código";
  err << (update ? " (corrija o caminho ou a região)\n" : ": rode ./hz listings --update\n");
  return 1;
}

int cmd_passes_on_stubs(const Options& o, std::ostream& out, std::ostream& err) {
  const std::string list_path = o.at("--list");
  const std::string junit_path = o.at("--junit");
  const std::string label = o.has("--stage") ? o.at("--stage") : junit_path;

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

  const Verdict v = judge_stubs(report.tests, allow, o.flag("--only-stub-failures"));
  if (v.ok) {
    out << label << ": " << plural(v.total, "teste", "testes") << "; " << v.failing
        << (v.failing == 1 ? " falha" : " falham") << " com os stubs, " << v.allowed_passing
        << (v.allowed_passing == 1 ? " passa e está na lista\n" : " passam e estão na lista\n");
    return 0;
  }
  print_errors(v.problems, err);
  err << label << ": todo teste da etapa precisa falhar com os stubs, ou estar justificado em "
      << list_path << "\n";
  return 1;
}

// Os relatórios de uma etapa: o JUnit do ctest e os rótulos de cada teste.
struct Reports {
  JunitReport junit;
  TestLabels labels;
  std::string error;
};

Reports load_reports(const std::string& junit_path, const std::string& json_path) {
  Reports r;
  const std::optional<std::string> xml = read_file(junit_path);
  if (!xml) {
    r.error = "não consegui ler o relatório JUnit " + junit_path;
    return r;
  }
  r.junit = parse_junit(*xml);
  if (!r.junit.error.empty()) {
    r.error = junit_path + ": " + r.junit.error;
    return r;
  }
  const std::optional<std::string> json = read_file(json_path);
  if (!json) {
    r.error = "não consegui ler " + json_path;
    return r;
  }
  r.labels = parse_ctest_json(*json);
  if (!r.labels.error.empty()) r.error = json_path + ": " + r.labels.error;
  return r;
}

// O resumo que ./hz test ETAPA mostra na trilha de exercícios.
int cmd_report(const Options& o, std::ostream& out, std::ostream& err) {
  const fs::path root = o.root();
  const Course course = load_course(root);
  if (print_errors(course.errors, err)) return 2;
  const Reports reports = load_reports(o.at("--junit"), o.at("--tests-json"));
  if (!reports.error.empty()) return usage_error(err, reports.error);
  const StageProgress progress =
      stage_progress(o.at("--stage"), course.catalog, reports.junit, reports.labels);
  out << render_stage_report(progress);
  return progress.total > 0 && progress.passed == progress.total ? 0 : 1;
}

// --junit-dir DIR com DIR/<etapa>.xml e DIR/<etapa>.json (ctest --output-junit e
// --show-only=json-v1), uma etapa por par.
int cmd_progress(const Options& o, std::ostream& out, std::ostream& err) {
  const fs::path root = o.root();
  const fs::path dir = o.at("--junit-dir");
  const Course course = load_course(root);
  if (print_errors(course.errors, err)) return 2;
  std::string next;
  int stages_seen = 0;
  for (const StageInfo& stage : course.stages.stages) {
    const fs::path xml = dir / (stage.name + ".xml");
    std::error_code ec;
    if (!fs::exists(xml, ec)) continue;
    const Reports reports = load_reports(xml.string(), (dir / (stage.name + ".json")).string());
    if (!reports.error.empty()) return usage_error(err, reports.error);
    const StageProgress progress =
        stage_progress(stage.name, course.catalog, reports.junit, reports.labels);
    out << progress_line(progress) << "\n";
    ++stages_seen;
    if (next.empty() && progress.next() != nullptr) next = next_step_line(progress);
  }
  if (stages_seen == 0) {
    err << "hz-course: nenhum relatório em " << dir.generic_string() << "\n";
    return 1;
  }
  out << (next.empty() ? "Todos os exercícios feitos." : next) << "\n";
  return 0;
}

// A escada de dicas. O estado (quantas dicas de cada exercício já foram
// mostradas) fica num arquivo JSON pequeno, fora do repositório (no build).
// O que se sabe de um exercício: se os testes dele passaram da última vez, e
// quando (a data do relatório que disse).
struct Evidence {
  bool done = false;
  fs::file_time_type when{};
};

// O relatório que ./hz test ETAPA/NOME guarda: DIR/exercicios/ETAPA_NOME.xml.
fs::path exercise_report(const fs::path& dir, std::string id) {
  std::replace(id.begin(), id.end(), '/', '_');
  return dir / "exercicios" / (id + ".xml");
}

// O exercício em que o aluno está: o primeiro, na ordem do curso, que não
// passou no resultado guardado mais novo (de ./hz test ETAPA ou de ./hz test
// EXERCÍCIO), ou que nunca foi testado. Um relatório da etapa mais velho que
// o de um exercício não vale para ele: o aluno pode ter terminado o exercício
// testando só ele. Tudo feito: nenhum.
std::optional<std::string> current_exercise(const Course& course, const fs::path& dir) {
  std::map<std::string, Evidence> known;
  const auto& stages = course.stages.stages;
  for (const auto& info_of_stage : stages) {
    const std::string& stage = info_of_stage.name;
    std::error_code ec;
    const fs::path xml = dir / (stage + ".xml");
    if (fs::exists(xml, ec)) {
      const Reports reports = load_reports(xml.string(), (dir / (stage + ".json")).string());
      if (reports.error.empty()) {
        const fs::file_time_type when = fs::last_write_time(xml, ec);
        for (const ExerciseProgress& e :
             stage_progress(stage, course.catalog, reports.junit, reports.labels).exercises) {
          known[e.info->id] = Evidence{e.state == ExerciseState::done, when};
        }
      }
    }
    for (const ExerciseInfo* info : course.catalog.of_stage(stage)) {
      const fs::path report = exercise_report(dir, info->id);
      const std::optional<std::string> text = read_file(report);
      if (!text) continue;
      const JunitReport junit = parse_junit(*text);
      if (!junit.error.empty()) continue;
      const fs::file_time_type when = fs::last_write_time(report, ec);
      const auto found = known.find(info->id);
      if (found == known.end() || found->second.when < when) {
        const Score s = score(junit);
        known[info->id] = Evidence{s.total > 0 && s.passed == s.total, when};
      }
    }
  }
  for (const auto& stage : stages) {
    for (const ExerciseInfo* info : course.catalog.of_stage(stage.name)) {
      const auto found = known.find(info->id);
      if (found == known.end() || !found->second.done) return info->id;
    }
  }
  return std::nullopt;
}

// hz-course student-docs: os .md da cópia dos alunos, sem o que é só do curso
// completo. Nada é escrito se algum documento tem uma marcação quebrada.
int cmd_student_docs(const Options& o, std::ostream& out, std::ostream& err) {
  const fs::path root = o.at("--root");
  std::vector<std::pair<fs::path, std::string>> changed;
  int problems = 0;
  const std::vector<fs::path> docs = course_markdown(root);
  for (const fs::path& doc : docs) {
    const std::optional<std::string> text = read_file(doc);
    if (!text) {
      err << display_path(root, doc) << ": não consegui ler\n";
      ++problems;
      continue;
    }
    StudentCopy copy = student_copy_text(*text);
    if (!copy.error.empty()) {
      err << display_path(root, doc) << ": " << copy.error << "\n";
      ++problems;
    } else if (copy.text != *text) {
      changed.emplace_back(doc, std::move(copy.text));
    }
  }
  if (problems > 0) return 1;
  for (const auto& [doc, text] : changed) {
    if (!write_file(doc, text)) {
      err << display_path(root, doc) << ": não consegui escrever\n";
      return 1;
    }
  }
  out << docs.size() << " documentos; " << changed.size()
      << " com trechos só do curso completo ou só da cópia dos alunos\n";
  return 0;
}

// Uma lista "a,b,c" (sem itens vazios).
std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

// hz-course doc-refs: os links e caminhos dos .md existem; os ./hz SUB vão
// para o stdout (o ./hz de quem chama sabe se SUB existe).
int cmd_doc_refs(const Options& o, std::ostream& out, std::ostream& err) {
  if (o.has("--teacher") != o.has("--full-course")) {
    return usage_error(err, "--teacher e --full-course vão juntos");
  }
  const fs::path root = o.at("--root");
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return usage_error(err, root.string() + " não é uma pasta");
  const std::vector<std::string> teacher =
      o.has("--teacher") ? split_list(o.at("--teacher")) : std::vector<std::string>{};
  const fs::path full = o.has("--full-course") ? fs::path(o.at("--full-course")) : fs::path();
  int problems = 0;
  int checked = 0;
  for (const fs::path& doc : course_markdown(root)) {
    const std::optional<std::string> text = read_file(doc);
    if (!text) continue;
    const std::string shown = display_path(root, doc);
    const bool is_teacher = std::find(teacher.begin(), teacher.end(), shown) != teacher.end();
    for (const DocReference& ref : doc_references(*text)) {
      const std::string where = shown + ":" + std::to_string(ref.line);
      if (ref.kind == DocReference::Kind::hz) {
        out << (is_teacher ? "professor" : "aluno") << "\t" << where << "\t" << ref.value << "\n";
        continue;
      }
      ++checked;
      if (ref.kind == DocReference::Kind::link) {
        if (!fs::exists(doc.parent_path() / ref.value, ec)) {
          err << where << ": link para " << ref.value << ", que não existe\n";
          ++problems;
        }
        continue;
      }
      const bool here =
          fs::exists(root / ref.value, ec) || fs::exists(doc.parent_path() / ref.value, ec);
      if (!here && !(is_teacher && fs::exists(full / ref.value, ec))) {
        err << where << ": cita " << ref.value << ", que não existe"
            << (is_teacher ? " nem no curso completo" : "") << "\n";
        ++problems;
      }
    }
  }
  if (problems > 0) return 1;
  err << checked << " links e caminhos conferidos em " << display_path(root, root) << "\n";
  return 0;
}

// hz-course counts: os números de testes dos documentos conferidos com o ctest.
int cmd_counts(const Options& o, std::ostream& out, std::ostream& err) {
  const fs::path root = o.root();
  const std::optional<std::string> json = read_file(o.at("--tests-json"));
  if (!json) return usage_error(err, "não consegui ler " + o.at("--tests-json"));
  const TestLabels labels = parse_ctest_json(*json);
  if (!labels.error.empty()) return usage_error(err, o.at("--tests-json") + ": " + labels.error);
  StubPasses stub_passes;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(root / "tests", ec)) {
    const fs::path list = e.path() / "passes-on-stubs.txt";
    const std::optional<std::string> text = read_file(list);
    if (!text) continue;
    const AllowList allow = parse_allow_list(*text, display_path(root, list));
    if (!allow.error.empty()) return usage_error(err, allow.error);
    stub_passes[e.path().filename().string()] = static_cast<int>(allow.entries.size());
  }
  // O GRADING.md que o ./hz export escreve também dá notas ("01-loop: 7/85").
  std::vector<fs::path> docs = checked_documents(root);
  if (fs::is_regular_file(root / "course/export/GRADING.md", ec)) {
    docs.push_back(root / "course/export/GRADING.md");
  }
  int problems = 0;
  int documents = 0;
  for (const fs::path& doc : docs) {
    const std::optional<std::string> text = read_file(doc);
    if (!text) continue;
    ++documents;
    for (const CountProblem& p :
         check_counts(*text, display_path(root, doc), labels, stub_passes)) {
      err << p.where << ": " << p.message << "\n";
      ++problems;
    }
  }
  if (problems > 0) return 1;
  out << documents << " documentos: todo número de testes confere com o ctest\n";
  return 0;
}

// hz-course quotes: as mensagens citadas nos documentos conferidas com os testes.
int cmd_quotes(const Options& o, std::ostream& out, std::ostream& err) {
  const fs::path root = o.root();
  std::vector<std::string> literals;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root / "tests", ec), end; !ec && it != end;
       it.increment(ec)) {
    // O teste do próprio quotes cita mensagens de brincadeira: fica de fora.
    if (it->path().filename() == "quotes_test.cpp") continue;
    const std::string ext = it->path().extension().string();
    if (ext != ".cpp" && ext != ".hpp") continue;
    const std::optional<std::string> text = read_file(it->path());
    if (!text) continue;
    for (std::string& l : string_literals(*text)) literals.push_back(std::move(l));
  }
  if (literals.empty())
    return usage_error(err, "nenhum teste em " + display_path(root, root / "tests"));
  int problems = 0;
  int checked = 0;
  for (const fs::path& doc : checked_documents(root)) {
    const std::optional<std::string> text = read_file(doc);
    if (!text) continue;
    for (const Quote& q : message_quotes(*text)) {
      ++checked;
      if (quoted_in(q.text, literals)) continue;
      err << display_path(root, doc) << ":" << q.line
          << ": a mensagem citada não aparece em nenhum teste de tests/: `" << q.text << "`\n";
      ++problems;
    }
  }
  if (problems > 0) return 1;
  out << checked << " mensagens citadas: todas afirmadas por algum teste\n";
  return 0;
}

int cmd_hint(const Options& o, std::ostream& out, std::ostream& err) {
  const fs::path root = o.root();
  const Course course = load_course(root);
  if (print_errors(course.errors, err)) return 2;
  std::string id = o.has("--exercise") ? o.at("--exercise") : "";
  if (id.empty() && o.has("--junit-dir")) {
    const std::optional<std::string> current = current_exercise(course, o.at("--junit-dir"));
    if (!current) {
      out << "Todos os exercícios passam, segundo os últimos testes. ./hz hint EXERCÍCIO mostra as "
             "dicas de um deles.\n";
      return 0;
    }
    id = *current;
  }
  if (id.empty() && !course.catalog.exercises.empty()) id = course.catalog.exercises.front().id;
  const ExerciseInfo* info = course.catalog.find(id);
  if (info == nullptr) {
    std::string known;
    for (const ExerciseInfo& e : course.catalog.exercises) known += " " + e.id;
    return usage_error(err, "exercício desconhecido: " + id + " (exercícios:" + known + ")");
  }
  const fs::path state_path = o.at("--state");
  nlohmann::json state = nlohmann::json::object();
  if (const std::optional<std::string> text = read_file(state_path)) {
    state = nlohmann::json::parse(*text, nullptr, false);
    if (!state.is_object()) state = nlohmann::json::object();
  }
  if (o.flag("--reset")) {
    state.erase(id);
    out << "Dicas de " << id << " zeradas.\n";
  } else {
    const int total = static_cast<int>(info->hints.size());
    // O estado é um arquivo que o aluno pode ter mexido: o que não é uma contagem
    // válida recomeça a escada.
    int shown = 0;
    if (state.contains(id) && state[id].is_number_integer() && state[id].get<long long>() >= 0) {
      shown = static_cast<int>(std::min<long long>(state[id].get<long long>(), total));
    }
    out << id << " — " << info->where() << "\n";
    if (shown >= total) {
      out << "Você já viu as " << total << " dicas deste exercício:\n";
      for (int i = 0; i < total; ++i)
        out << "  " << i + 1 << ". " << info->hints[static_cast<std::size_t>(i)] << "\n";
      out << "A resposta comentada está no capítulo, depois dos exercícios. Antes de ler, rode\n"
             "./hz test "
          << id << " e leia a falha: ela mostra os dois lados.\n";
    } else {
      out << "Dica " << shown + 1 << " de " << total << ": "
          << info->hints[static_cast<std::size_t>(shown)] << "\n";
      if (shown + 1 < total) out << "(./hz hint " << id << " de novo mostra a próxima)\n";
      state[id] = shown + 1;
    }
  }
  fs::create_directories(state_path.parent_path().empty() ? fs::path(".")
                                                          : state_path.parent_path());
  if (!write_file(state_path, state.dump(2) + "\n")) {
    err << "hz-course: não consegui gravar " << state_path.generic_string() << "\n";
    return 1;
  }
  return 0;
}

// Os exercícios do catálogo, um por linha: "id<TAB>etapa<TAB>onde ler".
int cmd_list(const Options& o, std::ostream& out, std::ostream& err) {
  const fs::path root = o.root();
  const Course course = load_course(root);
  if (print_errors(course.errors, err)) return 2;
  for (const ExerciseInfo& e : course.catalog.exercises) {
    if (o.has("--stage") && e.stage != o.at("--stage")) continue;
    out << e.id << "\t" << e.stage << "\t" << e.where() << "\n";
  }
  return 0;
}

// O plano de exercises/<stage>, ou uma mensagem de erro em err (código 2).
int plan_for(const fs::path& root, const Course& course, const std::string& stage, StagePlan& plan,
             std::ostream& err) {
  if (course.stages.find(stage) == nullptr) {
    return usage_error(err, "etapa desconhecida: " + stage);
  }
  std::error_code ec;
  if (!fs::is_directory(root / "solutions" / stage, ec)) {
    return usage_error(err,
                       "a referência " + root.generic_string() + " não tem solutions/" + stage);
  }
  plan = plan_stage(root, stage, course.stages, course.catalog);
  if (print_errors(plan.errors, err)) return 2;
  return 0;
}

void print_moves(std::ostream& out, const char* title, const std::vector<RegionMove>& moves) {
  if (moves.empty()) return;
  out << title << "\n";
  for (const RegionMove& m : moves) {
    out << "  " << m.id << "  (" << m.file;
    if (!m.was_in.empty()) out << ", antes em " << m.was_in;
    out << ")\n";
  }
}

// O relatório do carry. As levadas saem agrupadas pela etapa de onde vieram,
// da mais próxima para a mais antiga; uma etapa mais antiga que a anterior só
// entra quando as do meio não tinham resposta, e o título diz isso.
void print_carry(std::ostream& out, const CarryReport& report,
                 const std::vector<StagePlan>& earlier, const std::string& to) {
  std::string skipped;  // "exercises/02-b e exercises/01-a", as etapas do meio
  for (std::size_t k = 0; k < earlier.size(); ++k) {
    std::vector<RegionMove> moves;
    for (const RegionMove& m : report.carried) {
      if (m.from == earlier[k].stage) moves.push_back(m);
    }
    const std::string title = "Levadas de exercises/" + earlier[k].stage + " para exercises/" + to +
                              (k == 0 ? std::string(":")
                                      : " (" + skipped + (k == 1 ? " não tinha" : " não tinham") +
                                            " resposta para elas):");
    print_moves(out, title.c_str(), moves);
    skipped =
        k == 0 ? "exercises/" + earlier[k].stage : skipped + " e exercises/" + earlier[k].stage;
  }
  print_moves(out, "Já tinham resposta (ficaram como estão):", report.already_written);
  const std::string stub_title =
      earlier.size() == 1
          ? "Ainda são stub em exercises/" + earlier[0].stage + " (nada a levar):"
          : std::string("Ainda são stub em todas as etapas anteriores (nada a levar):");
  print_moves(out, stub_title.c_str(), report.not_answered);
  print_moves(out,
              ("Código seu sem arquivo de mesmo nome com área // SEU-CODIGO em exercises/" + to +
               " (leve à mão):")
                  .c_str(),
              report.own_left);
  // Um carry repetido (ou depois de um ./hz update com a resposta liberada) não tem o que
  // levar, e "0 regiões levadas" pareceria uma falha.
  if (report.carried.empty() && report.not_answered.empty() && report.own_left.empty() &&
      !report.already_written.empty()) {
    out << "Nada a levar: exercises/" << to << " já tinha resposta em todas essas regiões.\n";
    return;
  }
  out << report.carried.size()
      << (report.carried.size() == 1 ? " região levada" : " regiões levadas") << " para exercises/"
      << to << ".\n";
}

// As respostas do aluno para a etapa seguinte (./hz carry): de cada região
// que ainda é o stub em exercises/<to>, a resposta da etapa anterior mais
// próxima que a tem.
int cmd_carry(const Options& o, std::ostream& out, std::ostream& err) {
  const fs::path root = o.root();
  // Os stubs vêm do curso de referência (a cópia dos alunos não tem solutions/,
  // então a referência é o próprio exercises/ gerado, lido pelos marcadores).
  const fs::path reference = o.has("--reference") ? fs::path(o.at("--reference")) : root;
  const Course course = load_course(reference);
  if (print_errors(course.errors, err)) return 2;
  const std::string to = o.at("--to");
  const std::vector<std::string> chain = course.stages.up_to(to);
  if (chain.size() < 2) {
    return usage_error(err, chain.empty() ? "etapa desconhecida: " + to
                                          : to + " é a primeira etapa: não há de onde levar");
  }
  // Sem solutions/ (a cópia dos alunos), os stubs são reconhecidos pelo próprio exercises/.
  const auto plan_of = [&](const std::string& stage, StagePlan& plan) {
    std::error_code ec;
    if (fs::is_directory(reference / "solutions" / stage, ec)) {
      return plan_for(reference, course, stage, plan, err);
    }
    plan = plan_from_exercises(reference, stage, course.catalog);
    return print_errors(plan.errors, err) ? 2 : 0;
  };
  StagePlan to_plan;
  if (int code = plan_of(to, to_plan)) return code;
  std::vector<StagePlan> earlier(chain.size() - 1);  // da mais próxima para a mais antiga
  for (std::size_t k = 0; k < earlier.size(); ++k) {
    if (int code = plan_of(chain[chain.size() - 2 - k], earlier[k])) return code;
  }
  const CarryReport report = carry_answers(root, earlier, to_plan);
  print_errors(report.errors, err);
  print_carry(out, report, earlier, to);
  return report.errors.empty() ? 0 : 1;
}

// Na correção: as regiões das etapas anteriores recebem a resposta de referência.
int cmd_fill(const Options& o, std::ostream& out, std::ostream& err) {
  const fs::path reference = o.at("--reference");
  if (!fs::is_directory(reference / "solutions")) {
    return usage_error(err, "a referência " + reference.generic_string() + " não tem solutions/");
  }
  const Course course = load_course(reference);
  if (print_errors(course.errors, err)) return 2;
  StagePlan plan;
  if (int code = plan_for(reference, course, o.at("--stage"), plan, err)) return code;
  const CarryReport report = fill_reference(o.at("--root"), plan);
  print_errors(report.errors, err);
  print_moves(out, "Regiões de etapas anteriores com a resposta de referência:", report.carried);
  return report.errors.empty() ? 0 : 1;
}

int cmd_stages(const Options& o, std::ostream& out, std::ostream& err) {
  const bool update = o.flag("--update");
  if (update && o.flag("--check")) return usage_error(err, "use --check ou --update, não os dois");
  const fs::path root = o.root();
  const std::string tree = o.has("--tree") ? o.at("--tree") : "solutions";
  if (tree != "solutions" && tree != "exercises") {
    return usage_error(err, "--tree deve ser solutions ou exercises");
  }
  const StageList stages = read_stage_list(root);
  if (!stages.error.empty()) {
    err << stages.error << "\n";
    return 2;
  }
  const ChainReport report = check_stage_chain(root, stages, update, tree);
  for (const std::string& f : report.diffs_written) out << "  escrito: " << f << "\n";
  if (report.problems.empty()) {
    out << plural(report.pairs, "par de etapas conferido", "pares de etapas conferidos") << "\n";
    return 0;
  }
  print_errors(report.problems, err);
  return 1;
}

int cmd_outputs(const Options& o, std::ostream& out, std::ostream& err) {
  const bool update = o.flag("--update");
  if (update && o.flag("--check")) return usage_error(err, "use --check ou --update, não os dois");
  const fs::path root = o.root();
  const OutputReport report =
      check_outputs(root, update, o.has("--chapter") ? o.at("--chapter") : "",
                    o.has("--bin") ? o.at("--bin") : "");
  for (const std::string& f : report.files_updated) out << "  atualizado: " << f << "\n";
  std::string summary = plural(report.checked, "saída conferida", "saídas conferidas");
  if (update) summary += ", " + plural(report.updated, "atualizada", "atualizadas");
  if (report.problems.empty()) {
    out << summary << "\n";
    return 0;
  }
  print_errors(report.problems, err);
  err << summary << "; há saídas do livro que não batem com os executáveis"
      << (update ? "\n" : ": rode ./hz outputs --update\n");
  return 1;
}

// A nota de uma etapa na correção (./hz grade). Nenhum teste rodando é
// reprovação: um build que não registrou testes não pode passar calado.
int cmd_grade(const Options& o, std::ostream& out, std::ostream& err) {
  const bool not_built = o.flag("--not-built");
  if (!not_built && !o.has("--junit")) return usage_error(err, "falta --junit ARQUIVO");
  if (not_built && o.has("--junit")) {
    return usage_error(err, "use --junit ou --not-built, não os dois");
  }
  if (o.has("--csv") != o.has("--student")) {
    return usage_error(err, "--csv e --student andam juntos (a linha do CSV leva o nome do aluno)");
  }
  const std::string& stage = o.at("--stage");
  Score s;
  if (!not_built) {
    const std::string junit_path = o.at("--junit");
    const std::optional<std::string> xml = read_file(junit_path);
    if (!xml) return usage_error(err, "não consegui ler o relatório JUnit " + junit_path);
    const JunitReport report = parse_junit(*xml);
    if (!report.error.empty()) return usage_error(err, junit_path + ": " + report.error);
    s = score(report);
    out << score_line(stage, s) << "\n";
  } else {
    out << stage << ": o código não compila (0 testes passando)\n";
  }
  if (o.has("--csv")) {
    const std::string line = grades_line(o.at("--student"), stage, s);
    if (!append_grade(o.at("--csv"), line)) {
      err << "hz-course: não consegui escrever em " << o.at("--csv") << "\n";
      return 1;
    }
    out << "CSV: " << line << "\n";
  }
  if (not_built) return 1;
  if (s.total == 0) {
    err << stage << ": nenhum teste rodou (o rótulo " << stage << " não tem testes?)\n";
    return 1;
  }
  return s.passed == s.total ? 0 : 1;
}

// A referência de etapas cujo prazo passou, na cópia dos alunos (./hz export --release).
int cmd_release(const Options& o, std::ostream& out, std::ostream& err) {
  const fs::path root = o.at("--root");
  const fs::path reference = o.at("--reference");
  if (!fs::is_directory(reference / "solutions")) {
    return usage_error(err, "a referência " + reference.generic_string() + " não tem solutions/");
  }
  const Course course = load_course(reference);
  if (print_errors(course.errors, err)) return 2;
  const std::vector<std::string> released = split_list(o.at("--stages"));
  if (released.empty()) return usage_error(err, "--stages vazio: diga quais etapas liberar");
  for (const std::string& stage : released) {
    if (course.stages.find(stage) == nullptr)
      return usage_error(err, "etapa desconhecida: " + stage);
  }
  CarryReport total;
  for (const std::string& stage : stages_with_solutions(reference, course.stages)) {
    std::error_code ec;
    if (!fs::is_directory(root / "exercises" / stage, ec)) continue;
    StagePlan plan;
    if (int code = plan_for(reference, course, stage, plan, err)) return code;
    const CarryReport report = release_reference(root, plan, released);
    total.carried.insert(total.carried.end(), report.carried.begin(), report.carried.end());
    total.errors.insert(total.errors.end(), report.errors.begin(), report.errors.end());
  }
  print_errors(total.errors, err);
  print_moves(out, "Com a resposta de referência:", total.carried);
  out << total.carried.size()
      << (total.carried.size() == 1 ? " região liberada" : " regiões liberadas") << " (";
  for (std::size_t i = 0; i < released.size(); ++i) out << (i ? ", " : "") << released[i];
  out << ").\n";
  return total.errors.empty() ? 0 : 1;
}

// O relatório do ./hz update: o que mudou, para onde foram as respostas e o
// que o aluno precisa olhar.
void print_update_report(std::ostream& out, const UpdateReport& r) {
  const auto list = [&out](const char* title, const std::vector<std::string>& paths) {
    if (paths.empty()) return;
    out << title << "\n";
    for (const std::string& p : paths) out << "  " << p << "\n";
  };
  list("Novos:", r.added);
  list("Mudaram:", r.changed);
  print_moves(out, "Suas respostas, levadas para o arquivo novo:", r.carried);
  print_moves(out, "Referências liberadas pelo professor (estavam como stub):", r.released);
  print_moves(out,
              "Referências liberadas que não entraram, porque você já tinha escrito a sua (para "
              "trocar pela referência: ./hz update --take-released):",
              r.released_kept);
  print_moves(out, "Trocadas pela referência liberada (a sua resposta continua no último commit):",
              r.released_replaced);
  if (!r.orphaned.empty()) {
    out << "Regiões suas que a versão nova não tem mais (renomeadas ou removidas); o seu código "
           "continua no último commit:\n";
    for (const RegionMove& m : r.orphaned) {
      out << "  " << m.id << "  (git show HEAD:" << m.file << ")\n";
    }
  }
  if (!r.own_left_behind.empty()) {
    out << "O seu código na área // SEU-CODIGO ficou no arquivo em que estava; se uma resposta que "
           "mudou de arquivo usa algo dele, copie para a área do arquivo novo:\n";
    for (const RegionMove& m : r.own_left_behind) {
      out << "  " << m.was_in << " -> " << m.file << "\n";
    }
  }
  list(
      "Fontes de exercises/ que também mudaram fora das regiões de exercício (confira com git "
      "diff):",
      r.outside);
  list("Só na sua cópia (ficaram como estão):", r.kept);
  if (r.added.empty() && r.changed.empty()) {
    out << "Nada a atualizar: a sua cópia já está nesta versão.\n";
  } else {
    out << plural(static_cast<int>(r.added.size()), "arquivo novo", "arquivos novos") << ", "
        << plural(static_cast<int>(r.changed.size()), "mudou", "mudaram") << ", "
        << plural(static_cast<int>(r.carried.size()), "resposta sua levada",
                  "respostas suas levadas")
        << ".\n";
  }
}

// A versão nova do curso na cópia de um aluno (./hz update).
int cmd_update(const Options& o, std::ostream& out, std::ostream& err) {
  const fs::path root = o.at("--root");
  const fs::path fresh = o.at("--from");
  if (!fs::is_directory(fresh))
    return usage_error(err, "a versão nova " + fresh.generic_string() + " não é uma pasta");
  if (fs::exists(fresh / "solutions")) {
    return usage_error(err,
                       "a versão nova tem solutions/: é o curso completo, não o "
                       "repositório-modelo dos alunos (o professor o escreve com ./hz export)");
  }
  UpdateOptions options;
  options.take_released = o.flag("--take-released");
  const UpdateReport r = update_course(root, fresh, options);
  if (print_errors(r.errors, err)) {
    err << "hz-course: nada foi atualizado\n";
    return 1;
  }
  print_update_report(out, r);
  return 0;
}

// Os subcomandos (o trace-html lê as próprias opções: trace_html.hpp).
const Command kCommands[] = {
    {"exercises", {"--root", "--stage", "--proof-out"}, {}, {"--check", "--force"}, cmd_exercises},
    {"listings", {"--root", "--from"}, {}, {"--check", "--update"}, cmd_listings},
    {"passes-on-stubs",
     {"--stage"},
     {"--junit ARQUIVO", "--list ARQUIVO"},
     {"--only-stub-failures"},
     cmd_passes_on_stubs},
    {"report",
     {"--root"},
     {"--stage NN-nome", "--junit ARQUIVO", "--tests-json ARQUIVO"},
     {},
     cmd_report},
    {"progress", {"--root"}, {"--junit-dir DIR"}, {}, cmd_progress},
    {"hint", {"--root", "--exercise", "--junit-dir"}, {"--state ARQUIVO"}, {"--reset"}, cmd_hint},
    {"counts", {"--root"}, {"--tests-json ARQUIVO"}, {}, cmd_counts},
    {"quotes", {"--root"}, {}, {}, cmd_quotes},
    {"list", {"--root", "--stage"}, {}, {}, cmd_list},
    {"carry", {"--root", "--reference"}, {"--to NN-nome"}, {}, cmd_carry},
    {"fill", {}, {"--root CÓPIA", "--reference CURSO", "--stage NN-nome"}, {}, cmd_fill},
    {"stages", {"--root", "--tree"}, {}, {"--check", "--update"}, cmd_stages},
    {"outputs", {"--root", "--chapter", "--bin"}, {}, {"--check", "--update"}, cmd_outputs},
    {"grade", {"--junit", "--csv", "--student"}, {"--stage NN-nome"}, {"--not-built"}, cmd_grade},
    {"release",
     {},
     {"--root CÓPIA", "--reference CURSO", "--stages NN-nome[,...]"},
     {},
     cmd_release},
    {"update", {}, {"--root CÓPIA", "--from VERSÃO-NOVA"}, {"--take-released"}, cmd_update},
    {"student-docs", {}, {"--root CÓPIA"}, {}, cmd_student_docs},
    {"doc-refs", {"--teacher", "--full-course"}, {"--root DIR"}, {}, cmd_doc_refs},
};

}  // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    err << kUsage;
    return 2;
  }
  const std::string& command = args[0];
  try {
    if (command == "trace-html") return trace_html_command(args, out, err);
    for (const Command& c : kCommands) {
      if (command != c.name) continue;
      std::string error;
      const Options o = parse_options(c, args, error);
      return error.empty() ? c.run(o, out, err) : usage_error(err, error);
    }
  } catch (const fs::filesystem_error& e) {
    // Disco cheio, permissão negada: erro de ambiente, não de uso.
    err << "hz-course: erro de arquivo: " << e.what() << "\n";
    return 1;
  }
  if (command == "help" || command == "--help" || command == "-h") {
    out << kUsage;
    return 0;
  }
  if (command == "--version") {
    out << version_line("hz-course");
    return 0;
  }
  return usage_error(err, "subcomando desconhecido: " + command);
}

}  // namespace hz::course
