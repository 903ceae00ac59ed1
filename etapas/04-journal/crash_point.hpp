// Pontos de queda: o processo se mata de verdade (SIGKILL) numa fronteira do
// journal, para a retomada ser testada contra o que um kill -9 deixa, e não
// contra uma simulação. Fora do núcleo da etapa: o loop não sabe que isto
// existe. O executável põe um CrashingSink na frente do journal, e as
// fronteiras são contadas pelos registros que passam por ele.
//
// HZ_CRASH_AT=<fronteira>:<n> mata o processo na n-ésima vez que ele passa
// pela fronteira (n a partir de 1). As fronteiras, na ordem de um passo:
//   after_reply    depois de gravar um reply: a resposta do modelo está no journal
//   before_intent  antes de gravar um intent: a chamada ainda não começou
//   after_intent   depois de gravar um intent: a ferramenta ainda não rodou
//   after_effect   antes de gravar um result: a ferramenta já rodou (numa
//                  retomada, também antes do result de uma decisão done ou unknown)
//   after_result   depois de gravar um result
// SIGKILL não pode ser capturado nem ignorado: nenhum destrutor roda, nenhum
// buffer é esvaziado, como numa queda de verdade (menos a do disco).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "hz/result.hpp"
#include "journal.hpp"

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

// Um RecordSink na frente de outro (o Journal) que passa cada registro
// adiante e chama points.reach nas fronteiras: antes e depois de gravá-lo,
// pelo tipo dele (veja a tabela no começo do arquivo). Pré-condição: inner e
// points vivem mais que ele.
class CrashingSink final : public RecordSink {
 public:
  CrashingSink(RecordSink& inner, CrashPoints& points) : inner_(inner), points_(points) {}
  Result<std::int64_t> append(nlohmann::json rec) override;

 private:
  RecordSink& inner_;
  CrashPoints& points_;
};

}  // namespace hz
