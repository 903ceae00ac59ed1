// Alvo: o separador de eventos SSE (hz::SseDecoder).
//
// Propriedade: os bytes podem chegar partidos em qualquer lugar; o corpo
// inteiro num feed só e o mesmo corpo em pedaços dão os mesmos eventos. Um
// evento sempre traz data ou error (os que não trazem nada somem).
#include <exception>
#include <vector>

#include "hz/wire.hpp"
#include "support.hpp"
#include "support_chunks.hpp"

namespace {

std::vector<hz::SseEvent> decode(const std::vector<std::string_view>& pieces) {
  hz::SseDecoder decoder;
  std::vector<hz::SseEvent> events;
  for (std::string_view piece : pieces) {
    for (hz::SseEvent& event : decoder.feed(piece)) events.push_back(std::move(event));
  }
  for (hz::SseEvent& event : decoder.finish()) events.push_back(std::move(event));
  return events;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view body = hz::fuzz::text_of(data + 1, size - 1);
  try {
    const auto whole = decode({body});
    const auto pieces = decode(hz::fuzz::chunks_of(body, data[0]));
    hz::fuzz::check(whole == pieces, "o corpo partido dá os mesmos eventos que o inteiro");
  } catch (const std::exception& error) {
    hz::fuzz::escaped("SseDecoder", error);
  }
  return 0;
}
