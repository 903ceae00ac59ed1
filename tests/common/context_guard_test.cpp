// O aviso de janela de contexto cheia (etapas/support: context_guard e
// context_window): a estimativa, o aviso uma vez só, a janela descoberta
// depois da primeira chamada e a leitura do que Ollama e vLLM informam.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "hz/chat_client.hpp"
#include "hz/stage/context_guard.hpp"
#include "hz/stage/context_window.hpp"
#include "hz/stage/session.hpp"
#include "hz/testing/printing.hpp"
#include "local_server.hpp"

using hz::stage::ContextGuard;

namespace {

// Responde "ok" e guarda o que recebeu.
class EchoModel final : public hz::ChatModel {
 public:
  hz::Result<hz::ChatReply, hz::ModelError> complete(const hz::ChatRequest& request) override {
    sizes.push_back(request.messages.size());
    hz::ChatReply reply;
    reply.message = hz::Message::assistant("ok");
    return reply;
  }
  hz::Result<hz::ChatReply, hz::ModelError> call(const hz::ChatRequest& request,
                                                 const hz::CallOptions& options) override {
    streamed.push_back(options.stream);
    return complete(request);
  }
  std::vector<std::size_t> sizes;
  std::vector<bool> streamed;
};

// Um pedido com uma mensagem de usuário de `bytes` letras.
hz::ChatRequest request_of(std::size_t bytes) {
  hz::ChatRequest request;
  request.model = "m";
  request.messages = {hz::Message::user(std::string(bytes, 'a'))};
  return request;
}

// O pedido cuja estimativa dá exatamente `tokens`.
hz::ChatRequest request_with_tokens(long tokens) {
  const std::size_t overhead = hz::encode_request(request_of(0)).size();
  return request_of(static_cast<std::size_t>(tokens) * 4 - overhead);
}

// Uma descoberta de janela que responde window e conta em probes as perguntas.
std::function<long()> counting_probe(int& probes, long window) {
  return [&probes, window] {
    ++probes;
    return window;
  };
}

}  // namespace

TEST_CASE("a estimativa de tokens é bytes do corpo dividido por 4, arredondado para cima") {
  const hz::ChatRequest request = request_of(10);
  const std::size_t bytes = hz::encode_request(request).size();
  CHECK(hz::stage::estimate_tokens(request) == static_cast<long>((bytes + 3) / 4));
  CHECK(hz::stage::estimate_tokens(request_with_tokens(700)) == 700);
  // Um byte a mais já é mais um token.
  const std::size_t letters = request_with_tokens(700).messages[0].content.size();
  CHECK(hz::stage::estimate_tokens(request_of(letters + 1)) == 701);
}

TEST_CASE("o aviso de janela diz o tamanho, a fração e como aumentar a janela") {
  CHECK(hz::stage::context_warning(3300, 4096) ==
        "⚠ janela de contexto: este pedido tem cerca de 3300 tokens (estimativa: bytes / 4), 80% "
        "da janela do modelo (4096 tokens).\n"
        "  Perto do limite, um servidor local pode descartar em silêncio as mensagens mais\n"
        "  antigas, a começar pelo prompt de sistema e pelo seu pedido. Para aumentar a janela:\n"
        "  no Ollama, OLLAMA_CONTEXT_LENGTH=32768 ollama serve (ou PARAMETER num_ctx 32768 num\n"
        "  Modelfile); no LM Studio, \"Context Length\" ao carregar o modelo. Depois, diga a nova\n"
        "  janela à etapa com --context-window 32768. (Este aviso aparece uma vez só.)\n");
}

TEST_CASE("o guarda avisa uma vez só quando o pedido passa de 80% da janela e sempre repassa") {
  EchoModel inner;
  std::ostringstream warnings;
  ContextGuard guard(inner, 1000, warnings);

  REQUIRE(guard.complete(request_with_tokens(799)).ok());
  CHECK(warnings.str() == "");
  CHECK_FALSE(guard.warned());

  hz::CallOptions options;
  options.stream = true;
  auto reply = guard.call(request_with_tokens(800), options);
  REQUIRE(reply.ok());
  CHECK(reply->message.content == "ok");
  CHECK(warnings.str() == hz::stage::context_warning(800, 1000));
  CHECK(guard.warned());

  // Maior ainda, e passando da janela: o aviso não se repete.
  REQUIRE(guard.complete(request_with_tokens(1500)).ok());
  CHECK(warnings.str() == hz::stage::context_warning(800, 1000));
  // Tudo chegou ao modelo de verdade, com as opções.
  CHECK(inner.sizes == std::vector<std::size_t>{1, 1, 1});
  CHECK(inner.streamed == std::vector<bool>{true});
}

TEST_CASE("sem janela conhecida o guarda nunca avisa") {
  EchoModel inner;
  std::ostringstream warnings;
  ContextGuard guard(inner, 0, warnings);
  REQUIRE(guard.complete(request_with_tokens(100000)).ok());
  ContextGuard negative(inner, -5, warnings);
  REQUIRE(negative.complete(request_with_tokens(100000)).ok());
  CHECK(warnings.str() == "");
  CHECK(negative.window() == 0);
}

TEST_CASE("a janela descoberta é perguntada uma vez, depois da primeira chamada") {
  EchoModel inner;
  std::ostringstream warnings;
  int probes = 0;
  ContextGuard guard(inner, 0, warnings, false, counting_probe(probes, 1000L));
  // A primeira chamada não sabe a janela (o modelo ainda nem carregou).
  REQUIRE(guard.complete(request_with_tokens(900)).ok());
  CHECK(probes == 0);
  CHECK(warnings.str() == "");
  REQUIRE(guard.complete(request_with_tokens(900)).ok());
  CHECK(probes == 1);
  CHECK(guard.window() == 1000);
  CHECK(warnings.str() == hz::stage::context_warning(900, 1000));
  REQUIRE(guard.complete(request_with_tokens(100)).ok());
  CHECK(probes == 1);
}

TEST_CASE(
    "com a janela dada, a descoberta não é chamada; sem resposta, a janela fica desconhecida") {
  EchoModel inner;
  std::ostringstream warnings;
  int probes = 0;
  ContextGuard given(inner, 2000, warnings, false, counting_probe(probes, 10L));
  REQUIRE(given.complete(request_with_tokens(100)).ok());
  REQUIRE(given.complete(request_with_tokens(100)).ok());
  CHECK(probes == 0);
  CHECK(given.window() == 2000);

  ContextGuard unknown(inner, 0, warnings, false, [] { return 0L; });
  REQUIRE(unknown.complete(request_with_tokens(100)).ok());
  REQUIRE(unknown.complete(request_with_tokens(100000)).ok());
  CHECK(unknown.window() == 0);
  CHECK(warnings.str() == "");
}

TEST_CASE("a raiz do servidor é a URL base sem o /v1 e sem barras no fim") {
  CHECK(hz::stage::server_root("http://localhost:11434/v1") == "http://localhost:11434");
  CHECK(hz::stage::server_root("http://localhost:11434/v1/") == "http://localhost:11434");
  CHECK(hz::stage::server_root("http://localhost:11434") == "http://localhost:11434");
  CHECK(hz::stage::server_root("http://h/api/v2") == "http://h/api/v2");
}

TEST_CASE("/api/ps do Ollama: a janela alocada para o modelo carregado") {
  const std::string ps = R"({"models":[
    {"name":"llama3.2:3b","model":"llama3.2:3b","context_length":8192},
    {"name":"qwen3:latest","model":"qwen3:latest","size_vram":5,"context_length":4096}]})";
  CHECK(hz::stage::context_from_ollama_ps(ps, "qwen3") == 4096);
  CHECK(hz::stage::context_from_ollama_ps(ps, "qwen3:latest") == 4096);
  CHECK(hz::stage::context_from_ollama_ps(ps, "llama3.2:3b") == 8192);
  CHECK(hz::stage::context_from_ollama_ps(ps, "qwen3:8b") == 0);
  CHECK(hz::stage::context_from_ollama_ps(ps, "llama3.2") == 0);
  // Versões antigas não mandam context_length; lixo e números absurdos não contam.
  CHECK(hz::stage::context_from_ollama_ps(R"({"models":[{"name":"a"}]})", "a") == 0);
  CHECK(hz::stage::context_from_ollama_ps(R"({"models":[{"name":"a","context_length":-1}]})",
                                          "a") == 0);
  CHECK(hz::stage::context_from_ollama_ps(R"({"models":[{"name":"a","context_length":"4k"}]})",
                                          "a") == 0);
  CHECK(hz::stage::context_from_ollama_ps("<html>", "a") == 0);
  CHECK(hz::stage::context_from_ollama_ps(R"({"models":{}})", "a") == 0);
}

TEST_CASE("/api/show do Ollama: num_ctx do Modelfile e o máximo do modelo") {
  const auto shown = hz::stage::context_from_ollama_show(R"({
    "parameters":"stop \"<|im_end|>\"\nnum_ctx                        16384\ntemperature 0.6",
    "model_info":{"general.architecture":"qwen3","qwen3.context_length":40960}})");
  CHECK(shown.tokens == 16384);
  CHECK(shown.model_max == 40960);
  const auto plain = hz::stage::context_from_ollama_show(
      R"({"parameters":"temperature 0.6\nnum_ctx_extra 9","model_info":{"llama.context_length":131072}})");
  CHECK(plain.tokens == 0);
  CHECK(plain.model_max == 131072);
  // A linha do num_ctx: espaços e tabs em volta, \r\n, de 1 a 9 dígitos; o resto não conta.
  const auto tokens = [](const std::string& parameters) {
    return hz::stage::context_from_ollama_show(nlohmann::json{{"parameters", parameters}}.dump())
        .tokens;
  };
  CHECK(tokens("num_ctx 8192") == 8192);
  CHECK(tokens("temperature 0.6\r\n\t num_ctx\t4096 \r\nstop x") == 4096);
  CHECK(tokens("num_ctx 123456789") == 123456789);
  CHECK(tokens("num_ctx 1234567890") == 0);
  CHECK(tokens("num_ctx 12a") == 0);
  CHECK(tokens("num_ctx") == 0);
  CHECK(tokens("num_ctx8192") == 0);
  CHECK(tokens("# num_ctx 8192") == 0);
  CHECK(tokens("num_ctx -5\nnum_ctx 2048") == 2048);
  const auto broken = hz::stage::context_from_ollama_show("nada");
  CHECK(broken.tokens == 0);
  CHECK(broken.model_max == 0);
}

TEST_CASE("/models: a janela que vLLM e outros servidores anunciam por modelo") {
  const std::string models = R"({"object":"list","data":[
    {"id":"Qwen/Qwen3-8B","object":"model","max_model_len":32768},
    {"id":"local","loaded_context_length":8192,"max_context_length":131072},
    {"id":"openrouter/x","context_length":200000},
    {"id":"sem-nada"}]})";
  CHECK(hz::stage::context_from_models(models, "Qwen/Qwen3-8B") == 32768);
  CHECK(hz::stage::context_from_models(models, "local") == 8192);
  CHECK(hz::stage::context_from_models(models, "openrouter/x") == 200000);
  CHECK(hz::stage::context_from_models(models, "sem-nada") == 0);
  CHECK(hz::stage::context_from_models(models, "outro") == 0);
  CHECK(hz::stage::context_from_models("[]", "outro") == 0);
}

TEST_CASE("ask_ollama pergunta primeiro a /api/ps e, sem o modelo lá, usa o num_ctx de /api/show") {
  hz::testing::LocalServer server;
  std::string ps = R"({"models":[{"name":"qwen3:8b","context_length":4096}]})";
  std::vector<std::string> shown_bodies;
  server.http().Get("/api/ps", [&ps](const httplib::Request&, httplib::Response& res) {
    res.set_content(ps, "application/json");
  });
  server.http().Post("/api/show", [&shown_bodies](const httplib::Request& req,
                                                  httplib::Response& res) {
    shown_bodies.push_back(req.body);
    res.set_content(R"({"parameters":"num_ctx 8192","model_info":{"qwen3.context_length":40960}})",
                    "application/json");
  });
  server.start();
  hz::HttpClient http;

  const auto loaded = hz::stage::ask_ollama(http, server.url("/v1"), "qwen3:8b");
  CHECK(loaded.tokens == 4096);
  CHECK(loaded.model_max == 40960);
  CHECK(loaded.source == "Ollama, /api/ps");

  ps = R"({"models":[]})";
  const auto idle = hz::stage::ask_ollama(http, server.url("/v1/"), "qwen3:8b");
  CHECK(idle.tokens == 8192);
  CHECK(idle.source == "Ollama, num_ctx em /api/show");
  CHECK(shown_bodies ==
        std::vector<std::string>{R"({"model":"qwen3:8b"})", R"({"model":"qwen3:8b"})"});
}

TEST_CASE("ask_ollama num servidor que não é Ollama devolve a janela desconhecida") {
  hz::testing::LocalServer server;
  server.start();  // sem rotas: 404 em tudo
  hz::HttpClient http;
  const auto window = hz::stage::ask_ollama(http, server.url("/v1"), "m");
  CHECK(window.tokens == 0);
  CHECK(window.model_max == 0);
  CHECK(window.source == "");
}

namespace {

// Um servidor local com as rotas de um Ollama que interessam à janela:
// /api/version só se `ollama`, e /api/ps sempre (para provar que um servidor
// que não se diz Ollama não é perguntado sobre a janela).
struct FakeServer {
  explicit FakeServer(bool ollama) {
    if (ollama) {
      server.http().Get("/api/version", [](const httplib::Request&, httplib::Response& res) {
        res.set_content(R"({"version":"0.13.0"})", "application/json");
      });
    }
    server.http().Get("/api/ps", [this](const httplib::Request&, httplib::Response& res) {
      ++ps_hits;
      res.set_content(R"({"models":[{"name":"m","context_length":100}]})", "application/json");
    });
    server.http().Post("/v1/chat/completions", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"choices":[{"index":0,"message":{"role":"assistant",)"
                      R"("content":"ok"},"finish_reason":"stop"}]})",
                      "application/json");
    });
    server.start();
  }
  hz::testing::LocalServer server;
  int ps_hits = 0;
};

}  // namespace

TEST_CASE("server_window pergunta ao servidor se é um Ollama, em qualquer porta, sem olhar a URL") {
  FakeServer ollama(true);
  FakeServer other(false);
  // O cliente depois dos servidores: sai antes deles e fecha as conexões que
  // guardou. Saindo depois, cada servidor esperava 5 s pela conexão parada.
  hz::HttpClient http;
  CHECK(hz::stage::server_window(http, ollama.server.url("/v1"), "m") == 100);
  CHECK(ollama.ps_hits == 1);

  CHECK(hz::stage::server_window(http, other.server.url("/v1"), "m") == 0);
  CHECK(other.ps_hits == 0);
}

TEST_CASE(
    "guard_context: um Ollama numa porta qualquer dá a janela e o aviso, sem --context-window") {
  FakeServer ollama(true);
  hz::stage::CommonFlags flags;
  hz::stage::Session session;
  session.base_url = ollama.server.url("/v1");
  session.model_name = "m";
  session.client = std::make_unique<hz::OpenAiClient>(hz::EndpointConfig{session.base_url, "", {}});
  std::ostringstream warnings;
  const auto guard = hz::stage::guard_context(flags, session, warnings);
  REQUIRE(guard->complete(request_with_tokens(90)).ok());
  CHECK(warnings.str() == "");
  REQUIRE(guard->complete(request_with_tokens(90)).ok());
  CHECK(guard->window() == 100);
  CHECK(warnings.str() == hz::stage::context_warning(90, 100));
}
