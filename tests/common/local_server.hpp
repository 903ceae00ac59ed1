// Um servidor HTTP de verdade, mínimo, para o que o mock não faz: corpo sem
// fim, bytes pingando devagar, silêncio no meio da resposta, cabeçalhos
// escolhidos, SSE escrito à mão.
//
// Uso: registre as rotas em http() e chame start(). Handlers que esperam
// (silêncio, gotejamento) usam wait_for_stop(), que o destrutor acorda antes
// de parar o servidor. Crie o servidor antes do cliente: o cliente, destruído
// primeiro, fecha as conexões e o stop() não espera o keep-alive.
#pragma once

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace hz::testing {

class LocalServer {
 public:
  LocalServer() { server_.set_tcp_nodelay(true); }
  ~LocalServer() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    server_.stop();
    if (thread_.joinable()) thread_.join();
  }
  LocalServer(const LocalServer&) = delete;
  LocalServer& operator=(const LocalServer&) = delete;

  httplib::Server& http() { return server_; }

  void start() {
    port_ = server_.bind_to_any_port("127.0.0.1");
    REQUIRE(port_ > 0);
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::yield();
  }

  std::string url(std::string_view path = "") const {
    return "http://127.0.0.1:" + std::to_string(port_) + std::string(path);
  }
  int port() const { return port_; }

  // Espera até o servidor parar ou o tempo passar; devolve true se ele parou.
  bool wait_for_stop(std::chrono::milliseconds limit) {
    std::unique_lock<std::mutex> lock(mutex_);
    return wake_.wait_for(lock, limit, [this] { return stopping_; });
  }

 private:
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
};

// Um socket TCP cru em 127.0.0.1, numa porta efêmera, para o que nem o
// LocalServer faz: uma porta fechada, uma fila que ninguém aceita, um reset.
struct LoopbackSocket {
  int fd;
  int port;
};

// Com listen(backlog) quando backlog > 0; sem, o socket só ocupa a porta (fechado
// em seguida, ela fica sem ninguém escutando).
inline LoopbackSocket loopback_socket(int backlog) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  if (backlog > 0) REQUIRE(listen(fd, backlog) == 0);
  socklen_t length = sizeof address;
  REQUIRE(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0);
  return {fd, ntohs(address.sin_port)};
}

}  // namespace hz::testing
