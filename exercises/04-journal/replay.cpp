#include "replay.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "crc32c.hpp"
#include "hz/not_implemented.hpp"
#include "hz/text.hpp"

// SEU-CODIGO: includes, constantes e funções suas (./hz carry e ./hz update os levam)
// FIM-SEU-CODIGO

namespace hz {

using nlohmann::json;

namespace {

// O maior arquivo que edit_file lê (hz/tools.hpp): conferir um maior não
// faria sentido, a ferramenta o recusa.
constexpr std::size_t kMaxEditBytes = 1024 * 1024;

Replay run(std::string reason) { return {Replay::Kind::run, {}, std::move(reason)}; }

Replay done(ToolOutput result, std::string reason) {
  return {Replay::Kind::done, std::move(result), std::move(reason)};
}

Replay unknown(std::string reason) {
  return {Replay::Kind::unknown, ToolOutput::failure(std::string(kUnknownResultText)),
          std::move(reason)};
}

// Os argumentos de texto de uma chamada, ou vazio se não são um objeto com eles.
std::optional<std::vector<std::string>> string_args(const ToolCall& call,
                                                    std::initializer_list<const char*> names) {
  const json args = json::parse(call.arguments, nullptr, /*allow_exceptions=*/false);
  if (!args.is_object()) return std::nullopt;
  std::vector<std::string> values;
  for (const char* name : names) {
    const auto it = args.find(name);
    if (it == args.end() || !it->is_string()) return std::nullopt;
    values.push_back(it->get<std::string>());
  }
  return values;
}

}  // namespace

std::string_view to_string(Replay::Kind kind) {
  switch (kind) {
    case Replay::Kind::run:
      return "run";
    case Replay::Kind::done:
      return "done";
    case Replay::Kind::unknown:
      return "unknown";
  }
  return "?";
}

FileSnapshot snapshot_file(const Workspace& workspace, std::string_view path, std::uint64_t offset,
                           std::size_t max_bytes) {
  FileSnapshot snapshot;
  snapshot.offset = offset;
  const auto cannot = [&](int error) {
    snapshot.error = "não foi possível olhar " + std::string(path) + ": " + std::strerror(error);
    return snapshot;
  };
  auto placed = workspace.place(path, /*create_dirs=*/false);
  if (!placed) {
    const int error = placed.error().error_number;
    if (error == ENOENT || error == ENOTDIR) return snapshot;  // não existe
    if (error == 0) {
      snapshot.error = placed.error().message;
      return snapshot;
    }
    return cannot(error);
  }
  const int fd = openat(placed->dir.get(), placed->name.c_str(),
                        O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return snapshot;
    return cannot(errno);
  }
  FileDescriptor file(fd);
  struct stat info {};
  if (fstat(fd, &info) != 0) return cannot(errno);
  if (!S_ISREG(info.st_mode)) {
    snapshot.error = std::string(path) + " não é um arquivo comum";
    return snapshot;
  }
  snapshot.exists = true;
  snapshot.size = static_cast<std::uint64_t>(info.st_size);
  char buffer[65536];
  while (snapshot.bytes.size() < max_bytes) {
    const std::size_t want = std::min(sizeof buffer, max_bytes - snapshot.bytes.size());
    const ssize_t n = pread(fd, buffer, want, static_cast<off_t>(offset + snapshot.bytes.size()));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return cannot(errno);
    if (n == 0) break;
    snapshot.bytes.append(buffer, static_cast<std::size_t>(n));
  }
  return snapshot;
}

// listing: decide-edit-body
Replay decide_edit(const EditKey& key, std::string_view path, const FileSnapshot& file) {
  const std::string where = std::string(path);
  if (!file.error.empty()) return unknown("edit_file: " + file.error);
  if (!file.exists) return unknown("edit_file: " + where + " não existe mais");
  if (file.size > kMaxEditBytes) return unknown("edit_file: " + where + " ficou grande demais");
  const std::uint32_t crc = crc32c(file.bytes);
  // Antes primeiro: se a troca não muda nada (ou falharia), antes e depois
  // são iguais, e rodar de novo dá o que a primeira daria.
  if (file.size == key.size_before && crc == key.crc_before) {
    return run("edit_file: " + where + " está como antes da troca; ela não aconteceu");
  }
  if (file.size == key.size_after && crc == key.crc_after) {
    return done(ToolOutput::success("arquivo editado: " + where),
                "edit_file: " + where + " está como a troca o deixaria; ela aconteceu");
  }
  return unknown("edit_file: " + where + " não está nem como antes nem como depois da troca (" +
                 bytes_text(file.size) + "; antes " + std::to_string(key.size_before) +
                 ", depois " + std::to_string(key.size_after) + ")");
}
// end-listing: decide-edit-body

// listing: decide-append-body
Replay decide_append(const AppendKey& key, std::string_view path, std::string_view content,
                     const FileSnapshot& file) {
  // TODO EXERCICIO 04-journal/append-key: o append já entrou, não entrou, ou não dá para saber?
  throw hz::NotImplemented("04-journal/append-key",
                           "livro/04-journal.md, \"Exercício 6 — A chave do append_file\"");
  // FIM-EXERCICIO
}
// end-listing: decide-append-body

// listing: decide-replay-body
Replay decide_replay(const Intent& intent, Idempotency idempotency, const Workspace& workspace) {
  const std::string& name = intent.call.name;
  // TODO EXERCICIO 04-journal/pending-decision: o que fazer com uma chamada que ficou sem resultado
  throw hz::NotImplemented("04-journal/pending-decision",
                           "livro/04-journal.md, \"Exercício 5 — A intenção sem resultado\"");
  // FIM-EXERCICIO
}
// end-listing: decide-replay-body

Replay replay_of(const Intent& intent, const ToolBox& tools, const Workspace* workspace) {
  const Tool* tool = tools.find(intent.call.name);
  const Idempotency idempotency = tool != nullptr ? tool->idempotency : Idempotency::no;
  if (workspace != nullptr) return decide_replay(intent, idempotency, *workspace);
  if (idempotency == Idempotency::check) return unknown("sem pasta de trabalho para conferir");
  return decide_replay(intent, idempotency, Workspace(std::filesystem::current_path()));
}

std::optional<EditKey> edit_key_for(const ToolCall& call, const Workspace& workspace) {
  const auto args = string_args(call, {"path", "old_text", "new_text"});
  if (!args) return std::nullopt;
  const std::string& path = (*args)[0];
  const std::string& old_text = (*args)[1];
  const std::string& new_text = (*args)[2];
  const FileSnapshot file = snapshot_file(workspace, path, 0, kMaxEditBytes + 1);
  if (!file.error.empty() || !file.exists || file.size > kMaxEditBytes) return std::nullopt;
  // A regra do próprio edit_file: sem uma ocorrência só, depois é igual a antes.
  const std::string after = edit_text(file.bytes, old_text, new_text).text;
  return EditKey{file.size, crc32c(file.bytes), after.size(), crc32c(after)};
}

std::optional<AppendKey> append_key_for(const ToolCall& call, const Workspace& workspace) {
  const auto args = string_args(call, {"path", "content"});
  if (!args) return std::nullopt;
  const FileSnapshot file = snapshot_file(workspace, (*args)[0], 0, 0);
  if (!file.error.empty()) return std::nullopt;
  const std::string& content = (*args)[1];
  return AppendKey{file.exists ? file.size : 0, content.size(), crc32c(content)};
}

Intent intent_for(const ToolCall& call, const ToolBox& tools, const Workspace* workspace) {
  Intent intent{call, Idempotency::no, std::nullopt, std::nullopt};
  if (const Tool* tool = tools.find(call.name)) intent.idempotency = tool->idempotency;
  if (call.name == "append_file" && workspace != nullptr) {
    intent.append_key = append_key_for(call, *workspace);
  }
  if (call.name == "edit_file" && workspace != nullptr) {
    intent.edit_key = edit_key_for(call, *workspace);
  }
  return intent;
}

}  // namespace hz
