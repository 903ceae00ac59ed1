// Alvo: o corpo de uma resposta sem streaming (hz::decode_reply).
//
// Propriedades: não lança; uma resposta lida é do assistente, toda tool call
// tem id, um uso informado está na faixa que wire.hpp promete, e a mensagem
// faz ida e volta pelo JSON do histórico (to_json e message_from_json) e vai
// num pedido sem lançar. O mesmo corpo, chegando a um StreamDecoder como
// JSON comum (servidor que ignorou o "stream"), dá a mesma resposta.
#include <exception>
#include <string>

#include "hz/wire.hpp"
#include "support.hpp"

namespace {

constexpr long kMaxTokens = 1'000'000'000'000;

void check_reply(const hz::ChatReply& reply) {
  using hz::fuzz::check;
  check(reply.message.role == hz::Role::assistant, "a resposta é do assistente");
  for (const hz::ToolCall& call : reply.message.tool_calls) {
    check(!call.id.empty(), "toda tool call tem id");
  }
  const hz::Usage& usage = reply.usage;
  if (usage.reported) {
    check(usage.prompt_tokens >= 0 && usage.prompt_tokens <= kMaxTokens, "prompt_tokens na faixa");
    check(usage.completion_tokens >= 0 && usage.completion_tokens <= kMaxTokens,
          "completion_tokens na faixa");
  } else {
    check(usage.prompt_tokens == 0 && usage.completion_tokens == 0, "uso não informado é zero");
  }
  const auto back = hz::message_from_json(hz::to_json(reply.message));
  check(back.ok(), "a mensagem lida volta do JSON");
  check(back.value() == reply.message, "a ida e volta pelo JSON não muda a mensagem");
  hz::ChatRequest request;
  request.messages.push_back(reply.message);
  (void)hz::encode_request(request);
}

bool same(const hz::ChatReply& a, const hz::ChatReply& b) {
  return a.message == b.message && a.finish_reason == b.finish_reason && a.usage == b.usage &&
         a.reasoning == b.reasoning;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body = hz::fuzz::text_of(data, size);
  try {
    const auto reply = hz::decode_reply(body);
    if (reply) check_reply(*reply);

    hz::StreamDecoder stream;
    stream.feed(body);
    const auto streamed = stream.finish();
    if (stream.plain_json()) {
      hz::fuzz::check(reply.ok() == streamed.ok(),
                      "JSON comum no StreamDecoder dá o mesmo que decode_reply");
      if (reply) hz::fuzz::check(same(*reply, *streamed), "e a mesma resposta");
    }
  } catch (const std::exception& error) {
    hz::fuzz::escaped("decode_reply", error);
  }
  return 0;
}
