#include <doctest/doctest.h>

#include "fixture.hpp"
#include "hz/course/junit.hpp"
#include "hz/course/stub_verdict.hpp"

using namespace hz::course;
using hz::course::test::junit_of;
using hz::course::test::run_course;
using hz::course::test::Tree;
using hz::course::test::usage_error;

TEST_CASE("parse_junit lê nome e situação de cada teste") {
  // Como o ctest 3.25 escreve, com entidades nos nomes e um <testcase> falso na saída.
  const auto r = parse_junit(R"(<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="x" tests="3">
  <testcase name="passa &amp; &lt;ok&gt;" status="run">
    <system-out>&lt;testcase name=&quot;falso&quot;&gt;</system-out></testcase>
  <testcase name="falha &quot;x&quot;" status="fail"><failure message=""/>
    <system-out>&lt;testcase name=&quot;falso&quot;&gt;</system-out></testcase>
  <testcase name="n&#227;o rodou" status="notrun"><skipped message="Unable to find executable"/>
    <system-out>&lt;testcase name=&quot;falso&quot;&gt;</system-out></testcase>
</testsuite>
)");
  CHECK(r.error == "");
  REQUIRE(r.tests.size() == 3);
  CHECK(r.tests[0].name == "passa & <ok>");
  CHECK(r.tests[0].status == TestStatus::passed);
  CHECK(r.tests[1].name == "falha \"x\"");
  CHECK(r.tests[1].status == TestStatus::failed);
  CHECK(r.tests[2].name == "não rodou");
  CHECK(r.tests[2].status == TestStatus::not_run);
  CHECK(parse_junit("oi").error == "não parece um relatório JUnit (falta <testsuite>)");
}

TEST_CASE("parse_junit entende o XML de verdade: aspas simples, '>' no nome, CDATA e comentários") {
  // Um leitor de busca em texto cortaria a tag no primeiro '>', leria o <testcase> do
  // comentário e deixaria o CDATA e as entidades numéricas como vieram.
  const auto r = parse_junit(
      "<testsuites><testsuite name='s'>\n"
      "<!-- <testcase name=\"no comentário\"/> -->\n"
      "<testcase name='diz \"oi\" &gt; e 2 > 1' status='run'>"
      "<system-out>antes &amp; <![CDATA[<b>&amp;</b>]]> depois &#x1F600;&#233;</system-out>"
      "</testcase>\n"
      "<testcase classname=\"c\" name=\"sem status\"><failure message=\"x\"/></testcase>\n"
      "<testcase name=\"pulado\"><skipped/></testcase>\n"
      "</testsuite></testsuites>\n");
  CHECK(r.error == "");
  REQUIRE(r.tests.size() == 3);
  CHECK(r.tests[0].name == "diz \"oi\" > e 2 > 1");
  CHECK(r.tests[0].status == TestStatus::passed);
  CHECK(r.tests[0].output == "antes & <b>&amp;</b> depois \xF0\x9F\x98\x80\xC3\xA9");
  CHECK(r.tests[1].name == "sem status");
  CHECK(r.tests[1].status == TestStatus::failed);
  CHECK(r.tests[1].output == "");
  CHECK(r.tests[2].name == "pulado");
  CHECK(r.tests[2].status == TestStatus::not_run);
}

TEST_CASE("parse_junit recusa XML malformado e <testcase> sem nome") {
  CHECK(parse_junit("<testsuite><testcase name=\"a\">").error ==
        "relatório JUnit malformado (byte 29)");
  CHECK(parse_junit("<testsuite><testcase status=\"run\"/></testsuite>").error ==
        "<testcase> sem atributo name");
  CHECK(parse_junit("<outro><testcase name=\"a\"/></outro>").error ==
        "não parece um relatório JUnit (falta <testsuite>)");
}

TEST_CASE("a lista de permitidos exige motivo e não aceita repetidos") {
  const auto ok = parse_allow_list("# comentário\n\nteste a | não chama o stub\n", "p.txt");
  CHECK(ok.error == "");
  REQUIRE(ok.entries.size() == 1);
  CHECK(ok.entries[0].test == "teste a");
  CHECK(ok.entries[0].reason == "não chama o stub");
  CHECK(parse_allow_list("teste a\n", "p.txt").error ==
        "p.txt:1: falta o motivo de 'teste a' (formato: <nome do TEST_CASE> | <motivo>)");
  CHECK(parse_allow_list("a | x\nb | y\na | z\n", "p.txt").error ==
        "p.txt:3: 'a' repetido (já está na linha 1)");
}

TEST_CASE("passes-on-stubs aprova quando só os listados passam") {
  Tree t;
  t.write("j.xml",
          junit_of({{"falha um", "fail"}, {"falha dois", "fail"}, {"passa listado", "run"}}));
  t.write("p.txt", "passa listado | só confere a ajuda do executável\n");
  const auto r = run_course({"passes-on-stubs", "--list", (t.root() / "p.txt").string(), "--junit",
                             (t.root() / "j.xml").string(), "--stage", "01-loop"});
  CHECK_RUN(r, 0, "01-loop: 3 testes; 2 falham com os stubs, 1 passa e está na lista\n", "");
}

TEST_CASE("passes-on-stubs conta no plural quando vários passam") {
  Tree t;
  t.write("j.xml", junit_of({{"a", "fail"}, {"b", "run"}, {"c", "run"}}));
  t.write("p.txt", "b | motivo\nc | motivo\n");
  const auto r = run_course({"passes-on-stubs", "--list", (t.root() / "p.txt").string(), "--junit",
                             (t.root() / "j.xml").string(), "--stage", "01-loop"});
  CHECK(r.code == 0);
  CHECK(r.out == "01-loop: 3 testes; 1 falha com os stubs, 2 passam e estão na lista\n");
}

TEST_CASE("passes-on-stubs reprova teste que passa fora da lista e entradas velhas") {
  Tree t;
  t.write("j.xml", junit_of({{"passa sozinho", "run"},
                             {"listado mas falha", "fail"},
                             {"nem compilou", "notrun"}}));
  const std::string list = (t.root() / "p.txt").string();
  t.write("p.txt", "listado mas falha | antes passava\nsumiu | foi renomeado\n");
  const auto r = run_course({"passes-on-stubs", "--list", list, "--junit",
                             (t.root() / "j.xml").string(), "--stage", "01-loop"});
  CHECK_RUN(r, 1, "",
            "passa com o stub e não está na lista: passa sozinho\n"
            "não rodou (o teste foi compilado?): nem compilou\n"
            "está na lista mas falha com o stub (tire da lista): listado mas falha\n"
            "está na lista mas não existe (tire da lista): sumiu\n"
            "01-loop: todo teste da etapa precisa falhar com os stubs, ou estar justificado em " +
                list + "\n");
}

TEST_CASE("passes-on-stubs sem arquivo de lista exige que tudo falhe") {
  Tree t;
  t.write("j.xml", junit_of({{"a", "fail"}, {"b", "run"}}));
  const auto r = run_course({"passes-on-stubs", "--list", (t.root() / "nao-existe.txt").string(),
                             "--junit", (t.root() / "j.xml").string(), "--stage", "01-loop"});
  CHECK(r.code == 1);
  CHECK(r.err.rfind("passa com o stub e não está na lista: b\n", 0) == 0);

  // Com --only-stub-failures, a falha tem de ser só a do stub: um CHECK que
  // falha antes, ou um crash com a mensagem do stub, reprovam.
  const std::string stub = "exercício 01-loop/a não implementado: leia o livro\n";
  t.write("k.xml",
          junit_of({{"só o stub", "fail", stub},
                    {"um CHECK antes", "fail", "x.cpp:3: ERROR: CHECK( 1 == 2 )\n" + stub},
                    {"crash", "fail", "what():  " + stub + "FATAL ERROR: test case CRASHED"},
                    {"outra falha", "fail", "x.cpp:9: ERROR: CHECK( 1 == 2 )"}}));
  const std::vector<std::string> strict = {"passes-on-stubs",
                                           "--list",
                                           "x",
                                           "--junit",
                                           (t.root() / "k.xml").string(),
                                           "--stage",
                                           "01-loop/a",
                                           "--only-stub-failures"};
  const std::string why =
      "falha, mas não só pelo stub (o aluno leria \"testes falham\", e não "
      "\"ainda é o stub\"): ";
  CHECK_RUN(run_course(strict), 1, "",
            why + "um CHECK antes\n" + why + "crash\n" + why + "outra falha\n" +
                "01-loop/a: todo teste da etapa precisa falhar com os stubs, ou estar justificado "
                "em x\n");
  std::vector<std::string> lenient = strict;
  lenient.pop_back();
  CHECK(run_course(lenient).code == 0);  // sem a opção, falhar basta
}

TEST_CASE("passes-on-stubs com relatório vazio reprova") {
  Tree t;
  t.write("j.xml", junit_of({}));
  const auto r = run_course({"passes-on-stubs", "--list", "x", "--junit",
                             (t.root() / "j.xml").string(), "--stage", "01-loop"});
  CHECK(r.code == 1);
  CHECK(r.err.rfind("nenhum teste no relatório: a etapa tem testes?\n", 0) == 0);
}

TEST_CASE("grade dá a nota da etapa e só sai com 0 quando todos passam") {
  Tree t;
  t.write("parcial.xml", junit_of({{"a", "run"}, {"b", "fail"}, {"c", "notrun"}}));
  t.write("cheio.xml", junit_of({{"a", "run"}, {"b", "run"}}));
  const auto parcial =
      run_course({"grade", "--junit", (t.root() / "parcial.xml").string(), "--stage", "01-loop"});
  CHECK_RUN(parcial, 1, "01-loop: 1/3 testes passando\n", "");
  const auto cheio =
      run_course({"grade", "--junit", (t.root() / "cheio.xml").string(), "--stage", "01-loop"});
  CHECK_RUN(cheio, 0, "01-loop: 2/2 testes passando\n", "");
}

TEST_CASE("grade sem nenhum teste reprova e relatório ilegível é erro") {
  Tree t;
  t.write("vazio.xml", junit_of({}));
  t.write("lixo.xml", "nada aqui\n");
  const auto vazio =
      run_course({"grade", "--junit", (t.root() / "vazio.xml").string(), "--stage", "01-loop"});
  CHECK_RUN(vazio, 1, "01-loop: 0/0 testes passando\n",
            "01-loop: nenhum teste rodou (o rótulo 01-loop não tem testes?)\n");
  const auto lixo =
      run_course({"grade", "--junit", (t.root() / "lixo.xml").string(), "--stage", "x"});
  CHECK_RUN(lixo, 2, "",
            usage_error((t.root() / "lixo.xml").string() +
                        ": não parece um relatório JUnit (falta <testsuite>)"));
  const auto falta = run_course({"grade", "--junit", (t.root() / "vazio.xml").string()});
  CHECK(falta.err == usage_error("falta --stage NN-nome"));
  CHECK(falta.code == 2);
}

TEST_CASE("score_line é o formato comum de progress e grade") {
  CHECK(score_line("01-loop", {6, 44}) == "01-loop: 6/44 testes passando");
  CHECK(score(parse_junit(junit_of({{"a", "run"}, {"b", "fail"}}))).passed == 1);
}
