// Casos que falham de propósito, para reporter_test.cpp conferir o relatório
// do hz-doctest-main (common/testing/src/doctest_main.cpp) num executável de
// verdade. Não é registrado no ctest: as falhas daqui são o material do teste.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

TEST_CASE("muitas falhas grandes") {
  for (int i = 0; i < 100; ++i) {
    CAPTURE(i);
    CHECK(std::string(600, 'x') + std::to_string(i) == std::string(600, 'y'));
  }
}

TEST_CASE("uma falha enorme") {
  std::string big;
  for (int i = 0; i < 20000; ++i) big += "é";  // 2 bytes cada: o corte não parte um caractere
  CHECK(big == "curto");
}

TEST_CASE("duas falhas pequenas") {
  CHECK(1 == 2);
  CHECK(std::string("a") == "b");
}

TEST_CASE("quatro falhas pequenas") {
  for (int i = 0; i < 4; ++i) CHECK(i == 9);
}

TEST_CASE("passa") { CHECK(1 == 1); }

TEST_CASE("stub") {
  throw std::runtime_error("exercício 09-x/y não implementado: leia livro/09-x.md");
}
