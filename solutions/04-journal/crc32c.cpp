#include "crc32c.hpp"

#include <array>

namespace hz {
namespace {

constexpr std::uint32_t kReflectedPolynomial = 0x82F63B78;  // 0x1EDC6F41 com os bits invertidos

// Uma tabela de 256 entradas: o CRC de cada byte possível, calculado bit a
// bit uma vez (na compilação). Depois, um byte custa uma consulta e um xor.
constexpr std::array<std::uint32_t, 256> make_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t byte = 0; byte < 256; ++byte) {
    std::uint32_t crc = byte;
    for (int bit = 0; bit < 8; ++bit) {
      crc = (crc & 1) != 0 ? (crc >> 1) ^ kReflectedPolynomial : crc >> 1;
    }
    table[byte] = crc;
  }
  return table;
}

constexpr std::array<std::uint32_t, 256> kTable = make_table();

}  // namespace

// listing: crc32c-loop
std::uint32_t crc32c(std::string_view bytes, std::uint32_t crc) {
  // A inversão na entrada e na saída é do padrão; ela também faz a
  // continuação funcionar: desinverte o valor anterior antes de seguir.
  crc = ~crc;
  for (const char c : bytes) {
    crc = kTable[(crc ^ static_cast<unsigned char>(c)) & 0xFF] ^ (crc >> 8);
  }
  return ~crc;
}
// end-listing: crc32c-loop

std::string crc32c_hex(std::uint32_t crc) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex(8, '0');
  for (int i = 7; i >= 0; --i) {
    hex[static_cast<std::size_t>(i)] = kDigits[crc & 0xF];
    crc >>= 4;
  }
  return hex;
}

}  // namespace hz
