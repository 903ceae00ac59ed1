// Alvo: as ferramentas que só leem (read_file e list_dir de hz::basic_tools)
// num workspace temporário armado para enganar: links para dentro e para
// fora, laço de links, um FIFO, um arquivo esparso maior que o limite.
//
// Entrada: um byte de opções e o resto. Com o bit 1 desligado, o resto é o
// caminho; ligado, é o texto JSON dos argumentos (que a ferramenta não pode
// supor bem formados). O bit 0 escolhe a ferramenta.
//
// Propriedades: não lança nem trava (o FIFO travaria); nada de fora do
// workspace aparece na saída (nem o conteúdo nem o nome do arquivo de fora),
// a menos que o próprio pedido o traga.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "hz/tools.hpp"
#include "support.hpp"

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kSecretName = "segredo-de-fora";
constexpr std::string_view kSecretText = "CONTEUDO-DE-FORA";

void write(const fs::path& path, std::string_view text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// <tmp>/hz-fuzz-XXXXXX/{fora,ws}: só ws é o workspace.
struct Fixture {
  fs::path base;
  fs::path root;
  std::vector<hz::Tool> tools;

  Fixture() {
    std::string pattern = (fs::temp_directory_path() / "hz-fuzz-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) hz::fuzz::fail("mkdtemp");
    base = pattern;
    const fs::path outside = base / "fora";
    root = base / "ws";
    write(outside / std::string(kSecretName), kSecretText);
    write(root / "notas.txt", "dentro\n");
    write(root / "sub" / "a.txt", "a\n");
    write(root / "sub" / "fundo" / "b.txt", "b\n");
    fs::create_symlink("sub", root / "link-dentro");
    fs::create_symlink("../fora", root / "link-fora");
    fs::create_symlink("../fora/" + std::string(kSecretName), root / "arquivo-fora");
    fs::create_symlink("/", root / "raiz");
    fs::create_symlink("laco-b", root / "laco-a");
    fs::create_symlink("laco-a", root / "laco-b");
    fs::create_symlink("nao-existe", root / "quebrado");
    if (mkfifo((root / "fifo").c_str(), 0600) != 0) hz::fuzz::fail("mkfifo");
    // Esparso: 2 MiB sem ocupar disco; read_file recusa pelo tamanho.
    const int fd = open((root / "grande").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0 || ftruncate(fd, 2 * 1024 * 1024) != 0) hz::fuzz::fail("arquivo esparso");
    close(fd);
    const hz::Workspace workspace(root);
    for (hz::Tool& tool : hz::basic_tools(workspace)) {
      if (tool.schema.name == "read_file" || tool.schema.name == "list_dir") {
        tools.push_back(std::move(tool));
      }
    }
    if (tools.size() != 2) hz::fuzz::fail("read_file e list_dir");
  }

  ~Fixture() {
    std::error_code ignored;
    fs::remove_all(base, ignored);
  }
};

Fixture& fixture() {
  static Fixture instance;
  return instance;
}

bool leaks(const std::string& output, std::string_view request, std::string_view secret) {
  return output.find(secret) != std::string::npos && request.find(secret) == std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)fixture();
  // Rodar a fixture de novo a cada processo (o libFuzzer com -fork ou -jobs)
  // deixaria pastas velhas: o destrutor estático apaga a desta.
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest = hz::fuzz::text_of(data + 1, size - 1);
  const hz::Tool& tool = fixture().tools[data[0] & 1U];
  nlohmann::json args;
  if ((data[0] & 2U) != 0) {
    args = nlohmann::json::parse(rest, nullptr, /*allow_exceptions=*/false);
    if (args.is_discarded()) return 0;
  } else {
    args = {{"path", std::string(rest)}};
  }
  try {
    const hz::ToolOutput output = tool.run(args);
    hz::fuzz::check(!leaks(output.text, rest, kSecretText), "o conteúdo de fora não vaza");
    hz::fuzz::check(!leaks(output.text, rest, kSecretName), "o nome de fora não vaza");
  } catch (const std::exception& error) {
    hz::fuzz::escaped(tool.schema.name.c_str(), error);
  }
  return 0;
}
