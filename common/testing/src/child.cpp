#include "hz/testing/child.hpp"

#include <doctest/doctest.h>
#include <sys/wait.h>

#ifdef __linux__
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#endif

namespace hz::testing {

void tell(int fd, const std::string& text) {
  const std::string framed = text + "\n";
  (void)!write(fd, framed.data(), framed.size());
}

std::string read_until_closed(int fd) {
  std::string out;
  char buffer[4096];
  ssize_t n = 0;
  while ((n = read(fd, buffer, sizeof buffer)) > 0) out.append(buffer, static_cast<std::size_t>(n));
  return out;
}

std::string told_by_child(const std::function<void(int fd)>& body) {
  int pipe_fds[2];
  REQUIRE(pipe(pipe_fds) == 0);
  const pid_t child = fork_child([&] {
    close(pipe_fds[0]);
    body(pipe_fds[1]);
  });
  REQUIRE(child > 0);
  close(pipe_fds[1]);
  const std::string told = read_until_closed(pipe_fds[0]);
  close(pipe_fds[0]);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  return told;
}

bool fail_every_fdatasync() {
#ifdef __linux__
  sock_filter program[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, static_cast<std::uint32_t>(offsetof(seccomp_data, nr))),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_fdatasync, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EIO & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog filter{static_cast<unsigned short>(sizeof(program) / sizeof(program[0])), program};
  return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
         prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter) == 0;
#else
  return false;
#endif
}

}  // namespace hz::testing
