// O CRC-32C contra os valores publicados (o de conferência do padrão e os
// vetores do RFC 3720, o iSCSI, que usa o mesmo polinômio).
#include <doctest/doctest.h>

#include <string>

#include "crc32c.hpp"

TEST_CASE("crc32c dos nove dígitos 123456789 é 0xE3069283, o valor de conferência do padrão") {
  CHECK(hz::crc32c("123456789") == 0xE3069283u);
}

TEST_CASE("crc32c bate com os vetores do RFC 3720") {
  CHECK(hz::crc32c("") == 0u);
  CHECK(hz::crc32c(std::string(32, '\0')) == 0x8A9136AAu);
  CHECK(hz::crc32c(std::string(32, '\xff')) == 0x62A8AB43u);
  std::string ascending;
  for (int i = 0; i < 32; ++i) ascending += static_cast<char>(i);
  CHECK(hz::crc32c(ascending) == 0x46DD794Eu);
}

TEST_CASE("crc32c continua uma conta começada") {
  CHECK(hz::crc32c("6789", hz::crc32c("12345")) == 0xE3069283u);
  CHECK(hz::crc32c("", hz::crc32c("123456789")) == 0xE3069283u);
}

TEST_CASE("crc32c_hex escreve 8 dígitos minúsculos, com os zeros à esquerda") {
  CHECK(hz::crc32c_hex(0xE3069283u) == "e3069283");
  CHECK(hz::crc32c_hex(0x0000ABCDu) == "0000abcd");
  CHECK(hz::crc32c_hex(0u) == "00000000");
}
