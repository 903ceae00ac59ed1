// Quão fundo um JSON aninha colchetes e chaves, para recusar o que só serve
// para derrubar o processo.
//
// O nlohmann lê qualquer profundidade sem recursão, mas dump(), a cópia e a
// comparação de um json são recursivas: um corpo de 200 KB com 100 mil "["
// estoura a pilha de quem o mostra ou copia, e um estouro de pilha não é uma
// exceção que alguém capture. Nenhum provedor nem modelo de verdade passa de
// algumas dezenas de níveis; quem lê JSON não confiável confere antes.
// Só cabeçalho: o mock (que não linka hz::common) também usa.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace hz {

inline constexpr std::size_t kMaxJsonDepth = 256;

// true se o texto abre mais que max_depth níveis de [ e { um dentro do
// outro (fora de strings). Não valida o JSON: texto inválido que não passa
// do limite dá false, e o parser recusa depois.
inline bool json_deeper_than(std::string_view text, std::size_t max_depth = kMaxJsonDepth) {
  std::size_t depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

// O mesmo para um json já montado, sem recursão.
inline bool json_deeper_than(const nlohmann::json& value, std::size_t max_depth = kMaxJsonDepth) {
  std::vector<std::pair<const nlohmann::json*, std::size_t>> pending{{&value, 0}};
  while (!pending.empty()) {
    const auto [node, depth] = pending.back();
    pending.pop_back();
    if (!node->is_structured()) continue;
    if (depth + 1 > max_depth) return true;
    for (const nlohmann::json& child : *node) pending.emplace_back(&child, depth + 1);
  }
  return false;
}

}  // namespace hz
