// Utilidades de texto usadas pelo harness e pelo trace.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hz {

// Remove blocos <think>...</think> (modelos de raciocínio como o Qwen3) e os
// espaços que sobram nas pontas. Um <think> sem fechamento remove até o fim;
// um </think> antes de qualquer <think> (servidores que já comeram a
// abertura) remove tudo até ele.
std::string strip_think(std::string_view text);

// Se text tem mais que max_bytes, guarda o começo e o fim e põe no meio um
// marcador "[... N bytes omitidos ...]". Nunca corta um caractere UTF-8 ao
// meio. O resultado tem no máximo max_bytes + o tamanho do marcador.
std::string truncate_middle(std::string_view text, std::size_t max_bytes);

// Resumo de text para o trace humano: as primeiras max_lines linhas não
// vazias, sem espaços nas pontas, unidas por " · ", com no máximo max_chars
// caracteres. Se cortou no tamanho, termina em "…"; se só sobraram linhas,
// em " …". Ex.: brief("código de saída: 1\nFALHOU\n...", 2, 80) ==
// "código de saída: 1 · FALHOU …".
std::string brief(std::string_view text, std::size_t max_lines, std::size_t max_chars);

}  // namespace hz
