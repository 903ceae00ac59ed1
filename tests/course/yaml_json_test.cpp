#include <doctest/doctest.h>

#include <string>

#include "yaml_json.hpp"

using hz::course::test::parse_yaml;
using nlohmann::json;

namespace {

std::string error_of(const std::string& yaml) { return parse_yaml(yaml).error; }

}  // namespace

TEST_CASE("o leitor de YAML entende o subconjunto que os workflows usam") {
  const auto r = parse_yaml(
      "# comentário\n"
      "name: ci\n"
      "on:\n"
      "  push:\n"
      "  pull_request:\n"
      "env:\n"
      "  A: \"x: y # não é comentário\"\n"
      "  B: 'it''s'\n"
      "  C: ${{ secrets.X || github.token }}  # comentário\n"
      "jobs:\n"
      "  j:\n"
      "    runs-on: ubuntu-latest\n"
      "    strategy:\n"
      "      matrix:\n"
      "        stage: [\"01-loop\", 02-brakes]\n"
      "    steps:\n"
      "      - name: um\n"
      "        run: |\n"
      "          echo \"a\"  # o # fica\n"
      "\n"
      "          exit 0\n"
      "      - uses: actions/checkout@v4\n"
      "        with: {}\n"
      "    needs:\n"
      "    - a\n"
      "    - b\n"
      "    if: hashFiles('.ci/run') != ''\n"
      "    dobrado: >-\n"
      "      uma\n"
      "      linha\n");
  REQUIRE(r.error == "");
  const json expected = {{"name", "ci"},
                         {"on", {{"push", nullptr}, {"pull_request", nullptr}}},
                         {"env",
                          {{"A", "x: y # não é comentário"},
                           {"B", "it's"},
                           {"C", "${{ secrets.X || github.token }}"}}},
                         {"jobs",
                          {{"j",
                            {{"runs-on", "ubuntu-latest"},
                             {"strategy", {{"matrix", {{"stage", {"01-loop", "02-brakes"}}}}}},
                             {"steps",
                              {{{"name", "um"}, {"run", "echo \"a\"  # o # fica\n\nexit 0\n"}},
                               {{"uses", "actions/checkout@v4"}, {"with", json::object()}}}},
                             {"needs", {"a", "b"}},
                             {"if", "hashFiles('.ci/run') != ''"},
                             {"dobrado", "uma linha"}}}}}};
  CHECK(r.value == expected);
}

TEST_CASE("o leitor de YAML recusa o que o GitHub leria diferente, dizendo a linha") {
  CHECK(error_of("a: 1\na: 2\n") == "linha 2: chave repetida: a");
  CHECK(error_of("a:\n  b: 1\n  c:\n    b: 2\n    b: 3\n") == "linha 5: chave repetida: b");
  CHECK(error_of("a:\n\tb: 1\n") == "linha 2, coluna 3: illegal map value");
  CHECK(error_of("a: 1\n  b: 2\n") == "linha 2, coluna 4: illegal map value");
  CHECK(error_of("a:\n    b: 1\n  c: 2\n") == "linha 3, coluna 3: end of map not found");
  CHECK(error_of("a: @X@\n") == "linha 1, coluna 4: unknown token");
  CHECK(error_of("a: b: c\n") == "linha 1, coluna 5: illegal map value");
  CHECK(error_of("a: [1, 2\n") == "linha 2, coluna 1: end of sequence flow not found");
  CHECK(error_of("a: 1\n---\nb: 2\n") == "linha 3: vários documentos não são suportados");
  CHECK(error_of("a:\n  - x\n  y: 1\n") == "linha 3, coluna 3: end of map not found");
  CHECK(error_of("a: \"x\" y\n") == "linha 1, coluna 8: end of map not found");
}
