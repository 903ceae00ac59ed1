#include "retry.hpp"

#include <algorithm>
#include <cmath>

namespace hz {

// listing: is-retryable
bool is_retryable(const ModelError& error) {
  // EXERCICIO 02-brakes/retryable: a mesma chamada, repetida daqui a pouco, pode dar certo?
  switch (error.kind) {
    case ModelError::Kind::connection:
    case ModelError::Kind::timeout:
    case ModelError::Kind::idle:
    case ModelError::Kind::malformed:
      return true;
    case ModelError::Kind::http: {
      // 408 e 409 são "tente de novo" do próprio servidor; 429, limite de uso.
      const int status = error.http_status;
      return status == 408 || status == 409 || status == 429 || status >= 500;
    }
    case ModelError::Kind::too_large:  // a mesma resposta viria grande de novo
    case ModelError::Kind::aborted:    // quem cancelou não quer outra chamada
      return false;
  }
  return false;
  // FIM-EXERCICIO
}
// end-listing: is-retryable

// listing: backoff-delay
std::chrono::milliseconds backoff_delay(int retry_index, std::optional<double> retry_after,
                                        const RetryPolicy& policy, double random01) {
  // EXERCICIO 02-brakes/backoff: quanto esperar antes da próxima tentativa
  using std::chrono::milliseconds;
  // O servidor sabe quando o limite dele reabre; acima do teto, esperar não
  // vale a pena e o backoff normal decide.
  const double cap_seconds = static_cast<double>(policy.max_retry_after.count()) / 1000;
  if (retry_after && *retry_after > 0 && *retry_after <= cap_seconds) {
    return milliseconds(std::llround(*retry_after * 1000));
  }
  // Dobrar até o teto, sem calcular 2^n (que estouraria com n grande).
  milliseconds delay = policy.initial_delay;
  for (int i = 0; i < retry_index && delay < policy.max_delay; ++i) delay *= 2;
  delay = std::min(delay, policy.max_delay);
  // O jitter só tira: clientes que falharam juntos não voltam juntos.
  const double jitter = 1.0 - 0.25 * random01;
  return milliseconds(static_cast<milliseconds::rep>(static_cast<double>(delay.count()) * jitter));
  // FIM-EXERCICIO
}
// end-listing: backoff-delay

}  // namespace hz
