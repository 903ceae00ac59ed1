// Peculiaridades de provedores: cada uma como sai no fio, com e sem streaming.
#include <doctest/doctest.h>

#include "support.hpp"

namespace hz::mock {
namespace {

using nlohmann::json;
using test::Served;

using test::message_of;

json streamed_chunks(Served& served) {
  json body = test::user_only();
  body["stream"] = true;
  body["stream_options"] = {{"include_usage", true}};
  auto res = served.post(body);
  REQUIRE(res);
  REQUIRE(res->status == 200);
  json chunks = json::array();
  for (const auto& text : test::sse_data(res->body)) {
    if (text != "[DONE]") chunks.push_back(json::parse(text));
  }
  return chunks;
}

TEST_CASE("finish_reason stop com tool calls sai como roteirizado") {
  Served served(test::embedded_scenario("examples/quirks"));
  json reply = served.chat(test::user_only());
  CHECK(reply["choices"][0]["finish_reason"] == "stop");
  CHECK(message_of(reply)["tool_calls"].size() == 1);
}

TEST_CASE("arguments_as_object manda os argumentos como objeto") {
  Served served(test::embedded_scenario("examples/quirks"));
  served.chat(test::user_only());
  json call = message_of(served.chat(test::user_only()))["tool_calls"][0];
  CHECK(call["function"]["arguments"] == json{{"path", "b.txt"}});
  CHECK(call["id"] == "call_2");
}

TEST_CASE("arguments_as_object em streaming manda o objeto num pedaço só") {
  Served served(test::scenario_from(
      R"({"quirks": ["arguments_as_object"], "steps": [{"tool_calls": [{"name": "read_file", "arguments": {"path": "b.txt"}}]}]})"));
  int call_chunks = 0;
  for (const auto& chunk : streamed_chunks(served)) {
    if (chunk["choices"].empty() || !chunk["choices"][0]["delta"].contains("tool_calls")) continue;
    ++call_chunks;
    CHECK(chunk["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"] ==
          json{{"path", "b.txt"}});
  }
  CHECK(call_chunks == 1);
}

TEST_CASE("arguments_as_object mantém como texto argumentos que não são JSON") {
  Served served(test::scenario_from(
      R"({"steps": [{"tool_calls": [{"name": "x", "arguments": "{quebrado"}], "quirks": ["arguments_as_object"]}]})"));
  CHECK(message_of(served.chat(test::user_only()))["tool_calls"][0]["function"]["arguments"] ==
        "{quebrado");
}

TEST_CASE("missing_ids tira o id das tool calls") {
  Served served(test::embedded_scenario("examples/quirks"));
  served.chat(test::user_only());
  served.chat(test::user_only());
  json call = message_of(served.chat(test::user_only()))["tool_calls"][0];
  CHECK_FALSE(call.contains("id"));
  CHECK(call["function"]["name"] == "read_file");
}

TEST_CASE("missing_ids em streaming tira o id dos deltas") {
  Served served(test::scenario_from(
      R"({"steps": [{"tool_calls": [{"id": "c1", "name": "x"}], "quirks": ["missing_ids"]}]})"));
  for (const auto& chunk : streamed_chunks(served)) {
    if (chunk["choices"].empty() || !chunk["choices"][0]["delta"].contains("tool_calls")) continue;
    CHECK_FALSE(chunk["choices"][0]["delta"]["tool_calls"][0].contains("id"));
  }
}

TEST_CASE("think no conteúdo é só texto") {
  Served served(test::embedded_scenario("examples/quirks"));
  for (int i = 0; i < 3; ++i) served.chat(test::user_only());
  CHECK(message_of(served.chat(test::user_only()))["content"] ==
        "<think>O usuário quer um resumo curto.</think>Resumo: tudo certo.");
}

TEST_CASE("campos de raciocínio vão na mensagem") {
  Served served(test::embedded_scenario("examples/quirks"));
  for (int i = 0; i < 4; ++i) served.chat(test::user_only());
  json message = message_of(served.chat(test::user_only()));
  CHECK(message["reasoning_content"] == "Primeiro conferir o arquivo, depois responder.");
  CHECK(message["reasoning"] == "Campo usado por outros provedores.");
  CHECK(message["content"] == "Resposta depois de pensar.");
}

TEST_CASE("reasoning_content em streaming vem antes do conteúdo") {
  Served served(test::scenario_from(
      R"({"steps": [{"content": "resposta", "reasoning_content": "pensando nisso"}]})"));
  std::string order;
  std::string reasoning;
  for (const auto& chunk : streamed_chunks(served)) {
    if (chunk["choices"].empty()) continue;
    const json& delta = chunk["choices"][0]["delta"];
    if (delta.contains("reasoning_content")) {
      reasoning += delta["reasoning_content"].get<std::string>();
      if (order.empty() || order.back() != 'r') order += 'r';
    }
    if (delta.contains("content") && delta["content"] != "") order += 'c';
  }
  CHECK(reasoning == "pensando nisso");
  CHECK(order == "rc");
}

TEST_CASE("no_usage tira o usage da resposta") {
  Served served(test::embedded_scenario("examples/quirks"));
  for (int i = 0; i < 5; ++i) served.chat(test::user_only());
  json reply = served.chat(test::user_only());
  CHECK_FALSE(reply.contains("usage"));
  CHECK(message_of(reply)["content"] == "Sem contagem de tokens.");
}

TEST_CASE("no_usage em streaming não manda o pedaço de uso mesmo com include_usage") {
  Served served(test::scenario_from(R"({"steps": [{"content": "x", "quirks": ["no_usage"]}]})"));
  for (const auto& chunk : streamed_chunks(served)) {
    CHECK_FALSE(chunk["choices"].empty());
    CHECK(chunk["usage"].is_null());
  }
}

json stream_with_usage() {
  json body = test::user_only();
  body["stream"] = true;
  body["stream_options"] = {{"include_usage", true}};
  return body;
}

TEST_CASE("reject_stream_options recusa com 400 e o pedido recusado não gasta o passo") {
  Served served(test::embedded_scenario("examples/stream-quirks"));
  auto rejected = served.post(stream_with_usage());
  REQUIRE(rejected);
  CHECK(rejected->status == 400);
  CHECK(
      json::parse(rejected->body) ==
      json::parse(R"({"error": {"message": "Unrecognized request argument supplied: stream_options",
                        "type": "invalid_request_error", "param": null, "code": null}})"));
  // A segunda tentativa (a mesma, sem stream_options) recebe o mesmo passo 1.
  json retry = stream_with_usage();
  retry.erase("stream_options");
  auto res = served.post(retry);
  REQUIRE(res);
  REQUIRE(res->status == 200);
  std::string content;
  for (const auto& text : test::sse_data(res->body)) {
    if (text == "[DONE]") continue;
    const json delta = json::parse(text)["choices"][0]["delta"];
    if (delta.contains("content")) content += delta["content"].get<std::string>();
  }
  CHECK(content == "Respondi sem stream_options.");
  // Só o passo com a peculiaridade recusa; a recusa não é falha do roteiro.
  CHECK(streamed_chunks(served).size() > 1);
  CHECK(served.server().failures().empty());
  CHECK(served.server().requests().size() == 3);
}

TEST_CASE("reject_stream_options vale para stream_options de qualquer jeito e no cenário todo") {
  Served served(test::scenario_from(
      R"({"quirks": ["reject_stream_options"], "steps": [{"content": "a"}, {"content": "b"}]})"));
  json body = test::user_only();
  body["stream_options"] = nullptr;  // a chave basta, mesmo sem stream
  auto res = served.post(body);
  REQUIRE(res);
  CHECK(res->status == 400);
  CHECK(message_of(served.chat(test::user_only()))["content"] == "a");
  CHECK(served.post(stream_with_usage())->status == 400);
  CHECK(message_of(served.chat(test::user_only()))["content"] == "b");
}

TEST_CASE("stream_ignores_usage não manda uso em streaming mas mantém sem streaming") {
  Served served(test::scenario_from(
      R"({"steps": [{"content": "x", "usage": {"prompt_tokens": 5, "completion_tokens": 1},
                     "quirks": ["stream_ignores_usage"], "repeat": 2}]})"));
  json chunks = streamed_chunks(served);  // pedido com include_usage
  REQUIRE(chunks.size() >= 3);
  for (const auto& chunk : chunks) {
    CHECK_FALSE(chunk.contains("usage"));  // como quem ignora stream_options: nem "usage": null
    CHECK(chunk["choices"].size() == 1);
  }
  CHECK(served.chat(test::user_only())["usage"] ==
        json{{"prompt_tokens", 5}, {"completion_tokens", 1}, {"total_tokens", 6}});
}

TEST_CASE("stream_drops_tool_calls manda o texto sem tool calls e finish_reason tool_calls") {
  Served served(test::embedded_scenario("examples/stream-quirks"));
  served.chat(test::user_only());
  served.chat(test::user_only());
  json chunks = streamed_chunks(served);
  std::string content;
  std::string finish;
  for (const auto& chunk : chunks) {
    if (chunk["choices"].empty()) continue;
    const json& choice = chunk["choices"][0];
    CHECK_FALSE(choice["delta"].contains("tool_calls"));
    if (choice["delta"].contains("content")) {
      content += choice["delta"]["content"].get<std::string>();
    }
    if (!choice["finish_reason"].is_null()) finish = choice["finish_reason"];
  }
  CHECK(content == "Vou ler o arquivo.");
  CHECK(finish == "tool_calls");
  CHECK(chunks.back()["usage"].is_object());  // o resto do streaming segue normal
}

TEST_CASE("stream_drops_tool_calls sem streaming manda a resposta inteira") {
  Served served(test::embedded_scenario("examples/stream-quirks"));
  served.chat(test::user_only());
  served.chat(test::user_only());
  json reply = served.chat(test::user_only());
  CHECK(reply["choices"][0]["finish_reason"] == "tool_calls");
  CHECK(message_of(reply)["tool_calls"] == json::parse(R"([{"id": "call_1", "type": "function",
        "function": {"name": "read_file", "arguments": "{\"path\":\"a.txt\"}"}}])"));
}

TEST_CASE("o usage do passo vai no fio como escrito: vazio, só o total, pela metade") {
  Served served(test::scenario_from(R"({"steps": [
    {"content": "a", "usage": {}},
    {"content": "b", "usage": {"total_tokens": 900}},
    {"content": "c", "usage": {"prompt_tokens": 40}},
    {"content": "d", "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 7}},
    {"content": "e", "usage": {}}]})"));
  CHECK(served.chat(test::user_only())["usage"] == json::object());
  CHECK(served.chat(test::user_only())["usage"] == json{{"total_tokens", 900}});
  CHECK(served.chat(test::user_only())["usage"] == json{{"prompt_tokens", 40}});
  CHECK(served.chat(test::user_only())["usage"] ==
        json{{"prompt_tokens", 0}, {"completion_tokens", 0}, {"total_tokens", 7}});
  json chunks = streamed_chunks(served);  // em streaming, o pedaço de uso também leva {}
  REQUIRE_FALSE(chunks.empty());
  CHECK(chunks.back()["choices"] == json::array());
  CHECK(chunks.back()["usage"] == json::object());
}

}  // namespace
}  // namespace hz::mock
