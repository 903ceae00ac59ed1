// Política separada do mecanismo.
//
// O passo do loop (montar o pedido, chamar o modelo com novas tentativas,
// rodar as ferramentas) não conhece nenhum freio: ele produz fatos
// (TurnState) e pergunta. Os freios (Brakes) leem os fatos e respondem, sem
// guardar nada: o que eles precisam lembrar de um passo para o outro vem na
// resposta (Decision::memory), e o loop grava em TurnState::memory. A
// política responde; o loop registra. Assim um freio novo mexe só aqui: o
// detector de repetição da etapa 03 é mais uma pergunta em after_step, sem
// tocar no passo. Ele lê as tool calls do passo e os textos que voltaram
// (last_calls, last_results), que o passo já expunha na etapa 02; a janela
// dele é mais um campo da memória, o aviso dele ao modelo é uma nota, como a
// do orçamento, e o que ele viu vai na decisão (Decision::events) para o loop
// gravar no trace.
//
// Quem decide cada desfecho (outcome.hpp):
//   - os freios: cancelled (Ctrl-C), budget, timeout e, da etapa 03 em
//     diante, repetition;
//   - a estrutura do passo, que não é regra de parada e sim o fim do que ele
//     sabe fazer: success (a resposta não pediu ferramentas), provider_error
//     (as novas tentativas acabaram sem resposta) e max_turns (o laço não
//     passa de max_turns chamadas ao modelo; o limite é da configuração, e
//     o for o garante sem perguntar a ninguém).
#pragma once

#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "budget.hpp"
#include "clock.hpp"
#include "hz/wire.hpp"
#include "money.hpp"
#include "outcome.hpp"
#include "repetition.hpp"

namespace hz {

// listing: policy-memory
// O que os freios lembram de um passo para o outro, dentro do turno. Começa
// vazia a cada turno; depois de cada passo, o loop guarda a que veio na
// decisão.
struct PolicyMemory {
  bool budget_noted = false;  // a nota de orçamento já foi dada neste turno
  // Etapa 03: o detector, com a janela e os avisos do turno; vazio até o
  // primeiro passo observado (e sempre, sem detector).
  std::optional<RepetitionDetector> detector{};
};
// end-listing: policy-memory

// listing: turn-state
// O que o passo produziu até agora neste turno. Quem escreve é o mecanismo
// (agent_loop.cpp); a política só lê.
struct TurnState {
  Clock::time_point started;  // quando o turno começou (o prazo conta daqui)
  int model_calls = 0;        // passos em que o modelo foi chamado
  int retries = 0;            // novas tentativas que saíram depois de falhas do provedor
  Usage usage;                // tokens de todas as tentativas cobradas
  Micros cost_micros = 0;     // o custo delas
  bool cost_estimated = false;
  std::vector<ToolCall> last_calls;   // as tool calls do último passo
  std::vector<Message> last_results;  // as mensagens tool que as responderam, na ordem
  std::string error;                  // a mensagem da última falha do provedor
  PolicyMemory memory;                // a da última decisão (Decision::memory)
};
// end-listing: turn-state

// listing: decision
// A resposta da política depois de um passo completo.
struct Decision {
  enum class Kind { proceed, proceed_with_note, stop };
  Kind kind = Kind::proceed;
  std::string note;                    // proceed_with_note: o texto para o modelo
  Outcome outcome = Outcome::success;  // stop: o rótulo
  PolicyMemory memory{};               // proceed*: a memória dos freios depois do passo
  // Etapa 03. proceed_with_note: o id da tool call do passo em cujo resultado
  // a nota vai (o aviso de repetição vai no resultado da chamada repetida);
  // vazio: no último resultado do passo, como na etapa 02.
  std::string note_call_id{};
  // Etapa 03: o que o detector viu no passo, para o loop gravar no trace.
  std::vector<nlohmann::json> events{};

  static Decision proceed() { return {}; }
  static Decision proceed_with_note(std::string text, std::string call_id = {}) {
    return {Kind::proceed_with_note, std::move(text), Outcome::success, {}, std::move(call_id), {}};
  }
  static Decision stop(Outcome outcome) { return {Kind::stop, {}, outcome, {}, {}, {}}; }
};

// Acrescenta a nota de uma decisão ao histórico, depois de uma linha em
// branco: no fim do resultado da tool call call_id ou, com call_id vazio (ou
// que não está no histórico), no fim da última mensagem. Pré-condição:
// history não está vazio.
void append_note(std::vector<Message>& history, std::string_view note, std::string_view call_id);
// end-listing: decision

// listing: brakes
// A partir de que fração do teto o modelo recebe o aviso de orçamento.
inline constexpr int kBudgetNotePercent = 80;

class Brakes {
 public:
  // budget: o da conversa (nulo: sem teto); turn_deadline: o prazo do turno
  // (zero: sem prazo); cancel: a flag do Ctrl-C (nula: sem cancelamento).
  // Pré-condição: budget, cancel e clock vivem mais que os Brakes.
  Brakes(const Budget* budget, std::chrono::milliseconds turn_deadline,
         const std::atomic<bool>* cancel, const Clock& clock);

  // Etapa 03: os mesmos freios mais o detector de repetição. repetition vazio:
  // sem detector (como na etapa 02); senão, já conferido por
  // check_repetition_config (inválido lança std::invalid_argument). O que o
  // detector vê volta na decisão (Decision::events), e quem grava é o loop.
  // O detector zera a cada turno porque a memória zera (TurnState novo):
  // outra mensagem do usuário começa com a janela vazia.
  Brakes(const Budget* budget, std::chrono::milliseconds turn_deadline,
         const std::atomic<bool>* cancel, const Clock& clock,
         std::optional<RepetitionConfig> repetition);

  // Perguntada pelo passo antes de cada tentativa e antes de cada ferramenta:
  // algum freio que não pode esperar o fim do passo? Na ordem da precedência
  // (outcome.hpp): Ctrl-C, orçamento esgotado, prazo do turno vencido. Vazio:
  // pode seguir.
  std::optional<Outcome> abort_check(const TurnState& state) const;

  // Perguntada depois de cada passo completo (resposta e ferramentas). Pare
  // se abort_check parar; senão, com o detector, observe cada tool call do
  // passo (watch_repetition), com o detector da memória: o primeiro
  // travamento do turno segue com o aviso ao modelo (nudge_text) como nota no
  // resultado da chamada repetida (note_call_id), o seguinte para com
  // repetition; depois, se a nota de orçamento ainda não foi dada neste turno
  // e o gasto da conversa chegou a kBudgetNotePercent% do teto ou mais, a
  // nota de orçamento ("restam US$ X do orçamento..."). As duas notas no mesmo
  // passo vão juntas, o aviso primeiro, no resultado da chamada repetida.
  // Nenhuma: siga. A memória da decisão é a de state.memory com o que este
  // passo mudou (o detector depois de observar, a nota dada), e os eventos,
  // o que o detector viu até responder (também numa parada por repetition).
  Decision after_step(const TurnState& state) const;

  // Quanto falta para o prazo do turno (nunca negativo); vazio sem prazo.
  std::optional<std::chrono::milliseconds> time_left(const TurnState& state) const;

 private:
  Decision watch_repetition(const TurnState& state, RepetitionDetector& detector) const;
  static void report(const Verdict& verdict, const Observation& seen, int threshold,
                     std::vector<nlohmann::json>& events);
  std::optional<std::string> budget_note(const PolicyMemory& memory) const;

  const Budget* budget_;
  std::chrono::milliseconds turn_deadline_;
  const std::atomic<bool>* cancel_;
  const Clock& clock_;
  std::optional<RepetitionConfig> repetition_;
};
// end-listing: brakes

}  // namespace hz
