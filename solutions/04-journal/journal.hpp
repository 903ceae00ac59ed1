// O journal: um arquivo JSONL só de acréscimos, um registro por passo
// concluído, cada um no disco antes de o passo seguinte começar.
//
// Escrever: um descritor O_APPEND, uma linha inteira por write(2) e
// fdatasync(2) antes de append voltar. Quando append devolve o seq, o
// registro sobrevive a um kill -9 e a uma queda de energia; quando devolve
// erro, o Journal recusa novos registros: quem chama para o turno. Um write
// que falhou (disco cheio) não deixa pedaço: o arquivo volta ao tamanho de
// antes. Depois de um fdatasync que falhou, a linha fica inteira no arquivo,
// sem garantia de estar no disco.
//
// Um harness por journal: o arquivo fica travado com flock(LOCK_EX) enquanto
// o Journal existe, e um segundo harness no mesmo arquivo é recusado na hora
// (LOCK_NB), com uma mensagem que diz qual arquivo.
//
// Ler (retomar): cada linha é conferida (decode_line). Só conta o registro
// que termina em \n. O fim do arquivo pode ter um registro pela metade, o que
// um processo morto no meio de um write deixa: a última linha sem \n, ou que
// não é JSON, ou com o crc errado, é cortada (ftruncate até o fim do último
// registro bom) com um aviso, ANTES de qualquer acréscimo. Sem o corte, o
// próximo registro grudaria no pedaço e os dois se perderiam. Um estrago no
// meio (um registro ruim seguido de bons, bytes nulos, crc errado num JSON
// válido, um seq pulado) não é escrita interrompida: a leitura para com uma
// mensagem que diz a linha e o seq, e o arquivo fica como estava. Uma linha
// maior que kMaxRecordBytes é recusada da mesma forma, sem ser lida como JSON.
//
// O caminho do journal não pode ser um link simbólico (O_NOFOLLOW): o harness
// não escreve onde um link apontar.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "hz/result.hpp"
#include "hz/workspace.hpp"
#include "journal_record.hpp"

namespace hz {

// O maior registro (uma linha, com o \n) que o journal grava e aceita ler. Uma
// resposta do modelo já chega limitada a 16 MiB (HttpOptions::max_response_bytes)
// e a saída de uma ferramenta, a --max-tool-output; um registro maior só vem
// de um arquivo mexido, e ler um de 100 MB levava quase um minuto e 1 GB.
inline constexpr std::size_t kMaxRecordBytes = std::size_t{16} * 1024 * 1024;

// listing: journal-scan
// O que a leitura achou num conteúdo de journal.
struct JournalScan {
  std::vector<Record> records;  // os registros bons, em ordem
  std::size_t good_bytes = 0;   // os bytes até o \n do último registro bom
  std::string torn;             // vazio, ou o aviso do fim cortado (sem o nome do arquivo)
};

// Confere o conteúdo inteiro de um journal, linha por linha, sem E/S. Um fim
// rasgado não é erro: volta em torn, com good_bytes dizendo onde cortar. Um
// estrago no meio é erro, com a linha e o seq. Conteúdo vazio: zero registros.
Result<JournalScan> scan_journal(std::string_view bytes);
// end-listing: journal-scan

// O journal lido: os registros e, se o fim estava rasgado e foi cortado, o aviso.
struct JournalRead {
  std::vector<Record> records;
  std::string warning;
};

// Lê e confere o journal em path, com o arquivo travado durante a leitura,
// e corta um fim rasgado (ftruncate + fdatasync). Erro, com o nome do
// arquivo: não existe, está em uso por outro harness, estrago no meio, ou
// nenhum registro (nada para retomar).
Result<JournalRead> read_journal(const std::filesystem::path& path);

// listing: record-sink
// Para onde vão os registros de um turno: o loop grava tudo por aqui. O
// Journal é o de verdade; o executável põe na frente dele os pontos de queda
// de HZ_CRASH_AT (etapas/04-journal/crash_point.hpp), e um teste pode pôr o
// que quiser, sem uma linha de teste no loop.
class RecordSink {
 public:
  virtual ~RecordSink() = default;
  // O contrato de Journal::append.
  virtual Result<std::int64_t> append(nlohmann::json rec) = 0;
};
// end-listing: record-sink

class Journal final : public RecordSink {
 public:
  // Um journal novo em path: cria o arquivo (e faz fsync da pasta, para o
  // nome também sobreviver a uma queda) ou usa um que exista vazio. Recusa um
  // arquivo que já tem registros (use resume), que não é um arquivo comum ou
  // que está travado por outro harness.
  static Result<Journal> create(const std::filesystem::path& path);

  // Retoma o journal em path: trava, lê e confere tudo e corta um fim
  // rasgado (como read_journal), e fica pronto para acrescentar depois do
  // último registro. Os registros e o aviso vêm em Resumed.
  struct Resumed;
  static Result<Resumed> resume(const std::filesystem::path& path);

  Journal(Journal&&) noexcept = default;
  Journal& operator=(Journal&&) noexcept = default;
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;
  ~Journal() override = default;

  // listing: journal-append
  // Numera rec (seq = last_seq() + 1), grava a linha com um write(2) e
  // fdatasync(2), nessa ordem, e só então devolve o seq. Erro, com o motivo:
  // a escrita falhou (o arquivo volta ao tamanho de antes, se der), a
  // sincronização falhou (a linha escrita fica) ou o journal já tinha falhado
  // antes. Depois de um erro, todo append é recusado.
  // Pré-condição: rec é um objeto com type (um dos *_record de journal_record.hpp).
  Result<std::int64_t> append(nlohmann::json rec) override;
  // end-listing: journal-append

  std::int64_t last_seq() const { return last_seq_; }
  std::uint64_t size() const { return size_; }    // bytes no arquivo
  std::uint64_t syncs() const { return syncs_; }  // fdatasync feitos com sucesso
  const std::filesystem::path& path() const { return path_; }

 private:
  Journal(std::filesystem::path path, FileDescriptor fd, std::int64_t last_seq, std::uint64_t size);

  std::filesystem::path path_;
  FileDescriptor fd_;  // O_RDWR | O_APPEND, travado com flock
  std::int64_t last_seq_ = 0;
  std::uint64_t size_ = 0;
  std::uint64_t syncs_ = 0;
  std::string failed_;  // não vazio: o motivo da falha que parou o journal
};

struct Journal::Resumed {
  Journal journal;
  std::vector<Record> records;
  std::string warning;  // vazio, ou o aviso do fim cortado
};

}  // namespace hz
