#include <doctest/doctest.h>

#include <filesystem>

#include "hz/testing/temp_dir.hpp"
#include "hz/workspace.hpp"

namespace fs = std::filesystem;
using hz::testing::TempDir;

namespace {

std::string error_of(const hz::Workspace& workspace, std::string_view path) {
  auto resolved = workspace.resolve(path);
  REQUIRE_FALSE(resolved.ok());
  return resolved.error().message;
}

}  // namespace

TEST_CASE("workspace resolve caminhos relativos dentro da raiz") {
  TempDir dir;
  dir.write("src/main.cpp", "int main() {}\n");
  const hz::Workspace workspace(dir.path());
  CHECK(*workspace.resolve("src/main.cpp") == dir.path() / "src/main.cpp");
  CHECK(*workspace.resolve("./src/../src/main.cpp") == dir.path() / "src/main.cpp");
  CHECK(*workspace.resolve("") == dir.path());
  CHECK(*workspace.resolve(".") == dir.path());
  CHECK(*workspace.resolve("src/") == dir.path() / "src");
}

TEST_CASE("workspace aceita arquivo novo em pasta que ainda não existe") {
  TempDir dir;
  const hz::Workspace workspace(dir.path());
  CHECK(*workspace.resolve("novo/sub/arquivo.txt") == dir.path() / "novo/sub/arquivo.txt");
}

TEST_CASE("workspace recusa .. que sai da raiz") {
  TempDir dir;
  const hz::Workspace workspace(dir.path());
  CHECK(error_of(workspace, "../x") == "caminho fora do workspace: ../x");
  CHECK(error_of(workspace, "a/../../x") == "caminho fora do workspace: a/../../x");
  CHECK(error_of(workspace, "..") == "caminho fora do workspace: ..");
}

TEST_CASE("workspace recusa caminhos absolutos") {
  TempDir dir;
  const hz::Workspace workspace(dir.path());
  CHECK(error_of(workspace, "/etc/passwd") ==
        "caminho absoluto não é permitido: /etc/passwd (use um caminho relativo à raiz do "
        "workspace)");
}

TEST_CASE("workspace recusa link simbólico que aponta para fora") {
  TempDir outside;
  outside.write("segredo.txt", "senha");
  TempDir dir;
  fs::create_directory_symlink(outside.path(), dir / "saida");
  fs::create_symlink(outside / "segredo.txt", dir / "atalho.txt");
  fs::create_symlink("../fora-nao-existe.txt", dir / "quebrado.txt");
  const hz::Workspace workspace(dir.path());
  CHECK(error_of(workspace, "saida/segredo.txt") ==
        "caminho fora do workspace: saida/segredo.txt (um link simbólico aponta para fora)");
  CHECK(error_of(workspace, "saida/novo.txt") ==
        "caminho fora do workspace: saida/novo.txt (um link simbólico aponta para fora)");
  CHECK(error_of(workspace, "atalho.txt") ==
        "caminho fora do workspace: atalho.txt (um link simbólico aponta para fora)");
  // Um link quebrado também conta: escrever nele criaria o arquivo lá fora.
  CHECK(error_of(workspace, "quebrado.txt") ==
        "caminho fora do workspace: quebrado.txt (um link simbólico aponta para fora)");
}

TEST_CASE("workspace aceita link simbólico que fica dentro da raiz") {
  TempDir dir;
  dir.write("dados/real.txt", "x");
  fs::create_directory_symlink("dados", dir / "atalho");
  const hz::Workspace workspace(dir.path());
  CHECK(*workspace.resolve("atalho/real.txt") == dir.path() / "dados/real.txt");
  CHECK(*workspace.resolve("atalho/../dados/real.txt") == dir.path() / "dados/real.txt");
}

TEST_CASE("workspace recusa laço de links simbólicos") {
  TempDir dir;
  fs::create_symlink("b", dir / "a");
  fs::create_symlink("a", dir / "b");
  const hz::Workspace workspace(dir.path());
  CHECK(error_of(workspace, "a") == "links simbólicos demais ao resolver: a");
}

TEST_CASE("workspace guarda a raiz canônica") {
  TempDir dir;
  fs::create_directory(dir / "raiz");
  const hz::Workspace workspace(dir / "raiz/../raiz");
  CHECK(workspace.root() == dir.path() / "raiz");
}

TEST_CASE("workspace com raiz inexistente lança na construção") {
  TempDir dir;
  CHECK_THROWS_WITH(
      hz::Workspace(dir / "nao-existe"),
      ("workspace não é uma pasta existente: " + (dir / "nao-existe").string()).c_str());
}
