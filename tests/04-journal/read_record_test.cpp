// Exercício read-record: uma linha do journal vira registro só depois de
// conferida (JSON, forma, crc, seq, tipo e campos), e cada recusa diz por quê.
#include <doctest/doctest.h>

#include <initializer_list>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "crc32c.hpp"
#include "helpers.hpp"
#include "journal_record.hpp"
#include "records.hpp"

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

// O que decode_line fez com a linha, como texto que um CHECK compara e mostra
// na linha do caso: "<tipo do erro>: <mensagem>" ou "aceitou: seq 1, tipo user".
//   CHECK(decoded(text, 1) == refused(LineError::Kind::not_json, "linha vazia"));
std::string decoded(const std::string& text, std::int64_t seq) {
  const auto record = hz::decode_line(text, seq);
  std::ostringstream out;
  if (record.ok()) {
    out << "aceitou: seq " << record->seq << ", tipo " << hz::to_string(record->type);
  } else {
    out << record.error().kind << ": " << record.error().message;
  }
  return out.str();
}

std::string refused(LineError::Kind kind, const std::string& message) {
  std::ostringstream out;
  out << kind << ": " << message;
  return out.str();
}

// Para as mensagens que são do aluno: o tipo do erro, se a mensagem cita cada
// fato; senão, o tipo, o que falta e a mensagem (ou o que decode_line aceitou).
//   CHECK(refused_citing(text, 4, {"5", "4"}) == "bad_seq");
std::string refused_citing(const std::string& text, std::int64_t seq,
                           std::initializer_list<std::string_view> facts = {}) {
  const auto record = hz::decode_line(text, seq);
  if (record.ok()) return decoded(text, seq);
  std::ostringstream out;
  out << record.error().kind;
  const std::string gaps = hz::reason_gaps(record.error().message, "", facts);
  if (!gaps.empty()) out << ": " << gaps << " em " << hz::testing::quoted(record.error().message);
  return out.str();
}

// A mensagem da recusa (vazia se decode_line aceitou).
std::string message_of(const std::string& text, std::int64_t seq) {
  const auto record = hz::decode_line(text, seq);
  return record.ok() ? std::string() : record.error().message;
}

}  // namespace

TEST_SUITE_BEGIN("04-journal/read-record");

TEST_CASE("decode_line devolve o registro de uma linha boa, de cada tipo") {
  const hz::Message reply =
      hz::Message::assistant("vou ler", {call("c1", "read_file", {{"path", "a.txt"}})});
  const hz::Intent intent{call("c1", "append_file", {{"path", "a"}, {"content", "b"}}),
                          hz::Idempotency::check,
                          hz::AppendKey{0, 1, 0x12345678u},
                          {}};
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
    REQUIRE_MESSAGE(decoded.ok(), hz::testing::refusal(decoded));
    CHECK(decoded->seq == seq);
    CHECK(decoded->type == types[i]);
    json expected = recs[i];
    expected["seq"] = seq;
    CHECK(decoded->rec == expected);
  }
}

TEST_CASE("decode_line recusa linha vazia, bytes nulos e o que não é JSON") {
  CHECK(refused_citing("", 1) == "not_json");
  CHECK(refused_citing(std::string(40, '\0'), 1) == "not_json");
  const std::string good = bare(hz::user_record("oi"), 1);
  CHECK(refused_citing(good.substr(0, good.size() - 5), 1) == "not_json");
}

TEST_CASE("decode_line recusa JSON que não tem a forma de linha do journal") {
  CHECK(refused_citing("[1,2]", 1) == "bad_shape");
  CHECK(refused_citing(R"({"rec":{"seq":1}})", 1) == "bad_shape");
  CHECK(refused_citing(R"({"crc":"00000000","rec":[]})", 1) == "bad_shape");
  CHECK(refused_citing(R"({"crc":"00000000","rec":{},"x":1})", 1) == "bad_shape");
  CHECK(refused_citing(R"({"crc":"E3069283","rec":{}})", 1) == "bad_shape");
  CHECK(refused_citing(std::string(300, '[') + std::string(300, ']'), 1) == "bad_shape");
}

TEST_CASE("decode_line recusa um crc que não confere num JSON válido, dizendo os dois") {
  // "oi" virou "oI": o JSON continua válido, o crc não.
  std::string text = bare(hz::user_record("oi"), 1);
  text.replace(text.find("\"oi\""), 4, "\"oI\"");
  const std::string computed = hz::crc32c_hex(hz::crc32c(R"({"seq":1,"text":"oI","type":"user"})"));
  CHECK(refused_citing(text, 1, {text.substr(8, 8), computed}) == "bad_crc");
}

TEST_CASE("com o crc e o seq errados, o erro é o crc: o seq de uma linha estragada não vale") {
  // "oi" virou "oI" num registro de seq 5, lido onde se esperava o 4. Com o
  // seq conferido antes do crc, o erro seria bad_seq: um seq fora de ordem
  // que ninguém gravou e, no fim do arquivo, um registro rasgado (que a
  // retomada corta) visto como estrago (que para a retomada).
  std::string text = bare(hz::user_record("oi"), 5);
  text.replace(text.find("\"oi\""), 4, "\"oI\"");
  const std::string computed = hz::crc32c_hex(hz::crc32c(R"({"seq":5,"text":"oI","type":"user"})"));
  CHECK(refused_citing(text, 4, {text.substr(8, 8), computed}) == "bad_crc");
}

TEST_CASE("decode_line recusa seq ausente ou fora de ordem") {
  CHECK(refused_citing(sealed({{"type", "user"}, {"text", "x"}}), 1) == "bad_seq");
  CHECK(refused_citing(sealed({{"seq", "1"}, {"type", "user"}, {"text", "x"}}), 1) == "bad_seq");
  CHECK(refused_citing(bare(hz::user_record("x"), 5), 4, {"5", "4"}) == "bad_seq");
  CHECK(refused_citing(bare(hz::user_record("x"), 3), 4, {"3", "4"}) == "bad_seq");
}

TEST_CASE("decode_line recusa tipo ausente ou desconhecido") {
  CHECK(refused_citing(sealed({{"seq", 1}, {"text", "x"}}), 1) == "bad_type");
  CHECK(refused_citing(sealed({{"seq", 1}, {"type", "checkpoint"}}), 1, {"\"checkpoint\""}) ==
        "bad_type");
}

TEST_CASE("cada problema de uma linha tem a sua mensagem") {
  // Uma linha de cada caso do contrato de decode_line (menos os campos, de
  // check_fields): quem lê o journal precisa saber qual foi.
  const std::string good = bare(hz::user_record("oi"), 1);
  std::string bad_crc = good;
  bad_crc.replace(bad_crc.find("\"oi\""), 4, "\"oI\"");
  const std::vector<std::string> lines{"",
                                       std::string(40, '\0'),
                                       std::string(300, '[') + std::string(300, ']'),
                                       good.substr(0, good.size() - 5),
                                       "[1,2]",
                                       R"({"crc":"E3069283","rec":{}})",
                                       bad_crc,
                                       sealed({{"type", "user"}, {"text", "x"}}),
                                       bare(hz::user_record("x"), 5),
                                       sealed({{"seq", 1}, {"text", "x"}}),
                                       sealed({{"seq", 1}, {"type", "checkpoint"}})};
  std::vector<std::string> messages;
  for (const std::string& text : lines) messages.push_back(message_of(text, 1));
  std::vector<std::string> repeated;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    if (messages[i].empty()) repeated.push_back("a linha " + std::to_string(i) + " foi aceita");
    for (std::size_t j = i + 1; j < messages.size(); ++j) {
      if (messages[i] == messages[j]) repeated.push_back(messages[i]);
    }
  }
  CHECK(repeated == std::vector<std::string>{});
}

TEST_CASE("decode_line recusa um registro sem os campos do tipo dele") {
  CHECK(decoded(sealed({{"seq", 1}, {"type", "user"}}), 1) ==
        refused(LineError::Kind::bad_field, "registro user sem o campo text (texto)"));
  const std::string result =
      sealed({{"seq", 1}, {"type", "result"}, {"call_id", "c"}, {"ok", "sim"}, {"content", ""}});
  CHECK(decoded(result, 1) ==
        refused(LineError::Kind::bad_field, "registro result sem o campo ok (booleano)"));
  const std::string start =
      sealed({{"seq", 1}, {"type", "start"}, {"version", 2}, {"settings", json::object()}});
  CHECK(decoded(start, 1) ==
        refused(LineError::Kind::bad_field, "versão 2 do journal; esta sabe ler a 1"));
  json reply = hz::reply_record(hz::Message::assistant("x"), journal_test::usage(1, 1), 0);
  reply["seq"] = 1;
  reply["message"]["role"] = "user";
  CHECK(decoded(sealed(reply), 1) ==
        refused(LineError::Kind::bad_field,
                "registro reply com uma message que não é do assistente"));
  json intent =
      hz::intent_record(journal_test::intent(call("c", "x", json::object()), hz::Idempotency::yes));
  intent["seq"] = 1;
  intent["idempotency"] = "talvez";
  CHECK(decoded(sealed(intent), 1) ==
        refused(LineError::Kind::bad_field,
                "registro intent com idempotency desconhecida (yes, check ou no)"));
  intent["idempotency"] = "check";
  intent["append_key"] = {{"size_before", -1}, {"content_bytes", 1}, {"content_crc32c", "0"}};
  CHECK(decoded(sealed(intent), 1) ==
        refused(LineError::Kind::bad_field,
                "append_key do registro intent sem o campo size_before (inteiro não negativo)"));
  CHECK(decoded(sealed({{"seq", 1}, {"type", "note"}, {"text", "x"}, {"call_id", 7}}), 1) ==
        refused(LineError::Kind::bad_field, "registro note sem o campo call_id (texto)"));
}

TEST_SUITE_END();
