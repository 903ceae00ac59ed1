// backoff_delay: quanto esperar antes de cada nova tentativa. Os números são
// os dos SDKs oficiais: 0,5 s dobrando até 8 s, até 25% a menos de jitter, e
// o Retry-After do servidor até 60 s.
#include <doctest/doctest.h>

#include <climits>
#include <optional>

#include "helpers.hpp"
#include "retry.hpp"

using hz::backoff_delay;
using hz::RetryPolicy;
using hz::test02::shown;
using std::chrono::milliseconds;

namespace {

const RetryPolicy kSdk{2};

}  // namespace

TEST_SUITE_BEGIN("02-brakes/backoff");

TEST_CASE("sem Retry-After a espera dobra a partir de 500 ms até o teto de 8 s") {
  const milliseconds expected[] = {milliseconds(500),  milliseconds(1000), milliseconds(2000),
                                   milliseconds(4000), milliseconds(8000), milliseconds(8000),
                                   milliseconds(8000)};
  for (int index = 0; index < 7; ++index) {
    CAPTURE(index);
    CHECK(shown(backoff_delay(index, std::nullopt, kSdk, 0.0)) == shown(expected[index]));
  }
}

TEST_CASE("o jitter só tira, até 25 por cento") {
  CHECK(shown(backoff_delay(0, std::nullopt, kSdk, 0.5)) == "437 ms");   // 500 × 0,875
  CHECK(shown(backoff_delay(1, std::nullopt, kSdk, 0.5)) == "875 ms");   // 1000 × 0,875
  CHECK(shown(backoff_delay(4, std::nullopt, kSdk, 0.5)) == "7000 ms");  // 8000 × 0,875
  CHECK(shown(backoff_delay(0, std::nullopt, kSdk, 0.999)) == "375 ms");
  // O jitter encurta a espera já limitada pelo teto: 8000 × 0,875, e não 16000 × 0,875 limitado.
  CHECK(shown(backoff_delay(5, std::nullopt, kSdk, 0.5)) == "7000 ms");
}

TEST_CASE("um Retry-After razoável vale como veio, sem jitter") {
  CHECK(shown(backoff_delay(0, 2.0, kSdk, 0.5)) == "2000 ms");
  CHECK(shown(backoff_delay(3, 0.25, kSdk, 0.9)) == "250 ms");    // de retry-after-ms: 250
  CHECK(shown(backoff_delay(0, 60.0, kSdk, 0.0)) == "60000 ms");  // o teto ainda vale
  CHECK(shown(backoff_delay(0, 1.5, kSdk, 0.0)) == "1500 ms");
  // Arredondado ao milissegundo mais próximo, não para baixo: 1234,7 ms.
  CHECK(shown(backoff_delay(0, 1.2347, kSdk, 0.0)) == "1235 ms");
}

TEST_CASE("Retry-After acima do teto, zero ou negativo cai no backoff") {
  CHECK(shown(backoff_delay(1, 61.0, kSdk, 0.0)) == "1000 ms");
  CHECK(shown(backoff_delay(1, 3600.0, kSdk, 0.0)) == "1000 ms");
  CHECK(shown(backoff_delay(0, 0.0, kSdk, 0.0)) == "500 ms");
  CHECK(shown(backoff_delay(2, -3.0, kSdk, 0.0)) == "2000 ms");
}

TEST_CASE("muitas tentativas não estouram a conta") {
  CHECK(shown(backoff_delay(63, std::nullopt, kSdk, 0.0)) == "8000 ms");
  CHECK(shown(backoff_delay(1000, std::nullopt, kSdk, 0.0)) == "8000 ms");
  CHECK(shown(backoff_delay(INT_MAX, std::nullopt, kSdk, 0.0)) == "8000 ms");
}

TEST_CASE("a política muda os números") {
  const RetryPolicy quick{5, milliseconds(100), milliseconds(1000), milliseconds(5000)};
  CHECK(shown(backoff_delay(0, std::nullopt, quick, 0.0)) == "100 ms");
  CHECK(shown(backoff_delay(3, std::nullopt, quick, 0.0)) == "800 ms");
  CHECK(shown(backoff_delay(4, std::nullopt, quick, 0.0)) == "1000 ms");
  CHECK(shown(backoff_delay(0, 5.0, quick, 0.0)) == "5000 ms");
  CHECK(shown(backoff_delay(0, 6.0, quick, 0.0)) == "100 ms");
}

TEST_SUITE_END();
