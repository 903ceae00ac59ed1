#include <doctest/doctest.h>

#include "fixture.hpp"
#include "hz/course/catalog.hpp"
#include "hz/course/listings.hpp"
#include "hz/course/stage_diff.hpp"

using hz::course::ChainReport;
using hz::course::check_stage_chain;
using hz::course::expected_listing;
using hz::course::parse_stage_list;
using hz::course::stage_diff;
using hz::course::StageList;
using hz::course::test::run_in;
using hz::course::test::Tree;
using hz::course::test::usage_error;

namespace {

// 02-b muda a.txt, acrescenta novo.txt e apaga velho.txt; igual.txt não muda.
void write_stages(const Tree& t, const std::string& manifest = "a.txt novo.txt velho.txt") {
  t.write("etapas/stages.txt", "01-a\n02-b: " + manifest + "\n");
  t.write("solutions/01-a/a.txt", "um\ndois\ntrês\n");
  t.write("solutions/01-a/velho.txt", "some\n");
  t.write("solutions/01-a/igual.txt", "igual\n");
  t.write("solutions/02-b/a.txt", "um\n2\ntrês\nquatro\n");
  t.write("solutions/02-b/novo.txt", "novo\n");
  t.write("solutions/02-b/igual.txt", "igual\n");
}

const std::string kDiff =
    "diff -ru solutions/01-a/a.txt solutions/02-b/a.txt\n"
    "--- solutions/01-a/a.txt\n"
    "+++ solutions/02-b/a.txt\n"
    "@@ -1,3 +1,4 @@\n"
    " um\n"
    "-dois\n"
    "+2\n"
    " três\n"
    "+quatro\n"
    "diff -ru solutions/01-a/novo.txt solutions/02-b/novo.txt\n"
    "--- /dev/null\n"
    "+++ solutions/02-b/novo.txt\n"
    "@@ -0,0 +1,1 @@\n"
    "+novo\n"
    "diff -ru solutions/01-a/velho.txt solutions/02-b/velho.txt\n"
    "--- solutions/01-a/velho.txt\n"
    "+++ /dev/null\n"
    "@@ -1,1 +0,0 @@\n"
    "-some\n";

StageList stages_of(const Tree& t) {
  const StageList list = parse_stage_list(t.read("etapas/stages.txt"), "etapas/stages.txt");
  REQUIRE(list.error == "");
  return list;
}

const std::string kMissing =
    "livro/diffs/02-b.diff falta: é o diff de solutions/01-a para solutions/02-b (rode ./hz "
    "stages --update)";

}  // namespace

TEST_CASE("stage_diff: o diff unificado arquivo por arquivo, com novos e apagados") {
  Tree t;
  write_stages(t);
  std::vector<std::string> changed;
  CHECK(stage_diff(t.root(), "solutions", "01-a", "02-b", &changed) == kDiff);
  CHECK(changed == std::vector<std::string>{"a.txt", "novo.txt", "velho.txt"});
  CHECK(stage_diff(t.root(), "solutions", "01-a", "01-a") == "");
}

TEST_CASE("check_stage_chain: diff que falta, --update o escreve e depois tudo confere") {
  Tree t;
  write_stages(t);
  const ChainReport missing = check_stage_chain(t.root(), stages_of(t), false);
  CHECK(missing.pairs == 1);
  CHECK(missing.problems == std::vector<std::string>{kMissing});
  CHECK_FALSE(t.exists("livro/diffs/02-b.diff"));

  const ChainReport updated = check_stage_chain(t.root(), stages_of(t), true);
  CHECK(updated.problems.empty());
  CHECK(updated.diffs_written == std::vector<std::string>{"livro/diffs/02-b.diff"});
  CHECK(t.read("livro/diffs/02-b.diff") == kDiff);

  const ChainReport again = check_stage_chain(t.root(), stages_of(t), false);
  CHECK(again.problems.empty());
  CHECK(again.diffs_written.empty());
  CHECK(again.pairs == 1);
}

TEST_CASE("check_stage_chain: diff velho é apontado e reescrito com --update") {
  Tree t;
  write_stages(t);
  t.write("livro/diffs/02-b.diff", "diff antigo\n");
  CHECK(check_stage_chain(t.root(), stages_of(t), false).problems ==
        std::vector<std::string>{"livro/diffs/02-b.diff não é o diff de solutions/01-a para "
                                 "solutions/02-b (rode ./hz stages --update)"});
  CHECK(check_stage_chain(t.root(), stages_of(t), true).diffs_written ==
        std::vector<std::string>{"livro/diffs/02-b.diff"});
  CHECK(t.read("livro/diffs/02-b.diff") == kDiff);
}

TEST_CASE("check_stage_chain: arquivo fora do manifesto que difere e listado que não difere") {
  Tree t;
  write_stages(t, "a.txt novo.txt lista.txt");
  t.write("livro/diffs/02-b.diff", kDiff);
  CHECK(check_stage_chain(t.root(), stages_of(t), false).problems ==
        std::vector<std::string>{
            "solutions/02-b/velho.txt difere de solutions/01-a/velho.txt, mas etapas/stages.txt "
            "não o lista entre as mudanças de 02-b (uma correção feita numa etapa vai para as "
            "seguintes com ./hz propagate 01-a)",
            "etapas/stages.txt:2: 02-b lista lista.txt, que não difere de 01-a (tire da lista)"});
  // Com --update o diff é reescrito, mas o manifesto continua conferido.
  const ChainReport updated = check_stage_chain(t.root(), stages_of(t), true);
  CHECK(updated.problems.size() == 2);
  CHECK(updated.diffs_written.empty());
}

TEST_CASE("check_stage_chain com a árvore exercises: o diff vem de exercises/") {
  Tree t;
  write_stages(t);
  t.write("exercises/01-a/a.txt", "stub\n");
  t.write("exercises/02-b/a.txt", "stub\nmais\n");
  const ChainReport r = check_stage_chain(t.root(), stages_of(t), true, "exercises");
  CHECK(r.problems.empty());
  CHECK(t.read("livro/diffs/02-b.diff") ==
        "diff -ru exercises/01-a/a.txt exercises/02-b/a.txt\n"
        "--- exercises/01-a/a.txt\n"
        "+++ exercises/02-b/a.txt\n"
        "@@ -1,1 +1,2 @@\n"
        " stub\n"
        "+mais\n");
  // O manifesto ainda é conferido em solutions/.
  t.write("solutions/02-b/igual.txt", "mudou\n");
  CHECK(check_stage_chain(t.root(), stages_of(t), false, "exercises").problems ==
        std::vector<std::string>{
            "solutions/02-b/igual.txt difere de solutions/01-a/igual.txt, mas etapas/stages.txt "
            "não o lista entre as mudanças de 02-b (uma correção feita numa etapa vai para as "
            "seguintes com ./hz propagate 01-a)"});
}

TEST_CASE("o diff de exercises/ deixa as dicas (hints.md) de fora; um hints.md mais fundo entra") {
  Tree t;
  write_stages(t);
  t.write("exercises/01-a/a.txt", "stub\n");
  t.write("exercises/02-b/a.txt", "stub\n");
  t.write("exercises/01-a/hints.md", "1. dica velha\n");
  t.write("exercises/02-b/hints.md", "1. dica velha\n2. a resposta quase inteira\n");
  t.write("exercises/02-b/docs/hints.md", "não é a escada de dicas\n");
  std::vector<std::string> changed;
  CHECK(stage_diff(t.root(), "exercises", "01-a", "02-b", &changed) ==
        "diff -ru exercises/01-a/docs/hints.md exercises/02-b/docs/hints.md\n"
        "--- /dev/null\n"
        "+++ exercises/02-b/docs/hints.md\n"
        "@@ -0,0 +1,1 @@\n"
        "+não é a escada de dicas\n");
  CHECK(changed == std::vector<std::string>{"docs/hints.md"});
  // Só com as dicas diferentes, o diff fica vazio.
  t.remove("exercises/02-b/docs/hints.md");
  CHECK(stage_diff(t.root(), "exercises", "01-a", "02-b") == "");
}

TEST_CASE("check_stage_chain pula etapas sem pasta") {
  Tree t;
  write_stages(t);
  t.write("etapas/stages.txt", "01-a\n02-b: a.txt novo.txt velho.txt\n03-c: x\n");
  const ChainReport r = check_stage_chain(t.root(), stages_of(t), false);
  CHECK(r.pairs == 1);
  CHECK(r.problems == std::vector<std::string>{kMissing});
}

TEST_CASE("stages na linha de comando: --update, --check e os erros") {
  Tree t;
  write_stages(t);
  const auto check = run_in(t, "stages", {"--check"});
  CHECK_RUN(check, 1, "", kMissing + "\n");
  const auto update = run_in(t, "stages", {"--update"});
  CHECK_RUN(update, 0, "  escrito: livro/diffs/02-b.diff\n1 par de etapas conferido\n", "");
  const auto ok = run_in(t, "stages");
  CHECK(ok.out == "1 par de etapas conferido\n");
  CHECK(ok.code == 0);

  const auto tree = run_in(t, "stages", {"--tree", "respostas"});
  CHECK(tree.code == 2);
  CHECK(tree.err == usage_error("--tree deve ser solutions ou exercises"));
  const auto both = run_in(t, "stages", {"--check", "--update"});
  CHECK(both.code == 2);
  CHECK(both.err == usage_error("use --check ou --update, não os dois"));
  t.write("etapas/stages.txt", "01-a\n01-a\n");
  const auto bad = run_in(t, "stages");
  CHECK(bad.code == 2);
  CHECK(bad.err == "etapas/stages.txt:2: etapa 01-a repetida\n");
}

TEST_CASE("listagem de um .diff: o trecho de um arquivo, do --- ao próximo diff") {
  Tree t;
  t.write("livro/diffs/02-b.diff", kDiff);
  auto e = expected_listing(t.root(), "livro/diffs/02-b.diff#a.txt");
  CHECK(e.error == "");
  CHECK(e.lines == std::vector<std::string>{"--- solutions/01-a/a.txt", "+++ solutions/02-b/a.txt",
                                            "@@ -1,3 +1,4 @@", " um", "-dois", "+2", " três",
                                            "+quatro"});
  e = expected_listing(t.root(), "livro/diffs/02-b.diff#velho.txt");
  CHECK(e.lines == std::vector<std::string>{"--- solutions/01-a/velho.txt", "+++ /dev/null",
                                            "@@ -1,1 +0,0 @@", "-some"});
  e = expected_listing(t.root(), "livro/diffs/02-b.diff#nada.txt");
  CHECK(e.error == "o arquivo nada.txt não aparece em livro/diffs/02-b.diff");
  CHECK(e.lines.empty());
  // "a.txt" não casa com o fim de outro nome ("xa.txt"): a barra conta.
  t.write("livro/diffs/03-c.diff",
          "diff -ru s/02-b/xa.txt s/03-c/xa.txt\n--- x\n+++ y\n"
          "diff -ru s/02-b/a.txt s/03-c/a.txt\n--- a\n+++ b\n");
  CHECK(expected_listing(t.root(), "livro/diffs/03-c.diff#a.txt").lines ==
        std::vector<std::string>{"--- a", "+++ b"});
}

TEST_CASE("listings confere um bloco do livro que mostra um trecho do diff da etapa") {
  Tree t;
  t.write("livro/diffs/02-b.diff", kDiff);
  t.write("livro/02-b.md",
          "<!-- listing: livro/diffs/02-b.diff#novo.txt -->\n"
          "```diff\n"
          "--- /dev/null\n"
          "+++ solutions/02-b/novo.txt\n"
          "@@ -0,0 +1,1 @@\n"
          "+velho\n"
          "```\n");
  const auto r = run_in(t, "listings", {"--update"});
  CHECK(r.err == "");
  CHECK(r.out == "  atualizado: livro/02-b.md\n1 listagem conferida, 1 atualizada\n");
  CHECK(t.read("livro/02-b.md") ==
        "<!-- listing: livro/diffs/02-b.diff#novo.txt -->\n"
        "```diff\n"
        "--- /dev/null\n"
        "+++ solutions/02-b/novo.txt\n"
        "@@ -0,0 +1,1 @@\n"
        "+novo\n"
        "```\n");
}
