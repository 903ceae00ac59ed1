#include "support.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>

namespace hz::mock::test {

RawReply raw_post(int port, const std::string& path, const std::string& body) {
  RawReply reply;
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  timeval timeout{5, 0};  // teto de segurança: um teste nunca fica preso aqui
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);

  const std::string request = "POST " + path +
                              " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                              "Content-Type: application/json\r\nContent-Length: " +
                              std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" +
                              body;
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
