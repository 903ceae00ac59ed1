// O servidor sem streaming: respostas, roteiro, expectativas e gravação.
#include <atomic>
#include <thread>

#include <doctest/doctest.h>

#include "support.hpp"

namespace hz::mock {
namespace {

using nlohmann::json;
using test::chat_request;
using test::Served;
using test::user_only;

TEST_CASE("resposta de texto tem o formato do Chat Completions") {
  Served served(test::embedded_scenario("examples/text"));
  json reply = served.chat(user_only());
  CHECK(reply == json::parse(R"({
    "id": "chatcmpl-hz-1", "object": "chat.completion", "created": 1735689600,
    "model": "hz-mock",
    "choices": [{"index": 0, "logprobs": null, "finish_reason": "stop",
                 "message": {"role": "assistant", "content": "Oi! Sou o hz-mock."}}],
    "usage": {"prompt_tokens": 12, "completion_tokens": 6, "total_tokens": 18}})"));
}

TEST_CASE("o model do pedido é ecoado na resposta") {
  Served served(test::embedded_scenario("examples/text"));
  json body = user_only();
  body["model"] = "qwen3:8b";
  CHECK(served.chat(body)["model"] == "qwen3:8b");
}

TEST_CASE("tool calls vão com argumentos em texto e content null") {
  Served served(test::embedded_scenario("examples/tool-calls"));
  json first = served.chat(user_only());
  CHECK(first["choices"][0]["finish_reason"] == "tool_calls");
  CHECK(first["choices"][0]["message"] == json::parse(R"({
    "role": "assistant", "content": "Vou olhar a pasta.",
    "tool_calls": [{"id": "call_ls", "type": "function",
                    "function": {"name": "list_dir", "arguments": "{\"path\":\".\"}"}}]})"));

  json second = served.chat(user_only());
  const json& message = second["choices"][0]["message"];
  CHECK(message["content"].is_null());
  REQUIRE(message["tool_calls"].size() == 2);
  CHECK(message["tool_calls"][0]["id"] == "call_a");
  CHECK(message["tool_calls"][1]["id"] == "call_b");
  CHECK(message["tool_calls"][1]["function"]["arguments"] == "{\"path\": \"notas.txt\"");

  json third = served.chat(user_only());
  CHECK(third["choices"][0]["message"]["content"] == "Li os dois arquivos.");
  CHECK(third["usage"]["prompt_tokens"] == 260);
}

TEST_CASE("tool call sem id ganha um id estável por pedido") {
  Served served(test::embedded_scenario("examples/repeat"));
  CHECK(served.chat(user_only())["choices"][0]["message"]["tool_calls"][0]["id"] == "call_1_1");
  CHECK(served.chat(user_only())["choices"][0]["message"]["tool_calls"][0]["id"] == "call_2_1");
}

TEST_CASE("sem usage no roteiro o uso é estimado pelo tamanho") {
  Served served(test::scenario_from(R"({"steps": [{"content": "12345678"}]})"));
  json body = user_only();
  json reply = served.chat(body);
  const long request_bytes = static_cast<long>(body.dump().size());
  CHECK(reply["usage"]["prompt_tokens"] == (request_bytes + 3) / 4);
  CHECK(reply["usage"]["completion_tokens"] == 2);
}

TEST_CASE("repeat responde o mesmo passo N vezes e depois segue") {
  Served served(test::embedded_scenario("examples/repeat"));
  for (int i = 0; i < 3; ++i) {
    json reply = served.chat(user_only());
    CHECK(reply["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] ==
          R"({"command":"make test"})");
  }
  CHECK(served.chat(user_only())["choices"][0]["message"]["content"] ==
        "Desisto: o teste continua falhando.");
  CHECK(served.server().failures().empty());
}

TEST_CASE("repeat forever nunca esgota o roteiro") {
  Served served(test::embedded_scenario("examples/forever"));
  CHECK(served.chat(user_only())["choices"][0]["message"]["content"] == "primeira resposta");
  for (int i = 0; i < 50; ++i) {
    json reply = served.chat(user_only());
    CHECK(reply["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "run_shell");
  }
  CHECK(served.server().failures().empty());
}

TEST_CASE("pedido depois do fim do roteiro recebe erro 500 e vira falha") {
  Served served(test::embedded_scenario("examples/text"));
  served.chat(user_only());
  auto res = served.post(user_only());
  REQUIRE(res);
  CHECK(res->status == 500);
  const std::string failure =
      "pedido 2: o roteiro \"text\" acabou (1 passo); não há resposta para este pedido";
  CHECK(json::parse(res->body) == json{{"error",
                                        {{"message", "hz-mock: " + failure},
                                         {"type", "hz_mock_script_exhausted"},
                                         {"param", nullptr},
                                         {"code", "hz_mock_script_exhausted"}}}});
  CHECK(served.server().failures() == std::vector<std::string>{failure});
}

TEST_CASE("expectativas cumpridas deixam o roteiro seguir sem falhas") {
  Served served(test::embedded_scenario("examples/expect"));
  json messages = json::array({{{"role", "system"}, {"content", "Você é um agente."}},
                               {{"role", "user"}, {"content", "por favor rode o teste"}}});
  json first = served.chat(chat_request(messages));
  messages.push_back(first["choices"][0]["message"]);
  messages.push_back(
      {{"role", "tool"}, {"tool_call_id", "call_1"}, {"content", "test ... FALHOU\n"}});
  json second = served.chat(chat_request(messages));
  CHECK(second["choices"][0]["message"]["content"] == "O teste falhou.");
  CHECK(served.server().failures().empty());
}

// Uma expectativa que falha: HTTP 400 com a mensagem, e a mesma linha em failures().
std::string expectation_failure(const std::string& expect, const json& body) {
  Served served(
      test::scenario_from(R"({"steps": [{"expect": )" + expect + R"(, "content": "x"}]})"));
  auto res = served.post(body);
  REQUIRE(res);
  CHECK(res->status == 400);
  json error = json::parse(res->body)["error"];
  CHECK(error["type"] == "hz_mock_expectation_failed");
  auto failures = served.server().failures();
  REQUIRE(failures.size() == 1);
  CHECK(error["message"] == "hz-mock: " + failures[0]);
  return failures[0];
}

TEST_CASE("cada expectativa que falha diz passo esperado e o que veio") {
  json tool_reply = chat_request(json::array(
      {{{"role", "user"}, {"content", "oi"}},
       {{"role", "tool"}, {"tool_call_id", "call_9"}, {"content", "linha 1\nPASSOU"}}}));
  CHECK(expectation_failure(R"({"message_count": 3})", user_only()) ==
        "passo 1 (pedido 1): esperava 3 mensagens, vieram 1");
  CHECK(expectation_failure(R"({"last_role": "tool"})", user_only()) ==
        "passo 1 (pedido 1): esperava a última mensagem com papel \"tool\", veio \"user\"");
  CHECK(expectation_failure(R"({"last_contains": "FALHOU"})", tool_reply) ==
        "passo 1 (pedido 1): esperava que a última mensagem contivesse \"FALHOU\", veio "
        "\"linha 1 PASSOU\"");
  CHECK(expectation_failure(R"({"contains": "segredo"})", tool_reply) ==
        "passo 1 (pedido 1): esperava \"segredo\" em alguma mensagem, não veio em nenhuma");
  CHECK(expectation_failure(R"({"tool_call_id": "call_1"})", tool_reply) ==
        "passo 1 (pedido 1): esperava uma mensagem tool com tool_call_id \"call_1\", vieram "
        "[\"call_9\"]");
  CHECK(expectation_failure(R"({"tools_include": ["edit_file"]})", user_only()) ==
        "passo 1 (pedido 1): esperava a ferramenta \"edit_file\" entre as oferecidas, vieram "
        "[\"run_shell\", \"read_file\"]");
  CHECK(expectation_failure(R"({"model": "gpt-4o"})", user_only()) ==
        "passo 1 (pedido 1): esperava model \"gpt-4o\", veio \"hz-mock\"");
  CHECK(expectation_failure(R"({"stream": true})", user_only()) ==
        "passo 1 (pedido 1): esperava stream true, veio false");
}

TEST_CASE("content em partes também é conferido pelas expectativas") {
  Served served(test::scenario_from(
      R"({"steps": [{"expect": {"last_contains": "FALHOU"}, "content": "ok"}]})"));
  json body = chat_request(
      json::array({{{"role", "user"},
                    {"content", json::array({{{"type", "text"}, {"text", "o teste FAL"}},
                                             {{"type", "text"}, {"text", "HOU"}}})}}}));
  served.chat(body);
  CHECK(served.server().failures().empty());
}

TEST_CASE("corpo que não é JSON recebe 400 e vira falha sem gastar passo") {
  Served served(test::embedded_scenario("examples/text"));
  auto res = served.client().Post("/v1/chat/completions", "{oi", "application/json");
  REQUIRE(res);
  CHECK(res->status == 400);
  CHECK(json::parse(res->body)["error"]["type"] == "invalid_request_error");
  CHECK(json::parse(res->body)["error"]["message"] ==
        "hz-mock: o corpo do pedido não é um objeto JSON");
  CHECK(served.server().failures() ==
        std::vector<std::string>{"pedido 1: o corpo não é um objeto JSON"});
  CHECK(served.chat(user_only())["choices"][0]["message"]["content"] == "Oi! Sou o hz-mock.");
}

TEST_CASE("GET /v1/models anuncia o modelo do cenário") {
  Served served(test::embedded_scenario("examples/sdk-compat"));
  auto res = served.client().Get("/v1/models");
  REQUIRE(res);
  CHECK(res->status == 200);
  CHECK(json::parse(res->body) == json::parse(R"({"object": "list", "data": [
    {"id": "hz-mock-compat", "object": "model", "created": 1735689600, "owned_by": "hz-mock"}]})"));
}

TEST_CASE("caminho desconhecido recebe 404 no formato da OpenAI") {
  Served served(test::embedded_scenario("examples/text"));
  auto res = served.client().Get("/v1/nada");
  REQUIRE(res);
  CHECK(res->status == 404);
  json error = json::parse(res->body)["error"];
  CHECK(error["code"] == "unknown_url");
  CHECK(error["message"] ==
        "hz-mock: caminho desconhecido: GET /v1/nada (use POST /v1/chat/completions ou GET "
        "/v1/models)");
}

TEST_CASE("cada pedido é gravado e legível no processo") {
  Served served(test::embedded_scenario("examples/tool-calls"));
  json body = user_only("primeiro");
  served.chat(body);
  served.client().Get("/v1/models");
  auto requests = served.server().requests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[0].method == "POST");
  CHECK(requests[0].path == "/v1/chat/completions");
  CHECK(requests[0].raw_body == body.dump());
  CHECK(requests[0].body == body);
  CHECK(requests[1].method == "GET");
  CHECK(requests[1].path == "/v1/models");
  CHECK(requests[1].body.is_null());
}

TEST_CASE("gravação e falhas também são legíveis por HTTP") {
  Served served(test::embedded_scenario("examples/text"));
  json body = user_only("oi de fora");
  served.chat(body);
  served.client().Post("/v1/chat/completions", "nada", "text/plain");

  auto recorded = served.client().Get("/hz/requests");
  REQUIRE(recorded);
  CHECK(json::parse(recorded->body) ==
        json{{"requests",
              {{{"method", "POST"}, {"path", "/v1/chat/completions"}, {"body", body}},
               {{"method", "POST"},
                {"path", "/v1/chat/completions"},
                {"body", nullptr},
                {"raw_body", "nada"}}}}});
  auto failures = served.client().Get("/hz/failures");
  REQUIRE(failures);
  CHECK(json::parse(failures->body) ==
        json{{"failures", {"pedido 2: o corpo não é um objeto JSON"}}});
  // Ler a gravação não é gravado.
  CHECK(served.server().requests().size() == 2);
}

TEST_CASE("pedidos simultâneos são todos gravados e respondidos") {
  Served served(test::scenario_from(R"({"steps": [{"content": "x", "repeat": "forever"}]})"));
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      httplib::Client client("127.0.0.1", served.port());
      for (int i = 0; i < 25; ++i) {
        auto res = client.Post("/v1/chat/completions", user_only().dump(), "application/json");
        if (res && res->status == 200) ++ok;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(ok == 100);
  CHECK(served.server().requests().size() == 100);
}

}  // namespace
}  // namespace hz::mock
