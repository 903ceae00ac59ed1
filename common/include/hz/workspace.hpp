// O workspace: a única pasta onde as ferramentas podem ler, escrever e rodar.
//
// Todo caminho vindo do modelo passa por resolve(): caminhos absolutos, ".."
// que saia da raiz e links simbólicos que apontem para fora são recusados
// com uma mensagem que vira texto para o modelo.
#pragma once

#include <filesystem>
#include <string_view>

#include "hz/result.hpp"

namespace hz {

class Workspace {
 public:
  // Pré-condição: root existe e é um diretório. Guarda o caminho canônico.
  explicit Workspace(const std::filesystem::path& root);

  const std::filesystem::path& root() const { return root_; }

  // Caminho relativo do modelo -> caminho absoluto dentro da raiz.
  // O alvo não precisa existir (write_file cria arquivos novos), mas o
  // trecho que já existe é resolvido com links simbólicos seguidos.
  Result<std::filesystem::path> resolve(std::string_view relative) const;

 private:
  std::filesystem::path root_;
};

}  // namespace hz
