#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "fixture.hpp"

using hz::course::test::replaced;
using hz::course::test::run_in;
using hz::course::test::Tree;
using hz::course::test::usage_error;
namespace small = hz::course::test::small;

namespace {

// O relatório do carry da 01-a/soma respondida para a 02-b.
const std::string kCarriedSoma =
    "Levadas de exercises/01-a para exercises/02-b:\n"
    "  01-a/soma  (exercises/02-b/soma.cpp)\n"
    "1 região levada para exercises/02-b.\n";

// O relatório do carry quando exercises/02-b já tem a resposta de 01-a/soma.
const std::string kKeptSoma =
    "Já tinham resposta (ficaram como estão):\n"
    "  01-a/soma  (exercises/02-b/soma.cpp)\n"
    "Nada a levar: exercises/02-b já tinha resposta em todas essas regiões.\n";

// A parte do relatório que diz que 01-a/soma ainda é stub em exercises/01-a.
const std::string kSomaStillStub =
    "Ainda são stub em exercises/01-a (nada a levar):\n"
    "  01-a/soma  (exercises/01-a/soma.cpp)\n";

// A parte do relatório de um carry para a 03-c que diz que os dois
// exercícios da 02-b ainda são stub.
const std::string kStage02StillStub =
    "Ainda são stub em todas as etapas anteriores (nada a levar):\n"
    "  02-b/dobro  (exercises/02-b/dobro.cpp)\n"
    "  02-b/triplo  (exercises/02-b/soma.cpp)\n";

}  // namespace

TEST_CASE("carry leva a resposta do aluno para a região de mesmo id que ainda é o stub") {
  Tree t;
  small::write_generated(t);
  t.write("exercises/01-a/soma.cpp", small::kSomaAnswered01);
  CHECK_RUN(run_in(t, "carry", {"--to", "02-b"}), 0, kCarriedSoma, "");
  CHECK(t.read("exercises/02-b/soma.cpp") == small::kSomaAnswered02);
  // Os exercícios novos da etapa continuam stubs.
  CHECK(t.read("exercises/02-b/dobro.cpp").find("throw hz::NotImplemented(\"02-b/dobro\"") !=
        std::string::npos);

  // De novo: a região de destino já tem o código do aluno e fica como está.
  const auto again = run_in(t, "carry", {"--to", "02-b"});
  CHECK(again.out == kKeptSoma);
  CHECK(again.code == 0);
}

TEST_CASE("carry leva o código da área // SEU-CODIGO para o arquivo de mesmo nome") {
  Tree t;
  small::write_generated(t);
  const std::string helper = "constexpr int kDois = 2;\n";
  t.write("exercises/01-a/soma.cpp", small::with_own_code(small::kSomaExercise01, helper));
  CHECK_RUN(run_in(t, "carry", {"--to", "02-b"}), 0,
            "Levadas de exercises/01-a para exercises/02-b:\n"
            "  SEU-CODIGO  (exercises/02-b/soma.cpp)\n" +
                kSomaStillStub + "1 região levada para exercises/02-b.\n",
            "");
  CHECK(t.read("exercises/02-b/soma.cpp") == small::with_own_code(small::kSomaExercise02, helper));
  // A área de destino com código seu fica como está.
  const std::string mine = small::with_own_code(small::kSomaExercise02, "int outra;\n");
  t.write("exercises/02-b/soma.cpp", mine);
  const auto again = run_in(t, "carry", {"--to", "02-b"});
  CHECK(again.out ==
        "Já tinham resposta (ficaram como estão):\n"
        "  SEU-CODIGO  (exercises/02-b/soma.cpp)\n" +
            kSomaStillStub + "0 regiões levadas para exercises/02-b.\n");
  CHECK(t.read("exercises/02-b/soma.cpp") == mine);
  // Um arquivo sem par na etapa seguinte: o carry diz que não levou.
  t.remove("exercises/02-b/soma.cpp");
  const auto lost = run_in(t, "carry", {"--to", "02-b"});
  CHECK(lost.out ==
        "Código seu sem arquivo de mesmo nome com área // SEU-CODIGO em exercises/02-b (leve à "
        "mão):\n"
        "  SEU-CODIGO  (exercises/01-a/soma.cpp)\n"
        "0 regiões levadas para exercises/02-b.\n");
}

TEST_CASE("carry não sobrescreve o que o aluno já escreveu na etapa seguinte") {
  Tree t;
  small::write_generated(t);
  t.write("exercises/01-a/soma.cpp", small::kSomaAnswered01);
  const std::string mine = replaced(small::kSomaExercise02, small::kSomaStub,
                                    "  // TODO EXERCICIO 01-a/soma: devolva a soma de a e b\n"
                                    "  return b + a;\n"
                                    "  // FIM-EXERCICIO\n");
  t.write("exercises/02-b/soma.cpp", mine);
  const auto r = run_in(t, "carry", {"--to", "02-b"});
  CHECK(r.out == kKeptSoma);
  CHECK(r.code == 0);
  CHECK(t.read("exercises/02-b/soma.cpp") == mine);
}

TEST_CASE("carry não leva um stub: a região ainda não respondida fica") {
  Tree t;
  small::write_generated(t);
  CHECK_RUN(run_in(t, "carry", {"--to", "02-b"}), 0,
            kSomaStillStub + "0 regiões levadas para exercises/02-b.\n", "");
  CHECK(t.read("exercises/02-b/soma.cpp") == small::kSomaExercise02);
}

TEST_CASE("carry não leva uma região que o capítulo seguinte reescreveu com id novo") {
  Tree t;
  small::write_course(t);
  // Em 02-b, a soma é reescrita: a região ganha o id 02-b/soma-nova.
  const std::string rewritten =
      "#include \"soma.hpp\"\n"
      "\n"
      "int soma(int a, int b) {\n"
      "  // EXERCICIO 02-b/soma-nova: some sem estourar\n"
      "  return static_cast<int>(static_cast<long>(a) + b);\n"
      "  // FIM-EXERCICIO\n"
      "}\n";
  t.write("solutions/02-b/soma.cpp", rewritten);
  t.write("exercises/02-b/hints.md",
          hz::course::test::hint_entry("02-b/soma-nova", "Exercício 1 — O triplo") +
              hz::course::test::hint_entry("02-b/dobro", "Exercício 2 — O dobro"));
  REQUIRE(run_in(t, "exercises").code == 0);
  t.write("exercises/01-a/soma.cpp", small::kSomaAnswered01);
  const std::string before = t.read("exercises/02-b/soma.cpp");

  CHECK_RUN(run_in(t, "carry", {"--to", "02-b"}), 0, "0 regiões levadas para exercises/02-b.\n",
            "");
  CHECK(t.read("exercises/02-b/soma.cpp") == before);
}

TEST_CASE("carry com marcadores quebrados no aluno diz onde e sai com 1") {
  Tree t;
  small::write_generated(t);
  t.write("exercises/01-a/soma.cpp", small::kSomaBroken01);
  CHECK_RUN(run_in(t, "carry", {"--to", "02-b"}), 1, "0 regiões levadas para exercises/02-b.\n",
            "exercises/01-a/soma.cpp:9: região de exercício sem // FIM-EXERCICIO\n");
  CHECK(t.read("exercises/02-b/soma.cpp") == small::kSomaExercise02);
}

TEST_CASE("carry com --reference lê os stubs do curso de referência") {
  Tree course;
  small::write_generated(course);
  Tree student;
  student.write("exercises/01-a/soma.cpp", small::kSomaAnswered01);
  student.write("exercises/02-b/soma.cpp", small::kSomaExercise02);
  const auto r = run_in(student, "carry", {"--reference", course.path(), "--to", "02-b"});
  CHECK(r.err == "");
  CHECK(r.out == kCarriedSoma);
  CHECK(student.read("exercises/02-b/soma.cpp") == small::kSomaAnswered02);
}

TEST_CASE("carry na cópia dos alunos, sem solutions/, reconhece os stubs por exercises/") {
  Tree t;
  small::write_generated(t);
  t.remove("solutions");
  t.write("exercises/01-a/soma.cpp", small::kSomaAnswered01);
  CHECK_RUN(run_in(t, "carry", {"--to", "02-b"}), 0, kCarriedSoma, "");
  CHECK(t.read("exercises/02-b/soma.cpp") == small::kSomaAnswered02);
}

TEST_CASE("carry sem solutions/ reconhece o stub cujo TODO continua em várias linhas") {
  Tree t;
  small::write_course(t);
  const std::string longer =
      "devolva a soma de a e b, sem se preocupar com estouro: os testes só usam números "
      "pequenos, positivos e negativos";
  for (const char* file : {"solutions/01-a/soma.cpp", "solutions/02-b/soma.cpp"}) {
    t.write(file, replaced(t.read(file), "devolva a soma de a e b", longer));
  }
  REQUIRE(run_in(t, "exercises").code == 0);
  REQUIRE(t.read("exercises/01-a/soma.cpp")
              .find("\n  // usam números pequenos, positivos e negativos\n") != std::string::npos);
  t.remove("solutions");
  const std::string before = t.read("exercises/02-b/soma.cpp");

  const auto stub = run_in(t, "carry", {"--to", "02-b"});
  CHECK(stub.err == "");
  CHECK(stub.out == kSomaStillStub + "0 regiões levadas para exercises/02-b.\n");
  CHECK(t.read("exercises/02-b/soma.cpp") == before);

  t.write("exercises/01-a/soma.cpp",
          replaced(t.read("exercises/01-a/soma.cpp"), "  throw hz::NotImplemented(\"01-a/soma\"",
                   "  return a + b;\n  throw hz::NotImplemented(\"01-a/soma\""));
  const auto carried = run_in(t, "carry", {"--to", "02-b"});
  CHECK(carried.out == kCarriedSoma);
  CHECK(t.read("exercises/02-b/soma.cpp").find("  return a + b;\n  throw") != std::string::npos);
}

namespace {

// O curso pequeno com uma terceira etapa, 03-c: soma.cpp ganha 03-c/quadruplo.
// As regiões 01-a/soma e 02-b/triplo continuam iguais (e são stubs) em
// exercises/03-c.
void write_three_stages(const Tree& t) {
  small::write_course(t);
  t.write("etapas/stages.txt", small::kStages + "03-c: soma.cpp\n");
  for (const char* file : {"soma.hpp", "dobro.cpp", "CMakeLists.txt"}) {
    t.write(std::string("solutions/03-c/") + file, t.read(std::string("solutions/02-b/") + file));
  }
  t.write("solutions/03-c/soma.cpp", small::kSoma02 +
                                         "\n"
                                         "int quadruplo(int a) {\n"
                                         "  // EXERCICIO 03-c/quadruplo: devolva o quádruplo de a\n"
                                         "  return 4 * a;\n"
                                         "  // FIM-EXERCICIO\n"
                                         "}\n");
  t.write("exercises/03-c/hints.md",
          hz::course::test::hint_entry("03-c/quadruplo", "Exercício 1 — O quádruplo"));
  t.write("livro/03-c.md", "# A etapa 03-c\n\n## Exercício 1 — O quádruplo\n");
  const auto r = run_in(t, "exercises");
  if (r.code != 0) throw std::runtime_error("hz-course exercises falhou: " + r.err);
}

// A resposta do aluno para 01-a/soma no arquivo soma.cpp de uma etapa.
void answer_soma(const Tree& t, const std::string& stage, const std::string& answer) {
  const std::string file = "exercises/" + stage + "/soma.cpp";
  t.write(file, replaced(t.read(file), small::kSomaStub, answer));
}

}  // namespace

TEST_CASE("carry busca numa etapa mais antiga a resposta que a anterior ainda não tem") {
  // A cópia dos alunos com a etapa 02-b liberada (./hz export --release
  // 02-b): 02-b/triplo tem a resposta de referência em todas as pastas, mas
  // 01-a/soma continua stub em exercises/02-b. O aluno fez a 01-a e pula
  // direto para a 03-c.
  Tree t;
  write_three_stages(t);
  REQUIRE(run_in(t, "release", {"--reference", t.path(), "--stages", "02-b"}).code == 0);
  t.remove("solutions");
  answer_soma(t, "01-a", small::kSomaAnswer);
  const std::string in_02 = t.read("exercises/02-b/soma.cpp");

  CHECK_RUN(run_in(t, "carry", {"--to", "03-c"}), 0,
            "Levadas de exercises/01-a para exercises/03-c (exercises/02-b não tinha resposta para "
            "elas):\n"
            "  01-a/soma  (exercises/03-c/soma.cpp)\n"
            "Já tinham resposta (ficaram como estão):\n"
            "  02-b/dobro  (exercises/03-c/dobro.cpp)\n"
            "  02-b/triplo  (exercises/03-c/soma.cpp)\n"
            "1 região levada para exercises/03-c.\n",
            "");
  const std::string in_03 = t.read("exercises/03-c/soma.cpp");
  CHECK(in_03.find(small::kSomaAnswer) != std::string::npos);
  CHECK(in_03.find("  return 3 * a;") == std::string::npos);  // a referência liberada ficou
  CHECK(in_03.find("throw hz::NotImplemented(\"03-c/quadruplo\"") != std::string::npos);
  CHECK(t.read("exercises/02-b/soma.cpp") == in_02);  // a etapa do meio não muda
}

TEST_CASE("carry leva a resposta da etapa mais próxima que a tem") {
  Tree t;
  write_three_stages(t);
  const std::string older =
      "  // TODO EXERCICIO 01-a/soma: devolva a soma de a e b\n"
      "  return a + b;  // a primeira versão\n"
      "  // FIM-EXERCICIO\n";
  answer_soma(t, "01-a", older);
  answer_soma(t, "02-b", small::kSomaAnswer);
  const auto r = run_in(t, "carry", {"--to", "03-c"});
  CHECK(r.err == "");
  CHECK(r.out ==
        "Levadas de exercises/02-b para exercises/03-c:\n"
        "  01-a/soma  (exercises/03-c/soma.cpp)\n" +
            kStage02StillStub + "1 região levada para exercises/03-c.\n");
  CHECK(t.read("exercises/03-c/soma.cpp").find(small::kSomaAnswer) != std::string::npos);
}

TEST_CASE("carry sem resposta em etapa nenhuma aponta o arquivo da etapa do exercício") {
  Tree t;
  write_three_stages(t);
  const std::string before = t.read("exercises/03-c/soma.cpp");
  CHECK_RUN(run_in(t, "carry", {"--to", "03-c"}), 0,
            "Ainda são stub em todas as etapas anteriores (nada a levar):\n"
            "  02-b/dobro  (exercises/02-b/dobro.cpp)\n"
            "  01-a/soma  (exercises/01-a/soma.cpp)\n"
            "  02-b/triplo  (exercises/02-b/soma.cpp)\n"
            "0 regiões levadas para exercises/03-c.\n",
            "");
  CHECK(t.read("exercises/03-c/soma.cpp") == before);
}

TEST_CASE("carry de uma etapa mais antiga leva junto a área // SEU-CODIGO do mesmo arquivo") {
  Tree t;
  write_three_stages(t);
  const std::string helper = "constexpr int kDois = 2;\n";
  answer_soma(t, "01-a", small::kSomaAnswer);
  t.write("exercises/01-a/soma.cpp",
          small::with_own_code(t.read("exercises/01-a/soma.cpp"), helper));
  const auto r = run_in(t, "carry", {"--to", "03-c"});
  CHECK(r.err == "");
  CHECK(r.out ==
        "Levadas de exercises/01-a para exercises/03-c (exercises/02-b não tinha resposta para "
        "elas):\n"
        "  01-a/soma  (exercises/03-c/soma.cpp)\n"
        "  SEU-CODIGO  (exercises/03-c/soma.cpp)\n" +
            kStage02StillStub + "2 regiões levadas para exercises/03-c.\n");
  CHECK(t.read("exercises/03-c/soma.cpp").find(helper + "// FIM-SEU-CODIGO\n") !=
        std::string::npos);

  // Com a resposta em exercises/02-b (e a área de lá vazia), a área da 01-a
  // não vai: quem a esvaziou na etapa anterior não a quer de volta.
  Tree u;
  write_three_stages(u);
  u.write("exercises/01-a/soma.cpp",
          small::with_own_code(u.read("exercises/01-a/soma.cpp"), helper));
  answer_soma(u, "02-b", small::kSomaAnswer);
  const auto nearest = run_in(u, "carry", {"--to", "03-c"});
  CHECK(nearest.out ==
        "Levadas de exercises/02-b para exercises/03-c:\n"
        "  01-a/soma  (exercises/03-c/soma.cpp)\n" +
            kStage02StillStub + "1 região levada para exercises/03-c.\n");
  CHECK(u.read("exercises/03-c/soma.cpp").find(helper) == std::string::npos);
}

TEST_CASE("carry não lê uma etapa antiga de que não precisa: marcadores quebrados nela não param") {
  Tree t;
  write_three_stages(t);
  answer_soma(t, "02-b", small::kSomaAnswer);
  t.write("exercises/02-b/soma.cpp",
          replaced(t.read("exercises/02-b/soma.cpp"), small::kTriploStub, small::kTriploAnswer));
  t.write("exercises/01-a/soma.cpp", small::kSomaBroken01);
  CHECK_RUN(run_in(t, "carry", {"--to", "03-c"}), 0,
            "Levadas de exercises/02-b para exercises/03-c:\n"
            "  01-a/soma  (exercises/03-c/soma.cpp)\n"
            "  02-b/triplo  (exercises/03-c/soma.cpp)\n"
            "Ainda são stub em todas as etapas anteriores (nada a levar):\n"
            "  02-b/dobro  (exercises/02-b/dobro.cpp)\n"
            "2 regiões levadas para exercises/03-c.\n",
            "");
}

TEST_CASE("carry: erros de uso") {
  Tree t;
  small::write_generated(t);
  const auto first = run_in(t, "carry", {"--to", "01-a"});
  CHECK(first.code == 2);
  CHECK(first.err == usage_error("01-a é a primeira etapa: não há de onde levar"));
  const auto unknown = run_in(t, "carry", {"--to", "09-x"});
  CHECK(unknown.code == 2);
  CHECK(unknown.err == usage_error("etapa desconhecida: 09-x"));
  const auto missing = run_in(t, "carry");
  CHECK(missing.code == 2);
  CHECK(missing.err == usage_error("falta --to NN-nome"));
}

// ------------------------------------------------------------------------- fill

TEST_CASE("fill põe a resposta de referência nas regiões de etapas anteriores e só nelas") {
  Tree course;
  small::write_generated(course);
  Tree copy;
  // A cópia da correção: 01-a/soma ainda é stub (ou o que o aluno deixou lá);
  // 02-b/triplo tem a resposta do aluno, que não pode mudar.
  const std::string student =
      replaced(small::kTriploAnswered02, "  throw hz::NotImplemented(\"01-a/soma\"",
               "  // lixo\n  throw hz::NotImplemented(\"01-a/soma\"");
  copy.write("exercises/02-b/soma.cpp", student);
  copy.write("exercises/02-b/dobro.cpp", course.read("exercises/02-b/dobro.cpp"));

  const auto r = run_in(copy, "fill", {"--reference", course.path(), "--stage", "02-b"});
  CHECK_RUN(r, 0,
            "Regiões de etapas anteriores com a resposta de referência:\n"
            "  01-a/soma  (exercises/02-b/soma.cpp)\n",
            "");
  CHECK(copy.read("exercises/02-b/soma.cpp") ==
        replaced(small::kTriploAnswered02, small::kSomaStub, small::kSomaReference));
  CHECK(copy.read("exercises/02-b/dobro.cpp") == course.read("exercises/02-b/dobro.cpp"));
}

TEST_CASE("fill na primeira etapa não tem o que trocar") {
  Tree course;
  small::write_generated(course);
  Tree copy;
  copy.write("exercises/01-a/soma.cpp", small::kSomaExercise01);
  CHECK_RUN(run_in(copy, "fill", {"--reference", course.path(), "--stage", "01-a"}), 0, "", "");
  CHECK(copy.read("exercises/01-a/soma.cpp") == small::kSomaExercise01);
}

TEST_CASE(
    "fill: marcadores quebrados na cópia são erro, e o uso sem opções ou sem solutions/ também") {
  Tree course;
  small::write_generated(course);
  Tree copy;
  copy.write("exercises/02-b/soma.cpp",
             replaced(small::kSomaExercise02, "  // TODO EXERCICIO 01-a/soma",
                      "  // TODO EXERCICO 01-a/soma"));
  const auto broken = run_in(copy, "fill", {"--reference", course.path(), "--stage", "02-b"});
  CHECK(broken.err == "exercises/02-b/soma.cpp:11: FIM-EXERCICIO sem a abertura da região antes\n");
  CHECK(broken.code == 1);

  const auto usage = run_in(copy, "fill", {"--stage", "02-b"});
  CHECK(usage.code == 2);
  CHECK(usage.err == usage_error("falta --reference CURSO"));
  course.write("etapas/stages.txt", small::kStages + "03-c: x\n");
  const auto no_stage = run_in(copy, "fill", {"--reference", course.path(), "--stage", "03-c"});
  CHECK(no_stage.code == 2);
  CHECK(no_stage.err ==
        usage_error("a referência " + course.root().generic_string() + " não tem solutions/03-c"));
  const auto no_solutions = run_in(copy, "fill", {"--reference", copy.path(), "--stage", "02-b"});
  CHECK(no_solutions.code == 2);
  CHECK(no_solutions.err ==
        usage_error("a referência " + copy.root().generic_string() + " não tem solutions/"));
}
