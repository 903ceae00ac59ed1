#include "worker_pool.hpp"

namespace hz::mock::detail {

WorkerPool::WorkerPool(std::size_t max_threads, Relieve relieve)
    : max_threads_(max_threads), relieve_(std::move(relieve)) {
  relief_ = std::thread([this] { relieve_while_waiting(); });
}

WorkerPool::~WorkerPool() { shutdown(); }

void WorkerPool::enqueue(std::function<void()> task) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (shutting_down_) return;
  tasks_.push_back(std::move(task));
  // Cada tarefa na fila precisa de uma thread livre só para ela; se não há,
  // cria uma (a fila só cresce quando o teto já foi atingido).
  if (tasks_.size() > idle_ && threads_.size() < max_threads_) {
    threads_.emplace_back([this] { work(); });
  } else {
    ready_.notify_one();
    if (waiting() > 0) saturated_.notify_one();
  }
}

void WorkerPool::shutdown() {
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    shutting_down_ = true;
    threads.swap(threads_);
  }
  ready_.notify_all();
  saturated_.notify_all();
  if (relief_.joinable()) relief_.join();
  for (auto& thread : threads) thread.join();
}

void WorkerPool::relieve_while_waiting() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!shutting_down_) {
    const std::size_t count = waiting();
    if (count == 0) {
      saturated_.wait(lock, [this] { return shutting_down_ || waiting() > 0; });
      continue;
    }
    lock.unlock();
    relieve_(count);
    lock.lock();
    saturated_.wait_for(lock, kReliefInterval, [this] { return shutting_down_; });
  }
}

void WorkerPool::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    ++idle_;
    ready_.wait(lock, [this] { return !tasks_.empty() || shutting_down_; });
    --idle_;
    if (tasks_.empty()) return;  // parando e sem nada na fila
    auto task = std::move(tasks_.front());
    tasks_.pop_front();
    lock.unlock();
    task();
    lock.lock();
  }
}

}  // namespace hz::mock::detail
