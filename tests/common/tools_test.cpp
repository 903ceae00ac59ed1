#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "hz/testing/child.hpp"
#include "hz/testing/temp_dir.hpp"
#include "hz/tools.hpp"

namespace fs = std::filesystem;
using hz::ToolOutput;
using hz::testing::TempDir;
using nlohmann::json;

namespace {

// As ferramentas de uma pasta temporária, procuradas pelo nome.
struct Fixture {
  TempDir dir;
  hz::Workspace workspace{dir.path()};
  std::vector<hz::Tool> tools = hz::basic_tools(workspace, {std::chrono::milliseconds(5000), 64});

  ToolOutput run(const std::string& name, const json& args) {
    auto it = std::find_if(tools.begin(), tools.end(),
                           [&](const hz::Tool& t) { return t.schema.name == name; });
    REQUIRE(it != tools.end());
    return it->run(args);
  }
};

void check_output(const ToolOutput& output, bool ok, const std::string& text) {
  CHECK(output.ok == ok);
  CHECK(output.text == text);
}

}  // namespace

TEST_CASE("basic_tools oferece as cinco ferramentas nesta ordem") {
  Fixture f;
  std::vector<std::string> names;
  for (const auto& tool : f.tools) names.push_back(tool.schema.name);
  CHECK(names ==
        std::vector<std::string>{"read_file", "write_file", "edit_file", "list_dir", "run_shell"});
}

TEST_CASE("só as ferramentas que escrevem ou executam pedem aprovação") {
  Fixture f;
  std::vector<bool> approval;
  for (const auto& tool : f.tools) approval.push_back(tool.needs_approval);
  CHECK(approval == std::vector<bool>{false, true, true, false, true});
  CHECK(hz::append_file_tool(f.workspace).needs_approval);
}

TEST_CASE("cada ferramenta declara se pode rodar de novo numa retomada") {
  Fixture f;
  using hz::Idempotency;
  std::vector<Idempotency> declared;
  for (const auto& tool : f.tools) declared.push_back(tool.idempotency);
  // read_file, write_file, edit_file, list_dir, run_shell
  CHECK(declared == std::vector<Idempotency>{Idempotency::yes, Idempotency::yes, Idempotency::check,
                                             Idempotency::yes, Idempotency::no});
  CHECK(hz::append_file_tool(f.workspace).idempotency == Idempotency::check);
  CHECK(hz::Tool{}.idempotency == Idempotency::no);  // quem não declara nunca roda de novo
}

TEST_CASE("os schemas exigem os argumentos documentados de cada ferramenta") {
  Fixture f;
  CHECK(
      f.tools[2].schema.parameters.dump() ==
      R"({"properties":{"new_text":{"description":"o trecho que entra no lugar","type":"string"},"old_text":{"description":"o trecho atual, que aparece exatamente uma vez no arquivo","type":"string"},"path":{"description":"caminho do arquivo, relativo à raiz do workspace","type":"string"}},"required":["path","old_text","new_text"],"type":"object"})");
  CHECK(f.tools[0].schema.parameters["required"] == json::array({"path"}));
  CHECK(f.tools[1].schema.parameters["required"] == json::array({"path", "content"}));
  CHECK(f.tools[3].schema.parameters["required"] == json::array({"path"}));
  CHECK(f.tools[4].schema.parameters["required"] == json::array({"command"}));
  CHECK(hz::append_file_tool(f.workspace).schema.parameters["required"] ==
        json::array({"path", "content"}));
}

TEST_CASE("read_file devolve o conteúdo exato") {
  Fixture f;
  f.dir.write("config.ini", "porta=80\n");
  check_output(f.run("read_file", {{"path", "config.ini"}}), true, "porta=80\n");
}

TEST_CASE("read_file falha com arquivo inexistente pasta ou caminho fora") {
  Fixture f;
  fs::create_directory(f.dir / "src");
  check_output(f.run("read_file", {{"path", "nada.txt"}}), false,
               "arquivo não encontrado: nada.txt");
  check_output(f.run("read_file", {{"path", "src"}}), false,
               "src é uma pasta; use list_dir para ver o conteúdo");
  check_output(f.run("read_file", {{"path", "../x"}}), false, "caminho fora do workspace: ../x");
  check_output(f.run("read_file", json::object()), false,
               "argumento \"path\" ausente ou não é texto");
  check_output(f.run("read_file", {{"path", 3}}), false,
               "argumento \"path\" ausente ou não é texto");
}

TEST_CASE("caminho e comando com byte nulo são recusados com texto para o modelo") {
  // Um \0 cortaria o caminho em silêncio na chamada ao sistema: "a.txt\0/../x" viraria "a.txt".
  Fixture f;
  f.dir.write("a.txt", "dentro");
  const std::string path("a.txt\0/../x", 11);
  check_output(f.run("read_file", {{"path", path}}), false,
               "caminho inválido (contém byte nulo): " + path);
  check_output(f.run("write_file", {{"path", path}, {"content", "x"}}), false,
               "caminho inválido (contém byte nulo): " + path);
  check_output(f.run("run_shell", {{"command", std::string("true\0; touch x", 14)}}), false,
               "comando inválido (contém byte nulo)");
  CHECK_FALSE(fs::exists(f.dir / "x"));
  CHECK(f.dir.read("a.txt") == "dentro");
}

TEST_CASE("write_file cria pastas sobrescreve e conta os bytes") {
  Fixture f;
  check_output(f.run("write_file", {{"path", "a/b/c.txt"}, {"content", "olá"}}), true,
               "arquivo escrito: a/b/c.txt (4 bytes)");
  CHECK(f.dir.read("a/b/c.txt") == "olá");
  check_output(f.run("write_file", {{"path", "a/b/c.txt"}, {"content", "x"}}), true,
               "arquivo escrito: a/b/c.txt (1 bytes)");
  CHECK(f.dir.read("a/b/c.txt") == "x");
}

TEST_CASE("write_file falha em pasta e fora do workspace") {
  Fixture f;
  fs::create_directory(f.dir / "src");
  check_output(f.run("write_file", {{"path", "src"}, {"content", "x"}}), false, "src é uma pasta");
  check_output(f.run("write_file", {{"path", "."}, {"content", "x"}}), false, ". é uma pasta");
  check_output(f.run("write_file", {{"path", "/tmp/x"}, {"content", "x"}}), false,
               "caminho absoluto não é permitido: /tmp/x (use um caminho relativo à raiz do "
               "workspace)");
  check_output(f.run("write_file", {{"path", "a.txt"}}), false,
               "argumento \"content\" ausente ou não é texto");
}

TEST_CASE("edit_text: troca só o trecho que aparece uma vez, contando sobreposições") {
  hz::TextEdit once = hz::edit_text("a = 1;\nb = 2;\n", "b = 2", "b = 3");
  CHECK(once.occurrences == 1);
  CHECK(once.text == "a = 1;\nb = 3;\n");
  hz::TextEdit overlapping = hz::edit_text("aaa", "aa", "b");  // "aa" em 0 e em 1
  CHECK(overlapping.occurrences == 2);
  CHECK(overlapping.text == "aaa");
  hz::TextEdit missing = hz::edit_text("abc", "x", "y");
  CHECK(missing.occurrences == 0);
  CHECK(missing.text == "abc");
  hz::TextEdit empty = hz::edit_text("abc", "", "y");
  CHECK(empty.occurrences == 0);
  CHECK(empty.text == "abc");
}

TEST_CASE("edit_file troca o trecho que aparece uma vez") {
  Fixture f;
  f.dir.write("config.ini", "host=x\nporta=80\n");
  check_output(
      f.run("edit_file",
            {{"path", "config.ini"}, {"old_text", "porta=80"}, {"new_text", "porta=8080"}}),
      true, "arquivo editado: config.ini");
  CHECK(f.dir.read("config.ini") == "host=x\nporta=8080\n");
}

TEST_CASE("edit_file falha quando o trecho não aparece ou aparece mais de uma vez") {
  Fixture f;
  f.dir.write("a.txt", "aaa\nb\n");
  check_output(f.run("edit_file", {{"path", "a.txt"}, {"old_text", "zzz"}, {"new_text", "y"}}),
               false, "texto não encontrado em a.txt");
  check_output(f.run("edit_file", {{"path", "a.txt"}, {"old_text", "aa"}, {"new_text", "y"}}),
               false,
               "texto aparece 2 vezes em a.txt; inclua mais contexto para que apareça uma vez só");
  check_output(f.run("edit_file", {{"path", "a.txt"}, {"old_text", ""}, {"new_text", "y"}}), false,
               "old_text não pode ser vazio");
  check_output(f.run("edit_file", {{"path", "b.txt"}, {"old_text", "a"}, {"new_text", "y"}}), false,
               "arquivo não encontrado: b.txt");
  CHECK(f.dir.read("a.txt") == "aaa\nb\n");
}

TEST_CASE("list_dir lista em ordem com barra nas pastas") {
  Fixture f;
  f.dir.write("b.txt", "");
  f.dir.write("a.txt", "");
  f.dir.write("src/x.cpp", "");
  f.dir.write(".oculto", "");
  check_output(f.run("list_dir", {{"path", "."}}), true, ".oculto\na.txt\nb.txt\nsrc/\n");
  check_output(f.run("list_dir", {{"path", "src"}}), true, "x.cpp\n");
}

TEST_CASE("list_dir falha com pasta inexistente ou arquivo e avisa pasta vazia") {
  Fixture f;
  f.dir.write("a.txt", "");
  fs::create_directory(f.dir / "vazia");
  check_output(f.run("list_dir", {{"path", "nada"}}), false, "pasta não encontrada: nada");
  check_output(f.run("list_dir", {{"path", "a.txt"}}), false, "a.txt não é uma pasta");
  check_output(f.run("list_dir", {{"path", "vazia"}}), true, "(pasta vazia)");
}

TEST_CASE("run_shell devolve código de saída e saída juntando stdout e stderr") {
  Fixture f;
  check_output(f.run("run_shell", {{"command", "echo um; echo dois >&2"}}), true,
               "código de saída: 0\num\ndois\n");
  check_output(f.run("run_shell", {{"command", "true"}}), true, "código de saída: 0");
}

TEST_CASE("run_shell roda na raiz do workspace sem stdin") {
  Fixture f;
  f.dir.write("teste.sh", "echo rodou aqui\n");
  check_output(f.run("run_shell", {{"command", "sh teste.sh; cat; pwd"}}), true,
               "código de saída: 0\nrodou aqui\n" + f.dir.path().string() + "\n");
}

TEST_CASE("run_shell com código diferente de zero é falha") {
  Fixture f;
  check_output(f.run("run_shell", {{"command", "echo FALHOU; exit 3"}}), false,
               "código de saída: 3\nFALHOU\n");
}

TEST_CASE("run_shell informa processo morto por sinal") {
  Fixture f;
  check_output(f.run("run_shell", {{"command", "kill -TERM $$"}}), false,
               "código de saída: 143 (encerrado pelo sinal 15)");
}

TEST_CASE("run_shell não mexe na saída que cabe no limite") {
  Fixture f;  // limite de 64 bytes
  check_output(f.run("run_shell", {{"command", "printf '%064d' 0"}}), true,
               "código de saída: 0\n" + std::string(64, '0'));
}

TEST_CASE("run_shell corta o meio da saída que passa do limite e guarda começo e fim") {
  Fixture f;  // limite de 64 bytes: 32 do começo e 32 do fim
  // 6 + 100 + 3 = 109 bytes, 45 omitidos.
  check_output(
      f.run("run_shell", {{"command", "printf COMECO; printf '%0100d' 0; printf FIM"}}), true,
      "código de saída: 0\n[saída de 109 bytes: mostrando o começo e o fim]\nCOMECO" +
          std::string(26, '0') + "[... 45 bytes omitidos ...]" + std::string(29, '0') + "FIM");
  check_output(f.run("run_shell", {{"command", "printf '%065d' 0"}}), true,
               "código de saída: 0\n[saída de 65 bytes: mostrando o começo e o fim]\n" +
                   std::string(32, '0') + "[... 1 bytes omitidos ...]" + std::string(32, '0'));
}

TEST_CASE("run_shell com saída de 1 MiB guarda o fim onde estão os erros") {
  TempDir dir;
  const hz::Workspace workspace(dir.path());
  auto tools = hz::basic_tools(workspace);  // limite padrão de 64 KiB
  const ToolOutput output = tools[4].run(
      {{"command",
        "echo INICIO; head -c 1048576 /dev/zero | tr '\\0' q; echo; echo FIMSAIDA; exit 2"}});
  // 7 + 1048576 + 1 + 9 = 1048593 bytes; ficam 32768 de cada ponta.
  const std::size_t total = 7 + 1048576 + 1 + 9;
  check_output(output, false,
               "código de saída: 2\n[saída de " + std::to_string(total) +
                   " bytes: mostrando o começo e o fim]\nINICIO\n" + std::string(32768 - 7, 'q') +
                   "[... " + std::to_string(total - 65536) + " bytes omitidos ...]" +
                   std::string(32768 - 10, 'q') + "\nFIMSAIDA\n");
}

TEST_CASE("run_shell no tempo esgotado também guarda começo e fim") {
  TempDir dir;
  const hz::Workspace workspace(dir.path());
  auto tools = hz::basic_tools(workspace, {std::chrono::milliseconds(200), 16});
  // O teste espera o próprio timeout, que é o comportamento sob teste.
  const ToolOutput output =
      tools[4].run({{"command", "printf COMECO; printf '%0100d' 0; printf FIM; sleep 5"}});
  check_output(output, false,
               "tempo esgotado após 200 ms; o comando foi encerrado\n"
               "[saída de 109 bytes: mostrando o começo e o fim]\nCOMECO00" +
                   std::string("[... 93 bytes omitidos ...]") + "00000FIM");
}

TEST_CASE("run_shell mata o comando quando o tempo esgota") {
  TempDir dir;
  const hz::Workspace workspace(dir.path());
  auto tools = hz::basic_tools(workspace, {std::chrono::milliseconds(200), 1024});
  const auto start = std::chrono::steady_clock::now();
  // O teste espera o próprio timeout, que é o comportamento sob teste.
  const ToolOutput output = tools[4].run({{"command", "echo começou; sleep 5; echo nunca"}});
  const auto elapsed = std::chrono::steady_clock::now() - start;
  check_output(output, false, "tempo esgotado após 200 ms; o comando foi encerrado\ncomeçou\n");
  CHECK(elapsed < std::chrono::seconds(3));
}

TEST_CASE("run_shell não espera filhos deixados em segundo plano") {
  Fixture f;
  const auto start = std::chrono::steady_clock::now();
  check_output(f.run("run_shell", {{"command", "sleep 5 & echo pronto"}}), true,
               "código de saída: 0\npronto\n");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(3));
}

TEST_CASE("append_file acrescenta a cada chamada") {
  Fixture f;
  const hz::Tool append = hz::append_file_tool(f.workspace);
  check_output(append.run({{"path", "log/notas.txt"}, {"content", "um\n"}}), true,
               "texto acrescentado a log/notas.txt (3 bytes; agora com 3 bytes)");
  check_output(append.run({{"path", "log/notas.txt"}, {"content", "dois\n"}}), true,
               "texto acrescentado a log/notas.txt (5 bytes; agora com 8 bytes)");
  CHECK(f.dir.read("log/notas.txt") == "um\ndois\n");
  // O mesmo acréscimo de novo não dá o mesmo resultado: o arquivo cresceu.
  check_output(append.run({{"path", "log/notas.txt"}, {"content", "dois\n"}}), true,
               "texto acrescentado a log/notas.txt (5 bytes; agora com 13 bytes)");
  check_output(append.run({{"path", "log/um.txt"}, {"content", "x"}}), true,
               "texto acrescentado a log/um.txt (1 byte; agora com 1 byte)");
  check_output(append.run({{"path", "../x"}, {"content", "a"}}), false,
               "caminho fora do workspace: ../x");
}

TEST_CASE("write_file e append_file recusam um caminho que termina em /, sem criar nada") {
  // Antes, "trail/" escrevia um arquivo chamado "trail".
  Fixture f;
  check_output(f.run("write_file", {{"path", "trail/"}, {"content", "x"}}), false,
               "trail/ termina em /, o nome de uma pasta: dê o caminho de um arquivo");
  check_output(hz::append_file_tool(f.workspace).run({{"path", "log/"}, {"content", "x"}}), false,
               "log/ termina em /, o nome de uma pasta: dê o caminho de um arquivo");
  CHECK_FALSE(fs::exists(f.dir / "trail"));
  CHECK_FALSE(fs::exists(f.dir / "log"));
}

TEST_CASE("append_file só volta com o texto no disco: um fdatasync que falha desfaz o acréscimo") {
  // A etapa 04 grava o resultado no journal (com fdatasync) logo depois: um
  // resultado "acrescentado" durável sobre um texto que não chegou ao disco
  // seria desmentido por uma queda de energia.
  Fixture f;
  f.dir.write("notas.txt", "antes\n");
  const std::string told = hz::testing::told_by_child([&](int fd) {
    if (!hz::testing::fail_every_fdatasync()) {
      hz::testing::tell(fd, "sem seccomp");
      return;
    }
    const ToolOutput out =
        hz::append_file_tool(f.workspace).run({{"path", "notas.txt"}, {"content", "depois\n"}});
    hz::testing::tell(fd, std::string(out.ok ? "ok: " : "falha: ") + out.text);
  });
  if (told == "sem seccomp\n") {
    MESSAGE("o kernel não aceitou o filtro seccomp: o teste não tem como fazer o fdatasync falhar");
    return;
  }
  CHECK(told == "falha: falha ao escrever notas.txt: Input/output error (nada foi acrescentado)\n");
  CHECK(f.dir.read("notas.txt") == "antes\n");
}

// ---- confinamento com o workspace mudando ao mesmo tempo --------------------

namespace {

// Uma pasta "troca" dentro do workspace que outra thread alterna, o mais
// rápido que consegue, entre uma pasta de verdade e um link para fora. Uma
// ferramenta que confere o caminho e depois o reabre pelo nome acaba, cedo
// ou tarde, lendo ou escrevendo do lado de fora.
class SwapRace {
 public:
  SwapRace() {
    outside.write("alvo.txt", "dentro\n");
    outside.write("fora.txt", "SEGREDO\n");
    // Os mesmos nomes dos dois lados: toda checagem de existência passa, e
    // só o conteúdo (ou dentro.txt, que só existe dentro) diz de onde veio.
    dir.write("troca/alvo.txt", "dentro\n");
    dir.write("troca/fora.txt", "dentro\n");
    dir.write("troca/dentro.txt", "dentro\n");
    fs::create_directory_symlink(outside.path(), dir / "link");
    outside_stamp = stamp(outside / "alvo.txt");
  }

  // Roda op(i) até iterations vezes (no máximo budget) com a troca acontecendo.
  template <class Op>
  void run(int iterations, std::chrono::milliseconds budget, Op op) {
    std::atomic<bool> stop{false};
    std::thread flipper([&] {
      const std::string swap = (dir / "troca").string();
      const std::string link = (dir / "link").string();
      while (!stop.load()) flip(swap, link);
    });
    const auto give_up = std::chrono::steady_clock::now() + budget;
    for (int i = 0; i < iterations && std::chrono::steady_clock::now() < give_up; ++i) op(i);
    stop = true;
    flipper.join();
  }

  // Nada lá fora mudou: os mesmos nomes, o mesmo conteúdo, o mesmo inode e a mesma hora.
  void check_outside_untouched() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(outside.path())) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string>{"alvo.txt", "fora.txt"});
    CHECK(outside.read("alvo.txt") == "dentro\n");
    CHECK(outside.read("fora.txt") == "SEGREDO\n");
    CHECK(stamp(outside / "alvo.txt") == outside_stamp);
  }

  TempDir outside;
  TempDir dir;
  hz::Workspace workspace{dir.path()};
  std::vector<hz::Tool> tools = hz::basic_tools(workspace);

 private:
  static std::string stamp(const fs::path& path) {
    struct stat info {};
    REQUIRE(stat(path.c_str(), &info) == 0);
    return std::to_string(info.st_ino) + "@" +
           std::to_string(fs::last_write_time(path).time_since_epoch().count());
  }

  // Troca os dois nomes de uma vez: "troca" nunca deixa de existir, então
  // nenhuma ferramenta cai no "não encontrado" (nem cria a pasta de novo).
  static void flip(const std::string& swap, const std::string& link) {
#if defined(__linux__) && defined(RENAME_EXCHANGE)
    renameat2(AT_FDCWD, swap.c_str(), AT_FDCWD, link.c_str(), RENAME_EXCHANGE);
#else
    const std::string real = swap + ".pasta";
    std::rename(swap.c_str(), real.c_str());
    std::rename(link.c_str(), swap.c_str());
    std::rename(swap.c_str(), link.c_str());
    std::rename(real.c_str(), swap.c_str());
#endif
  }

  std::string outside_stamp;
};

}  // namespace

TEST_CASE("read_file e list_dir não leem fora com um link trocado no meio da operação") {
  SwapRace race;
  int leaks = 0;
  int inside_reads = 0;
  race.run(20000, std::chrono::milliseconds(400), [&](int) {
    const ToolOutput read = race.tools[0].run({{"path", "troca/fora.txt"}});
    if (read.text.find("SEGREDO") != std::string::npos) ++leaks;
    const ToolOutput same = race.tools[0].run({{"path", "troca/dentro.txt"}});
    if (same.ok) ++inside_reads;
    const ToolOutput listed = race.tools[3].run({{"path", "troca"}});
    if (listed.ok && listed.text.find("dentro.txt") == std::string::npos) ++leaks;
  });
  CHECK(leaks == 0);
  CHECK(inside_reads > 0);  // a corrida aconteceu com a pasta de verdade também
  race.check_outside_untouched();
}

TEST_CASE("write_file não escreve fora com um link trocado no meio da operação") {
  SwapRace race;
  race.run(20000, std::chrono::milliseconds(400), [&](int i) {
    race.tools[1].run(
        {{"path", "troca/novo-" + std::to_string(i % 50) + ".txt"}, {"content", "x"}});
  });
  race.check_outside_untouched();
}

TEST_CASE("edit_file não reescreve fora com um link trocado no meio da operação") {
  SwapRace race;
  race.run(20000, std::chrono::milliseconds(400), [&](int) {
    race.tools[2].run({{"path", "troca/alvo.txt"}, {"old_text", "dentro"}, {"new_text", "dentro"}});
  });
  race.check_outside_untouched();
}

TEST_CASE("um link que aparece no lugar de uma pasta conferida é recusado") {
  // A corrida acima, congelada: "troca" já é o link na hora de abrir. O
  // resolve() vê o link e recusa com a mensagem de sempre.
  SwapRace race;
  fs::rename(race.dir / "troca", race.dir / "pasta");
  fs::rename(race.dir / "link", race.dir / "troca");
  check_output(race.tools[0].run({{"path", "troca/fora.txt"}}), false,
               "caminho fora do workspace: troca/fora.txt (um link simbólico aponta para fora)");
  race.check_outside_untouched();
}

// ---- escrita segura ----------------------------------------------------------

namespace {

// Arquivos com mais de max_bytes não podem crescer além disso enquanto vive:
// write devolve EFBIG (SIGXFSZ ignorado), como num disco que enche.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t max_bytes) {
    REQUIRE(getrlimit(RLIMIT_FSIZE, &saved_) == 0);
    previous_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limited = saved_;
    limited.rlim_cur = max_bytes;
    REQUIRE(setrlimit(RLIMIT_FSIZE, &limited) == 0);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, previous_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit saved_{};
  void (*previous_handler_)(int) = nullptr;
};

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("write_file e edit_file que falham no meio deixam o original byte a byte") {
  Fixture f;
  std::string original;
  for (int i = 0; i < 40; ++i) original += "linha " + std::to_string(i) + "\n";
  f.dir.write("dados.txt", original);
  const std::string big(20000, 'x');
  ToolOutput written;
  ToolOutput edited;
  ToolOutput appended;
  {
    const FileSizeLimit limit(4096);
    written = f.run("write_file", {{"path", "dados.txt"}, {"content", big}});
    edited =
        f.run("edit_file", {{"path", "dados.txt"}, {"old_text", "linha 7\n"}, {"new_text", big}});
    appended = hz::append_file_tool(f.workspace).run({{"path", "dados.txt"}, {"content", big}});
  }
  check_output(written, false,
               "falha ao escrever dados.txt: File too large (o conteúdo anterior foi mantido)");
  check_output(edited, false,
               "falha ao escrever dados.txt: File too large (o conteúdo anterior foi mantido)");
  check_output(appended, false,
               "falha ao escrever dados.txt: File too large (nada foi acrescentado)");
  CHECK(f.dir.read("dados.txt") == original);
  CHECK(names_in(f.dir.path()) == std::vector<std::string>{"dados.txt"});  // sem temporários
}

TEST_CASE("write_file e edit_file mantêm o modo do arquivo e escrevem pelo link de dentro") {
  Fixture f;
  f.dir.write("real.sh", "echo antes\n");
  fs::permissions(f.dir / "real.sh", fs::perms(0750));
  fs::create_symlink("real.sh", f.dir / "atalho.sh");
  check_output(
      f.run("edit_file", {{"path", "atalho.sh"}, {"old_text", "antes"}, {"new_text", "depois"}}),
      true, "arquivo editado: atalho.sh");
  CHECK(f.dir.read("real.sh") == "echo depois\n");
  CHECK(fs::is_symlink(f.dir / "atalho.sh"));
  CHECK(fs::status(f.dir / "real.sh").permissions() == fs::perms(0750));
  check_output(f.run("write_file", {{"path", "real.sh"}, {"content", "echo de novo\n"}}), true,
               "arquivo escrito: real.sh (13 bytes)");
  CHECK(fs::status(f.dir / "real.sh").permissions() == fs::perms(0750));
  CHECK(f.dir.read("atalho.sh") == "echo de novo\n");
}

TEST_CASE("write_file cria arquivo novo com o modo padrão da umask") {
  Fixture f;
  const mode_t mask = umask(022);
  umask(mask);
  check_output(f.run("write_file", {{"path", "novo.txt"}, {"content", "oi"}}), true,
               "arquivo escrito: novo.txt (2 bytes)");
  CHECK(fs::status(f.dir / "novo.txt").permissions() == fs::perms(0666 & ~mask));
}

// ---- arquivos que não são arquivos ------------------------------------------

TEST_CASE("FIFO no workspace é recusado sem travar as ferramentas de arquivo") {
  Fixture f;
  REQUIRE(mkfifo((f.dir / "fila").c_str(), 0600) == 0);
  const std::string refusal =
      "fila não é um arquivo comum (é um FIFO); as ferramentas de arquivo só leem e escrevem "
      "arquivos comuns";
  check_output(f.run("read_file", {{"path", "fila"}}), false, refusal);
  check_output(f.run("edit_file", {{"path", "fila"}, {"old_text", "a"}, {"new_text", "b"}}), false,
               refusal);
  check_output(f.run("write_file", {{"path", "fila"}, {"content", "x"}}), false, refusal);
  check_output(hz::append_file_tool(f.workspace).run({{"path", "fila"}, {"content", "x"}}), false,
               refusal);
  check_output(f.run("list_dir", {{"path", "fila"}}), false, "fila não é uma pasta");
  CHECK(fs::is_fifo(f.dir / "fila"));
}

TEST_CASE("socket no workspace é recusado como arquivo que não é comum") {
  Fixture f;
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string path = (f.dir / "sock").string();
  REQUIRE(path.size() < sizeof address.sun_path);
  std::copy(path.begin(), path.end(), address.sun_path);
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  check_output(f.run("read_file", {{"path", "sock"}}), false,
               "sock não é um arquivo comum (é um socket); as ferramentas de arquivo só leem e "
               "escrevem arquivos comuns");
  close(fd);
}

// ---- limites de tamanho --------------------------------------------------------

TEST_CASE("edit_file recusa arquivo maior que o limite sem ler nem tocar nele") {
  Fixture f;
  f.dir.write("grande.bin", "começo");
  fs::resize_file(f.dir / "grande.bin", 2 * 1024 * 1024);  // esparso: não ocupa disco
  check_output(
      f.run("edit_file", {{"path", "grande.bin"}, {"old_text", "começo"}, {"new_text", "fim"}}),
      false, "arquivo grande demais: grande.bin (2097152 bytes; o limite é 1048576)");
  check_output(f.run("read_file", {{"path", "grande.bin"}}), false,
               "arquivo grande demais: grande.bin (2097152 bytes; o limite é 1048576)");
  CHECK(fs::file_size(f.dir / "grande.bin") == 2 * 1024 * 1024);
  struct stat info {};
  REQUIRE(stat((f.dir / "grande.bin").c_str(), &info) == 0);
  CHECK(info.st_blocks * 512 < 1024 * 1024);  // continua esparso
}

// ---- run_shell: fim, tempo esgotado e cancelamento --------------------------------

TEST_CASE("run_shell volta logo com o código do shell quando um filho segura a saída") {
  Fixture f;  // tempo limite de 5 s
  const auto start = std::chrono::steady_clock::now();
  // yes escreve no pipe sem parar e nunca o fecha.
  const ToolOutput output = f.run("run_shell", {{"command", "yes & sleep 0.1; exit 4"}});
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
  CHECK_FALSE(output.ok);
  CHECK(output.text.rfind("código de saída: 4\n[saída de ", 0) == 0);
  check_output(f.run("run_shell", {{"command", "sleep 30 & exit 3"}}), false, "código de saída: 3");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(3));
}

TEST_CASE("run_shell no tempo esgotado manda SIGTERM antes e o comando pode limpar") {
  TempDir dir;
  const hz::Workspace workspace(dir.path());
  auto tools = hz::basic_tools(workspace, {std::chrono::milliseconds(200), 1024});
  // O teste espera o próprio timeout, que é o comportamento sob teste.
  const ToolOutput output = tools[4].run(
      {{"command", "trap 'echo limpou > limpeza.txt; exit 1' TERM; echo rodando; sleep 5"}});
  check_output(output, false, "tempo esgotado após 200 ms; o comando foi encerrado\nrodando\n");
  CHECK(dir.read("limpeza.txt") == "limpou\n");
}

TEST_CASE("run_shell no tempo esgotado mata com SIGKILL quem ignora o SIGTERM") {
  TempDir dir;
  const hz::Workspace workspace(dir.path());
  auto tools = hz::basic_tools(workspace, {std::chrono::milliseconds(100), 1024});
  const auto start = std::chrono::steady_clock::now();
  const ToolOutput output = tools[4].run({{"command", "trap '' TERM; sleep 5"}});
  check_output(output, false, "tempo esgotado após 100 ms; o comando foi encerrado");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
}

TEST_CASE("run_shell no tempo esgotado mata o grupo: o neto não chega a escrever") {
  TempDir dir;
  const hz::Workspace workspace(dir.path());
  auto tools = hz::basic_tools(workspace, {std::chrono::milliseconds(100), 1024});
  const auto start = std::chrono::steady_clock::now();
  const ToolOutput output =
      tools[4].run({{"command", "(sleep 0.3; echo tarde > tarde.txt) & sleep 5"}});
  check_output(output, false, "tempo esgotado após 100 ms; o comando foi encerrado");
  // Espera passar a hora em que o neto escreveria (é o comportamento sob teste).
  while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(600)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK_FALSE(fs::exists(dir / "tarde.txt"));
}

TEST_CASE("run_shell encerra o comando quando o cancelamento é pedido") {
  TempDir dir;
  const hz::Workspace workspace(dir.path());
  std::atomic<bool> cancel{false};
  auto tools = hz::basic_tools(workspace, {std::chrono::milliseconds(5000), 1024, &cancel});
  // Pede o cancelamento assim que o comando avisa que começou.
  std::thread user([&] {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (!fs::exists(dir / "comecou") && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    cancel = true;
  });
  const auto start = std::chrono::steady_clock::now();
  const ToolOutput output =
      tools[4].run({{"command", "echo começou; touch comecou; sleep 30; echo nunca"}});
  user.join();
  check_output(output, false, "comando cancelado pelo usuário; o comando foi encerrado\ncomeçou\n");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(3));
}

TEST_CASE("run_shell com cancelamento já pedido nem começa o comando") {
  TempDir dir;
  const hz::Workspace workspace(dir.path());
  const std::atomic<bool> cancel{true};
  auto tools = hz::basic_tools(workspace, {std::chrono::milliseconds(5000), 1024, &cancel});
  check_output(tools[4].run({{"command", "touch rodou"}}), false,
               "comando cancelado pelo usuário; não chegou a ser executado");
  CHECK_FALSE(fs::exists(dir / "rodou"));
}
