#include "idle_connections.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <vector>

#include "connection.hpp"

namespace hz::mock::detail {

void IdleConnections::request_started(const std::string& peer_addr, int peer_port) {
  std::lock_guard<std::mutex> lock(mutex_);
  peers_[{peer_addr, peer_port}].in_request = true;
}

void IdleConnections::request_finished(const std::string& peer_addr, int peer_port) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto now = Clock::now();
  peers_[{peer_addr, peer_port}] = {false, now};
  forget_closed(now);
}

void IdleConnections::forget_closed(Clock::time_point now) {
  // Sem isto, cada conexão que já passou pelo mock ficaria no mapa até as threads acabarem.
  constexpr std::size_t kForgetAbove = 1024;
  if (peers_.size() <= kForgetAbove) return;
  std::erase_if(peers_, [&](const auto& entry) {
    return !entry.second.in_request && now - entry.second.idle_since > keep_alive_;
  });
}

std::size_t IdleConnections::drop_oldest(int local_port, std::size_t count) {
  struct Candidate {
    Clock::time_point idle_since;
    ServerConnection connection;
  };
  std::vector<Candidate> idle;
  std::map<Peer, State> alive;
  std::lock_guard<std::mutex> lock(mutex_);
  const auto now = Clock::now();
  for (auto& connection : server_connections(local_port)) {
    Peer peer{connection.peer_addr, connection.peer_port};
    auto seen = peers_.find(peer);
    const State state = seen == peers_.end() ? State{false, now} : seen->second;
    alive.emplace(std::move(peer), state);
    if (state.in_request || now - state.idle_since < kIdleGrace) continue;
    if (unread_bytes(connection.fd) > 0) continue;  // um pedido está chegando
    idle.push_back({state.idle_since, std::move(connection)});
  }
  peers_.swap(alive);

  std::sort(idle.begin(), idle.end(),
            [](const Candidate& a, const Candidate& b) { return a.idle_since < b.idle_since; });
  std::size_t dropped = 0;
  for (const auto& candidate : idle) {
    if (dropped == count) break;
    const ServerConnection& connection = candidate.connection;
    if (!still_connected_to(connection.fd, connection.peer_addr, connection.peer_port)) continue;
    ::shutdown(connection.fd, SHUT_RDWR);
    peers_.erase({connection.peer_addr, connection.peer_port});
    ++dropped;
  }
  return dropped;
}

}  // namespace hz::mock::detail
