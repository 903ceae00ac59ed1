// Um servidor HTTP de verdade, mínimo, para o que o mock não faz: corpo sem
// fim, bytes pingando devagar, silêncio no meio da resposta, cabeçalhos
// escolhidos, SSE escrito à mão.
//
// Uso: registre as rotas em http() e chame start(). Handlers que esperam
// (silêncio, gotejamento) usam wait_for_stop(), que o destrutor acorda antes
// de parar o servidor. Crie o servidor antes do cliente: o cliente, destruído
// primeiro, fecha as conexões e o stop() não espera o keep-alive.
#pragma once

#include <doctest/doctest.h>
#include <httplib.h>

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

}  // namespace hz::testing
