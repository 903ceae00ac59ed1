#include "hz/stage/doctor.hpp"

#include <optional>
#include <ostream>
#include <utility>

#include <nlohmann/json.hpp>

#include "hz/terminal.hpp"
#include "hz/text.hpp"
#include "hz/trace_words.hpp"
#include "hz/wire.hpp"

namespace hz::stage {
namespace {

using nlohmann::json;

constexpr const char* kToolFix =
    "use um modelo com suporte a ferramentas, como qwen3:8b (no Ollama, os da etiqueta "
    "\"tools\" em ollama.com/search)";
constexpr const char* kSecret = "4817";
// O que fazer quando o streaming falha de um jeito que o harness não contorna.
constexpr const char* kNoStream =
    "o harness só troca para pedidos sem streaming quando o servidor recusa o streaming (HTTP "
    "400), então as etapas parariam aqui (provider_error). Rode as etapas 02 a 04 com --no-stream "
    "(a 01 não usa streaming)";

// Uma troca com o servidor: o que veio, ou por que não veio.
struct Exchange {
  bool transport_failed = false;
  std::string transport_error;  // em português, do HttpClient
  long status = 0;
  std::string body;  // o corpo (vazio num streaming que deu certo)
};

std::string join_url(std::string base, std::string_view path) {
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + std::string(path);
}

// A mensagem de erro do provedor ({"error":{"message":...}}), ou o começo do corpo.
std::string provider_message(const std::string& body) {
  const json root = json::parse(body, nullptr, false);
  if (root.is_object() && root.contains("error")) {
    const json& error = root.at("error");
    if (error.is_string()) return printable(error.get<std::string>());
    if (error.is_object() && error.contains("message") && error.at("message").is_string()) {
      return printable(error.at("message").get<std::string>());
    }
  }
  return brief(printable(body), 1, 160);
}

std::string http_failure(const Exchange& e) {
  const std::string detail = provider_message(e.body);
  return "HTTP " + std::to_string(e.status) + (detail.empty() ? "" : ": " + detail);
}

bool is_success(long status) { return status >= 200 && status < 300; }

using hz::words::plural;

ToolSchema read_file_tool() {
  return {"read_file", "Lê um arquivo de texto da pasta de trabalho e devolve o conteúdo.",
          json{{"type", "object"},
               {"properties",
                {{"path", {{"type", "string"}, {"description", "caminho relativo do arquivo"}}}}},
               {"required", {"path"}}}};
}

ChatRequest plain_request(const std::string& model) {
  return {model, {Message::user("Responda apenas com a palavra: pronto")}, {}};
}

ChatRequest tool_request(const std::string& model) {
  return {model,
          {Message::system("Você é um assistente que usa as ferramentas oferecidas para "
                           "responder."),
           Message::user("Leia o arquivo notas.txt com a ferramenta read_file e me diga qual "
                         "número está escrito nele.")},
          {read_file_tool()}};
}

// O que se sabe de uma tool call: nada errado (vazio) ou o problema.
std::string tool_call_problem(const ToolCall& call) {
  if (call.name != "read_file") {
    return "o modelo pediu a ferramenta \"" + printable(call.name) +
           "\", que não foi oferecida (só read_file)";
  }
  const json args = json::parse(call.arguments, nullptr, false);
  if (!args.is_object()) {
    return "os argumentos de read_file não são um objeto JSON válido: " +
           brief(printable(call.arguments), 1, 120);
  }
  if (!args.contains("path") || !args.at("path").is_string()) {
    return "os argumentos de read_file não trazem o campo obrigatório \"path\": " +
           brief(printable(call.arguments), 1, 120);
  }
  return "";
}

class Doctor {
 public:
  Doctor(const DoctorConfig& config, std::ostream& out)
      : config_(config), out_(out), http_(config.http) {}

  std::vector<Check> run() {
    out_ << "Conferindo " << printable(config_.base_url) << " com o modelo "
         << printable(config_.model) << ":\n";
    if (check_server() && check_chat()) {
      check_tools();
      check_streaming();
      check_usage();
      check_context();
    }
    summarize();
    return checks_;
  }

 private:
  void report(Verdict verdict, bool required, std::string name, std::string text) {
    checks_.push_back({verdict, required, std::move(name), std::move(text)});
    out_ << check_line(checks_.back(), config_.color) << "\n" << std::flush;
  }

  std::vector<std::string> headers(bool stream) const {
    std::vector<std::string> h = {
        "Content-Type: application/json",
        stream ? "Accept: text/event-stream" : "Accept: application/json"};
    if (!config_.api_key.empty()) h.push_back("Authorization: Bearer " + config_.api_key);
    return h;
  }

  Exchange take(const Result<HttpResponse, HttpError>& response) const {
    Exchange e;
    if (!response) {
      e.transport_failed = true;
      e.transport_error = printable(response.error().message);
      e.status = response.error().status;
      return e;
    }
    e.status = response->status;
    e.body = response->body;
    return e;
  }

  Exchange get_models() {
    std::vector<std::string> h = headers(false);
    h.erase(h.begin());  // GET sem corpo
    return take(http_.get(join_url(config_.base_url, "/models"), h));
  }

  Exchange post_chat(const std::string& body) {
    return take(http_.post(join_url(config_.base_url, "/chat/completions"), body, headers(false)));
  }

  // Um pedido em streaming; o corpo vai para decoder.
  Exchange post_stream(const std::string& body, StreamDecoder& decoder) {
    HttpRequestOptions options;
    options.on_body = [&decoder](std::string_view bytes) { decoder.feed(bytes); };
    return take(
        http_.post(join_url(config_.base_url, "/chat/completions"), body, headers(true), options));
  }

  bool check_server() {
    const Exchange e = get_models();
    if (e.transport_failed) {
      report(Verdict::problem, true, "servidor",
             e.transport_error +
                 ". Confira se ele está de pé (Ollama: ollama serve; LM Studio: Developer → "
                 "Start Server) e se --base-url termina em /v1, como http://localhost:11434/v1");
      return false;
    }
    if (e.status == 401 || e.status == 403) {
      report(Verdict::problem, true, "servidor",
             "recusou a chave (" + http_failure(e) +
                 "). Passe a chave certa com --api-key CHAVE ou OPENAI_API_KEY");
      return false;
    }
    models_body_ = e.body;
    std::optional<std::vector<std::string>> ids;
    if (is_success(e.status)) ids = model_ids(e.body);
    if (!ids) {
      report(Verdict::unknown, false, "servidor",
             "GET /models não trouxe a lista de modelos (" +
                 (is_success(e.status) ? std::string("resposta ilegível") : http_failure(e)) +
                 "); sigo sem ela");
      report(Verdict::unknown, false, "modelo",
             "sem a lista, não dá para conferir se " + printable(config_.model) +
                 " existe; o chat abaixo diz");
      return true;
    }
    report(Verdict::ok, true, "servidor",
           "GET /models respondeu com " + plural(ids->size(), "modelo", "modelos"));
    for (const std::string& id : *ids) {
      if (id == config_.model || id == config_.model + ":latest") {
        report(Verdict::ok, true, "modelo",
               printable(config_.model) + " está na lista do servidor");
        return true;
      }
    }
    std::string listed;
    for (std::size_t i = 0; i < ids->size() && i < 8; ++i) {
      listed += (i == 0 ? "" : ", ") + printable((*ids)[i]);
    }
    if (ids->size() > 8) listed += ", …";
    report(Verdict::problem, true, "modelo",
           printable(config_.model) + " não está na lista do servidor (" +
               (ids->empty() ? std::string("a lista está vazia") : listed) +
               "). No Ollama, baixe com ollama pull " + printable(config_.model) +
               "; nos outros servidores, use em --model um nome da lista");
    return false;
  }

  static std::optional<std::vector<std::string>> model_ids(const std::string& body) {
    const json root = json::parse(body, nullptr, false);
    if (!root.is_object() || !root.contains("data") || !root.at("data").is_array()) return {};
    std::vector<std::string> ids;
    for (const json& entry : root.at("data")) {
      if (entry.is_object() && entry.contains("id") && entry.at("id").is_string()) {
        ids.push_back(entry.at("id").get<std::string>());
      }
    }
    return ids;
  }

  // Um pedido sem streaming que precisa dar certo; o problema vira a linha.
  std::optional<ChatReply> required_reply(const Exchange& e, const std::string& name,
                                          const std::string& advice) {
    if (e.transport_failed) {
      report(Verdict::problem, true, name,
             e.transport_error +
                 ". Um modelo grande demora para carregar na primeira vez: rode de novo, ou "
                 "aumente --timeout");
      return {};
    }
    if (!is_success(e.status)) {
      report(Verdict::problem, true, name,
             "o servidor respondeu " + http_failure(e) + (advice.empty() ? "" : ". " + advice));
      return {};
    }
    auto reply = decode_reply(e.body);
    if (!reply) {
      report(Verdict::problem, true, name,
             "a resposta não tem o formato do Chat Completions (" +
                 printable(reply.error().message) + ")");
      return {};
    }
    return std::move(reply).value();
  }

  bool check_chat() {
    const auto reply = required_reply(post_chat(encode_request(plain_request(config_.model))),
                                      "chat", "Confira o nome do modelo e o log do servidor");
    if (!reply) return false;
    usage_seen_.push_back(reply->usage.reported);
    report(Verdict::ok, true, "chat", "um pedido simples recebeu resposta");
    return true;
  }

  void check_tools() {
    const ChatRequest request = tool_request(config_.model);
    const auto reply = required_reply(
        post_chat(encode_request(request)), "ferramentas",
        std::string("O servidor não aceita ferramentas com este modelo: ") + kToolFix);
    if (!reply) {
      skip_round_trip();
      return;
    }
    usage_seen_.push_back(reply->usage.reported);
    const std::vector<ToolCall>& calls = reply->message.tool_calls;
    if (calls.empty()) {
      report(Verdict::problem, true, "ferramentas",
             std::string("o modelo respondeu em texto em vez de chamar read_file; ") + kToolFix);
      skip_round_trip();
      return;
    }
    if (const std::string problem = tool_call_problem(calls.front()); !problem.empty()) {
      report(Verdict::problem, true, "ferramentas",
             problem +
                 ". O harness devolve o erro ao modelo, mas um modelo que erra no primeiro "
                 "pedido vai errar muito: " +
                 kToolFix);
      skip_round_trip();
      return;
    }
    tools_work_ = true;
    report(Verdict::ok, true, "ferramentas",
           "o modelo pediu read_file com argumentos JSON válidos (" +
               brief(printable(calls.front().arguments), 1, 80) + ")");
    round_trip(request, reply->message);
  }

  void skip_round_trip() {
    report(Verdict::unknown, false, "resultado de ferramenta",
           "não conferido (o modelo não chamou a ferramenta)");
  }

  void round_trip(ChatRequest request, const Message& assistant) {
    // Uma chamada só: o resultado responde à primeira (as outras ficam sem resposta
    // e alguns servidores recusam isso).
    Message asked = assistant;
    asked.tool_calls.resize(1);
    request.messages.push_back(asked);
    request.messages.push_back(Message::tool(
        asked.tool_calls.front().id, std::string("o número escrito em notas.txt é ") + kSecret));
    const auto reply = required_reply(post_chat(encode_request(request)), "resultado de ferramenta",
                                      "O servidor recusou a mensagem \"tool\" com o resultado");
    if (!reply) return;
    if (!reply->message.tool_calls.empty()) {
      report(Verdict::unknown, false, "resultado de ferramenta",
             "o modelo pediu outra ferramenta em vez de responder; o loop do curso seguiria "
             "rodando ferramentas, mas confira com um pedido seu");
      return;
    }
    if (reply->message.content.find(kSecret) == std::string::npos) {
      report(Verdict::unknown, false, "resultado de ferramenta",
             std::string("o modelo respondeu, mas sem o número do resultado (") + kSecret +
                 "): ele pode ter ignorado a mensagem \"tool\"");
      return;
    }
    report(Verdict::ok, true, "resultado de ferramenta",
           std::string("o modelo leu o resultado e respondeu com ") + kSecret);
  }

  // O pedido em streaming, com ou sem stream_options.
  static std::string stream_body(const ChatRequest& request, bool with_options) {
    if (with_options) return encode_stream_request(request);
    json body = to_json(request);
    body["stream"] = true;
    return body.dump();
  }

  void check_streaming() {
    int pieces = 0;
    StreamDecoder decoder([&pieces](std::string_view) { ++pieces; });
    Exchange e = post_stream(stream_body(plain_request(config_.model), true), decoder);
    std::string rejection;  // a recusa do pedido com stream_options
    if (!e.transport_failed && e.status == 400) {
      rejection = http_failure(e);
      pieces = 0;
      decoder = StreamDecoder([&pieces](std::string_view) { ++pieces; });
      e = post_stream(stream_body(plain_request(config_.model), false), decoder);
    }
    const bool answered = !e.transport_failed && is_success(e.status);
    std::optional<Result<ChatReply, StreamError>> reply;
    if (answered) reply = decoder.finish();
    if (!answered) {
      stream_broken_ = true;
      stream_failed("streaming", e);
    } else if (decoder.plain_json()) {
      report(Verdict::problem, false, "streaming",
             "o servidor ignorou \"stream\": true e mandou a resposta inteira; o harness aceita, "
             "mas o texto só aparece no fim");
    } else if (!*reply) {
      stream_broken_ = true;
      report(Verdict::problem, true, "streaming",
             "a resposta em streaming veio quebrada (" + printable(reply->error().message) + "); " +
                 kNoStream);
    } else if (pieces == 0) {
      report(Verdict::unknown, false, "streaming", "terminou sem nenhum pedaço de texto");
    } else {
      report(Verdict::ok, false, "streaming",
             "o texto chegou em " + plural(static_cast<std::size_t>(pieces), "pedaço", "pedaços"));
    }

    // Só é recusa de stream_options se o mesmo pedido sem ele deu certo.
    stream_options_ok_ = rejection.empty();
    if (!rejection.empty() && answered) {
      report(Verdict::problem, false, "stream_options",
             "recusado (" + rejection +
                 "); o harness refaz o pedido sem streaming e segue assim, nada a fazer (as "
                 "respostas só aparecem inteiras)");
    } else if (rejection.empty() && answered) {
      report(Verdict::ok, false, "stream_options", "aceito");
    } else {
      report(Verdict::unknown, false, "stream_options", "não conferido (o streaming falhou)");
    }
    if (reply && *reply && !decoder.plain_json()) stream_usage_ = (*reply)->usage.reported;
    check_stream_usage();
    check_stream_tools();
  }

  // Um pedido em streaming que não voltou: a recusa (400) o harness contorna; o resto, não.
  void stream_failed(const std::string& name, const Exchange& e) {
    const std::string failure =
        e.transport_failed ? e.transport_error : "o servidor respondeu " + http_failure(e);
    if (!e.transport_failed && e.status == 400) {
      report(Verdict::problem, false, name,
             failure +
                 "; o harness refaz sem streaming e segue assim, nada a fazer (as "
                 "respostas só aparecem inteiras)");
      return;
    }
    report(Verdict::problem, true, name,
           failure + ", e o mesmo pedido sem streaming deu certo; " + kNoStream);
  }

  void check_stream_usage() {
    bool plain_usage = false;
    for (bool seen : usage_seen_) plain_usage = plain_usage || seen;
    if (!stream_options_ok_) {
      report(Verdict::unknown, false, "uso no streaming",
             "não conferido (stream_options recusado)");
    } else if (!stream_usage_) {
      report(Verdict::unknown, false, "uso no streaming",
             "não conferido (o streaming não funcionou)");
    } else if (*stream_usage_) {
      report(Verdict::ok, false, "uso no streaming",
             "o último pedaço traz o uso (include_usage respeitado)");
    } else if (!plain_usage) {
      report(Verdict::problem, false, "uso no streaming",
             "não vem, mas o servidor também não informa o uso sem streaming (uso de tokens, "
             "abaixo); o harness desliga o streaming na primeira resposta e estima o uso, nada a "
             "fazer");
    } else {
      report(Verdict::problem, false, "uso no streaming",
             "o servidor ignora include_usage; o harness desliga o streaming para ter o uso de "
             "verdade, nada a fazer");
    }
  }

  void check_stream_tools() {
    const std::string name = "streaming com ferramentas";
    if (!tools_work_) {
      report(Verdict::unknown, false, name,
             "não conferido (sem streaming o modelo não chamou a ferramenta)");
      return;
    }
    if (stream_broken_) {
      report(Verdict::unknown, false, name, "não conferido (o streaming falhou)");
      return;
    }
    StreamDecoder decoder;
    const Exchange e =
        post_stream(stream_body(tool_request(config_.model), stream_options_ok_), decoder);
    if (e.transport_failed || !is_success(e.status)) {
      stream_failed(name, e);
      return;
    }
    auto reply = decoder.finish();
    if (!reply) {
      report(Verdict::problem, true, name,
             "a resposta veio quebrada (" + printable(reply.error().message) + "); " + kNoStream);
      return;
    }
    const std::vector<ToolCall>& calls = reply->message.tool_calls;
    if (calls.empty() && reply->finish_reason == "tool_calls") {
      report(Verdict::problem, false, name,
             "o servidor perde as tool calls no streaming (finish_reason \"tool_calls\" sem "
             "nenhuma); o harness refaz o pedido sem streaming e segue assim, nada a fazer");
      return;
    }
    if (calls.empty()) {
      report(Verdict::unknown, false, name,
             "desta vez o modelo respondeu em texto; não deu para conferir");
      return;
    }
    if (const std::string problem = tool_call_problem(calls.front()); !problem.empty()) {
      report(Verdict::problem, false, name, problem + " (no streaming)");
      return;
    }
    report(Verdict::ok, false, name,
           decoder.plain_json() ? "a tool call chegou (sem streaming, numa resposta inteira)"
                                : "a chamada de read_file chegou em pedaços, com argumentos JSON "
                                  "válidos");
  }

  void check_usage() {
    bool all = !usage_seen_.empty();
    for (bool seen : usage_seen_) all = all && seen;
    if (all) {
      report(Verdict::ok, false, "uso de tokens",
             "as respostas informam prompt_tokens e completion_tokens");
    } else {
      report(Verdict::problem, false, "uso de tokens",
             "o servidor não informa o uso; o trace e as contas de tokens e custo ficam sem os "
             "números de verdade (não impede o curso)");
    }
  }

  void check_context() {
    // O servidor diz se é um Ollama; a porta 11434 e o nome "ollama" na URL não provam nada.
    const bool ollama =
        answers_as_ollama(http_, config_.base_url) || models_look_like_ollama(models_body_);
    ContextWindow window;
    if (ollama) {
      window = ask_ollama(http_, config_.base_url, config_.model);
    } else if (const long tokens = context_from_models(models_body_, config_.model); tokens > 0) {
      window.tokens = tokens;
      window.source = "GET /models";
    }
    const Check check = context_check(window, ollama);
    report(check.verdict, check.required, check.name, check.text);
  }

  void summarize() {
    std::size_t failed = 0;
    std::size_t to_do = 0;
    std::size_t worked_around = 0;
    for (const Check& c : checks_) {
      if (c.verdict == Verdict::to_do) ++to_do;
      if (c.verdict != Verdict::problem) continue;
      if (c.required) {
        ++failed;
      } else {
        ++worked_around;
      }
    }
    if (failed > 0) {
      out_ << "Não está pronto: "
           << (failed == 1 ? "1 conferência obrigatória falhou"
                           : std::to_string(failed) + " conferências obrigatórias falharam")
           << " (✗ acima).\n";
      return;
    }
    std::vector<std::string> notes;
    if (to_do > 0) notes.push_back(plural(to_do, "coisa a fazer", "coisas a fazer") + " (! acima)");
    if (worked_around > 0) {
      notes.push_back(plural(worked_around, "aviso", "avisos") +
                      " que o harness contorna (~ acima)");
    }
    out_ << "Pronto para o curso";
    if (!notes.empty()) out_ << ", com " << notes.front();
    if (notes.size() > 1) out_ << " e " << notes.back();
    out_ << ".\n";
  }

  const DoctorConfig& config_;
  std::ostream& out_;
  HttpClient http_;
  std::vector<Check> checks_;
  std::string models_body_;
  std::vector<bool> usage_seen_;
  bool tools_work_ = false;
  bool stream_options_ok_ = true;
  bool stream_broken_ = false;
  std::optional<bool> stream_usage_;
};

}  // namespace

std::string check_line(const Check& check, bool color) {
  const char* mark = "?";
  Tint tint = Tint::yellow;
  switch (check.verdict) {
    case Verdict::ok:
      mark = "✓";
      tint = Tint::green;
      break;
    case Verdict::problem:
      mark = check.required ? "✗" : "~";
      tint = check.required ? Tint::red : Tint::yellow;
      break;
    case Verdict::to_do:
      mark = "!";
      tint = Tint::red;
      break;
    case Verdict::unknown:
      break;
  }
  return paint(mark, tint, color) + " " + check.name + ": " + check.text;
}

Check context_check(const ContextWindow& window, bool ollama) {
  const std::string name = "janela de contexto";
  const std::string model_max =
      window.model_max > 0 ? "; o modelo aceita até " + std::to_string(window.model_max) : "";
  const std::string raise =
      ollama
          ? "Aumente com OLLAMA_CONTEXT_LENGTH=32768 ollama serve (ou PARAMETER num_ctx 32768 "
            "num Modelfile) e passe --context-window 32768 às etapas"
          : "Aumente nas configurações do servidor (no LM Studio, \"Context Length\" ao carregar "
            "o modelo; no vLLM, --max-model-len) e passe --context-window N às etapas";
  if (window.tokens >= kRecommendedContext) {
    return {Verdict::ok, false, name,
            std::to_string(window.tokens) + " tokens (" + window.source + ")" + model_max};
  }
  if (window.tokens > 0) {
    return {Verdict::to_do, false, name,
            std::to_string(window.tokens) + " tokens (" + window.source + ")" + model_max +
                ". É pouco para um agente: o histórico passa disso em poucas voltas, e o servidor "
                "descarta em silêncio o começo da conversa. " +
                raise + " (recomendado: " + std::to_string(kRecommendedContext) + " ou mais)"};
  }
  if (ollama) {
    return {Verdict::unknown, false, name,
            "o Ollama não disse a janela em uso" + model_max +
                ". Sem configurar, ele usa a janela padrão do servidor (nas versões recentes, "
                "4096 tokens com menos de 24 GiB de memória de vídeo; 2048 nas antigas), pequena "
                "para um agente. " +
                raise};
  }
  return {Verdict::unknown, false, name,
          "desconhecida: este servidor não a informa. Se for pequena, ele pode descartar em "
          "silêncio o começo da conversa. " +
              raise + " (recomendado: " + std::to_string(kRecommendedContext) + " ou mais)"};
}

bool models_look_like_ollama(const std::string& body) {
  const json root = json::parse(body, nullptr, false);
  if (!root.is_object() || !root.contains("data") || !root.at("data").is_array()) return false;
  for (const json& entry : root.at("data")) {
    if (entry.is_object() && entry.value("owned_by", json()) == "library") return true;
  }
  return false;
}

std::vector<Check> run_doctor(const DoctorConfig& config, std::ostream& out) {
  return Doctor(config, out).run();
}

int doctor_exit_code(const std::vector<Check>& checks) {
  for (const Check& c : checks) {
    if (c.required && c.verdict == Verdict::problem) return 1;
  }
  return 0;
}

}  // namespace hz::stage
