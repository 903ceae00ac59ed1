#include "hz/mock/embedded.hpp"

#include <stdlib.h>  // mkdtemp (POSIX)

#include <algorithm>
#include <string>
#include <system_error>
#include <vector>

namespace hz::mock {
namespace {

namespace fs = std::filesystem;

// Os nomes que --scenario aceita: os .json da pasta e das subpastas
// ("brakes/budget", "examples/streaming"), sem as fixtures de workspaces/
// (que são projetos, não cenários). Primeiro os da raiz, depois os das
// subpastas, cada grupo em ordem alfabética.
std::vector<std::string> available_names() {
  std::vector<std::string> top;
  std::vector<std::string> nested;
  std::error_code ec;
  const fs::path root = scenario_dir();
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    const fs::path rel = it->path().lexically_relative(root);
    if (it->is_directory(ec) && rel == "workspaces") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->path().extension() != ".json" || !it->is_regular_file(ec)) continue;
    std::string name = (rel.parent_path() / rel.stem()).generic_string();
    (rel.has_parent_path() ? nested : top).push_back(std::move(name));
  }
  std::sort(top.begin(), top.end());
  std::sort(nested.begin(), nested.end());
  top.insert(top.end(), nested.begin(), nested.end());
  return top;
}

bool is_file(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

// Copia a árvore sem seguir links simbólicos (um link na fixture continua
// link na cópia) e repete as permissões de cada arquivo e pasta.
std::optional<Error> copy_tree(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(from, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    const fs::path target = to / fs::relative(it->path(), from, ec);
    if (ec) break;
    const fs::file_status status = it->symlink_status(ec);
    if (ec) break;
    if (fs::is_symlink(status)) {
      fs::copy_symlink(it->path(), target, ec);
    } else if (fs::is_directory(status)) {
      fs::create_directory(target, ec);
    } else {
      fs::copy_file(it->path(), target, fs::copy_options::overwrite_existing, ec);
    }
    if (!ec && !fs::is_symlink(status)) fs::permissions(target, status.permissions(), ec);
    if (ec) break;
  }
  if (ec) {
    return Error{"não consegui copiar a fixture " + from.string() + " para " + to.string() + ": " +
                 ec.message()};
  }
  return std::nullopt;
}

}  // namespace

// Instalado (cmake --install, veja cmake/HzInstall.cmake), o hz-mock leva os
// cenários em <prefixo>/share/harness-zero/scenarios, ao lado de <prefixo>/bin;
// no build, eles ficam na pasta do código-fonte. /proc/self/exe só existe no
// Linux: nos outros sistemas, vale a pasta do código-fonte.
fs::path scenario_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path installed = exe.parent_path().parent_path() / "share" / "harness-zero" / "scenarios";
    if (fs::is_directory(installed, ec)) return installed;
  }
  return fs::path(HZ_SCENARIO_DIR);
}

Result<fs::path> find_scenario(std::string_view name_or_file) {
  const std::string text(name_or_file);
  if (text.empty()) return Error{"cenário vazio: dê um nome (ex.: monday) ou um arquivo .json"};
  const bool looks_like_path = text.find('/') != std::string::npos ||
                               (text.size() > 5 && text.compare(text.size() - 5, 5, ".json") == 0);
  std::error_code ec;
  if (looks_like_path && is_file(text)) {
    fs::path absolute = fs::absolute(text, ec);
    return ec ? fs::path(text) : absolute.lexically_normal();
  }
  fs::path embedded = scenario_dir() / text;
  if (embedded.extension() != ".json") embedded += ".json";
  if (is_file(embedded)) return embedded.lexically_normal();
  std::string names;
  for (const auto& name : available_names()) names += (names.empty() ? "" : ", ") + name;
  if (looks_like_path) {
    return Error{"cenário \"" + text + "\": arquivo não encontrado (nomes embutidos: " + names +
                 ")"};
  }
  return Error{"cenário \"" + text + "\" não existe em " + scenario_dir().string() +
               " (disponíveis: " + names + "; ou passe o caminho de um arquivo .json)"};
}

Result<fs::path> copy_fixture_to_temp(const Scenario& scenario) {
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string pattern = (base / "hz-workspace-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    return Error{"não consegui criar uma pasta temporária em " + base.string()};
  }
  const fs::path directory(pattern);
  if (scenario.workspace) {
    if (auto error = copy_tree(*scenario.workspace, directory)) {
      fs::remove_all(directory, ec);
      return *error;
    }
  }
  return directory;
}

}  // namespace hz::mock
