// Como um turno terminou.
//
// O loop nunca devolve "nada": cada saída tem um rótulo, porque quem chamou
// precisa distinguir "o modelo terminou" de "o freio atuou". Os rótulos são
// identificadores e aparecem como estão escritos aqui (trace, stderr, livro).
#pragma once

#include <string>
#include <string_view>

#include "hz/wire.hpp"

namespace hz {

// listing: outcome
enum class Outcome {
  success,    // o modelo respondeu sem pedir ferramentas (parada estrutural)
  max_turns,  // o freio: acabaram as chamadas ao modelo permitidas
};

constexpr std::string_view to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::success:
      return "success";
    case Outcome::max_turns:
      return "max_turns";
  }
  return "?";
}

// O código de saída do executável para cada desfecho (erro de uso é 2).
constexpr int exit_code(Outcome outcome) {
  switch (outcome) {
    case Outcome::success:
      return 0;
    case Outcome::max_turns:
      return 3;
  }
  return 1;
}
// end-listing: outcome

// O que um turno devolve a quem o chamou.
struct TurnResult {
  Outcome outcome = Outcome::max_turns;
  std::string final_text;  // success: a última resposta, sem <think>; max_turns: vazio
  int model_calls = 0;     // quantas vezes o modelo foi chamado neste turno
  Usage usage;             // tokens somados de todas as chamadas do turno
  double cost_usd = 0.0;   // a etapa 01 não conhece preços: sempre 0 (a 02 calcula)
};

}  // namespace hz
