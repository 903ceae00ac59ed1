// Os registros do journal: o que cada tipo leva e como uma linha vira bytes
// (e volta). Quem os monta com os valores do loop é records.hpp.
//
// Uma linha do journal é
//   {"crc":"<8 hex>","rec":{...}}\n
// em que crc é o CRC-32C (crc32c.hpp) exatamente dos bytes de rec.dump(). O
// nlohmann escreve as chaves de um objeto em ordem alfabética e sem espaços,
// então os mesmos dados dão sempre os mesmos bytes e quem lê refaz a conta.
// Texto com UTF-8 inválido (a saída de um comando) é gravado com U+FFFD no
// lugar, o mesmo que o formato de fio manda ao modelo: nada lança aqui.
//
// Todo rec tem "seq" (1, 2, 3... consecutivos, quem põe é o Journal) e
// "type". Os tipos, na ordem em que uma conversa os grava:
//   start     {version, settings}: o formato e as configurações da conversa
//   user      {text}: a mensagem que abre um turno
//   reply     {message, usage, cost_micros, estimated}: a resposta do modelo
//             (message no formato de fio), com o custo do passo
//   intent    {call_id, name, arguments, idempotency[, append_key | edit_key]}:
//             uma chamada de ferramenta, gravada ANTES de ela rodar.
//             idempotency é só para quem lê o arquivo: a retomada usa a
//             da ferramenta, no código, e nunca a do journal
//   result    {call_id, ok, content}: o que a ferramenta devolveu (o texto
//             exato da mensagem tool do histórico)
//   note      {text[, call_id][, budget]}: uma nota da política, anexada ao
//             resultado da tool call call_id (sem ele, à última mensagem);
//             budget true: ela traz o aviso de orçamento, que a memória dos
//             freios guarda (PolicyMemory::budget_noted) e a retomada refaz
//   turn_end  {outcome, model_calls, cost_micros}: o fim de um turno
// Nenhum número é double: dinheiro em micro-dólares inteiros (money.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "hz/result.hpp"
#include "hz/tools.hpp"
#include "hz/wire.hpp"
#include "money.hpp"

namespace hz {

// A versão do formato, gravada no start. Quem lê recusa outra.
inline constexpr int kJournalVersion = 1;

enum class RecordType { start, user, reply, intent, result, note, turn_end };

// "start", "user", ...; e o caminho inverso (vazio se não é um tipo conhecido).
std::string_view to_string(RecordType type);
std::optional<RecordType> record_type_from(std::string_view name);

// "yes", "check", "no"; e o inverso.
std::string_view to_string(Idempotency idempotency);
std::optional<Idempotency> idempotency_from(std::string_view name);

// Um registro lido e conferido: rec é o objeto inteiro (com seq e type), e os
// campos do tipo estão lá, com os tipos certos.
struct Record {
  std::int64_t seq = 0;
  RecordType type = RecordType::start;
  nlohmann::json rec;
};

// listing: append-key
// A chave de idempotência de um append_file: o tamanho do arquivo logo antes
// de acrescentar e o tamanho e o CRC-32C do texto. Na retomada, o tamanho de
// agora diz se o texto entrou: igual ao de antes, não entrou; o de antes mais
// o texto, com o fim igual ao texto, entrou.
struct AppendKey {
  std::uint64_t size_before = 0;
  std::uint64_t content_bytes = 0;
  std::uint32_t content_crc = 0;
  bool operator==(const AppendKey&) const = default;
};
// end-listing: append-key

// listing: edit-key
// A chave de um edit_file: o arquivo como estava logo antes da troca e como a
// troca o deixaria, cada um pelo tamanho e pelo CRC-32C. Na retomada, o
// arquivo igual ao de antes diz que a troca não aconteceu; igual ao de depois,
// que aconteceu; diferente dos dois, que não se sabe. O conteúdo dos trechos
// não decide nada: uma troca pode recriar o trecho antigo ("aab", de "ab"
// para "b", deixa "ab").
struct EditKey {
  std::uint64_t size_before = 0;
  std::uint32_t crc_before = 0;
  std::uint64_t size_after = 0;
  std::uint32_t crc_after = 0;
  bool operator==(const EditKey&) const = default;
};
// end-listing: edit-key

// Uma chamada de ferramenta prestes a rodar.
struct Intent {
  ToolCall call;
  // A da ferramenta quando a intenção foi gravada, para quem lê o journal.
  // Quem decide o que fazer depois de uma queda usa a do código (decide_replay).
  Idempotency idempotency = Idempotency::no;
  std::optional<AppendKey> append_key;  // só append_file
  std::optional<EditKey> edit_key;      // só edit_file
  bool operator==(const Intent&) const = default;
};

// Os campos de um registro já conferido (decode_line). Pré-condição: o tipo certo.
Intent intent_from(const nlohmann::json& rec);
Message reply_message(const nlohmann::json& rec);

// ---- uma linha ----------------------------------------------------------------

// Os bytes que o crc cobre: rec.dump(), com U+FFFD no lugar de UTF-8 inválido.
std::string dump_rec(const nlohmann::json& rec);

// listing: encode-line
// A linha inteira, com o \n. Pré-condição: rec é um objeto com seq e type.
std::string encode_line(const nlohmann::json& rec);
// end-listing: encode-line

// Por que uma linha não virou registro. O tipo separa o que uma escrita
// interrompida pode deixar (not_json, bad_crc) do resto.
struct LineError {
  enum class Kind { not_json, bad_shape, bad_crc, bad_seq, bad_type, bad_field };
  Kind kind = Kind::not_json;
  std::string message;  // em português, sem o número da linha (quem lê o arquivo põe)
};

// decode_line (abaixo), caso a caso e nesta ordem, com o kind do primeiro
// problema. A message é sua; os testes conferem que cada linha daqui tem a
// sua (duas nunca são iguais) e que ela cita o que está entre colchetes
// (X e Y: crc32c_hex do crc gravado e do calculado sobre dump_rec(rec); N: o
// seq lido; E: expected_seq; T: o type lido, em JSON, com as aspas):
//   vazia: not_json
//   com um byte nulo: not_json (o que o sistema de arquivos deixa de uma
//     escrita interrompida: vale dizer isso a quem lê)
//   aninhada demais (json_deeper_than): bad_shape
//   o que não é JSON: not_json
//   outra coisa que um objeto só com crc (texto) e rec (objeto): bad_shape
//   crc que parse_hex8 não lê: bad_shape
//   crc que não confere: bad_crc [X, Y]
//   seq ausente ou não inteiro: bad_seq
//   seq diferente de E: bad_seq [N, E]
//   type ausente ou não texto: bad_type
//   type desconhecido: bad_type [T]
//   um campo do tipo: o erro de check_fields (pronto), bad_field
// listing: decode-line
// Lê uma linha (sem o \n) e confere, nesta ordem: JSON, a forma
// {"crc","rec"}, o crc, o seq (tem de ser expected_seq), o tipo e os campos
// do tipo. Nunca lança.
Result<Record, LineError> decode_line(std::string_view line, std::int64_t expected_seq);
// end-listing: decode-line

}  // namespace hz
