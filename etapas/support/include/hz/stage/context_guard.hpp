// O aviso de janela de contexto cheia.
//
// Um servidor local (Ollama, LM Studio, llama.cpp) que recebe um pedido maior
// que a janela do modelo costuma não dar erro: descarta em silêncio o começo
// da conversa, que é onde estão o prompt de sistema e o pedido da pessoa. O
// modelo continua respondendo, só que sem as regras e sem saber a tarefa.
//
// ContextGuard embrulha o ChatModel de verdade e, antes de cada chamada,
// estima o tamanho do pedido como o mock faz (bytes do corpo / 4). Quando a
// estimativa passa de kWarnFraction da janela, escreve um aviso em português
// (uma vez só por execução) e segue com a chamada: avisar não muda nada no
// que o loop manda nem no que ele recebe. Assim nenhum núcleo de etapa muda.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>

#include "hz/chat_client.hpp"
#include "hz/stage/flags.hpp"
#include "hz/stage/session.hpp"

namespace hz::stage {

// A partir de que fração da janela o aviso aparece.
inline constexpr double kWarnFraction = 0.8;

// O tamanho de um pedido em tokens, estimado como bytes do corpo JSON / 4
// (arredondado para cima), o mesmo que o mock usa quando o cenário não diz.
long estimate_tokens(const ChatRequest& request);

// O texto do aviso (várias linhas, terminado em \n), sem cor.
std::string context_warning(long estimate, long window);

class ContextGuard final : public ChatModel {
 public:
  // inner não é possuído e precisa viver mais que o guard. window <= 0: a
  // janela é desconhecida e não há aviso, a não ser que probe a descubra.
  // probe, se dado, é chamado uma vez, antes da segunda chamada (a primeira
  // já carregou o modelo no servidor), enquanto a janela for desconhecida.
  ContextGuard(ChatModel& inner, long window, std::ostream& warnings, bool color = false,
               std::function<long()> probe = {});

  Result<ChatReply, ModelError> complete(const ChatRequest& request) override;
  Result<ChatReply, ModelError> call(const ChatRequest& request,
                                     const CallOptions& options) override;

  long window() const { return window_; }
  bool warned() const { return warned_; }

 private:
  void check(const ChatRequest& request);

  ChatModel& inner_;
  long window_;
  std::ostream& warnings_;
  bool color_;
  std::function<long()> probe_;
  int calls_ = 0;
  bool warned_ = false;
};

// O ChatModel que a etapa deve passar ao loop: session.client embrulhado num
// ContextGuard que avisa em warnings. A janela vem de --context-window; sem
// ela, com um endpoint real, vem do servidor, se ele responde como um Ollama
// (server_window, com tempo curto, depois da primeira resposta); senão, fica
// desconhecida e não há aviso. session precisa viver mais que o guard.
std::unique_ptr<ContextGuard> guard_context(const CommonFlags& flags, Session& session,
                                            std::ostream& warnings);

}  // namespace hz::stage
