// hz-bench: quanto custa uma chamada ao modelo contra o mock no loopback.
//
// As metas: mediana abaixo de 200 us e no máximo 2x o pedido feito com o
// libcurl puro ao mesmo servidor, medido na mesma execução. Mede, intercalados
// na mesma rodada (a mesma carga da máquina vale para os três): o libcurl
// puro, OpenAiClient::complete e a chamada com streaming (OpenAiClient::call
// com stream). Depois, um cliente novo por chamada, para mostrar o que se
// perde abrindo uma conexão TCP a cada pedido. Com a etapa 04 nas soluções,
// uma seção do journal no fim (bench_journal.hpp).
#include <curl/curl.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#ifdef HZ_BENCH_JOURNAL
#include "bench_journal.hpp"
#endif
#include "hz/chat_client.hpp"
#include "hz/cli.hpp"
#include "hz/mock/mock_server.hpp"
#include "hz/mock/scenario.hpp"
#include "hz/tools.hpp"
#include "hz/workspace.hpp"

namespace {

using Clock = std::chrono::steady_clock;

constexpr double kTargetMedianUs = 200.0;
constexpr double kTargetRatio = 2.0;

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

double elapsed_us(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// Devolve as latências em microssegundos, ou vazio se alguma chamada falhou.
template <class Call>
std::vector<double> measure(int calls, Call&& call) {
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(calls));
  for (int i = 0; i < calls; ++i) {
    const auto start = Clock::now();
    if (!call()) return {};
    samples.push_back(elapsed_us(start));
  }
  return samples;
}

// O piso: o mesmo POST com o libcurl puro, um handle reutilizado (keep-alive),
// sem nada do nosso cliente (sem JSON, sem cabeçalhos extras, sem laço multi).
class BareCurl {
 public:
  BareCurl(const std::string& url, const std::string& body) : url_(url), body_(body) {
    curl_ = curl_easy_init();
    headers_ = curl_slist_append(headers_, "Content-Type: application/json");
    headers_ = curl_slist_append(headers_, "Expect:");
    curl_easy_setopt(curl_, CURLOPT_URL, url_.c_str());
    curl_easy_setopt(curl_, CURLOPT_HTTPHEADER, headers_);
    curl_easy_setopt(curl_, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl_, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(curl_, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(curl_, CURLOPT_POSTFIELDS, body_.data());
    curl_easy_setopt(curl_, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body_.size()));
    curl_easy_setopt(curl_, CURLOPT_WRITEFUNCTION, &BareCurl::write);
    curl_easy_setopt(curl_, CURLOPT_WRITEDATA, &response_);
  }
  ~BareCurl() {
    curl_slist_free_all(headers_);
    curl_easy_cleanup(curl_);
  }
  BareCurl(const BareCurl&) = delete;
  BareCurl& operator=(const BareCurl&) = delete;

  bool post() {
    response_.clear();
    long status = 0;
    if (curl_easy_perform(curl_) != CURLE_OK) return false;
    curl_easy_getinfo(curl_, CURLINFO_RESPONSE_CODE, &status);
    return status == 200;
  }

 private:
  static size_t write(char* data, size_t size, size_t count, void* user) {
    static_cast<std::string*>(user)->append(data, size * count);
    return size * count;
  }

  std::string url_;
  std::string body_;
  std::string response_;
  CURL* curl_ = nullptr;
  curl_slist* headers_ = nullptr;
};

int run(int argc, char** argv) {
  int calls = 2000;
  int warmup = 200;
  int fresh_calls = 300;
  bool strict = false;
#ifdef HZ_BENCH_JOURNAL
  std::string journal_dir;
  int journal_steps = 200;
#endif
  hz::FlagParser flags(
      "hz-bench",
      "Mede a latência de uma chamada ao modelo contra o mock no loopback, na mesma\n"
      "rodada: o libcurl puro (o piso), OpenAiClient::complete e a chamada com streaming.\n"
      "Metas: mediana de complete < 200 us e no máximo 2x a do libcurl puro. Também mede\n"
      "um cliente novo por chamada, para mostrar o custo de não reaproveitar a conexão.\n"
      "Sai com 0 mesmo se uma meta falhar (a máquina pode estar ocupada); com --strict,\n"
      "sai com 1 quando alguma falha. Erro de uso: 2; chamada que falha: 1.");
  flags.add_int("calls", &calls, "chamadas medidas de cada tipo (padrão 2000)");
  flags.add_int("warmup", &warmup,
                "chamadas de aquecimento de cada tipo, não medidas (padrão 200)");
  flags.add_int("fresh-calls", &fresh_calls,
                "chamadas medidas com um cliente novo por chamada (padrão 300; 0 pula)");
  flags.add_bool("strict", &strict, "sai com 1 se alguma meta falhar");
#ifdef HZ_BENCH_JOURNAL
  flags.add_string("journal-dir", &journal_dir,
                   "pasta da seção do journal (padrão: a atual; um tmpfs não mede o disco)",
                   "PASTA");
  flags.add_int("journal-steps", &journal_steps,
                "passos duráveis medidos na seção do journal (padrão 200; 0 pula a seção)");
#endif
  auto parsed = flags.parse(argc, argv);
  if (!parsed) {
    std::cerr << "hz-bench: " << parsed.error().message << "\n";
    return 2;
  }
  if (*parsed) {
    std::cout << flags.answer();
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
  auto complete_with = [&](hz::OpenAiClient& client) {
    auto reply = client.complete(request);
    if (!reply) failure = reply.error().message;
    return reply.ok();
  };
  hz::CallOptions stream_options;
  stream_options.stream = true;
  std::size_t streamed_bytes = 0;
  stream_options.on_text = [&streamed_bytes](std::string_view text) {
    streamed_bytes += text.size();
  };
  auto stream_with = [&](hz::OpenAiClient& client) {
    auto reply = client.call(request, stream_options);
    if (!reply) {
      failure = reply.error().message;
    } else if (!reply->streamed) {
      failure = "a resposta não veio por streaming: " + reply->fallback;
    }
    return reply.ok() && reply->streamed;
  };

  BareCurl bare(server.base_url() + "/chat/completions", hz::encode_request(request));
  hz::OpenAiClient plain_client(endpoint);
  hz::OpenAiClient stream_client(endpoint);
  auto bare_call = [&] {
    if (!bare.post()) failure = "o libcurl puro não recebeu 200";
    return failure.empty();
  };
  auto plain_call = [&] { return complete_with(plain_client); };
  auto stream_call = [&] { return stream_with(stream_client); };

  for (int i = 0; i < warmup && failure.empty(); ++i) {
    if (!bare_call() || !plain_call() || !stream_call()) break;
  }
  // Intercalados: uma chamada de cada por rodada.
  std::array<std::vector<double>, 3> samples;
  for (auto& kind : samples) kind.reserve(static_cast<std::size_t>(calls));
  for (int i = 0; i < calls && failure.empty(); ++i) {
    auto start = Clock::now();
    if (!bare_call()) break;
    samples[0].push_back(elapsed_us(start));
    start = Clock::now();
    if (!plain_call()) break;
    samples[1].push_back(elapsed_us(start));
    start = Clock::now();
    if (!stream_call()) break;
    samples[2].push_back(elapsed_us(start));
  }
  if (!failure.empty()) {
    std::cerr << "hz-bench: chamada falhou: " << failure << "\n";
    return 1;
  }

  std::printf("hz-bench: chamadas a %s/chat/completions\n\n", server.base_url().c_str());
  const Stats bare_stats = summarize(samples[0]);
  const Stats plain_stats = summarize(samples[1]);
  const Stats stream_stats = summarize(samples[2]);
  print("libcurl puro (o piso: um handle, keep-alive, sem JSON)", calls, bare_stats);
  std::printf("\n");
  print("OpenAiClient::complete (cliente reutilizado, sem streaming)", calls, plain_stats);
  const bool fast = plain_stats.median < kTargetMedianUs;
  const double ratio = plain_stats.median / bare_stats.median;
  const bool close = ratio <= kTargetRatio;
  std::printf("  meta: mediana < %.0f us -> %s\n", kTargetMedianUs, fast ? "PASSOU" : "FALHOU");
  std::printf("  meta: <= %.0fx o libcurl puro -> %.2fx, %s\n", kTargetRatio, ratio,
              close ? "PASSOU" : "FALHOU");
  std::printf("\n");
  print("OpenAiClient::call com streaming (SSE, uso no fim)", calls, stream_stats);
  std::printf("  %.2fx a mediana do libcurl puro; %.2fx a de complete\n",
              stream_stats.median / bare_stats.median, stream_stats.median / plain_stats.median);

  if (fresh_calls > 0) {
    const std::vector<double> fresh = measure(fresh_calls, [&] {
      hz::OpenAiClient once(endpoint);
      return complete_with(once);
    });
    if (fresh.empty()) {
      std::cerr << "hz-bench: chamada falhou: " << failure << "\n";
      return 1;
    }
    const Stats fresh_stats = summarize(fresh);
    std::printf("\n");
    print("cliente novo por chamada (conexão TCP nova a cada pedido)", fresh_calls, fresh_stats);
    std::printf("  %.1fx a mediana do cliente reutilizado\n",
                fresh_stats.median / plain_stats.median);
  }
  bool journal_ok = true;
#ifdef HZ_BENCH_JOURNAL
  if (journal_steps > 0) {
    std::printf("\n");
    journal_ok = run_journal_bench(
        journal_dir.empty() ? std::filesystem::current_path() : std::filesystem::path(journal_dir),
        journal_steps);
  }
#endif
  return strict && !(fast && close && journal_ok) ? 1 : 0;
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
