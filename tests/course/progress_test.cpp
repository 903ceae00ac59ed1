#include <doctest/doctest.h>

#include "fixture.hpp"
#include "hz/course/catalog.hpp"
#include "hz/course/junit.hpp"
#include "hz/course/progress.hpp"

using hz::course::Catalog;
using hz::course::ExerciseState;
using hz::course::JunitReport;
using hz::course::next_step_line;
using hz::course::parse_ctest_json;
using hz::course::parse_hints;
using hz::course::parse_junit;
using hz::course::progress_line;
using hz::course::render_stage_report;
using hz::course::stage_progress;
using hz::course::StageProgress;
using hz::course::TestLabels;
using hz::course::test::Case;
using hz::course::test::hint_entry;
using hz::course::test::junit_of;
using hz::course::test::run_in;
using hz::course::test::Tree;
using hz::course::test::usage_error;

namespace {

// O que ctest --show-only=json-v1 escreve (só o que importa).
std::string json_of(const std::vector<Case>& cases) {
  std::string json = R"({"kind":"ctestInfo","version":{"major":1,"minor":0},"tests":[)";
  bool first = true;
  for (const Case& c : cases) {
    if (c.labels.empty()) continue;
    if (!first) json += ",";
    first = false;
    json += R"({"name":")" + c.name + R"(","command":["t"],"properties":[)" +
            R"({"name":"WORKING_DIRECTORY","value":"/b"},{"name":"LABELS","value":[)";
    for (std::size_t i = 0; i < c.labels.size(); ++i) {
      json += (i ? ",\"" : "\"") + c.labels[i] + "\"";
    }
    json += "]}]}";
  }
  return json + "]}";
}

const std::string kStub =
    "✗ b1: exercício 01-a/b não implementado: leia livro/01-a.md, \"B\" (dicas: ./hz hint "
    "01-a/b)\n";
const std::string kFailC1 =
    "ccc.cpp:10: ERROR: CHECK( soma(1, 1) == 2 ) is NOT correct!\n"
    "  values: CHECK( 3 == 2 )\n";
const std::string kFailC3 = "ccc.cpp:20: ERROR: CHECK( x ) is NOT correct!";

// a: feito; b: ainda o stub; ccc: com falhas de verdade; d: sem testes.
const std::vector<Case> kCases = {
    {"a1", "run", "", {"01-a", "01-a/a"}},
    {"a2", "run", "", {"01-a", "01-a/a"}},
    {"b1", "fail", kStub, {"01-a", "01-a/b"}},
    {"c1", "fail", kFailC1, {"01-a", "01-a/ccc"}},
    {"c2", "run", "", {"01-a", "01-a/ccc"}},
    {"c3", "fail", kFailC3, {"01-a", "01-a/ccc"}},
    {"geral", "run", "", {"01-a"}},
    {"outra etapa", "run", "", {"02-b"}},
    {"sem rótulo", "notrun", "", {}},
};

const std::string kReportHints = hint_entry("01-a/a", "A") + hint_entry("01-a/b", "B") +
                                 hint_entry("01-a/ccc", "C") + hint_entry("01-a/d", "D");

// O progresso guarda ponteiros para o relatório e o catálogo: os três vivem juntos.
struct Progress {
  Progress(const Catalog& catalog, const std::vector<Case>& cases)
      : report(parse_junit(junit_of(cases))),
        labels(parse_ctest_json(json_of(cases))),
        p(stage_progress("01-a", catalog, report, labels)) {}
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  const JunitReport report;
  const TestLabels labels;
  const StageProgress p;
};

// O começo do relatório de kCases: a tabela e a primeira falha de 01-a/ccc.
const std::string kReportHead =
    "01-a: 1 de 4 exercícios feitos · 4/8 testes passando\n"
    "  ✓ 01-a/a         2/2\n"
    "  · 01-a/b         0/1  ainda é o stub\n"
    "  ✗ 01-a/ccc       1/3  2 testes falham\n"
    "  ✗ 01-a/d         0/0  nenhum teste rodou\n"
    "  ✗ sem exercício  1/2  1 teste falha\n"
    "\n"
    "Falhas de 01-a/ccc:\n"
    "── c1\n" +
    kFailC1;

// O fim do relatório de kCases: o próximo exercício.
const std::string kReportNext =
    "Próximo: 01-a/b — leia livro/01-a.md, \"B\"; teste com ./hz test 01-a/b (dica: ./hz hint "
    "01-a/b)\n";

const std::string kReport = kReportHead + "── c3\n" + kFailC3 + "\n" + kReportNext;

}  // namespace

TEST_CASE("parse_ctest_json lê os rótulos de cada teste") {
  const TestLabels l = parse_ctest_json(json_of(kCases));
  CHECK(l.error == "");
  CHECK(l.labels.size() == 8);
  CHECK(l.labels.at("c1") == std::vector<std::string>{"01-a", "01-a/ccc"});
  CHECK(l.labels.count("sem rótulo") == 0);
  const TestLabels none =
      parse_ctest_json(R"({"tests":[{"name":"x","properties":[{"name":"TIMEOUT","value":3}]}]})");
  CHECK(none.error == "");
  CHECK(none.labels.at("x").empty());
}

TEST_CASE("parse_ctest_json: o que não é a saída do ctest é erro") {
  for (const char* text : {"", "lixo", "[]", R"({"tests":3})", R"({"kind":"ctestInfo"})"}) {
    CHECK(parse_ctest_json(text).error == "não é a saída de ctest --show-only=json-v1");
  }
}

TEST_CASE("parse_ctest_json ignora entradas malformadas sem lançar") {
  const TestLabels l = parse_ctest_json(
      R"({"tests":[7,{"name":5},{"name":"p","properties":3},)"
      R"({"name":"q","properties":[1,{"name":"LABELS","value":"01-a"},{"name":"LABELS","value":[2,"x"]}]}]})");
  CHECK(l.error == "");
  CHECK(l.labels.count("p") == 1);
  CHECK(l.labels.at("p").empty());
  CHECK(l.labels.at("q") == std::vector<std::string>{"01-a", "x"});
}

TEST_CASE("parse_junit guarda a saída de cada teste, decodificada") {
  const auto r = parse_junit(junit_of(kCases));
  REQUIRE(r.tests.size() == 9);
  CHECK(r.tests[2].output == kStub);
  CHECK(r.tests[3].output == kFailC1);
  CHECK(r.tests[8].status == hz::course::TestStatus::not_run);
}

TEST_CASE("stage_progress: feito, ainda o stub, falhando e sem testes") {
  const Catalog catalog = parse_hints(kReportHints, "exercises/01-a/hints.md", "01-a");
  REQUIRE(catalog.errors.empty());
  const Progress run(catalog, kCases);
  const StageProgress& p = run.p;
  CHECK(run.report.error == "");
  CHECK(run.labels.error == "");
  CHECK(p.stage == "01-a");
  CHECK(p.passed == 4);
  CHECK(p.total == 8);
  REQUIRE(p.exercises.size() == 4);
  CHECK(p.exercises[0].state == ExerciseState::done);
  CHECK(p.exercises[0].passed == 2);
  CHECK(p.exercises[0].total == 2);
  CHECK(p.exercises[1].state == ExerciseState::not_started);
  CHECK(p.exercises[1].failures.empty());
  CHECK(p.exercises[2].state == ExerciseState::failing);
  CHECK(p.exercises[2].passed == 1);
  CHECK(p.exercises[2].total == 3);
  REQUIRE(p.exercises[2].failures.size() == 2);
  CHECK(p.exercises[2].failures[0]->name == "c1");
  CHECK(p.exercises[2].failures[1]->name == "c3");
  CHECK(p.exercises[3].state == ExerciseState::no_tests);
  CHECK(p.done() == 1);
  CHECK(p.next() == &p.exercises[1]);
  // "geral" e "sem rótulo" não são de nenhum exercício; "outra etapa" nem desta etapa é.
  CHECK(p.other_passed == 1);
  CHECK(p.other_total == 2);
  REQUIRE(p.other_failures.size() == 1);
  CHECK(p.other_failures[0]->name == "sem rótulo");
}

TEST_CASE("stage_progress: um stub que aparece junto com uma falha de verdade é falha") {
  const Catalog catalog = parse_hints(hint_entry("01-a/b", "B"), "h.md", "01-a");
  const Progress run(catalog, {{"b1", "fail", kStub + kFailC1, {"01-a", "01-a/b"}},
                               {"b2", "fail", "outra saída qualquer", {"01-a", "01-a/b"}}});
  const StageProgress& p = run.p;
  CHECK(p.exercises[0].state == ExerciseState::failing);
  CHECK(p.exercises[0].failures.size() == 2);
}

TEST_CASE("render_stage_report: uma linha por exercício, as falhas do primeiro e o próximo") {
  const Catalog catalog = parse_hints(kReportHints, "exercises/01-a/hints.md", "01-a");
  const Progress run(catalog, kCases);
  const StageProgress& p = run.p;
  CHECK(render_stage_report(p) == kReport);
  CHECK(render_stage_report(p, 1) ==
        kReportHead + "(e mais 1: ./hz test 01-a/ccc mostra todas)\n" + kReportNext);
}

TEST_CASE("render_stage_report: a falha sem saída diz que o teste foi parado, e depois de quanto") {
  const Catalog catalog = parse_hints(hint_entry("01-a/a", "A"), "h.md", "01-a");
  const Progress run(catalog, {{"sem fim", "fail", "", {"01-a", "01-a/a"}, "60.0693"},
                               {"morreu", "fail", "", {"01-a", "01-a/a"}, "0.21"},
                               {"passou", "run", "", {"01-a", "01-a/a"}, "0.02"}});
  CHECK(run.report.tests[0].seconds == doctest::Approx(60.0693));
  CHECK(render_stage_report(run.p) ==
        "01-a: 0 de 1 exercício feito · 1/3 testes passando\n"
        "  ✗ 01-a/a  1/3  2 testes falham\n"
        "\n"
        "Falhas de 01-a/a:\n"
        "── sem fim\n"
        "  o teste não escreveu nada e foi parado depois de 60 s: passou do tempo-limite de um "
        "caso de teste (um laço que não termina?)\n"
        "── morreu\n"
        "  o teste não escreveu nada: o processo parou depois de 0,2 s, antes do relatório do "
        "doctest\n"
        "Próximo: 01-a/a — leia livro/01-a.md, \"A\"; teste com ./hz test 01-a/a (dica: ./hz "
        "hint 01-a/a)\n");
}

TEST_CASE("progress_line e next_step_line nos outros estados da etapa") {
  const Catalog one = parse_hints(hint_entry("01-a/a", "A"), "h.md", "01-a");
  const Progress done_run(one, {{"a1", "run", "", {"01-a", "01-a/a"}}});
  const StageProgress& done = done_run.p;
  CHECK(progress_line(done) == "01-a: 1 de 1 exercício feito · 1/1 testes passando");
  CHECK(next_step_line(done) == "Etapa 01-a completa.");
  CHECK(render_stage_report(done) ==
        "01-a: 1 de 1 exercício feito · 1/1 testes passando\n"
        "  ✓ 01-a/a  1/1\n"
        "Etapa 01-a completa.\n");

  const Progress others_fail(
      one, {{"a1", "run", "", {"01-a", "01-a/a"}}, {"geral", "fail", kFailC1, {"01-a"}}});
  CHECK(next_step_line(others_fail.p) ==
        "Próximo: os exercícios passam, mas há testes da etapa falhando (veja acima: ./hz test "
        "01-a)");
  // Com os exercícios feitos, as falhas dos testes sem exercício aparecem por inteiro.
  CHECK(render_stage_report(others_fail.p) ==
        "01-a: 1 de 1 exercício feito · 1/2 testes passando\n"
        "  ✓ 01-a/a         1/1\n"
        "  ✗ sem exercício  0/1  1 teste falha\n"
        "\n"
        "Falhas dos testes sem exercício:\n"
        "── geral\n" +
            kFailC1 +
            "Próximo: os exercícios passam, mas há testes da etapa falhando (veja acima: ./hz "
            "test 01-a)\n");
  // Com um exercício ainda no stub, eles falham também por ele: só a contagem.
  const Progress stub_and_others(
      one, {{"a1", "fail", kStub, {"01-a", "01-a/a"}}, {"geral", "fail", kFailC1, {"01-a"}}});
  CHECK(render_stage_report(stub_and_others.p) ==
        "01-a: 0 de 1 exercício feito · 0/2 testes passando\n"
        "  · 01-a/a         0/1  ainda é o stub\n"
        "  ✗ sem exercício  0/1  1 teste falha\n"
        "Próximo: 01-a/a — leia livro/01-a.md, \"A\"; teste com ./hz test 01-a/a (dica: ./hz "
        "hint 01-a/a)\n");

  const Progress no_tests(one, {{"geral", "run", "", {"01-a"}}});
  CHECK(next_step_line(no_tests.p) ==
        "Próximo: 01-a/a não tem testes neste relatório (o build da etapa passou?)");

  const Catalog empty;
  const Progress no_exercises(empty, {{"geral", "run", "", {"01-a"}}});
  CHECK(progress_line(no_exercises.p) == "01-a: 1/1 testes passando");
}

// ----------------------------------------------------------- report e progress

namespace {

void write_reports(const Tree& t, const std::string& stage, const std::vector<Case>& cases) {
  t.write("r/" + stage + ".xml", junit_of(cases));
  t.write("r/" + stage + ".json", json_of(cases));
}

void write_report_course(const Tree& t) {
  t.write("etapas/stages.txt", "01-a\n02-b: x\n03-c: y\n");
  t.write("exercises/01-a/hints.md", kReportHints);
  t.write("exercises/02-b/hints.md", hint_entry("02-b/x", "X"));
}

}  // namespace

TEST_CASE("report imprime o resumo da etapa e sai com 0 só quando tudo passa") {
  Tree t;
  write_report_course(t);
  write_reports(t, "01-a", kCases);
  const auto r = run_in(
      t, "report",
      {"--stage", "01-a", "--junit", t.path("r/01-a.xml"), "--tests-json", t.path("r/01-a.json")});
  CHECK_RUN(r, 1, kReport, "");

  write_reports(t, "02-b", {{"x1", "run", "", {"02-b", "02-b/x"}}});
  const auto ok = run_in(
      t, "report",
      {"--stage", "02-b", "--junit", t.path("r/02-b.xml"), "--tests-json", t.path("r/02-b.json")});
  CHECK(ok.out ==
        "02-b: 1 de 1 exercício feito · 1/1 testes passando\n"
        "  ✓ 02-b/x  1/1\n"
        "Etapa 02-b completa.\n");
  CHECK(ok.code == 0);
}

TEST_CASE("report: opções que faltam e relatórios ilegíveis são erros de uso") {
  Tree t;
  write_report_course(t);
  const auto missing = run_in(t, "report", {"--stage", "01-a"});
  CHECK(missing.code == 2);
  CHECK(missing.err == usage_error("falta --junit ARQUIVO"));
  t.write("lixo.xml", "nada\n");
  const auto bad = run_in(
      t, "report",
      {"--stage", "01-a", "--junit", t.path("lixo.xml"), "--tests-json", t.path("nada.json")});
  CHECK(bad.code == 2);
  CHECK(bad.err ==
        usage_error(t.path("lixo.xml") + ": não parece um relatório JUnit (falta <testsuite>)"));
  write_reports(t, "01-a", kCases);
  const auto no_json = run_in(
      t, "report",
      {"--stage", "01-a", "--junit", t.path("r/01-a.xml"), "--tests-json", t.path("nada.json")});
  CHECK(no_json.code == 2);
  CHECK(no_json.err == usage_error("não consegui ler " + t.path("nada.json")));
}

TEST_CASE("progress: uma linha por etapa com relatório e o próximo passo") {
  Tree t;
  write_report_course(t);
  write_reports(t, "01-a", kCases);
  write_reports(t, "02-b", {{"x1", "run", "", {"02-b", "02-b/x"}}});
  const auto r = run_in(t, "progress", {"--junit-dir", t.path("r")});
  CHECK_RUN(r, 0,
            "01-a: 1 de 4 exercícios feitos · 4/8 testes passando\n"
            "02-b: 1 de 1 exercício feito · 1/1 testes passando\n" +
                kReportNext,
            "");

  t.remove("r/01-a.xml");
  const auto done = run_in(t, "progress", {"--junit-dir", t.path("r")});
  CHECK(done.out ==
        "02-b: 1 de 1 exercício feito · 1/1 testes passando\n"
        "Todos os exercícios feitos.\n");
  CHECK(done.code == 0);
}

TEST_CASE("progress sem nenhum relatório sai com 1, e sem --junit-dir é erro de uso") {
  Tree t;
  write_report_course(t);
  const auto none = run_in(t, "progress", {"--junit-dir", t.path("r")});
  CHECK_RUN(none, 1, "", "hz-course: nenhum relatório em " + t.root().generic_string() + "/r\n");
  const auto usage = run_in(t, "progress");
  CHECK(usage.code == 2);
  CHECK(usage.err == usage_error("falta --junit-dir DIR"));
}
