// hz-course student-docs e doc-refs: os documentos da cópia dos alunos
// (./hz export) e o que eles citam.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "fixture.hpp"
#include "hz/course/student_docs.hpp"

using hz::course::doc_references;
using hz::course::DocReference;
using hz::course::student_copy_text;
using hz::course::test::run_course;
using hz::course::test::run_in;
using hz::course::test::Tree;

namespace {

// "link:destino@linha", "path:...", "hz:..." de cada referência, na ordem.
std::vector<std::string> shown(const std::vector<DocReference>& refs) {
  std::vector<std::string> out;
  for (const DocReference& r : refs) {
    const char* kind = r.kind == DocReference::Kind::link   ? "link"
                       : r.kind == DocReference::Kind::path ? "path"
                                                            : "hz";
    out.push_back(std::string(kind) + ":" + r.value + "@" + std::to_string(r.line));
  }
  return out;
}

}  // namespace

TEST_CASE("student-docs: blocos do curso completo saem, e o texto da cópia dos alunos entra") {
  const std::string text =
      "Começo.\n"
      "<!-- curso-completo -->\n"
      "Veja [o loop](solutions/01-loop/agent_loop.cpp).\n"
      "<!-- fim-curso-completo -->\n"
      "<!-- copia-do-aluno:\n"
      "Veja [o loop](exercises/01-loop/agent_loop.cpp).\n"
      "-->\n"
      "Use a trilha de exercícios <!-- curso-completo -->até rodar `./hz solutions`"
      "<!-- fim-curso-completo --><!-- copia-do-aluno: (a única) -->; fim.\n"
      "<!-- listing: exercises/01-loop/x.cpp#y -->\n";
  const auto copy = student_copy_text(text);
  REQUIRE(copy.error == "");
  CHECK(copy.text ==
        "Começo.\n"
        "Veja [o loop](exercises/01-loop/agent_loop.cpp).\n"
        "Use a trilha de exercícios (a única); fim.\n"
        "<!-- listing: exercises/01-loop/x.cpp#y -->\n");
  // Sem marcas, nada muda (byte a byte, com \r\n).
  const std::string plain = "a\r\n<!-- output: bin/x -->\r\nb";
  CHECK(student_copy_text(plain).text == plain);
}

TEST_CASE("student-docs: uma marca sem par é erro, com a linha") {
  CHECK(student_copy_text("a\n<!-- curso-completo -->\nb\n").error ==
        "linha 2: <!-- curso-completo --> sem o <!-- fim-curso-completo --> dele");
  CHECK(student_copy_text("a\nb <!-- fim-curso-completo -->\n").error ==
        "linha 2: <!-- fim-curso-completo --> sem um <!-- curso-completo --> antes");
  CHECK(student_copy_text("<!-- curso-completo --> <!-- curso-completo --> "
                          "<!-- fim-curso-completo -->")
            .error == "linha 1: <!-- curso-completo --> sem o <!-- fim-curso-completo --> dele");
  CHECK(student_copy_text("x\n\n<!-- copia-do-aluno: texto\n").error ==
        "linha 3: <!-- copia-do-aluno: sem o --> que o fecha");
}

TEST_CASE("doc-refs: links relativos, caminhos de scripts e ./hz SUB, fora dos comentários") {
  const std::string text =
      "Leia [o guia](etapas/01-loop/README.md#flags), [a página](https://exemplo.com) e\n"
      "[acima](#titulo). Rode `.ci/run` e `tests/format_check.sh`; `solutions/NN-nome/` não é\n"
      "um script, nem `exercises/ETAPA/x.sh`. Troque com `./hz\n"
      "solutions`.\n"
      "<!-- copia-do-aluno: [fora](GRADING.md) e ./hz export -->\n"
      "<a href=\"livro/01-loop.md\">capítulo</a>\n"
      "```sh\n"
      "./hz test 01-loop   # [não é link](x.md)\n"
      "./hz\n"
      "cmake --preset default\n"
      "```\n";
  CHECK(shown(doc_references(text)) ==
        std::vector<std::string>{"link:etapas/01-loop/README.md@1", "path:.ci/run@2",
                                 "path:tests/format_check.sh@2", "hz:solutions@4",
                                 "link:livro/01-loop.md@6", "hz:test@8"});
}

TEST_CASE(
    "doc-refs na linha de comando: link e caminho que faltam são apontados; ./hz SUB vai para o "
    "stdout") {
  Tree t;
  t.write("README.md", "Veja [o guia](docs/guia.md) e `.ci/run`.\nRode ./hz test e ./hz export.\n");
  t.write("GRADING.md", "No curso completo, `.ci/run` e ./hz export.\n");
  t.write("docs/guia.md", "Volte ao [README](../README.md).\n");
  t.write("build/lixo.md", "[quebrado](nada.md)\n");
  t.write(".git/x.md", "[quebrado](nada.md)\n");
  Tree full;
  full.write(".ci/run", "#!/bin/sh\n");

  auto r = run_course(
      {"doc-refs", "--root", t.path(), "--teacher", "GRADING.md", "--full-course", full.path()});
  CHECK_RUN(r, 1,
            "professor\tGRADING.md:1\texport\n"
            "aluno\tREADME.md:2\ttest\n"
            "aluno\tREADME.md:2\texport\n",
            "README.md:1: cita .ci/run, que não existe\n");

  t.write("README.md", "Veja [o guia](docs/guia.md).\n");
  t.remove("docs/guia.md");
  r = run_in(t, "doc-refs");
  CHECK(r.code == 1);
  CHECK(r.err ==
        "GRADING.md:1: cita .ci/run, que não existe\n"
        "README.md:1: link para docs/guia.md, que não existe\n");

  t.write("GRADING.md", "ok\n");
  t.write("docs/guia.md", "ok\n");
  r = run_in(t, "doc-refs");
  CHECK(r.code == 0);
  CHECK(r.err == "1 links e caminhos conferidos em .\n");
  CHECK(run_in(t, "doc-refs", {"--teacher", "GRADING.md"}).code == 2);
}

TEST_CASE(
    "student-docs na linha de comando: reescreve a árvore, e não escreve nada se uma marca "
    "quebra") {
  Tree t;
  t.write("README.md", "a<!-- curso-completo --> b<!-- fim-curso-completo -->\n");
  t.write("livro/x.md", "sem marcas\n");
  auto r = run_in(t, "student-docs");
  CHECK(r.code == 0);
  CHECK(r.out == "2 documentos; 1 com trechos só do curso completo ou só da cópia dos alunos\n");
  CHECK(t.read("README.md") == "a\n");

  t.write("README.md", "a<!-- curso-completo --> b<!-- fim-curso-completo -->\n");
  t.write("livro/x.md", "<!-- curso-completo -->\n");
  r = run_in(t, "student-docs");
  CHECK(r.code == 1);
  CHECK(r.err ==
        "livro/x.md: linha 1: <!-- curso-completo --> sem o <!-- fim-curso-completo --> dele\n");
  CHECK(t.read("README.md") == "a<!-- curso-completo --> b<!-- fim-curso-completo -->\n");
}
