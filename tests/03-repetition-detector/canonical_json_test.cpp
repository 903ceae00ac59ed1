// canonical_json: um texto só para cada valor JSON. Numa falha, os dois lados
// saem entre aspas (common/testing/include/doctest/doctest.h), para que um
// espaço ou um escape a mais apareça.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "canonical_json.hpp"

namespace {

// O texto canônico do JSON escrito em `text`.
std::string canonical(std::string_view text) {
  return hz::canonical_json(nlohmann::json::parse(text));
}

}  // namespace

TEST_SUITE_BEGIN("03-repetition-detector/canonical-json");

TEST_CASE("canonical_json ordena as chaves do objeto de cima") {
  CHECK(canonical(R"({"b":2,"a":1})") == R"({"a":1,"b":2})");
  CHECK(canonical(R"({"a":1,"b":2})") == R"({"a":1,"b":2})");
}

TEST_CASE("canonical_json ordena as chaves em todos os níveis e mantém a ordem dos arrays") {
  CHECK(canonical(R"({"z":{"y":[{"b":1,"a":2},3,1],"x":null},"a":true})") ==
        R"({"a":true,"z":{"x":null,"y":[{"a":2,"b":1},3,1]}})");
  CHECK(canonical("[2,1,3]") == "[2,1,3]");
}

TEST_CASE("canonical_json ordena chaves pelos bytes UTF-8") {
  // 'A' (0x41) < 'a' (0x61) < 'z' (0x7A) < 'é' (0xC3 0xA9)
  CHECK(canonical(R"({"é":1,"z":2,"a":3,"A":4})") == R"({"A":4,"a":3,"z":2,"é":1})");
}

TEST_CASE("canonical_json tira os espaços de fora das strings") {
  CHECK(canonical(" {\n  \"a\" : [ 1 , 2 ] ,\t\"b\" : { } , \"c\" : [ ]\n} ") ==
        R"({"a":[1,2],"b":{},"c":[]})");
}

TEST_CASE("canonical_json mantém os espaços de dentro das strings") {
  CHECK(canonical(R"({"command":"ls  -la "})") == R"({"command":"ls  -la "})");
  CHECK(canonical(R"({"command":"ls -la"})") == R"({"command":"ls -la"})");
  CHECK(canonical(R"({"text":"a\nb\tc"})") == R"({"text":"a\nb\tc"})");
}

TEST_CASE("canonical_json escreve números inteiros, com ponto ou com expoente do mesmo jeito") {
  CHECK(canonical("[1, 1.0, 1e0, 1E0, 10e-1, 100e-2, 0.1e1]") == "[1,1,1,1,1,1,1]");
  CHECK(canonical("[100.0, 1e2, 2.50e2, -3.0]") == "[100,100,250,-3]");
}

TEST_CASE("canonical_json escreve zero negativo como 0") {
  CHECK(canonical("[-0, -0.0, 0e5, -0e-3]") == "[0,0,0,0]");
}

TEST_CASE("canonical_json escreve números fracionários no double mais curto") {
  CHECK(canonical("[1.5, 0.1, 4.50, 2e-3, -2.5]") == "[1.5,0.1,4.5,0.002,-2.5]");
  CHECK(canonical("[333333333.33333329]") == "[333333333.3333333]");
  CHECK(canonical("[1e-7, 5e-324, 1.7976931348623157e308]") ==
        "[1e-07,5e-324,1.7976931348623157e+308]");
}

TEST_CASE("canonical_json: valor inteiro com ponto só vira inteiro até 2^53") {
  CHECK(canonical("[9007199254740992.0, -9007199254740992.0]") ==
        "[9007199254740992,-9007199254740992]");
  CHECK(canonical("[9007199254740994.0, 1e16, 1e300]") == "[9.007199254740994e+15,1e+16,1e+300]");
}

TEST_CASE("canonical_json mantém todos os dígitos de um inteiro grande") {
  CHECK(canonical("[9007199254740993, 9007199254740992]") == "[9007199254740993,9007199254740992]");
  CHECK(canonical("[18446744073709551615, -9223372036854775808]") ==
        "[18446744073709551615,-9223372036854775808]");
  // Além de 64 bits, o parser já leu um double.
  CHECK(canonical("[18446744073709551616]") == "[1.8446744073709552e+19]");
}

TEST_CASE("canonical_json: um escape unicode e o mesmo caractere em UTF-8 cru são iguais") {
  CHECK(canonical(R"({"name":"caf\u00e9"})") == R"({"name":"café"})");
  CHECK(canonical(R"({"name":"café"})") == R"({"name":"café"})");
  CHECK(canonical(R"(["\u0041", "\/", "\ud83d\ude00"])") == R"(["A","/","😀"])");
  CHECK(canonical(R"({"caf\u00e9":1})") == R"({"café":1})");
}

TEST_CASE("canonical_json só escapa aspas, barra invertida e controles") {
  CHECK(canonical(R"(["\"", "\\", "\b\f\n\r\t", "\u0001\u001f", "\u007f"])") ==
        "[\"\\\"\",\"\\\\\",\"\\b\\f\\n\\r\\t\",\"\\u0001\\u001f\",\"\x7f\"]");
}

TEST_CASE("canonical_json escapa as chaves do objeto como escapa os textos") {
  // Uma chave é um texto JSON: aspas, barra invertida e controles escapados,
  // senão a saída nem é JSON e duas chaves diferentes podem dar o mesmo texto.
  CHECK(canonical(R"({"a\"b\\c\u0001\n":1})") == R"({"a\"b\\c\u0001\n":1})");
  CHECK(canonical(R"({"k":{"\"":[{"\t":null}]}})") == R"({"k":{"\"":[{"\t":null}]}})");
}

TEST_CASE("canonical_json escreve true, false e null como são") {
  CHECK(canonical(R"({"t":true,"f":false,"n":null})") == R"({"f":false,"n":null,"t":true})");
  CHECK(canonical("null") == "null");
  CHECK(canonical("\"só texto\"") == "\"só texto\"");
}

TEST_CASE("canonical_json não lança com valores que só o C++ monta") {
  const nlohmann::json odd = {{"nan", std::numeric_limits<double>::quiet_NaN()},
                              {"inf", std::numeric_limits<double>::infinity()},
                              {"bad", std::string("a\xff")}};
  CHECK(hz::canonical_json(odd) == "{\"bad\":\"a\xEF\xBF\xBD\",\"inf\":null,\"nan\":null}");
}

TEST_SUITE_END();
