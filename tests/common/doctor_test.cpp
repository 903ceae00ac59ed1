// hz-doctor (etapas/support/doctor): cada conferência contra um servidor
// roteirizado (mock-server/scenarios/doctor/*.json), linha por linha, e o
// executável de ponta a ponta.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "hz/stage/doctor.hpp"
#include "hz/testing/printing.hpp"
#include "hz/testing/process.hpp"
#include "hz/testing/scripted_model.hpp"
#include "local_server.hpp"

using hz::stage::Verdict;
using hz::testing::contains;
using hz::testing::ScriptedModel;

namespace {

struct DoctorRun {
  std::string out;
  int code;
  std::vector<std::string> failures;  // o que o mock registrou
};

DoctorRun doctor_on(const std::string& scenario, const std::string& model = "hz-mock") {
  ScriptedModel server = ScriptedModel::from_scenario(scenario);
  hz::stage::DoctorConfig config;
  config.base_url = server.base_url();
  config.model = model;
  config.http = server.endpoint().http;
  std::ostringstream out;
  const auto checks = hz::stage::run_doctor(config, out);
  std::string text = out.str();
  // A porta muda a cada execução.
  for (std::size_t at = text.find(server.base_url()); at != std::string::npos;
       at = text.find(server.base_url())) {
    text.replace(at, server.base_url().size(), "URL");
  }
  return {text, hz::stage::doctor_exit_code(checks), server.failures()};
}

// O fim de uma rodada: o código de saída e nenhum pedido fora do roteiro (os
// pedidos foram exatamente os que o roteiro espera, expect em cada passo).
void check_exit(const DoctorRun& r, int code) {
  CHECK(r.code == code);
  CHECK(r.failures == std::vector<std::string>{});
}

// check_exit com a linha do teste na falha: os CHECK de dentro apontam para
// esta função.
#define CHECK_EXIT(run, code)                        \
  do {                                               \
    INFO("o caso da linha ", __LINE__, " do teste"); \
    check_exit(run, code);                           \
  } while (false)

// O trecho aparece na saída do doctor? Numa falha, a saída inteira também.
#define CHECK_SHOWS(run, piece) CHECK_MESSAGE(contains((run).out, piece), (run).out)

const std::string kUnknownWindow =
    "? janela de contexto: desconhecida: este servidor não a informa. Se for pequena, ele pode "
    "descartar em silêncio o começo da conversa. Aumente nas configurações do servidor (no LM "
    "Studio, \"Context Length\" ao carregar o modelo; no vLLM, --max-model-len) e passe "
    "--context-window N às etapas (recomendado: 16384 ou mais)\n";

}  // namespace

TEST_CASE("doctor num servidor com tudo: uma linha ✓ por conferência e código 0") {
  const DoctorRun r = doctor_on("doctor/ok");
  CHECK(r.out ==
        "Conferindo URL com o modelo hz-mock:\n"
        "✓ servidor: GET /models respondeu com 1 modelo\n"
        "✓ modelo: hz-mock está na lista do servidor\n"
        "✓ chat: um pedido simples recebeu resposta\n"
        "✓ ferramentas: o modelo pediu read_file com argumentos JSON válidos "
        "({\"path\":\"notas.txt\"})\n"
        "✓ resultado de ferramenta: o modelo leu o resultado e respondeu com 4817\n"
        "✓ streaming: o texto chegou em 3 pedaços\n"
        "✓ stream_options: aceito\n"
        "✓ uso no streaming: o último pedaço traz o uso (include_usage respeitado)\n"
        "✓ streaming com ferramentas: a chamada de read_file chegou em pedaços, com argumentos "
        "JSON válidos\n"
        "✓ uso de tokens: as respostas informam prompt_tokens e completion_tokens\n" +
            kUnknownWindow + "Pronto para o curso.\n");
  CHECK_EXIT(r, 0);
}

TEST_CASE("doctor com um modelo sem ferramentas diz qual usar e sai com 1") {
  const DoctorRun r = doctor_on("doctor/no-tools");
  CHECK(r.out ==
        "Conferindo URL com o modelo hz-mock:\n"
        "✓ servidor: GET /models respondeu com 1 modelo\n"
        "✓ modelo: hz-mock está na lista do servidor\n"
        "✓ chat: um pedido simples recebeu resposta\n"
        "✗ ferramentas: o modelo respondeu em texto em vez de chamar read_file; use um modelo "
        "com suporte a ferramentas, como qwen3:8b (no Ollama, os da etiqueta \"tools\" em "
        "ollama.com/search)\n"
        "? resultado de ferramenta: não conferido (o modelo não chamou a ferramenta)\n"
        "✓ streaming: o texto chegou em 1 pedaço\n"
        "✓ stream_options: aceito\n"
        "✓ uso no streaming: o último pedaço traz o uso (include_usage respeitado)\n"
        "? streaming com ferramentas: não conferido (sem streaming o modelo não chamou a "
        "ferramenta)\n"
        "✓ uso de tokens: as respostas informam prompt_tokens e completion_tokens\n" +
            kUnknownWindow + "Não está pronto: 1 conferência obrigatória falhou (✗ acima).\n");
  CHECK_EXIT(r, 1);
}

TEST_CASE("doctor com argumentos que não são JSON mostra os argumentos e sai com 1") {
  const DoctorRun r = doctor_on("doctor/bad-arguments");
  CHECK_SHOWS(r,
              "✗ ferramentas: os argumentos de read_file não são um objeto JSON válido: "
              "{\"path\": \"notas.txt\". O harness devolve o erro ao modelo, mas um modelo "
              "que erra no primeiro pedido vai errar muito: use um modelo com suporte a "
              "ferramentas, como qwen3:8b");
  CHECK_EXIT(r, 1);
}

TEST_CASE("doctor num servidor com peculiaridades: avisos que o harness contorna e código 0") {
  const DoctorRun r = doctor_on("doctor/quirks");
  CHECK(r.out ==
        "Conferindo URL com o modelo hz-mock:\n"
        "✓ servidor: GET /models respondeu com 1 modelo\n"
        "✓ modelo: hz-mock está na lista do servidor\n"
        "✓ chat: um pedido simples recebeu resposta\n"
        "✓ ferramentas: o modelo pediu read_file com argumentos JSON válidos "
        "({\"path\":\"notas.txt\"})\n"
        "✓ resultado de ferramenta: o modelo leu o resultado e respondeu com 4817\n"
        "✓ streaming: o texto chegou em 3 pedaços\n"
        "~ stream_options: recusado (HTTP 400: Unrecognized request argument supplied: "
        "stream_options); o harness refaz o pedido sem streaming e segue assim, nada a fazer (as "
        "respostas só aparecem inteiras)\n"
        "? uso no streaming: não conferido (stream_options recusado)\n"
        "~ streaming com ferramentas: o servidor perde as tool calls no streaming (finish_reason "
        "\"tool_calls\" sem nenhuma); o harness refaz o pedido sem streaming e segue assim, nada "
        "a fazer\n"
        "~ uso de tokens: o servidor não informa o uso; o trace e as contas de tokens e custo "
        "ficam sem os números de verdade (não impede o curso)\n" +
            kUnknownWindow +
            "Pronto para o curso, com 3 avisos que o harness contorna (~ acima).\n");
  CHECK_EXIT(r, 0);
}

TEST_CASE("doctor vê include_usage ignorado e o resultado de ferramenta que o modelo não cita") {
  const DoctorRun r = doctor_on("doctor/stream-no-usage");
  CHECK_SHOWS(r,
              "? resultado de ferramenta: o modelo respondeu, mas sem o número do resultado "
              "(4817): ele pode ter ignorado a mensagem \"tool\"\n");
  CHECK_SHOWS(r,
              "~ uso no streaming: o servidor ignora include_usage; o harness desliga o "
              "streaming para ter o uso de verdade, nada a fazer\n");
  CHECK_SHOWS(r,
              "? streaming com ferramentas: desta vez o modelo respondeu em texto; não deu "
              "para conferir\n");
  CHECK_SHOWS(r, "✓ uso de tokens:");
  CHECK_EXIT(r, 0);
}

TEST_CASE("doctor com HTTP 500 no streaming com ferramentas: impede e manda usar --no-stream") {
  // O @dwmkerr/mock-llm faz isto: o doctor dizia "Pronto para o curso" (código 0) e a
  // etapa terminava em provider_error depois de 3 tentativas. O harness só contorna a
  // recusa (400); um 5xx é o erro de um servidor sobrecarregado, que as novas tentativas tratam.
  const DoctorRun r = doctor_on("doctor/stream-tools-error");
  CHECK_SHOWS(r,
              "\n✗ streaming com ferramentas: o servidor respondeu HTTP 500: streaming com "
              "ferramentas não implementado, e o mesmo pedido sem streaming deu certo; o "
              "harness só troca para pedidos sem streaming quando o servidor recusa o "
              "streaming (HTTP 400), então as etapas parariam aqui (provider_error). Rode as "
              "etapas 02 a 04 com --no-stream (a 01 não usa streaming)\n");
  CHECK_SHOWS(r, "Não está pronto: 1 conferência obrigatória falhou (✗ acima).\n");
  CHECK_EXIT(r, 1);
}

TEST_CASE("doctor pergunta ao servidor se é um Ollama e a janela de 4096 é coisa a fazer") {
  // A porta do mock não é a 11434 e o nome não tem "ollama": só /api/version diz.
  const DoctorRun r = doctor_on("doctor/ollama-small-window");
  CHECK_SHOWS(r,
              "\n! janela de contexto: 4096 tokens (Ollama, /api/ps). É pouco para um "
              "agente: o histórico passa disso em poucas voltas, e o servidor descarta em "
              "silêncio o começo da conversa. Aumente com OLLAMA_CONTEXT_LENGTH=32768 ollama "
              "serve (ou PARAMETER num_ctx 32768 num Modelfile) e passe --context-window "
              "32768 às etapas (recomendado: 16384 ou mais)\nPronto para o curso, com 1 "
              "coisa a fazer (! acima).\n");
  CHECK_EXIT(r, 0);
}

TEST_CASE("doctor num servidor sem uso nenhum não diz que desligar o streaming traz o uso") {
  const DoctorRun r = doctor_on("doctor/no-usage");
  CHECK_SHOWS(r,
              "\n~ uso no streaming: não vem, mas o servidor também não informa o uso sem "
              "streaming (uso de tokens, abaixo); o harness desliga o streaming na primeira "
              "resposta e estima o uso, nada a fazer\n");
  CHECK_SHOWS(r, "\n~ uso de tokens: o servidor não informa o uso");
  CHECK_SHOWS(r, "Pronto para o curso, com 2 avisos que o harness contorna (~ acima).\n");
  CHECK_EXIT(r, 0);
}

TEST_CASE("doctor com um modelo que o servidor não tem para na lista e sai com 1") {
  const DoctorRun r = doctor_on("doctor/ok", "qwen3:8b");
  CHECK(r.out ==
        "Conferindo URL com o modelo qwen3:8b:\n"
        "✓ servidor: GET /models respondeu com 1 modelo\n"
        "✗ modelo: qwen3:8b não está na lista do servidor (hz-mock). No Ollama, baixe com ollama "
        "pull qwen3:8b; nos outros servidores, use em --model um nome da lista\n"
        "Não está pronto: 1 conferência obrigatória falhou (✗ acima).\n");
  CHECK(r.code == 1);
}

TEST_CASE("doctor com o servidor fora do ar diz como subir e para") {
  hz::stage::DoctorConfig config;
  config.base_url = "http://127.0.0.1:1/v1";
  config.model = "m";
  std::ostringstream out;
  const auto checks = hz::stage::run_doctor(config, out);
  REQUIRE(checks.size() == 1);
  CHECK(checks[0].verdict == Verdict::problem);
  CHECK(checks[0].text.rfind("não foi possível conectar a http://127.0.0.1:1/v1/models", 0) == 0);
  CHECK(checks[0].text.find(". Confira se ele está de pé (Ollama: ollama serve; LM Studio: "
                            "Developer → Start Server) e se --base-url termina em /v1, como "
                            "http://localhost:11434/v1") != std::string::npos);
  CHECK(hz::stage::doctor_exit_code(checks) == 1);
}

TEST_CASE("doctor com a chave recusada diz onde pôr a chave") {
  hz::testing::LocalServer server;
  std::vector<std::string> auth;
  server.http().Get("/v1/models", [&auth](const httplib::Request& req, httplib::Response& res) {
    auth.push_back(req.get_header_value("Authorization"));
    res.status = 401;
    res.set_content(
        R"({"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}})",
        "application/json");
  });
  server.start();
  hz::stage::DoctorConfig config;
  config.base_url = server.url("/v1");
  config.model = "gpt-4o-mini";
  config.api_key = "sk-errada";
  std::ostringstream out;
  const auto checks = hz::stage::run_doctor(config, out);
  CHECK(out.str() ==
        "Conferindo " + server.url("/v1") +
            " com o modelo gpt-4o-mini:\n"
            "✗ servidor: recusou a chave (HTTP 401: Incorrect API key provided). Passe a chave "
            "certa com --api-key CHAVE ou OPENAI_API_KEY\n"
            "Não está pronto: 1 conferência obrigatória falhou (✗ acima).\n");
  CHECK(auth == std::vector<std::string>{"Bearer sk-errada"});
}

TEST_CASE("a janela de contexto: boa, pequena ou desconhecida, com o conselho do servidor") {
  hz::stage::ContextWindow big{32768, 40960, "Ollama, /api/ps"};
  const auto ok = hz::stage::context_check(big, true);
  CHECK(ok.verdict == Verdict::ok);
  CHECK(ok.required == false);
  CHECK(hz::stage::check_line(ok, false) ==
        "✓ janela de contexto: 32768 tokens (Ollama, /api/ps); o modelo aceita até 40960");

  hz::stage::ContextWindow small{4096, 40960, "Ollama, /api/ps"};
  CHECK(hz::stage::check_line(hz::stage::context_check(small, true), false) ==
        "! janela de contexto: 4096 tokens (Ollama, /api/ps); o modelo aceita até 40960. É pouco "
        "para um agente: o histórico passa disso em poucas voltas, e o servidor descarta em "
        "silêncio o começo da conversa. Aumente com OLLAMA_CONTEXT_LENGTH=32768 ollama serve (ou "
        "PARAMETER num_ctx 32768 num Modelfile) e passe --context-window 32768 às etapas "
        "(recomendado: 16384 ou mais)");

  hz::stage::ContextWindow unknown{0, 131072, ""};
  CHECK(hz::stage::check_line(hz::stage::context_check(unknown, true), false) ==
        "? janela de contexto: o Ollama não disse a janela em uso; o modelo aceita até 131072. "
        "Sem configurar, ele usa a janela padrão do servidor (nas versões recentes, 4096 tokens "
        "com menos de 24 GiB de memória de vídeo; 2048 nas antigas), pequena para um agente. "
        "Aumente com OLLAMA_CONTEXT_LENGTH=32768 ollama serve (ou PARAMETER num_ctx 32768 num "
        "Modelfile) e passe --context-window 32768 às etapas");

  hz::stage::ContextWindow vllm{8192, 0, "GET /models"};
  CHECK(hz::stage::check_line(hz::stage::context_check(vllm, false), false)
            .rfind("! janela de contexto: 8192 tokens (GET /models). É pouco para um agente", 0) ==
        0);
}

TEST_CASE("a cara do Ollama em /models: owned_by library") {
  CHECK(hz::stage::models_look_like_ollama(
      R"({"object":"list","data":[{"id":"qwen3:8b","object":"model","owned_by":"library"}]})"));
  CHECK_FALSE(
      hz::stage::models_look_like_ollama(R"({"data":[{"id":"hz-mock","owned_by":"hz-mock"}]})"));
  CHECK_FALSE(hz::stage::models_look_like_ollama("não é json"));
}

TEST_CASE("as linhas do doctor têm cor só quando pedida") {
  const hz::stage::Check check{Verdict::problem, true, "chat", "falhou"};
  CHECK(hz::stage::check_line(check, false) == "✗ chat: falhou");
  CHECK(hz::stage::check_line(check, true) == "\x1b[31m✗\x1b[0m chat: falhou");
}

TEST_CASE("hz-doctor de ponta a ponta: uso, ajuda e um servidor roteirizado") {
  const std::string bin = hz::testing::bin_path("hz-doctor").string();
  const std::vector<std::string> env = {"OPENAI_BASE_URL=", "OPENAI_API_KEY=", "NO_COLOR=1"};
  const auto missing = hz::testing::run_program({bin, "--base-url", "http://x/v1"}, "", env);
  CHECK(missing.exit_code == 2);
  CHECK(missing.err ==
        "hz-doctor: falta --model (ex.: --model qwen3:8b)\nUse hz-doctor --help para ver as "
        "opções.\n");
  const auto no_url = hz::testing::run_program({bin, "--model", "m"}, "", env);
  CHECK(no_url.exit_code == 2);
  const auto help = hz::testing::run_program({bin, "--help"}, "", env);
  CHECK(help.exit_code == 0);
  CHECK(contains(help.out, "--base-url URL"));

  ScriptedModel server = ScriptedModel::from_scenario("doctor/ok");
  const auto run = hz::testing::run_program(
      {bin, "--model", "hz-mock", "--timeout", "10"}, "",
      {"OPENAI_BASE_URL=" + server.base_url(), "OPENAI_API_KEY=", "NO_COLOR=1"});
  CHECK(run.err == "");
  CHECK(run.out.rfind("Conferindo " + server.base_url() + " com o modelo hz-mock:\n", 0) == 0);
  CHECK(contains(run.out, "\nPronto para o curso.\n"));
  CHECK(run.exit_code == 0);
}
