// O raciocínio que alguns modelos escrevem antes da resposta.
//
// Modelos como o Qwen3 e o DeepSeek-R1 põem o que "pensaram" entre <think> e
// </think> no próprio texto da resposta. Serviu para chegar à resposta; no
// histórico, só gastaria contexto em todas as chamadas seguintes.
#pragma once

#include <string>
#include <string_view>

namespace hz {

// listing: strip-think
// Remove os blocos <think>...</think> e os espaços que sobram nas pontas.
// Um <think> sem fechamento remove até o fim. Um </think> antes de qualquer
// <think> (servidores que já comeram a abertura, porque ela está no template
// do prompt) remove tudo até ele; se há mais de um, só até o primeiro.
std::string strip_think(std::string_view text);
// end-listing: strip-think

}  // namespace hz
