#include <doctest/doctest.h>

#include "fixture.hpp"
#include "hz/course/catalog.hpp"

using hz::course::Catalog;
using hz::course::check_sections;
using hz::course::parse_hints;
using hz::course::parse_stage_list;
using hz::course::read_catalog;
using hz::course::read_stage_list;
using hz::course::StageList;
using hz::course::test::hint_entry;
using hz::course::test::Tree;

namespace {

std::string stage_error(const std::string& text) {
  return parse_stage_list(text, "etapas/stages.txt").error;
}

// O erro de um nome de etapa fora do formato na linha `line` de stages.txt.
std::string bad_stage_name(int line, const std::string& name) {
  return "etapas/stages.txt:" + std::to_string(line) + ": nome de etapa inválido '" + name +
         "' (formato: NN-nome, com minúsculas e '-')";
}

std::vector<std::string> hint_errors(const std::string& text) {
  return parse_hints(text, "exercises/01-a/hints.md", "01-a").errors;
}

const std::string kHints =
    "# Dicas da etapa 01-a\n"
    "\n"
    "Texto livre antes do primeiro exercício não conta.\n"
    "\n"
    "## 01-a/soma\n"
    "Capítulo: livro/01-a.md\n"
    "Seção: Exercício 1 — A soma\n"
    "\n"
    "1. a primeira dica\n"
    "   continua nesta linha\n"
    "2. a segunda\n"
    "\n"
    "## 01-a/produto\n"
    "Capítulo:   livro/01-a.md  \n"
    "Seção: Exercício 2 — O produto\n"
    "1. um\n"
    "2. dois\n"
    "3. três\n";

}  // namespace

TEST_CASE("stages.txt: etapas em ordem, com comentários e a lista de mudanças") {
  const StageList list = parse_stage_list(
      "# as etapas\n"
      "01-loop\n"
      "\n"
      "02-brakes:  agent_loop.cpp\tbudget.hpp   # o que o capítulo 2 muda\n"
      "03-repetition-detector:\n",
      "etapas/stages.txt");
  CHECK(list.error == "");
  REQUIRE(list.stages.size() == 3);
  CHECK(list.stages[0].name == "01-loop");
  CHECK(list.stages[0].changes.empty());
  CHECK(list.stages[0].line == 2);
  CHECK(list.stages[1].name == "02-brakes");
  CHECK(list.stages[1].changes == std::vector<std::string>{"agent_loop.cpp", "budget.hpp"});
  CHECK(list.stages[1].line == 4);
  CHECK(list.stages[2].name == "03-repetition-detector");
  CHECK(list.stages[2].changes.empty());
  CHECK(list.stages[2].line == 5);

  CHECK(list.find("02-brakes") == &list.stages[1]);
  CHECK(list.find("02") == nullptr);
  CHECK(list.up_to("02-brakes") == std::vector<std::string>{"01-loop", "02-brakes"});
  CHECK(list.up_to("01-loop") == std::vector<std::string>{"01-loop"});
  CHECK(list.up_to("09-nada").empty());
}

TEST_CASE("stages.txt com CRLF é lido como com LF") {
  const StageList list = parse_stage_list("01-a\r\n02-b: x.cpp\r\n", "etapas/stages.txt");
  CHECK(list.error == "");
  REQUIRE(list.stages.size() == 2);
  CHECK(list.stages[1].name == "02-b");
  CHECK(list.stages[1].changes == std::vector<std::string>{"x.cpp"});
}

TEST_CASE("stages.txt: cada erro diz arquivo e linha") {
  CHECK(stage_error("01-a\n01-Loop\n") == bad_stage_name(2, "01-Loop"));
  CHECK(stage_error("loop\n") == bad_stage_name(1, "loop"));
  CHECK(stage_error(": x.cpp\n") == bad_stage_name(1, ""));
  CHECK(stage_error("01-a\n\n01-a\n") == "etapas/stages.txt:3: etapa 01-a repetida");
  CHECK(stage_error("02-b\n01-a\n") ==
        "etapas/stages.txt:2: a etapa 01-a vem depois de 02-b: fora de ordem");
  CHECK(stage_error("# comentário\n01-a: x.cpp\n") ==
        "etapas/stages.txt:2: a primeira etapa não estende outra: ela não tem lista de mudanças");
  CHECK(stage_error("# só comentário\n\n") == "etapas/stages.txt: nenhuma etapa listada");
  CHECK(stage_error("") == "etapas/stages.txt: nenhuma etapa listada");
}

TEST_CASE("read_stage_list lê etapas/stages.txt da raiz e diz quando ele falta") {
  Tree t;
  const StageList missing = read_stage_list(t.root());
  CHECK(missing.error ==
        "não consegui ler " + (t.root() / "etapas" / "stages.txt").generic_string());
  t.write("etapas/stages.txt", "01-a\n01-a\n");
  CHECK(read_stage_list(t.root()).error == "etapas/stages.txt:2: etapa 01-a repetida");
  t.write("etapas/stages.txt", "01-a\n02-b: x.cpp\n");
  CHECK(read_stage_list(t.root()).up_to("02-b") == std::vector<std::string>{"01-a", "02-b"});
}

TEST_CASE("hints.md: exercícios na ordem, com capítulo, seção e dicas de várias linhas") {
  const Catalog c = parse_hints(kHints, "exercises/01-a/hints.md", "01-a");
  CHECK(c.errors.empty());
  REQUIRE(c.exercises.size() == 2);
  const auto& soma = c.exercises[0];
  CHECK(soma.id == "01-a/soma");
  CHECK(soma.stage == "01-a");
  CHECK(soma.chapter == "livro/01-a.md");
  CHECK(soma.section == "Exercício 1 — A soma");
  CHECK(soma.hints ==
        std::vector<std::string>{"a primeira dica continua nesta linha", "a segunda"});
  CHECK(soma.source == "exercises/01-a/hints.md:5");
  CHECK(soma.where() == "livro/01-a.md, \"Exercício 1 — A soma\"");
  const auto& produto = c.exercises[1];
  CHECK(produto.chapter == "livro/01-a.md");
  CHECK(produto.hints == std::vector<std::string>{"um", "dois", "três"});
  CHECK(produto.source == "exercises/01-a/hints.md:13");

  CHECK(c.find("01-a/produto") == &c.exercises[1]);
  CHECK(c.find("01-a/nada") == nullptr);
  CHECK(c.of_stage("01-a").size() == 2);
  CHECK(c.of_stage("02-b").empty());
}

TEST_CASE("hints.md: título que não é um id da etapa é erro com a linha") {
  const std::string expected_tail =
      "\": esperava o id de um exercício da etapa, como \"## 01-a/nome\"";
  CHECK(hint_errors("## 02-b/x\n") ==
        std::vector<std::string>{"exercises/01-a/hints.md:1: título \"## 02-b/x" + expected_tail});
  CHECK(hint_errors("\n## 01-a/\n") ==
        std::vector<std::string>{"exercises/01-a/hints.md:2: título \"## 01-a/" + expected_tail});
  CHECK(hint_errors("## 01-a/com espaço\n") ==
        std::vector<std::string>{"exercises/01-a/hints.md:1: título \"## 01-a/com espaço" +
                                 expected_tail});
  CHECK(hint_errors("## Dicas\n") ==
        std::vector<std::string>{"exercises/01-a/hints.md:1: título \"## Dicas" + expected_tail});
}

TEST_CASE("hints.md: exercício repetido e campos que faltam") {
  CHECK(hint_errors(hint_entry("01-a/x", "S") + hint_entry("01-a/x", "T")) ==
        std::vector<std::string>{"exercises/01-a/hints.md:8: exercício 01-a/x repetido"});
  CHECK(hint_errors("## 01-a/x\n1. só uma dica\n") ==
        std::vector<std::string>{
            "exercises/01-a/hints.md:1: 01-a/x: falta a linha \"Capítulo: livro/NN-nome.md\"",
            "exercises/01-a/hints.md:1: 01-a/x: falta a linha \"Seção: <título exato>\"",
            "exercises/01-a/hints.md:1: 01-a/x: uma escada de dicas precisa de pelo menos 2 dicas "
            "(itens \"1. ...\", \"2. ...\")"});
}

TEST_CASE("hints.md: dica fora de ordem e linha inesperada") {
  const std::string head = "## 01-a/x\nCapítulo: livro/01-a.md\nSeção: S\n";
  CHECK(hint_errors(head + "1. a\n3. b\n") ==
        std::vector<std::string>{"exercises/01-a/hints.md:5: dica 3 fora de ordem (esperava 2)"});
  CHECK(hint_errors(head + "1. a\n2. b\ntexto solto\n") ==
        std::vector<std::string>{"exercises/01-a/hints.md:6: linha inesperada dentro de 01-a/x "
                                 "(use Capítulo:, Seção: e dicas numeradas)"});
  // Recuo de menos de três espaços não continua a dica.
  CHECK(hint_errors(head + "1. a\n  recuo curto\n2. b\n") ==
        std::vector<std::string>{"exercises/01-a/hints.md:5: linha inesperada dentro de 01-a/x "
                                 "(use Capítulo:, Seção: e dicas numeradas)"});
}

TEST_CASE("hints.md: número de dica enorme é uma linha inesperada, não uma exceção") {
  const std::string head = "## 01-a/x\nCapítulo: livro/01-a.md\nSeção: S\n1. a\n2. b\n";
  CHECK(hint_errors(head + "99999999999999999999. c\n") ==
        std::vector<std::string>{"exercises/01-a/hints.md:6: linha inesperada dentro de 01-a/x "
                                 "(use Capítulo:, Seção: e dicas numeradas)"});
}

TEST_CASE("read_catalog junta os hints.md das etapas e aceita etapa sem hints.md") {
  Tree t;
  t.write("exercises/01-a/hints.md", hint_entry("01-a/x", "S1") + "## 01-a/x\n");
  t.write("exercises/03-c/hints.md", hint_entry("03-c/y", "S3"));
  const StageList stages = parse_stage_list("01-a\n02-b: f\n03-c: g\n", "etapas/stages.txt");
  const Catalog c = read_catalog(t.root(), stages);
  REQUIRE(c.exercises.size() == 2);
  CHECK(c.exercises[0].id == "01-a/x");
  CHECK(c.exercises[1].id == "03-c/y");
  CHECK(c.exercises[1].source == "exercises/03-c/hints.md:1");
  CHECK(c.errors == std::vector<std::string>{"exercises/01-a/hints.md:8: exercício 01-a/x "
                                             "repetido"});
}

TEST_CASE("check_sections: cada Seção é um título do capítulo, fora dos blocos de código") {
  Tree t;
  t.write("livro/01-a.md",
          "# Capítulo 1\n"
          "\n"
          "## Exercício 1 — A soma  \n"
          "#### Exercício 3 — Fundo\n"
          "#Exercício 4 — Sem espaço\n"
          "```markdown\n"
          "## Exercício 2 — O produto\n"
          "```\n");
  t.write("exercises/01-a/hints.md", hint_entry("01-a/soma", "Exercício 1 — A soma") +
                                         hint_entry("01-a/produto", "Exercício 2 — O produto") +
                                         hint_entry("01-a/fundo", "Exercício 3 — Fundo") +
                                         hint_entry("01-a/sem-espaco", "Exercício 4 — Sem espaço"));
  t.write("exercises/02-b/hints.md",
          hint_entry("02-b/x", "Exercício 1") + hint_entry("02-b/y", "Exercício 2"));
  const StageList stages = parse_stage_list("01-a\n02-b: f\n", "etapas/stages.txt");
  const Catalog c = read_catalog(t.root(), stages);
  REQUIRE(c.errors.empty());
  CHECK(check_sections(t.root(), c) ==
        std::vector<std::string>{
            "exercises/01-a/hints.md:8: 01-a/produto: a seção \"Exercício 2 — O produto\" não é "
            "um título de livro/01-a.md",
            "exercises/01-a/hints.md:22: 01-a/sem-espaco: a seção \"Exercício 4 — Sem espaço\" "
            "não é um título de livro/01-a.md",
            "exercises/02-b/hints.md:1: 02-b/x: o capítulo livro/02-b.md não existe",
            "exercises/02-b/hints.md:8: 02-b/y: o capítulo livro/02-b.md não existe"});
}
