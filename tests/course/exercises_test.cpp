#include <doctest/doctest.h>

#include <filesystem>

#include "fixture.hpp"
#include "hz/course/exercises.hpp"

namespace fs = std::filesystem;
using hz::course::stub_out;
using hz::course::test::run_course;
using hz::course::test::Tree;

namespace {

const char* const kSolution =
    "#include \"loop.hpp\"\n"
    "\n"
    "// listing: run\n"
    "int run(int turns) {\n"
    "  int total = 0;\n"
    "  // EXERCICIO 01-loop/loop-body: some os turnos\n"
    "  for (int i = 0; i < turns; ++i) {\n"
    "    total += i;\n"
    "  }\n"
    "  // STUB: (void)turns;\n"
    "  // STUB: throw hz::NotImplemented(\"01-loop/loop-body\");\n"
    "  // FIM-EXERCICIO\n"
    "  return total;\n"
    "}\n"
    "// end-listing: run\n";

const char* const kExercise =
    "#include \"loop.hpp\"\n"
    "\n"
    "// listing: run\n"
    "int run(int turns) {\n"
    "  int total = 0;\n"
    "  // TODO EXERCICIO 01-loop/loop-body: some os turnos\n"
    "  (void)turns;\n"
    "  throw hz::NotImplemented(\"01-loop/loop-body\");\n"
    "  // FIM-EXERCICIO\n"
    "  return total;\n"
    "}\n"
    "// end-listing: run\n";

void write_stage(const Tree& t) {
  t.write("solutions/01-loop/loop.cpp", kSolution);
  t.write("solutions/01-loop/loop.hpp", "int run(int turns);\n");
  t.write("solutions/01-loop/CMakeLists.txt", "add_library(x loop.cpp)\n");
  t.write("solutions/01-loop/data/script.sh", "#!/bin/sh\n// EXERCICIO fica como está\n");
  fs::permissions(t.root() / "solutions/01-loop/data/script.sh", fs::perms::owner_exec,
                  fs::perm_options::add);
}

std::string error_for(const std::string& text) {
  return stub_out(text, "solutions/01-loop/a.cpp", "01-loop").error;
}

}  // namespace

TEST_CASE("stub_out troca a região pelo TODO e pelas linhas de STUB") {
  const auto r = stub_out(kSolution, "solutions/01-loop/loop.cpp", "01-loop");
  CHECK(r.error == "");
  CHECK(r.text == kExercise);
  REQUIRE(r.exercise_ids.size() == 1);
  CHECK(r.exercise_ids[0] == "01-loop/loop-body");
  CHECK(r.exercise_lines[0] == 6);
}

TEST_CASE("stub_out preserva CRLF e arquivo sem quebra de linha final") {
  const std::string in =
      "a\r\n    // EXERCICIO 01-loop/x: faça\r\n    y();\r\n    // STUB: z();\r\n    // FIM-EXERCICIO\r\nb";
  const std::string expected =
      "a\r\n    // TODO EXERCICIO 01-loop/x: faça\r\n    z();\r\n    // FIM-EXERCICIO\r\nb";
  const auto r = stub_out(in, "f.cpp", "01-loop");
  CHECK(r.error == "");
  CHECK(r.text == expected);
}

TEST_CASE("stub_out sem regiões devolve o texto idêntico") {
  const std::string in = "// comentário comum\nint x = 1; // STUBS não são marcadores no fim da linha\n";
  const auto r = stub_out(in, "f.cpp", "01-loop");
  CHECK(r.error == "");
  CHECK(r.text == in);
  CHECK(r.exercise_ids.empty());
}

TEST_CASE("erros de marcador dizem arquivo e linha") {
  CHECK(error_for("x\n// EXERCICIO 01-loop/a: faça\n// STUB: f();\n") ==
        "solutions/01-loop/a.cpp:2: EXERCICIO sem // FIM-EXERCICIO");
  CHECK(error_for("// EXERCICIO 01-loop/a: faça\n// EXERCICIO 01-loop/b: outra\n") ==
        "solutions/01-loop/a.cpp:2: EXERCICIO dentro de outro exercício (aberto na linha 1); "
        "feche com // FIM-EXERCICIO");
  CHECK(error_for("// EXERCICIO 01-loop/a: faça\nf();\n// FIM-EXERCICIO\n") ==
        "solutions/01-loop/a.cpp:1: região de exercício sem linhas // STUB: (o stub precisa "
        "compilar e lançar hz::NotImplemented)");
  CHECK(error_for("ok\n// FIM-EXERCICIO\n") ==
        "solutions/01-loop/a.cpp:2: FIM-EXERCICIO sem EXERCICIO antes");
  CHECK(error_for("// STUB: f();\n") ==
        "solutions/01-loop/a.cpp:1: STUB fora de uma região de exercício");
  CHECK(error_for("// EXERCICIO 02-brakes/a: faça\n// STUB: f();\n// FIM-EXERCICIO\n") ==
        "solutions/01-loop/a.cpp:1: o exercício 02-brakes/a está na etapa 01-loop (o id deve "
        "começar com 01-loop/)");
  CHECK(error_for("// EXERCICIO sem-barra\n") ==
        "solutions/01-loop/a.cpp:1: marcador EXERCICIO malformado (formato: // EXERCICIO "
        "<etapa>/<id>: <instrução>)");
}

TEST_CASE("grafia desconhecida de marcador é erro") {
  CHECK(error_for("  // EXERCÍCIO 01-loop/a: faça\n") ==
        "solutions/01-loop/a.cpp:1: marcador com grafia desconhecida: '// EXERCÍCIO 01-loop/a: "
        "faça' (use // EXERCICIO <etapa>/<id>: ..., // STUB: ..., // FIM-EXERCICIO)");
  CHECK(error_for("// EXERCICIO 01-loop/a: faça\n// STUB: f();\n// FIM EXERCICIO\n") ==
        "solutions/01-loop/a.cpp:3: marcador com grafia desconhecida: '// FIM EXERCICIO' (use "
        "// EXERCICIO <etapa>/<id>: ..., // STUB: ..., // FIM-EXERCICIO)");
  CHECK(error_for("//STUB: f();\n") ==
        "solutions/01-loop/a.cpp:1: marcador com grafia desconhecida: '//STUB: f();' (use "
        "// EXERCICIO <etapa>/<id>: ..., // STUB: ..., // FIM-EXERCICIO)");
}

TEST_CASE("exercises gera a árvore inteira e mantém os modos") {
  Tree t;
  write_stage(t);
  const auto r = run_course({"exercises", "--root", t.root().string()});
  CHECK(r.err == "");
  CHECK(r.out ==
        "  escrito: exercises/01-loop/CMakeLists.txt\n"
        "  escrito: exercises/01-loop/data/script.sh\n"
        "  escrito: exercises/01-loop/loop.cpp\n"
        "  escrito: exercises/01-loop/loop.hpp\n"
        "exercises/01-loop: 1 exercício em 4 arquivos (4 escritos, 0 removidos)\n");
  CHECK(r.code == 0);
  CHECK(t.read("exercises/01-loop/loop.cpp") == kExercise);
  CHECK(t.read("exercises/01-loop/loop.hpp") == "int run(int turns);\n");
  CHECK(t.read("exercises/01-loop/data/script.sh") == "#!/bin/sh\n// EXERCICIO fica como está\n");
  const auto perms = fs::status(t.root() / "exercises/01-loop/data/script.sh").permissions();
  CHECK((perms & fs::perms::owner_exec) != fs::perms::none);
}

TEST_CASE("exercises rodado de novo não escreve nada e check passa") {
  Tree t;
  write_stage(t);
  REQUIRE(run_course({"exercises", "--root", t.root().string()}).code == 0);
  const auto again = run_course({"exercises", "--root", t.root().string()});
  CHECK(again.out == "exercises/01-loop: 1 exercício em 4 arquivos (já estava em dia)\n");
  const auto check = run_course({"exercises", "--root", t.root().string(), "--check"});
  CHECK(check.code == 0);
  CHECK(check.out == "exercises/01-loop: em dia (1 exercício em 4 arquivos)\n");
  CHECK(check.err == "");
}

TEST_CASE("exercises --check lista o que difere sem escrever nada") {
  Tree t;
  write_stage(t);
  REQUIRE(run_course({"exercises", "--root", t.root().string()}).code == 0);
  t.write("exercises/01-loop/loop.hpp", "// editado à mão\n");
  t.write("exercises/01-loop/velho.cpp", "int old;\n");
  t.write("solutions/01-loop/novo.hpp", "#pragma once\n");
  fs::permissions(t.root() / "exercises/01-loop/data/script.sh", fs::perms::owner_exec,
                  fs::perm_options::remove);
  fs::create_directories(t.root() / "exercises/09-sumiu");

  const auto r = run_course({"exercises", "--root", t.root().string(), "--check"});
  CHECK(r.code == 1);
  CHECK(r.out == "");
  CHECK(r.err ==
        "exercises/ está desatualizado: rode ./hz exercises-gen\n"
        "  permissões diferem: exercises/01-loop/data/script.sh\n"
        "  difere: exercises/01-loop/loop.hpp\n"
        "  falta: exercises/01-loop/novo.hpp\n"
        "  sobrando: exercises/01-loop/velho.cpp\n"
        "  sobrando: exercises/09-sumiu/ (não existe solutions/09-sumiu)\n");
  CHECK(t.read("exercises/01-loop/loop.hpp") == "// editado à mão\n");
  CHECK_FALSE(t.exists("exercises/01-loop/novo.hpp"));
}

TEST_CASE("exercises regenera e apaga o que não existe mais na solução") {
  Tree t;
  write_stage(t);
  REQUIRE(run_course({"exercises", "--root", t.root().string()}).code == 0);
  t.write("exercises/01-loop/loop.hpp", "// editado à mão\n");
  t.write("exercises/01-loop/velho/velho.cpp", "int old;\n");
  t.write("exercises/LEIA-ME.md", "fica\n");

  const auto r = run_course({"exercises", "--root", t.root().string(), "--stage", "01-loop"});
  CHECK(r.code == 0);
  CHECK(r.out ==
        "  escrito: exercises/01-loop/loop.hpp\n"
        "  removido: exercises/01-loop/velho/velho.cpp\n"
        "exercises/01-loop: 1 exercício em 4 arquivos (1 escrito, 1 removido)\n");
  CHECK(t.read("exercises/01-loop/loop.hpp") == "int run(int turns);\n");
  CHECK_FALSE(t.exists("exercises/01-loop/velho"));
  CHECK(t.read("exercises/LEIA-ME.md") == "fica\n");
}

TEST_CASE("exercises com erro de marcador não escreve nada e sai com 2") {
  Tree t;
  write_stage(t);
  t.write("solutions/01-loop/ruim.cpp", "int a;\n// EXERCICIO 01-loop/x: faça\n// STUB: f();\n");
  t.write("solutions/01-loop/dup.cpp",
          "// EXERCICIO 01-loop/loop-body: de novo\n// STUB: g();\n// FIM-EXERCICIO\n");
  const auto r = run_course({"exercises", "--root", t.root().string()});
  CHECK(r.code == 2);
  CHECK(r.out == "");
  CHECK(r.err ==
        "solutions/01-loop/loop.cpp:6: exercício 01-loop/loop-body repetido (já aparece em "
        "solutions/01-loop/dup.cpp:1)\n"
        "solutions/01-loop/ruim.cpp:2: EXERCICIO sem // FIM-EXERCICIO\n"
        "hz-course: erro nos marcadores de exercício; nada foi escrito\n");
  CHECK_FALSE(t.exists("exercises/01-loop"));
}

TEST_CASE("exercises com etapa desconhecida é erro de uso") {
  Tree t;
  write_stage(t);
  const auto r = run_course({"exercises", "--root", t.root().string(), "--stage", "07-nada"});
  CHECK(r.code == 2);
  CHECK(r.err ==
        "hz-course: etapa desconhecida: 07-nada (não existe solutions/07-nada)\n"
        "veja: hz-course help\n");
}

TEST_CASE("subcomando desconhecido sai com 2") {
  const auto r = run_course({"voar"});
  CHECK(r.code == 2);
  CHECK(r.err == "hz-course: subcomando desconhecido: voar\nveja: hz-course help\n");
}
