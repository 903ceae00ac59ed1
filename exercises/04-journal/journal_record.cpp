#include "journal_record.hpp"

#include <array>
#include <utility>

#include "crc32c.hpp"
#include "hz/json_depth.hpp"
#include "hz/not_implemented.hpp"

// SEU-CODIGO: includes, constantes e funções suas (./hz carry e ./hz update os levam)
// FIM-SEU-CODIGO

namespace hz {

using nlohmann::json;

namespace {

constexpr std::array<std::pair<RecordType, std::string_view>, 7> kTypeNames{{
    {RecordType::start, "start"},
    {RecordType::user, "user"},
    {RecordType::reply, "reply"},
    {RecordType::intent, "intent"},
    {RecordType::result, "result"},
    {RecordType::note, "note"},
    {RecordType::turn_end, "turn_end"},
}};

constexpr std::array<std::pair<Idempotency, std::string_view>, 3> kIdempotencyNames{{
    {Idempotency::yes, "yes"},
    {Idempotency::check, "check"},
    {Idempotency::no, "no"},
}};

// "1a2b3c4d" -> 0x1a2b3c4d; só 8 dígitos hexadecimais minúsculos (o que
// crc32c_hex escreve), para que cada valor tenha uma grafia só.
std::optional<std::uint32_t> parse_hex8(const std::string& text) {
  if (text.size() != 8) return std::nullopt;
  std::uint32_t value = 0;
  for (const char c : text) {
    std::uint32_t digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<std::uint32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<std::uint32_t>(c - 'a' + 10);
    } else {
      return std::nullopt;
    }
    value = (value << 4) | digit;
  }
  return value;
}

LineError line_error(LineError::Kind kind, std::string message) {
  return {kind, std::move(message)};
}

// ---- os campos de cada tipo ---------------------------------------------------

enum class Field { text, integer, natural, boolean, object };

struct FieldSpec {
  const char* name;
  Field kind;
};

const char* describe(Field kind) {
  switch (kind) {
    case Field::text:
      return "texto";
    case Field::integer:
      return "inteiro";
    case Field::natural:
      return "inteiro não negativo";
    case Field::boolean:
      return "booleano";
    case Field::object:
      return "objeto";
  }
  return "?";
}

bool has_kind(const json& value, Field kind) {
  switch (kind) {
    case Field::text:
      return value.is_string();
    case Field::integer:
      return value.is_number_integer();
    case Field::natural:
      return value.is_number_unsigned();
    case Field::boolean:
      return value.is_boolean();
    case Field::object:
      return value.is_object();
  }
  return false;
}

std::optional<LineError> require(const json& object, std::string_view where,
                                 std::initializer_list<FieldSpec> fields) {
  for (const FieldSpec& field : fields) {
    const auto it = object.find(field.name);
    if (it == object.end() || !has_kind(*it, field.kind)) {
      return line_error(
          LineError::Kind::bad_field,
          std::string(where) + " sem o campo " + field.name + " (" + describe(field.kind) + ")");
    }
  }
  return std::nullopt;
}

std::optional<LineError> check_reply(const json& rec) {
  if (auto e = require(rec, "registro reply",
                       {{"message", Field::object},
                        {"usage", Field::object},
                        {"cost_micros", Field::integer},
                        {"estimated", Field::boolean}})) {
    return e;
  }
  if (auto e = require(rec["usage"], "usage do registro reply",
                       {{"prompt_tokens", Field::integer},
                        {"completion_tokens", Field::integer},
                        {"reported", Field::boolean}})) {
    return e;
  }
  auto message = message_from_json(rec["message"]);
  if (!message || message->role != Role::assistant) {
    return line_error(LineError::Kind::bad_field,
                      "registro reply com uma message que não é do assistente");
  }
  return std::nullopt;
}

std::optional<LineError> check_intent(const json& rec) {
  if (auto e = require(rec, "registro intent",
                       {{"call_id", Field::text},
                        {"name", Field::text},
                        {"arguments", Field::text},
                        {"idempotency", Field::text}})) {
    return e;
  }
  if (!idempotency_from(rec["idempotency"].get<std::string>())) {
    return line_error(LineError::Kind::bad_field,
                      "registro intent com idempotency desconhecida (yes, check ou no)");
  }
  if (rec.contains("edit_key")) {
    if (auto e = require(rec, "registro intent", {{"edit_key", Field::object}})) return e;
    const json& key = rec["edit_key"];
    if (auto e = require(key, "edit_key do registro intent",
                         {{"size_before", Field::natural},
                          {"crc32c_before", Field::text},
                          {"size_after", Field::natural},
                          {"crc32c_after", Field::text}})) {
      return e;
    }
    if (!parse_hex8(key["crc32c_before"].get<std::string>()) ||
        !parse_hex8(key["crc32c_after"].get<std::string>())) {
      return line_error(LineError::Kind::bad_field,
                        "edit_key com um crc32c que não tem 8 dígitos hexadecimais");
    }
  }
  if (!rec.contains("append_key")) return std::nullopt;
  if (auto e = require(rec, "registro intent", {{"append_key", Field::object}})) return e;
  const json& key = rec["append_key"];
  if (auto e = require(key, "append_key do registro intent",
                       {{"size_before", Field::natural},
                        {"content_bytes", Field::natural},
                        {"content_crc32c", Field::text}})) {
    return e;
  }
  if (!parse_hex8(key["content_crc32c"].get<std::string>())) {
    return line_error(LineError::Kind::bad_field,
                      "append_key com content_crc32c que não tem 8 dígitos hexadecimais");
  }
  return std::nullopt;
}

std::optional<LineError> check_fields(RecordType type, const json& rec) {
  switch (type) {
    case RecordType::start:
      if (auto e = require(rec, "registro start",
                           {{"version", Field::integer}, {"settings", Field::object}})) {
        return e;
      }
      if (rec["version"] != kJournalVersion) {
        return line_error(LineError::Kind::bad_field, "versão " + rec["version"].dump() +
                                                          " do journal; esta sabe ler a " +
                                                          std::to_string(kJournalVersion));
      }
      return std::nullopt;
    case RecordType::user:
      return require(rec, "registro user", {{"text", Field::text}});
    case RecordType::reply:
      return check_reply(rec);
    case RecordType::intent:
      return check_intent(rec);
    case RecordType::result:
      return require(rec, "registro result",
                     {{"call_id", Field::text}, {"ok", Field::boolean}, {"content", Field::text}});
    case RecordType::note:
      if (auto e = require(rec, "registro note", {{"text", Field::text}})) return e;
      if (rec.contains("budget")) {
        if (auto e = require(rec, "registro note", {{"budget", Field::boolean}})) return e;
      }
      if (!rec.contains("call_id")) return std::nullopt;
      return require(rec, "registro note", {{"call_id", Field::text}});
    case RecordType::turn_end:
      return require(rec, "registro turn_end",
                     {{"outcome", Field::text},
                      {"model_calls", Field::integer},
                      {"cost_micros", Field::integer}});
  }
  return std::nullopt;
}

}  // namespace

std::string_view to_string(RecordType type) {
  for (const auto& [value, name] : kTypeNames) {
    if (value == type) return name;
  }
  return "?";
}

std::optional<RecordType> record_type_from(std::string_view name) {
  for (const auto& [value, known] : kTypeNames) {
    if (known == name) return value;
  }
  return std::nullopt;
}

std::string_view to_string(Idempotency idempotency) {
  for (const auto& [value, name] : kIdempotencyNames) {
    if (value == idempotency) return name;
  }
  return "?";
}

std::optional<Idempotency> idempotency_from(std::string_view name) {
  for (const auto& [value, known] : kIdempotencyNames) {
    if (known == name) return value;
  }
  return std::nullopt;
}

Intent intent_from(const json& rec) {
  Intent intent;
  intent.call = {rec.at("call_id").get<std::string>(), rec.at("name").get<std::string>(),
                 rec.at("arguments").get<std::string>()};
  intent.idempotency =
      idempotency_from(rec.at("idempotency").get<std::string>()).value_or(Idempotency::no);
  if (const auto it = rec.find("append_key"); it != rec.end()) {
    AppendKey key;
    key.size_before = it->at("size_before").get<std::uint64_t>();
    key.content_bytes = it->at("content_bytes").get<std::uint64_t>();
    key.content_crc = parse_hex8(it->at("content_crc32c").get<std::string>()).value_or(0);
    intent.append_key = key;
  }
  if (const auto it = rec.find("edit_key"); it != rec.end()) {
    EditKey key;
    key.size_before = it->at("size_before").get<std::uint64_t>();
    key.crc_before = parse_hex8(it->at("crc32c_before").get<std::string>()).value_or(0);
    key.size_after = it->at("size_after").get<std::uint64_t>();
    key.crc_after = parse_hex8(it->at("crc32c_after").get<std::string>()).value_or(0);
    intent.edit_key = key;
  }
  return intent;
}

Message reply_message(const json& rec) {
  auto message = message_from_json(rec.at("message"));
  return message ? std::move(message).value() : Message::assistant("");
}

// ---- uma linha ------------------------------------------------------------------

std::string dump_rec(const json& rec) {
  return rec.dump(-1, ' ', false, json::error_handler_t::replace);
}

// listing: encode-line-body
std::string encode_line(const json& rec) {
  const std::string body = dump_rec(rec);
  // As chaves em ordem alfabética, como o dump de um objeto com as duas: crc, rec.
  return "{\"crc\":\"" + crc32c_hex(crc32c(body)) + "\",\"rec\":" + body + "}\n";
}
// end-listing: encode-line-body

// listing: decode-line-body
Result<Record, LineError> decode_line(std::string_view line, std::int64_t expected_seq) {
  // TODO EXERCICIO 04-journal/read-record: o registro, ou o primeiro motivo para não confiar nele
  throw hz::NotImplemented("04-journal/read-record",
                           "livro/04-journal.md, \"Exercício 2 — Ler e conferir um registro\"");
  // FIM-EXERCICIO
}
// end-listing: decode-line-body

}  // namespace hz
