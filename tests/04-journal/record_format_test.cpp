// O formato dos registros e da linha, byte a byte: é o que fica no disco e o
// que outra versão do harness (ou o jq de uma pessoa) vai ler.
#include <doctest/doctest.h>

#include <string>

#include "crc32c.hpp"
#include "helpers.hpp"
#include "journal_record.hpp"
#include "records.hpp"

using journal_test::call;
using journal_test::json;
using journal_test::line;

TEST_CASE("encode_line grava crc e rec, nessa ordem, numa linha terminada em \\n") {
  // O crc foi conferido fora daqui, com outra implementação do CRC-32C.
  CHECK(line(hz::user_record("olá"), 1) ==
        "{\"crc\":\"74d988e2\",\"rec\":{\"seq\":1,\"text\":\"olá\",\"type\":\"user\"}}\n");
  CHECK(line(hz::user_record("olá"), 2) ==
        "{\"crc\":\"4a144bf9\",\"rec\":{\"seq\":2,\"text\":\"olá\",\"type\":\"user\"}}\n");
}

TEST_CASE("o crc da linha é o CRC-32C exatamente de rec.dump()") {
  json rec = hz::note_record("nota");
  rec["seq"] = 7;
  const std::string body = rec.dump();
  CHECK(hz::encode_line(rec) ==
        "{\"crc\":\"" + hz::crc32c_hex(hz::crc32c(body)) + "\",\"rec\":" + body + "}\n");
}

TEST_CASE("cada tipo de registro tem os campos do formato, com as chaves em ordem") {
  CHECK(hz::start_record({{"model", "m"}}).dump() ==
        R"({"settings":{"model":"m"},"type":"start","version":1})");
  CHECK(hz::user_record("oi").dump() == R"({"text":"oi","type":"user"})");
  const hz::Message reply =
      hz::Message::assistant("", {call("c1", "read_file", {{"path", "a.txt"}})});
  CHECK(hz::reply_record(reply, journal_test::usage(100, 20), 450).dump() ==
        R"({"cost_micros":450,"estimated":false,"message":{"content":null,"role":"assistant",)"
        R"("tool_calls":[{"function":{"arguments":"{\"path\":\"a.txt\"}","name":"read_file"},)"
        R"("id":"c1","type":"function"}]},"type":"reply",)"
        R"("usage":{"completion_tokens":20,"prompt_tokens":100,"reported":true}})");
  hz::Intent intent{call("c2", "append_file", {{"path", "n.txt"}, {"content", "x\n"}}),
                    hz::Idempotency::check,
                    hz::AppendKey{12, 2, 0x0000abcdu},
                    {}};
  CHECK(hz::intent_record(intent).dump() ==
        R"({"append_key":{"content_bytes":2,"content_crc32c":"0000abcd","size_before":12},)"
        R"("arguments":"{\"content\":\"x\\n\",\"path\":\"n.txt\"}","call_id":"c2",)"
        R"("idempotency":"check","name":"append_file","type":"intent"})");
  CHECK(hz::result_record("c2", hz::ToolOutput::failure("erro")).dump() ==
        R"({"call_id":"c2","content":"erro","ok":false,"type":"result"})");
  CHECK(hz::note_record("cuidado").dump() == R"({"text":"cuidado","type":"note"})");
  CHECK(hz::note_record("cuidado", "call_3").dump() ==
        R"({"call_id":"call_3","text":"cuidado","type":"note"})");
  CHECK(hz::turn_end_record("success", 3, 1200).dump() ==
        R"({"cost_micros":1200,"model_calls":3,"outcome":"success","type":"turn_end"})");
}

TEST_CASE("texto com UTF-8 inválido vira U+FFFD na linha, sem lançar") {
  const std::string encoded = line(hz::result_record("c1", hz::ToolOutput::success("a\xff"
                                                                                   "b")),
                                   1);
  CHECK(encoded.find("a\xef\xbf\xbd"
                     "b") != std::string::npos);
  CHECK(encoded.back() == '\n');
}

TEST_CASE("os nomes dos tipos e da idempotência vão e voltam") {
  for (const char* name : {"start", "user", "reply", "intent", "result", "note", "turn_end"}) {
    const auto type = hz::record_type_from(name);
    REQUIRE(type.has_value());
    CHECK(hz::to_string(*type) == name);
  }
  CHECK_FALSE(hz::record_type_from("reply ").has_value());
  for (const char* name : {"yes", "check", "no"}) {
    const auto idempotency = hz::idempotency_from(name);
    REQUIRE(idempotency.has_value());
    CHECK(hz::to_string(*idempotency) == name);
  }
  CHECK_FALSE(hz::idempotency_from("maybe").has_value());
}

TEST_CASE("intent_from lê de volta a intenção, com a chave do append_file") {
  hz::Intent intent{call("c2", "append_file", {{"path", "n.txt"}, {"content", "x"}}),
                    hz::Idempotency::check,
                    hz::AppendKey{12, 1, 0xdeadbeefu},
                    {}};
  CHECK(hz::intent_from(hz::intent_record(intent)) == intent);
  hz::Intent plain{call("c3", "run_shell", {{"command", "ls"}}), hz::Idempotency::no, {}, {}};
  CHECK(hz::intent_from(hz::intent_record(plain)) == plain);
}
