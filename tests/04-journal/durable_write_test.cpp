// Exercício durable-write: append grava a linha inteira com um write e
// fdatasync antes de voltar; uma escrita que falha vira erro, o arquivo
// volta ao tamanho de antes e o journal para de aceitar registros.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <string>

#include "helpers.hpp"
#include "hz/testing/child.hpp"
#include "hz/testing/temp_dir.hpp"
#include "journal.hpp"
#include "records.hpp"

using hz::testing::fail_every_fdatasync;
using hz::testing::TempDir;
using hz::testing::told_by_child;
using journal_test::line;
using journal_test::tell;

TEST_SUITE_BEGIN("04-journal/durable-write");

TEST_CASE("append grava a linha exata, numera a partir de 1 e sincroniza cada registro") {
  TempDir dir;
  auto journal = hz::Journal::create(dir / "conversa.jsonl");
  REQUIRE_MESSAGE(journal.ok(), hz::testing::refusal(journal));
  const auto first = journal->append(hz::user_record("oi"));
  const auto second = journal->append(hz::note_record("nota"));
  REQUIRE_MESSAGE(first.ok(), hz::testing::refusal(first));
  REQUIRE_MESSAGE(second.ok(), hz::testing::refusal(second));
  CHECK(*first == 1);
  CHECK(*second == 2);
  const std::string expected = line(hz::user_record("oi"), 1) + line(hz::note_record("nota"), 2);
  CHECK(dir.read("conversa.jsonl") == expected);
  CHECK(journal->last_seq() == 2);
  CHECK(journal->size() == expected.size());
  CHECK(journal->syncs() == 2);
}

TEST_CASE("uma escrita que falha no meio vira erro, some do arquivo e trava o journal") {
  TempDir dir;
  const auto path = dir / "conversa.jsonl";
  auto journal = hz::Journal::create(path);
  REQUIRE_MESSAGE(journal.ok(), hz::testing::refusal(journal));
  REQUIRE(journal->append(hz::user_record("primeiro")).ok());
  const std::string kept = dir.read("conversa.jsonl");
  const std::string told = told_by_child([&](int fd) {
    // No filho: o arquivo só pode crescer mais 10 bytes. O write do próximo
    // registro grava 10 e o seguinte falha com EFBIG: uma escrita curta.
    signal(SIGXFSZ, SIG_IGN);
    const rlim_t limit = static_cast<rlim_t>(kept.size() + 10);
    const rlimit cap{limit, limit};
    setrlimit(RLIMIT_FSIZE, &cap);
    const auto failed = journal->append(hz::user_record("segundo, que não cabe"));
    tell(fd, failed.ok() ? "gravou" : failed.error().message);
    const auto refused = journal->append(hz::user_record("x"));
    tell(fd, refused.ok() ? "gravou" : refused.error().message);
    tell(fd, std::to_string(journal->last_seq()));
  });
  const std::string error =
      "journal " + path.string() + ": a escrita do registro seq 2 falhou: File too large";
  CHECK(told == error + "\n" + error + "\n1\n");
  CHECK(dir.read("conversa.jsonl") == kept);
}

TEST_CASE("depois de uma escrita que falhou, o journal recusa até o registro que caberia") {
  TempDir dir;
  const auto path = dir / "conversa.jsonl";
  auto journal = hz::Journal::create(path);
  REQUIRE_MESSAGE(journal.ok(), hz::testing::refusal(journal));
  REQUIRE(journal->append(hz::user_record("primeiro")).ok());
  const std::string kept = dir.read("conversa.jsonl");
  const std::string told = told_by_child([&](int fd) {
    // No filho: o limite de tamanho só vale para a escrita que falha; depois
    // ele volta ao que era, e o registro seguinte caberia no arquivo.
    signal(SIGXFSZ, SIG_IGN);
    rlimit original{};
    getrlimit(RLIMIT_FSIZE, &original);
    const rlimit cap{static_cast<rlim_t>(kept.size() + 10), original.rlim_max};
    setrlimit(RLIMIT_FSIZE, &cap);
    const auto failed = journal->append(hz::user_record("segundo, que não cabe"));
    setrlimit(RLIMIT_FSIZE, &original);
    tell(fd, failed.ok() ? "gravou" : failed.error().message);
    const auto refused = journal->append(hz::user_record("x"));
    tell(fd, refused.ok() ? "gravou o seq " + std::to_string(*refused) : refused.error().message);
    tell(fd, std::to_string(journal->last_seq()));
  });
  // A mesma mensagem duas vezes: a segunda é o journal travado repetindo a
  // falha, e não uma escrita nova (que, com o limite de volta, teria dado certo).
  const std::string error =
      "journal " + path.string() + ": a escrita do registro seq 2 falhou: File too large";
  CHECK(told == error + "\n" + error + "\n1\n");
  CHECK(dir.read("conversa.jsonl") == kept);
}

TEST_CASE("um fdatasync que falha vira erro com o motivo e trava o journal") {
  TempDir dir;
  const auto path = dir / "conversa.jsonl";
  auto journal = hz::Journal::create(path);
  REQUIRE_MESSAGE(journal.ok(), hz::testing::refusal(journal));
  REQUIRE(journal->append(hz::user_record("primeiro")).ok());
  const std::string told = told_by_child([&](int fd) {
    if (!fail_every_fdatasync()) {
      tell(fd, "sem seccomp");
      return;
    }
    const auto failed = journal->append(hz::user_record("segundo"));
    tell(fd, failed.ok() ? "gravou" : failed.error().message);
    const auto refused = journal->append(hz::user_record("x"));
    tell(fd, refused.ok() ? "gravou" : refused.error().message);
    tell(fd, std::to_string(journal->last_seq()) + " " + std::to_string(journal->syncs()));
  });
  if (told == "sem seccomp\n") {
    MESSAGE("o kernel não aceitou o filtro seccomp: o teste não tem como fazer o fdatasync falhar");
    return;
  }
  // O registro foi escrito, mas ninguém sabe se chegou ao disco: o journal não
  // o conta (nem seq, nem sincronização) e recusa o próximo com a mesma frase.
  const std::string error = "journal " + path.string() +
                            ": fdatasync do registro seq 2 falhou: Input/output error; o "
                            "registro pode não estar no disco";
  CHECK(told == error + "\n" + error + "\n1 1\n");
  // O append recusado não escreve: com a trava esquecida, o "x" iria ao
  // arquivo e só o fdatasync dele falharia, com a mesma frase.
  const std::string after = dir.read("conversa.jsonl");
  INFO("o arquivo: ", hz::testing::quoted(after));
  // A linha do "segundo" foi escrita antes do fdatasync, e fica, inteira: sem
  // ela, o fdatasync veio antes do write, ou o arquivo foi cortado depois.
  CHECK_MESSAGE(hz::testing::cites(after, R"("text":"segundo")"),
                "a linha do registro cujo fdatasync falhou não está no arquivo");
  CHECK(std::count(after.begin(), after.end(), '\n') == 2);
  CHECK_MESSAGE(!hz::testing::cites(after, R"("text":"x")"),
                "o registro recusado, com o texto \"x\", foi escrito no arquivo");
}

TEST_SUITE_END();
