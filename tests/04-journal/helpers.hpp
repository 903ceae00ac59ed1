// Ajudantes dos testes do journal: como os tipos da retomada aparecem numa
// falha, linhas numeradas, registros montados sem passar pela leitura e uma
// conversa de exemplo.
#pragma once

#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "hz/testing/child.hpp"
#include "hz/testing/facts.hpp"
#include "hz/testing/printing.hpp"
#include "hz/tools.hpp"
#include "hz/wire.hpp"
#include "journal_record.hpp"
#include "resume.hpp"

namespace hz {

// Os enums pelo nome, e não pela posição, soltos num CHECK (toString) e
// dentro de outro valor (operator<<); veja hz/testing/printing.hpp.
inline std::ostream& operator<<(std::ostream& out, NextStep step) { return out << to_string(step); }
inline doctest::String toString(NextStep step) { return testing::printed(step); }

inline std::ostream& operator<<(std::ostream& out, LineError::Kind kind) {
  switch (kind) {
    case LineError::Kind::not_json:
      return out << "not_json";
    case LineError::Kind::bad_shape:
      return out << "bad_shape";
    case LineError::Kind::bad_crc:
      return out << "bad_crc";
    case LineError::Kind::bad_seq:
      return out << "bad_seq";
    case LineError::Kind::bad_type:
      return out << "bad_type";
    case LineError::Kind::bad_field:
      return out << "bad_field";
  }
  return out << "?";
}
inline doctest::String toString(LineError::Kind kind) { return testing::printed(kind); }

// A idempotência e, no append_file, a chave: "check {size_before=0,
// content_bytes=6, content_crc=77884ff9}".
inline std::ostream& print_guard(std::ostream& out, const Intent& intent) {
  auto hex = [](std::uint32_t value) {
    char text[9];
    std::snprintf(text, sizeof text, "%08x", static_cast<unsigned>(value));
    return std::string(text);
  };
  out << to_string(intent.idempotency);
  if (intent.edit_key) {
    out << " {size_before=" << intent.edit_key->size_before
        << ", crc_before=" << hex(intent.edit_key->crc_before)
        << ", size_after=" << intent.edit_key->size_after
        << ", crc_after=" << hex(intent.edit_key->crc_after) << "}";
  }
  if (!intent.append_key) return out;
  return out << " {size_before=" << intent.append_key->size_before
             << ", content_bytes=" << intent.append_key->content_bytes
             << ", content_crc=" << hex(intent.append_key->content_crc) << "}";
}

inline std::ostream& operator<<(std::ostream& out, const Intent& intent) {
  out << intent.call << " ";
  return print_guard(out, intent);
}

// "read_file(id=\"c2\", ...) sem intenção", "append_file(...) com intenção check {...}".
inline std::ostream& operator<<(std::ostream& out, const UnfinishedCall& unfinished) {
  out << unfinished.call;
  if (!unfinished.intent) return out << " sem intenção";
  out << " com intenção ";
  print_guard(out, *unfinished.intent);
  if (!(unfinished.intent->call == unfinished.call)) {
    out << " de outra chamada: " << unfinished.intent->call;
  }
  return out;
}

inline std::ostream& operator<<(std::ostream& out, const TurnToolResult& result) {
  return out << result.call << (result.ok ? " ok " : " falhou ") << testing::quoted(result.content);
}

// Uma por linha, numeradas, como os históricos: "{2 chamadas\n  [0] ...\n}".
template <class T>
std::ostream& print_numbered(std::ostream& out, const std::vector<T>& items, const char* one,
                             const char* many) {
  out << "{" << items.size() << " " << (items.size() == 1 ? one : many);
  for (std::size_t i = 0; i < items.size(); ++i) out << "\n  [" << i << "] " << items[i];
  return out << "\n}";
}

inline std::ostream& operator<<(std::ostream& out, const std::vector<UnfinishedCall>& calls) {
  return print_numbered(out, calls, "chamada sem resultado", "chamadas sem resultado");
}

inline std::ostream& operator<<(std::ostream& out, const std::vector<TurnToolResult>& results) {
  return print_numbered(out, results, "resultado", "resultados");
}

// Confere a decisão de uma retomada: o tipo (pelo nome, numa falha) e o motivo exato.
inline void check_replay(const Replay& replay, Replay::Kind kind, const std::string& reason) {
  CHECK(to_string(replay.kind) == to_string(kind));
  CHECK(replay.reason == reason);
}

// check_replay com a linha do teste na falha: os CHECK de dentro apontam para
// este arquivo, e um teste confere vários casos.
#define CHECK_REPLAY(...)                            \
  do {                                               \
    INFO("o caso da linha ", __LINE__, " do teste"); \
    hz::check_replay(__VA_ARGS__);                   \
  } while (false)

// As frases do aluno conferidas pelos fatos (hz/testing/facts.hpp).
using testing::cites;
using testing::reason_gaps;

// Confere uma decisão cujo motivo é do aluno: o tipo, e que o motivo começa
// pelo nome da ferramenta e cita cada fato (o caminho, os tamanhos...).
inline void check_decision(const Replay& replay, Replay::Kind kind, std::string_view tool,
                           std::initializer_list<std::string_view> facts) {
  INFO("o motivo: ", testing::quoted(replay.reason));
  CHECK(to_string(replay.kind) == to_string(kind));
  CHECK(reason_gaps(replay.reason, tool, facts) == "");
}

#define CHECK_DECISION(...)                          \
  do {                                               \
    INFO("o caso da linha ", __LINE__, " do teste"); \
    hz::check_decision(__VA_ARGS__);                 \
  } while (false)

}  // namespace hz

namespace journal_test {

using nlohmann::json;

// A linha de rec com o seq dado (encode_line, que não é exercício).
inline std::string line(json rec, std::int64_t seq) {
  rec["seq"] = seq;
  return hz::encode_line(rec);
}

// O que why devolve quando decode_line aceita a linha.
inline const std::string kLineAccepted = "(decode_line aceitou a linha)";

// Por que decode_line recusa text (uma linha sem o \n) no lugar do seq: a
// frase é do exercício read-record, e o aviso e o erro do journal a citam.
inline std::string why(const std::string& text, std::int64_t seq) {
  const auto record = hz::decode_line(text, seq);
  return record.ok() ? kLineAccepted : record.error().message;
}

// As linhas de recs, numeradas a partir de 1.
inline std::string lines(const std::vector<json>& recs) {
  std::string bytes;
  for (std::size_t i = 0; i < recs.size(); ++i) {
    bytes += line(recs[i], static_cast<std::int64_t>(i) + 1);
  }
  return bytes;
}

// Registros prontos, numerados a partir de 1, sem passar por decode_line:
// os testes da retomada não dependem do exercício de leitura.
inline std::vector<hz::Record> records(const std::vector<json>& recs) {
  std::vector<hz::Record> out;
  for (std::size_t i = 0; i < recs.size(); ++i) {
    json rec = recs[i];
    rec["seq"] = static_cast<std::int64_t>(i) + 1;
    const auto type = hz::record_type_from(rec["type"].get<std::string>());
    REQUIRE(type.has_value());
    out.push_back({static_cast<std::int64_t>(i) + 1, *type, rec});
  }
  return out;
}

inline json settings() {
  return {{"model", "gpt-4.1-mini"},
          {"workspace", "/tmp/ws"},
          {"max_turns", 20},
          {"budget_micros", 500000},
          {"system_prompt", "Você é um agente."}};
}

inline hz::Usage usage(long prompt, long completion) {
  hz::Usage u;
  u.prompt_tokens = prompt;
  u.completion_tokens = completion;
  u.reported = true;
  return u;
}

inline hz::ToolCall call(std::string id, std::string name, json args) {
  return {std::move(id), std::move(name), args.dump()};
}

inline hz::Intent intent(const hz::ToolCall& c, hz::Idempotency idempotency) {
  return {c, idempotency, std::nullopt, std::nullopt};
}

// Os filhos dos testes (hz/testing/child.hpp).
using hz::testing::fork_child;
using hz::testing::read_until_closed;
using hz::testing::tell;

}  // namespace journal_test
