// As threads que atendem as conexões do mock (o TaskQueue do httplib).
//
// O padrão do httplib 0.11.4 é um ThreadPool fixo de 8 threads, e cada
// conexão ocupa uma thread enquanto vive: um pedido "hang", uma conexão
// keep-alive ociosa (até 5 s) ou um cliente que manda o pedido pela metade
// (até o read timeout) prendem uma thread cada. Oito deles e ninguém mais é
// atendido, nem o /hz/failures. Este pool cresce sob demanda: cada conexão
// nova pega uma thread livre ou ganha uma nova, até `max_threads`; só além
// disso ela espera na fila. Enquanto alguma espera, o pool chama `relieve`
// a cada kReliefInterval com quantas esperam: o mock derruba aí as conexões
// ociosas (IdleConnections), e as threads delas atendem a fila.
//
// Interno ao mock.
#pragma once

#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace hz::mock::detail {

inline constexpr std::chrono::milliseconds kReliefInterval{50};

class WorkerPool final : public httplib::TaskQueue {
 public:
  using Relieve = std::function<void(std::size_t waiting)>;

  WorkerPool(std::size_t max_threads, Relieve relieve);
  ~WorkerPool() override;  // chama shutdown()
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void enqueue(std::function<void()> task) override;
  // Espera as tarefas na fila e as em andamento terminarem; depois não aceita mais nada.
  void shutdown() override;

 private:
  void work();
  void relieve_while_waiting();
  std::size_t waiting() const { return tasks_.size() > idle_ ? tasks_.size() - idle_ : 0; }

  const std::size_t max_threads_;
  const Relieve relieve_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::condition_variable saturated_;  // acorda relief_: uma tarefa ficou sem thread
  std::deque<std::function<void()>> tasks_;
  std::vector<std::thread> threads_;
  std::thread relief_;    // chama relieve_ enquanto há tarefas esperando
  std::size_t idle_ = 0;  // threads esperando tarefa
  bool shutting_down_ = false;
};

}  // namespace hz::mock::detail
