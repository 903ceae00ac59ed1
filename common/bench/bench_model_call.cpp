// hz-bench: quanto custa uma chamada ao modelo contra o mock no loopback.
//
// A meta do curso é mediana abaixo de 200 us. O número que
// importa é o do cliente reutilizado (um handle do curl, conexão keep-alive);
// o segundo número, com um cliente novo por chamada, mostra o que se perde
// abrindo uma conexão TCP a cada pedido.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "hz/chat_client.hpp"
#include "hz/cli.hpp"
#include "hz/mock/mock_server.hpp"
#include "hz/mock/scenario.hpp"
#include "hz/tools.hpp"
#include "hz/workspace.hpp"

namespace {

using Clock = std::chrono::steady_clock;

constexpr double kTargetMedianUs = 200.0;

// Uma resposta curta de texto, para sempre: mede o encanamento, não o roteiro.
constexpr const char* kScenario = R"({
  "name": "bench",
  "description": "resposta curta repetida para medir a chamada",
  "prompt": "",
  "steps": [
    {"content": "ok", "usage": {"prompt_tokens": 120, "completion_tokens": 2},
     "repeat": "forever"}
  ]
})";

struct Stats {
  double median = 0, p90 = 0, p99 = 0, min = 0, max = 0;
};

double percentile(const std::vector<double>& sorted, double p) {
  const auto index = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(index, sorted.size() - 1)];
}

Stats summarize(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  return {percentile(samples, 0.5), percentile(samples, 0.9), percentile(samples, 0.99),
          samples.front(), samples.back()};
}

void print(const char* title, int calls, const Stats& s) {
  std::printf("%s (%d chamadas)\n", title, calls);
  std::printf("  mediana %9.1f us\n", s.median);
  std::printf("  p90     %9.1f us\n", s.p90);
  std::printf("  p99     %9.1f us\n", s.p99);
  std::printf("  mínimo  %9.1f us\n", s.min);
  std::printf("  máximo  %9.1f us\n", s.max);
}

// Um pedido parecido com o de um turno de verdade: sistema, usuário e as
// cinco ferramentas básicas (o JSON Schema delas entra no corpo).
hz::ChatRequest sample_request() {
  hz::ChatRequest request;
  request.model = "hz-mock";
  request.messages = {hz::Message::system("Você é um agente de programação."),
                      hz::Message::user("Rode os testes e corrija o que falhar.")};
  for (const hz::Tool& tool : hz::basic_tools(hz::Workspace("."))) {
    request.tools.push_back(tool.schema);
  }
  return request;
}

// Devolve as latências em microssegundos, ou vazio se alguma chamada falhou.
template <class Call>
std::vector<double> measure(int calls, Call&& call) {
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(calls));
  for (int i = 0; i < calls; ++i) {
    const auto start = Clock::now();
    if (!call()) return {};
    const auto elapsed = Clock::now() - start;
    samples.push_back(std::chrono::duration<double, std::micro>(elapsed).count());
  }
  return samples;
}

int run(int argc, char** argv) {
  int calls = 2000;
  int warmup = 200;
  int fresh_calls = 300;
  bool strict = false;
  hz::FlagParser flags(
      "hz-bench",
      "Mede a latência de uma chamada ao modelo (OpenAiClient::complete) contra o mock\n"
      "no loopback. Meta: mediana < 200 us com o cliente reutilizado. Também mede um\n"
      "cliente novo por chamada, para mostrar o custo de não reaproveitar a conexão.\n"
      "Sai com 0 mesmo se a meta falhar (a máquina pode estar ocupada); com --strict,\n"
      "sai com 1 quando a mediana passa da meta. Erro de uso: 2; chamada que falha: 1.");
  flags.add_int("calls", &calls, "chamadas medidas com o cliente reutilizado (padrão 2000)");
  flags.add_int("warmup", &warmup, "chamadas de aquecimento, não medidas (padrão 200)");
  flags.add_int("fresh-calls", &fresh_calls,
                "chamadas medidas com um cliente novo por chamada (padrão 300; 0 pula)");
  flags.add_bool("strict", &strict, "sai com 1 se a mediana passar da meta");
  auto parsed = flags.parse(argc, argv);
  if (!parsed) {
    std::cerr << "hz-bench: " << parsed.error().message << "\n";
    return 2;
  }
  if (*parsed) {
    std::cout << flags.usage();
    return 0;
  }
  if (calls < 1 || warmup < 0 || fresh_calls < 0) {
    std::cerr << "hz-bench: --calls precisa ser >= 1; --warmup e --fresh-calls, >= 0\n";
    return 2;
  }

  auto scenario = hz::mock::parse_scenario(kScenario, "bench");
  if (!scenario) {
    std::cerr << "hz-bench: " << scenario.error().message << "\n";
    return 1;
  }
  hz::mock::MockServer server(std::move(scenario).value());
  auto port = server.start();
  if (!port) {
    std::cerr << "hz-bench: o mock não subiu: " << port.error().message << "\n";
    return 1;
  }

  hz::EndpointConfig endpoint;
  endpoint.base_url = server.base_url();
  const hz::ChatRequest request = sample_request();
  std::string failure;
  auto call_with = [&](hz::OpenAiClient& client) {
    auto reply = client.complete(request);
    if (!reply) failure = reply.error().message;
    return reply.ok();
  };

  hz::OpenAiClient client(endpoint);
  for (int i = 0; i < warmup; ++i) {
    if (!call_with(client)) break;
  }
  std::vector<double> reused;
  if (failure.empty()) reused = measure(calls, [&] { return call_with(client); });
  if (reused.empty()) {
    std::cerr << "hz-bench: chamada falhou: " << failure << "\n";
    return 1;
  }

  std::printf("hz-bench: chamadas a %s/chat/completions\n\n", server.base_url().c_str());
  const Stats stats = summarize(reused);
  print("cliente reutilizado (um handle do curl, conexão keep-alive)", calls, stats);
  const bool passed = stats.median < kTargetMedianUs;
  std::printf("  meta: mediana < %.0f us -> %s\n", kTargetMedianUs, passed ? "PASSOU" : "FALHOU");

  if (fresh_calls > 0) {
    const std::vector<double> fresh = measure(fresh_calls, [&] {
      hz::OpenAiClient once(endpoint);
      return call_with(once);
    });
    if (fresh.empty()) {
      std::cerr << "hz-bench: chamada falhou: " << failure << "\n";
      return 1;
    }
    const Stats fresh_stats = summarize(fresh);
    std::printf("\n");
    print("cliente novo por chamada (conexão TCP nova a cada pedido)", fresh_calls, fresh_stats);
    std::printf("  %.1fx a mediana do cliente reutilizado\n", fresh_stats.median / stats.median);
  }
  return strict && !passed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "hz-bench: " << e.what() << "\n";
    return 1;
  }
}
