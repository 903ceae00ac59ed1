#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "hz/cli.hpp"
#include "hz/version.hpp"

namespace {

struct Flags {
  std::string model = "padrão";
  int max_turns = 10;
  double budget = 0;
  bool yes = false;
  hz::FlagParser parser{"hz-01-loop", "Um agente que conversa e usa ferramentas."};

  Flags() {
    parser.add_string("model", &model, "nome do modelo", "NOME");
    parser.add_int("max-turns", &max_turns, "limite de chamadas ao modelo");
    parser.add_double("budget-usd", &budget, "teto de custo em dólares");
    parser.add_bool("yes", &yes, "permite as ferramentas sem perguntar");
  }

  hz::Result<bool, hz::FlagError> parse(std::vector<const char*> args) {
    args.insert(args.begin(), "hz-01-loop");
    return parser.parse(static_cast<int>(args.size()), args.data());
  }
};

}  // namespace

TEST_CASE("FlagParser lê valor separado e com igual") {
  Flags f;
  auto result = f.parse({"--model", "qwen3:8b", "--max-turns=4", "--budget-usd", "0.5", "--yes"});
  REQUIRE(result.ok());
  CHECK_FALSE(*result);
  CHECK(f.model == "qwen3:8b");
  CHECK(f.max_turns == 4);
  CHECK(f.budget == 0.5);
  CHECK(f.yes);
  CHECK(f.parser.seen("model"));
  CHECK(f.parser.seen("--max-turns"));
  CHECK_FALSE(Flags().parser.seen("yes"));
}

TEST_CASE("FlagParser mantém os padrões das flags ausentes") {
  Flags f;
  REQUIRE(f.parse({}).ok());
  CHECK(f.model == "padrão");
  CHECK(f.max_turns == 10);
  CHECK_FALSE(f.yes);
  CHECK_FALSE(f.parser.seen("model"));
}

TEST_CASE("FlagParser aceita valor vazio com igual e números negativos") {
  Flags f;
  REQUIRE(f.parse({"--model=", "--max-turns", "-1"}).ok());
  CHECK(f.model.empty());
  CHECK(f.max_turns == -1);
}

TEST_CASE("FlagParser devolve verdadeiro para --help") {
  Flags f;
  auto result = f.parse({"--model", "x", "--help"});
  REQUIRE(result.ok());
  CHECK(*result);
  CHECK(*Flags().parse({"-h"}));
}

TEST_CASE("FlagParser recusa flag desconhecida e argumento solto") {
  CHECK(Flags().parse({"--foo"}).error().message == "flag desconhecida: --foo");
  CHECK(Flags().parse({"--foo=1"}).error().message == "flag desconhecida: --foo");
  CHECK(Flags().parse({"texto"}).error().message ==
        "argumento inesperado: \"texto\" (as flags começam com --; veja --help)");
}

TEST_CASE("FlagParser recusa números inválidos com o valor recebido") {
  CHECK(Flags().parse({"--max-turns", "abc"}).error().message ==
        "--max-turns espera um número inteiro, recebeu \"abc\"");
  CHECK(Flags().parse({"--max-turns=4x"}).error().message ==
        "--max-turns espera um número inteiro, recebeu \"4x\"");
  CHECK(Flags().parse({"--budget-usd", "muito"}).error().message ==
        "--budget-usd espera um número, recebeu \"muito\"");
  CHECK(Flags().parse({"--budget-usd=inf"}).error().message ==
        "--budget-usd espera um número, recebeu \"inf\"");
}

TEST_CASE("FlagParser recusa flag sem valor e booleana com valor") {
  CHECK(Flags().parse({"--model"}).error().message == "--model precisa de um valor (--model NOME)");
  CHECK(Flags().parse({"--model", "--yes"}).error().message ==
        "--model precisa de um valor (--model NOME)");
  CHECK(Flags().parse({"--yes=1"}).error().message == "--yes não aceita valor");
}

TEST_CASE("FlagParser usage lista as flags com metavar e ajuda") {
  CHECK(Flags().parser.usage() ==
        "uso: hz-01-loop [flags]\n"
        "\n"
        "Um agente que conversa e usa ferramentas.\n"
        "\n"
        "flags:\n"
        "  --model NOME    nome do modelo\n"
        "  --max-turns N   limite de chamadas ao modelo\n"
        "  --budget-usd X  teto de custo em dólares\n"
        "  --yes           permite as ferramentas sem perguntar\n"
        "  --help          mostra esta ajuda e sai\n"
        "  --version       mostra a versão e sai\n");
}

TEST_CASE("FlagParser: --version pede a linha da versão, e --help a ajuda") {
  Flags version;
  auto asked = version.parse({"--model", "m", "--version"});
  REQUIRE(asked.ok());
  CHECK(*asked);
  CHECK(version.parser.answer() ==
        "hz-01-loop (harness-zero " + std::string(hz::kCourseVersion) + ")\n");
  CHECK_FALSE(hz::kCourseVersion.empty());
  Flags help;
  REQUIRE(help.parse({"--help"}).ok());
  CHECK(help.parser.answer() == help.parser.usage());
  CHECK(version.parser.answer() != version.parser.usage());
}

TEST_CASE("FlagParser: o erro diz o tipo, a flag e o valor, para quem escreve a própria mensagem") {
  using Kind = hz::FlagError::Kind;
  const auto error_of = [](std::vector<const char*> args) { return Flags().parse(args).error(); };
  const hz::FlagError unknown = error_of({"--voar=alto"});
  CHECK(unknown.kind == Kind::unknown_flag);
  CHECK(unknown.flag == "voar");
  const hz::FlagError loose = error_of({"solto"});
  CHECK(loose.kind == Kind::unexpected_argument);
  CHECK(loose.value == "solto");
  const hz::FlagError missing = error_of({"--model"});
  CHECK(missing.kind == Kind::missing_value);
  CHECK(missing.flag == "model");
  const hz::FlagError bad = error_of({"--max-turns", "dez"});
  CHECK(bad.kind == Kind::bad_value);
  CHECK(bad.flag == "max-turns");
  CHECK(bad.value == "dez");
  const hz::FlagError valued = error_of({"--yes=sim"});
  CHECK(valued.kind == Kind::value_not_allowed);
  CHECK(valued.value == "sim");
}

TEST_CASE("FlagParser: argumentos soltos vão para a lista, na ordem, e -x continua inesperado") {
  Flags f;
  std::vector<std::string> files;
  f.parser.add_positionals(&files);
  REQUIRE(f.parse({"a.jsonl", "--yes", "-", "b.jsonl"}).ok());
  CHECK(files == std::vector<std::string>{"a.jsonl", "-", "b.jsonl"});
  CHECK(f.yes);
  auto dash = f.parse({"-x"});
  REQUIRE_FALSE(dash.ok());
  CHECK(dash.error().kind == hz::FlagError::Kind::unexpected_argument);
  CHECK(dash.error().value == "-x");
}

TEST_CASE("FlagParser: sem a ajuda da casa, --help, -h e --version são flags desconhecidas") {
  for (const char* arg : {"--help", "--version"}) {
    Flags f;
    f.parser.disable_help();
    auto result = f.parse({arg});
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().kind == hz::FlagError::Kind::unknown_flag);
  }
  Flags f;
  f.parser.disable_help();
  auto result = f.parse({"-h"});
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().kind == hz::FlagError::Kind::unexpected_argument);
  Flags version;
  REQUIRE(version.parse({"--version"}).ok());
  CHECK(version.parser.version_requested());
  Flags help;
  REQUIRE(help.parse({"--help"}).ok());
  CHECK_FALSE(help.parser.version_requested());
}

TEST_CASE("FlagParser lê também os argumentos como vetor de strings, sem o nome do programa") {
  Flags f;
  REQUIRE(f.parser.parse(std::vector<std::string>{"--model", "m", "--yes"}).ok());
  CHECK(f.model == "m");
  CHECK(f.yes);
}
