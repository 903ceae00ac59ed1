// Alvo: a montagem de uma resposta em streaming (hz::StreamDecoder).
//
// Propriedades: não lança; o corpo inteiro num feed só e o mesmo corpo em
// pedaços dão o mesmo resultado (a mesma resposta ou o mesmo erro); o texto
// entregue aos pedaços a on_text, junto, é o content da resposta montada;
// depois do primeiro erro nada mais vai para on_text; uma resposta montada
// tem ids em todas as tool calls e uso na faixa.
#include <exception>
#include <string>
#include <vector>

#include "hz/wire.hpp"
#include "support.hpp"
#include "support_chunks.hpp"

namespace {

struct Run {
  hz::Result<hz::ChatReply, hz::StreamError> result = hz::StreamError{};
  std::string shown;  // o que on_text recebeu, junto
  bool plain = false;
};

Run decode(const std::vector<std::string_view>& pieces) {
  Run run;
  hz::StreamDecoder decoder([&run](std::string_view text) {
    hz::fuzz::check(!text.empty(), "on_text nunca recebe pedaço vazio");
    run.shown.append(text);
  });
  for (std::string_view piece : pieces) decoder.feed(piece);
  run.result = decoder.finish();
  run.plain = decoder.plain_json();
  return run;
}

bool same(const Run& a, const Run& b) {
  if (a.plain != b.plain || a.result.ok() != b.result.ok() || a.shown != b.shown) return false;
  if (!a.result.ok()) {
    return a.result.error().kind == b.result.error().kind &&
           a.result.error().message == b.result.error().message;
  }
  const hz::ChatReply& x = a.result.value();
  const hz::ChatReply& y = b.result.value();
  return x.message == y.message && x.finish_reason == y.finish_reason && x.usage == y.usage &&
         x.reasoning == y.reasoning;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view body = hz::fuzz::text_of(data + 1, size - 1);
  using hz::fuzz::check;
  try {
    const Run whole = decode({body});
    const Run pieces = decode(hz::fuzz::chunks_of(body, data[0]));
    check(same(whole, pieces), "o corpo partido dá o mesmo resultado que o inteiro");
    if (whole.result.ok()) {
      const hz::ChatReply& reply = whole.result.value();
      if (!whole.plain) {
        check(whole.shown == reply.message.content, "on_text, junto, é o content da resposta");
      }
      for (const hz::ToolCall& call : reply.message.tool_calls) {
        check(!call.id.empty(), "toda tool call tem id");
      }
      if (reply.usage.reported) {
        check(reply.usage.prompt_tokens >= 0 && reply.usage.completion_tokens >= 0,
              "uso informado não é negativo");
      }
    } else {
      check(!whole.result.error().message.empty(), "um erro de streaming tem mensagem");
    }
  } catch (const std::exception& error) {
    hz::fuzz::escaped("StreamDecoder", error);
  }
  return 0;
}
