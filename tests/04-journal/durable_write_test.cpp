// Exercício durable-write: append grava a linha inteira com um write e
// fdatasync antes de voltar; uma escrita que falha vira erro, o arquivo
// volta ao tamanho de antes e o journal para de aceitar registros.
#include <doctest/doctest.h>

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <string>

#include "helpers.hpp"
#include "hz/testing/temp_dir.hpp"
#include "journal.hpp"

using hz::testing::TempDir;
using journal_test::fork_child;
using journal_test::line;
using journal_test::read_until_closed;
using journal_test::tell;

namespace {

// No processo filho: daqui em diante, todo fdatasync falha com EIO, como num
// disco que devolve erro de E/S. Um filtro seccomp do próprio kernel, sem
// nenhum gancho no código do journal. false se o kernel não deixou.
bool fail_every_fdatasync() {
  sock_filter program[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, static_cast<std::uint32_t>(offsetof(seccomp_data, nr))),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_fdatasync, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EIO & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog filter{static_cast<unsigned short>(sizeof(program) / sizeof(program[0])), program};
  return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
         prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter) == 0;
}

// Roda body num processo filho (os limites e filtros dele não vazam para o
// teste) e devolve o que ele contou pelo pipe, uma linha por tell(fd, ...).
// O filho precisa terminar com código 0.
template <typename Body>
std::string told_by_child(Body body) {
  int pipe_fds[2];
  REQUIRE(pipe(pipe_fds) == 0);
  const pid_t child = fork_child([&] {
    close(pipe_fds[0]);
    body(pipe_fds[1]);
  });
  REQUIRE(child > 0);
  close(pipe_fds[1]);
  const std::string told = read_until_closed(pipe_fds[0]);
  close(pipe_fds[0]);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  return told;
}

}  // namespace

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
}

TEST_SUITE_END();
