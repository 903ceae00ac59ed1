#include "worker_pool.hpp"

namespace hz::mock::detail {

WorkerPool::WorkerPool(std::size_t max_threads) : max_threads_(max_threads) {}

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
  for (auto& thread : threads) thread.join();
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
