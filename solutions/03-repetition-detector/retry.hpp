// Nova tentativa dentro do passo: quais falhas do provedor valem outra
// chamada e quanto esperar antes dela.
//
// As regras são as dos SDKs oficiais da OpenAI (openai-python, openai-node):
// 2 novas tentativas; conexão que caiu, tempo esgotado de uma chamada, HTTP
// 408, 409, 429 e 5xx; espera min(0,5 s × 2^n, 8 s) com até 25% a menos de
// jitter, ou o Retry-After do servidor até 60 s. Repetir aqui é barato e
// seguro: a chamada falhou antes de qualquer ferramenta rodar.
#pragma once

#include <chrono>
#include <optional>

#include "hz/chat_client.hpp"

namespace hz {

// listing: retry-policy
struct RetryPolicy {
  int max_retries = 0;                               // 0: nenhuma nova tentativa (etapa 01)
  std::chrono::milliseconds initial_delay{500};      // a espera antes da 1ª nova tentativa
  std::chrono::milliseconds max_delay{8000};         // o teto do backoff exponencial
  std::chrono::milliseconds max_retry_after{60000};  // Retry-After acima disso é ignorado
};

// O padrão dos SDKs oficiais (o hz-02-brakes usa; --max-retries muda).
inline constexpr int kDefaultMaxRetries = 2;
// end-listing: retry-policy

// listing: is-retryable
// Vale tentar de novo? Sim para o que pode passar sozinho: conexão que caiu
// ou não abriu, tempo esgotado de uma chamada, resposta que parou no meio
// (idle), HTTP 408, 409, 429 e 5xx, e um 200 com corpo ilegível. Não para o
// que vai falhar igual (400, 401, 403, 404, 422 e os demais 4xx), para uma
// resposta grande demais e para uma chamada cancelada.
bool is_retryable(const ModelError& error);
// end-listing: is-retryable

// listing: backoff-delay
// Quanto esperar antes da nova tentativa número retry_index + 1 (0 para a
// primeira). retry_after (segundos, já lido dos cabeçalhos retry-after-ms e
// Retry-After pelo transporte) vale como veio, arredondado ao milissegundo
// mais próximo, quando 0 < retry_after <= max_retry_after. Senão, a espera é
// a própria: initial_delay na primeira nova tentativa, o dobro da anterior em
// cada uma das seguintes, nunca mais que max_delay; o sorteio random01 (em
// [0, 1)) a encurta em até um quarto, nunca a alonga, e o resultado é um
// número inteiro de milissegundos, arredondado para baixo. Nenhum retry_index
// (até INT_MAX) estoura a conta. Pré-condição: retry_index >= 0 e
// 0 < initial_delay <= max_delay.
std::chrono::milliseconds backoff_delay(int retry_index, std::optional<double> retry_after,
                                        const RetryPolicy& policy, double random01);
// end-listing: backoff-delay

}  // namespace hz
