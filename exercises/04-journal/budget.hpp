// O orçamento de uma conversa, em micro-dólares.
//
// Um Budget vive do começo ao fim da conversa: os turnos do chat gastam do
// mesmo (e a etapa 04 o restaura numa retomada). Quem cobra é o passo do loop,
// a cada tentativa que o provedor cobrou; quem decide parar é a política
// (policy.hpp), que pergunta exhausted().
//
// Um orçamento pode dar a um filho uma fatia (slice): o filho não gasta mais
// que a fatia nem mais do que o pai ainda tem, e cada gasto do filho conta
// também no pai. É o que um subagente receberia.
#pragma once

#include <optional>

#include "money.hpp"

namespace hz {

// listing: budget
class Budget {
 public:
  // Sem teto: só conta (exhausted() nunca é verdadeiro).
  Budget() = default;
  // Com teto. Pré-condição: ceiling >= 0.
  explicit Budget(Micros ceiling);

  // Um Budget com fatias vivas não pode mudar de lugar: as fatias guardam o
  // endereço dele. Por isso não é copiável; mover é para o momento da criação.
  Budget(const Budget&) = delete;
  Budget& operator=(const Budget&) = delete;
  Budget(Budget&&) = default;
  Budget& operator=(Budget&&) = default;

  // Soma um gasto aqui e em cada ancestral (satura em vez de estourar).
  // Gasto negativo é ignorado: dinheiro gasto não volta.
  void charge(Micros amount);

  Micros spent() const { return spent_; }
  std::optional<Micros> ceiling() const { return ceiling_; }

  // Quanto ainda pode ser gasto: o que sobra do próprio teto, limitado pelo
  // que sobra em cada ancestral; nunca negativo. Vazio se nem este orçamento
  // nem nenhum ancestral tem teto.
  std::optional<Micros> remaining() const;

  // Verdadeiro quando remaining() é zero: o gasto chegou a um teto.
  bool exhausted() const;

  // Uma fatia de até `amount`: um filho com teto `amount` que também respeita
  // o que sobra aqui. Pré-condição: este Budget vive mais que a fatia e não se
  // move enquanto ela existir.
  Budget slice(Micros amount);

 private:
  Budget* parent_ = nullptr;
  std::optional<Micros> ceiling_;
  Micros spent_ = 0;
};
// end-listing: budget

}  // namespace hz
