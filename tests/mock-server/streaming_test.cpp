// Streaming (SSE): enquadramento, ordem dos pedaços, tool calls em pedaços e uso.
#include <map>

#include <doctest/doctest.h>

#include "support.hpp"

namespace hz::mock {
namespace {

using nlohmann::json;
using test::Served;

json stream_request(bool include_usage) {
  json body = test::user_only();
  body["stream"] = true;
  if (include_usage) body["stream_options"] = {{"include_usage", true}};
  return body;
}

// O que um cliente monta juntando os deltas.
struct Assembled {
  std::string role;
  std::string content;
  std::string reasoning_content;
  std::map<int, json> calls;  // por índice: id, name, arguments (texto juntado)
  std::string finish_reason;
  json usage;
  int chunks = 0;
  bool done = false;
  std::string id;
};

Assembled assemble(const std::vector<std::string>& data) {
  Assembled out;
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (data[i] == "[DONE]") {
      CHECK(i + 1 == data.size());  // [DONE] é sempre o último
      out.done = true;
      continue;
    }
    json chunk = json::parse(data[i]);
    ++out.chunks;
    CHECK(chunk["object"] == "chat.completion.chunk");
    if (out.id.empty()) out.id = chunk["id"];
    CHECK(chunk["id"] == out.id);  // todos os pedaços são da mesma resposta
    if (chunk.contains("usage") && !chunk["usage"].is_null()) {
      CHECK(chunk["choices"].empty());
      out.usage = chunk["usage"];
      continue;
    }
    REQUIRE(chunk["choices"].size() == 1);
    const json& choice = chunk["choices"][0];
    const json& delta = choice["delta"];
    if (!choice["finish_reason"].is_null()) out.finish_reason = choice["finish_reason"];
    if (delta.contains("role")) out.role += delta["role"].get<std::string>();
    if (delta.contains("content")) out.content += delta["content"].get<std::string>();
    if (delta.contains("reasoning_content")) {
      out.reasoning_content += delta["reasoning_content"].get<std::string>();
    }
    if (delta.contains("tool_calls")) {
      for (const auto& call : delta["tool_calls"]) {
        json& slot = out.calls[call["index"].get<int>()];
        if (call.contains("id")) slot["id"] = call["id"];
        const json& function = call["function"];
        if (function.contains("name")) slot["name"] = function["name"];
        if (function["arguments"].is_string()) {
          slot["arguments"] =
              slot.value("arguments", "") + function["arguments"].get<std::string>();
        } else {
          slot["arguments"] = function["arguments"];
        }
      }
    }
  }
  return out;
}

std::vector<std::string> stream(Served& served, const json& body) {
  auto res = served.post(body);
  REQUIRE(res);
  REQUIRE(res->status == 200);
  CHECK(res->get_header_value("Content-Type") == "text/event-stream");
  return test::sse_data(res->body);
}

TEST_CASE("streaming de texto manda papel pedaços finish_reason e DONE") {
  Served served(test::embedded_scenario("examples/streaming"));
  served.chat(test::user_only());  // o passo 1 (tool calls) sem streaming
  auto data = stream(served, stream_request(false));
  json first = json::parse(data.front());
  CHECK(first["choices"][0]["delta"] == json{{"role", "assistant"}, {"content", ""}});
  CHECK_FALSE(first.contains("usage"));
  auto out = assemble(data);
  CHECK(out.role == "assistant");
  CHECK(out.content == "Os dois arquivos estão certos; o problema é outro.");
  CHECK(out.finish_reason == "stop");
  CHECK(out.done);
  CHECK(out.usage.is_null());  // sem include_usage, sem pedaço de uso
  CHECK(out.chunks > 5);       // o texto vem em vários pedaços
  CHECK(out.id == "chatcmpl-hz-2");
}

TEST_CASE("streaming de tool calls manda índice id nome e argumentos em pedaços") {
  Served served(test::embedded_scenario("examples/streaming"));
  auto data = stream(served, stream_request(true));
  auto out = assemble(data);
  CHECK(out.content == "Vou ler os dois arquivos.");
  CHECK(out.finish_reason == "tool_calls");
  REQUIRE(out.calls.size() == 2);
  CHECK(out.calls[0] ==
        json{{"id", "call_1"}, {"name", "read_file"}, {"arguments", R"({"path":"config.ini"})"}});
  CHECK(out.calls[1] == json{{"id", "call_2"},
                             {"name", "read_file"},
                             {"arguments", R"({"path":"test_login.sh"})"}});
  // Os argumentos chegam em mais de um pedaço, e o primeiro pedaço da chamada
  // traz id, type e nome com arguments vazio.
  int argument_chunks = 0;
  for (const auto& text : data) {
    if (text == "[DONE]") continue;
    json chunk = json::parse(text);
    if (chunk["choices"].empty() || !chunk["choices"][0]["delta"].contains("tool_calls")) continue;
    const json& call = chunk["choices"][0]["delta"]["tool_calls"][0];
    if (call.contains("id")) {
      CHECK(call["type"] == "function");
      CHECK(call["function"]["arguments"] == "");
    } else {
      ++argument_chunks;
    }
  }
  CHECK(argument_chunks >= 4);
  CHECK(out.usage ==
        json{{"prompt_tokens", 200}, {"completion_tokens", 45}, {"total_tokens", 245}});
}

TEST_CASE("com include_usage todo pedaço leva usage null e o penúltimo traz o uso") {
  Served served(test::embedded_scenario("examples/text"));
  auto data = stream(served, stream_request(true));
  REQUIRE(data.size() >= 3);
  CHECK(data.back() == "[DONE]");
  json usage_chunk = json::parse(data[data.size() - 2]);
  CHECK(usage_chunk["choices"] == json::array());
  CHECK(usage_chunk["usage"] ==
        json{{"prompt_tokens", 12}, {"completion_tokens", 6}, {"total_tokens", 18}});
  json finish_chunk = json::parse(data[data.size() - 3]);
  CHECK(finish_chunk["choices"][0]["delta"] == json::object());
  CHECK(finish_chunk["choices"][0]["finish_reason"] == "stop");
  for (std::size_t i = 0; i + 2 < data.size(); ++i) {
    json chunk = json::parse(data[i]);
    REQUIRE(chunk.contains("usage"));
    CHECK(chunk["usage"].is_null());
  }
}

TEST_CASE("o texto em streaming nunca parte um caractere UTF-8") {
  Served served(test::scenario_from(
      R"({"steps": [{"content": "ação çãõ éééééééééééé", "tool_calls": [{"name": "x", "arguments": {"t": "ççççççççççç"}}]}]})"));
  auto data = stream(served, stream_request(false));
  // json::parse lançaria com UTF-8 quebrado; juntar tem que dar o original.
  auto out = assemble(data);
  CHECK(out.content == "ação çãõ éééééééééééé");
  CHECK(out.calls[0]["arguments"] == R"({"t":"ççççççççççç"})");
}

TEST_CASE("streaming cru usa chunked e termina com o pedaço final") {
  Served served(test::embedded_scenario("examples/text"));
  auto reply = test::raw_post(served.port(), "/v1/chat/completions", stream_request(false).dump());
  CHECK_FALSE(reply.reset);
  CHECK(reply.bytes.rfind("HTTP/1.1 200 OK\r\n", 0) == 0);
  CHECK(reply.bytes.find("Transfer-Encoding: chunked\r\n") != std::string::npos);
  CHECK(reply.bytes.size() >= 5);
  CHECK(reply.bytes.substr(reply.bytes.size() - 5) == "0\r\n\r\n");
  auto data = test::sse_data(test::raw_body(reply.bytes));
  CHECK(data.back() == "[DONE]");
}

}  // namespace
}  // namespace hz::mock
