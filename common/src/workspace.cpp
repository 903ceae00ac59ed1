#include "hz/workspace.hpp"

#include <deque>
#include <stdexcept>
#include <string>
#include <system_error>

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

}  // namespace

Workspace::Workspace(const fs::path& root) {
  std::error_code ec;
  root_ = fs::canonical(root, ec);
  if (ec || !fs::is_directory(root_)) {
    throw std::invalid_argument("workspace não é uma pasta existente: " + root.string());
  }
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

}  // namespace hz
