#include "support.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>

namespace hz::mock::test {

namespace {

int connect_loopback(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  return fd;
}

}  // namespace

std::string post_text(const std::string& path, const std::string& body, bool close) {
  return "POST " + path +
         " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
         "Content-Type: application/json\r\nContent-Length: " +
         std::to_string(body.size()) + (close ? "\r\nConnection: close" : "") + "\r\n\r\n" + body;
}

RawReply raw_post(int port, const std::string& path, const std::string& body) {
  RawReply reply;
  int fd = connect_loopback(port);
  timeval timeout{5, 0};  // teto de segurança: um teste nunca fica preso aqui
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  const std::string request = post_text(path, body);
  REQUIRE(::send(fd, request.data(), request.size(), MSG_NOSIGNAL) ==
          static_cast<ssize_t>(request.size()));
  char buffer[4096];
  while (true) {
    ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n > 0) {
      reply.bytes.append(buffer, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    reply.reset = n < 0;
    break;
  }
  ::close(fd);
  return reply;
}

RawConnection::RawConnection(int port) : fd_(connect_loopback(port)) {}

RawConnection::~RawConnection() {
  if (fd_ >= 0) ::close(fd_);
}

void RawConnection::reset() {
  linger abort_on_close{1, 0};
  setsockopt(fd_, SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof abort_on_close);
  ::close(fd_);
  fd_ = -1;
}

void RawConnection::send(const std::string& bytes) {
  REQUIRE(::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
          static_cast<ssize_t>(bytes.size()));
}

long RawConnection::receive(int timeout_ms) {
  pollfd ready{fd_, POLLIN, 0};
  int polled = 0;
  do {
    polled = ::poll(&ready, 1, timeout_ms);
  } while (polled < 0 && errno == EINTR);
  if (polled == 0) return -2;
  char buffer[4096];
  ssize_t n = 0;
  do {
    n = ::recv(fd_, buffer, sizeof buffer, 0);
  } while (n < 0 && errno == EINTR);
  if (n > 0) bytes_.append(buffer, static_cast<std::size_t>(n));
  return n < 0 ? -1 : static_cast<long>(n);
}

bool RawConnection::read_until(const std::string& marker, int timeout_ms, int times) {
  auto seen = [&] {
    int count = 0;
    for (auto at = bytes_.find(marker); at != std::string::npos;
         at = bytes_.find(marker, at + marker.size())) {
      ++count;
    }
    return count;
  };
  while (seen() < times) {
    if (receive(timeout_ms) <= 0) return false;
  }
  return true;
}

RawConnection::End RawConnection::read_to_end(int timeout_ms) {
  while (true) {
    const long n = receive(timeout_ms);
    if (n == 0) return End::eof;
    if (n == -1) return End::reset;
    if (n == -2) return End::timeout;
  }
}

std::vector<std::string> sse_data(const std::string& body) {
  std::vector<std::string> data;
  std::size_t start = 0;
  while (start < body.size()) {
    std::size_t end = body.find("\n\n", start);
    INFO("evento sem \\n\\n no fim: ", body.substr(start));
    REQUIRE(end != std::string::npos);
    std::string event = body.substr(start, end - start);
    INFO("evento: ", event);
    REQUIRE(event.rfind("data: ", 0) == 0);
    REQUIRE(event.find('\n') == std::string::npos);
    data.push_back(event.substr(6));
    start = end + 2;
  }
  return data;
}

std::string raw_body(const std::string& bytes) {
  std::size_t head_end = bytes.find("\r\n\r\n");
  if (head_end == std::string::npos) return "";
  const std::string head = bytes.substr(0, head_end);
  std::string rest = bytes.substr(head_end + 4);
  if (head.find("Transfer-Encoding: chunked") == std::string::npos) return rest;
  std::string body;
  std::size_t pos = 0;
  while (pos < rest.size()) {
    std::size_t line_end = rest.find("\r\n", pos);
    if (line_end == std::string::npos) break;
    std::size_t size = std::stoul(rest.substr(pos, line_end - pos), nullptr, 16);
    if (size == 0) break;
    body += rest.substr(line_end + 2, size);
    pos = line_end + 2 + size + 2;
  }
  return body;
}

}  // namespace hz::mock::test
