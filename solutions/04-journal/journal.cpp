#include "journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <utility>

#include "hz/text.hpp"

namespace hz {

namespace fs = std::filesystem;

namespace {

std::string error_text(int error) { return std::strerror(error); }

std::string named(const fs::path& path) { return "journal " + path.string(); }

// ---- a leitura ----------------------------------------------------------------

// Todo registro começa assim, e só no começo da linha: dentro de um texto
// JSON as aspas vêm escapadas (\").
constexpr std::string_view kLineStart = R"({"crc":")";

bool may_be_torn(LineError::Kind kind, std::string_view line) {
  // Um write interrompido deixa um prefixo da linha: nunca JSON completo, e
  // bytes nulos se o sistema de arquivos aumentou o tamanho antes dos dados.
  // Um crc errado no último registro pode ser o mesmo, se o \n veio antes
  // do resto (ou se os dados do fim nunca chegaram ao disco). Mas um write é
  // de um registro só: uma linha com o começo de outro no meio é um \n que se
  // estragou entre dois registros completos, e cortá-la apagaria os dois.
  if (line.find(kLineStart, 1) != std::string_view::npos) return false;
  return kind == LineError::Kind::not_json || kind == LineError::Kind::bad_crc;
}

std::string where(int line, std::int64_t seq) {
  return "linha " + std::to_string(line) + " (seq esperado " + std::to_string(seq) + ")";
}

// O aviso do fim cortado. why diz o que faltou na linha: "sem a quebra de linha
// do fim" quando ela não tem o \n; com o \n, a mensagem do decode_line.
std::string torn_warning(int line, std::int64_t seq, const std::string& why, std::size_t cut,
                         std::int64_t last_good) {
  return "o último registro, na " + where(line, seq) + ", estava incompleto (" + why +
         "): " + bytes_text(cut) + " cortados; o journal agora termina no seq " +
         std::to_string(last_good);
}

std::string too_large(int line, std::int64_t seq, std::size_t bytes) {
  return "registro grande demais na " + where(line, seq) + ": " + std::to_string(bytes) +
         " bytes, e o limite de um registro é " + std::to_string(kMaxRecordBytes / (1024 * 1024)) +
         " MiB (o maior que o harness grava). O arquivo não foi alterado";
}

std::string damage(int line, std::int64_t seq, const LineError& error, bool last) {
  std::string text = "registro danificado na " + where(line, seq) + ": " + error.message;
  if (!last) text += "; há registros depois dele, então não é o fim de uma escrita interrompida";
  return text + ". O arquivo não foi alterado";
}

// ---- os descritores ----------------------------------------------------------------

Result<FileDescriptor> open_locked(const fs::path& path, int flags) {
  const int fd =
      ::open(path.c_str(), flags | O_RDWR | O_APPEND | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW, 0644);
  if (fd < 0) {
    const int error = errno;
    if (error == ELOOP) {
      return Error{named(path) +
                   " é um link simbólico: passe o caminho do arquivo de verdade (o journal não "
                   "segue links, para não escrever onde um deles apontar)"};
    }
    if (error == ENOENT && (flags & O_CREAT) != 0) {
      return Error{"não foi possível criar o " + named(path) + ": a pasta dele não existe"};
    }
    if (error == ENOENT) return Error{named(path) + " não existe: não há nada para retomar"};
    return Error{"não foi possível abrir o " + named(path) + ": " + error_text(error)};
  }
  FileDescriptor file(fd);
  struct stat info {};
  if (fstat(fd, &info) != 0) {
    const int error = errno;
    return Error{"não foi possível abrir o " + named(path) + ": " + error_text(error)};
  }
  if (!S_ISREG(info.st_mode)) return Error{named(path) + " não é um arquivo comum"};
  // flock trava a descrição do arquivo aberto: um segundo open, mesmo neste
  // processo, é outro dono e é recusado. A trava some com o close (ou a morte).
  while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    if (error == EINTR) continue;
    if (error == EWOULDBLOCK) {
      return Error{named(path) +
                   " está em uso por outro processo (outro harness com o mesmo "
                   "--journal?): só um pode escrever nele de cada vez"};
    }
    return Error{"não foi possível travar o " + named(path) + ": " + error_text(error)};
  }
  return file;
}

Result<std::string> read_all(int fd, const fs::path& path) {
  std::string bytes;
  char buffer[65536];
  while (true) {
    const ssize_t n = pread(fd, buffer, sizeof buffer, static_cast<off_t>(bytes.size()));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      return Error{"não foi possível ler o " + named(path) + ": " + error_text(error)};
    }
    if (n == 0) return bytes;
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
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

int sync_data(int fd) {
  while (fdatasync(fd) != 0) {
    if (errno != EINTR) return errno;
  }
  return 0;
}

// O nome de um arquivo novo só sobrevive a uma queda com o fsync da pasta (fsync(2)).
void sync_parent(const fs::path& path) {
  const fs::path parent = path.has_parent_path() ? path.parent_path() : fs::path(".");
  const int dir = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return;
  FileDescriptor closer(dir);
  (void)fsync(dir);  // se falhar, o arquivo existe; só o nome pode não sobreviver a uma queda
}

// Lê o journal já travado, confere e corta um fim rasgado.
struct Loaded {
  JournalRead read;
  std::uint64_t size = 0;
};

Result<Loaded> load(int fd, const fs::path& path) {
  auto bytes = read_all(fd, path);
  if (!bytes) return bytes.error();
  if (bytes->empty()) return Error{named(path) + " está vazio: não há nada para retomar"};
  auto scan = scan_journal(*bytes);
  if (!scan) return Error{named(path) + ": " + scan.error().message};
  Loaded loaded;
  loaded.size = scan->good_bytes;
  if (!scan->torn.empty()) {
    // O corte vai para o disco antes de qualquer acréscimo: se cair de novo
    // logo depois, o próximo registro não gruda no pedaço.
    int error = ftruncate(fd, static_cast<off_t>(scan->good_bytes)) != 0 ? errno : 0;
    if (error == 0) error = sync_data(fd);
    if (error != 0) {
      return Error{named(path) + ": " + scan->torn + "; mas o corte falhou: " + error_text(error)};
    }
    loaded.read.warning = named(path) + ": " + scan->torn;
  }
  if (scan->records.empty()) {
    return Error{loaded.read.warning + "; não sobrou nenhum registro: não há nada para retomar"};
  }
  loaded.read.records = std::move(scan->records);
  return loaded;
}

}  // namespace

// listing: scan-journal
Result<JournalScan> scan_journal(std::string_view bytes) {
  JournalScan scan;
  std::size_t start = 0;
  int line = 0;
  while (start < bytes.size()) {
    ++line;
    const std::int64_t seq = static_cast<std::int64_t>(scan.records.size()) + 1;
    const std::size_t newline = bytes.find('\n', start);
    const bool terminated = newline != std::string_view::npos;
    const std::size_t end = terminated ? newline : bytes.size();
    const bool last = !terminated || end + 1 == bytes.size();
    const std::string_view text = bytes.substr(start, end - start);
    if (end - start + 1 > kMaxRecordBytes) return Error{too_large(line, seq, end - start + 1)};
    auto record = decode_line(text, seq);
    // listing: torn-tail
    // EXERCICIO 04-journal/torn-tail: as linhas que são registros inteiros
    if (!terminated || !record) {
      if (!terminated || (last && may_be_torn(record.error().kind, text))) {
        const std::string why =
            !terminated ? "sem a quebra de linha do fim" : record.error().message;
        scan.torn = torn_warning(line, seq, why, bytes.size() - start, seq - 1);
        return scan;
      }
      return Error{damage(line, seq, record.error(), last)};
    }
    // FIM-EXERCICIO
    // end-listing: torn-tail
    scan.records.push_back(std::move(record).value());
    start = end + 1;
    scan.good_bytes = start;
  }
  return scan;
}
// end-listing: scan-journal

Result<JournalRead> read_journal(const fs::path& path) {
  auto fd = open_locked(path, 0);
  if (!fd) return fd.error();
  auto loaded = load(fd->get(), path);
  if (!loaded) return loaded.error();
  return std::move(loaded->read);
}

Journal::Journal(fs::path path, FileDescriptor fd, std::int64_t last_seq, std::uint64_t size)
    : path_(std::move(path)), fd_(std::move(fd)), last_seq_(last_seq), size_(size) {}

Result<Journal> Journal::create(const fs::path& path) {
  std::error_code ignored;
  const bool existed = fs::exists(path, ignored);
  auto fd = open_locked(path, O_CREAT);
  if (!fd) return fd.error();
  struct stat info {};
  if (fstat(fd->get(), &info) != 0) {
    const int error = errno;
    return Error{"não foi possível abrir o " + named(path) + ": " + error_text(error)};
  }
  if (info.st_size > 0) {
    return Error{named(path) +
                 " já tem registros: use --resume para continuar a conversa "
                 "dele, ou escolha outro arquivo"};
  }
  if (!existed) sync_parent(path);
  return Journal(path, std::move(fd).value(), 0, 0);
}

Result<Journal::Resumed> Journal::resume(const fs::path& path) {
  auto fd = open_locked(path, 0);
  if (!fd) return fd.error();
  auto loaded = load(fd->get(), path);
  if (!loaded) return loaded.error();
  const std::int64_t last = loaded->read.records.back().seq;
  return Resumed{Journal(path, std::move(fd).value(), last, loaded->size),
                 std::move(loaded->read.records), std::move(loaded->read.warning)};
}

// listing: append-body
Result<std::int64_t> Journal::append(nlohmann::json rec) {
  if (!failed_.empty()) return Error{failed_};
  rec["seq"] = last_seq_ + 1;
  const std::string line = encode_line(rec);
  if (line.size() > kMaxRecordBytes) {
    failed_ = named(path_) + ": o registro seq " + std::to_string(last_seq_ + 1) + " teria " +
              std::to_string(line.size()) + " bytes, mais que o limite de " +
              std::to_string(kMaxRecordBytes / (1024 * 1024)) +
              " MiB de um registro; nada foi gravado";
    return Error{failed_};
  }
  // listing: durable-write
  // EXERCICIO 04-journal/durable-write: o registro no disco por inteiro, ou nada dele
  if (const int error = write_all(fd_.get(), line); error != 0) {
    // Um write curto deixou um pedaço: devolve o arquivo ao tamanho de antes.
    const bool restored = ftruncate(fd_.get(), static_cast<off_t>(size_)) == 0;
    failed_ = named(path_) + ": a escrita do registro seq " + std::to_string(last_seq_ + 1) +
              " falhou: " + error_text(error) +
              (restored ? "" : "; e o pedaço escrito ficou no fim do arquivo");
    return Error{failed_};
  }
  if (const int error = sync_data(fd_.get()); error != 0) {
    // Depois de um fdatasync que falhou, não se sabe o que chegou ao disco.
    failed_ = named(path_) + ": fdatasync do registro seq " + std::to_string(last_seq_ + 1) +
              " falhou: " + error_text(error) + "; o registro pode não estar no disco";
    return Error{failed_};
  }
  ++syncs_;
  // FIM-EXERCICIO
  // end-listing: durable-write
  size_ += line.size();
  return ++last_seq_;
}
// end-listing: append-body

}  // namespace hz
