// A conversa com a pessoa no terminal: a pergunta de confirmação antes de
// uma ferramenta agir e o chat linha a linha no stdin.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace hz::stage {

// Tudo o que vem do modelo ou de um cenário passa por hz::printable antes de
// chegar ao terminal: um ESC[2J apagaria a tela, um OSC 52 escreveria na área
// de transferência, um OSC 0 trocaria o título da janela.

// Escreve a pergunta em out e lê uma linha de in. "s", "sim", "y" ou "yes"
// (sem diferenciar maiúsculas) autorizam; qualquer outra coisa, ou fim da
// entrada, recusa. O nome e os argumentos (escolhidos pelo modelo) aparecem
// com os caracteres de controle escapados.
bool ask_permission(std::istream& in, std::ostream& out, std::string_view tool_name,
                    const nlohmann::json& args);

// O chat: mostra "você> " em out, lê uma linha de in e, se não for vazia,
// roda um turno com ela (turn devolve o código de saída do desfecho). Repete
// até o fim da entrada. Devolve o código do último turno (0 se nenhum).
int run_chat(std::istream& in, std::ostream& out,
             const std::function<int(const std::string&)>& turn);

// "você> TEXTO": a linha do usuário, como o chat a mostraria (o pedido pode
// vir de um cenário: caracteres de controle escapados).
std::string user_line(std::string_view text, bool color);

// A resposta final do modelo em out (o stdout): escapada, com uma quebra de
// linha no fim e flush. false se a escrita falhou (stdout fechado, disco
// cheio): a resposta se perdeu, e a etapa deve dizer isso e sair com 1.
bool write_answer(std::ostream& out, std::string_view text);

// Se 0, 1 ou 2 estiverem fechados, ocupa cada um com /dev/null aberto só no
// sentido contrário (leitura no 1 e no 2, escrita no 0). Sem isso, o primeiro
// arquivo ou socket aberto herdaria o número 1 e a resposta iria parar nele;
// assim, escrever no stdout fechado falha e write_answer percebe. Chame no
// começo do main, antes de abrir qualquer coisa.
void guard_standard_fds();

}  // namespace hz::stage
