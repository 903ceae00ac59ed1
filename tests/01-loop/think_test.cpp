// strip_think: o raciocínio <think>...</think> fora do texto que fica no histórico.
// Numa falha, os dois lados saem entre aspas (common/testing/include/doctest/doctest.h),
// para que um espaço ou uma quebra de linha que sobrou apareça.
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "think.hpp"

namespace {

std::string stripped(std::string_view text) { return hz::strip_think(text); }

}  // namespace

TEST_SUITE_BEGIN("01-loop/strip-think");

TEST_CASE("strip_think remove um bloco e os espaços das pontas") {
  CHECK(stripped("<think>hmm\nvejamos</think>\n\nA resposta é 4.") == "A resposta é 4.");
}

TEST_CASE("strip_think remove vários blocos e mantém o texto entre eles") {
  CHECK(stripped("<think>a</think>um <think>b</think>dois") == "um dois");
}

TEST_CASE("strip_think com think sem fechamento remove até o fim") {
  CHECK(stripped("antes <think>pensando sem parar") == "antes");
}

TEST_CASE("strip_think com fechamento órfão descarta o raciocínio do começo") {
  CHECK(stripped("raciocínio sem abertura</think>\nresposta") == "resposta");
  // Só o primeiro fechamento fecha o raciocínio que veio sem abertura.
  CHECK(stripped("a</think>b</think>c") == "b</think>c");
  // O fechamento órfão vale também quando um bloco inteiro vem depois dele.
  CHECK(stripped("pensei</think>resposta <think>de novo</think>fim") == "resposta fim");
}

TEST_CASE("strip_think sem think só apara as pontas") {
  CHECK(stripped("  texto normal\n") == "texto normal");
  CHECK(stripped("texto normal") == "texto normal");
  CHECK(stripped("") == "");
}

TEST_CASE("strip_think de um texto que era só raciocínio devolve vazio") {
  CHECK(stripped("<think>só pensei</think>") == "");
  CHECK(stripped("<think>a</think> \n\t <think>b</think>\n") == "");
  CHECK(stripped(" \n ") == "");
}

TEST_CASE("strip_think mantém um fechamento que vem depois de uma abertura já fechada") {
  CHECK(stripped("<think>a</think>resposta com </think> no texto") ==
        "resposta com </think> no texto");
}

TEST_SUITE_END();
