// Derrubar a conexão de um pedido sem responder nada (a falha "drop").
//
// O cpp-httplib 0.11.4 não entrega o socket ao handler e sempre escreve uma
// resposta. Para o cliente ver a conexão cair sem resposta, o mock acha o
// descritor da conexão pelo par de endereços e faz shutdown() nele; o que o
// httplib tentar escrever depois falha em silêncio (ele ignora SIGPIPE).
//
// Interno ao mock. Só é seguro chamar de dentro do handler do próprio pedido:
// enquanto o handler roda, a thread do httplib não fecha esse descritor, então
// ele não pode ter sido reaproveitado por outro arquivo.
#pragma once

#include <string>

namespace hz::mock::detail {

// Fecha (shutdown nos dois sentidos) o socket cuja ponta local usa
// `local_port` e cuja ponta remota é peer_addr:peer_port.
// Devolve false se não achou esse socket.
bool drop_connection(int local_port, const std::string& peer_addr, int peer_port);

// Faz shutdown em toda conexão aceita cuja ponta local usa `local_port` e
// devolve quantas achou. Para o stop(): o 0.11.4 espera cada conexão
// keep-alive ociosa até o keep_alive_timeout; com o shutdown, a thread dela
// lê fim de arquivo e sai na hora. Chame depois de fechar o socket de escuta
// (nenhuma conexão nova chega) e antes de esperar as threads do httplib.
int drop_server_connections(int local_port);

}  // namespace hz::mock::detail
