// Partir um corpo em pedaços como a rede partiria: os tamanhos vêm do
// primeiro byte da entrada (uma semente), de 1 a 16 bytes, em qualquer lugar
// (no meio de um evento, de uma linha, entre o \r e o \n).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace hz::fuzz {

inline std::vector<std::string_view> chunks_of(std::string_view body, std::uint8_t seed) {
  std::vector<std::string_view> out;
  std::uint32_t state = seed * 2654435761U + 1U;
  while (!body.empty()) {
    state = state * 1103515245U + 12345U;
    const std::size_t size = 1 + (state >> 16U) % 16U;
    out.push_back(body.substr(0, size));
    body.remove_prefix(out.back().size());
  }
  return out;
}

}  // namespace hz::fuzz
