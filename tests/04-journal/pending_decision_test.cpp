// Exercício pending-decision: uma chamada com intenção e sem resultado. O
// que se faz com ela depende do que a ferramenta declarou: roda de novo
// (yes), confere no workspace (check) ou conta ao modelo que não se sabe (no).
#include <doctest/doctest.h>

#include <string>

#include "helpers.hpp"
#include "hz/testing/temp_dir.hpp"
#include "resume.hpp"

using hz::Idempotency;
using hz::Replay;
using hz::testing::TempDir;
using journal_test::call;
using journal_test::intent;
using journal_test::json;

namespace {

struct Fixture {
  TempDir dir;
  hz::Workspace workspace{dir.path()};
};

hz::Intent edit(const std::string& old_text, const std::string& new_text) {
  return intent(
      call("c1", "edit_file", {{"path", "a.txt"}, {"old_text", old_text}, {"new_text", new_text}}),
      Idempotency::check);
}

using hz::check_replay;

}  // namespace

TEST_SUITE_BEGIN("04-journal/pending-decision");

TEST_CASE("uma ferramenta idempotente roda de novo") {
  Fixture f;
  const Replay replay = hz::decide_replay(
      intent(call("c1", "read_file", {{"path", "a.txt"}}), Idempotency::yes), f.workspace);
  check_replay(replay, Replay::Kind::run, "read_file é idempotente: roda de novo");
}

TEST_CASE("run_shell nunca roda de novo: o modelo ouve que o resultado é desconhecido") {
  Fixture f;
  const Replay replay = hz::decide_replay(
      intent(call("c1", "run_shell", {{"command", "make deploy"}}), Idempotency::no), f.workspace);
  check_replay(replay, Replay::Kind::unknown,
               "run_shell não é idempotente e não dá para conferir: o modelo vai saber");
  CHECK_FALSE(replay.result.ok);
  CHECK(replay.result.text ==
        "o processo caiu antes de gravar o resultado desta chamada; não sei se ela terminou; "
        "confira antes de repetir");
}

TEST_CASE("edit_file com o trecho antigo ainda no arquivo: a troca não aconteceu, roda") {
  Fixture f;
  f.dir.write("a.txt", "int x = 1;\n");
  check_replay(hz::decide_replay(edit("x = 1", "x = 2"), f.workspace), Replay::Kind::run,
               "edit_file: o trecho antigo ainda está em a.txt; a troca não aconteceu");
}

TEST_CASE("edit_file com o trecho novo no lugar do antigo: feito, com o resultado da ferramenta") {
  Fixture f;
  f.dir.write("a.txt", "int x = 1;\n");
  const hz::Tool tool = hz::basic_tools(f.workspace)[2];
  REQUIRE(tool.schema.name == "edit_file");
  const hz::ToolOutput real =
      tool.run({{"path", "a.txt"}, {"old_text", "x = 1"}, {"new_text", "x = 2"}});
  const Replay replay = hz::decide_replay(edit("x = 1", "x = 2"), f.workspace);
  check_replay(replay, Replay::Kind::done,
               "edit_file: o trecho antigo sumiu de a.txt e o novo está lá; a troca aconteceu");
  CHECK(replay.result.ok == real.ok);
  CHECK(replay.result.text == real.text);
}

TEST_CASE("edit_file sem um trecho nem o outro, ou sem o arquivo: desconhecido") {
  Fixture f;
  f.dir.write("a.txt", "int y = 3;\n");
  const Replay neither = hz::decide_replay(edit("x = 1", "x = 2"), f.workspace);
  check_replay(neither, Replay::Kind::unknown,
               "edit_file: nem o trecho antigo nem o novo estão em a.txt");
  CHECK(neither.result.text == hz::kUnknownResultText);
  std::filesystem::remove(f.dir / "a.txt");
  check_replay(hz::decide_replay(edit("x = 1", "x = 2"), f.workspace), Replay::Kind::unknown,
               "edit_file: a.txt não existe mais");
}

TEST_CASE("uma ferramenta que pede conferência mas que não se sabe conferir: desconhecido") {
  Fixture f;
  check_replay(hz::decide_replay(intent(call("c1", "deploy", json::object()), Idempotency::check),
                                 f.workspace),
               Replay::Kind::unknown, "deploy: não sei conferir o efeito desta ferramenta");
  check_replay(
      hz::decide_replay(hz::Intent{{"c1", "edit_file", "{não é json"}, Idempotency::check, {}},
                        f.workspace),
      Replay::Kind::unknown, "edit_file: argumentos ilegíveis na intenção");
}

TEST_CASE("append_file sem a chave na intenção: desconhecido") {
  Fixture f;
  check_replay(
      hz::decide_replay(intent(call("c1", "append_file", {{"path", "n.txt"}, {"content", "x"}}),
                               Idempotency::check),
                        f.workspace),
      Replay::Kind::unknown, "append_file: a intenção não tem a chave");
}

TEST_SUITE_END();

// Fora dos exercícios: os casos de borda de decide_edit, direto.
TEST_CASE("decide_edit: trecho novo que contém o antigo não diz nada, e trecho vazio apaga") {
  hz::FileSnapshot file;
  file.exists = true;
  file.bytes = "abc";
  file.size = 3;
  CHECK(hz::to_string(hz::decide_edit("a.txt", "b", "bb", file).kind) == "unknown");
  CHECK(hz::decide_edit("a.txt", "b", "bb", file).reason ==
        "edit_file: o trecho novo contém o antigo; o conteúdo não diz se a troca aconteceu");
  CHECK(hz::to_string(hz::decide_edit("a.txt", "x", "", file).kind) == "done");
  CHECK(hz::to_string(hz::decide_edit("a.txt", "b", "", file).kind) == "run");
  file.error = "não foi possível olhar a.txt: Permission denied";
  CHECK(hz::decide_edit("a.txt", "x", "y", file).reason ==
        "edit_file: não foi possível olhar a.txt: Permission denied");
}
