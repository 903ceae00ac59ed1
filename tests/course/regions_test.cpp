#include <doctest/doctest.h>

#include "hz/course/markers.hpp"
#include "hz/course/regions.hpp"

using hz::course::classify_line;
using hz::course::is_marker_line;
using hz::course::MarkerKind;
using hz::course::region_body;
using hz::course::region_text;
using hz::course::scan_regions;
using hz::course::Side;

namespace {

std::string solution_error(const std::string& text) {
  return scan_regions(text, "solutions/01-a/f.cpp", Side::solution).error;
}

std::string exercise_error(const std::string& text) {
  return scan_regions(text, "exercises/01-a/f.cpp", Side::exercise).error;
}

// O erro de um marcador com grafia desconhecida, em `where` (arquivo:linha).
std::string unknown_marker(const std::string& where, const std::string& line) {
  return where + ": marcador com grafia desconhecida: '" + line +
         "' (use // EXERCICIO <etapa>/<id>: ... e // FIM-EXERCICIO)";
}

// O erro de um marcador `kind` (EXERCICIO ou TODO EXERCICIO) sem o formato, em `where`.
std::string malformed_marker(const std::string& where, const std::string& kind) {
  return where + ": marcador " + kind + " malformado (formato: // " + kind +
         " <etapa>/<id>: <instrução>)";
}

}  // namespace

TEST_CASE("scan_regions acha as regiões da solução com id, etapa, instrução e indentação") {
  const std::string text =
      "int f() {\n"
      "  // EXERCICIO 01-a/x: faça x   \n"
      "  return 1;\n"
      "  // FIM-EXERCICIO\n"
      "}\n"
      "\t// EXERCICIO 02-b/y-z: faça y\r\n"
      "\t// FIM-EXERCICIO\r\n";
  const auto scan = scan_regions(text, "f.cpp", Side::solution);
  CHECK(scan.error == "");
  CHECK(scan.lines.size() == 7);
  REQUIRE(scan.regions.size() == 2);
  const auto& x = scan.regions[0];
  CHECK(x.id == "01-a/x");
  CHECK(x.stage == "01-a");
  CHECK(x.instruction == "faça x");
  CHECK(x.indent == "  ");
  CHECK(x.open == 1);
  CHECK(x.close == 3);
  CHECK(region_text(scan, x) ==
        "  // EXERCICIO 01-a/x: faça x   \n  return 1;\n  // FIM-EXERCICIO\n");
  CHECK(region_body(scan, x) == "  return 1;\n");
  const auto& y = scan.regions[1];
  CHECK(y.id == "02-b/y-z");
  CHECK(y.stage == "02-b");
  CHECK(y.indent == "\t");
  CHECK(y.open == 5);
  CHECK(y.close == 6);
  CHECK(region_body(scan, y) == "");
  CHECK(region_text(scan, y) == "\t// EXERCICIO 02-b/y-z: faça y\r\n\t// FIM-EXERCICIO\r\n");
}

TEST_CASE("scan_regions do lado do exercício: a instrução é só a da linha do TODO") {
  const std::string text =
      "  // TODO EXERCICIO 01-a/x: comece aqui\n"
      "  // e continue nesta linha\n"
      "  throw hz::NotImplemented(\"01-a/x\");\n"
      "  // FIM-EXERCICIO";
  const auto scan = scan_regions(text, "f.cpp", Side::exercise);
  CHECK(scan.error == "");
  REQUIRE(scan.regions.size() == 1);
  CHECK(scan.regions[0].id == "01-a/x");
  CHECK(scan.regions[0].instruction == "comece aqui");
  CHECK(scan.regions[0].close == 3);
  CHECK(region_text(scan, scan.regions[0]) == text);
}

TEST_CASE("scan_regions sem regiões devolve as linhas e nenhuma região") {
  const auto scan = scan_regions("a\nb", "f.cpp", Side::solution);
  CHECK(scan.error == "");
  CHECK(scan.lines == std::vector<std::string>{"a\n", "b"});
  CHECK(scan.regions.empty());
}

TEST_CASE("scan_regions: a grafia do outro lado é erro com arquivo e linha") {
  CHECK(solution_error("x\n  // TODO EXERCICIO 01-a/x: faça\n  // FIM-EXERCICIO\n") ==
        "solutions/01-a/f.cpp:2: // TODO EXERCICIO é a grafia de exercises/; na solução, use "
        "// EXERCICIO <etapa>/<id>: <instrução>");
  CHECK(exercise_error("// EXERCICIO 01-a/x: faça\n// FIM-EXERCICIO\n") ==
        "exercises/01-a/f.cpp:1: // EXERCICIO é a grafia de solutions/; num exercício, a região "
        "abre com // TODO EXERCICIO");
}

TEST_CASE("scan_regions: região aninhada, FIM sem abertura e região sem FIM") {
  CHECK(solution_error("// EXERCICIO 01-a/a: faça\n\n// EXERCICIO 01-a/b: outra\n") ==
        "solutions/01-a/f.cpp:3: região de exercício dentro de outra (aberta na linha 1); feche "
        "com // FIM-EXERCICIO");
  CHECK(solution_error("ok\n// FIM-EXERCICIO\n") ==
        "solutions/01-a/f.cpp:2: FIM-EXERCICIO sem a abertura da região antes");
  CHECK(exercise_error("a\nb\n  // TODO EXERCICIO 01-a/a: faça\nc();\n") ==
        "exercises/01-a/f.cpp:3: região de exercício sem // FIM-EXERCICIO");
}

TEST_CASE("scan_regions: // STUB: é erro, e marcadores malformados também") {
  CHECK(solution_error("// EXERCICIO 01-a/a: faça\n  // STUB: f();\n// FIM-EXERCICIO\n") ==
        "solutions/01-a/f.cpp:2: linha // STUB: não é mais usada: o hz-course escreve o stub "
        "(apague a linha)");
  CHECK(solution_error("  // EXERCÍCIO 01-a/a: faça\n") ==
        unknown_marker("solutions/01-a/f.cpp:1", "// EXERCÍCIO 01-a/a: faça"));
  CHECK(solution_error("// EXERCICIO 01-a/a: faça\n// FIM EXERCICIO\n") ==
        unknown_marker("solutions/01-a/f.cpp:2", "// FIM EXERCICIO"));
  CHECK(solution_error("//STUB: f();\n") ==
        unknown_marker("solutions/01-a/f.cpp:1", "//STUB: f();"));
  CHECK(solution_error("// EXERCICIO sem-barra\n") ==
        malformed_marker("solutions/01-a/f.cpp:1", "EXERCICIO"));
  CHECK(solution_error("// EXERCICIO 01-a/a:   \n") ==
        malformed_marker("solutions/01-a/f.cpp:1", "EXERCICIO"));
  CHECK(exercise_error("// TODO EXERCICIO 01 a/x: faça\n") ==
        malformed_marker("exercises/01-a/f.cpp:1", "TODO EXERCICIO"));
}

TEST_CASE("classify_line reconhece cada marcador e ignora comentários comuns") {
  auto m = classify_line("    // EXERCICIO 01-a/x: faça isto  ");
  CHECK(m.kind == MarkerKind::exercise);
  CHECK(m.stage == "01-a");
  CHECK(m.id == "x");
  CHECK(m.text == "faça isto");
  m = classify_line("// TODO EXERCICIO 01-a/x: faça");
  CHECK(m.kind == MarkerKind::todo);
  CHECK(m.id == "x");
  CHECK(classify_line("  // FIM-EXERCICIO").kind == MarkerKind::end_exercise);
  m = classify_line("// listing: run-turn");
  CHECK(m.kind == MarkerKind::listing);
  CHECK(m.id == "run-turn");
  m = classify_line("# end-listing: cmake.1");
  CHECK(m.kind == MarkerKind::end_listing);
  CHECK(m.id == "cmake.1");
  m = classify_line("// listing: com espaço");
  CHECK(m.kind == MarkerKind::unknown);
  CHECK(m.problem ==
        "nome de listagem inválido 'com espaço' (use letras, dígitos, '-', '_' ou '.')");
  CHECK(classify_line("// um comentário sobre EXERCICIO").kind == MarkerKind::none);
  CHECK(classify_line("int x = 1;  // EXERCICIO 01-a/x: no fim da linha").kind == MarkerKind::none);
  CHECK(classify_line("# comentário de CMake").kind == MarkerKind::none);
  CHECK(classify_line("// STUBS no plural não são marcador").kind == MarkerKind::none);
}

TEST_CASE("is_marker_line: as listagens omitem os marcadores da solução, não o TODO") {
  CHECK(is_marker_line("  // EXERCICIO 01-a/x: faça"));
  CHECK(is_marker_line("  // FIM-EXERCICIO"));
  CHECK(is_marker_line("// listing: a"));
  CHECK(is_marker_line("# end-listing: a"));
  CHECK_FALSE(is_marker_line("  // TODO EXERCICIO 01-a/x: faça"));
  CHECK_FALSE(is_marker_line("  return 1;"));
}

TEST_CASE("scan_regions acha a área // SEU-CODIGO e o código do aluno nela") {
  const std::string text =
      "#include \"f.hpp\"\n"
      "\n"
      "// SEU-CODIGO: o seu código\n"
      "#include <cmath>\n"
      "int ajuda() { return 1; }\n"
      "// FIM-SEU-CODIGO\n"
      "\n"
      "int f() {\n"
      "  // TODO EXERCICIO 01-a/x: faça x\n"
      "  return ajuda();\n"
      "  // FIM-EXERCICIO\n"
      "}\n";
  const auto scan = scan_regions(text, "f.cpp", Side::exercise);
  CHECK(scan.error == "");
  REQUIRE(scan.own.has_value());
  CHECK(scan.own->open == 2);
  CHECK(scan.own->close == 5);
  CHECK(hz::course::own_body(scan) == "#include <cmath>\nint ajuda() { return 1; }\n");
  CHECK(hz::course::has_code(hz::course::own_body(scan)));
  CHECK_FALSE(hz::course::has_code(" \n\t\n"));
  REQUIRE(scan.regions.size() == 1);
  // Trocar o corpo da área não mexe no resto.
  const auto empty = scan_regions(hz::course::with_own_body(scan, ""), "f.cpp", Side::exercise);
  CHECK(hz::course::own_body(empty) == "");
  CHECK(hz::course::outside_regions(empty) == hz::course::outside_regions(scan));
  CHECK(hz::course::first_outside_difference(empty, scan) == 0);
}

TEST_CASE("scan_regions: a área do aluno fica fora das regiões, é uma só e fecha") {
  CHECK(exercise_error("// SEU-CODIGO\nint a;\n") ==
        "exercises/01-a/f.cpp:1: área // SEU-CODIGO sem // FIM-SEU-CODIGO");
  CHECK(exercise_error("int a;\n// FIM-SEU-CODIGO\n") ==
        "exercises/01-a/f.cpp:2: FIM-SEU-CODIGO sem o // SEU-CODIGO antes");
  CHECK(exercise_error("// SEU-CODIGO\n// FIM-SEU-CODIGO\n// SEU-CODIGO: outra\n") ==
        "exercises/01-a/f.cpp:3: uma segunda área // SEU-CODIGO (só há uma por arquivo)");
  CHECK(exercise_error("  // TODO EXERCICIO 01-a/a: faça\n// SEU-CODIGO\n") ==
        "exercises/01-a/f.cpp:2: a área // SEU-CODIGO fica fora das regiões de exercício");
  CHECK(exercise_error("// SEU-CODIGO\n  // TODO EXERCICIO 01-a/a: faça\n") ==
        "exercises/01-a/f.cpp:2: marcador de exercício dentro da área // SEU-CODIGO (aberta na "
        "linha 1); feche com // FIM-SEU-CODIGO");
  CHECK(exercise_error("// SEU CODIGO\n") ==
        unknown_marker("exercises/01-a/f.cpp:1", "// SEU CODIGO"));
  CHECK(exercise_error("// FIM-SEU-CODIGO aqui\n") ==
        unknown_marker("exercises/01-a/f.cpp:1", "// FIM-SEU-CODIGO aqui"));
}
