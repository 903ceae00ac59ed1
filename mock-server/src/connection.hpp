// Achar e derrubar a conexão de um pedido (a falha "drop"), e saber se o
// cliente dela já desistiu (as falhas que esperam: "hang", "stall_stream").
//
// O cpp-httplib 0.11.4 não entrega o socket ao handler e sempre escreve uma
// resposta. Para o cliente ver a conexão cair sem resposta, o mock acha o
// descritor da conexão pelo par de endereços e faz shutdown() nele; o que o
// httplib tentar escrever depois falha em silêncio (ele ignora SIGPIPE).
//
// Interno ao mock. Só é seguro usar o descritor de dentro do handler do próprio
// pedido (ou do provedor de conteúdo da resposta dele): enquanto eles rodam, a
// thread do httplib não fecha esse descritor, então ele não pode ter sido
// reaproveitado por outro arquivo.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace hz::mock::detail {

// O descritor do socket cuja ponta local usa `local_port` e cuja ponta remota
// é peer_addr:peer_port, ou -1 se não achou.
int find_connection(int local_port, const std::string& peer_addr, int peer_port);

// Fecha (shutdown nos dois sentidos) o socket de find_connection.
// Devolve false se não achou esse socket.
bool drop_connection(int local_port, const std::string& peer_addr, int peer_port);

// O cliente do outro lado de `fd` já fechou ou derrubou a conexão? Não
// consome nada: só espia (MSG_PEEK) sem esperar.
bool peer_gone(int fd);

// Faz shutdown em toda conexão aceita cuja ponta local usa `local_port` e
// devolve quantas achou. Para o stop(): o 0.11.4 espera cada conexão
// keep-alive ociosa até o keep_alive_timeout; com o shutdown, a thread dela
// lê fim de arquivo e sai na hora. Chame depois de fechar o socket de escuta
// (nenhuma conexão nova chega) e antes de esperar as threads do httplib.
int drop_server_connections(int local_port);

// Uma conexão aceita pelo servidor: o descritor e quem está do outro lado.
struct ServerConnection {
  int fd = -1;
  std::string peer_addr;
  int peer_port = -1;
};

// As conexões aceitas cuja ponta local usa `local_port`, neste instante.
std::vector<ServerConnection> server_connections(int local_port);

// Quantos bytes já chegaram a `fd` e ninguém leu (0 se não deu para saber).
std::size_t unread_bytes(int fd);

// O cliente do outro lado de `fd` ainda é peer_addr:peer_port? Confere, logo
// antes de derrubar, que o descritor não foi fechado e reaproveitado por outra
// conexão desde server_connections.
bool still_connected_to(int fd, const std::string& peer_addr, int peer_port);

}  // namespace hz::mock::detail
