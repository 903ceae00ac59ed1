#include <doctest/doctest.h>

#include "hz/wire.hpp"

using hz::ChatReply;
using hz::ChatRequest;
using hz::Message;
using hz::ToolCall;
using nlohmann::json;

namespace {

// Decodifica e exige sucesso, com a mensagem de erro no relatório se falhar.
ChatReply decode_ok(std::string_view body) {
  auto reply = hz::decode_reply(body);
  INFO((reply ? std::string() : reply.error().message));
  REQUIRE(reply.ok());
  return std::move(reply).value();
}

std::string decode_error(std::string_view body) {
  auto reply = hz::decode_reply(body);
  REQUIRE_FALSE(reply.ok());
  return reply.error().message;
}

}  // namespace

TEST_CASE("mensagens de usuário e sistema viram role e content") {
  CHECK(hz::to_json(Message::system("seja breve")).dump() ==
        R"({"content":"seja breve","role":"system"})");
  CHECK(hz::to_json(Message::user("oi")).dump() == R"({"content":"oi","role":"user"})");
}

TEST_CASE("assistente só com tool calls manda content null e arguments como texto") {
  const Message message = Message::assistant("", {{"call_1", "read_file", R"({"path":"a.txt"})"}});
  CHECK(
      hz::to_json(message).dump() ==
      R"({"content":null,"role":"assistant","tool_calls":[{"function":{"arguments":"{\"path\":\"a.txt\"}","name":"read_file"},"id":"call_1","type":"function"}]})");
}

TEST_CASE("assistente com texto e tool calls mantém o texto") {
  const Message message = Message::assistant("vou ler", {{"c", "list_dir", "{}"}});
  CHECK(
      hz::to_json(message).dump() ==
      R"({"content":"vou ler","role":"assistant","tool_calls":[{"function":{"arguments":"{}","name":"list_dir"},"id":"c","type":"function"}]})");
}

TEST_CASE("assistente sem texto e sem tool calls manda content vazio") {
  CHECK(hz::to_json(Message::assistant("")).dump() == R"({"content":"","role":"assistant"})");
}

TEST_CASE("mensagem tool leva tool_call_id") {
  CHECK(hz::to_json(Message::tool("call_9", "código de saída: 0")).dump() ==
        R"({"content":"código de saída: 0","role":"tool","tool_call_id":"call_9"})");
}

TEST_CASE("pedido sem ferramentas omite o campo tools") {
  ChatRequest request;
  request.model = "qwen3:8b";
  request.messages = {Message::user("oi")};
  CHECK(hz::encode_request(request) ==
        R"({"messages":[{"content":"oi","role":"user"}],"model":"qwen3:8b"})");
}

TEST_CASE("pedido com ferramentas usa o envelope function") {
  ChatRequest request;
  request.model = "m";
  request.messages = {Message::user("oi")};
  request.tools = {
      {"list_dir", "lista uma pasta",
       json::parse(
           R"({"type":"object","properties":{"path":{"type":"string"}},"required":["path"]})")}};
  CHECK(
      hz::encode_request(request) ==
      R"({"messages":[{"content":"oi","role":"user"}],"model":"m","tools":[{"function":{"description":"lista uma pasta","name":"list_dir","parameters":{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}},"type":"function"}]})");
}

TEST_CASE("encode_request troca bytes que não são UTF-8 em vez de lançar") {
  ChatRequest request;
  request.model = "m";
  request.messages = {Message::tool("c", std::string("a\xff") + "b")};
  CHECK(hz::encode_request(request) ==
        "{\"messages\":[{\"content\":\"a\xEF\xBF\xBD"
        "b\",\"role\":\"tool\",\"tool_call_id\":\"c\"}],\"model\":\"m\"}");
}

TEST_CASE("decode_reply lê texto finish_reason e usage") {
  const ChatReply reply = decode_ok(
      R"({"choices":[{"index":0,"message":{"role":"assistant","content":"pronto"},"finish_reason":"stop"}],"usage":{"prompt_tokens":812,"completion_tokens":35,"total_tokens":847}})");
  CHECK(reply.message == Message::assistant("pronto"));
  CHECK(reply.finish_reason == "stop");
  CHECK(reply.usage == hz::Usage{812, 35, true});
  CHECK(reply.reasoning.empty());
}

TEST_CASE("decode_reply lê tool calls com arguments em texto") {
  const ChatReply reply = decode_ok(
      R"({"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"run_shell","arguments":"{\"command\":\"ls\"}"}},{"id":"call_b","type":"function","function":{"name":"read_file","arguments":"{\"path\":"}}]},"finish_reason":"tool_calls"}]})");
  CHECK(reply.message.content.empty());
  CHECK(reply.message.tool_calls ==
        std::vector<ToolCall>{{"call_a", "run_shell", R"({"command":"ls"})"},
                              {"call_b", "read_file", R"({"path":)"}});
  CHECK(reply.finish_reason == "tool_calls");
}

TEST_CASE("decode_reply aceita arguments como objeto e guarda o texto JSON") {
  const ChatReply reply = decode_ok(
      R"({"choices":[{"message":{"tool_calls":[{"id":"x","function":{"name":"read_file","arguments":{"path":"a.txt"}}}]}}]})");
  REQUIRE(reply.message.tool_calls.size() == 1);
  CHECK(reply.message.tool_calls[0].arguments == R"({"path":"a.txt"})");
}

TEST_CASE("decode_reply usa {} quando arguments falta") {
  const ChatReply reply = decode_ok(
      R"({"choices":[{"message":{"tool_calls":[{"id":"x","function":{"name":"list_dir"}}]}}]})");
  REQUIRE(reply.message.tool_calls.size() == 1);
  CHECK(reply.message.tool_calls[0].arguments == "{}");
}

TEST_CASE("decode_reply gera ids determinísticos e únicos para tool calls sem id") {
  const ChatReply reply = decode_ok(
      R"({"choices":[{"message":{"tool_calls":[{"function":{"name":"a","arguments":"{}"}},{"id":"call_0","function":{"name":"b","arguments":"{}"}},{"id":"","function":{"name":"c","arguments":"{}"}}]}}]})");
  REQUIRE(reply.message.tool_calls.size() == 3);
  CHECK(reply.message.tool_calls[0].id == "call_0_1");
  CHECK(reply.message.tool_calls[1].id == "call_0");
  CHECK(reply.message.tool_calls[2].id == "call_2");
}

TEST_CASE("decode_reply tolera content ausente e finish_reason ausente") {
  const ChatReply reply = decode_ok(R"({"choices":[{"message":{"role":"assistant"}}]})");
  CHECK(reply.message == Message::assistant(""));
  CHECK(reply.finish_reason.empty());
}

TEST_CASE("decode_reply junta content em partes de texto") {
  const ChatReply reply = decode_ok(
      R"({"choices":[{"message":{"content":[{"type":"text","text":"olá "},{"type":"text","text":"mundo"}]}}]})");
  CHECK(reply.message.content == "olá mundo");
}

TEST_CASE("decode_reply guarda reasoning_content e reasoning à parte") {
  CHECK(decode_ok(R"({"choices":[{"message":{"content":"42","reasoning_content":"pensando"}}]})")
            .reasoning == "pensando");
  CHECK(decode_ok(R"({"choices":[{"message":{"content":"42","reasoning":"pensei"}}]})").reasoning ==
        "pensei");
  CHECK(decode_ok(R"({"choices":[{"message":{"content":"42","reasoning":"pensei"}}]})")
            .message.content == "42");
}

TEST_CASE("decode_reply sem usage marca reported falso") {
  const ChatReply reply = decode_ok(R"({"choices":[{"message":{"content":"oi"}}]})");
  CHECK(reply.usage == hz::Usage{0, 0, false});
}

TEST_CASE("decode_reply ignora entradas de tool_calls que não são objetos") {
  const ChatReply reply = decode_ok(
      R"({"choices":[{"message":{"tool_calls":[3,{"id":"k","function":{"name":"n","arguments":"{}"}}]}}]})");
  CHECK(reply.message.tool_calls == std::vector<ToolCall>{{"k", "n", "{}"}});
}

TEST_CASE("decode_reply devolve erros legíveis em português") {
  CHECK(decode_error("") == "resposta do modelo veio vazia");
  CHECK(decode_error("<html>502</html>") == "resposta do modelo não é JSON válido");
  CHECK(decode_error("[1,2]") == "resposta do modelo não é um objeto JSON");
  CHECK(decode_error(R"({"id":"x"})") == "resposta do modelo sem \"choices\"");
  CHECK(decode_error(R"({"choices":{}})") == "resposta do modelo sem \"choices\"");
  CHECK(decode_error(R"({"choices":[]})") == "resposta do modelo com \"choices\" vazio");
  CHECK(decode_error(R"({"choices":[7]})") == "resposta do modelo com choices[0] que não é objeto");
  CHECK(decode_error(R"({"choices":[{"index":0}]})") ==
        "resposta do modelo sem \"message\" em choices[0]");
  CHECK(decode_error(R"({"error":{"message":"modelo não carregado"}})") ==
        "resposta do modelo traz um erro: modelo não carregado");
}

TEST_CASE("decode_reply não lança com tipos inesperados") {
  CHECK(
      decode_ok(
          R"({"choices":[{"message":{"content":5,"tool_calls":"x","reasoning":1},"finish_reason":3}],"usage":{"prompt_tokens":"7","completion_tokens":2.0}})")
          .usage == hz::Usage{0, 2, true});
}

TEST_CASE("message_from_json lê os quatro papéis") {
  CHECK(*hz::message_from_json(json::parse(R"({"role":"system","content":"s"})")) ==
        Message::system("s"));
  CHECK(*hz::message_from_json(json::parse(R"({"role":"user","content":"u"})")) ==
        Message::user("u"));
  CHECK(
      *hz::message_from_json(json::parse(
          R"({"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"n","arguments":"{}"}}]})")) ==
      Message::assistant("", {{"c", "n", "{}"}}));
  CHECK(*hz::message_from_json(json::parse(
            R"({"role":"tool","tool_call_id":"c","content":"ok"})")) == Message::tool("c", "ok"));
}

TEST_CASE("message_from_json faz ida e volta com to_json") {
  const Message original = Message::assistant("texto", {{"a", "b", R"({"x":1})"}});
  CHECK(*hz::message_from_json(hz::to_json(original)) == original);
}

TEST_CASE("message_from_json recusa papel ausente ou desconhecido") {
  CHECK(hz::message_from_json(json::parse(R"({"content":"x"})")).error().message ==
        "mensagem sem \"role\"");
  CHECK(hz::message_from_json(json::parse(R"({"role":"robot"})")).error().message ==
        "mensagem com \"role\" desconhecido: robot");
  CHECK(hz::message_from_json(json::parse("[]")).error().message ==
        "mensagem não é um objeto JSON");
}

TEST_CASE("Usage soma com += e reported fica verdadeiro se algum foi reportado") {
  hz::Usage total;
  total += hz::Usage{10, 2, false};
  CHECK(total == hz::Usage{10, 2, false});
  total += hz::Usage{5, 1, true};
  CHECK(total == hz::Usage{15, 3, true});
  CHECK(total.total() == 18);
}

TEST_CASE("to_string de Role usa os nomes do protocolo") {
  CHECK(hz::to_string(hz::Role::system) == "system");
  CHECK(hz::to_string(hz::Role::user) == "user");
  CHECK(hz::to_string(hz::Role::assistant) == "assistant");
  CHECK(hz::to_string(hz::Role::tool) == "tool");
}
