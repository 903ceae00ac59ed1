#include <doctest/doctest.h>

#include "fixture.hpp"
#include "hz/course/listings.hpp"

using hz::course::expected_listing;
using hz::course::unified_diff;
using hz::course::test::run_course;
using hz::course::test::run_in;
using hz::course::test::Tree;
using hz::course::test::usage_error;

namespace {

const char* const kCode =
    "#include <string>\n"
    "\n"
    "namespace hz {\n"
    "// listing: greet\n"
    "std::string greet(int n) {\n"
    "  // EXERCICIO 01-loop/greet: monte a saudação\n"
    "  return \"oi \" + std::to_string(n);\n"
    "\n"
    "  // FIM-EXERCICIO\n"
    "}\n"
    "// end-listing: greet\n"
    "\n"
    "    // listing: indented\n"
    "    int a = 1;\n"
    "      int b = 2;\n"
    "    // end-listing: indented\n"
    "}  // namespace hz\n";

const char* const kChapter =
    "# Capítulo\n"
    "\n"
    "Texto.\n"
    "\n"
    "<!-- listing: solutions/01-loop/greet.cpp#greet -->\n"
    "```cpp\n"
    "std::string greet(int n) {\n"
    "  return \"oi \" + std::to_string(n);\n"
    "\n"
    "}\n"
    "```\n"
    "\n"
    "<!-- listing: solutions/01-loop/greet.cpp#indented -->\n"
    "```cpp\n"
    "int a = 1;\n"
    "  int b = 2;\n"
    "```\n"
    "\n"
    "````markdown\n"
    "<!-- listing: exemplo/que/nao/existe.cpp -->\n"
    "```cpp\n"
    "```\n"
    "````\n";

void write_book(const Tree& t) {
  t.write("solutions/01-loop/greet.cpp", kCode);
  t.write("livro/01-loop.md", kChapter);
}

}  // namespace

TEST_CASE("a listagem tira marcadores e a indentação comum") {
  Tree t;
  write_book(t);
  const auto e = expected_listing(t.root(), "solutions/01-loop/greet.cpp#indented");
  CHECK(e.error == "");
  CHECK(e.lines == std::vector<std::string>{"int a = 1;", "  int b = 2;"});
  const auto g = expected_listing(t.root(), "solutions/01-loop/greet.cpp#greet");
  CHECK(g.lines == std::vector<std::string>{"std::string greet(int n) {",
                                            "  return \"oi \" + std::to_string(n);", "", "}"});
}

TEST_CASE("a listagem sem região é o arquivo inteiro") {
  Tree t;
  t.write("mock-server/scenarios/x.json", "{\n  \"a\": 1\n}\n");
  const auto e = expected_listing(t.root(), "mock-server/scenarios/x.json");
  CHECK(e.error == "");
  CHECK(e.lines == std::vector<std::string>{"{", "  \"a\": 1", "}"});
}

TEST_CASE("listagem de arquivo ou região que não existe é erro") {
  Tree t;
  write_book(t);
  CHECK(expected_listing(t.root(), "nada.cpp").error == "o arquivo nada.cpp não existe");
  CHECK(expected_listing(t.root(), "solutions/01-loop/greet.cpp#outra").error ==
        "a região outra não existe em solutions/01-loop/greet.cpp (marque com // listing: outra "
        "e // end-listing: outra)");
  CHECK(expected_listing(t.root(), "../fora.cpp").error ==
        "caminho inválido '../fora.cpp' (use um caminho relativo à raiz, sem '..')");
}

TEST_CASE("listings --check passa quando o livro bate com o código") {
  Tree t;
  write_book(t);
  const auto r = run_in(t, "listings", {"--check"});
  CHECK_RUN(r, 0, "2 listagens conferidas\n", "");
}

TEST_CASE("listings --check mostra o diff com arquivo e linha do capítulo") {
  Tree t;
  write_book(t);
  std::string chapter = kChapter;
  chapter.replace(chapter.find("int b = 2;"), 10, "int b = 3;");
  t.write("livro/01-loop.md", chapter);
  const auto r = run_in(t, "listings", {"--check"});
  CHECK(r.code == 1);
  CHECK(r.out == "");
  CHECK(
      r.err ==
      "livro/01-loop.md:13: a listagem solutions/01-loop/greet.cpp#indented não bate com o código\n"
      "--- solutions/01-loop/greet.cpp#indented (código)\n"
      "+++ livro/01-loop.md:15 (documento)\n"
      "@@ -1,2 +1,2 @@\n"
      " int a = 1;\n"
      "-  int b = 2;\n"
      "+  int b = 3;\n"
      "2 listagens conferidas; há listagens que não batem com o código: rode ./hz listings "
      "--update\n");
}

TEST_CASE("listings --check reclama de região inexistente e de bloco ausente") {
  Tree t;
  t.write("solutions/a.cpp", "int a;\n");
  t.write("livro/b.md",
          "<!-- listing: solutions/a.cpp#sumiu -->\n```cpp\nint a;\n```\n"
          "<!-- listing: solutions/a.cpp -->\n\n```cpp\nint a;\n```\n");
  const auto r = run_in(t, "listings", {"--check"});
  CHECK(r.code == 1);
  CHECK(
      r.err ==
      "livro/b.md:1: a região sumiu não existe em solutions/a.cpp (marque com // listing: sumiu e "
      "// end-listing: sumiu)\n"
      "livro/b.md:5: a listagem solutions/a.cpp precisa de um bloco cercado (```) logo na linha "
      "seguinte\n"
      "2 listagens conferidas; há listagens que não batem com o código: rode ./hz listings "
      "--update\n");
}

TEST_CASE("listings --update reescreve só os blocos que mudaram") {
  Tree t;
  write_book(t);
  std::string stale = kChapter;
  stale.replace(stale.find("  return"), 8, "  retorna");
  stale.replace(stale.find("int a = 1;\n"), 11, "");
  t.write("livro/01-loop.md", stale);
  t.write("livro/outro.md", "sem listagens\n");

  const auto r = run_in(t, "listings", {"--update"});
  CHECK_RUN(r, 0, "  atualizado: livro/01-loop.md\n2 listagens conferidas, 2 atualizadas\n", "");
  CHECK(t.read("livro/01-loop.md") == kChapter);
  CHECK(run_in(t, "listings", {"--check"}).code == 0);
}

TEST_CASE("unified_diff agrupa as mudanças com três linhas de contexto") {
  const std::vector<std::string> a = {"1", "2", "3", "4",  "5",  "6",
                                      "7", "8", "9", "10", "11", "12"};
  std::vector<std::string> b = a;
  b[1] = "dois";
  b.erase(b.begin() + 10);
  CHECK(unified_diff(a, b) == std::vector<std::string>{"@@ -1,5 +1,5 @@", " 1", "-2", "+dois", " 3",
                                                       " 4", " 5", "@@ -8,5 +8,4 @@", " 8", " 9",
                                                       " 10", "-11", " 12"});
  CHECK(unified_diff(a, a).empty());
  CHECK(unified_diff({}, {"x"}) == std::vector<std::string>{"@@ -0,0 +1,1 @@", "+x"});
  CHECK(unified_diff({"a", "b"}, {"c"}) ==
        std::vector<std::string>{"@@ -1,2 +1,1 @@", "-a", "-b", "+c"});
}

namespace {

// O que o gerador escreve em exercises/ a partir de kCode: na listagem, a
// linha TODO, o stub e o FIM-EXERCICIO aparecem (o aluno vê onde a região acaba).
const char* const kExerciseCode =
    "#include <string>\n"
    "\n"
    "namespace hz {\n"
    "// listing: greet\n"
    "std::string greet(int n) {\n"
    "  // TODO EXERCICIO 01-loop/greet: monte a saudação\n"
    "  throw hz::NotImplemented(\"01-loop/greet\");\n"
    "  // FIM-EXERCICIO\n"
    "}\n"
    "// end-listing: greet\n"
    "}  // namespace hz\n";

}  // namespace

TEST_CASE("map_listing_spec troca solutions/ por exercises/ só com a fonte exercises") {
  using hz::course::ListingSource;
  using hz::course::map_listing_spec;
  CHECK(map_listing_spec("solutions/01-loop/a.cpp#r", ListingSource::exercises) ==
        "exercises/01-loop/a.cpp#r");
  CHECK(map_listing_spec("solutions/01-loop/a.cpp#r", ListingSource::solutions) ==
        "solutions/01-loop/a.cpp#r");
  CHECK(map_listing_spec("mock-server/scenarios/x.json", ListingSource::exercises) ==
        "mock-server/scenarios/x.json");
  CHECK(map_listing_spec("common/solutions/x.cpp", ListingSource::exercises) ==
        "common/solutions/x.cpp");
}

TEST_CASE(
    "listings --update --from exercises mostra o stub e aponta o comentário para exercises/") {
  Tree t;
  t.write("exercises/01-loop/greet.cpp", kExerciseCode);
  t.write("livro/01-loop.md",
          "Texto.\n"
          "\n"
          "<!-- listing: solutions/01-loop/greet.cpp#greet -->\n"
          "```cpp\n"
          "std::string greet(int n) {\n"
          "  return \"oi \" + std::to_string(n);\n"
          "}\n"
          "```\n"
          "<!-- listing: mock-server/x.json -->\n"
          "```json\n"
          "{}\n"
          "```\n");
  t.write("mock-server/x.json", "{}\n");

  const auto check = run_in(t, "listings", {"--check", "--from", "exercises"});
  CHECK(check.code == 1);
  CHECK(check.err ==
        "livro/01-loop.md:3: a listagem exercises/01-loop/greet.cpp#greet não bate com o código\n"
        "--- exercises/01-loop/greet.cpp#greet (código)\n"
        "+++ livro/01-loop.md:5 (documento)\n"
        "@@ -1,5 +1,3 @@\n"
        " std::string greet(int n) {\n"
        "-  // TODO EXERCICIO 01-loop/greet: monte a saudação\n"
        "-  throw hz::NotImplemented(\"01-loop/greet\");\n"
        "-  // FIM-EXERCICIO\n"
        "+  return \"oi \" + std::to_string(n);\n"
        " }\n"
        "2 listagens conferidas; há listagens que não batem com o código: rode ./hz listings "
        "--update\n");

  const auto r = run_in(t, "listings", {"--update", "--from", "exercises"});
  CHECK_RUN(r, 0, "  atualizado: livro/01-loop.md\n2 listagens conferidas, 1 atualizada\n", "");
  CHECK(t.read("livro/01-loop.md") ==
        "Texto.\n"
        "\n"
        "<!-- listing: exercises/01-loop/greet.cpp#greet -->\n"
        "```cpp\n"
        "std::string greet(int n) {\n"
        "  // TODO EXERCICIO 01-loop/greet: monte a saudação\n"
        "  throw hz::NotImplemented(\"01-loop/greet\");\n"
        "  // FIM-EXERCICIO\n"
        "}\n"
        "```\n"
        "<!-- listing: mock-server/x.json -->\n"
        "```json\n"
        "{}\n"
        "```\n");
  // Depois disso o livro aponta para exercises/: a conferência comum já passa.
  CHECK(run_in(t, "listings", {"--check"}).code == 0);
}

TEST_CASE("listings --from com valor desconhecido é erro de uso") {
  Tree t;
  const auto r = run_in(t, "listings", {"--from", "respostas"});
  CHECK(r.code == 2);
  CHECK(r.err == usage_error("--from deve ser solutions ou exercises (veio: respostas)"));
}
