#include "retry.hpp"

#include <algorithm>
#include <cmath>

#include "hz/not_implemented.hpp"

// SEU-CODIGO: includes, constantes e funções suas (./hz carry e ./hz update os levam)
// FIM-SEU-CODIGO

namespace hz {

// listing: is-retryable
bool is_retryable(const ModelError& error) {
  // TODO EXERCICIO 02-brakes/retryable: a mesma chamada, repetida daqui a pouco, pode dar certo?
  throw hz::NotImplemented("02-brakes/retryable",
                           "livro/02-brakes.md, \"Exercício 3 — Vale outra tentativa?\"");
  // FIM-EXERCICIO
}
// end-listing: is-retryable

// listing: backoff-delay
std::chrono::milliseconds backoff_delay(int retry_index, std::optional<double> retry_after,
                                        const RetryPolicy& policy, double random01) {
  // TODO EXERCICIO 02-brakes/backoff: quanto esperar antes da próxima tentativa
  throw hz::NotImplemented("02-brakes/backoff",
                           "livro/02-brakes.md, \"Exercício 4 — Quanto esperar\"");
  // FIM-EXERCICIO
}
// end-listing: backoff-delay

}  // namespace hz
