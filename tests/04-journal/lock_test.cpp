// Um harness por journal: a trava (flock) recusa um segundo escritor, seja
// outro descritor no mesmo processo, seja outro processo.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "helpers.hpp"
#include "hz/testing/temp_dir.hpp"
#include "journal.hpp"
#include "records.hpp"

using hz::testing::TempDir;
using journal_test::fork_child;
using journal_test::line;
using journal_test::read_until_closed;
using journal_test::tell;

namespace {

std::string in_use(const std::filesystem::path& path) {
  return "journal " + path.string() +
         " está em uso por outro processo (outro harness com o mesmo --journal?): só um pode "
         "escrever nele de cada vez";
}

}  // namespace

TEST_CASE("um segundo Journal no mesmo arquivo é recusado enquanto o primeiro existe") {
  TempDir dir;
  const auto path = dir / "conversa.jsonl";
  {
    auto first = hz::Journal::create(path);
    REQUIRE_MESSAGE(first.ok(), hz::testing::refusal(first));
    const auto second = hz::Journal::create(path);
    REQUIRE_FALSE(second.ok());
    CHECK(second.error().message == in_use(path));
    const auto read = hz::read_journal(path);
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().message == in_use(path));
  }
  // A trava some com o descritor.
  CHECK(hz::Journal::create(path).ok());
}

TEST_CASE("outro processo com o journal travado recusa o harness daqui, sem espera") {
  TempDir dir;
  const auto path = dir.write("conversa.jsonl", line(hz::user_record("oi"), 1));
  int ready[2];
  int release[2];
  REQUIRE(pipe(ready) == 0);
  REQUIRE(pipe(release) == 0);
  const pid_t child = fork_child([&] {
    close(ready[0]);
    close(release[1]);
    auto held = hz::Journal::resume(path);
    tell(ready[1], held.ok() ? "travado" : held.error().message);
    close(ready[1]);
    char byte = 0;
    (void)!read(release[0], &byte, 1);  // segura a trava até o pai mandar soltar
  });
  REQUIRE(child > 0);
  close(ready[1]);
  close(release[0]);
  CHECK(read_until_closed(ready[0]) == "travado\n");
  close(ready[0]);
  const auto refused = hz::Journal::resume(path);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message == in_use(path));
  close(release[1]);  // o filho lê EOF e sai
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(hz::Journal::resume(path).ok());
}

TEST_CASE("create recusa um journal que já tem registros e o que não é arquivo comum") {
  TempDir dir;
  const auto path = dir.write("conversa.jsonl", line(hz::user_record("oi"), 1));
  const auto existing = hz::Journal::create(path);
  REQUIRE_FALSE(existing.ok());
  CHECK(existing.error().message == "journal " + path.string() +
                                        " já tem registros: use --resume para continuar a "
                                        "conversa dele, ou escolha outro arquivo");
  const auto folder = hz::Journal::create(dir.path());
  REQUIRE_FALSE(folder.ok());
  CHECK(folder.error().message.rfind("não foi possível abrir o journal " + dir.path().string(),
                                     0) == 0);
  const auto nowhere = hz::Journal::create(dir / "não-existe" / "novo.jsonl");
  REQUIRE_FALSE(nowhere.ok());
  CHECK(nowhere.error().message == "não foi possível criar o journal " +
                                       (dir / "não-existe" / "novo.jsonl").string() +
                                       ": a pasta dele não existe");
  std::filesystem::create_directories(dir / "vazio");
  CHECK(hz::Journal::create(dir / "vazio" / "novo.jsonl").ok());
  CHECK(std::filesystem::exists(dir / "vazio" / "novo.jsonl"));
}

TEST_CASE("create e resume recusam um journal que é um link simbólico, sem tocar no destino") {
  TempDir dir;
  const std::string records = line(hz::user_record("oi"), 1);
  const auto target = dir.write("de-verdade.jsonl", records);
  std::filesystem::create_symlink(target, dir / "link.jsonl");
  std::filesystem::create_symlink(dir / "não-existe.jsonl", dir / "quebrado.jsonl");
  const auto symlink_error = [&dir](const char* name) {
    return "journal " + (dir / name).string() +
           " é um link simbólico: passe o caminho do arquivo de verdade (o journal não segue "
           "links, para não escrever onde um deles apontar)";
  };
  const auto resumed = hz::Journal::resume(dir / "link.jsonl");
  REQUIRE_FALSE(resumed.ok());
  CHECK(resumed.error().message == symlink_error("link.jsonl"));
  const auto created = hz::Journal::create(dir / "quebrado.jsonl");
  REQUIRE_FALSE(created.ok());
  CHECK(created.error().message == symlink_error("quebrado.jsonl"));
  CHECK(dir.read("de-verdade.jsonl") == records);
  CHECK_FALSE(std::filesystem::exists(dir / "não-existe.jsonl"));
}
