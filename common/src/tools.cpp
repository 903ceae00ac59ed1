#include "hz/tools.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>
#include <system_error>

#include "hz/text.hpp"

namespace hz {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Arquivos maiores que isso não cabem numa conversa; melhor recusar com
// uma mensagem do que estourar a janela de contexto (ou a memória).
constexpr std::uintmax_t kMaxReadBytes = 1024 * 1024;

// Os argumentos já vêm conferidos pelo despacho da etapa, mas a ferramenta
// não confia: um campo ausente ou de outro tipo vira falha legível.
const std::string* string_arg(const json& args, const char* name) {
  if (!args.is_object()) return nullptr;
  auto it = args.find(name);
  if (it == args.end() || !it->is_string()) return nullptr;
  return it->get_ptr<const std::string*>();
}

ToolOutput missing_arg(const char* name) {
  return ToolOutput::failure(std::string("argumento \"") + name + "\" ausente ou não é texto");
}

json schema(std::initializer_list<std::pair<const char*, const char*>> fields) {
  json properties = json::object();
  json required = json::array();
  for (const auto& [name, description] : fields) {
    properties[name] = {{"type", "string"}, {"description", description}};
    required.push_back(name);
  }
  return {{"type", "object"}, {"properties", properties}, {"required", required}};
}

bool read_whole(const fs::path& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return false;
  *out = std::move(buffer).str();
  return true;
}

ToolOutput write_bytes(const fs::path& target, const std::string& shown, const std::string& content,
                       bool append) {
  std::error_code ec;
  if (fs::is_directory(target, ec)) return ToolOutput::failure(shown + " é uma pasta");
  fs::create_directories(target.parent_path(), ec);
  if (ec) {
    return ToolOutput::failure("não foi possível criar as pastas de " + shown + ": " +
                               ec.message());
  }
  std::ofstream out(target, std::ios::binary | (append ? std::ios::app : std::ios::trunc));
  if (!out) {
    return ToolOutput::failure("não foi possível abrir " + shown + ": " + std::strerror(errno));
  }
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
  if (!out) return ToolOutput::failure("falha ao escrever " + shown);
  const std::string bytes = std::to_string(content.size()) + " bytes";
  return ToolOutput::success(append ? "texto acrescentado a " + shown + " (" + bytes + ")"
                                    : "arquivo escrito: " + shown + " (" + bytes + ")");
}

// Um caminho do modelo que existe dentro do workspace, com o seu tipo.
struct Existing {
  fs::path target;
  fs::file_status status;
};

// Resolve path e exige que ele exista; a falha já vem pronta para o modelo,
// ex.: "arquivo não encontrado: x.txt".
Result<Existing, ToolOutput> existing(const Workspace& workspace, const std::string& path,
                                      const std::string& not_found) {
  auto target = workspace.resolve(path);
  if (!target) return ToolOutput::failure(target.error().message);
  std::error_code ec;
  const fs::file_status status = fs::status(*target, ec);
  if (!fs::exists(status)) return ToolOutput::failure(not_found + ": " + path);
  return Existing{std::move(target).value(), status};
}

// ---- read_file -------------------------------------------------------------

ToolOutput read_file(const Workspace& workspace, const json& args) {
  const std::string* path = string_arg(args, "path");
  if (path == nullptr) return missing_arg("path");
  auto found = existing(workspace, *path, "arquivo não encontrado");
  if (!found) return found.error();
  const auto& [target, status] = *found;
  if (fs::is_directory(status)) {
    return ToolOutput::failure(*path + " é uma pasta; use list_dir para ver o conteúdo");
  }
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(target, ec);
  if (!ec && size > kMaxReadBytes) {
    return ToolOutput::failure("arquivo grande demais: " + *path + " (" + std::to_string(size) +
                               " bytes; o limite é " + std::to_string(kMaxReadBytes) + ")");
  }
  std::string content;
  if (!read_whole(target, &content)) {
    return ToolOutput::failure("não foi possível ler " + *path + ": " + std::strerror(errno));
  }
  return ToolOutput::success(std::move(content));
}

// ---- write_file / append_file ----------------------------------------------

ToolOutput write_file(const Workspace& workspace, const json& args, bool append) {
  const std::string* path = string_arg(args, "path");
  if (path == nullptr) return missing_arg("path");
  const std::string* content = string_arg(args, "content");
  if (content == nullptr) return missing_arg("content");
  auto target = workspace.resolve(*path);
  if (!target) return ToolOutput::failure(target.error().message);
  if (*target == workspace.root()) return ToolOutput::failure(*path + " é uma pasta");
  return write_bytes(*target, *path, *content, append);
}

// ---- edit_file -------------------------------------------------------------

std::size_t count_occurrences(const std::string& text, const std::string& needle) {
  // Conta sobreposições também: "aa" em "aaa" aparece 2 vezes, e substituir
  // "a primeira" seria um chute.
  std::size_t count = 0;
  for (auto pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1)) {
    ++count;
  }
  return count;
}

ToolOutput edit_file(const Workspace& workspace, const json& args) {
  const std::string* path = string_arg(args, "path");
  if (path == nullptr) return missing_arg("path");
  const std::string* old_text = string_arg(args, "old_text");
  if (old_text == nullptr) return missing_arg("old_text");
  const std::string* new_text = string_arg(args, "new_text");
  if (new_text == nullptr) return missing_arg("new_text");
  if (old_text->empty()) return ToolOutput::failure("old_text não pode ser vazio");

  auto found = existing(workspace, *path, "arquivo não encontrado");
  if (!found) return found.error();
  const auto& [target, status] = *found;
  if (fs::is_directory(status)) return ToolOutput::failure(*path + " é uma pasta");
  std::string content;
  if (!read_whole(target, &content)) {
    return ToolOutput::failure("não foi possível ler " + *path + ": " + std::strerror(errno));
  }
  const std::size_t count = count_occurrences(content, *old_text);
  if (count == 0) return ToolOutput::failure("texto não encontrado em " + *path);
  if (count > 1) {
    return ToolOutput::failure("texto aparece " + std::to_string(count) + " vezes em " + *path +
                               "; inclua mais contexto para que apareça uma vez só");
  }
  content.replace(content.find(*old_text), old_text->size(), *new_text);
  ToolOutput written = write_bytes(target, *path, content, /*append=*/false);
  if (!written.ok) return written;
  return ToolOutput::success("arquivo editado: " + *path);
}

// ---- list_dir --------------------------------------------------------------

ToolOutput list_dir(const Workspace& workspace, const json& args) {
  const std::string* path = string_arg(args, "path");
  if (path == nullptr) return missing_arg("path");
  auto found = existing(workspace, *path, "pasta não encontrada");
  if (!found) return found.error();
  const auto& [target, status] = *found;
  if (!fs::is_directory(status)) return ToolOutput::failure(*path + " não é uma pasta");

  std::vector<std::string> entries;
  std::error_code ec;
  for (fs::directory_iterator it(target, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    std::error_code type_ec;
    if (it->is_directory(type_ec)) name += '/';
    entries.push_back(std::move(name));
  }
  if (ec) return ToolOutput::failure("não foi possível listar " + *path + ": " + ec.message());
  if (entries.empty()) return ToolOutput::success("(pasta vazia)");
  std::sort(entries.begin(), entries.end());
  std::string out;
  for (const std::string& entry : entries) out += entry + "\n";
  return ToolOutput::success(std::move(out));
}

// ---- run_shell -------------------------------------------------------------

struct Pipe {
  int read_end = -1;
  int write_end = -1;
  ~Pipe() {
    if (read_end >= 0) close(read_end);
    if (write_end >= 0) close(write_end);
  }
};

// Depois do fork só chamadas async-signal-safe: o processo pode ter outras
// threads (o mock dos testes, o curl) segurando locks do malloc.
[[noreturn]] void exec_child(const char* command, const char* cwd, int output_fd) {
  setpgid(0, 0);  // grupo próprio: o timeout mata o comando e os filhos dele
  const int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
  dup2(output_fd, STDOUT_FILENO);
  dup2(output_fd, STDERR_FILENO);
#if defined(__linux__) && defined(SYS_close_range)
  syscall(SYS_close_range, 3U, ~0U, 0U);  // não vazar sockets do processo para o comando
#endif
  signal(SIGPIPE, SIG_DFL);  // "yes | head" precisa do SIGPIPE padrão
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  if (chdir(cwd) != 0) {
    constexpr char message[] = "não foi possível entrar na pasta do workspace\n";
    (void)!write(STDERR_FILENO, message, sizeof message - 1);
    _exit(127);
  }
  execl("/bin/sh", "sh", "-c", command, static_cast<char*>(nullptr));
  constexpr char message[] = "não foi possível executar /bin/sh\n";
  (void)!write(STDERR_FILENO, message, sizeof message - 1);
  _exit(127);
}

using Clock = std::chrono::steady_clock;

int remaining_ms(Clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 1000 * 1000));
}

ToolOutput run_shell(const Workspace& workspace, const ShellOptions& options, const json& args) {
  const std::string* command = string_arg(args, "command");
  if (command == nullptr) return missing_arg("command");
  if (command->find('\0') != std::string::npos) {
    return ToolOutput::failure("comando inválido (contém byte nulo)");
  }

  Pipe output;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    return ToolOutput::failure(std::string("não foi possível criar o pipe: ") +
                               std::strerror(errno));
  }
  output.read_end = fds[0];
  output.write_end = fds[1];
  const std::string cwd = workspace.root().string();

  const pid_t pid = fork();
  if (pid < 0) {
    return ToolOutput::failure(std::string("não foi possível criar o processo: ") +
                               std::strerror(errno));
  }
  if (pid == 0) exec_child(command->c_str(), cwd.c_str(), output.write_end);
  setpgid(pid, pid);  // também no pai: evita a corrida com o kill do timeout
  close(output.write_end);
  output.write_end = -1;

  // waitid com WNOWAIT olha sem colher: enquanto o líder é zumbi, o id do
  // grupo continua nosso e o kill(-pid) não acerta um processo alheio.
  const auto has_exited = [pid] {
    siginfo_t info{};
    return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info.si_pid == pid;
  };
  // Começo e fim: erros de compilador e de teste costumam estar no fim da saída.
  MiddleTruncator captured(options.max_output_bytes);
  char buffer[8192];
  // Lê o que houver; false no EOF ou erro. Lê tudo até o fim mesmo passando
  // do limite: parar de ler travaria o comando com o pipe cheio.
  const auto read_some = [&]() {
    const ssize_t n = read(output.read_end, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return true;
    if (n <= 0) return false;
    captured.append(std::string_view(buffer, static_cast<std::size_t>(n)));
    return true;
  };

  const auto deadline = Clock::now() + options.timeout;
  bool timed_out = false;
  bool exited = false;
  while (true) {
    // Fatias curtas: se o comando sai mas deixa um filho em segundo plano
    // segurando o pipe, o EOF não chega; olhamos o processo de tempos em tempos.
    pollfd poll_fd{output.read_end, POLLIN, 0};
    const int ready = poll(&poll_fd, 1, std::min(remaining_ms(deadline), 50));
    if (ready < 0 && errno != EINTR) break;
    if (ready > 0) {
      if (!read_some()) break;  // EOF: o comando fechou a saída
      continue;                 // pode haver mais para ler antes de olhar o relógio
    }
    if (has_exited()) {
      exited = true;
      pollfd drain{output.read_end, POLLIN, 0};
      while (poll(&drain, 1, 0) > 0 && read_some()) {
      }
      break;
    }
    if (Clock::now() >= deadline) {
      timed_out = true;
      break;
    }
  }
  while (!timed_out && !exited) {
    // EOF, mas o processo ainda não saiu (fechou a saída e continua): espera até o prazo.
    if (has_exited()) {
      exited = true;
    } else if (Clock::now() >= deadline) {
      timed_out = true;
    } else {
      poll(nullptr, 0, 5);
    }
  }
  // Mata o grupo inteiro: no timeout, o comando; depois de sair, os filhos que
  // ficaram para trás (nada de processos órfãos deixados pelo modelo).
  kill(-pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }

  // O total vai numa linha à parte, antes da saída: se a etapa cortar de novo
  // (o limite dela pode ser menor), o começo sobrevive e o modelo ainda sabe
  // o tamanho real.
  std::string body;
  if (captured.truncated()) {
    body = "[saída de " + std::to_string(captured.total_bytes()) +
           " bytes: mostrando o começo e o fim]\n";
  }
  body += captured.str();
  if (timed_out) {
    std::string text = "tempo esgotado após " + std::to_string(options.timeout.count()) +
                       " ms; o comando foi encerrado";
    if (!body.empty()) text += "\n" + body;
    return ToolOutput::failure(std::move(text));
  }
  std::string head;
  int code = 0;
  if (WIFEXITED(status)) {
    code = WEXITSTATUS(status);
    head = "código de saída: " + std::to_string(code);
  } else if (WIFSIGNALED(status)) {
    code = 128 + WTERMSIG(status);
    head = "código de saída: " + std::to_string(code) + " (encerrado pelo sinal " +
           std::to_string(WTERMSIG(status)) + ")";
  }
  std::string text = head;
  if (!body.empty()) text += "\n" + body;
  return code == 0 ? ToolOutput::success(std::move(text)) : ToolOutput::failure(std::move(text));
}

}  // namespace

std::vector<Tool> basic_tools(const Workspace& workspace, ShellOptions shell) {
  std::vector<Tool> tools;
  tools.push_back({{"read_file",
                    "Lê um arquivo de texto do workspace e devolve o conteúdo inteiro. "
                    "O caminho é relativo à raiz do workspace.",
                    schema({{"path", "caminho do arquivo, relativo à raiz do workspace"}})},
                   false,
                   [workspace](const json& args) { return read_file(workspace, args); }});
  tools.push_back(
      {{"write_file",
        "Cria ou sobrescreve um arquivo do workspace com o conteúdo dado (cria as pastas que "
        "faltarem). Para trocar um trecho de um arquivo existente, prefira edit_file.",
        schema({{"path", "caminho do arquivo, relativo à raiz do workspace"},
                {"content", "o conteúdo completo do arquivo"}})},
       true,
       [workspace](const json& args) { return write_file(workspace, args, false); }});
  tools.push_back(
      {{"edit_file",
        "Troca um trecho de um arquivo do workspace: old_text precisa aparecer exatamente uma "
        "vez no arquivo (copie-o do read_file, com espaços e quebras de linha) e é substituído "
        "por new_text.",
        schema({{"path", "caminho do arquivo, relativo à raiz do workspace"},
                {"old_text", "o trecho atual, que aparece exatamente uma vez no arquivo"},
                {"new_text", "o trecho que entra no lugar"}})},
       true,
       [workspace](const json& args) { return edit_file(workspace, args); }});
  tools.push_back(
      {{"list_dir",
        "Lista o conteúdo de uma pasta do workspace, em ordem alfabética; pastas terminam "
        "com /. Use \".\" para a raiz.",
        schema({{"path", "caminho da pasta, relativo à raiz do workspace (\".\" é a raiz)"}})},
       false,
       [workspace](const json& args) { return list_dir(workspace, args); }});
  tools.push_back(
      {{"run_shell",
        "Executa um comando com /bin/sh -c na raiz do workspace e devolve o código de saída "
        "seguido da saída (stdout e stderr juntos). Comandos longos são encerrados pelo "
        "tempo limite (" +
            std::to_string(shell.timeout.count()) +
            " ms) e saídas grandes são cortadas no meio (ficam o começo e o fim). Não há entrada "
            "padrão (stdin).",
        schema({{"command", "o comando, como seria digitado num terminal"}})},
       true,
       [workspace, shell](const json& args) { return run_shell(workspace, shell, args); }});
  return tools;
}

Tool append_file_tool(const Workspace& workspace) {
  return {{"append_file",
           "Acrescenta texto ao fim de um arquivo do workspace (cria o arquivo e as pastas se "
           "não existirem). Cada chamada acrescenta de novo: repetir duplica o texto.",
           schema({{"path", "caminho do arquivo, relativo à raiz do workspace"},
                   {"content", "o texto a acrescentar no fim do arquivo"}})},
          true,
          [workspace](const json& args) { return write_file(workspace, args, true); }};
}

}  // namespace hz
