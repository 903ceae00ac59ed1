// Exercício read-record: uma linha do journal vira registro só depois de
// conferida (JSON, forma, crc, seq, tipo e campos), e cada recusa diz por quê.
#include <doctest/doctest.h>

#include <string>

#include "crc32c.hpp"
#include "helpers.hpp"
#include "journal_record.hpp"

using hz::LineError;
using journal_test::call;
using journal_test::json;
using journal_test::line;

namespace {

// A linha sem o \n.
std::string bare(json rec, std::int64_t seq) {
  std::string text = line(std::move(rec), seq);
  text.pop_back();
  return text;
}

// Uma linha com o crc certo para um rec qualquer (até um inválido).
std::string sealed(const json& rec) {
  std::string text = hz::encode_line(rec);
  text.pop_back();
  return text;
}

void check_refused(const std::string& text, std::int64_t seq, LineError::Kind kind,
                   const std::string& message) {
  const auto decoded = hz::decode_line(text, seq);
  REQUIRE_FALSE(decoded.ok());
  CHECK(decoded.error().message == message);
  CHECK(decoded.error().kind == kind);
}

}  // namespace

TEST_SUITE_BEGIN("04-journal/read-record");

TEST_CASE("decode_line devolve o registro de uma linha boa, de cada tipo") {
  const hz::Message reply =
      hz::Message::assistant("vou ler", {call("c1", "read_file", {{"path", "a.txt"}})});
  const hz::Intent intent{call("c1", "append_file", {{"path", "a"}, {"content", "b"}}),
                          hz::Idempotency::check, hz::AppendKey{0, 1, 0x12345678u}};
  const std::vector<json> recs{hz::start_record(journal_test::settings()),
                               hz::user_record("oi"),
                               hz::reply_record(reply, journal_test::usage(10, 5), 33),
                               hz::intent_record(intent),
                               hz::result_record("c1", hz::ToolOutput::success("ok")),
                               hz::note_record("nota"),
                               hz::turn_end_record("success", 1, 33)};
  const hz::RecordType types[] = {
      hz::RecordType::start,  hz::RecordType::user, hz::RecordType::reply,   hz::RecordType::intent,
      hz::RecordType::result, hz::RecordType::note, hz::RecordType::turn_end};
  for (std::size_t i = 0; i < recs.size(); ++i) {
    const std::int64_t seq = static_cast<std::int64_t>(i) + 1;
    const auto decoded = hz::decode_line(bare(recs[i], seq), seq);
    REQUIRE(decoded.ok());
    CHECK(decoded->seq == seq);
    CHECK(decoded->type == types[i]);
    json expected = recs[i];
    expected["seq"] = seq;
    CHECK(decoded->rec == expected);
  }
}

TEST_CASE("decode_line recusa linha vazia, bytes nulos e o que não é JSON") {
  check_refused("", 1, LineError::Kind::not_json, "linha vazia");
  check_refused(std::string(40, '\0'), 1, LineError::Kind::not_json,
                "bytes nulos no lugar do registro, o que o sistema de arquivos deixa de uma "
                "escrita interrompida");
  const std::string good = bare(hz::user_record("oi"), 1);
  check_refused(good.substr(0, good.size() - 5), 1, LineError::Kind::not_json, "não é JSON válido");
}

TEST_CASE("decode_line recusa JSON que não tem a forma de linha do journal") {
  const std::string shape = "não tem a forma {\"crc\": \"<8 hex>\", \"rec\": {...}}";
  check_refused("[1,2]", 1, LineError::Kind::bad_shape, shape);
  check_refused(R"({"rec":{"seq":1}})", 1, LineError::Kind::bad_shape, shape);
  check_refused(R"({"crc":"00000000","rec":[]})", 1, LineError::Kind::bad_shape, shape);
  check_refused(R"({"crc":"00000000","rec":{},"x":1})", 1, LineError::Kind::bad_shape, shape);
  check_refused(R"({"crc":"E3069283","rec":{}})", 1, LineError::Kind::bad_shape,
                "o crc não tem 8 dígitos hexadecimais");
  check_refused(std::string(300, '[') + std::string(300, ']'), 1, LineError::Kind::bad_shape,
                "JSON aninhado demais");
}

TEST_CASE("decode_line recusa um crc que não confere num JSON válido, dizendo os dois") {
  // "oi" virou "oI": o JSON continua válido, o crc não.
  std::string text = bare(hz::user_record("oi"), 1);
  text.replace(text.find("\"oi\""), 4, "\"oI\"");
  const std::string computed = hz::crc32c_hex(hz::crc32c(R"({"seq":1,"text":"oI","type":"user"})"));
  check_refused(text, 1, LineError::Kind::bad_crc,
                "crc não confere: gravado " + text.substr(8, 8) + ", calculado " + computed);
}

TEST_CASE("decode_line recusa seq ausente ou fora de ordem") {
  check_refused(sealed({{"type", "user"}, {"text", "x"}}), 1, LineError::Kind::bad_seq,
                "rec sem seq inteiro");
  check_refused(sealed({{"seq", "1"}, {"type", "user"}, {"text", "x"}}), 1,
                LineError::Kind::bad_seq, "rec sem seq inteiro");
  check_refused(bare(hz::user_record("x"), 5), 4, LineError::Kind::bad_seq,
                "seq 5 fora de ordem: esperava 4");
  check_refused(bare(hz::user_record("x"), 3), 4, LineError::Kind::bad_seq,
                "seq 3 fora de ordem: esperava 4");
}

TEST_CASE("decode_line recusa tipo ausente ou desconhecido") {
  check_refused(sealed({{"seq", 1}, {"text", "x"}}), 1, LineError::Kind::bad_type,
                "rec sem type (texto)");
  check_refused(sealed({{"seq", 1}, {"type", "checkpoint"}}), 1, LineError::Kind::bad_type,
                "tipo de registro desconhecido: \"checkpoint\"");
}

TEST_CASE("decode_line recusa um registro sem os campos do tipo dele") {
  check_refused(sealed({{"seq", 1}, {"type", "user"}}), 1, LineError::Kind::bad_field,
                "registro user sem o campo text (texto)");
  check_refused(
      sealed({{"seq", 1}, {"type", "result"}, {"call_id", "c"}, {"ok", "sim"}, {"content", ""}}), 1,
      LineError::Kind::bad_field, "registro result sem o campo ok (booleano)");
  check_refused(
      sealed({{"seq", 1}, {"type", "start"}, {"version", 2}, {"settings", json::object()}}), 1,
      LineError::Kind::bad_field, "versão 2 do journal; esta sabe ler a 1");
  json reply = hz::reply_record(hz::Message::assistant("x"), journal_test::usage(1, 1), 0);
  reply["seq"] = 1;
  reply["message"]["role"] = "user";
  check_refused(sealed(reply), 1, LineError::Kind::bad_field,
                "registro reply com uma message que não é do assistente");
  json intent =
      hz::intent_record(journal_test::intent(call("c", "x", json::object()), hz::Idempotency::yes));
  intent["seq"] = 1;
  intent["idempotency"] = "talvez";
  check_refused(sealed(intent), 1, LineError::Kind::bad_field,
                "registro intent com idempotency desconhecida (yes, check ou no)");
  intent["idempotency"] = "check";
  intent["append_key"] = {{"size_before", -1}, {"content_bytes", 1}, {"content_crc32c", "0"}};
  check_refused(sealed(intent), 1, LineError::Kind::bad_field,
                "append_key do registro intent sem o campo size_before (inteiro não negativo)");
  check_refused(sealed({{"seq", 1}, {"type", "note"}, {"text", "x"}, {"call_id", 7}}), 1,
                LineError::Kind::bad_field, "registro note sem o campo call_id (texto)");
}

TEST_SUITE_END();
