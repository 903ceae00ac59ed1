// Exercício read-record: uma linha do journal vira registro só depois de
// conferida (JSON, forma, crc, seq, tipo e campos), e cada recusa diz por quê.
#include <doctest/doctest.h>

#include <exception>
#include <initializer_list>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
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
//   refused_citing(text, 4, {"5", "4"}) == "bad_seq"
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

// journal_test::why para o INFO de CHECK_REFUSED, calculado antes do CHECK: se
// decode_line lança (o stub), quem diz isso é o CHECK, não o INFO.
std::string message_for_info(const std::string& text, std::int64_t seq) {
  try {
    return hz::testing::quoted(journal_test::why(text, seq));
  } catch (const std::exception& e) {
    return std::string("(decode_line lançou: ") + e.what() + ")";
  }
}

}  // namespace

// refused_citing == kind, com a mensagem na falha mesmo quando só o tipo erra:
//   CHECK_REFUSED(text, 4, "bad_seq", {"5", "4"});
#define CHECK_REFUSED(text, seq, kind, ...)                              \
  do {                                                                   \
    const std::string hz_message = message_for_info(text, seq);          \
    INFO("a mensagem: ", hz_message);                                    \
    CHECK(refused_citing(text, seq __VA_OPT__(, ) __VA_ARGS__) == kind); \
  } while (false)

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
  // Quem lê refaz a conta sobre dump_rec(rec), e não sobre os bytes da linha:
  // o mesmo rec com outra ordem de chaves e espaços tem o mesmo crc.
  const std::string canonical = R"({"seq":1,"text":"oi","type":"user"})";
  const std::string spaced = R"({"crc":")" + hz::crc32c_hex(hz::crc32c(canonical)) +
                             R"(", "rec": {"type": "user", "text": "oi", "seq": 1}})";
  CHECK(decoded(spaced, 1) == "aceitou: seq 1, tipo user");
}

TEST_CASE("decode_line recusa linha vazia, bytes nulos e o que não é JSON") {
  CHECK_REFUSED("", 1, "not_json");
  CHECK_REFUSED(std::string(40, '\0'), 1, "not_json");
  const std::string good = bare(hz::user_record("oi"), 1);
  CHECK_REFUSED(good.substr(0, good.size() - 5), 1, "not_json");
}

TEST_CASE("decode_line recusa JSON que não tem a forma de linha do journal") {
  CHECK_REFUSED("[1,2]", 1, "bad_shape");
  CHECK_REFUSED(R"({"rec":{"seq":1}})", 1, "bad_shape");
  CHECK_REFUSED(R"({"crc":"00000000","rec":[]})", 1, "bad_shape");
  CHECK_REFUSED(R"({"crc":"00000000","rec":{},"x":1})", 1, "bad_shape");
  CHECK_REFUSED(R"({"crc":"E3069283","rec":{}})", 1, "bad_shape");
  CHECK_REFUSED(std::string(300, '[') + std::string(300, ']'), 1, "bad_shape");
  // Aninhado demais dentro de um rec que, fora isso, seria um registro.
  const std::string deep = R"({"crc":"00000000","rec":{"seq":1,"type":"note","text":"x","a":)" +
                           std::string(300, '[') + std::string(300, ']') + "}}";
  CHECK_REFUSED(deep, 1, "bad_shape");
}

TEST_CASE("decode_line recusa um crc que não confere num JSON válido, dizendo os dois") {
  // "oi" virou "oI": o JSON continua válido, o crc não.
  std::string text = bare(hz::user_record("oi"), 1);
  text.replace(text.find("\"oi\""), 4, "\"oI\"");
  const std::string computed = hz::crc32c_hex(hz::crc32c(R"({"seq":1,"text":"oI","type":"user"})"));
  CHECK_REFUSED(text, 1, "bad_crc", {text.substr(8, 8), computed});
}

TEST_CASE("com o crc e o seq errados, o erro é o crc: o seq de uma linha estragada não vale") {
  // "oi" virou "oI" num registro de seq 5, lido onde se esperava o 4. Com o
  // seq conferido antes do crc, o erro seria bad_seq: um seq fora de ordem
  // que ninguém gravou e, no fim do arquivo, um registro rasgado (que a
  // retomada corta) visto como estrago (que para a retomada).
  std::string text = bare(hz::user_record("oi"), 5);
  text.replace(text.find("\"oi\""), 4, "\"oI\"");
  const std::string computed = hz::crc32c_hex(hz::crc32c(R"({"seq":5,"text":"oI","type":"user"})"));
  CHECK_REFUSED(text, 4, "bad_crc", {text.substr(8, 8), computed});
}

TEST_CASE("decode_line recusa seq ausente ou fora de ordem") {
  CHECK_REFUSED(sealed({{"type", "user"}, {"text", "x"}}), 1, "bad_seq");
  CHECK_REFUSED(sealed({{"seq", "1"}, {"type", "user"}, {"text", "x"}}), 1, "bad_seq");
  // 1.0 vale 1, mas não é um seq inteiro: o Journal nunca o grava assim.
  CHECK_REFUSED(sealed({{"seq", 1.0}, {"type", "user"}, {"text", "x"}}), 1, "bad_seq");
  CHECK_REFUSED(bare(hz::user_record("x"), 5), 4, "bad_seq", {"5", "4"});
  CHECK_REFUSED(bare(hz::user_record("x"), 3), 4, "bad_seq", {"3", "4"});
}

TEST_CASE("decode_line recusa tipo ausente ou desconhecido") {
  CHECK_REFUSED(sealed({{"seq", 1}, {"text", "x"}}), 1, "bad_type");
  CHECK_REFUSED(sealed({{"seq", 1}, {"type", "checkpoint"}}), 1, "bad_type", {"\"checkpoint\""});
}

TEST_CASE("cada problema de uma linha tem a sua mensagem") {
  // Uma linha de cada caso do contrato de decode_line (menos os campos, de
  // check_fields): quem lê o journal precisa saber qual foi.
  const std::string good = bare(hz::user_record("oi"), 1);
  std::string bad_crc = good;
  bad_crc.replace(bad_crc.find("\"oi\""), 4, "\"oI\"");
  const std::pair<const char*, std::string> lines[] = {
      {"vazia", ""},
      {"bytes nulos", std::string(40, '\0')},
      {"aninhada demais", std::string(300, '[') + std::string(300, ']')},
      {"não é JSON", good.substr(0, good.size() - 5)},
      {"sem a forma", "[1,2]"},
      {"crc ilegível", R"({"crc":"E3069283","rec":{}})"},
      {"crc que não confere", bad_crc},
      {"sem seq", sealed({{"type", "user"}, {"text", "x"}})},
      {"seq fora de ordem", bare(hz::user_record("x"), 5)},
      {"sem type", sealed({{"seq", 1}, {"text", "x"}})},
      {"type desconhecido", sealed({{"seq", 1}, {"type", "checkpoint"}})}};
  std::vector<std::string> repeated;
  for (std::size_t i = 0; i < std::size(lines); ++i) {
    const std::string mine = journal_test::why(lines[i].second, 1);
    if (mine == journal_test::kLineAccepted)
      repeated.push_back(std::string(lines[i].first) + ": aceita");
    for (std::size_t j = i + 1; j < std::size(lines); ++j) {
      if (mine == journal_test::why(lines[j].second, 1)) {
        repeated.push_back(std::string(lines[i].first) + " e " + lines[j].first + ": " +
                           hz::testing::quoted(mine));
      }
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
