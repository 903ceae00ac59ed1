// strip_think: o raciocínio <think>...</think> fora do texto que fica no histórico.
#include <doctest/doctest.h>

#include "think.hpp"

TEST_SUITE_BEGIN("01-loop/strip-think");

TEST_CASE("strip_think remove um bloco e os espaços das pontas") {
  CHECK(hz::strip_think("<think>hmm\nvejamos</think>\n\nA resposta é 4.") == "A resposta é 4.");
}

TEST_CASE("strip_think remove vários blocos e mantém o texto entre eles") {
  CHECK(hz::strip_think("<think>a</think>um <think>b</think>dois") == "um dois");
}

TEST_CASE("strip_think com think sem fechamento remove até o fim") {
  CHECK(hz::strip_think("antes <think>pensando sem parar") == "antes");
}

TEST_CASE("strip_think com fechamento órfão descarta o raciocínio do começo") {
  CHECK(hz::strip_think("raciocínio sem abertura</think>\nresposta") == "resposta");
}

TEST_CASE("strip_think sem think só apara as pontas") {
  CHECK(hz::strip_think("  texto normal\n") == "texto normal");
  CHECK(hz::strip_think("texto normal") == "texto normal");
  CHECK(hz::strip_think("") == "");
}

TEST_SUITE_END();
