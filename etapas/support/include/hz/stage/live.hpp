// A resposta aparecendo enquanto chega (streaming), para quem está no
// terminal.
//
// Só quando o stdout é um terminal: num pipe ou num arquivo (e nos testes), o
// stdout recebe só a resposta final, inteira, no fim do turno, como na
// etapa 01. O texto passa por hz::printable e sem os blocos <think>...</think>.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "hz/chat_client.hpp"
#include "hz/text.hpp"

namespace hz::stage {

// Escreve pedaços de texto em out, na hora, tirando os blocos <think> mesmo
// quando uma marca chega partida entre dois pedaços.
class LiveText {
 public:
  explicit LiveText(std::ostream& out) : out_(out) {}

  void write(std::string_view chunk);
  // Fim de uma resposta: fecha a linha, se ficou aberta, e zera o estado.
  void finish();
  // Algo foi escrito desde o último finish()?
  bool wrote() const { return wrote_; }

 private:
  void emit(std::string_view text);

  std::ostream& out_;
  std::string pending_;  // o fim do último pedaço, que pode ser o começo de uma marca
  bool inside_think_ = false;
  bool wrote_ = false;
  bool at_line_start_ = true;
  PrintableStream printable_;
};

// Um ChatModel que repassa as chamadas a outro e, em volta de cada uma, cuida
// da tela: o texto que chega por streaming vai para `live` (on_text da
// chamada é trocado) e, no fim da chamada, a linha é fechada. Guarda se a
// última resposta já apareceu inteira na tela, para a etapa não escrevê-la de
// novo no stdout.
class LiveModel final : public ChatModel {
 public:
  // Pré-condição: inner e live vivem mais que este objeto.
  LiveModel(ChatModel& inner, LiveText& live) : inner_(inner), live_(live) {}

  Result<ChatReply, ModelError> complete(const ChatRequest& request) override;
  Result<ChatReply, ModelError> call(const ChatRequest& request,
                                     const CallOptions& options) override;

  // A última resposta chegou por streaming e foi mostrada enquanto chegava.
  bool last_reply_shown() const { return last_reply_shown_; }

 private:
  ChatModel& inner_;
  LiveText& live_;
  bool last_reply_shown_ = false;
};

}  // namespace hz::stage
