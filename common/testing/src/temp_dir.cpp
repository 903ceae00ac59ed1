#include "hz/testing/temp_dir.hpp"

#include <stdlib.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <utility>
#include <vector>

namespace hz::testing {

namespace fs = std::filesystem;

TempDir::TempDir(std::string_view prefix) {
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string pattern = (base / (std::string(prefix) + "-XXXXXX")).string();
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (mkdtemp(buffer.data()) == nullptr) {
    throw std::runtime_error("não foi possível criar a pasta temporária " + pattern);
  }
  // Canônico: /tmp pode ser um link, e o Workspace compara caminhos canônicos.
  path_ = fs::canonical(fs::path(buffer.data()));
}

TempDir::~TempDir() {
  if (path_.empty()) return;
  std::error_code ec;
  fs::remove_all(path_, ec);
}

TempDir::TempDir(TempDir&& other) noexcept : path_(std::exchange(other.path_, {})) {}

TempDir& TempDir::operator=(TempDir&& other) noexcept {
  if (this != &other) {
    if (!path_.empty()) {
      std::error_code ec;
      fs::remove_all(path_, ec);
    }
    path_ = std::exchange(other.path_, {});
  }
  return *this;
}

fs::path TempDir::operator/(std::string_view relative) const {
  return path_ / fs::path(std::string(relative));
}

fs::path TempDir::write(std::string_view relative, std::string_view content) const {
  const fs::path file = *this / relative;
  fs::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  if (!out) throw std::runtime_error("não foi possível escrever " + file.string());
  return file;
}

std::string TempDir::read(std::string_view relative) const {
  const fs::path file = *this / relative;
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("não foi possível ler " + file.string());
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return std::move(buffer).str();
}

}  // namespace hz::testing
