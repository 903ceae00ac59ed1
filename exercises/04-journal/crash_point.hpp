// Pontos de queda para os testes: o processo se mata de verdade (SIGKILL)
// numa fronteira do journal, para a retomada ser testada contra o que um
// kill -9 deixa, e não contra uma simulação.
//
// HZ_CRASH_AT=<fronteira>:<n> mata o processo na n-ésima vez que ele passa
// pela fronteira (n a partir de 1). As fronteiras, na ordem de um passo:
//   after_reply    a resposta do modelo foi gravada
//   before_intent  a próxima chamada vai gravar a intenção
//   after_intent   a intenção foi gravada; a ferramenta ainda não rodou
//   after_effect   a ferramenta rodou; o resultado ainda não foi gravado
//   after_result   o resultado foi gravado
// SIGKILL não pode ser capturado nem ignorado: nenhum destrutor roda, nenhum
// buffer é esvaziado, como numa queda de verdade (menos a do disco).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "hz/result.hpp"

namespace hz {

enum class Boundary { after_reply, before_intent, after_intent, after_effect, after_result };

std::string_view to_string(Boundary boundary);

struct CrashPoint {
  Boundary boundary = Boundary::after_reply;
  int occurrence = 1;  // >= 1
  bool operator==(const CrashPoint&) const = default;
};

// "after_intent:2" -> {after_intent, 2}. Vazio: nenhum ponto. Erro, em
// português, para fronteira desconhecida, n que não é inteiro >= 1 ou falta do ":".
Result<std::optional<CrashPoint>> parse_crash_at(std::string_view text);

// Conta as passagens por cada fronteira e mata o processo no ponto pedido.
// Uma thread só (a do loop).
class CrashPoints {
 public:
  CrashPoints() = default;  // nenhum ponto: reach nunca mata
  explicit CrashPoints(std::optional<CrashPoint> point) : point_(point) {}

  // De HZ_CRASH_AT; um valor inválido é erro de inicialização (lança
  // std::invalid_argument com a mensagem): um teste mal escrito não pode
  // passar por não ter caído.
  static CrashPoints from_env();

  // Passou por `boundary`: na ocorrência pedida, raise(SIGKILL) (não volta).
  void reach(Boundary boundary);

 private:
  std::optional<CrashPoint> point_;
  int seen_ = 0;  // passagens pela fronteira do ponto
};

}  // namespace hz
