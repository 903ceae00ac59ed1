// Como um turno terminou.
//
// O loop nunca devolve "nada": cada saída tem um rótulo, porque quem chamou
// precisa distinguir "o modelo terminou" de "o freio atuou". Os rótulos são
// identificadores e aparecem como estão escritos aqui (trace, stderr, livro).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "hz/wire.hpp"

namespace hz {

// listing: outcome
enum class Outcome {
  success,         // o modelo respondeu sem pedir ferramentas (parada estrutural)
  max_turns,       // acabaram as chamadas ao modelo permitidas no turno
  budget,          // o gasto da conversa chegou ao teto (--budget-usd)
  timeout,         // passou o prazo do turno (--turn-timeout)
  provider_error,  // a chamada ao modelo falhou e as novas tentativas acabaram
  cancelled,       // a pessoa apertou Ctrl-C
  repetition,      // o modelo repetiu depois do aviso do detector (etapa 03)
};

// Precedência: quando vários freios atuam na mesma conferência, vale o
// primeiro desta lista. cancelled > budget > timeout > provider_error >
// repetition > max_turns. O Ctrl-C de quem está ali vem antes de tudo;
// dinheiro é o limite mais duro (gasto não volta); max_turns é o mais
// corriqueiro. O detector de repetição pergunta depois dos freios que não
// esperam (Brakes::abort_check) e antes de max_turns: no último passo
// permitido, um turno travado termina como repetition, que diz mais que
// "acabaram as chamadas". provider_error e repetition nunca disputam a mesma
// conferência (um vem da chamada ao modelo; o outro, das ferramentas).

constexpr std::string_view to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::success:
      return "success";
    case Outcome::max_turns:
      return "max_turns";
    case Outcome::budget:
      return "budget";
    case Outcome::timeout:
      return "timeout";
    case Outcome::provider_error:
      return "provider_error";
    case Outcome::cancelled:
      return "cancelled";
    case Outcome::repetition:
      return "repetition";
  }
  return "?";
}

// O código de saída do executável para cada desfecho (erro de uso é 2).
// 130 é o que o shell mostra para um programa interrompido por SIGINT (128 + 2).
constexpr int exit_code(Outcome outcome) {
  switch (outcome) {
    case Outcome::success:
      return 0;
    case Outcome::max_turns:
      return 3;
    case Outcome::budget:
      return 4;
    case Outcome::timeout:
      return 5;
    case Outcome::provider_error:
      return 6;
    case Outcome::cancelled:
      return 130;
    case Outcome::repetition:
      return 7;
  }
  return 1;
}
// end-listing: outcome

// listing: turn-result
// O que um turno devolve a quem o chamou.
struct TurnResult {
  Outcome outcome = Outcome::max_turns;
  std::string final_text;        // success: a última resposta, sem <think>; nos outros: vazio
  int model_calls = 0;           // passos em que o modelo foi chamado (sem contar retries)
  Usage usage;                   // tokens somados de todas as tentativas cobradas do turno
  double cost_usd = 0.0;         // cost_micros / 1e6, só para mostrar
  std::int64_t cost_micros = 0;  // o custo do turno em micro-dólares (veja money.hpp)
  bool cost_estimated = false;   // alguma parte do custo veio de uma estimativa por bytes
  int retries = 0;               // novas tentativas feitas depois de falhas do provedor
  std::string error;             // provider_error: a mensagem do provedor
};
// end-listing: turn-result

}  // namespace hz
