#include "hz/stage/context_guard.hpp"

#include <algorithm>
#include <chrono>
#include <ostream>
#include <utility>

#include "hz/stage/context_window.hpp"
#include "hz/terminal.hpp"
#include "hz/wire.hpp"

namespace hz::stage {

long estimate_tokens(const ChatRequest& request) {
  const std::size_t bytes = encode_request(request).size();
  return static_cast<long>((bytes + 3) / 4);
}

std::string context_warning(long estimate, long window) {
  const long percent = window > 0 ? estimate * 100 / window : 0;
  return "⚠ janela de contexto: este pedido tem cerca de " + std::to_string(estimate) +
         " tokens (estimativa: bytes / 4), " + std::to_string(percent) + "% da janela do modelo (" +
         std::to_string(window) +
         " tokens).\n"
         "  Perto do limite, um servidor local pode descartar em silêncio as mensagens mais\n"
         "  antigas, a começar pelo prompt de sistema e pelo seu pedido. Para aumentar a janela:\n"
         "  no Ollama, OLLAMA_CONTEXT_LENGTH=32768 ollama serve (ou PARAMETER num_ctx 32768 num\n"
         "  Modelfile); no LM Studio, \"Context Length\" ao carregar o modelo. Depois, diga a "
         "nova\n"
         "  janela à etapa com --context-window 32768. (Este aviso aparece uma vez só.)\n";
}

ContextGuard::ContextGuard(ChatModel& inner, long window, std::ostream& warnings, bool color,
                           std::function<long()> probe)
    : inner_(inner),
      window_(window > 0 ? window : 0),
      warnings_(warnings),
      color_(color),
      probe_(std::move(probe)) {}

void ContextGuard::check(const ChatRequest& request) {
  // A primeira chamada carregou o modelo: agora o servidor sabe a janela.
  if (window_ == 0 && probe_ && calls_ > 0) {
    window_ = std::max(0L, probe_());
    probe_ = nullptr;
  }
  ++calls_;
  if (warned_ || window_ == 0) return;
  const long estimate = estimate_tokens(request);
  if (static_cast<double>(estimate) < kWarnFraction * static_cast<double>(window_)) return;
  warned_ = true;
  warnings_ << paint(context_warning(estimate, window_), Tint::yellow, color_) << std::flush;
}

Result<ChatReply, ModelError> ContextGuard::complete(const ChatRequest& request) {
  check(request);
  return inner_.complete(request);
}

Result<ChatReply, ModelError> ContextGuard::call(const ChatRequest& request,
                                                 const CallOptions& options) {
  check(request);
  return inner_.call(request, options);
}

std::unique_ptr<ContextGuard> guard_context(const CommonFlags& flags, Session& session,
                                            std::ostream& warnings) {
  std::function<long()> probe;
  if (flags.context_window <= 0 && !session.scripted) {
    // Duas ou três perguntas curtas ao servidor (é um Ollama? que janela?),
    // nunca adivinhadas pela URL; se ele demorar, fica sem aviso.
    probe = [base_url = session.base_url, model = session.model_name] {
      HttpOptions quick;
      quick.connect_timeout = std::chrono::milliseconds(1000);
      quick.timeout = std::chrono::milliseconds(2000);
      HttpClient http(quick);
      return server_window(http, base_url, model);
    };
  }
  return std::make_unique<ContextGuard>(*session.client, flags.context_window, warnings,
                                        wants_color(2), std::move(probe));
}

}  // namespace hz::stage
