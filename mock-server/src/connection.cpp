#include "connection.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace hz::mock::detail {
namespace {

struct Endpoint {
  std::string address;
  int port = -1;
};

Endpoint endpoint_of(const sockaddr_storage& storage) {
  Endpoint endpoint;
  char text[INET6_ADDRSTRLEN] = {};
  if (storage.ss_family == AF_INET) {
    sockaddr_in v4{};
    std::memcpy(&v4, &storage, sizeof v4);
    inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
    endpoint.port = ntohs(v4.sin_port);
  } else if (storage.ss_family == AF_INET6) {
    sockaddr_in6 v6{};
    std::memcpy(&v6, &storage, sizeof v6);
    inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
    endpoint.port = ntohs(v6.sin6_port);
  }
  endpoint.address = text;
  return endpoint;
}

// Os descritores abertos do processo: /proc/self/fd no Linux, /dev/fd no macOS.
std::filesystem::path fd_directory() {
  std::error_code ec;
  if (std::filesystem::is_directory("/proc/self/fd", ec)) return "/proc/self/fd";
  return "/dev/fd";
}

// Chama on_socket(fd, local, peer) para cada socket conectado do processo;
// para quando on_socket devolve true.
template <class OnSocket>
void for_each_connected_socket(OnSocket on_socket) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(fd_directory(), ec)) {
    char* end = nullptr;
    const std::string name = entry.path().filename().string();
    const long fd = std::strtol(name.c_str(), &end, 10);
    if (end == name.c_str() || *end != '\0') continue;

    sockaddr_storage local{};
    sockaddr_storage peer{};
    socklen_t local_size = sizeof local;
    socklen_t peer_size = sizeof peer;
    const int descriptor = static_cast<int>(fd);
    if (getsockname(descriptor, reinterpret_cast<sockaddr*>(&local), &local_size) != 0) continue;
    if (getpeername(descriptor, reinterpret_cast<sockaddr*>(&peer), &peer_size) != 0) continue;
    if (on_socket(descriptor, endpoint_of(local), endpoint_of(peer))) return;
  }
}

}  // namespace

int find_connection(int local_port, const std::string& peer_addr, int peer_port) {
  int found = -1;
  for_each_connected_socket([&](int fd, const Endpoint& local, const Endpoint& remote) {
    if (local.port != local_port || remote.port != peer_port || remote.address != peer_addr) {
      return false;
    }
    found = fd;
    return true;
  });
  return found;
}

bool drop_connection(int local_port, const std::string& peer_addr, int peer_port) {
  const int fd = find_connection(local_port, peer_addr, peer_port);
  if (fd < 0) return false;
  ::shutdown(fd, SHUT_RDWR);
  return true;
}

bool peer_gone(int fd) {
  char byte = 0;
  const ssize_t n = ::recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  if (n > 0) return false;  // o cliente mandou mais alguma coisa: continua lá
  if (n == 0) return true;  // fim de arquivo: fechou
  return errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR;
}

int drop_server_connections(int local_port) {
  int dropped = 0;
  for_each_connected_socket([&](int fd, const Endpoint& local, const Endpoint&) {
    if (local.port == local_port) {
      ::shutdown(fd, SHUT_RDWR);
      ++dropped;
    }
    return false;
  });
  return dropped;
}

std::vector<ServerConnection> server_connections(int local_port) {
  std::vector<ServerConnection> found;
  for_each_connected_socket([&](int fd, const Endpoint& local, const Endpoint& remote) {
    if (local.port == local_port) found.push_back({fd, remote.address, remote.port});
    return false;
  });
  return found;
}

std::size_t unread_bytes(int fd) {
  int pending = 0;
  if (::ioctl(fd, FIONREAD, &pending) != 0 || pending < 0) return 0;
  return static_cast<std::size_t>(pending);
}

bool still_connected_to(int fd, const std::string& peer_addr, int peer_port) {
  sockaddr_storage peer{};
  socklen_t peer_size = sizeof peer;
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &peer_size) != 0) return false;
  const Endpoint remote = endpoint_of(peer);
  return remote.port == peer_port && remote.address == peer_addr;
}

}  // namespace hz::mock::detail
