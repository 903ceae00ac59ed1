// O Ctrl-C e os outros sinais de fim de uma etapa (02 em diante).
//
// SIGINT (Ctrl-C), SIGTERM (kill, timeout, a parada de um contêiner) e SIGHUP
// (o terminal fechou) têm o mesmo tratador. Durante um turno, o primeiro só
// marca uma flag: o loop a lê entre tentativas e entre ferramentas
// (LoopConfig::cancel), o transporte a lê a cada 100 ms
// (CallOptions::should_abort) e o run_shell a lê a cada 50 ms
// (ShellOptions::cancel) e encerra o comando em curso. O turno termina com
// `cancelled`, e o código de saída é 128 + o número do sinal: 130 (SIGINT),
// 143 (SIGTERM), 129 (SIGHUP). Depois de um Ctrl-C, a conversa fica e o chat
// continua; depois de SIGTERM ou SIGHUP, o programa sai. Um segundo sinal
// antes de o turno terminar mata os comandos em curso e sai na hora. No
// prompt, o sinal sai com 128 + N, e o fim da entrada (Ctrl-D), com o código
// do último turno.
#pragma once

#include <atomic>
#include <functional>
#include <iosfwd>
#include <string>

namespace hz::stage {

// A flag que o tratador marca (um std::atomic<bool> sem trava: pode ser
// escrito de dentro de um tratador de sinal).
std::atomic<bool>& interrupt_flag();

// Instala o tratador de SIGINT, SIGTERM e SIGHUP. Sem SA_RESTART: um read()
// parado no prompt volta com erro e o chat percebe. Chame uma vez, no começo
// do main.
void install_interrupt_handler();

// O código de saída de um turno cancelado: 128 + o sinal que marcou a flag
// (130 se nenhum sinal a marcou).
int cancelled_exit_code();

// Depois de um turno cancelado: a conversa continua? Sim depois de um Ctrl-C;
// não depois de SIGTERM ou SIGHUP, que pedem o fim do programa.
bool chat_goes_on();

// O chat das etapas com Ctrl-C: mostra "você> " em out, lê uma linha de in e,
// se não for vazia, roda um turno com ela (turn devolve o código do
// desfecho). Depois de um turno interrompido por Ctrl-C (a flag marcada),
// desmarca a flag, limpa o estado de erro de in (um Ctrl-C no meio de uma
// pergunta de confirmação deixa a leitura falhada) e continua; por SIGTERM
// ou SIGHUP, devolve o código do turno. Para quando a leitura falha: com a
// flag marcada (um sinal no prompt), devolve cancelled_exit_code(); no fim
// da entrada, o código do último turno (0 se nenhum).
int run_interruptible_chat(std::istream& in, std::ostream& out, std::atomic<bool>& interrupted,
                           const std::function<int(const std::string&)>& turn);

// No chat, depois de um turno que terminou em cancelled: a linha que diz que
// a conversa continua e como sair (cor só com color).
void say_chat_goes_on(std::ostream& out, bool color);

}  // namespace hz::stage
