// check_arguments: os argumentos de uma tool call lidos como objeto JSON e
// conferidos contra os campos obrigatórios do schema. O erro é o texto que o
// modelo vai ler (o despacho acrescenta o prefixo "erro: "), com as palavras
// do aluno: os testes conferem o que ele cita.
#include <doctest/doctest.h>

#include <string>

#include "helpers.hpp"
#include "hz/testing/facts.hpp"
#include "hz/text.hpp"
#include "tool_dispatch.hpp"

using hz::ToolCall;
using hz::test01::refusal_gaps;
using hz::test01::shown;
using nlohmann::json;

namespace {

// O schema de uma ferramenta com estes campos obrigatórios.
hz::ToolSchema schema_with(std::initializer_list<const char*> required) {
  return hz::test01::fake_tool("t", required,
                               [](const json&) { return hz::ToolOutput::success(""); })
      .schema;
}

}  // namespace

TEST_SUITE_BEGIN("01-loop/check-arguments");

TEST_CASE("check_arguments devolve o objeto JSON dos argumentos") {
  const auto args =
      hz::check_arguments(schema_with({"text"}), ToolCall{"c1", "echo", R"({"text": "olá"})"});
  CHECK(shown(args) == R"({"text":"olá"})");
}

TEST_CASE("check_arguments aceita campos além dos obrigatórios") {
  const auto args = hz::check_arguments(schema_with({"path"}),
                                        ToolCall{"c1", "read_file", R"({"path":"a","extra":2})"});
  CHECK(shown(args) == R"({"extra":2,"path":"a"})");
}

TEST_CASE("check_arguments conta argumentos vazios como um objeto vazio") {
  CHECK(shown(hz::check_arguments(schema_with({}), ToolCall{"c1", "ping", ""})) == "{}");
  CHECK(shown(hz::check_arguments(schema_with({}), ToolCall{"c2", "ping", " \n\t"})) == "{}");
}

TEST_CASE("check_arguments recusa texto que não é JSON") {
  const auto args =
      hz::check_arguments(schema_with({"text"}), ToolCall{"c1", "echo", R"({"text": )"});
  CHECK(refusal_gaps(args, {"echo", R"({"text": )"}) == "");
}

TEST_CASE("check_arguments recusa JSON que não é um objeto") {
  for (const char* arguments : {"[1, 2]", "\"texto\"", "null"}) {
    CAPTURE(arguments);
    CHECK(refusal_gaps(hz::check_arguments(schema_with({}), ToolCall{"c1", "echo", arguments}),
                       {"echo", arguments}) == "");
  }
}

TEST_CASE("check_arguments corta no meio argumentos inválidos muito longos") {
  const std::string junk = "{" + std::string(300, 'x');
  const auto args = hz::check_arguments(schema_with({}), ToolCall{"c1", "echo", junk});
  const std::string cut =
      "{" + std::string(99, 'x') + "[... 101 bytes omitidos ...]" + std::string(100, 'x');
  CHECK(cut == hz::truncate_middle(junk, hz::kMaxQuotedArguments));
  CHECK(refusal_gaps(args, {"echo", cut}) == "");
  const std::string text = args ? "" : args.error().message;
  INFO("o texto da recusa: ", hz::testing::quoted(text));
  CHECK_MESSAGE(!hz::testing::cites(text, junk), "a recusa cita os argumentos inteiros, sem corte");
}

TEST_CASE("check_arguments aponta o campo obrigatório que falta") {
  const auto args = hz::check_arguments(schema_with({"path", "old_text"}),
                                        ToolCall{"c2", "edit", R"({"path":"a.txt"})"});
  CHECK(refusal_gaps(args, {"edit", "\"old_text\""}) == "");
}

TEST_CASE("check_arguments aponta o primeiro campo obrigatório que falta, na ordem do schema") {
  const auto args =
      hz::check_arguments(schema_with({"path", "content"}), ToolCall{"c3", "write_file", "{}"});
  CHECK(refusal_gaps(args, {"write_file", "\"path\""}) == "");
  const std::string text = args ? "" : args.error().message;
  INFO("o texto da recusa: ", hz::testing::quoted(text));
  CHECK_MESSAGE(!hz::testing::cites(text, "\"content\""),
                "a recusa cita também \"content\"; o contrato pede só o primeiro que falta");
}

TEST_CASE("check_arguments aceita um schema sem a lista required") {
  const hz::ToolSchema schema{"livre", "sem obrigatórios", {{"type", "object"}}};
  CHECK(shown(hz::check_arguments(schema, ToolCall{"c1", "livre", R"({"a":1})"})) == R"({"a":1})");
}

TEST_SUITE_END();
