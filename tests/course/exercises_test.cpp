#include <doctest/doctest.h>

#include <filesystem>

#include "fixture.hpp"
#include "hz/course/exercises.hpp"

namespace fs = std::filesystem;
using hz::course::Catalog;
using hz::course::ExerciseInfo;
using hz::course::stub_out;
using hz::course::StubbedFile;
using hz::course::StubMode;
using hz::course::test::commit_all;
using hz::course::test::hint_entry;
using hz::course::test::replaced;
using hz::course::test::run_in;
using hz::course::test::Tree;
using hz::course::test::usage_error;
namespace small = hz::course::test::small;

namespace {

Catalog catalog_of(const std::vector<std::pair<std::string, std::string>>& exercises) {
  Catalog c;
  for (const auto& [id, section] : exercises) {
    const std::string stage = id.substr(0, id.find('/'));
    c.exercises.push_back(ExerciseInfo{id,
                                       stage,
                                       "livro/" + stage + ".md",
                                       section,
                                       {"a", "b"},
                                       "exercises/" + stage + "/hints.md:1"});
  }
  return c;
}

StubbedFile stub(const std::string& text, const Catalog* catalog, StubMode mode = StubMode::stubs) {
  return stub_out(text, "solutions/01-a/f.cpp", {"01-a", {"01-a"}, catalog, mode});
}

// Uma função com uma região 01-a/x, e o que o gerador escreve no lugar dela
// (com a seção "S").
const std::string kRegion =
    "void f() {\n"
    "  // EXERCICIO 01-a/x: faça\n"
    "  g();\n"
    "  // FIM-EXERCICIO\n"
    "}\n";
const std::string kStubbed =
    "void f() {\n"
    "  // TODO EXERCICIO 01-a/x: faça\n"
    "  throw hz::NotImplemented(\"01-a/x\", \"livro/01-a.md, \\\"S\\\"\");\n"
    "  // FIM-EXERCICIO\n"
    "}\n";

// O texto sem a área do aluno vazia (e a linha em branco depois dela), para
// os testes que olham outra coisa; onde ela fica, outros testes conferem.
std::string without_area(std::string text) {
  const std::string area = small::kOwnArea + "\n";
  const std::size_t at = text.find(area);
  if (at != std::string::npos) text.erase(at, area.size());
  return text;
}

// O texto que o gerador escreve para `head` + kRegion, sem a área do aluno.
std::string stubbed_with(const std::string& head) {
  const Catalog c = catalog_of({{"01-a/x", "S"}});
  const StubbedFile r = stub(head + kRegion, &c);
  REQUIRE(r.error == "");
  REQUIRE(r.text.find(small::kOwnArea) != std::string::npos);
  return without_area(r.text);
}

// O curso pequeno com exercises/ gerado. O REQUIRE para o teste se o gerador
// falha, com o stderr dele na mensagem.
void generate_small_course(const Tree& t) {
  small::write_course(t);
  const auto r = run_in(t, "exercises");
  INFO("o stderr do hz-course exercises: ", r.err);
  REQUIRE(r.code == 0);
}

// O curso pequeno com um script executável, solutions/01-a/tools/run.sh.
void write_course_with_script(const Tree& t, const std::string& script) {
  small::write_course(t);
  t.write("solutions/01-a/tools/run.sh", script);
  fs::permissions(t.root() / "solutions/01-a/tools/run.sh", fs::perms::owner_exec,
                  fs::perm_options::add);
}

// A mensagem com que o gerador recusa sobrescrever o trabalho de alguém:
// `files` são as linhas "  exercises/...: o motivo\n", uma por arquivo.
std::string refusal_of(const std::string& files) {
  return "hz-course: estes arquivos de exercises/ têm código que não é um stub gerado (o trabalho "
         "de alguém?) e seriam sobrescritos ou apagados:\n" +
         files +
         "Nada foi escrito. O código do aluno mora nas regiões de exercício e entre // SEU-CODIGO "
         "e // FIM-SEU-CODIGO; o resto do arquivo vem de solutions/. Guarde esse trabalho (git "
         "stash, git commit) e rode de novo com --force.\n";
}

}  // namespace

TEST_CASE("stub_out troca a região pelo TODO, o throw com a seção do livro e o FIM") {
  const Catalog c = catalog_of({{"01-a/soma", "Exercício 1 — A soma"}});
  const StubbedFile r = stub_out(small::kSoma01, "solutions/01-a/soma.cpp", {"01-a", {"01-a"}, &c});
  CHECK(r.error == "");
  CHECK(r.text == small::kSomaExercise01);
  CHECK(r.exercise_ids == std::vector<std::string>{"01-a/soma"});
  CHECK(r.exercise_lines == std::vector<int>{4});
  CHECK(r.stubs.at("01-a/soma") == small::kSomaStub);
  CHECK(r.answers.at("01-a/soma") == "  return a + b;\n");
  CHECK(r.filled.at("01-a/soma") == small::kSomaReference);
}

TEST_CASE("stub_out sem catálogo escreve o throw só com o id") {
  const StubbedFile r = stub("#include <string>\n\n" + kRegion, nullptr);
  CHECK(r.error == "");
  CHECK(without_area(r.text) ==
        "#include <string>\n"
        "\n"
        "#include \"hz/not_implemented.hpp\"\n"
        "\n"
        "void f() {\n"
        "  // TODO EXERCICIO 01-a/x: faça\n"
        "  throw hz::NotImplemented(\"01-a/x\");\n"
        "  // FIM-EXERCICIO\n"
        "}\n");
}

TEST_CASE("stub_out sem regiões devolve o texto idêntico e não acrescenta o include") {
  const std::string in = "#include <string>\n// comentário comum\nint x = 1;  // STUBS\r\nsem fim";
  const StubbedFile r = stub(in, nullptr);
  CHECK(r.error == "");
  CHECK(r.text == in);
  CHECK(r.exercise_ids.empty());
  CHECK(r.stubs.empty());
}

TEST_CASE("include: depois do cabeçalho principal sozinho e dos includes do sistema") {
  CHECK(stubbed_with("#include \"f.hpp\"\n\n#include <string>\n\n") ==
        "#include \"f.hpp\"\n\n#include <string>\n\n#include \"hz/not_implemented.hpp\"\n\n" +
            kStubbed);
}

TEST_CASE("include: só o cabeçalho principal ganha um bloco novo depois dele") {
  CHECK(stubbed_with("#include \"f.hpp\"\n\n") ==
        "#include \"f.hpp\"\n\n#include \"hz/not_implemented.hpp\"\n\n" + kStubbed);
}

TEST_CASE("include: no último bloco de includes com aspas, em ordem alfabética") {
  CHECK(stubbed_with("#include \"f.hpp\"\n\n#include <string>\n\n#include \"hz/text.hpp\"\n"
                     "#include \"think.hpp\"\n\n") ==
        "#include \"f.hpp\"\n\n#include <string>\n\n#include \"hz/not_implemented.hpp\"\n"
        "#include \"hz/text.hpp\"\n#include \"think.hpp\"\n\n" +
            kStubbed);
  CHECK(stubbed_with("#include \"hz/a.hpp\"\n#include \"hz/b.hpp\"\n\n") ==
        "#include \"hz/a.hpp\"\n#include \"hz/b.hpp\"\n#include \"hz/not_implemented.hpp\"\n\n" +
            kStubbed);
  // Uma linha só, mas com pasta: não é o cabeçalho principal.
  CHECK(stubbed_with("#include \"hz/text.hpp\"\n\n") ==
        "#include \"hz/not_implemented.hpp\"\n#include \"hz/text.hpp\"\n\n" + kStubbed);
}

TEST_CASE("include: só includes do sistema ganham um bloco novo depois deles") {
  CHECK(stubbed_with("#include <string>\n#include <vector>\n\n") ==
        "#include <string>\n#include <vector>\n\n#include \"hz/not_implemented.hpp\"\n\n" +
            kStubbed);
}

TEST_CASE("include: sem nenhum include vai no começo, e num cabeçalho depois do #pragma once") {
  CHECK(stubbed_with("") == "#include \"hz/not_implemented.hpp\"\n\n" + kStubbed);
  CHECK(stubbed_with("#pragma once\n\n") ==
        "#pragma once\n\n#include \"hz/not_implemented.hpp\"\n\n" + kStubbed);
}

TEST_CASE("include: quem já inclui hz/not_implemented.hpp não ganha outro") {
  CHECK(stubbed_with("#include \"hz/not_implemented.hpp\"\n\n") ==
        "#include \"hz/not_implemented.hpp\"\n\n" + kStubbed);
}

TEST_CASE("stub_out preserva CRLF e o arquivo sem quebra de linha final") {
  const Catalog c = catalog_of({{"01-a/x", "S"}});
  const StubbedFile r = stub(
      "#include \"f.hpp\"\r\n\r\nvoid f() {\r\n  // EXERCICIO 01-a/x: faça\r\n  g();\r\n"
      "  // FIM-EXERCICIO\r\n}",
      &c);
  CHECK(r.error == "");
  CHECK(r.text ==
        "#include \"f.hpp\"\r\n\r\n#include \"hz/not_implemented.hpp\"\r\n\r\n"
        "// SEU-CODIGO: includes, constantes e funções suas (./hz carry e ./hz update os levam)\r\n"
        "// FIM-SEU-CODIGO\r\n\r\nvoid f() {\r\n"
        "  // TODO EXERCICIO 01-a/x: faça\r\n"
        "  throw hz::NotImplemented(\"01-a/x\", \"livro/01-a.md, \\\"S\\\"\");\r\n"
        "  // FIM-EXERCICIO\r\n}");
}

TEST_CASE("o TODO quebra em 100 colunas contadas em caracteres UTF-8, não em bytes") {
  const Catalog c = catalog_of({{"01-a/x", "S"}});
  // A primeira linha tem 100 caracteres (112 bytes): cabe; "fim" vai para a seguinte.
  const StubbedFile r = stub(
      "  // EXERCICIO 01-a/x: verificação verificação verificação verificação  verificação "
      "verificações fim\n"
      "  // FIM-EXERCICIO\n",
      &c);
  CHECK(r.error == "");
  CHECK(without_area(r.text) ==
        "#include \"hz/not_implemented.hpp\"\n\n"
        "  // TODO EXERCICIO 01-a/x: verificação verificação verificação verificação verificação "
        "verificações\n"
        "  // fim\n"
        "  throw hz::NotImplemented(\"01-a/x\", \"livro/01-a.md, \\\"S\\\"\");\n"
        "  // FIM-EXERCICIO\n");
}

TEST_CASE("o TODO longo continua em várias linhas de comentário com a mesma indentação") {
  const Catalog c = catalog_of({{"01-a/x", "S"}});
  std::string words;
  for (int i = 0; i < 30; ++i) words += " palavra" + std::to_string(i);
  const StubbedFile r = stub("    // EXERCICIO 01-a/x:" + words + "\n    // FIM-EXERCICIO\n", &c);
  CHECK(r.error == "");
  CHECK(r.stubs.at("01-a/x") ==
        "    // TODO EXERCICIO 01-a/x: palavra0 palavra1 palavra2 palavra3 palavra4 palavra5 "
        "palavra6\n"
        "    // palavra7 palavra8 palavra9 palavra10 palavra11 palavra12 palavra13 palavra14 "
        "palavra15\n"
        "    // palavra16 palavra17 palavra18 palavra19 palavra20 palavra21 palavra22 palavra23 "
        "palavra24\n"
        "    // palavra25 palavra26 palavra27 palavra28 palavra29\n"
        "    throw hz::NotImplemented(\"01-a/x\", \"livro/01-a.md, \\\"S\\\"\");\n"
        "    // FIM-EXERCICIO\n");
}

TEST_CASE("o throw fica numa linha até 100 colunas e quebra como o clang-format depois") {
  // 40 caracteres de seção: a linha do throw tem exatamente 100 colunas (105 bytes).
  const Catalog fits = catalog_of({{"01-a/x", "Exercício 1 — A soma de dois números, já"}});
  const std::string region = "  // EXERCICIO 01-a/x: faça\n  // FIM-EXERCICIO\n";
  CHECK(stub(region, &fits).stubs.at("01-a/x") ==
        "  // TODO EXERCICIO 01-a/x: faça\n"
        "  throw hz::NotImplemented(\"01-a/x\", \"livro/01-a.md, \\\"Exercício 1 — A soma de "
        "dois números, já\\\"\");\n"
        "  // FIM-EXERCICIO\n");
  const Catalog wraps = catalog_of({{"01-a/x", "Exercício 1 — A soma de dois números, já!"}});
  CHECK(stub(region, &wraps).stubs.at("01-a/x") ==
        "  // TODO EXERCICIO 01-a/x: faça\n"
        "  throw hz::NotImplemented(\"01-a/x\",\n"
        "                           \"livro/01-a.md, \\\"Exercício 1 — A soma de dois números, "
        "já!\\\"\");\n"
        "  // FIM-EXERCICIO\n");
}

TEST_CASE("aspas e barras da seção são escapadas no literal do throw") {
  const Catalog c = catalog_of({{"01-a/x", "O \"loop\" e a \\"}});
  CHECK(stub("// EXERCICIO 01-a/x: faça\n// FIM-EXERCICIO\n", &c).stubs.at("01-a/x") ==
        "// TODO EXERCICIO 01-a/x: faça\n"
        "throw hz::NotImplemented(\"01-a/x\", \"livro/01-a.md, \\\"O \\\"loop\\\" e a "
        "\\\\\\\"\");\n"
        "// FIM-EXERCICIO\n");
}

TEST_CASE("uma linha do stub com mais de 100 colunas é erro") {
  const Catalog long_section = catalog_of(
      {{"01-a/x", "Exercício 1 — Uma seção com um título longo demais para caber na linha"}});
  const std::string region = "  // EXERCICIO 01-a/x: faça\n  // FIM-EXERCICIO\n";
  const std::string message =
      "solutions/01-a/f.cpp:1: o stub de 01-a/x passa de 100 colunas: encurte a instrução do "
      "marcador ou o título da seção";
  CHECK(stub(region, &long_section).error == message);
  const Catalog c = catalog_of({{"01-a/x", "S"}});
  CHECK(
      stub("  // EXERCICIO 01-a/x: " + std::string(73, 'x') + "\n  // FIM-EXERCICIO\n", &c).error ==
      message);
  // 72 cabem: a linha do TODO tem 100 colunas.
  CHECK(
      stub("  // EXERCICIO 01-a/x: " + std::string(72, 'x') + "\n  // FIM-EXERCICIO\n", &c).error ==
      "");
}

TEST_CASE("a prova mantém a resposta atrás de um throw ligado por HZ_STUB") {
  const Catalog c = catalog_of({{"01-a/soma", "Exercício 1 — A soma"}});
  const StubbedFile r =
      stub_out(small::kSoma01, "solutions/01-a/soma.cpp", {"01-a", {"01-a"}, &c, StubMode::proof});
  CHECK(r.error == "");
  CHECK(r.text ==
        "#include \"soma.hpp\"\n"
        "\n"
        "#include \"hz/not_implemented.hpp\"\n"
        "\n" +
            small::kOwnArea +
            "\n"
            "int soma(int a, int b) {\n"
            "  // EXERCICIO 01-a/soma: devolva a soma de a e b\n"
            "  if (::hz::exercise_stubbed(\"01-a/soma\")) throw "
            "::hz::NotImplemented(\"01-a/soma\",\n" +
            std::string(70, ' ') +
            "\"livro/01-a.md, \\\"Exercício 1 — A soma\\\"\");\n"
            "  return a + b;\n"
            "  // FIM-EXERCICIO\n"
            "}\n");
  CHECK(r.stubs.at("01-a/soma") == small::kSomaStub);
  const Catalog short_c = catalog_of({{"01-a/x", "S"}});
  CHECK(without_area(
            stub("// EXERCICIO 01-a/x: faça\ng();\n// FIM-EXERCICIO\n", &short_c, StubMode::proof)
                .text) ==
        "#include \"hz/not_implemented.hpp\"\n\n"
        "// EXERCICIO 01-a/x: faça\n"
        "if (::hz::exercise_stubbed(\"01-a/x\")) throw ::hz::NotImplemented(\"01-a/x\", "
        "\"livro/01-a.md, \\\"S\\\"\");\n"
        "g();\n"
        "// FIM-EXERCICIO\n");
}

TEST_CASE("stub_out: região de uma etapa posterior e exercício fora do hints.md são erros") {
  const Catalog c = catalog_of({{"01-a/x", "S"}});
  CHECK(stub("a\n// EXERCICIO 02-b/x: faça\n// FIM-EXERCICIO\n", &c).error ==
        "solutions/01-a/f.cpp:2: o exercício 02-b/x é de uma etapa que não vem antes de 01-a (o "
        "id começa com a etapa em que o exercício nasce)");
  CHECK(stub("// EXERCICIO 01-a/y: faça\n// FIM-EXERCICIO\n", &c).error ==
        "solutions/01-a/f.cpp:1: o exercício 01-a/y não está em exercises/01-a/hints.md (escreva "
        "lá a seção do livro e as dicas)");
  CHECK(stub("// EXERCICIO 01-a/x: faça\n// STUB: f();\n// FIM-EXERCICIO\n", &c).error ==
        "solutions/01-a/f.cpp:2: linha // STUB: não é mais usada: o hz-course escreve o stub "
        "(apague a linha)");
}

// ------------------------------------------------------ o gerador na linha de comando

TEST_CASE("exercises gera as etapas: cada uma com os stubs de todas as etapas até ela") {
  Tree t;
  write_course_with_script(t, "#!/bin/sh\n// EXERCICIO não é fonte C++\n");
  const auto r = run_in(t, "exercises");
  CHECK_RUN(r, 0,
            "  escrito: exercises/01-a/CMakeLists.txt\n"
            "  escrito: exercises/01-a/soma.cpp\n"
            "  escrito: exercises/01-a/soma.hpp\n"
            "  escrito: exercises/01-a/tools/run.sh\n"
            "exercises/01-a: 1 exercício em 4 arquivos (4 escritos, 0 removidos)\n"
            "  escrito: exercises/02-b/CMakeLists.txt\n"
            "  escrito: exercises/02-b/dobro.cpp\n"
            "  escrito: exercises/02-b/soma.cpp\n"
            "  escrito: exercises/02-b/soma.hpp\n"
            "exercises/02-b: 3 exercícios em 4 arquivos (4 escritos, 0 removidos)\n",
            "");
  CHECK(t.read("exercises/01-a/soma.cpp") == small::kSomaExercise01);
  CHECK(t.read("exercises/02-b/soma.cpp") == small::kSomaExercise02);
  CHECK(t.read("exercises/01-a/soma.hpp") == small::kHeader);
  CHECK(t.read("exercises/01-a/tools/run.sh") == "#!/bin/sh\n// EXERCICIO não é fonte C++\n");
  const auto perms = fs::status(t.root() / "exercises/01-a/tools/run.sh").permissions();
  CHECK((perms & fs::perms::owner_exec) != fs::perms::none);
  CHECK(t.read("exercises/01-a/hints.md").rfind("# Dicas da etapa 01-a\n", 0) == 0);
}

TEST_CASE("exercises rodado de novo não escreve nada e --check passa") {
  Tree t;
  generate_small_course(t);
  const auto again = run_in(t, "exercises");
  CHECK(again.out ==
        "exercises/01-a: 1 exercício em 3 arquivos (já estava em dia)\n"
        "exercises/02-b: 3 exercícios em 4 arquivos (já estava em dia)\n");
  CHECK(again.code == 0);
  const auto check = run_in(t, "exercises", {"--check"});
  CHECK_RUN(check, 0,
            "exercises/01-a: em dia (1 exercício em 3 arquivos)\n"
            "exercises/02-b: em dia (3 exercícios em 4 arquivos)\n",
            "");
}

TEST_CASE("exercises --check lista o que difere e não escreve nada") {
  Tree t;
  write_course_with_script(t, "#!/bin/sh\n");
  REQUIRE(run_in(t, "exercises").code == 0);
  t.write("exercises/01-a/soma.hpp", "// editado à mão\n");
  t.write("exercises/01-a/velho.cpp", "int velho;\n");
  t.write("solutions/01-a/novo.hpp", "#pragma once\n");
  fs::permissions(t.root() / "exercises/01-a/tools/run.sh", fs::perms::owner_exec,
                  fs::perm_options::remove);
  t.write("exercises/09-sumiu/a.cpp", "int a;\n");

  const auto r = run_in(t, "exercises", {"--check"});
  CHECK_RUN(r, 1, "",
            "exercises/ difere do que solutions/ gera (quem mantém o curso: ./hz exercises-gen)\n"
            "  falta: exercises/01-a/novo.hpp\n"
            "  difere: exercises/01-a/soma.hpp\n"
            "  permissões diferem: exercises/01-a/tools/run.sh\n"
            "  sobrando: exercises/01-a/velho.cpp\n"
            "  sobrando: exercises/09-sumiu/ (não existe solutions/09-sumiu)\n");
  CHECK(t.read("exercises/01-a/soma.hpp") == "// editado à mão\n");
  CHECK_FALSE(t.exists("exercises/01-a/novo.hpp"));
  CHECK(t.exists("exercises/09-sumiu/a.cpp"));
}

TEST_CASE("exercises --check reprova seção do hints.md que não é título do capítulo") {
  Tree t;
  generate_small_course(t);
  t.write("livro/02-b.md", "# A etapa 02-b\n\n## Exercício 1 — O triplo\n");
  const auto r = run_in(t, "exercises", {"--check"});
  CHECK_RUN(r, 1, "",
            "exercises/02-b/hints.md:8: 02-b/dobro: a seção \"Exercício 2 — O dobro\" não é um "
            "título de livro/02-b.md\n");
}

TEST_CASE("exercises regenera um arquivo cujas regiões ainda são os stubs gerados") {
  Tree t;
  generate_small_course(t);
  commit_all(t);
  // A solução muda fora da região (sem commit): o exercício intocado acompanha,
  // porque é o que o gerador escreve da solução do último commit.
  t.write("solutions/01-a/soma.cpp", "// Somas.\n" + small::kSoma01);
  const auto r = run_in(t, "exercises", {"--stage", "01-a"});
  CHECK_RUN(r, 0,
            "  escrito: exercises/01-a/soma.cpp\n"
            "exercises/01-a: 1 exercício em 3 arquivos (1 escrito, 0 removidos)\n",
            "");
  CHECK(t.read("exercises/01-a/soma.cpp") == "// Somas.\n" + small::kSomaExercise01);
}

TEST_CASE("exercises nunca sobrescreve uma região editada sem --force, nem o resto") {
  Tree t;
  generate_small_course(t);
  commit_all(t);
  const std::string student = small::kSomaAnswered01;
  t.write("exercises/01-a/soma.cpp", student);
  t.write("solutions/01-a/soma.hpp", small::kHeader + "int dobro(int a);\n");

  CHECK_RUN(run_in(t, "exercises"), 1, "",
            refusal_of("  exercises/01-a/soma.cpp: a região 01-a/soma não é o stub gerado\n"));
  CHECK(t.read("exercises/01-a/soma.cpp") == student);
  CHECK(t.read("exercises/01-a/soma.hpp") == small::kHeader);

  const auto forced = run_in(t, "exercises", {"--stage", "01-a", "--force"});
  CHECK_RUN(forced, 0,
            "  escrito: exercises/01-a/soma.cpp\n"
            "  escrito: exercises/01-a/soma.hpp\n"
            "exercises/01-a: 1 exercício em 3 arquivos (2 escritos, 0 removidos)\n",
            "");
  CHECK(t.read("exercises/01-a/soma.cpp") == small::kSomaExercise01);
}

TEST_CASE("exercises trata marcadores quebrados e regiões que sumiram como trabalho de alguém") {
  Tree t;
  generate_small_course(t);
  // Sem o FIM-EXERCICIO, não dá para saber o que é do aluno.
  t.write("exercises/01-a/soma.cpp", small::kSomaBroken01);
  // Sem a região inteira: o aluno a apagou.
  t.write("exercises/02-b/dobro.cpp", "int dobro(int a) { return a + a; }\n");
  const auto r = run_in(t, "exercises", {"--check"});
  CHECK(r.err ==
        "exercises/ difere do que solutions/ gera (quem mantém o curso: ./hz exercises-gen)\n"
        "  difere: exercises/01-a/soma.cpp\n"
        "  difere: exercises/02-b/dobro.cpp\n");
  const auto gen = run_in(t, "exercises");
  CHECK(
      gen.err ==
      refusal_of("  exercises/01-a/soma.cpp: os marcadores não se leem "
                 "(exercises/01-a/soma.cpp:9: região de exercício sem // FIM-EXERCICIO)\n"
                 "  exercises/02-b/dobro.cpp: falta uma região de exercício (alguém a apagou?)\n"));
  CHECK(gen.code == 1);
}

TEST_CASE("exercises só apaga arquivos a mais com --force, e as pastas que ficam vazias") {
  Tree t;
  generate_small_course(t);
  t.write("exercises/01-a/ajuda.cpp", "int ajuda;\n");
  t.write("exercises/01-a/notas/ideias.txt", "x\n");

  const auto r = run_in(t, "exercises", {"--stage", "01-a"});
  CHECK(r.err ==
        refusal_of("  exercises/01-a/ajuda.cpp: o arquivo não vem de solutions/\n"
                   "  exercises/01-a/notas/ideias.txt: o arquivo não vem de solutions/\n"));
  CHECK(r.code == 1);
  CHECK(t.exists("exercises/01-a/ajuda.cpp"));

  const auto forced = run_in(t, "exercises", {"--stage", "01-a", "--force"});
  CHECK_RUN(forced, 0,
            "  removido: exercises/01-a/ajuda.cpp\n"
            "  removido: exercises/01-a/notas/ideias.txt\n"
            "exercises/01-a: 1 exercício em 3 arquivos (0 escritos, 2 removidos)\n",
            "");
  CHECK_FALSE(t.exists("exercises/01-a/ajuda.cpp"));
  CHECK_FALSE(t.exists("exercises/01-a/notas"));
  CHECK(t.exists("exercises/01-a/hints.md"));
}

TEST_CASE("exercises só apaga uma etapa que sumiu de solutions/ com --force") {
  Tree t;
  generate_small_course(t);
  t.write("exercises/09-velha/a.cpp", "int a;\n");
  const auto r = run_in(t, "exercises");
  CHECK_RUN(r, 1, "",
            "hz-course: exercises/ tem etapas que não existem mais em solutions/: 09-velha \n"
            "Nada foi escrito; rode com --force para apagá-las.\n");
  CHECK(t.exists("exercises/09-velha/a.cpp"));
  const auto forced = run_in(t, "exercises", {"--force"});
  CHECK(forced.out ==
        "  removido: exercises/09-velha/\n"
        "exercises/01-a: 1 exercício em 3 arquivos (já estava em dia)\n"
        "exercises/02-b: 3 exercícios em 4 arquivos (já estava em dia)\n");
  CHECK(forced.code == 0);
  CHECK_FALSE(t.exists("exercises/09-velha"));
}

TEST_CASE("exercises --proof-out escreve a versão da prova, com a resposta e a chave HZ_STUB") {
  Tree t;
  small::write_course(t);
  const std::string out = t.path("prova");
  const auto r = run_in(t, "exercises", {"--proof-out", out});
  CHECK_RUN(r, 0,
            fs::path(out).generic_string() + "/01-a: 1 exercício com a chave HZ_STUB\n" +
                fs::path(out).generic_string() + "/02-b: 3 exercícios com a chave HZ_STUB\n",
            "");
  CHECK(t.read("prova/02-b/dobro.cpp") ==
        "#include \"soma.hpp\"\n"
        "\n"
        "#include \"hz/not_implemented.hpp\"\n"
        "\n" +
            small::kOwnArea +
            "\n"
            "int dobro(int a) {\n"
            "  // EXERCICIO 02-b/dobro: devolva o dobro de a\n"
            "  if (::hz::exercise_stubbed(\"02-b/dobro\")) throw "
            "::hz::NotImplemented(\"02-b/dobro\",\n" +
            std::string(71, ' ') +
            "\"livro/02-b.md, \\\"Exercício 2 — O dobro\\\"\");\n"
            "  return soma(a, a);\n"
            "  // FIM-EXERCICIO\n"
            "}\n");
  CHECK(t.read("prova/01-a/CMakeLists.txt") == small::kCMake);
  CHECK_FALSE(t.exists("exercises/01-a/soma.cpp"));
}

// --------------------------------------------------- os erros que o plano encontra

namespace {

std::string marker_errors_of(const Tree& t, std::vector<std::string> extra = {}) {
  const auto r = run_in(t, "exercises", std::move(extra));
  CHECK(r.out == "");
  CHECK(r.code == 2);
  CHECK_FALSE(t.exists("exercises/01-a/soma.cpp"));
  return r.err;
}

const std::string kNothingWritten =
    "hz-course: erro nos marcadores de exercício; nada foi escrito\n";

}  // namespace

TEST_CASE("exercises: região de uma etapa posterior é erro e nada é escrito") {
  Tree t;
  small::write_course(t);
  t.write("solutions/01-a/cedo.cpp",
          "void f() {\n  // EXERCICIO 02-b/cedo: cedo demais\n  // FIM-EXERCICIO\n}\n");
  CHECK(marker_errors_of(t) ==
        "solutions/01-a/cedo.cpp:2: o exercício 02-b/cedo é de uma etapa que não vem antes de "
        "01-a (o id começa com a etapa em que o exercício nasce)\n" +
            kNothingWritten);
}

TEST_CASE("exercises: região sem entrada no hints.md e entrada sem região") {
  Tree t;
  small::write_course(t);
  t.write("solutions/01-a/novo.cpp", "// EXERCICIO 01-a/novo: faça\n// FIM-EXERCICIO\n");
  t.remove("solutions/02-b/dobro.cpp");
  CHECK(marker_errors_of(t) ==
        "solutions/01-a/novo.cpp:1: o exercício 01-a/novo não está em exercises/01-a/hints.md "
        "(escreva lá a seção do livro e as dicas)\n"
        "exercises/02-b/hints.md:8: o exercício 02-b/dobro não tem região em solutions/02-b "
        "(marque com // EXERCICIO 02-b/dobro: ...)\n" +
            kNothingWritten);
}

TEST_CASE("exercises: a resposta de uma região antiga não pode mudar numa etapa seguinte") {
  Tree t;
  small::write_course(t);
  t.write("solutions/02-b/soma.cpp", replaced(small::kSoma02, "return a + b;", "return b + a;"));
  CHECK(marker_errors_of(t) ==
        "solutions/02-b/soma.cpp:4: a resposta de 01-a/soma difere da de solutions/01-a (uma "
        "região que o capítulo reescreve precisa de um id novo, 02-b/...)\n" +
            kNothingWritten);
}

TEST_CASE("exercises: região de etapa anterior que não existe lá é erro") {
  Tree t;
  small::write_course(t);
  t.write("exercises/01-a/hints.md", hint_entry("01-a/soma", "Exercício 1 — A soma") +
                                         hint_entry("01-a/velho", "Exercício 1 — A soma"));
  t.write("solutions/02-b/velho.cpp", "// EXERCICIO 01-a/velho: faça\nx();\n// FIM-EXERCICIO\n");
  CHECK(marker_errors_of(t, {"--stage", "02-b"}) ==
        "solutions/02-b/velho.cpp:1: o exercício 01-a/velho não existe em solutions/01-a\n" +
            kNothingWritten);
}

TEST_CASE("exercises: id repetido em dois arquivos da etapa") {
  Tree t;
  small::write_course(t);
  t.write("solutions/01-a/outro.cpp",
          "#include \"soma.hpp\"\n\n// EXERCICIO 01-a/soma: de novo\n// FIM-EXERCICIO\n");
  CHECK(marker_errors_of(t) ==
        "solutions/01-a/soma.cpp:4: exercício 01-a/soma repetido (já aparece em "
        "solutions/01-a/outro.cpp:3)\n" +
            kNothingWritten);
}

TEST_CASE("exercises: stub com linha longa demais e marcador quebrado") {
  Tree t;
  small::write_course(t);
  t.write("exercises/02-b/hints.md",
          hint_entry("02-b/triplo",
                     "Exercício 1 — O triplo de um número inteiro qualquer, sem "
                     "estouro") +
              hint_entry("02-b/dobro", "Exercício 2 — O dobro"));
  t.write("solutions/01-a/ruim.cpp", "int a;\n// EXERCICIO 01-a/soma: sem fim\n");
  CHECK(marker_errors_of(t) ==
        "solutions/01-a/ruim.cpp:2: região de exercício sem // FIM-EXERCICIO\n"
        "solutions/02-b/soma.cpp:10: o stub de 02-b/triplo passa de 100 colunas: encurte a "
        "instrução do marcador ou o título da seção\n" +
            kNothingWritten);
}

TEST_CASE("exercises: etapa desconhecida, hints.md inválido e raiz sem solutions/") {
  Tree t;
  small::write_course(t);
  const auto unknown = run_in(t, "exercises", {"--stage", "07-nada"});
  CHECK(unknown.code == 2);
  CHECK(unknown.err == usage_error("etapa desconhecida: 07-nada (não existe solutions/07-nada "
                                   "listada em etapas/stages.txt)"));

  t.write("exercises/01-a/hints.md", "## 01-a/soma\nCapítulo: livro/01-a.md\n");
  const auto hints = run_in(t, "exercises");
  CHECK_RUN(
      hints, 2, "",
      "exercises/01-a/hints.md:1: 01-a/soma: falta a linha \"Seção: <título exato>\"\n"
      "exercises/01-a/hints.md:1: 01-a/soma: uma escada de dicas precisa de pelo menos 2 dicas "
      "(itens \"1. ...\", \"2. ...\")\n");

  Tree empty;
  const auto no_root = run_in(empty, "exercises");
  CHECK(no_root.code == 2);
  CHECK(no_root.err == usage_error("não achei " + (empty.root() / "solutions").generic_string() +
                                   " (--root deve ser a raiz do repositório)"));
}

TEST_CASE("stub_out: a área // SEU-CODIGO é do gerador, e uma solução que a tem é erro") {
  const Catalog c = catalog_of({{"01-a/x", "S"}});
  CHECK(stub("// SEU-CODIGO\n// FIM-SEU-CODIGO\n" + kRegion, &c).error ==
        "solutions/01-a/f.cpp:1: a área // SEU-CODIGO é de exercises/ (o gerador a escreve, "
        "vazia, em todo arquivo com regiões); apague-a da solução");
  // Sem regiões, sem área: o arquivo sai idêntico.
  CHECK(stub("#include <string>\n", &c).text == "#include <string>\n");
  // Sem linha em branco depois do último #include, o gerador põe uma.
  CHECK(stub("#include \"f.hpp\"\n" + kRegion, &c).text ==
        "#include \"f.hpp\"\n\n#include \"hz/not_implemented.hpp\"\n\n" + small::kOwnArea + "\n" +
            kStubbed);
}

TEST_CASE("exercises recusa apagar uma linha do aluno fora das regiões, mesmo commitada") {
  Tree t;
  generate_small_course(t);
  // O aluno acrescenta uma função fora das regiões e da área, e faz o commit.
  const std::string student = small::kSomaExercise01 + "int extra() { return 1; }\n";
  t.write("exercises/01-a/soma.cpp", student);
  commit_all(t);
  CHECK_RUN(run_in(t, "exercises", {"--stage", "01-a"}), 1, "",
            refusal_of("  exercises/01-a/soma.cpp: a linha 13, fora das regiões e da área // "
                       "SEU-CODIGO, não veio de solutions/ (\"int extra() { return 1; }\")\n"));
  CHECK(t.read("exercises/01-a/soma.cpp") == student);
}

TEST_CASE("exercises nunca sobrescreve o código da área // SEU-CODIGO") {
  Tree t;
  generate_small_course(t);
  commit_all(t);
  const std::string student =
      small::with_own_code(small::kSomaExercise01, "#include <cmath>\nconstexpr int kUm = 1;\n");
  t.write("exercises/01-a/soma.cpp", student);
  // A solução muda fora da região: sem o código do aluno, o arquivo seria regenerado.
  t.write("solutions/01-a/soma.cpp", "// Somas.\n" + small::kSoma01);
  CHECK_RUN(
      run_in(t, "exercises", {"--stage", "01-a"}), 1, "",
      refusal_of("  exercises/01-a/soma.cpp: há código entre // SEU-CODIGO e // FIM-SEU-CODIGO\n"));
  CHECK(t.read("exercises/01-a/soma.cpp") == student);
}

TEST_CASE("exercises regenera um stub cuja instrução mudou na solução desde o último commit") {
  Tree t;
  generate_small_course(t);
  commit_all(t);
  t.write("solutions/01-a/soma.cpp",
          replaced(small::kSoma01, "devolva a soma de a e b", "a soma de a e b"));
  const auto r = run_in(t, "exercises", {"--stage", "01-a"});
  CHECK(r.err == "");
  CHECK(r.code == 0);
  CHECK(t.read("exercises/01-a/soma.cpp") ==
        replaced(small::kSomaExercise01, "devolva a soma de a e b", "a soma de a e b"));
}
