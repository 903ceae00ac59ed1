// Quais conexões do mock estão ociosas, e derrubar as mais antigas quando as
// threads acabam.
//
// Cada conexão ocupa uma thread enquanto vive (WorkerPool), e o httplib 0.11.4
// segura uma conexão ociosa até o keep-alive vencer (5 s): com mais conexões
// ociosas do que threads, um pedido novo esperava segundos na fila (300
// ociosas: 4,8 s; 1.500: 24,8 s). Quando uma conexão nova não acha thread, o
// mock derruba as ociosas há mais tempo, como o nginx faz com as keep-alive
// quando faltam worker_connections. Ociosa é a conexão que não está no meio de
// um pedido (entre request_started e request_finished) e sem nenhum byte por
// ler: a que acabou um pedido e espera o próximo, a que conectou e nunca
// mandou nada, a que parou no meio do cabeçalho. Uma conexão no meio de um
// pedido (também um "hang" ou um streaming parado) nunca é derrubada, nem a
// que está ociosa há menos de kIdleGrace: a que acabou de conectar e ainda vai
// mandar o pedido, ou a que acabou de receber uma resposta.
//
// O risco que fica é o de todo servidor com keep-alive: o cliente que manda um
// pedido no mesmo instante em que a conexão dele cai vê a conexão derrubada.
// Só acontece com as threads esgotadas, e só com conexões paradas há kIdleGrace.
//
// Interno ao mock.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace hz::mock::detail {

// Quanto tempo uma conexão precisa estar ociosa para poder ser derrubada.
inline constexpr std::chrono::milliseconds kIdleGrace{200};

class IdleConnections {
 public:
  // `keep_alive`: o keep-alive do servidor. Uma conexão ociosa há mais que
  // isso já foi fechada pelo httplib, e o registro dela pode ser esquecido.
  explicit IdleConnections(std::chrono::seconds keep_alive) : keep_alive_(keep_alive) {}

  // O pedido de peer_addr:peer_port começou (já leu o cabeçalho) ou terminou
  // (a resposta foi escrita inteira).
  void request_started(const std::string& peer_addr, int peer_port);
  void request_finished(const std::string& peer_addr, int peer_port);

  // Derruba (shutdown) até `count` conexões aceitas em `local_port` e ociosas
  // há pelo menos kIdleGrace, as ociosas há mais tempo primeiro, e devolve
  // quantas derrubou. A thread de cada uma lê o fim da conexão e fica livre
  // para a próxima da fila. Uma conexão que nunca mandou pedido conta como
  // ociosa desde a primeira chamada que a viu.
  std::size_t drop_oldest(int local_port, std::size_t count);

 private:
  using Clock = std::chrono::steady_clock;
  using Peer = std::pair<std::string, int>;
  struct State {
    bool in_request = false;
    Clock::time_point idle_since;  // quando terminou o último pedido, ou quando foi vista
  };

  // Esquece as conexões ociosas há mais que o keep-alive, quando há muitas.
  void forget_closed(Clock::time_point now);

  const std::chrono::seconds keep_alive_;
  std::mutex mutex_;
  std::map<Peer, State> peers_;  // as conexões vistas; drop_oldest esquece as que fecharam
};

}  // namespace hz::mock::detail
