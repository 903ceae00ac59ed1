// Uma pasta temporária nova que se apaga sozinha (RAII).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace hz::testing {

class TempDir {
 public:
  // Cria <tmp>/<prefix>-XXXXXX. Lança std::runtime_error se não conseguir.
  explicit TempDir(std::string_view prefix = "hz-teste");
  ~TempDir();  // remove a árvore inteira, ignorando erros
  TempDir(TempDir&& other) noexcept;
  TempDir& operator=(TempDir&& other) noexcept;
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // path() / relative
  std::filesystem::path operator/(std::string_view relative) const;

  // Escreve (criando as pastas do caminho) e devolve o caminho completo.
  std::filesystem::path write(std::string_view relative, std::string_view content) const;
  // Conteúdo do arquivo; lança std::runtime_error se não existir.
  std::string read(std::string_view relative) const;

 private:
  std::filesystem::path path_;
};

}  // namespace hz::testing
