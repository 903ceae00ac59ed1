// Exercício pending-decision: uma chamada com intenção e sem resultado. O
// que se faz com ela depende da idempotência da ferramenta, a do código: roda
// de novo (yes), confere no workspace pela chave da intenção (check) ou conta
// ao modelo que não se sabe (no).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "crc32c.hpp"
#include "helpers.hpp"
#include "hz/testing/temp_dir.hpp"
#include "replay.hpp"

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

  // A intenção de um edit_file de a.txt, com a chave lida como está agora.
  hz::Intent edit(const std::string& old_text, const std::string& new_text) const {
    const hz::ToolCall c = call(
        "c1", "edit_file", {{"path", "a.txt"}, {"old_text", old_text}, {"new_text", new_text}});
    hz::Intent out = intent(c, Idempotency::check);
    out.edit_key = hz::edit_key_for(c, workspace);
    REQUIRE(out.edit_key.has_value());
    return out;
  }

  // O edit_file de verdade (o efeito que a queda interrompeu).
  hz::ToolOutput apply(const std::string& old_text, const std::string& new_text) const {
    const hz::Tool tool = hz::basic_tools(workspace)[2];
    REQUIRE(tool.schema.name == "edit_file");
    return tool.run({{"path", "a.txt"}, {"old_text", old_text}, {"new_text", new_text}});
  }

  Replay decide(const hz::Intent& pending) const {
    return hz::decide_replay(pending, Idempotency::check, workspace);
  }
};

}  // namespace

TEST_SUITE_BEGIN("04-journal/pending-decision");

TEST_CASE("uma ferramenta idempotente roda de novo") {
  Fixture f;
  const Replay replay =
      hz::decide_replay(intent(call("c1", "read_file", {{"path", "a.txt"}}), Idempotency::yes),
                        Idempotency::yes, f.workspace);
  CHECK_DECISION(replay, Replay::Kind::run, "read_file", {});
}

TEST_CASE("run_shell nunca roda de novo: o modelo ouve que o resultado é desconhecido") {
  Fixture f;
  const Replay replay = hz::decide_replay(
      intent(call("c1", "run_shell", {{"command", "make deploy"}}), Idempotency::no),
      Idempotency::no, f.workspace);
  CHECK_DECISION(replay, Replay::Kind::unknown, "run_shell", {});
  CHECK_FALSE(replay.result.ok);
  CHECK(replay.result.text ==
        "o processo caiu antes de gravar o resultado desta chamada; não sei se ela terminou; "
        "confira antes de repetir");
}

TEST_CASE("vale a idempotência da ferramenta, não a que o journal diz") {
  // Um journal que diz "yes" para um run_shell (ou para um append_file) não
  // faz a retomada rodar de novo: quem decide é o código.
  Fixture f;
  const hz::Intent forged =
      intent(call("c1", "run_shell", {{"command", "make deploy"}}), Idempotency::yes);
  CHECK_DECISION(hz::decide_replay(forged, Idempotency::no, f.workspace), Replay::Kind::unknown,
                 "run_shell", {});
  const hz::Intent append =
      intent(call("c2", "append_file", {{"path", "n.txt"}, {"content", "x"}}), Idempotency::yes);
  CHECK_DECISION(hz::decide_replay(append, Idempotency::check, f.workspace), Replay::Kind::unknown,
                 "append_file", {});
}

TEST_CASE("edit_file com o arquivo como antes da troca: ela não aconteceu, roda") {
  Fixture f;
  f.dir.write("a.txt", "int x = 1;\n");
  CHECK_REPLAY(f.decide(f.edit("x = 1", "x = 2")), Replay::Kind::run,
               "edit_file: a.txt está como antes da troca; ela não aconteceu");
}

TEST_CASE("edit_file com o arquivo como a troca o deixa: feito, com o resultado da ferramenta") {
  Fixture f;
  f.dir.write("a.txt", "int x = 1;\n");
  const hz::Intent pending = f.edit("x = 1", "x = 2");
  const hz::ToolOutput real = f.apply("x = 1", "x = 2");
  const Replay replay = f.decide(pending);
  CHECK_REPLAY(replay, Replay::Kind::done,
               "edit_file: a.txt está como a troca o deixaria; ela aconteceu");
  CHECK(replay.result.ok == real.ok);
  CHECK(replay.result.text == real.text);

  // A conferência olha o arquivo inteiro, e não só o começo: a troca no fim
  // de um arquivo de 200 KB também é vista.
  f.dir.write("a.txt", std::string(200 * 1024, '.') + "int x = 1;\n");
  const hz::Intent at_the_end = f.edit("x = 1", "x = 2");
  f.apply("x = 1", "x = 2");
  CHECK_REPLAY(f.decide(at_the_end), Replay::Kind::done,
               "edit_file: a.txt está como a troca o deixaria; ela aconteceu");
}

TEST_CASE("edit_file que recria o trecho antigo não é feito duas vezes") {
  // "aab", de "ab" para "b": fica "ab", que ainda contém o trecho antigo.
  // Quem olhasse os trechos rodaria de novo e deixaria "b".
  Fixture f;
  f.dir.write("a.txt", "aab");
  const hz::Intent pending = f.edit("ab", "b");
  f.apply("ab", "b");
  REQUIRE(f.dir.read("a.txt") == "ab");
  CHECK_REPLAY(f.decide(pending), Replay::Kind::done,
               "edit_file: a.txt está como a troca o deixaria; ela aconteceu");
  // Tirar 2 de 6 espaços: ficam 4, e o trecho antigo (2 espaços e o x) continua lá.
  f.dir.write("a.txt", "      x\n");
  const hz::Intent dedent = f.edit("  x", "x");
  f.apply("  x", "x");
  REQUIRE(f.dir.read("a.txt") == "    x\n");
  CHECK(hz::to_string(f.decide(dedent).kind) == "done");
}

TEST_CASE("edit_file com o arquivo diferente de antes e de depois, ou sem ele: desconhecido") {
  Fixture f;
  f.dir.write("a.txt", "int x = 1;\n");
  const hz::Intent pending = f.edit("x = 1", "x = 2");
  f.dir.write("a.txt", "int y = 3;\n");
  const Replay neither = f.decide(pending);
  CHECK_REPLAY(neither, Replay::Kind::unknown,
               "edit_file: a.txt não está nem como antes nem como depois da troca (11 bytes; "
               "antes 11, depois 11)");
  CHECK(neither.result.text == hz::kUnknownResultText);
  std::filesystem::remove(f.dir / "a.txt");
  CHECK_REPLAY(f.decide(pending), Replay::Kind::unknown, "edit_file: a.txt não existe mais");
}

TEST_CASE("uma ferramenta que pede conferência mas que não se sabe conferir: desconhecido") {
  Fixture f;
  const Replay other =
      hz::decide_replay(intent(call("c1", "deploy", json::object()), Idempotency::check),
                        Idempotency::check, f.workspace);
  CHECK_DECISION(other, Replay::Kind::unknown, "deploy", {});
  // Com a chave, para a ordem das conferências não importar: só os argumentos faltam.
  const Replay unreadable = hz::decide_replay(
      hz::Intent{
          {"c1", "edit_file", "{não é json"}, Idempotency::check, {}, hz::EditKey{1, 2, 1, 2}},
      Idempotency::check, f.workspace);
  CHECK_DECISION(unreadable, Replay::Kind::unknown, "edit_file", {});
  const Replay keyless = hz::decide_replay(
      intent(call("c1", "edit_file", {{"path", "a.txt"}, {"old_text", "a"}, {"new_text", "b"}}),
             Idempotency::check),
      Idempotency::check, f.workspace);
  CHECK_DECISION(keyless, Replay::Kind::unknown, "edit_file", {});
  // Três causas, três motivos (o que vem depois do nome): quem lê o trace sabe qual foi.
  const auto why = [](const Replay& replay, std::string_view name) {
    return replay.reason.substr(std::min(name.size(), replay.reason.size()));
  };
  CHECK(why(unreadable, "edit_file") != why(keyless, "edit_file"));
  CHECK(why(other, "deploy") != why(unreadable, "edit_file"));
  CHECK(why(other, "deploy") != why(keyless, "edit_file"));
}

TEST_CASE("append_file sem a chave na intenção: desconhecido") {
  Fixture f;
  CHECK_DECISION(
      hz::decide_replay(intent(call("c1", "append_file", {{"path", "n.txt"}, {"content", "x"}}),
                               Idempotency::check),
                        Idempotency::check, f.workspace),
      Replay::Kind::unknown, "append_file", {});
}

TEST_SUITE_END();

// Fora dos exercícios: a chave de um edit_file e os casos de borda de
// decide_edit, direto.
TEST_CASE("edit_key_for: depois é o que a troca deixaria, ou igual a antes se ela falharia") {
  TempDir dir;
  const hz::Workspace workspace{dir.path()};
  auto key = [&](const std::string& old_text, const std::string& new_text) {
    return hz::edit_key_for(
        call("c1", "edit_file",
             {{"path", "a.txt"}, {"old_text", old_text}, {"new_text", new_text}}),
        workspace);
  };
  CHECK_FALSE(key("a", "b").has_value());  // o arquivo não existe
  dir.write("a.txt", "aab");
  const auto once = key("ab", "b");
  REQUIRE(once.has_value());
  CHECK(once->size_before == 3);
  CHECK(once->crc_before == hz::crc32c("aab"));
  CHECK(once->size_after == 2);
  CHECK(once->crc_after == hz::crc32c("ab"));
  // "a" aparece duas vezes e "z" nenhuma: o edit_file falharia, nada muda.
  for (const char* missing : {"a", "z", ""}) {
    CAPTURE(missing);
    const auto failing = key(missing, "q");
    REQUIRE(failing.has_value());
    CHECK(failing->size_after == failing->size_before);
    CHECK(failing->crc_after == failing->crc_before);
  }
  CHECK_FALSE(hz::edit_key_for(call("c1", "edit_file", {{"path", "a.txt"}}), workspace));
}

TEST_CASE("decide_edit: uma troca que não muda nada roda de novo, e um arquivo ilegível não diz") {
  hz::FileSnapshot file;
  file.exists = true;
  file.bytes = "abc";
  file.size = 3;
  const hz::EditKey same{3, hz::crc32c("abc"), 3, hz::crc32c("abc")};
  CHECK(hz::to_string(hz::decide_edit(same, "a.txt", file).kind) == "run");
  file.error = "não foi possível olhar a.txt: Permission denied";
  CHECK(hz::decide_edit(same, "a.txt", file).reason ==
        "edit_file: não foi possível olhar a.txt: Permission denied");
}
