#include "hz/workspace.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#if defined(__linux__) && __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#include <sys/syscall.h>
#if defined(SYS_openat2)
#define HZ_HAVE_OPENAT2 1
#endif
#endif

namespace hz {

namespace fs = std::filesystem;

namespace {

// Limite de links seguidos, como o ELOOP do kernel: evita laços a->b->a.
constexpr int kMaxSymlinks = 40;

bool inside(const fs::path& path, const fs::path& root) {
  const fs::path rel = path.lexically_relative(root);
  if (rel.empty()) return false;
  if (rel == ".") return true;
  return *rel.begin() != "..";
}

void push_front_components(std::deque<fs::path>& pending, const fs::path& path) {
  std::deque<fs::path> parts;
  for (const fs::path& part : path.relative_path()) parts.push_back(part);
  pending.insert(pending.begin(), parts.begin(), parts.end());
}

constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

#ifdef HZ_HAVE_OPENAT2
// Falso depois do primeiro ENOSYS (kernel antes do 5.6, ou um seccomp que não
// conhece a chamada): daí em diante só o caminho componente a componente.
std::atomic<bool> openat2_available{true};

// O kernel resolve tudo de uma vez e garante que nada sai de dir_fd. -1 com
// errno; ENOSYS (e EPERM, EINVAL, EAGAIN) quer dizer "tente o outro caminho".
int open_dir_openat2(int dir_fd, const std::string& relative) {
  open_how how{};
  how.flags = static_cast<std::uint64_t>(kDirFlags);
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  const long fd = syscall(SYS_openat2, dir_fd, relative.c_str(), &how, sizeof how);
  if (fd < 0 && errno == ENOSYS) openat2_available.store(false, std::memory_order_relaxed);
  return static_cast<int>(fd);
}
#endif

// O caminho portátil (macOS, kernels antigos): um openat por componente, cada
// um com O_NOFOLLOW a partir do descritor anterior. Com create, cria o que
// faltar (mkdirat) e abre em seguida, também sem seguir links.
Result<FileDescriptor, int> open_dir_by_components(int root_fd,
                                                   const std::vector<std::string>& parts,
                                                   bool create) {
  FileDescriptor current(fcntl(root_fd, F_DUPFD_CLOEXEC, 0));
  if (!current.valid()) return errno;
  for (const std::string& part : parts) {
    int next = openat(current.get(), part.c_str(), kDirFlags);
    if (next < 0 && errno == ENOENT && create) {
      if (mkdirat(current.get(), part.c_str(), 0777) != 0 && errno != EEXIST) return errno;
      next = openat(current.get(), part.c_str(), kDirFlags);
    }
    if (next < 0) return errno;
    current = FileDescriptor(next);
  }
  return current;
}

// Abre root_fd/parts[0]/parts[1]/... sem seguir links e sem sair de root_fd.
Result<FileDescriptor, int> open_dir_beneath(int root_fd, const std::vector<std::string>& parts,
                                             bool create) {
#ifdef HZ_HAVE_OPENAT2
  if (!parts.empty() && openat2_available.load(std::memory_order_relaxed)) {
    std::string relative;
    for (const std::string& part : parts) relative += (relative.empty() ? "" : "/") + part;
    const int fd = open_dir_openat2(root_fd, relative);
    if (fd >= 0) return FileDescriptor(fd);
    const int error = errno;
    const bool retry_by_components = error == ENOSYS || error == EPERM || error == EINVAL ||
                                     error == EAGAIN || (error == ENOENT && create);
    if (!retry_by_components) return error;
  }
#endif
  return open_dir_by_components(root_fd, parts, create);
}

}  // namespace

FileDescriptor::~FileDescriptor() {
  if (fd_ >= 0) close(fd_);
}

FileDescriptor& FileDescriptor::operator=(FileDescriptor&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = other.release();
  }
  return *this;
}

int FileDescriptor::release() {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

Workspace::Workspace(const fs::path& root) {
  std::error_code ec;
  root_ = fs::canonical(root, ec);
  if (ec || !fs::is_directory(root_)) {
    throw std::invalid_argument("workspace não é uma pasta existente: " + root.string());
  }
  const int fd = open(root_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    throw std::invalid_argument("não foi possível abrir o workspace: " + root.string() + ": " +
                                std::error_code(errno, std::generic_category()).message());
  }
  root_fd_ = std::make_shared<const FileDescriptor>(fd);
}

Result<fs::path> Workspace::resolve(std::string_view relative) const {
  const std::string shown(relative);
  if (relative.find('\0') != std::string_view::npos) {
    return Error{"caminho inválido (contém byte nulo): " + shown};
  }
  const fs::path requested(shown);
  if (requested.has_root_directory() || requested.has_root_name()) {
    return Error{"caminho absoluto não é permitido: " + shown +
                 " (use um caminho relativo à raiz do workspace)"};
  }

  // Primeiro a checagem léxica: "a/../../x" sai da raiz mesmo que "a" não exista.
  int depth = 0;
  for (const fs::path& part : requested) {
    if (part == "..") {
      if (--depth < 0) return Error{"caminho fora do workspace: " + shown};
    } else if (!part.empty() && part != ".") {
      ++depth;
    }
  }

  // Depois, a resolução física, componente a componente, como o realpath(3),
  // mas aceitando um final que ainda não existe. Um link (mesmo quebrado) é
  // seguido até o destino: escrever por um link quebrado criaria o arquivo lá.
  std::deque<fs::path> pending;
  push_front_components(pending, requested);
  fs::path resolved = root_;
  int links = 0;
  bool through_link = false;
  while (!pending.empty()) {
    const fs::path part = pending.front();
    pending.pop_front();
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      resolved = resolved.parent_path();
      continue;
    }
    fs::path next = resolved / part;
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(next, ec);
    if (!ec && fs::is_symlink(status)) {
      if (++links > kMaxSymlinks) {
        return Error{"links simbólicos demais ao resolver: " + shown};
      }
      const fs::path target = fs::read_symlink(next, ec);
      if (ec) return Error{"não foi possível ler o link simbólico: " + shown};
      through_link = true;
      if (target.is_absolute()) resolved = target.root_path();
      push_front_components(pending, target);
      continue;
    }
    resolved = std::move(next);
  }

  if (!inside(resolved, root_)) {
    if (through_link) {
      return Error{"caminho fora do workspace: " + shown + " (um link simbólico aponta para fora)"};
    }
    return Error{"caminho fora do workspace: " + shown};
  }
  return resolved;
}

Result<Placed, PlaceError> Workspace::place(std::string_view relative, bool create_dirs) const {
  auto resolved = resolve(relative);
  if (!resolved) return PlaceError{0, resolved.error().message};
  // resolve() devolve um caminho sem links e sem "..": cada componente é um
  // nome de verdade dentro da pasta anterior. Um link que apareça nele agora
  // só pode ser obra de alguém mexendo na pasta ao mesmo tempo.
  std::vector<std::string> parts;
  for (const fs::path& part : resolved->lexically_relative(root_)) {
    if (!part.empty() && part != ".") parts.push_back(part.string());
  }
  std::string name = ".";
  if (!parts.empty()) {
    name = std::move(parts.back());
    parts.pop_back();
  }
  auto dir = open_dir_beneath(root_fd_->get(), parts, create_dirs);
  if (!dir) return PlaceError{dir.error(), {}};
  return Placed{std::move(dir).value(), std::move(name)};
}

}  // namespace hz
