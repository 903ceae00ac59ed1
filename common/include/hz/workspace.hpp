// O workspace: a única pasta onde as ferramentas podem ler, escrever e rodar.
//
// Todo caminho vindo do modelo passa por resolve(): caminhos absolutos, ".."
// que saia da raiz e links simbólicos que apontem para fora são recusados
// com uma mensagem que vira texto para o modelo.
//
// Conferir um caminho e depois reabri-lo pelo nome deixa uma janela: outro
// processo pode trocar uma pasta por um link para fora entre a checagem e o
// uso. Por isso as ferramentas não reabrem nomes: place() confere com
// resolve() e abre a pasta do alvo a partir de um descritor da raiz, sem
// seguir link nenhum (o caminho já vem com os links resolvidos). Se um link
// aparecer no meio do caminho depois da checagem, a abertura falha em vez de
// sair da raiz. As ferramentas continuam dali com openat, renameat etc.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "hz/result.hpp"

namespace hz {

// Um descritor de arquivo com dono: fecha no destrutor. Só se move.
class FileDescriptor {
 public:
  FileDescriptor() = default;
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor();
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(other.release()) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept;
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int release();  // devolve o descritor e deixa de ser dono dele

 private:
  int fd_ = -1;
};

// O alvo de um caminho do modelo, preso à pasta que o contém.
struct Placed {
  FileDescriptor dir;  // a pasta do alvo, aberta (dentro do workspace)
  std::string name;    // o nome do alvo dentro de dir: um componente só; "." é a própria raiz
};

// Por que place() não entregou a pasta.
struct PlaceError {
  // 0: recusa de resolve() (fora da raiz, caminho absoluto...), com message pronta para o
  // modelo. Senão, o errno de abrir (ou criar) uma pasta do caminho, e message fica vazia:
  // ENOENT e ENOTDIR, uma pasta do caminho não existe; ELOOP e EXDEV, um link simbólico
  // apareceu no caminho depois da checagem (alguém mexe na pasta ao mesmo tempo).
  int error_number = 0;
  std::string message;
};

class Workspace {
 public:
  // Pré-condição: root existe e é um diretório. Guarda o caminho canônico e
  // um descritor aberto da raiz (compartilhado pelas cópias). Lança
  // std::invalid_argument se root não for uma pasta que dá para abrir.
  explicit Workspace(const std::filesystem::path& root);

  const std::filesystem::path& root() const { return root_; }

  // Caminho relativo do modelo -> caminho absoluto dentro da raiz.
  // O alvo não precisa existir (write_file cria arquivos novos), mas o
  // trecho que já existe é resolvido com links simbólicos seguidos.
  Result<std::filesystem::path> resolve(std::string_view relative) const;

  // resolve() e então abre a pasta do alvo a partir da raiz, componente a
  // componente e sem seguir links (no Linux, com openat2 e RESOLVE_BENEATH
  // quando o kernel tem). create_dirs: cria as pastas que faltarem
  // (write_file). O alvo em si não é aberto: quem chama usa openat(dir, name)
  // com O_NOFOLLOW, para que um link posto ali depois da checagem também falhe.
  Result<Placed, PlaceError> place(std::string_view relative, bool create_dirs) const;

 private:
  std::filesystem::path root_;
  std::shared_ptr<const FileDescriptor> root_fd_;
};

}  // namespace hz
