// Os pontos de queda: HZ_CRASH_AT lido com mensagens claras, e o processo
// morto de verdade (SIGKILL) na n-ésima passagem pela fronteira pedida.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "crash_point.hpp"
#include "helpers.hpp"
#include "journal.hpp"

using hz::Boundary;
using hz::CrashPoint;
using journal_test::fork_child;
using journal_test::read_until_closed;
using journal_test::tell;

TEST_CASE("parse_crash_at lê fronteira:n das cinco fronteiras") {
  for (const char* name :
       {"after_reply", "before_intent", "after_intent", "after_effect", "after_result"}) {
    const auto parsed = hz::parse_crash_at(std::string(name) + ":3");
    REQUIRE_MESSAGE(parsed.ok(), hz::testing::refusal(parsed));
    REQUIRE(parsed->has_value());
    CHECK(hz::to_string((*parsed)->boundary) == name);
    CHECK((*parsed)->occurrence == 3);
  }
  const auto none = hz::parse_crash_at("");
  REQUIRE_MESSAGE(none.ok(), hz::testing::refusal(none));
  CHECK_FALSE(none->has_value());
}

TEST_CASE("parse_crash_at recusa o que não entende, dizendo o que usar") {
  const auto error = [](const char* text) {
    const auto parsed = hz::parse_crash_at(text);
    REQUIRE_FALSE(parsed.ok());
    return parsed.error().message;
  };
  CHECK(error("after_intent") ==
        "HZ_CRASH_AT=after_intent: use <fronteira>:<n>, como after_intent:1");
  CHECK(error("during_intent:1") ==
        "HZ_CRASH_AT=during_intent:1: fronteira desconhecida \"during_intent\" (use after_reply, "
        "before_intent, after_intent, after_effect, after_result)");
  for (const char* bad : {"after_intent:0", "after_intent:-1", "after_intent:", "after_intent:1x",
                          "after_intent:01", "after_intent:9999999999"}) {
    CHECK(error(bad) ==
          "HZ_CRASH_AT=" + std::string(bad) + ": a ocorrência deve ser um inteiro a partir de 1");
  }
}

TEST_CASE("o processo morre com SIGKILL na n-ésima passagem, nem antes nem depois") {
  int out[2];
  REQUIRE(pipe(out) == 0);
  const pid_t child = fork_child([&] {
    close(out[0]);
    hz::CrashPoints points(CrashPoint{Boundary::after_result, 2});
    points.reach(Boundary::after_intent);
    tell(out[1], "intenção");
    points.reach(Boundary::after_result);  // a primeira: passa
    tell(out[1], "resultado 1");
    points.reach(Boundary::after_effect);
    points.reach(Boundary::after_result);  // a segunda: morre aqui
    tell(out[1], "resultado 2");
  });
  REQUIRE(child > 0);
  close(out[1]);
  CHECK(read_until_closed(out[0]) == "intenção\nresultado 1\n");
  close(out[0]);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);
}

TEST_CASE("sem ponto de queda, ou em outra fronteira, reach nunca mata") {
  const pid_t child = fork_child([] {
    hz::CrashPoints none;
    hz::CrashPoints other(CrashPoint{Boundary::after_effect, 1});
    for (int i = 0; i < 3; ++i) {
      none.reach(Boundary::after_intent);
      other.reach(Boundary::after_intent);
    }
  });
  REQUIRE(child > 0);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("from_env lê HZ_CRASH_AT e lança na inicialização com um valor inválido") {
  const char* saved = std::getenv("HZ_CRASH_AT");
  const std::optional<std::string> previous =
      saved ? std::optional<std::string>(saved) : std::nullopt;
  setenv("HZ_CRASH_AT", "after_effect:x", 1);
  CHECK_THROWS_WITH_AS(hz::CrashPoints::from_env(),
                       "HZ_CRASH_AT=after_effect:x: a ocorrência deve ser um inteiro a partir de 1",
                       std::invalid_argument);
  unsetenv("HZ_CRASH_AT");
  CHECK_NOTHROW(hz::CrashPoints::from_env());
  if (previous) setenv("HZ_CRASH_AT", previous->c_str(), 1);
}

namespace {

// Um RecordSink que conta ao pai, pelo pipe, cada registro que gravou.
struct ToldSink final : hz::RecordSink {
  int fd = -1;
  hz::Result<std::int64_t> append(nlohmann::json rec) override {
    tell(fd, rec["type"].get<std::string>());
    return ++seq;
  }
  std::int64_t seq = 0;
};

}  // namespace

TEST_CASE("CrashingSink acha as fronteiras pelos registros: antes e depois de cada um") {
  // Um passo com uma ferramenta: reply, intent, result, reply. Em cada
  // fronteira, o que chegou a ser gravado antes de o processo morrer.
  const std::vector<std::pair<const char*, std::string>> cases{
      {"after_reply:1", "reply\n"},
      {"before_intent:1", "reply\n"},
      {"after_intent:1", "reply\nintent\n"},
      {"after_effect:1", "reply\nintent\n"},
      {"after_result:1", "reply\nintent\nresult\n"},
      {"after_reply:2", "reply\nintent\nresult\nreply\n"},
  };
  for (const auto& expected : cases) {
    const std::string point = expected.first;
    CAPTURE(point);
    int out[2];
    REQUIRE(pipe(out) == 0);
    const pid_t child = fork_child([&] {
      close(out[0]);
      auto parsed = hz::parse_crash_at(point);
      if (!parsed) return;
      hz::CrashPoints points(*parsed);
      ToldSink told;
      told.fd = out[1];
      hz::CrashingSink sink(told, points);
      for (const char* type : {"reply", "intent", "result", "reply"}) {
        (void)sink.append({{"type", type}});
      }
    });
    REQUIRE(child > 0);
    close(out[1]);
    CHECK(read_until_closed(out[0]) == expected.second);
    close(out[0]);
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    CHECK(WIFSIGNALED(status));
  }
}
