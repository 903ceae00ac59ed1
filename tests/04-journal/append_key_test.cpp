// Exercício append-key: append_file não é idempotente (repetir duplica o
// texto), mas a chave gravada na intenção (o tamanho antes e o texto) diz,
// na retomada, se o texto entrou: o efeito acontece exatamente uma vez.
#include <doctest/doctest.h>

#include <string>

#include "crc32c.hpp"
#include "helpers.hpp"
#include "hz/testing/temp_dir.hpp"
#include "replay.hpp"

using hz::AppendKey;
using hz::Replay;
using hz::testing::TempDir;
using journal_test::call;

namespace {

const std::string kText = "linha nova\n";

AppendKey key_after(std::uint64_t size_before) {
  return {size_before, kText.size(), hz::crc32c(kText)};
}

hz::FileSnapshot snapshot(std::uint64_t size, std::uint64_t offset, std::string bytes) {
  hz::FileSnapshot file;
  file.exists = true;
  file.size = size;
  file.offset = offset;
  file.bytes = std::move(bytes);
  return file;
}

}  // namespace

TEST_SUITE_BEGIN("04-journal/append-key");

// O motivo (reason) é escrito por quem resolve o exercício: os testes
// conferem que ele começa por "append_file" e cita o que decidiu.
TEST_CASE("o arquivo com o tamanho de antes: o texto não entrou, roda") {
  CHECK_DECISION(hz::decide_append(key_after(8), "n.txt", kText, snapshot(8, 8, "")),
                 Replay::Kind::run, "append_file", {"n.txt", "8"});
  hz::FileSnapshot missing;  // o arquivo nem existia, e continua sem existir
  CHECK_DECISION(hz::decide_append(key_after(0), "n.txt", kText, missing), Replay::Kind::run,
                 "append_file", {"n.txt", "0"});
}

TEST_CASE(
    "o tamanho de antes mais o texto, terminando com ele: entrou, com o resultado da ferramenta") {
  const Replay replay =
      hz::decide_append(key_after(8), "n.txt", kText, snapshot(8 + kText.size(), 8, kText));
  CHECK_DECISION(replay, Replay::Kind::done, "append_file", {"n.txt"});
  CHECK(replay.result.ok);
  CHECK(replay.result.text == "texto acrescentado a n.txt (11 bytes; agora com 19 bytes)");
}

TEST_CASE("outro tamanho ou outro fim: desconhecido, e o modelo ouve isso") {
  // O motivo cita o tamanho de agora e os dois que se esperava (8 antes, 19 depois).
  const Replay longer =
      hz::decide_append(key_after(8), "n.txt", kText, snapshot(25, 8, kText + "xxxxxx"));
  CHECK_DECISION(longer, Replay::Kind::unknown, "append_file", {"n.txt", "25", "8", "19"});
  CHECK(longer.result.text == hz::kUnknownResultText);
  CHECK_FALSE(longer.result.ok);
  CHECK_DECISION(hz::decide_append(key_after(8), "n.txt", kText, snapshot(19, 8, "outra coisa")),
                 Replay::Kind::unknown, "append_file", {"n.txt", "19", "8"});
  CHECK_DECISION(hz::decide_append(key_after(8), "n.txt", kText, snapshot(3, 8, "")),
                 Replay::Kind::unknown, "append_file", {"n.txt", "3", "8", "19"});
}

TEST_CASE(
    "argumentos que não batem com a chave, ou um arquivo que não deu para olhar: desconhecido") {
  // O mesmo tamanho de antes: só a chave diz que este não é o texto da intenção.
  const Replay other =
      hz::decide_append(key_after(8), "n.txt", "outro texto\n", snapshot(8, 8, ""));
  CHECK_DECISION(other, Replay::Kind::unknown, "append_file", {});
  CHECK(other.result.text == hz::kUnknownResultText);
  // Outro texto do mesmo tamanho, com os bytes dele no arquivo: só o CRC-32C o distingue.
  const std::string same_size = "linha NOVA\n";
  REQUIRE(same_size.size() == kText.size());
  CHECK_DECISION(hz::decide_append(key_after(8), "n.txt", same_size, snapshot(19, 8, same_size)),
                 Replay::Kind::unknown, "append_file", {});
  // Com os bytes do texto no lugar, mas um file.error: o erro é o que se sabe.
  hz::FileSnapshot unreadable = snapshot(19, 8, kText);
  unreadable.error = "não foi possível olhar n.txt: Permission denied";
  CHECK_DECISION(hz::decide_append(key_after(8), "n.txt", kText, unreadable), Replay::Kind::unknown,
                 "append_file", {unreadable.error});
}

TEST_CASE("com a ferramenta de verdade: a chave antes, o efeito, e a retomada não repete") {
  TempDir dir;
  const hz::Workspace workspace(dir.path());
  dir.write("n.txt", "começo\n");
  const hz::ToolCall append = call("c1", "append_file", {{"path", "n.txt"}, {"content", kText}});
  const auto key = hz::append_key_for(append, workspace);
  REQUIRE(key.has_value());
  CHECK(*key == AppendKey{8, 11, hz::crc32c(kText)});
  const hz::Intent intent{append, hz::Idempotency::check, key, {}};

  // Antes do efeito: roda.
  const Replay before = hz::decide_replay(intent, hz::Idempotency::check, workspace);
  CHECK_DECISION(before, Replay::Kind::run, "append_file", {});
  // Depois do efeito: feito, com o mesmo texto que a ferramenta devolveu.
  const hz::ToolOutput real =
      hz::append_file_tool(workspace).run({{"path", "n.txt"}, {"content", kText}});
  const Replay replay = hz::decide_replay(intent, hz::Idempotency::check, workspace);
  CHECK_DECISION(replay, Replay::Kind::done, "append_file", {});
  CHECK(replay.result.text == real.text);
  CHECK(dir.read("n.txt") == "começo\n" + kText);
  // Um arquivo que ainda não existe tem chave de tamanho 0.
  const auto fresh = hz::append_key_for(
      call("c2", "append_file", {{"path", "novo.txt"}, {"content", "x"}}), workspace);
  REQUIRE(fresh.has_value());
  CHECK(*fresh == AppendKey{0, 1, hz::crc32c("x")});
  CHECK_FALSE(hz::append_key_for(call("c3", "append_file", {{"path", "n.txt"}}), workspace));
}

TEST_SUITE_END();
