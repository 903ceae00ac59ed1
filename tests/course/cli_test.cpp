#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "fixture.hpp"

namespace fs = std::filesystem;

using hz::course::test::hint_entry;
using hz::course::test::junit_of;
using hz::course::test::run_course;
using hz::course::test::run_in;
using hz::course::test::Tree;
using hz::course::test::usage_error;

namespace {

const std::string kHintsB =
    "## 01-a/b\n"
    "Capítulo: livro/01-a.md\n"
    "Seção: B\n"
    "\n"
    "1. olhe o contrato\n"
    "2. pense no caso vazio\n"
    "   antes do resto\n"
    "3. quase a resposta\n";

void write_hint_course(const Tree& t) {
  t.write("etapas/stages.txt", "01-a\n02-b: x\n");
  t.write("exercises/01-a/hints.md", hint_entry("01-a/a", "A") + kHintsB);
  t.write("exercises/02-b/hints.md", hint_entry("02-b/x", "X"));
}

std::vector<std::string> hint_args(const Tree& t, std::vector<std::string> extra) {
  std::vector<std::string> args = {"hint", "--root", t.path(), "--state", t.path("b/dicas.json")};
  for (std::string& a : extra) args.push_back(std::move(a));
  return args;
}

// hz-course hint sem --exercise, com os relatórios dos testes em r/.
hz::course::test::Run hint_from_reports(const Tree& t) {
  return run_course(hint_args(t, {"--junit-dir", t.path("r")}));
}

void age(const Tree& t, const std::string& rel, int seconds) {
  const fs::path p = t.root() / rel;
  fs::last_write_time(p, fs::last_write_time(p) - std::chrono::seconds(seconds));
}

// Os rótulos dos testes da etapa 01-a: a1 é de 01-a/a e b1 de 01-a/b.
constexpr const char* kLabels01 =
    R"({"tests":[{"name":"a1","properties":[{"name":"LABELS","value":["01-a","01-a/a"]}]},)"
    R"({"name":"b1","properties":[{"name":"LABELS","value":["01-a","01-a/b"]}]}]})";

// O relatório de ./hz test 01-a, de um minuto atrás, com b falhando.
void write_01a_report_b_failing(const Tree& t) {
  t.write("r/01-a.xml", junit_of({{"a1", "run"}, {"b1", "fail"}}));
  t.write("r/01-a.json", kLabels01);
  age(t, "r/01-a.xml", 60);
}

}  // namespace

TEST_CASE("sem subcomando a ajuda vai para o stderr com código 2, e help a põe no stdout") {
  const auto none = run_course({});
  CHECK(none.code == 2);
  CHECK(none.out == "");
  CHECK(none.err.rfind("uso: hz-course <subcomando> [opções]\n\nsubcomandos:\n", 0) == 0);
  for (const char* help : {"help", "--help", "-h"}) {
    const auto r = run_course({help});
    CHECK(r.code == 0);
    CHECK(r.err == "");
    CHECK(r.out == none.err);
  }
}

TEST_CASE("subcomando desconhecido, opção desconhecida e opção sem valor são erros de uso") {
  const auto unknown = run_course({"voar"});
  CHECK_RUN(unknown, 2, "", usage_error("subcomando desconhecido: voar"));
  const auto option = run_course({"list", "--root", ".", "--voar"});
  CHECK(option.code == 2);
  CHECK(option.err == usage_error("opção desconhecida para list: --voar"));
  const auto value = run_course({"exercises", "--root"});
  CHECK(value.code == 2);
  CHECK(value.err == usage_error("a opção --root precisa de um valor"));
}

TEST_CASE("combinações de opções que não fazem sentido são erros de uso") {
  CHECK(run_course({"exercises", "--check", "--force"}).err ==
        usage_error("--check não combina com --force nem --proof-out"));
  CHECK(run_course({"exercises", "--check", "--proof-out", "x"}).err ==
        usage_error("--check não combina com --force nem --proof-out"));
  const auto listings = run_course({"listings", "--check", "--update"});
  CHECK(listings.code == 2);
  CHECK(listings.err == usage_error("use --check ou --update, não os dois"));
  const auto root = run_course({"listings", "--root", "/nao/existe/mesmo"});
  CHECK(root.code == 2);
  CHECK(root.err == usage_error("a raiz /nao/existe/mesmo não existe"));
  CHECK(run_course({"hint", "--root", "."}).err == usage_error("falta --state ARQUIVO"));
  CHECK(run_course({"grade", "--stage", "01-a"}).err == usage_error("falta --junit ARQUIVO"));
}

TEST_CASE("a opção obrigatória que falta é dita com o valor que ela espera, na ordem do uso") {
  CHECK(run_course({"release"}).err == usage_error("falta --root CÓPIA"));
  CHECK(run_course({"release", "--root", "c", "--reference", "r"}).err ==
        usage_error("falta --stages NN-nome[,...]"));
  CHECK(run_course({"update", "--root", "c"}).err == usage_error("falta --from VERSÃO-NOVA"));
  CHECK(run_course({"passes-on-stubs", "--junit", "j.xml"}).err ==
        usage_error("falta --list ARQUIVO"));
  const auto docs = run_course({"student-docs"});
  CHECK_RUN(docs, 2, "", usage_error("falta --root CÓPIA"));
}

TEST_CASE("um curso sem etapas/stages.txt legível é erro com código 2") {
  Tree t;
  const auto r = run_in(t, "list");
  CHECK_RUN(r, 2, "",
            "não consegui ler " + (t.root() / "etapas/stages.txt").generic_string() + "\n");
  t.write("etapas/stages.txt", "01-a\n");
  t.write("exercises/01-a/hints.md", "## 01-a/x\n");
  const auto hints = run_in(t, "hint", {"--state", t.path("s.json")});
  CHECK(hints.code == 2);
  CHECK(hints.err ==
        "exercises/01-a/hints.md:1: 01-a/x: falta a linha \"Capítulo: livro/NN-nome.md\"\n"
        "exercises/01-a/hints.md:1: 01-a/x: falta a linha \"Seção: <título exato>\"\n"
        "exercises/01-a/hints.md:1: 01-a/x: uma escada de dicas precisa de pelo menos 2 dicas "
        "(itens \"1. ...\", \"2. ...\")\n");
  CHECK_FALSE(t.exists("s.json"));
}

TEST_CASE("list mostra id, etapa e onde ler, um exercício por linha") {
  Tree t;
  write_hint_course(t);
  const auto all = run_in(t, "list");
  CHECK_RUN(all, 0,
            "01-a/a\t01-a\tlivro/01-a.md, \"A\"\n"
            "01-a/b\t01-a\tlivro/01-a.md, \"B\"\n"
            "02-b/x\t02-b\tlivro/02-b.md, \"X\"\n",
            "");
  const auto one = run_in(t, "list", {"--stage", "02-b"});
  CHECK(one.out == "02-b/x\t02-b\tlivro/02-b.md, \"X\"\n");
}

TEST_CASE("hint sobe a escada uma dica por vez e guarda onde o aluno está") {
  Tree t;
  write_hint_course(t);
  const auto first = run_course(hint_args(t, {"--exercise", "01-a/b"}));
  CHECK_RUN(first, 0,
            "01-a/b — livro/01-a.md, \"B\"\n"
            "Dica 1 de 3: olhe o contrato\n"
            "(./hz hint 01-a/b de novo mostra a próxima)\n",
            "");
  CHECK(t.read("b/dicas.json") == "{\n  \"01-a/b\": 1\n}\n");

  const auto second = run_course(hint_args(t, {"--exercise", "01-a/b"}));
  CHECK(second.out ==
        "01-a/b — livro/01-a.md, \"B\"\n"
        "Dica 2 de 3: pense no caso vazio antes do resto\n"
        "(./hz hint 01-a/b de novo mostra a próxima)\n");
  const auto third = run_course(hint_args(t, {"--exercise", "01-a/b"}));
  CHECK(third.out ==
        "01-a/b — livro/01-a.md, \"B\"\n"
        "Dica 3 de 3: quase a resposta\n");
  CHECK(t.read("b/dicas.json") == "{\n  \"01-a/b\": 3\n}\n");

  const auto after = run_course(hint_args(t, {"--exercise", "01-a/b"}));
  CHECK(after.out ==
        "01-a/b — livro/01-a.md, \"B\"\n"
        "Você já viu as 3 dicas deste exercício:\n"
        "  1. olhe o contrato\n"
        "  2. pense no caso vazio antes do resto\n"
        "  3. quase a resposta\n"
        "A resposta comentada está no capítulo, depois dos exercícios. Antes de ler, rode\n"
        "./hz test 01-a/b e leia a falha: ela mostra os dois lados.\n");
  CHECK(after.code == 0);
  CHECK(t.read("b/dicas.json") == "{\n  \"01-a/b\": 3\n}\n");

  // Cada exercício tem a sua escada.
  const auto other = run_course(hint_args(t, {"--exercise", "02-b/x"}));
  CHECK(other.out.find("Dica 1 de 2: primeira dica de 02-b/x\n") != std::string::npos);
  CHECK(t.read("b/dicas.json") == "{\n  \"01-a/b\": 3,\n  \"02-b/x\": 1\n}\n");
}

TEST_CASE("hint --reset zera a escada de um exercício só") {
  Tree t;
  write_hint_course(t);
  t.write("b/dicas.json", "{\"01-a/b\": 2, \"02-b/x\": 1}");
  const auto reset = run_course(hint_args(t, {"--exercise", "01-a/b", "--reset"}));
  CHECK_RUN(reset, 0, "Dicas de 01-a/b zeradas.\n", "");
  CHECK(t.read("b/dicas.json") == "{\n  \"02-b/x\": 1\n}\n");
  CHECK(run_course(hint_args(t, {"--exercise", "01-a/b"})).out.find("Dica 1 de 3:") !=
        std::string::npos);
}

TEST_CASE("hint sem --exercise: o primeiro exercício não feito nos relatórios, ou o primeiro") {
  Tree t;
  write_hint_course(t);
  CHECK(run_course(hint_args(t, {})).out.rfind("01-a/a — livro/01-a.md, \"A\"\n", 0) == 0);

  t.write("r/01-a.xml",
          "<testsuite>\n<testcase name=\"a1\" status=\"run\"></testcase>\n"
          "<testcase name=\"b1\" status=\"fail\"><failure/></testcase>\n</testsuite>\n");
  t.write("r/01-a.json", kLabels01);
  const auto r = hint_from_reports(t);
  CHECK(r.err == "");
  CHECK(r.out.rfind("01-a/b — livro/01-a.md, \"B\"\nDica 1 de 3:", 0) == 0);
}

TEST_CASE("hint sem --exercise: um exercício terminado testando só ele não é mais o atual") {
  Tree t;
  write_hint_course(t);
  // ./hz test 01-a com b falhando; depois ./hz test 01-a/b, que passou.
  write_01a_report_b_failing(t);
  t.write("r/exercicios/01-a_b.xml", junit_of({{"b1", "run"}}));
  const auto next = hint_from_reports(t);
  CHECK(next.err == "");
  CHECK(next.out.rfind("02-b/x — livro/02-b.md, \"X\"\n", 0) == 0);

  // Um relatório da etapa mais novo que o do exercício vale mais que ele.
  age(t, "r/exercicios/01-a_b.xml", 120);
  CHECK(hint_from_reports(t).out.rfind("01-a/b — livro/01-a.md, \"B\"\n", 0) == 0);
}

TEST_CASE("hint sem --exercise: o primeiro que não passou, mesmo que o aluno já esteja adiante") {
  Tree t;
  write_hint_course(t);
  // A etapa 01-a ficou com b falhando; o aluno já testou 02-b/x. Sem um teste
  // mais novo de b, ele ainda é o primeiro que falta.
  write_01a_report_b_failing(t);
  t.write("r/exercicios/02-b_x.xml", junit_of({{"x1", "fail"}}));
  CHECK(hint_from_reports(t).out.rfind("01-a/b — livro/01-a.md, \"B\"\n", 0) == 0);
  t.write("r/exercicios/01-a_b.xml", junit_of({{"b1", "run"}}));
  CHECK(hint_from_reports(t).out.rfind("02-b/x — livro/02-b.md, \"X\"\n", 0) == 0);

  // Tudo passando: nenhum exercício atual, e o hint diz isso sem mexer nas dicas.
  t.write("r/exercicios/02-b_x.xml", junit_of({{"x1", "run"}}));
  const std::string state = t.read("b/dicas.json");
  const auto done = hint_from_reports(t);
  CHECK(done.code == 0);
  CHECK(done.err == "");
  CHECK(
      done.out ==
      "Todos os exercícios passam, segundo os últimos testes. ./hz hint EXERCÍCIO mostra as dicas "
      "de um deles.\n");
  CHECK(t.read("b/dicas.json") == state);
}

TEST_CASE("hint com exercício desconhecido lista os que existem") {
  Tree t;
  write_hint_course(t);
  const auto r = run_course(hint_args(t, {"--exercise", "01-a/z"}));
  CHECK_RUN(r, 2, "",
            usage_error("exercício desconhecido: 01-a/z (exercícios: 01-a/a 01-a/b 02-b/x)"));
  CHECK_FALSE(t.exists("b/dicas.json"));
}

TEST_CASE("hint com estado ilegível ou estranho recomeça a escada sem quebrar") {
  Tree t;
  write_hint_course(t);
  for (const char* state : {"lixo", "[1, 2]", "{\"01-a/b\": \"dois\"}", "{\"01-a/b\": -1}",
                            "{\"01-a/b\": 1.5}", "{\"01-a/b\": null}"}) {
    CAPTURE(state);
    t.write("b/dicas.json", state);
    const auto r = run_course(hint_args(t, {"--exercise", "01-a/b"}));
    CHECK(r.err == "");
    CHECK(r.code == 0);
    CHECK(r.out ==
          "01-a/b — livro/01-a.md, \"B\"\n"
          "Dica 1 de 3: olhe o contrato\n"
          "(./hz hint 01-a/b de novo mostra a próxima)\n");
    CHECK(t.read("b/dicas.json").find("\"01-a/b\": 1\n") != std::string::npos);
  }
}

TEST_CASE("hint com --state /dev/null não guarda nada (o ./hz watch usa assim)") {
  Tree t;
  write_hint_course(t);
  for (int i = 0; i < 2; ++i) {
    const auto r = run_in(t, "hint", {"--state", "/dev/null"});
    CHECK(r.code == 0);
    CHECK(r.out.rfind("01-a/a — livro/01-a.md, \"A\"\nDica 1 de 2:", 0) == 0);
  }
}
