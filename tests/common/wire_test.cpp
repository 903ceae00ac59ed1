#include <doctest/doctest.h>

#include <climits>
#include <string>
#include <vector>

#include "hz/json_depth.hpp"
#include "hz/testing/printing.hpp"
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

TEST_CASE("o uso de tokens no trace leva só a divisão, mesmo estimado ou com total solto") {
  hz::Usage usage;
  usage.prompt_tokens = 120;
  usage.completion_tokens = 7;
  usage.reported = true;
  usage.estimated = true;
  usage.unsplit_tokens = 40;
  CHECK(hz::usage_json(usage).dump() == R"({"completion_tokens":7,"prompt_tokens":120})");
  CHECK(hz::usage_json(hz::Usage{}).dump() == R"({"completion_tokens":0,"prompt_tokens":0})");
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
  // "7" em texto não é contagem de tokens: o uso todo fica como não informado.
  CHECK(
      decode_ok(
          R"({"choices":[{"message":{"content":5,"tool_calls":"x","reasoning":1},"finish_reason":3}],"usage":{"prompt_tokens":"7","completion_tokens":2.0}})")
          .usage == hz::Usage{0, 0, false});
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

// --- Contagens de tokens vindas do servidor ---------------------------------

TEST_CASE("decode_reply conta como não informado o uso com contagens inválidas") {
  auto usage_of = [](const std::string& fields) {
    return decode_ok(R"({"choices":[{"message":{"content":"oi"}}],"usage":{)" + fields + "}}")
        .usage;
  };
  const hz::Usage none{0, 0, false};
  CHECK(usage_of(R"("prompt_tokens":-1,"completion_tokens":2)") == none);
  CHECK(usage_of(R"("prompt_tokens":1,"completion_tokens":2.5)") == none);
  CHECK(usage_of(R"("prompt_tokens":"7","completion_tokens":2)") == none);
  CHECK(usage_of(R"("prompt_tokens":true,"completion_tokens":2)") == none);
  CHECK(usage_of(R"("prompt_tokens":1000000000001,"completion_tokens":2)") == none);
  CHECK(usage_of(R"("prompt_tokens":1e300,"completion_tokens":2)") == none);
  CHECK(usage_of(R"("prompt_tokens":18446744073709551615,"completion_tokens":2)") == none);
  CHECK(usage_of(R"("prompt_tokens":9223372036854775807,"completion_tokens":2)") == none);
  CHECK(usage_of(R"("prompt_tokens":-1e300,"completion_tokens":2)") == none);
}

TEST_CASE("decode_reply aceita contagens inteiras até 10^12, também escritas como 2.0") {
  auto usage_of = [](const std::string& fields) {
    return decode_ok(R"({"choices":[{"message":{"content":"oi"}}],"usage":{)" + fields + "}}")
        .usage;
  };
  CHECK(usage_of(R"("prompt_tokens":1000000000000,"completion_tokens":2.0)") ==
        hz::Usage{1000000000000, 2, true});
}

TEST_CASE("decode_reply não toma por informado um usage vazio, zerado ou pela metade") {
  auto usage_of = [](const std::string& fields) {
    return decode_ok(R"({"choices":[{"message":{"content":"oi"}}],"usage":{)" + fields + "}}")
        .usage;
  };
  const hz::Usage none{0, 0, false};
  CHECK(usage_of("") == none);
  CHECK(usage_of(R"("prompt_tokens":0,"completion_tokens":0)") == none);
  CHECK(usage_of(R"("prompt_tokens":0,"completion_tokens":0,"total_tokens":0)") == none);
  CHECK(usage_of(R"("prompt_tokens":0,"completion_tokens":null)") == none);
  CHECK(usage_of(R"("prompt_tokens":50)") == none);
  CHECK(usage_of(R"("completion_tokens":50)") == none);
  CHECK(usage_of(R"("prompt_tokens":null,"completion_tokens":null)") == none);
  // Uma contagem inválida anula também o total.
  CHECK(usage_of(R"("prompt_tokens":-1,"completion_tokens":2,"total_tokens":9)") == none);
  // Entrada ≥ 1 e saída zero é uma resposta vazia de verdade.
  CHECK(usage_of(R"("prompt_tokens":7,"completion_tokens":0)") == hz::Usage{7, 0, true});
}

TEST_CASE("decode_reply guarda um total_tokens sem a divisão como unsplit_tokens") {
  auto usage_of = [](const std::string& fields) {
    return decode_ok(R"({"choices":[{"message":{"content":"oi"}}],"usage":{)" + fields + "}}")
        .usage;
  };
  CHECK(usage_of(R"("total_tokens":9)") == hz::Usage{0, 0, false, false, 9});
  CHECK(usage_of(R"("prompt_tokens":0,"completion_tokens":0,"total_tokens":900)") ==
        hz::Usage{0, 0, false, false, 900});
  CHECK(usage_of(R"("prompt_tokens":40,"total_tokens":900)") == hz::Usage{0, 0, false, false, 900});
  // Com a divisão, o total não conta: os números do servidor são as duas contagens.
  CHECK(usage_of(R"("prompt_tokens":40,"completion_tokens":2,"total_tokens":900)") ==
        hz::Usage{40, 2, true});
  CHECK(hz::Usage{1, 2, true, false, 9}.total() == 12);
}

TEST_CASE("Usage soma saturando em vez de estourar") {
  hz::Usage total{LONG_MAX - 1, 5, true};
  total += hz::Usage{10, LONG_MAX, true};
  CHECK(total == hz::Usage{LONG_MAX, LONG_MAX, true});
  CHECK(total.total() == LONG_MAX);
  hz::Usage negative{LONG_MIN + 1, 0, true};
  negative += hz::Usage{-5, 0, true};
  CHECK(negative.prompt_tokens == LONG_MIN);
}

TEST_CASE("Usage soma estimated: a soma é estimada se alguma parte era") {
  hz::Usage total{1, 1, true};
  total += hz::Usage{2, 2, false, true};
  CHECK(total == hz::Usage{3, 3, true, true});
  CHECK(hz::Usage{}.estimated == false);
}

TEST_CASE("encode_stream_request pede streaming com o uso no fim") {
  ChatRequest request;
  request.model = "m";
  request.messages = {Message::user("oi")};
  json expected = hz::to_json(request);
  expected["stream"] = true;
  expected["stream_options"] = {{"include_usage", true}};
  CHECK(json::parse(hz::encode_stream_request(request)) == expected);
  CHECK(
      hz::encode_stream_request(request) ==
      R"({"messages":[{"content":"oi","role":"user"}],"model":"m","stream":true,"stream_options":{"include_usage":true}})");
}

// --- SSE ---------------------------------------------------------------------

namespace {

using hz::SseEvent;

std::vector<SseEvent> sse_in_pieces(std::string_view body, std::size_t piece) {
  hz::SseDecoder decoder;
  std::vector<SseEvent> events;
  for (std::size_t at = 0; at < body.size(); at += piece) {
    for (SseEvent& event : decoder.feed(body.substr(at, piece))) events.push_back(event);
  }
  for (SseEvent& event : decoder.finish()) events.push_back(event);
  return events;
}

// Um corpo com tudo o que o SSE permite: CRLF, \r sozinho, comentários,
// dados em várias linhas, "event:", "id:", "error:" e linhas em branco a mais.
constexpr std::string_view kSseBody =
    ": ping\r\n"
    "\r\n"
    "data: {\"a\":1}\r\n"
    "\r\n"
    "id: 7\n"
    "data:sem espaço\n"
    "data:  dois espaços\n"
    "\n"
    "data: linha 1\r\n"
    "data: linha 2\r\n"
    "\r\n"
    "event: error\r"
    "data: {\"message\":\"x\"}\r"
    "\r"
    "\n\n"
    "error: {\"code\":500,\"message\":\"falhou\"}\n"
    "\n"
    "data: [DONE]\n"
    "\n";

const std::vector<SseEvent> kSseEvents = {
    {"", R"({"a":1})", ""},
    {"", "sem espaço\n dois espaços", ""},
    {"", "linha 1\nlinha 2", ""},
    {"error", R"({"message":"x"})", ""},
    {"", "", R"({"code":500,"message":"falhou"})"},
    {"", "[DONE]", ""},
};

}  // namespace

TEST_CASE("SseDecoder separa os eventos com CRLF, comentários e várias linhas de data") {
  CHECK(sse_in_pieces(kSseBody, kSseBody.size()) == kSseEvents);
}

TEST_CASE("SseDecoder dá os mesmos eventos com o corpo partido em qualquer tamanho") {
  for (std::size_t piece = 1; piece < kSseBody.size(); ++piece) {
    CAPTURE(piece);
    CHECK(sse_in_pieces(kSseBody, piece) == kSseEvents);
  }
}

TEST_CASE("SseDecoder entrega o último evento mesmo sem a linha em branco final") {
  CHECK(sse_in_pieces("data: 1\n\ndata: [DONE]", 100) ==
        std::vector<SseEvent>{{"", "1", ""}, {"", "[DONE]", ""}});
  CHECK(sse_in_pieces("data: [DONE]\r\n", 100) == std::vector<SseEvent>{{"", "[DONE]", ""}});
  CHECK(sse_in_pieces(": só comentário\n\nid: 3\n\n", 100).empty());
}

// --- Montagem da resposta em streaming ----------------------------------------

namespace {

std::string sse(const std::vector<std::string>& datas) {
  std::string body;
  for (const std::string& data : datas) body += "data: " + data + "\n\n";
  return body;
}

std::string chunk_json(const std::string& delta, const std::string& finish = "null") {
  return R"({"object":"chat.completion.chunk","choices":[{"index":0,"delta":)" + delta +
         R"(,"finish_reason":)" + finish + "}]}";
}

struct Streamed {
  hz::Result<ChatReply, hz::StreamError> reply;
  std::vector<std::string> texts;
  bool plain = false;
};

Streamed stream_in_pieces(std::string_view body, std::size_t piece) {
  std::vector<std::string> texts;
  hz::StreamDecoder decoder([&texts](std::string_view text) { texts.emplace_back(text); });
  for (std::size_t at = 0; at < body.size(); at += piece) decoder.feed(body.substr(at, piece));
  auto reply = decoder.finish();
  return {std::move(reply), std::move(texts), decoder.plain_json()};
}

ChatReply stream_ok(std::string_view body, std::size_t piece = 1 << 20) {
  Streamed streamed = stream_in_pieces(body, piece);
  INFO((streamed.reply ? std::string() : streamed.reply.error().message));
  REQUIRE(streamed.reply.ok());
  return std::move(streamed.reply).value();
}

hz::StreamError stream_error(std::string_view body) {
  Streamed streamed = stream_in_pieces(body, 1 << 20);
  REQUIRE_FALSE(streamed.reply.ok());
  return streamed.reply.error();
}

// Como a OpenAI manda: papel, raciocínio, texto, duas tool calls com os
// argumentos em pedaços, finish_reason e o pedaço final só com o uso.
const std::string kToolStream = sse({
    chunk_json(R"({"role":"assistant","content":""})"),
    chunk_json(R"({"reasoning_content":"vou "})"),
    chunk_json(R"({"reasoning_content":"ler"})"),
    chunk_json(R"({"content":"Vou "})"),
    chunk_json(R"({"content":"ler."})"),
    chunk_json(
        R"({"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"read_file","arguments":""}}]})"),
    chunk_json(R"({"tool_calls":[{"index":0,"function":{"arguments":"{\"pa"}}]})"),
    chunk_json(
        R"({"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"list_dir","arguments":"{}"}}]})"),
    chunk_json(R"({"tool_calls":[{"index":0,"function":{"arguments":"th\":\"a.txt\"}"}}]})"),
    chunk_json("{}", R"("tool_calls")"),
    R"({"choices":[],"usage":{"prompt_tokens":30,"completion_tokens":12,"total_tokens":42}})",
    "[DONE]",
});

}  // namespace

TEST_CASE("StreamDecoder monta texto, raciocínio, tool calls pelo índice, finish_reason e uso") {
  Streamed streamed = stream_in_pieces(kToolStream, kToolStream.size());
  REQUIRE(streamed.reply.ok());
  const ChatReply& reply = *streamed.reply;
  CHECK(reply.message.role == hz::Role::assistant);
  CHECK(reply.message.content == "Vou ler.");
  CHECK(reply.reasoning == "vou ler");
  CHECK(reply.message.tool_calls ==
        std::vector<ToolCall>{{"call_a", "read_file", R"({"path":"a.txt"})"},
                              {"call_b", "list_dir", "{}"}});
  CHECK(reply.finish_reason == "tool_calls");
  CHECK(reply.usage == hz::Usage{30, 12, true});
  CHECK(streamed.texts == std::vector<std::string>{"Vou ", "ler."});
  CHECK_FALSE(streamed.plain);
}

TEST_CASE("StreamDecoder monta o mesmo com o corpo chegando byte a byte") {
  for (std::size_t piece : {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{64}}) {
    CAPTURE(piece);
    Streamed streamed = stream_in_pieces(kToolStream, piece);
    REQUIRE(streamed.reply.ok());
    CHECK(streamed.reply->message.content == "Vou ler.");
    CHECK(streamed.reply->message.tool_calls ==
          std::vector<ToolCall>{{"call_a", "read_file", R"({"path":"a.txt"})"},
                                {"call_b", "list_dir", "{}"}});
    CHECK(streamed.reply->usage == hz::Usage{30, 12, true});
    std::string joined;
    for (const std::string& text : streamed.texts) joined += text;
    CHECK(joined == "Vou ler.");
  }
}

TEST_CASE("StreamDecoder aceita a chamada inteira num delta só") {
  const ChatReply reply = stream_ok(sse({
      chunk_json(
          R"({"tool_calls":[{"index":0,"id":"c1","function":{"name":"run_shell","arguments":"{\"command\":\"ls\"}"}},{"index":1,"id":"c2","function":{"name":"read_file","arguments":{"path":"b"}}}]})",
          R"("tool_calls")"),
      "[DONE]",
  }));
  CHECK(reply.message.tool_calls ==
        std::vector<ToolCall>{{"c1", "run_shell", R"({"command":"ls"})"},
                              {"c2", "read_file", R"({"path":"b"})"}});
  CHECK_FALSE(reply.usage.reported);
}

TEST_CASE("StreamDecoder não apaga nem duplica nome e id repetidos em deltas posteriores") {
  // LM Studio repete "name": "" e "id": "" a cada delta; outros repetem o valor inteiro.
  const ChatReply reply = stream_ok(sse({
      chunk_json(
          R"({"tool_calls":[{"index":0,"id":"c1","function":{"name":"read_file","arguments":""}}]})"),
      chunk_json(
          R"({"tool_calls":[{"index":0,"id":"","function":{"name":"","arguments":"{\"path\""}}]})"),
      chunk_json(
          R"({"tool_calls":[{"index":0,"id":"c1","function":{"name":"read_file","arguments":":\"a\"}"}}]})"),
      chunk_json("{}", R"("tool_calls")"),
      "[DONE]",
  }));
  CHECK(reply.message.tool_calls == std::vector<ToolCall>{{"c1", "read_file", R"({"path":"a"})"}});
}

TEST_CASE("StreamDecoder junta nome e id que chegam em pedaços") {
  const ChatReply reply = stream_ok(sse({
      chunk_json(R"({"tool_calls":[{"index":0,"id":"call_","function":{"name":"read"}}]})"),
      chunk_json(R"({"tool_calls":[{"index":0,"id":"xy","function":{"name":"_file"}}]})"),
      chunk_json(R"({"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]})"),
      chunk_json("{}", R"("tool_calls")"),
      "[DONE]",
  }));
  CHECK(reply.message.tool_calls == std::vector<ToolCall>{{"call_xy", "read_file", "{}"}});
}

TEST_CASE("StreamDecoder separa pelo id as chamadas que vêm sem índice") {
  const ChatReply reply = stream_ok(sse({
      chunk_json(R"({"tool_calls":[{"id":"c1","function":{"name":"a","arguments":"{\"x\""}}]})"),
      chunk_json(R"({"tool_calls":[{"function":{"arguments":":1}"}}]})"),
      chunk_json(R"({"tool_calls":[{"id":"c2","function":{"name":"b"}}]})"),
      chunk_json("{}", R"("tool_calls")"),
      "[DONE]",
  }));
  CHECK(reply.message.tool_calls ==
        std::vector<ToolCall>{{"c1", "a", R"({"x":1})"}, {"c2", "b", "{}"}});
}

TEST_CASE("StreamDecoder dá ids call_<i> às chamadas sem id") {
  const ChatReply reply = stream_ok(sse({
      chunk_json(R"({"tool_calls":[{"index":0,"function":{"name":"a","arguments":"{}"}}]})"),
      chunk_json(R"({"tool_calls":[{"index":1,"function":{"name":"b","arguments":"{}"}}]})"),
      chunk_json("{}", R"("stop")"),
      "[DONE]",
  }));
  CHECK(reply.message.tool_calls ==
        std::vector<ToolCall>{{"call_0", "a", "{}"}, {"call_1", "b", "{}"}});
  CHECK(reply.finish_reason == "stop");
}

TEST_CASE("StreamDecoder ignora o uso inválido e os pedaços de outras escolhas") {
  const ChatReply reply = stream_ok(sse({
      chunk_json(R"({"content":"a"})"),
      R"({"choices":[{"index":1,"delta":{"content":"OUTRA"},"finish_reason":null}]})",
      chunk_json("{}", R"("stop")"),
      R"({"choices":[],"usage":{"prompt_tokens":-3,"completion_tokens":1}})",
      "[DONE]",
  }));
  CHECK(reply.message.content == "a");
  CHECK(reply.usage == hz::Usage{0, 0, false});
}

TEST_CASE("StreamDecoder não deixa um usage tardio que diz menos apagar o que já veio") {
  const ChatReply kept = stream_ok(sse({
      chunk_json(R"({"content":"a"})", R"("stop")"),
      R"({"choices":[],"usage":{"prompt_tokens":30,"completion_tokens":12}})",
      R"({"choices":[],"usage":{}})",
      R"({"choices":[],"usage":{"total_tokens":99}})",
      "[DONE]",
  }));
  CHECK(kept.usage == hz::Usage{30, 12, true});
  const ChatReply total = stream_ok(sse({
      chunk_json(R"({"content":"a"})", R"("stop")"),
      R"({"choices":[],"usage":{"total_tokens":99}})",
      R"({"choices":[],"usage":{"prompt_tokens":0,"completion_tokens":0}})",
      "[DONE]",
  }));
  CHECK(total.usage == hz::Usage{0, 0, false, false, 99});
  const ChatReply later = stream_ok(sse({
      chunk_json(R"({"content":"a"})", R"("stop")"),
      R"({"choices":[],"usage":{"total_tokens":99}})",
      R"({"choices":[],"usage":{"prompt_tokens":80,"completion_tokens":19}})",
      "[DONE]",
  }));
  CHECK(later.usage == hz::Usage{80, 19, true});
}

TEST_CASE("StreamDecoder chama de cortado o streaming sem [DONE] ou sem finish_reason") {
  const hz::StreamError no_done =
      stream_error(sse({chunk_json(R"({"content":"a"})", R"("stop")")}));
  CHECK(no_done.kind == hz::StreamError::Kind::cut);
  CHECK(no_done.message == "o streaming foi cortado: terminou sem \"data: [DONE]\"");
  const hz::StreamError no_finish = stream_error(sse({chunk_json(R"({"content":"a"})"), "[DONE]"}));
  CHECK(no_finish.kind == hz::StreamError::Kind::cut);
  CHECK(no_finish.message == "o streaming foi cortado: terminou sem finish_reason");
  CHECK(stream_error("").kind == hz::StreamError::Kind::cut);
}

TEST_CASE("StreamDecoder aceita [DONE] com espaços em volta") {
  CHECK(
      stream_ok(sse({chunk_json(R"({"content":"a"})", R"("stop")"), " [DONE] "})).message.content ==
      "a");
}

TEST_CASE("StreamDecoder devolve a mensagem do provedor quando o streaming traz um erro") {
  const hz::StreamError in_data = stream_error(
      sse({chunk_json(R"({"content":"a"})"),
           R"({"error":{"message":"servidor sobrecarregado","type":"server_error"}})", "[DONE]"}));
  CHECK(in_data.kind == hz::StreamError::Kind::provider);
  CHECK(in_data.message == "o streaming trouxe um erro do provedor: servidor sobrecarregado");

  // llama.cpp: uma linha "error:" em vez de "data:".
  const hz::StreamError llama = stream_error(
      "data: " + chunk_json(R"({"content":"a"})") +
      "\n\nerror: {\"code\":500,\"message\":\"contexto cheio\",\"type\":\"server_error\"}\n\n");
  CHECK(llama.kind == hz::StreamError::Kind::provider);
  CHECK(llama.message == "o streaming trouxe um erro do provedor: contexto cheio");

  const hz::StreamError named =
      stream_error("event: error\ndata: {\"message\":\"cota esgotada\"}\n\n");
  CHECK(named.kind == hz::StreamError::Kind::provider);
  CHECK(named.message == "o streaming trouxe um erro do provedor: cota esgotada");
}

TEST_CASE("StreamDecoder para de entregar texto depois do primeiro erro") {
  Streamed streamed = stream_in_pieces(
      sse({chunk_json(R"({"content":"a"})"), R"({"error":"x"})", chunk_json(R"({"content":"b"})")}),
      1);
  REQUIRE_FALSE(streamed.reply.ok());
  CHECK(streamed.reply.error().message == "o streaming trouxe um erro do provedor: x");
  CHECK(streamed.texts == std::vector<std::string>{"a"});
}

TEST_CASE("StreamDecoder chama de malformado um evento que não é JSON") {
  const hz::StreamError error = stream_error(sse(
      {chunk_json(R"({"content":"a"})"), R"({"choices": [{"delta": {"content": "Ol)", "[DONE]"}));
  CHECK(error.kind == hz::StreamError::Kind::malformed);
  CHECK(
      error.message ==
      R"(o streaming trouxe um evento que não é JSON válido: {"choices": [{"delta": {"content": "Ol)");
  CHECK(stream_error(sse({"[1]", "[DONE]"})).message ==
        "o streaming trouxe um evento que não é um objeto JSON: [1]");
}

TEST_CASE("StreamDecoder lê como resposta comum um corpo JSON de quem ignorou o stream") {
  Streamed streamed = stream_in_pieces(
      "\n "
      R"({"choices":[{"message":{"content":"oi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1}})",
      5);
  REQUIRE(streamed.reply.ok());
  CHECK(streamed.plain);
  CHECK(streamed.reply->message.content == "oi");
  CHECK(streamed.reply->usage == hz::Usage{3, 1, true});
  CHECK(streamed.texts.empty());
}

// --- JSON aninhado fundo demais ------------------------------------------------

namespace {

// n colchetes abertos e fechados: "[[[...]]]".
std::string nested(std::size_t n) { return std::string(n, '[') + std::string(n, ']'); }

std::string reply_with_arguments(const std::string& arguments) {
  return R"({"choices":[{"message":{"tool_calls":[{"id":"c1","function":{"name":"x","arguments":)" +
         arguments + "}}]}}]}";
}

}  // namespace

TEST_CASE("decode_reply recusa JSON aninhado fundo demais em vez de estourar a pilha") {
  // Achado ao escrever os alvos de fuzzing (o libFuzzer, com entradas de
  // poucos KB, não chega lá): 200 KB de "[" como arguments derrubavam o
  // processo por estouro de pilha no dump que vira o texto dos argumentos.
  CHECK(decode_error(reply_with_arguments(nested(100000))) ==
        "resposta do modelo com JSON aninhado fundo demais (mais de 256 níveis)");
  // Perto do limite (o envelope da resposta conta 7 níveis) ainda vale, e o
  // objeto vira o texto dele, como sempre.
  const ChatReply reply = decode_ok(reply_with_arguments(nested(240)));
  CHECK(reply.message.tool_calls.at(0).arguments == nested(240));
  // Colchetes dentro de textos não contam.
  CHECK(decode_ok(reply_with_arguments(json(nested(1000)).dump()))
            .message.tool_calls.at(0)
            .arguments == nested(1000));
}

TEST_CASE("StreamDecoder chama de malformado um evento aninhado fundo demais") {
  const hz::StreamError error = stream_error(
      sse({chunk_json(R"({"tool_calls":[{"index":0,"id":"c","function":{"name":"x","arguments":)" +
                      nested(100000) + "}}]}"),
           "[DONE]"}));
  CHECK(error.kind == hz::StreamError::Kind::malformed);
  CHECK(error.message ==
        "o streaming trouxe um evento com JSON aninhado fundo demais (mais de 256 níveis)");
  // Um erro do provedor fundo demais também: a mensagem dele passaria por um dump.
  CHECK(stream_error(sse({"{\"error\":" + nested(100000) + "}"})).message ==
        "o streaming trouxe um evento com JSON aninhado fundo demais (mais de 256 níveis)");
}

TEST_CASE("json_deeper_than conta colchetes e chaves fora de textos, no texto e no json") {
  CHECK_FALSE(hz::json_deeper_than(std::string_view("[{\"a\":[1]}]"), 3));
  CHECK(hz::json_deeper_than(std::string_view("[{\"a\":[[1]]}]"), 3));
  CHECK_FALSE(hz::json_deeper_than(std::string_view(R"(["[[[[\"[[[[", {}])"), 2));
  CHECK_FALSE(hz::json_deeper_than(std::string_view("]]][]"), 1));
  CHECK_FALSE(hz::json_deeper_than(json::parse("[{\"a\":[1]}]"), 3));
  CHECK(hz::json_deeper_than(json::parse("[{\"a\":[[1]]}]"), 3));
  CHECK_FALSE(hz::json_deeper_than(json(7), 0));
  CHECK(hz::json_deeper_than(json::parse(nested(100000)), hz::kMaxJsonDepth));
}

namespace {

// Uma resposta sem streaming com `count` chamadas de read_file.
std::string reply_with_calls(std::size_t count) {
  nlohmann::json calls = nlohmann::json::array();
  for (std::size_t i = 0; i < count; ++i) {
    calls.push_back({{"id", "c" + std::to_string(i)},
                     {"type", "function"},
                     {"function", {{"name", "read_file"}, {"arguments", "{}"}}}});
  }
  return nlohmann::json{
      {"choices",
       {{{"message", {{"role", "assistant"}, {"content", ""}, {"tool_calls", calls}}},
         {"finish_reason", "tool_calls"}}}}}
      .dump();
}

// O mesmo em streaming: uma chamada por pedaço, cada uma com o seu índice.
std::string stream_with_calls(std::size_t count) {
  std::vector<std::string> events;
  for (std::size_t i = 0; i < count; ++i) {
    events.push_back(chunk_json(R"({"tool_calls":[{"index":)" + std::to_string(i) + R"(,"id":"c)" +
                                std::to_string(i) +
                                R"(","function":{"name":"read_file","arguments":"{}"}}]})"));
  }
  events.push_back(chunk_json("{}", R"("tool_calls")"));
  events.push_back("[DONE]");
  return sse(events);
}

}  // namespace

TEST_CASE("uma resposta com mais de 128 tool calls é recusada, com ou sem streaming") {
  // 10 mil chamadas numa resposta rodavam uma a uma.
  const auto at_limit = hz::decode_reply(reply_with_calls(128));
  REQUIRE(at_limit.ok());
  CHECK(at_limit->message.tool_calls.size() == 128);
  const auto over = hz::decode_reply(reply_with_calls(10000));
  REQUIRE_FALSE(over.ok());
  CHECK(over.error().message ==
        "resposta do modelo pede 10000 chamadas de ferramenta; o harness aceita até 128 numa "
        "resposta");

  CHECK(stream_ok(stream_with_calls(128)).message.tool_calls.size() == 128);
  const hz::StreamError error = stream_error(stream_with_calls(129));
  CHECK(error.kind == hz::StreamError::Kind::malformed);
  CHECK(error.message ==
        "o streaming pede mais de 128 chamadas de ferramenta; o harness aceita até 128 numa "
        "resposta");
}
