#include "hz/mock/mock_server.hpp"

#include <httplib.h>
#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "connection.hpp"
#include "expectation.hpp"
#include "idle_connections.hpp"
#include "reply.hpp"
#include "worker_pool.hpp"

namespace hz::mock {
namespace {

using nlohmann::json;

// Conexões ociosas ficam abertas como num provedor de verdade: um timeout
// curto demais faz o servidor fechar a conexão no instante em que o cliente
// a reaproveita, e o pedido falha. O httplib 0.11.4 faria o stop() esperar
// por elas até esse tempo; o stop() as derruba antes (drop_server_connections).
constexpr time_t kKeepAliveSeconds = 5;
constexpr std::size_t kRequestsPerConnection = 100000;

// Um cliente que manda o pedido pela metade e para libera a conexão depois
// disto (e não segura o stop()). Cada conexão tem sua thread (WorkerPool),
// então esperar não prende mais ninguém.
constexpr time_t kReadTimeoutSeconds = 2;
// Um cliente que não lê a resposta: a escrita desiste depois disto.
constexpr time_t kWriteTimeoutSeconds = 5;

// De quanto em quanto tempo quem espera (hang, stall_stream, delay_ms,
// chunk_delay_ms) olha se o cliente desistiu.
constexpr auto kPeerCheckInterval = std::chrono::milliseconds(50);
constexpr int kForever = -1;

// Sem streaming, chunk_delay_ms atrasa cada pedaço deste tamanho do corpo.
constexpr std::size_t kDripBytes = 64;

constexpr auto kStartDeadline = std::chrono::seconds(5);

// Conexões esperando o accept (o kernel ainda limita a net.core.somaxconn).
constexpr int kListenBacklog = 1024;

// A versão que o mock diz ser quando responde como um Ollama (ollama_context_length).
const char* kOllamaVersion = "0.12.6";

const char* kMalformedBody = "<html><body><h1>502 Bad Gateway</h1></body></html>\n";

std::string display_host(const std::string& host) {
  if (host == "0.0.0.0") return "127.0.0.1";
  if (host == "::") return "[::1]";
  if (host.find(':') != std::string::npos) return "[" + host + "]";
  return host;
}

void send_json(httplib::Response& res, int status, const json& body) {
  res.status = status;
  res.set_content(detail::dump(body), "application/json");
}

bool flag(const json& object, const char* key) {
  if (!object.is_object()) return false;
  auto it = object.find(key);
  return it != object.end() && it->is_boolean() && it->get<bool>();
}

std::size_t assistant_messages(const json& body) {
  auto messages = body.find("messages");
  if (messages == body.end() || !messages->is_array()) return 0;
  return static_cast<std::size_t>(
      std::count_if(messages->begin(), messages->end(), [](const json& message) {
        auto role = message.is_object() ? message.find("role") : message.end();
        return role != message.end() && role->is_string() && *role == "assistant";
      }));
}

// Como a resposta termina: inteira, cortada (truncate_stream) ou em silêncio (stall_stream).
enum class Ending { complete, truncate, stall };

Ending ending_of(Fault fault) {
  if (fault == Fault::truncate_stream) return Ending::truncate;
  if (fault == Fault::stall_stream) return Ending::stall;
  return Ending::complete;
}

}  // namespace

struct MockServer::Impl {
  explicit Impl(Scenario s) : scenario(std::move(s)) {}

  const Scenario scenario;

  std::mutex lifecycle;  // serializa start()/stop()
  std::unique_ptr<httplib::Server> http;
  std::thread listener;
  // As conexões ociosas, derrubadas quando as threads acabam.
  detail::IdleConnections idle{std::chrono::seconds(kKeepAliveSeconds)};

  mutable std::mutex mutex;      // protege tudo abaixo
  std::condition_variable wake;  // acorda quem espera (Impl::wait) no stop()
  bool stopping = false;
  std::string host;
  int port = 0;
  std::vector<RecordedRequest> requests;
  std::vector<std::string> failures;
  std::size_t chat_count = 0;  // pedidos de chat já vistos
  std::size_t step_index = 0;  // by_request: passo que responde ao próximo pedido
  int step_uses = 0;           // by_request: quantas vezes esse passo já respondeu

  // O passo escolhido para um pedido e o número dos ids "call_N_i" gerados.
  struct Pick {
    std::size_t index = 0;
    std::size_t call_number = 0;
  };

  void install_routes(httplib::Server& server);
  void handle_chat(const httplib::Request& req, httplib::Response& res);
  void handle_models(const httplib::Request& req, httplib::Response& res);

  // Com o mutex: o passo deste pedido, ou nullopt se o roteiro acabou.
  std::optional<Pick> pick_step(const json& body, std::size_t ordinal) const;
  void consume_step();
  std::string exhausted_failure(const json& body, std::size_t ordinal) const;

  void send_completion(const Step& step, const detail::ReplyContext& context, Ending ending,
                       int connection, httplib::Response& res);
  void send_stream(const Step& step, const detail::ReplyContext& context, bool include_usage,
                   Ending ending, int connection, httplib::Response& res);

  // Espera `ms` milissegundos (kForever: sem prazo). Devolve false se antes
  // disso o servidor começou a parar ou o cliente do outro lado de `connection`
  // desistiu (connection -1: não olha o cliente).
  bool wait(int ms, int connection);
  int local_port() const {
    std::lock_guard<std::mutex> lock(mutex);
    return port;
  }
  // O descritor da conexão do pedido (-1 se não achou: vira falha quando `must_find`).
  int connection_of(const httplib::Request& req, bool must_find);
  void drop(int connection, httplib::Response& res);
  void fail(std::string failure) {
    std::lock_guard<std::mutex> lock(mutex);
    failures.push_back(std::move(failure));
  }
  std::vector<RecordedRequest> requests_snapshot() const {
    std::lock_guard<std::mutex> lock(mutex);
    return requests;
  }
  void record(const httplib::Request& req, const json& body) {
    std::lock_guard<std::mutex> lock(mutex);
    requests.push_back({req.method, req.path, req.body, body});
  }
};

void MockServer::Impl::install_routes(httplib::Server& server) {
  server.Post("/v1/chat/completions", [this](const httplib::Request& req, httplib::Response& res) {
    handle_chat(req, res);
  });
  server.Get("/v1/models", [this](const httplib::Request& req, httplib::Response& res) {
    handle_models(req, res);
  });
  server.Get("/hz/requests", [this](const httplib::Request&, httplib::Response& res) {
    json list = json::array();
    for (const auto& recorded : requests_snapshot()) {
      json item = {{"method", recorded.method}, {"path", recorded.path}, {"body", recorded.body}};
      if (recorded.body.is_null()) item["raw_body"] = recorded.raw_body;
      list.push_back(std::move(item));
    }
    send_json(res, 200, {{"requests", std::move(list)}});
  });
  server.Get("/hz/failures", [this](const httplib::Request&, httplib::Response& res) {
    std::lock_guard<std::mutex> lock(mutex);
    send_json(res, 200, {{"failures", failures}});
  });
  if (scenario.ollama_context_length) {
    // O que o hz-doctor e o guarda de contexto perguntam a um Ollama.
    server.Get("/api/version", [](const httplib::Request&, httplib::Response& res) {
      send_json(res, 200, {{"version", kOllamaVersion}});
    });
    server.Get("/api/ps", [this](const httplib::Request&, httplib::Response& res) {
      send_json(res, 200,
                {{"models", json::array({{{"name", scenario.model},
                                          {"model", scenario.model},
                                          {"context_length", *scenario.ollama_context_length}}})}});
    });
  }
  // Rotas desconhecidas também respondem no formato de erro da OpenAI. Só
  // preenche respostas sem corpo: os erros roteirizados já vêm prontos.
  httplib::Server::HandlerWithResponse on_error = [](const httplib::Request& req,
                                                     httplib::Response& res) {
    if (!res.body.empty() || res.status != 404) return httplib::Server::HandlerResponse::Unhandled;
    res.set_content(detail::dump(detail::error_body(
                        "hz-mock: caminho desconhecido: " + req.method + " " + req.path +
                            " (use POST /v1/chat/completions ou GET /v1/models)",
                        "invalid_request_error", "unknown_url")),
                    "application/json");
    return httplib::Server::HandlerResponse::Handled;
  };
  server.set_error_handler(on_error);
  // Para IdleConnections: a conexão está no meio de um pedido do cabeçalho lido
  // até a resposta escrita inteira (o logger do httplib roda depois do último byte).
  server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response&) {
    idle.request_started(req.remote_addr, req.remote_port);
    return httplib::Server::HandlerResponse::Unhandled;
  });
  server.set_logger([this](const httplib::Request& req, const httplib::Response&) {
    idle.request_finished(req.remote_addr, req.remote_port);
  });
}

void MockServer::Impl::handle_models(const httplib::Request& req, httplib::Response& res) {
  json body = json::parse(req.body, nullptr, false);
  record(req, body.is_discarded() ? json() : body);
  send_json(res, 200,
            {{"object", "list"},
             {"data", json::array({{{"id", scenario.model},
                                    {"object", "model"},
                                    {"created", detail::kCreated},
                                    {"owned_by", "hz-mock"}}})}});
}

bool MockServer::Impl::wait(int ms, int connection) {
  // Sem olhar o cliente, uma thread ficaria presa até o stop() (ou até o fim
  // da espera) a cada pedido abandonado: um "hang" repetido para sempre
  // esgotaria as threads.
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(ms);
  while (true) {
    auto slice = Clock::now() + kPeerCheckInterval;
    if (ms != kForever) slice = std::min(slice, deadline);
    {
      std::unique_lock<std::mutex> lock(mutex);
      if (wake.wait_until(lock, slice, [this] { return stopping; })) return false;
    }
    if (ms != kForever && Clock::now() >= deadline) return true;
    if (connection >= 0 && detail::peer_gone(connection)) return false;
  }
}

int MockServer::Impl::connection_of(const httplib::Request& req, bool must_find) {
  const int connection = detail::find_connection(local_port(), req.remote_addr, req.remote_port);
  if (connection < 0 && must_find) {
    fail("hz-mock: não achei a conexão de " + req.remote_addr + ":" +
         std::to_string(req.remote_port) + " para derrubar");
  }
  return connection;
}

void MockServer::Impl::drop(int connection, httplib::Response& res) {
  if (connection >= 0) ::shutdown(connection, SHUT_RDWR);
  // O httplib ainda vai tentar escrever isto; a escrita falha porque o socket já caiu.
  res.status = 500;
}

std::optional<MockServer::Impl::Pick> MockServer::Impl::pick_step(const json& body,
                                                                  std::size_t ordinal) const {
  if (scenario.select == Selection::by_request) {
    if (step_index >= scenario.steps.size()) return std::nullopt;
    return Pick{step_index, ordinal};
  }
  // A posição K (K respostas do assistente já na conversa) cai no passo cujo
  // intervalo de repetições a contém: a mesma conversa recebe sempre o mesmo
  // passo, num mock novo ou não.
  const std::size_t position = assistant_messages(body);
  std::size_t first = 0;
  for (std::size_t i = 0; i < scenario.steps.size(); ++i) {
    const Step& step = scenario.steps[i];
    if (step.forever || position < first + static_cast<std::size_t>(step.repeat)) {
      return Pick{i, position + 1};
    }
    first += static_cast<std::size_t>(step.repeat);
  }
  return std::nullopt;
}

void MockServer::Impl::consume_step() {
  if (scenario.select != Selection::by_request) return;
  const Step& step = scenario.steps[step_index];
  if (!step.forever && ++step_uses >= step.repeat) {
    ++step_index;
    step_uses = 0;
  }
}

std::string MockServer::Impl::exhausted_failure(const json& body, std::size_t ordinal) const {
  const std::size_t steps = scenario.steps.size();
  std::string failure = "pedido " + std::to_string(ordinal) + ": o roteiro \"" + scenario.name +
                        "\" acabou (" + std::to_string(steps) +
                        (steps == 1 ? " passo" : " passos") + "); não há resposta para ";
  if (scenario.select == Selection::by_request) return failure + "este pedido";
  const std::size_t position = assistant_messages(body);
  return failure + "uma conversa com " + std::to_string(position) +
         (position == 1 ? " mensagem" : " mensagens") + " do assistente";
}

void MockServer::Impl::handle_chat(const httplib::Request& req, httplib::Response& res) {
  json body = json::parse(req.body, nullptr, false);
  if (body.is_discarded()) body = nullptr;
  record(req, body);

  Step step;
  std::size_t step_number = 0;
  std::size_t ordinal = 0;
  std::size_t call_number = 0;
  {
    std::lock_guard<std::mutex> lock(mutex);
    ordinal = ++chat_count;
    if (!body.is_object()) {
      failures.push_back("pedido " + std::to_string(ordinal) + ": o corpo não é um objeto JSON");
      send_json(res, 400,
                detail::error_body("hz-mock: o corpo do pedido não é um objeto JSON",
                                   "invalid_request_error"));
      return;
    }
    const auto pick = pick_step(body, ordinal);
    if (!pick) {
      std::string failure = exhausted_failure(body, ordinal);
      failures.push_back(failure);
      send_json(res, 500,
                detail::error_body("hz-mock: " + failure, "hz_mock_script_exhausted",
                                   "hz_mock_script_exhausted"));
      return;
    }
    step = scenario.steps[pick->index];
    step_number = pick->index + 1;
    call_number = pick->call_number;
    // Um servidor que recusa stream_options recusa antes de chegar ao modelo:
    // o passo fica para o próximo pedido (o mesmo pedido sem stream_options).
    if (step.quirks.reject_stream_options && body.contains("stream_options")) {
      send_json(res, 400,
                detail::error_body("Unrecognized request argument supplied: stream_options",
                                   "invalid_request_error"));
      return;
    }
    consume_step();
  }

  if (auto mismatch = detail::check_expectation(step.expect, body)) {
    std::string failure = "passo " + std::to_string(step_number) + " (pedido " +
                          std::to_string(ordinal) + "): " + *mismatch;
    fail(failure);
    send_json(res, 400,
              detail::error_body("hz-mock: " + failure, "hz_mock_expectation_failed",
                                 "hz_mock_expectation_failed"));
    return;
  }

  // Quem espera olha a conexão para saber se o cliente desistiu; quem derruba precisa dela.
  const bool drops = step.fault == Fault::hang || step.fault == Fault::drop;
  const bool waits = step.delay_ms > 0 || step.chunk_delay_ms > 0 || step.fault == Fault::hang ||
                     step.fault == Fault::stall_stream;
  const int connection = drops || waits ? connection_of(req, drops) : -1;

  if (step.delay_ms > 0) wait(step.delay_ms, connection);

  if (step.error) {
    const auto& error = *step.error;
    if (error.retry_after) res.set_header("Retry-After", std::to_string(*error.retry_after));
    if (error.retry_after_ms) {
      res.set_header("retry-after-ms", std::to_string(*error.retry_after_ms));
    }
    send_json(res, error.status,
              detail::error_body(error.message, error.type, error.code.value_or("")));
    return;
  }

  const bool streaming = flag(body, "stream");
  detail::ReplyContext context;
  context.ordinal = ordinal;
  context.call_number = call_number;
  context.request_bytes = req.body.size();
  context.model = scenario.model;
  if (auto model = body.find("model"); model != body.end() && model->is_string()) {
    context.model = model->get<std::string>();
  }

  switch (step.fault) {
    case Fault::hang:
      wait(kForever, connection);
      drop(connection, res);
      return;
    case Fault::drop:
      drop(connection, res);
      return;
    case Fault::malformed:
      if (streaming) {
        auto events = detail::stream_events(Step{}, context, false);
        res.set_content(events.front() + "data: {\"choices\": [{\"delta\": {\"content\": \"Ol\n\n" +
                            "data: [DONE]\n\n",
                        "text/event-stream");
      } else {
        res.set_content(kMalformedBody, "application/json");
      }
      return;
    case Fault::none:
    case Fault::truncate_stream:
    case Fault::stall_stream:
      break;
  }
  const Ending ending = ending_of(step.fault);
  if (!streaming) {
    send_completion(step, context, ending, connection, res);
    return;
  }
  const bool include_usage = body.contains("stream_options") &&
                             flag(body["stream_options"], "include_usage") &&
                             !step.quirks.stream_ignores_usage;
  send_stream(step, context, include_usage, ending, connection, res);
}

void MockServer::Impl::send_completion(const Step& step, const detail::ReplyContext& context,
                                       Ending ending, int connection, httplib::Response& res) {
  auto text = std::make_shared<std::string>(detail::dump(detail::completion_body(step, context)));
  const int delay = step.chunk_delay_ms;
  if (ending == Ending::complete && delay == 0) {
    res.set_content(*text, "application/json");
    return;
  }
  // Content-Length promete o corpo inteiro; cortado ou parado, só metade chega.
  const std::size_t limit = ending == Ending::complete ? text->size() : text->size() / 2;
  const std::size_t piece = delay > 0 ? kDripBytes : limit;
  res.set_content_provider(
      text->size(), "application/json",
      [this, text, limit, piece, delay, ending, connection](std::size_t offset, std::size_t length,
                                                            httplib::DataSink& sink) {
        if (offset >= limit) {
          if (ending == Ending::stall) wait(kForever, connection);
          return false;
        }
        if (delay > 0 && !wait(delay, connection)) return false;
        return sink.write(text->data() + offset, std::min({length, limit - offset, piece}));
      });
}

void MockServer::Impl::send_stream(const Step& step, const detail::ReplyContext& context,
                                   bool include_usage, Ending ending, int connection,
                                   httplib::Response& res) {
  auto events = std::make_shared<std::vector<std::string>>(
      detail::stream_events(step, context, include_usage));
  const std::size_t data_events = events->size() - 1;  // sem o [DONE]
  std::size_t send = events->size();
  if (ending != Ending::complete) {
    std::optional<int> scripted = step.stall_after;
    if (ending == Ending::truncate && step.truncate_after > 0) scripted = step.truncate_after;
    send = scripted ? std::min(static_cast<std::size_t>(*scripted), data_events)
                    : std::max<std::size_t>(1, data_events / 2);
  }
  const int delay = step.chunk_delay_ms;
  res.set_header("Cache-Control", "no-cache");
  res.set_chunked_content_provider(
      "text/event-stream",
      [this, events, send, delay, ending, connection](std::size_t, httplib::DataSink& sink) {
        for (std::size_t i = 0; i < send; ++i) {
          if (delay > 0 && !wait(delay, connection)) return false;
          if (!sink.write((*events)[i].data(), (*events)[i].size())) return false;
        }
        // Devolver false sem done() aborta a resposta: a conexão cai sem o
        // pedaço final do chunked e sem "data: [DONE]".
        if (send < events->size()) {
          if (ending == Ending::stall) wait(kForever, connection);
          return false;
        }
        sink.done();
        return true;
      });
}

MockServer::MockServer(Scenario scenario) : impl_(std::make_unique<Impl>(std::move(scenario))) {}

MockServer::~MockServer() { stop(); }

Result<int> MockServer::start(const std::string& host, int port) {
  std::lock_guard<std::mutex> guard(impl_->lifecycle);
  if (impl_->listener.joinable()) {
    return Error{"o hz-mock já está rodando em " + base_url()};
  }
  // O httplib aceitaria "" (todas as interfaces), mas a URL base sairia "http://:PORTA/v1".
  if (host.empty()) return Error{"endereço vazio: use, por exemplo, 127.0.0.1"};
  auto http = std::make_unique<httplib::Server>();
  http->new_task_queue = [impl = impl_.get()] {
    return new detail::WorkerPool(kMaxConcurrentConnections, [impl](std::size_t waiting) {
      impl->idle.drop_oldest(impl->local_port(), waiting);
    });
  };
  impl_->install_routes(*http);
  // Sem TCP_NODELAY, cabeçalho e corpo saem em dois segmentos e o segundo
  // espera o ACK atrasado do cliente: ~26 ms por pedido em vez de ~0,08 ms.
  http->set_tcp_nodelay(true);
  http->set_keep_alive_timeout(kKeepAliveSeconds);
  http->set_keep_alive_max_count(kRequestsPerConnection);
  http->set_read_timeout(kReadTimeoutSeconds, 0);
  http->set_write_timeout(kWriteTimeoutSeconds, 0);
  // O padrão do httplib liga SO_REUSEPORT, e aí um segundo mock na mesma porta
  // "abre" sem erro e divide os pedidos com o primeiro. Só SO_REUSEADDR:
  // reabrir uma porta recém-fechada funciona, porta ocupada dá erro.
  auto listening = std::make_shared<socket_t>(INVALID_SOCKET);
  http->set_socket_options([listening](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    *listening = sock;  // o último tentado é o que deu certo
  });

  int bound = -1;
  if (port == 0) {
    bound = http->bind_to_any_port(host);
  } else if (http->bind_to_port(host, port)) {
    bound = port;
  }
  if (bound <= 0) {
    return Error{"não consegui abrir " + host + ":" + std::to_string(port) +
                 " (endereço inválido ou porta em uso?)"};
  }
  // O 0.11.4 escuta com fila de 5 conexões: numa rajada de connect() a fila
  // enche antes de a thread de accept rodar, o kernel descarta o SYN e o
  // cliente só tenta de novo 1 s depois. listen() de novo só aumenta a fila.
  ::listen(*listening, kListenBacklog);
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->stopping = false;
    impl_->host = host;
    impl_->port = bound;
  }
  impl_->http = std::move(http);
  impl_->listener = std::thread([server = impl_->http.get()] { server->listen_after_bind(); });

  // O 0.11.4 não tem wait_until_ready: espera o laço de accept começar.
  const auto deadline = std::chrono::steady_clock::now() + kStartDeadline;
  while (!impl_->http->is_running()) {
    if (std::chrono::steady_clock::now() > deadline) {
      impl_->http->stop();
      impl_->listener.join();
      impl_->http.reset();
      return Error{"o hz-mock não começou a aceitar conexões em " + host + ":" +
                   std::to_string(bound)};
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  return bound;
}

void MockServer::stop() {
  std::lock_guard<std::mutex> guard(impl_->lifecycle);
  if (!impl_->listener.joinable()) return;
  int port = 0;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->stopping = true;
    port = impl_->port;
  }
  impl_->wake.notify_all();
  impl_->http->stop();  // fecha o socket de escuta: nenhuma conexão nova
  detail::drop_server_connections(port);
  impl_->listener.join();  // o httplib junta as threads de conexão antes de voltar
  impl_->http.reset();
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->port = 0;
}

std::string MockServer::base_url() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return "http://" + display_host(impl_->host) + ":" + std::to_string(impl_->port) + "/v1";
}

int MockServer::port() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->port;
}

const Scenario& MockServer::scenario() const { return impl_->scenario; }

std::vector<RecordedRequest> MockServer::requests() const { return impl_->requests_snapshot(); }

std::vector<std::string> MockServer::failures() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->failures;
}

}  // namespace hz::mock
