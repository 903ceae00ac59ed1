// tool_result: a mensagem tool que responde a uma tool call, com a saída
// cortada no meio e o tamanho de antes do corte.
#include <doctest/doctest.h>

#include <string>

#include "helpers.hpp"
#include "hz/testing/process.hpp"
#include "hz/text.hpp"
#include "tool_dispatch.hpp"

using hz::Message;
using hz::ToolCall;
using hz::ToolOutput;
using hz::test01::check_cut;
using hz::test01::long_output;
using hz::testing::contains;

TEST_SUITE_BEGIN("01-loop/tool-result");

TEST_CASE("tool_result responde pelo id do pedido com o texto da saída") {
  const ToolCall call{"call_7", "echo", R"({"text":"olá"})"};
  const hz::ToolResult result = hz::tool_result(call, ToolOutput::success("olá"), 100);
  CHECK(result.message == Message::tool("call_7", "olá"));
  CHECK(result.ok == true);
  CHECK(result.output_bytes == 4);  // "olá" tem 4 bytes em UTF-8
}

TEST_CASE("tool_result de uma falha guarda o texto e marca ok falso") {
  const ToolCall call{"c4", "check", "{}"};
  const hz::ToolResult result =
      hz::tool_result(call, ToolOutput::failure("código de saída: 1\nFALHOU"), 100);
  CHECK(result.message == Message::tool("c4", "código de saída: 1\nFALHOU"));
  CHECK(result.ok == false);
  CHECK(result.output_bytes == std::string("código de saída: 1\nFALHOU").size());
}

TEST_CASE("tool_result corta no meio a saída maior que o limite") {
  const ToolCall call{"c5", "big", "{}"};
  const hz::ToolResult result =
      hz::tool_result(call, ToolOutput::success("0123456789abcdefghij"), 10);
  CHECK(result.message == Message::tool("c5", "01234[... 10 bytes omitidos ...]fghij"));
  CHECK(result.ok == true);
  CHECK(result.output_bytes == 20);  // o tamanho antes do corte
}

TEST_CASE("tool_result com saída longa guarda o começo e o fim") {
  const std::string big = long_output();
  const hz::ToolResult result =
      hz::tool_result(ToolCall{"c5", "big", "{}"}, ToolOutput::success(big), 200);
  check_cut(result.message.content, 200);
  CHECK(contains(result.message.content, "[... 9811 bytes omitidos ...]"));
  CHECK(result.message.tool_call_id == "c5");
  CHECK(result.output_bytes == big.size());
}

TEST_CASE("tool_result não corta a saída do tamanho exato do limite") {
  const std::string exact(200, 'y');
  const hz::ToolResult result =
      hz::tool_result(ToolCall{"c6", "fit", "{}"}, ToolOutput::success(exact), 200);
  CHECK(result.message == Message::tool("c6", exact));
  CHECK(result.output_bytes == 200);
}

TEST_CASE("tool_result de saída vazia é uma mensagem tool vazia") {
  const hz::ToolResult result =
      hz::tool_result(ToolCall{"c0", "touch", "{}"}, ToolOutput::success(""), 100);
  CHECK(result.message == Message::tool("c0", ""));
  CHECK(result.ok == true);
  CHECK(result.output_bytes == 0);
}

TEST_SUITE_END();
