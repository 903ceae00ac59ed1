#include "hz/stage/live.hpp"

#include <ostream>

namespace hz::stage {
namespace {

constexpr std::string_view kOpen = "<think>";
constexpr std::string_view kClose = "</think>";

// Quantos bytes do fim de text podem ser o começo de tag.
std::size_t partial_tag(std::string_view text, std::string_view tag) {
  for (std::size_t n = std::min(text.size(), tag.size() - 1); n > 0; --n) {
    if (text.substr(text.size() - n) == tag.substr(0, n)) return n;
  }
  return 0;
}

}  // namespace

void LiveText::write(std::string_view chunk) {
  pending_.append(chunk);
  while (true) {
    const std::string_view tag = inside_think_ ? kClose : kOpen;
    const std::size_t at = pending_.find(tag);
    if (at == std::string::npos) {
      const std::size_t keep = partial_tag(pending_, tag);
      if (!inside_think_) emit(std::string_view(pending_).substr(0, pending_.size() - keep));
      pending_.erase(0, pending_.size() - keep);
      return;
    }
    if (!inside_think_) emit(std::string_view(pending_).substr(0, at));
    pending_.erase(0, at + tag.size());
    inside_think_ = !inside_think_;
  }
}

void LiveText::emit(std::string_view text) {
  // Depois de um <think>, o modelo costuma pular linhas antes da resposta.
  if (!wrote_) {
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return;
    text.remove_prefix(first);
  }
  if (text.empty()) return;
  out_ << printable_.feed(text) << std::flush;
  wrote_ = true;
  at_line_start_ = text.back() == '\n';
}

void LiveText::finish() {
  if (!inside_think_ && !pending_.empty()) emit(pending_);
  out_ << printable_.finish();
  if (wrote_ && !at_line_start_) out_ << '\n';
  out_ << std::flush;
  pending_.clear();
  inside_think_ = false;
  wrote_ = false;
  at_line_start_ = true;
}

Result<ChatReply, ModelError> LiveModel::complete(const ChatRequest& request) {
  return call(request, CallOptions{});
}

Result<ChatReply, ModelError> LiveModel::call(const ChatRequest& request,
                                              const CallOptions& options) {
  CallOptions live = options;
  live.on_text = [this](std::string_view text) { live_.write(text); };
  Result<ChatReply, ModelError> reply = inner_.call(request, live);
  // Um streaming descartado (o cliente refez o pedido sem streaming) mostrou
  // um texto que não é o da resposta: ela não veio por streaming e precisa
  // sair inteira no fim.
  last_reply_shown_ = reply && reply->streamed && live_.wrote();
  live_.finish();
  return reply;
}

}  // namespace hz::stage
