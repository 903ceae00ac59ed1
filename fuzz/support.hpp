// O que os alvos de fuzzing têm em comum: conferir uma propriedade e, se ela
// não vale, dizer qual e abortar (o libFuzzer guarda a entrada como crash-*).
//
// Cada alvo é um LLVMFuzzerTestOneInput que recebe bytes quaisquer e os
// entrega a um leitor de entrada não confiável. Além de não travar nem
// lançar (o ASan e o UBSan vigiam a memória e o comportamento indefinido),
// cada alvo confere o contrato do leitor: o que o cabeçalho promete.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

namespace hz::fuzz {

[[noreturn]] inline void fail(const char* what) {
  std::fprintf(stderr, "hz-fuzz: propriedade violada: %s\n", what);
  std::abort();
}

inline void check(bool ok, const char* what) {
  if (!ok) fail(what);
}

// Os bytes do libFuzzer como texto.
inline std::string_view text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Uma exceção que escapou de um leitor que promete não lançar.
[[noreturn]] inline void escaped(const char* reader, const std::exception& error) {
  std::fprintf(stderr, "hz-fuzz: %s lançou: %s\n", reader, error.what());
  std::abort();
}

// Nenhum byte de controle cru que mexa num terminal: C0 (menos \n e \t),
// DEL e os C1 em UTF-8 (0xC2 0x80..0x9F). É o contrato de hz::printable.
inline bool terminal_safe(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return false;
    if (c == 0xc2 && i + 1 < text.size()) {
      const auto next = static_cast<unsigned char>(text[i + 1]);
      if (next >= 0x80 && next <= 0x9f) return false;
    }
  }
  return true;
}

}  // namespace hz::fuzz
