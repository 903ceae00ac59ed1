// O Ctrl-C de uma etapa (02 em diante).
//
// Durante um turno, o primeiro Ctrl-C só marca uma flag: o loop a lê entre
// tentativas e entre ferramentas (LoopConfig::cancel), o transporte a lê a
// cada 100 ms (CallOptions::should_abort) e o run_shell a lê a cada 50 ms
// (ShellOptions::cancel). O turno termina com `cancelled`, a conversa fica e
// o chat continua. Um segundo Ctrl-C antes de o turno terminar sai na hora
// (código 130). No prompt, Ctrl-C sai com 130, e o fim da entrada (Ctrl-D),
// com o código do último turno.
#pragma once

#include <atomic>
#include <functional>
#include <iosfwd>
#include <string>

namespace hz::stage {

// A flag que o tratador de SIGINT marca (um std::atomic<bool> sem trava: pode
// ser escrito de dentro de um tratador de sinal).
std::atomic<bool>& interrupt_flag();

// Instala o tratador de SIGINT. Sem SA_RESTART: um read() parado no prompt
// volta com erro e o chat percebe. Chame uma vez, no começo do main.
void install_interrupt_handler();

// O chat das etapas com Ctrl-C: mostra "você> " em out, lê uma linha de in e,
// se não for vazia, roda um turno com ela (turn devolve o código do
// desfecho). Depois de um turno interrompido (a flag marcada), desmarca a
// flag, limpa o estado de erro de in (um Ctrl-C no meio de uma pergunta de
// confirmação deixa a leitura falhada) e continua. Para quando a leitura
// falha: com a flag marcada (Ctrl-C no prompt), devolve 130; no fim da
// entrada, o código do último turno (0 se nenhum).
int run_interruptible_chat(std::istream& in, std::ostream& out, std::atomic<bool>& interrupted,
                           const std::function<int(const std::string&)>& turn);

// No chat, depois de um turno que terminou em cancelled: a linha que diz que
// a conversa continua e como sair (cor só com color).
void say_chat_goes_on(std::ostream& out, bool color);

}  // namespace hz::stage
