#include "hz/mock/mock_server.hpp"

#include <httplib.h>
#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "connection.hpp"
#include "expectation.hpp"
#include "reply.hpp"

namespace hz::mock {
namespace {

using nlohmann::json;

// Conexões ociosas ficam abertas como num provedor de verdade: um timeout
// curto demais faz o servidor fechar a conexão no instante em que o cliente
// a reaproveita, e o pedido falha. O httplib 0.11.4 faria o stop() esperar
// por elas até esse tempo; o stop() as derruba antes (drop_server_connections).
constexpr time_t kKeepAliveSeconds = 5;
constexpr std::size_t kRequestsPerConnection = 100000;

// Um pedido parcial não pode segurar o stop() por muito tempo.
constexpr time_t kReadTimeoutSeconds = 2;

constexpr auto kStartDeadline = std::chrono::seconds(5);

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

}  // namespace

struct MockServer::Impl {
  explicit Impl(Scenario s) : scenario(std::move(s)) {}

  const Scenario scenario;

  std::mutex lifecycle;  // serializa start()/stop()
  std::unique_ptr<httplib::Server> http;
  std::thread listener;

  mutable std::mutex mutex;  // protege tudo abaixo
  std::condition_variable wake;  // acorda "hang" e "delay_ms" no stop()
  bool stopping = false;
  std::string host;
  int port = 0;
  std::vector<RecordedRequest> requests;
  std::vector<std::string> failures;
  std::size_t chat_count = 0;  // pedidos de chat já vistos
  std::size_t step_index = 0;  // passo que responde ao próximo pedido
  int step_uses = 0;           // quantas vezes esse passo já respondeu

  void install_routes(httplib::Server& server);
  void handle_chat(const httplib::Request& req, httplib::Response& res);
  void handle_models(const httplib::Request& req, httplib::Response& res);

  // Espera `ms` milissegundos, ou menos se o servidor estiver parando.
  void pause(int ms);
  void wait_for_stop();
  void drop(const httplib::Request& req, httplib::Response& res);
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
  server.Post("/v1/chat/completions",
              [this](const httplib::Request& req, httplib::Response& res) { handle_chat(req, res); });
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

void MockServer::Impl::pause(int ms) {
  std::unique_lock<std::mutex> lock(mutex);
  wake.wait_for(lock, std::chrono::milliseconds(ms), [this] { return stopping; });
}

void MockServer::Impl::wait_for_stop() {
  std::unique_lock<std::mutex> lock(mutex);
  wake.wait(lock, [this] { return stopping; });
}

void MockServer::Impl::drop(const httplib::Request& req, httplib::Response& res) {
  int local_port = 0;
  {
    std::lock_guard<std::mutex> lock(mutex);
    local_port = port;
  }
  if (!detail::drop_connection(local_port, req.remote_addr, req.remote_port)) {
    fail("hz-mock: não achei a conexão de " + req.remote_addr + ":" +
         std::to_string(req.remote_port) + " para derrubar");
  }
  // O httplib ainda vai tentar escrever isto; a escrita falha porque o socket já caiu.
  res.status = 500;
}

void MockServer::Impl::handle_chat(const httplib::Request& req, httplib::Response& res) {
  json body = json::parse(req.body, nullptr, false);
  if (body.is_discarded()) body = nullptr;
  record(req, body);

  Step step;
  std::size_t step_number = 0;
  std::size_t ordinal = 0;
  {
    std::lock_guard<std::mutex> lock(mutex);
    ordinal = ++chat_count;
    if (!body.is_object()) {
      failures.push_back("pedido " + std::to_string(ordinal) + ": o corpo não é um objeto JSON");
      send_json(res, 400, detail::error_body("hz-mock: o corpo do pedido não é um objeto JSON",
                                             "invalid_request_error"));
      return;
    }
    if (step_index >= scenario.steps.size()) {
      std::string failure = "pedido " + std::to_string(ordinal) + ": o roteiro \"" +
                            scenario.name + "\" acabou (" +
                            std::to_string(scenario.steps.size()) +
                            (scenario.steps.size() == 1 ? " passo" : " passos") +
                            "); não há resposta para este pedido";
      failures.push_back(failure);
      send_json(res, 500,
                detail::error_body("hz-mock: " + failure, "hz_mock_script_exhausted",
                                   "hz_mock_script_exhausted"));
      return;
    }
    step = scenario.steps[step_index];
    step_number = step_index + 1;
    if (!step.forever && ++step_uses >= step.repeat) {
      ++step_index;
      step_uses = 0;
    }
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

  if (step.delay_ms > 0) pause(step.delay_ms);

  if (step.error) {
    const auto& error = *step.error;
    if (error.retry_after) res.set_header("Retry-After", std::to_string(*error.retry_after));
    send_json(res, error.status,
              detail::error_body(error.message, error.type, error.code.value_or("")));
    return;
  }

  const bool streaming = flag(body, "stream");
  detail::ReplyContext context;
  context.ordinal = ordinal;
  context.request_bytes = req.body.size();
  context.model = scenario.model;
  if (auto model = body.find("model"); model != body.end() && model->is_string()) {
    context.model = model->get<std::string>();
  }

  switch (step.fault) {
    case Fault::hang:
      wait_for_stop();
      drop(req, res);
      return;
    case Fault::drop:
      drop(req, res);
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
      break;
  }
  const bool truncate = step.fault == Fault::truncate_stream;

  if (!streaming) {
    auto text = std::make_shared<std::string>(detail::dump(detail::completion_body(step, context)));
    if (!truncate) {
      res.set_content(*text, "application/json");
      return;
    }
    // Content-Length promete o corpo inteiro; só metade chega antes da conexão cair.
    const std::size_t half = text->size() / 2;
    res.set_content_provider(
        text->size(), "application/json",
        [text, half](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
          if (offset >= half) return false;
          return sink.write(text->data() + offset, std::min(length, half - offset));
        });
    return;
  }

  const bool include_usage =
      body.contains("stream_options") && flag(body["stream_options"], "include_usage");
  auto events =
      std::make_shared<std::vector<std::string>>(detail::stream_events(step, context, include_usage));
  std::size_t send = events->size();
  if (truncate) {
    const std::size_t data_events = events->size() - 1;  // sem o [DONE]
    send = step.truncate_after > 0
               ? std::min(static_cast<std::size_t>(step.truncate_after), data_events)
               : std::max<std::size_t>(1, data_events / 2);
  }
  res.set_header("Cache-Control", "no-cache");
  res.set_chunked_content_provider(
      "text/event-stream", [events, send](std::size_t, httplib::DataSink& sink) {
        for (std::size_t i = 0; i < send; ++i) {
          if (!sink.write((*events)[i].data(), (*events)[i].size())) return false;
        }
        // Devolver false sem done() aborta a resposta: a conexão cai sem o
        // pedaço final do chunked e sem "data: [DONE]".
        if (send < events->size()) return false;
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
  auto http = std::make_unique<httplib::Server>();
  impl_->install_routes(*http);
  // Sem TCP_NODELAY, cabeçalho e corpo saem em dois segmentos e o segundo
  // espera o ACK atrasado do cliente: ~26 ms por pedido em vez de ~0,08 ms.
  http->set_tcp_nodelay(true);
  http->set_keep_alive_timeout(kKeepAliveSeconds);
  http->set_keep_alive_max_count(kRequestsPerConnection);
  http->set_read_timeout(kReadTimeoutSeconds, 0);
  // O padrão do httplib liga SO_REUSEPORT, e aí um segundo mock na mesma porta
  // "abre" sem erro e divide os pedidos com o primeiro. Só SO_REUSEADDR:
  // reabrir uma porta recém-fechada funciona, porta ocupada dá erro.
  http->set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
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
