#include "hz/tools.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

#include "hz/text.hpp"

namespace hz {

using nlohmann::json;

namespace {

// Arquivos maiores que isso não cabem numa conversa; melhor recusar com
// uma mensagem do que estourar a janela de contexto (ou a memória).
constexpr std::size_t kMaxReadBytes = 1024 * 1024;

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

std::string error_text(int error) { return std::strerror(error); }

// errno lido antes de montar o texto: uma alocação no meio poderia trocá-lo.
ToolOutput cannot(const char* action, const std::string& path, int error) {
  return ToolOutput::failure(std::string("não foi possível ") + action + " " + path + ": " +
                             error_text(error));
}

// ---- descritores -----------------------------------------------------------

// Lê fd até o fim, mas no máximo limit + 1 bytes: quem chama sabe que passou
// do limite sem ler um arquivo que cresceu depois do fstat. 0 ou o errno.
int read_up_to(int fd, std::size_t limit, std::string* out) {
  char buffer[65536];
  while (out->size() <= limit) {
    const std::size_t want = std::min(sizeof buffer, limit + 1 - out->size());
    const ssize_t n = read(fd, buffer, want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) break;
    out->append(buffer, static_cast<std::size_t>(n));
  }
  return 0;
}

int write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

// ---- o alvo de uma ferramenta de arquivo -----------------------------------

// Um link simbólico que não estava lá na checagem: alguém mexe na pasta ao
// mesmo tempo. Recusar é o único jeito de não seguir para fora.
ToolOutput path_changed(const std::string& path) {
  return ToolOutput::failure("o caminho mudou durante a operação: " + path +
                             " (apareceu um link simbólico no caminho); tente de novo");
}

const char* kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "é um FIFO";
  if (S_ISCHR(mode)) return "é um dispositivo de caractere";
  if (S_ISBLK(mode)) return "é um dispositivo de bloco";
  if (S_ISSOCK(mode)) return "é um socket";
  return "é um arquivo especial";
}

// Ler um FIFO esperaria um escritor para sempre; um dispositivo pode não ter fim.
ToolOutput not_regular(const std::string& path, mode_t mode) {
  return ToolOutput::failure(path + " não é um arquivo comum (" + kind_of(mode) +
                             "); as ferramentas de arquivo só leem e escrevem arquivos comuns");
}

ToolOutput too_big(const std::string& path, std::uintmax_t size) {
  return ToolOutput::failure("arquivo grande demais: " + path + " (" + std::to_string(size) +
                             " bytes; o limite é " + std::to_string(kMaxReadBytes) + ")");
}

// O alvo de um caminho do modelo: a pasta dele, o tipo e, para arquivo comum
// ou pasta, um descritor aberto para leitura. Outros tipos não são abertos
// (abrir um dispositivo pode ter efeito); fd fica inválido e info diz o tipo.
struct Target {
  Placed placed;
  bool exists = false;
  struct stat info {};
  FileDescriptor fd;
};

struct TargetRules {
  const char* not_found = "arquivo não encontrado";  // começo da falha "<...>: <path>"
  bool create_dirs = false;                          // write_file: cria as pastas que faltam
  bool may_be_missing = false;                       // write_file: o arquivo pode ser novo
  bool open_for_reading = true;  // write_file: só o tipo e o modo importam, o conteúdo não é lido
};

ToolOutput place_failure(const std::string& path, const PlaceError& error,
                         const TargetRules& rules) {
  const int e = error.error_number;
  if (e == 0) return ToolOutput::failure(error.message);
  if (e == ELOOP || e == EXDEV) return path_changed(path);
  if (rules.create_dirs) {
    return cannot("criar as pastas de", path, e);
  }
  if (e == ENOENT || e == ENOTDIR) {
    return ToolOutput::failure(std::string(rules.not_found) + ": " + path);
  }
  return cannot("abrir", path, e);
}

Result<Target, ToolOutput> open_target(const Workspace& workspace, const std::string& path,
                                       const TargetRules& rules) {
  auto placed = workspace.place(path, rules.create_dirs);
  if (!placed) return place_failure(path, placed.error(), rules);
  Target target;
  target.placed = std::move(placed).value();
  const int dir = target.placed.dir.get();
  const char* name = target.placed.name.c_str();
  const auto missing = [&]() -> Result<Target, ToolOutput> {
    if (rules.may_be_missing) return std::move(target);
    return ToolOutput::failure(std::string(rules.not_found) + ": " + path);
  };
  if (fstatat(dir, name, &target.info, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return missing();
    return cannot("abrir", path, errno);
  }
  target.exists = true;
  if (S_ISLNK(target.info.st_mode)) return path_changed(path);
  const bool regular_or_dir = S_ISREG(target.info.st_mode) || S_ISDIR(target.info.st_mode);
  if (!rules.open_for_reading || !regular_or_dir) return target;
  // O_NONBLOCK: se no meio tempo o nome virou um FIFO, abrir não trava, e o
  // fstat abaixo recusa. O_NOFOLLOW: se virou um link, falha com ELOOP.
  const int fd = openat(dir, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ELOOP) return path_changed(path);
    if (errno == ENOENT) return missing();
    return cannot("abrir", path, errno);
  }
  target.fd = FileDescriptor(fd);
  if (fstat(fd, &target.info) != 0) {
    return cannot("abrir", path, errno);
  }
  if (!S_ISREG(target.info.st_mode) && !S_ISDIR(target.info.st_mode)) target.fd = FileDescriptor();
  return target;
}

// O conteúdo de um arquivo comum já aberto, respeitando o limite.
Result<std::string, ToolOutput> read_content(const Target& target, const std::string& path) {
  if (static_cast<std::uintmax_t>(target.info.st_size) > kMaxReadBytes) {
    return too_big(path, static_cast<std::uintmax_t>(target.info.st_size));
  }
  std::string content;
  if (const int error = read_up_to(target.fd.get(), kMaxReadBytes, &content); error != 0) {
    return cannot("ler", path, error);
  }
  if (content.size() > kMaxReadBytes) {  // cresceu depois do fstat
    struct stat now {};
    const bool known = fstat(target.fd.get(), &now) == 0;
    return too_big(path, known ? static_cast<std::uintmax_t>(now.st_size) : content.size());
  }
  return content;
}

// ---- escrita: arquivo temporário + rename ----------------------------------

// Um nome que não colide com o de outra escrita em andamento (de outra
// thread ou de outro processo); O_EXCL garante.
std::string temporary_name() {
  static std::atomic<unsigned> counter{0};
  return ".hz-tmp-" + std::to_string(getpid()) + "-" +
         std::to_string(counter.fetch_add(1, std::memory_order_relaxed));
}

// Troca o conteúdo de dir/name por content sem nunca deixá-lo pela metade:
// escreve um temporário na mesma pasta, fsync, e renameat por cima. Com
// previous (o stat do arquivo atual), mantém modo e dono. 0 ou o errno.
int replace_content(int dir, const std::string& name, std::string_view content,
                    const struct stat* previous) {
  std::string temp;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    temp = temporary_name();
    // Com arquivo anterior, nasce 0600 e ganha o modo dele logo abaixo: o
    // conteúdo novo de um arquivo privado nunca fica visível para outros.
    const mode_t mode = previous != nullptr ? 0600 : 0666;
    fd = openat(dir, temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0 && errno != EEXIST) return errno;
  }
  if (fd < 0) return EEXIST;
  FileDescriptor file(fd);
  int error = 0;
  if (previous != nullptr) {
    if (previous->st_uid != geteuid() || previous->st_gid != getegid()) {
      (void)!fchown(fd, previous->st_uid, previous->st_gid);  // só root consegue; tudo bem
    }
    if (fchmod(fd, previous->st_mode & 07777) != 0) error = errno;
  }
  if (error == 0) error = write_all(fd, content);
  if (error == 0 && fsync(fd) != 0) error = errno;
  if (error == 0 && close(file.release()) != 0) error = errno;
  if (error == 0 && renameat(dir, temp.c_str(), dir, name.c_str()) != 0) error = errno;
  if (error != 0) {
    unlinkat(dir, temp.c_str(), 0);
    return error;
  }
  fsync(dir);  // o rename em si também vai para o disco; se falhar, o conteúdo já está certo
  return 0;
}

ToolOutput write_failure(const std::string& path, int error, const char* kept) {
  return ToolOutput::failure("falha ao escrever " + path + ": " + error_text(error) + " (" + kept +
                             ")");
}

// ---- read_file -------------------------------------------------------------

ToolOutput read_file(const Workspace& workspace, const json& args) {
  const std::string* path = string_arg(args, "path");
  if (path == nullptr) return missing_arg("path");
  auto target = open_target(workspace, *path, {});
  if (!target) return target.error();
  if (S_ISDIR(target->info.st_mode)) {
    return ToolOutput::failure(*path + " é uma pasta; use list_dir para ver o conteúdo");
  }
  if (!S_ISREG(target->info.st_mode)) return not_regular(*path, target->info.st_mode);
  auto content = read_content(*target, *path);
  if (!content) return content.error();
  return ToolOutput::success(std::move(content).value());
}

// ---- write_file / append_file ----------------------------------------------

ToolOutput written(const std::string& path, std::size_t bytes) {
  return ToolOutput::success("arquivo escrito: " + path + " (" + std::to_string(bytes) + " bytes)");
}

// Acrescentar é escrever no fim do próprio arquivo (não há original a
// perder); se a escrita falha no meio, o arquivo volta ao tamanho de antes.
// Como o write_file e o edit_file, volta só depois de o texto estar no disco
// (fdatasync, e a pasta, que pode ter ganho o arquivo): quem grava o resultado
// num journal logo depois (a etapa 04) não fica com um resultado que uma
// queda de energia desmentiria. Um fdatasync que falha desfaz o acréscimo.
ToolOutput append_to(const Target& target, const std::string& path, const std::string& content) {
  const int fd =
      openat(target.placed.dir.get(), target.placed.name.c_str(),
             O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0666);
  if (fd < 0) {
    if (errno == ELOOP) return path_changed(path);
    return cannot("abrir", path, errno);
  }
  FileDescriptor file(fd);
  struct stat info {};
  if (fstat(fd, &info) != 0) {
    return cannot("abrir", path, errno);
  }
  if (!S_ISREG(info.st_mode)) return not_regular(path, info.st_mode);
  int error = write_all(fd, content);
  if (error == 0 && fdatasync(fd) != 0) error = errno;
  if (error != 0) {
    (void)!ftruncate(fd, info.st_size);
    return write_failure(path, error, "nada foi acrescentado");
  }
  fsync(target.placed.dir.get());  // um arquivo novo: o nome dele também vai para o disco
  return ToolOutput::success(appended_text(
      path, content.size(), static_cast<std::uint64_t>(info.st_size) + content.size()));
}

ToolOutput write_file(const Workspace& workspace, const json& args, bool append) {
  const std::string* path = string_arg(args, "path");
  if (path == nullptr) return missing_arg("path");
  const std::string* content = string_arg(args, "content");
  if (content == nullptr) return missing_arg("content");
  // "notas/" nomeia uma pasta: escrever nela criaria um arquivo "notas".
  if (!path->empty() && path->back() == '/') {
    return ToolOutput::failure(*path +
                               " termina em /, o nome de uma pasta: dê o caminho de um arquivo");
  }
  TargetRules rules;
  rules.create_dirs = true;
  rules.may_be_missing = true;
  rules.open_for_reading = false;
  auto target = open_target(workspace, *path, rules);
  if (!target) return target.error();
  if (target->exists && S_ISDIR(target->info.st_mode)) {
    return ToolOutput::failure(*path + " é uma pasta");
  }
  if (target->exists && !S_ISREG(target->info.st_mode)) {
    return not_regular(*path, target->info.st_mode);
  }
  if (append) return append_to(*target, *path, *content);
  const struct stat* previous = target->exists ? &target->info : nullptr;
  if (const int error =
          replace_content(target->placed.dir.get(), target->placed.name, *content, previous);
      error != 0) {
    return write_failure(
        *path, error,
        previous != nullptr ? "o conteúdo anterior foi mantido" : "o arquivo não foi criado");
  }
  return written(*path, content->size());
}

// ---- edit_file -------------------------------------------------------------

ToolOutput edit_file(const Workspace& workspace, const json& args) {
  const std::string* path = string_arg(args, "path");
  if (path == nullptr) return missing_arg("path");
  const std::string* old_text = string_arg(args, "old_text");
  if (old_text == nullptr) return missing_arg("old_text");
  const std::string* new_text = string_arg(args, "new_text");
  if (new_text == nullptr) return missing_arg("new_text");
  if (old_text->empty()) return ToolOutput::failure("old_text não pode ser vazio");

  auto target = open_target(workspace, *path, {});
  if (!target) return target.error();
  if (S_ISDIR(target->info.st_mode)) return ToolOutput::failure(*path + " é uma pasta");
  if (!S_ISREG(target->info.st_mode)) return not_regular(*path, target->info.st_mode);
  auto read = read_content(*target, *path);
  if (!read) return read.error();
  const TextEdit edit = edit_text(std::move(*read), *old_text, *new_text);
  if (edit.occurrences == 0) return ToolOutput::failure("texto não encontrado em " + *path);
  if (edit.occurrences > 1) {
    return ToolOutput::failure("texto aparece " + std::to_string(edit.occurrences) + " vezes em " +
                               *path + "; inclua mais contexto para que apareça uma vez só");
  }
  if (const int error =
          replace_content(target->placed.dir.get(), target->placed.name, edit.text, &target->info);
      error != 0) {
    return write_failure(*path, error, "o conteúdo anterior foi mantido");
  }
  return ToolOutput::success("arquivo editado: " + *path);
}

// ---- list_dir --------------------------------------------------------------

ToolOutput list_dir(const Workspace& workspace, const json& args) {
  const std::string* path = string_arg(args, "path");
  if (path == nullptr) return missing_arg("path");
  TargetRules rules;
  rules.not_found = "pasta não encontrada";
  auto target = open_target(workspace, *path, rules);
  if (!target) return target.error();
  if (!S_ISDIR(target->info.st_mode)) return ToolOutput::failure(*path + " não é uma pasta");

  DIR* dir = fdopendir(target->fd.get());
  if (dir == nullptr) {
    return cannot("listar", *path, errno);
  }
  target->fd.release();  // agora é do DIR*
  std::vector<std::string> entries;
  int error = 0;
  while (true) {
    errno = 0;
    const dirent* entry = readdir(dir);
    if (entry == nullptr) {
      error = errno;
      break;
    }
    std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    // Segue links como um ls -F: um link para uma pasta aparece com "/". É
    // só um stat; o conteúdo de lá de fora não é lido.
    struct stat info {};
    if (fstatat(dirfd(dir), entry->d_name, &info, 0) == 0 && S_ISDIR(info.st_mode)) name += '/';
    entries.push_back(std::move(name));
  }
  closedir(dir);
  if (error != 0) {
    return cannot("listar", *path, error);
  }
  if (entries.empty()) return ToolOutput::success("(pasta vazia)");
  std::sort(entries.begin(), entries.end());
  std::string out;
  for (const std::string& entry : entries) out += entry + "\n";
  return ToolOutput::success(std::move(out));
}

// ---- run_shell -------------------------------------------------------------

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// De quanto em quanto tempo o dreno olha o processo e o pedido de cancelamento.
constexpr milliseconds kPollSlice{50};
// Depois que o shell sai, quanto a saída ainda é lida: o que já estava no
// pipe chega; um filho em segundo plano que segura o pipe não prende a resposta.
constexpr milliseconds kDrainAfterExit{100};
// No tempo esgotado ou no cancelamento: do SIGTERM ao SIGKILL.
constexpr milliseconds kKillGrace{300};

// pipe com FD_CLOEXEC nas duas pontas. No Linux, pipe2 faz isso de uma vez
// (sem a janela em que um fork de outra thread herdaria as pontas); no
// macOS não há pipe2, e fcntl logo depois é o que existe.
bool make_pipe(int fds[2]) {
#ifdef __linux__
  return pipe2(fds, O_CLOEXEC) == 0;
#else
  if (pipe(fds) != 0) return false;
  for (int i = 0; i < 2; ++i) {
    if (fcntl(fds[i], F_SETFD, FD_CLOEXEC) != 0) {
      const int error = errno;
      close(fds[0]);
      close(fds[1]);
      errno = error;
      return false;
    }
  }
  return true;
#endif
}

// Os grupos dos comandos que rodam agora (0: vaga livre), para
// kill_running_commands. Vagas fixas de atomics: quem lê é um tratador de
// sinal, que não pode alocar nem travar. Mais comandos ao mesmo tempo do que
// vagas (só em testes com muitas threads) ficam sem registro.
std::array<std::atomic<pid_t>, 16> g_running{};
static_assert(std::atomic<pid_t>::is_always_lock_free);

// A vaga de um comando em g_running, do spawn até o último SIGKILL.
class RunningGroup {
 public:
  explicit RunningGroup(pid_t group) {
    for (std::atomic<pid_t>& slot : g_running) {
      pid_t none = 0;
      if (slot.compare_exchange_strong(none, group)) {
        slot_ = &slot;
        return;
      }
    }
  }
  RunningGroup(const RunningGroup&) = delete;
  RunningGroup& operator=(const RunningGroup&) = delete;
  ~RunningGroup() { forget(); }

  // Antes de colher o líder: depois disso o id do grupo pode ser reusado.
  void forget() {
    if (slot_ != nullptr) slot_->store(0);
    slot_ = nullptr;
  }

 private:
  std::atomic<pid_t>* slot_ = nullptr;
};

// O shell rodando, líder do próprio grupo, com stdout e stderr no pipe.
struct ShellChild {
  pid_t pid = -1;
  FileDescriptor output;  // a ponta de leitura
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

Result<ShellChild, std::string> spawn_shell(const std::string& command, const std::string& cwd) {
  int fds[2];
  if (!make_pipe(fds)) {
    const int error = errno;
    return "não foi possível criar o pipe: " + error_text(error);
  }
  ShellChild child;
  child.output = FileDescriptor(fds[0]);
  FileDescriptor write_end(fds[1]);
  child.pid = fork();
  if (child.pid < 0) {
    const int error = errno;
    return "não foi possível criar o processo: " + error_text(error);
  }
  if (child.pid == 0) exec_child(command.c_str(), cwd.c_str(), write_end.get());
  setpgid(child.pid, child.pid);  // também no pai: evita a corrida com o kill do timeout
  return child;
}

// waitid com WNOWAIT olha sem colher: enquanto o líder é zumbi, o id do
// grupo continua nosso e o kill(-pid) não acerta um processo alheio.
bool has_exited(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == pid;
}

int wait_ms(Clock::time_point until, milliseconds slice) {
  const auto left = std::chrono::duration_cast<milliseconds>(until - Clock::now());
  return static_cast<int>(std::clamp(left, milliseconds(0), slice).count());
}

enum class Ending { exited, timed_out, cancelled };

// Lê a saída do comando até ele sair (e mais kDrainAfterExit, ou até o EOF),
// o prazo vencer ou o cancelamento chegar. Lê tudo, mesmo passando do limite:
// parar de ler travaria o comando com o pipe cheio.
Ending drain(const ShellChild& child, const ShellOptions& options, MiddleTruncator* captured) {
  const auto deadline = Clock::now() + options.timeout;
  std::optional<Clock::time_point> stop_reading;  // definido quando o shell sai
  bool eof = false;
  char buffer[8192];
  while (true) {
    if (options.cancel != nullptr && options.cancel->load()) return Ending::cancelled;
    if (!stop_reading && has_exited(child.pid)) stop_reading = Clock::now() + kDrainAfterExit;
    if (stop_reading && (eof || Clock::now() >= *stop_reading)) return Ending::exited;
    if (!stop_reading && Clock::now() >= deadline) return Ending::timed_out;
    const int wait =
        wait_ms(stop_reading ? *stop_reading : deadline, eof ? milliseconds(5) : kPollSlice);
    if (eof) {  // o comando fechou a saída e continua: só falta ele sair
      poll(nullptr, 0, wait);
      continue;
    }
    pollfd ready{child.output.get(), POLLIN, 0};
    if (poll(&ready, 1, wait) <= 0) continue;  // nada ainda (ou EINTR): olha o processo de novo
    const ssize_t n = read(child.output.get(), buffer, sizeof buffer);
    if (n > 0) {
      captured->append(std::string_view(buffer, static_cast<std::size_t>(n)));
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
      eof = true;
    }
  }
}

// Encerra o grupo do comando e colhe o shell; devolve o status do waitpid.
// Se o shell ainda roda, SIGTERM primeiro (o comando pode limpar o que
// fazia) e SIGKILL depois de kKillGrace. O SIGKILL final vai sempre: mata os
// filhos que ficaram em segundo plano ou que ignoram o SIGTERM. O líder só é
// colhido depois dele, para o id do grupo não ser reusado no meio.
int stop_group_and_reap(pid_t pid, bool exited, RunningGroup& running) {
  if (!exited) {
    kill(-pid, SIGTERM);
    const auto give_up = Clock::now() + kKillGrace;
    while (!has_exited(pid) && Clock::now() < give_up) poll(nullptr, 0, 5);
  }
  kill(-pid, SIGKILL);
  running.forget();
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// O total vai numa linha à parte, antes da saída: se a etapa cortar de novo
// (o limite dela pode ser menor), o começo sobrevive e o modelo ainda sabe
// o tamanho real.
std::string output_body(const MiddleTruncator& captured) {
  std::string body;
  if (captured.truncated()) {
    body = "[saída de " + std::to_string(captured.total_bytes()) +
           " bytes: mostrando o começo e o fim]\n";
  }
  return body + captured.str();
}

ToolOutput with_body(bool ok, std::string head, const std::string& body) {
  if (!body.empty()) head += "\n" + body;
  return ok ? ToolOutput::success(std::move(head)) : ToolOutput::failure(std::move(head));
}

ToolOutput shell_result(Ending ending, int status, const MiddleTruncator& captured,
                        const ShellOptions& options) {
  const std::string body = output_body(captured);
  if (ending == Ending::timed_out) {
    return with_body(false,
                     "tempo esgotado após " + std::to_string(options.timeout.count()) +
                         " ms; o comando foi encerrado",
                     body);
  }
  if (ending == Ending::cancelled) {
    return with_body(false, "comando cancelado pelo usuário; o comando foi encerrado", body);
  }
  int code = 0;
  std::string head;
  if (WIFEXITED(status)) {
    code = WEXITSTATUS(status);
    head = "código de saída: " + std::to_string(code);
  } else if (WIFSIGNALED(status)) {
    code = 128 + WTERMSIG(status);
    head = "código de saída: " + std::to_string(code) + " (encerrado pelo sinal " +
           std::to_string(WTERMSIG(status)) + ")";
  }
  return with_body(code == 0, std::move(head), body);
}

ToolOutput run_shell(const Workspace& workspace, const ShellOptions& options, const json& args) {
  const std::string* command = string_arg(args, "command");
  if (command == nullptr) return missing_arg("command");
  if (command->find('\0') != std::string::npos) {
    return ToolOutput::failure("comando inválido (contém byte nulo)");
  }
  if (options.cancel != nullptr && options.cancel->load()) {
    return ToolOutput::failure("comando cancelado pelo usuário; não chegou a ser executado");
  }
  auto child = spawn_shell(*command, workspace.root().string());
  if (!child) return ToolOutput::failure(child.error());
  RunningGroup running(child->pid);
  // Começo e fim: erros de compilador e de teste costumam estar no fim da saída.
  MiddleTruncator captured(options.max_output_bytes);
  const Ending ending = drain(*child, options, &captured);
  const int status = stop_group_and_reap(child->pid, ending == Ending::exited, running);
  return shell_result(ending, status, captured, options);
}

}  // namespace

std::vector<Tool> basic_tools(const Workspace& workspace, ShellOptions shell) {
  std::vector<Tool> tools;
  tools.push_back({{"read_file",
                    "Lê um arquivo de texto do workspace e devolve o conteúdo inteiro. "
                    "O caminho é relativo à raiz do workspace.",
                    schema({{"path", "caminho do arquivo, relativo à raiz do workspace"}})},
                   false,
                   [workspace](const json& args) { return read_file(workspace, args); },
                   Idempotency::yes});
  tools.push_back(
      {{"write_file",
        "Cria ou sobrescreve um arquivo do workspace com o conteúdo dado (cria as pastas que "
        "faltarem). Para trocar um trecho de um arquivo existente, prefira edit_file.",
        schema({{"path", "caminho do arquivo, relativo à raiz do workspace"},
                {"content", "o conteúdo completo do arquivo"}})},
       true,
       [workspace](const json& args) { return write_file(workspace, args, false); },
       Idempotency::yes});
  tools.push_back(
      {{"edit_file",
        "Troca um trecho de um arquivo do workspace: old_text precisa aparecer exatamente uma "
        "vez no arquivo (copie-o do read_file, com espaços e quebras de linha) e é substituído "
        "por new_text.",
        schema({{"path", "caminho do arquivo, relativo à raiz do workspace"},
                {"old_text", "o trecho atual, que aparece exatamente uma vez no arquivo"},
                {"new_text", "o trecho que entra no lugar"}})},
       true,
       [workspace](const json& args) { return edit_file(workspace, args); },
       Idempotency::check});
  tools.push_back(
      {{"list_dir",
        "Lista o conteúdo de uma pasta do workspace, em ordem alfabética; pastas terminam "
        "com /. Use \".\" para a raiz.",
        schema({{"path", "caminho da pasta, relativo à raiz do workspace (\".\" é a raiz)"}})},
       false,
       [workspace](const json& args) { return list_dir(workspace, args); },
       Idempotency::yes});
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
       [workspace, shell](const json& args) { return run_shell(workspace, shell, args); },
       Idempotency::no});
  return tools;
}

TextEdit edit_text(std::string text, std::string_view old_text, std::string_view new_text) {
  TextEdit edit;
  if (!old_text.empty()) {
    for (auto pos = text.find(old_text); pos != std::string::npos;
         pos = text.find(old_text, pos + 1)) {
      ++edit.occurrences;
    }
  }
  if (edit.occurrences == 1) text.replace(text.find(old_text), old_text.size(), new_text);
  edit.text = std::move(text);
  return edit;
}

std::string appended_text(std::string_view path, std::uint64_t bytes, std::uint64_t size_after) {
  return "texto acrescentado a " + std::string(path) + " (" + bytes_text(bytes) + "; agora com " +
         bytes_text(size_after) + ")";
}

Tool append_file_tool(const Workspace& workspace) {
  return {{"append_file",
           "Acrescenta texto ao fim de um arquivo do workspace (cria o arquivo e as pastas se "
           "não existirem). Cada chamada acrescenta de novo: repetir duplica o texto.",
           schema({{"path", "caminho do arquivo, relativo à raiz do workspace"},
                   {"content", "o texto a acrescentar no fim do arquivo"}})},
          true,
          [workspace](const json& args) { return write_file(workspace, args, true); },
          Idempotency::check};
}

void kill_running_commands() noexcept {
  for (const std::atomic<pid_t>& slot : g_running) {
    if (const pid_t group = slot.load(); group > 0) kill(-group, SIGKILL);
  }
}

namespace {

void die_without_commands(int signal_number) {
  kill_running_commands();
  signal(signal_number, SIG_DFL);
  raise(signal_number);  // bloqueado até o tratador voltar; então o processo morre dele
}

}  // namespace

void end_commands_on_signals() {
  struct sigaction action {};
  action.sa_handler = die_without_commands;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP})
    sigaction(signal_number, &action, nullptr);
}

}  // namespace hz
