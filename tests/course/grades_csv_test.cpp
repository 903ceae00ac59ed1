// As notas em CSV (hz-course grade --csv): os campos, a nota de 0 a 10 e o
// arquivo que acumula linhas de várias correções.
#include <doctest/doctest.h>

#include "fixture.hpp"
#include "hz/course/grades_csv.hpp"

using hz::course::Score;
using hz::course::test::run_course;
using hz::course::test::Tree;
using hz::course::test::usage_error;

namespace {

const std::string kJunit =
    "<testsuite>\n"
    "<testcase name=\"a\" status=\"run\"></testcase>\n"
    "<testcase name=\"b\" status=\"run\"></testcase>\n"
    "<testcase name=\"c\" status=\"fail\"><failure/></testcase>\n"
    "</testsuite>\n";

}  // namespace

TEST_CASE("um campo do CSV só ganha aspas quando precisa, com as aspas dobradas") {
  CHECK(hz::course::csv_field("escola/turma-ana") == "escola/turma-ana");
  CHECK(hz::course::csv_field("Silva, Ana") == "\"Silva, Ana\"");
  CHECK(hz::course::csv_field("a \"b\"") == "\"a \"\"b\"\"\"");
  CHECK(hz::course::csv_field("linha\nquebrada") == "\"linha\nquebrada\"");
  CHECK(hz::course::csv_field("") == "");
}

TEST_CASE("a nota vai de 0 a 10 com uma casa, arredondada, e sem testes é 0.0") {
  CHECK(hz::course::grade_of(Score{44, 44}) == "10.0");
  CHECK(hz::course::grade_of(Score{6, 44}) == "1.4");
  CHECK(hz::course::grade_of(Score{1, 3}) == "3.3");
  CHECK(hz::course::grade_of(Score{2, 3}) == "6.7");
  CHECK(hz::course::grade_of(Score{1, 40}) == "0.3");
  CHECK(hz::course::grade_of(Score{0, 44}) == "0.0");
  CHECK(hz::course::grade_of(Score{0, 0}) == "0.0");
  CHECK(hz::course::grades_line("Silva, Ana", "01-loop", Score{7, 44}) ==
        "\"Silva, Ana\",01-loop,7,44,1.6");
}

TEST_CASE("grade --csv acrescenta uma linha por correção, com o cabeçalho uma vez só") {
  Tree t;
  t.write("r.xml", kJunit);
  const auto first = run_course({"grade", "--junit", t.path("r.xml"), "--stage", "01-a", "--csv",
                                 t.path("notas.csv"), "--student", "escola/turma-ana"});
  CHECK_RUN(first, 1, "01-a: 2/3 testes passando\nCSV: escola/turma-ana,01-a,2,3,6.7\n", "");

  const auto failed = run_course({"grade", "--not-built", "--stage", "02-b", "--csv",
                                  t.path("notas.csv"), "--student", "escola/turma-ana"});
  CHECK(failed.out ==
        "02-b: o código não compila (0 testes passando)\nCSV: escola/turma-ana,02-b,0,0,0.0\n");
  CHECK(failed.code == 1);
  CHECK(t.read("notas.csv") ==
        "aluno,etapa,passando,total,nota\n"
        "escola/turma-ana,01-a,2,3,6.7\n"
        "escola/turma-ana,02-b,0,0,0.0\n");
}

TEST_CASE("grade --csv sem --student, ou --junit com --not-built, é erro de uso") {
  Tree t;
  t.write("r.xml", kJunit);
  const auto alone = run_course(
      {"grade", "--junit", t.path("r.xml"), "--stage", "01-a", "--csv", t.path("notas.csv")});
  CHECK(alone.code == 2);
  CHECK(alone.err ==
        usage_error("--csv e --student andam juntos (a linha do CSV leva o nome do aluno)"));
  const auto both =
      run_course({"grade", "--junit", t.path("r.xml"), "--not-built", "--stage", "01-a"});
  CHECK(both.code == 2);
  CHECK(both.err == usage_error("use --junit ou --not-built, não os dois"));
  CHECK_FALSE(t.exists("notas.csv"));
}

TEST_CASE("grade --csv num arquivo que não dá para escrever falha com código 1") {
  Tree t;
  t.write("r.xml", kJunit);
  const auto r = run_course({"grade", "--junit", t.path("r.xml"), "--stage", "01-a", "--csv",
                             t.path("nao/existe/notas.csv"), "--student", "ana"});
  CHECK(r.code == 1);
  CHECK(r.err == "hz-course: não consegui escrever em " + t.path("nao/existe/notas.csv") + "\n");
}
