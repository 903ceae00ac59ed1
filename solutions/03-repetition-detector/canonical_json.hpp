// JSON canônico: um texto só para cada valor, qualquer que seja o jeito como
// o modelo escreveu os argumentos.
//
// O detector de repetição compara chamadas pelos argumentos. {"a":1,"b":2} e
// { "b": 2, "a": 1 } são a mesma chamada; compará-las como texto diria que
// não. A forma canônica segue o espírito do JCS (RFC 8785), com uma regra
// própria para números:
//   - chaves de objeto em ordem crescente dos bytes UTF-8, em todos os níveis
//     (o RFC ordena por unidades UTF-16; as duas ordens só diferem para
//     caracteres acima de U+FFFF contra U+E000..U+FFFF);
//   - arrays na ordem em que vieram;
//   - nenhum espaço fora das strings;
//   - strings com o conteúdo exato (um espaço DENTRO de uma string conta), com
//     escape só do que o JSON exige: aspas, barra invertida e controles
//     (\b \f \n \r \t, os outros como \u00XX); "\u00e9" e "é" são a mesma
//     string depois de lidas, e saem as duas como "é";
//   - números: um número lido como inteiro (sem ponto nem expoente, cabendo
//     em 64 bits) sai com todos os dígitos; um número com ponto ou expoente
//     cujo valor é inteiro e está de -2^53 a 2^53, inclusive, sai como
//     inteiro (1, 1.0 e 1e0 dão "1"; -0 e -0.0 dão "0"); qualquer outro sai
//     como o double mais curto que volta ao mesmo valor, no formato do
//     nlohmann (1.5, 1e+16, 1e-07). 2^53 é onde o double deixa de representar todos os
//     inteiros: acima dele, 9007199254740993.0 já foi lido como
//     9007199254740992, e escrevê-lo como inteiro afirmaria uma precisão
//     que o valor não tem;
//   - true, false e null como são.
// Não é o JCS byte a byte: o JCS escreve todo número como o JavaScript
// (100.0 vira 100, 1e-7 fica 1e-7, 9007199254740993 vira 9007199254740992).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace hz {

// listing: canonical-json
// A forma canônica de value (regras no topo deste arquivo). Nunca lança.
// Pré-condição: no máximo kMaxCanonicalDepth níveis de aninhamento (a
// recursão usa a pilha); call_key garante isso para os argumentos do modelo.
// Valores que só o C++ monta e o JSON não tem: NaN e infinito saem como
// null, bytes UTF-8 inválidos numa string saem como U+FFFD.
std::string canonical_json(const nlohmann::json& value);

inline constexpr int kMaxCanonicalDepth = 100;
// end-listing: canonical-json

}  // namespace hz
