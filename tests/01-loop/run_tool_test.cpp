// run_tool: uma tool call despachada entre os eventos tool_start e tool_end.
// Confere a mensagem devolvida e os campos de cada evento pelo nome.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "agent_loop.hpp"
#include "helpers.hpp"
#include "hz/text.hpp"

using hz::Message;
using hz::ToolCall;
using hz::ToolOutput;
using hz::test01::echo_tool;
using hz::test01::event_difference;
using hz::test01::fake_tool;
using nlohmann::json;

namespace {

// Uma ferramenta sem argumentos que devolve sempre o mesmo texto.
hz::Tool constant_tool(std::string name, std::string text) {
  return fake_tool(std::move(name), {}, [text](const json&) { return ToolOutput::success(text); });
}

}  // namespace

TEST_SUITE_BEGIN("01-loop/run-tool");

TEST_CASE("run_tool devolve o resultado que o despacho produziu") {
  const hz::ToolBox box({echo_tool()});
  hz::test01::RecordedTrace recorded;
  const hz::ToolResult result =
      hz::run_tool(ToolCall{"c1", "echo", R"({"text": "oi"})"}, box, recorded.trace(), 2);
  CHECK(result.message == Message::tool("c1", "oi"));
  CHECK(result.ok);
  CHECK(result.output_bytes == 2);
}

TEST_CASE("run_tool emite tool_start e tool_end com os campos do contrato") {
  const hz::ToolBox box({echo_tool()});
  hz::test01::RecordedTrace recorded;
  (void)hz::run_tool(ToolCall{"c1", "echo", R"({"text": "oi"})"}, box, recorded.trace(), 2);
  const std::vector<json> expected{{{"event", "tool_start"},
                                    {"turn", 2},
                                    {"call_id", "c1"},
                                    {"name", "echo"},
                                    {"arguments", R"({"text": "oi"})"}},
                                   {{"event", "tool_end"},
                                    {"turn", 2},
                                    {"call_id", "c1"},
                                    {"ok", true},
                                    {"output_bytes", 2},
                                    {"summary", "oi"}}};
  CHECK(event_difference(recorded.events(), expected) == "iguais");
}

TEST_CASE("run_tool registra o erro do despacho com ok falso") {
  const hz::ToolBox box({echo_tool()});
  hz::test01::RecordedTrace recorded;
  const ToolCall call{"c9", "apagar_tudo", "{}"};
  // O texto do erro é o do despacho do aluno (exercício dispatch).
  const std::string error = box.dispatch(call).message.content;
  const hz::ToolResult result = hz::run_tool(call, box, recorded.trace(), 1);
  CHECK(result.message == Message::tool("c9", error));
  CHECK_FALSE(result.ok);
  const std::vector<json> expected{{{"event", "tool_start"},
                                    {"turn", 1},
                                    {"call_id", "c9"},
                                    {"name", "apagar_tudo"},
                                    {"arguments", "{}"}},
                                   {{"event", "tool_end"},
                                    {"turn", 1},
                                    {"call_id", "c9"},
                                    {"ok", false},
                                    {"output_bytes", error.size()},
                                    {"summary", error}}};
  CHECK(event_difference(recorded.events(), expected) == "iguais");
}

TEST_CASE("run_tool põe no tool_start os argumentos crus, mesmo quando não são JSON") {
  const hz::ToolBox box({echo_tool()});
  hz::test01::RecordedTrace recorded;
  (void)hz::run_tool(ToolCall{"c1", "echo", R"({"text": )"}, box, recorded.trace(), 4);
  const std::vector<json> expected{
      {{"event", "tool_start"}, {"turn", 4}, {"call_id", "c1"}, {"arguments", R"({"text": )"}},
      {{"event", "tool_end"}, {"turn", 4}, {"call_id", "c1"}, {"ok", false}}};
  CHECK(event_difference(recorded.events(), expected) == "iguais");
}

TEST_CASE("run_tool resume no tool_end as duas primeiras linhas não vazias da saída") {
  const hz::ToolBox box({constant_tool("teste", "código de saída: 1\n\nFALHOU\nlinha 3\n")});
  hz::test01::RecordedTrace recorded;
  (void)hz::run_tool(ToolCall{"c1", "teste", "{}"}, box, recorded.trace(), 1);
  const std::vector<json> expected{{{"event", "tool_start"}, {"call_id", "c1"}},
                                   {{"event", "tool_end"},
                                    {"call_id", "c1"},
                                    {"ok", true},
                                    {"output_bytes", 37},
                                    {"summary", "código de saída: 1 · FALHOU …"}}};
  CHECK(event_difference(recorded.events(), expected) == "iguais");
}

TEST_CASE("run_tool conta no tool_end os bytes de antes do corte") {
  const std::string big(100, 'z');
  const hz::ToolBox box({constant_tool("grande", big)}, {}, 64);
  hz::test01::RecordedTrace recorded;
  const hz::ToolResult result =
      hz::run_tool(ToolCall{"c1", "grande", "{}"}, box, recorded.trace(), 1);
  const Message& message = result.message;
  CHECK(message == Message::tool("c1", hz::truncate_middle(big, 64)));
  CHECK(result.output_bytes == 100);
  const std::vector<json> expected{{{"event", "tool_start"}, {"call_id", "c1"}},
                                   {{"event", "tool_end"},
                                    {"call_id", "c1"},
                                    {"ok", true},
                                    {"output_bytes", 100},
                                    {"summary", hz::brief(message.content, 2, 120)}}};
  CHECK(event_difference(recorded.events(), expected) == "iguais");
}

TEST_SUITE_END();
