#include "context.hpp"

#include <utility>

namespace hz {

// As regras são poucas e concretas: cada uma corresponde a algo que o harness
// faz de verdade (caminhos confinados, edit_file por trecho exato, erro que
// volta como texto, parada quando não há mais tool calls).
// listing: system-prompt
std::string_view default_system_prompt() {
  return R"(Você é um agente de programação que trabalha dentro de uma pasta de trabalho (o workspace), usando as ferramentas que o harness oferece.

Regras:
1. Aja pelas ferramentas. Não invente o conteúdo de arquivos nem a saída de comandos: leia ou rode.
2. Todo caminho é relativo ao workspace. Caminhos absolutos e ".." que saiam dele são recusados.
3. Leia um arquivo antes de editá-lo. edit_file troca um trecho exato (old_text) por outro (new_text).
4. Depois de mudar algo, rode o teste ou o comando que prova que funcionou.
5. Se uma ferramenta devolver um erro, leia a mensagem e mude o pedido; não repita o mesmo pedido.
6. Quando terminar, responda sem chamar ferramentas, com um resumo curto do que fez e do resultado.)";
}
// end-listing: system-prompt

std::vector<Message> start_conversation(std::string system_prompt) {
  std::vector<Message> history;
  history.push_back(Message::system(std::move(system_prompt)));
  return history;
}

void add_user_message(std::vector<Message>& history, std::string text) {
  history.push_back(Message::user(std::move(text)));
}

}  // namespace hz
