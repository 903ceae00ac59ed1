// Ponta a ponta: o executável hz-02-brakes de verdade, contra os cenários dos
// freios (mock-server/scenarios/brakes/) ou contra um ScriptedModel do teste
// via --base-url. O único teste com um SIGINT de verdade está aqui.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "hz/testing/process.hpp"
#include "hz/testing/scripted_model.hpp"
#include "hz/testing/stubs.hpp"
#include "hz/testing/temp_dir.hpp"

using hz::testing::contains;
using hz::testing::ProcessResult;
using hz::testing::ScriptedModel;
using hz::testing::TempDir;
using nlohmann::json;

namespace {

const std::vector<std::string> kCleanEnv{"OPENAI_BASE_URL=", "OPENAI_API_KEY=", "NO_COLOR=1"};

// Roda hz-02-brakes sem herdar um endpoint do ambiente de quem roda os testes.
ProcessResult run_stage(std::vector<std::string> args, const std::string& stdin_text = "") {
  args.insert(args.begin(), hz::testing::bin_path("hz-02-brakes").string());
  return hz::testing::run_program(args, stdin_text, kCleanEnv);
}

// A linha "■ desfecho: ..." de um stderr (vazia se não houver).
std::string outcome_line(const std::string& err) {
  const std::size_t start = err.find("■ desfecho:");
  if (start == std::string::npos) return "";
  return err.substr(start, err.find('\n', start) - start);
}

// A última linha não vazia de um texto.
std::string last_line(const std::string& text) {
  std::size_t end = text.find_last_not_of('\n');
  if (end == std::string::npos) return "";
  const std::size_t start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1,
                     end - (start == std::string::npos ? 0 : start + 1) + 1);
}

// Roda hz-02-brakes num shell e manda o sinal `signal` (INT, TERM, HUP),
// `times` vezes seguidas, assim que a condição de shell `ready` valer. Devolve
// o stderr, seguido de "código: N" e do que `after` (shell, depois do wait)
// imprimir. O stdin vem de `input` (um arquivo); o shell olha `ready` a cada
// 20 ms, por no máximo 10 s, ou até o processo sair sozinho (um stub).
ProcessResult signal_when(const std::vector<std::string>& args, const std::string& signal,
                          const std::string& ready, const std::string& input, const TempDir& dir,
                          int times = 1, const std::string& after = "") {
  std::string command = "'" + hz::testing::bin_path("hz-02-brakes").string() + "'";
  for (const std::string& arg : args) command += " '" + arg + "'";
  const std::string err = (dir / "err.txt").string();
  const std::string in = dir.write("in.txt", input).string();
  const std::string out = (dir / "out.txt").string();
  std::string script = hz::testing::signal_script(
      command + " <'" + in + "' >'" + out + "' 2>'" + err + "'", signal, ready, times);
  script += "cat '" + err + "'; echo \"código: $code\"\n" + after;
  return hz::testing::run_program({"/bin/sh", "-c", script}, "", kCleanEnv);
}

// SIGINT assim que o stderr mostrar `marker`.
ProcessResult interrupt_when(const std::vector<std::string>& args, const std::string& marker,
                             const std::string& input, const TempDir& dir) {
  return signal_when(args, "INT", "grep -q '" + marker + "' '" + (dir / "err.txt").string() + "'",
                     input, dir);
}

// Um modelo que pede um run_shell demorado: o comando guarda o pid de um
// filho em segundo plano (do mesmo grupo) em `pid` e espera por ele.
// `content`: a resposta para o pedido seguinte, se houver.
std::string slow_command_scenario(const std::string& follow_up = "") {
  std::string scenario = R"({"name": "lento", "steps": [
    {"tool_calls": [{"id": "s", "name": "run_shell",
                     "arguments": {"command": "sleep 30 & echo $! > pid; wait"}}]})";
  if (!follow_up.empty()) scenario += R"(, {"content": ")" + follow_up + R"("})";
  return scenario + "]}";
}

// Depois do wait: o filho do comando ainda está vivo?
std::string command_alive(const TempDir& dir) {
  return hz::testing::child_state_script(dir / "pid");
}

}  // namespace

TEST_CASE("o demo de segunda-feira continua consertando o teste, agora com streaming") {
  const auto result = run_stage({});
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 0);
  CHECK(contains(result.out, "Pronto: o test_login passa."));
  CHECK(contains(result.err,
                 "limites: 20 chamadas por turno · sem orçamento · preço "
                 "desconhecido · 2 novas tentativas · streaming"));
  CHECK(last_line(result.err) ==
        "■ desfecho: success · 5 chamadas ao modelo · 3277 tokens · custo desconhecido");
}

TEST_CASE("o laço caro para em budget com código 4 e o gasto exato") {
  const auto result = run_stage({"--scenario", "brakes/budget", "--budget-usd", "0.09",
                                 "--price-input", "2", "--price-output", "8"});
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 4);
  CHECK(result.out.empty());
  CHECK(contains(result.err,
                 "■ desfecho: budget · 4 chamadas ao modelo · 49200 tokens · "
                 "US$ 0.1056\n"));
  CHECK(contains(result.err, "orçamento da conversa: US$ 0.1056 de US$ 0.09 gastos"));
  CHECK(contains(result.err, "⚑ nota ao modelo: [nota do harness: restam US$ 0.0108"));
  CHECK(contains(result.err, "⊘ run_shell não rodou (budget)"));
}

// Um modelo que lê o mesmo arquivo para sempre, com o "usage" dado em cada
// resposta (vazio: o passo não manda "usage"), contra um teto de US$ 0.01 a
// US$ 2 / US$ 8 por milhão. Devolve o resultado e quantos pedidos chegaram.
std::pair<ProcessResult, std::size_t> spend_with_usage(const std::string& usage,
                                                       const std::string& quirks = "[]") {
  const TempDir dir;
  dir.write("a.txt", "a\n");
  ScriptedModel model(R"({"name": "gasto", "quirks": )" + quirks + R"(, "steps": [{
    "tool_calls": [{"name": "read_file", "arguments": {"path": "a.txt"}}],)" +
                      (usage.empty() ? "" : R"("usage": )" + usage + ",") +
                      R"("repeat": "forever"}]})");
  auto result = run_stage({"--base-url", model.base_url(), "--model", "m", "--workspace",
                           dir.path().string(), "--prompt", "leia", "--max-turns", "40",
                           "--budget-usd", "0.01", "--price-input", "2", "--price-output", "8"});
  return {result, model.request_bodies().size()};
}

TEST_CASE("usage vazio ou zerado não passa pelo orçamento: para como sem usage, estimado") {
  const auto none_run = spend_with_usage("", R"(["no_usage"])");
  const ProcessResult& none = none_run.first;
  const std::size_t none_calls = none_run.second;
  hz::testing::throw_if_stubbed(none);
  CAPTURE(none.err);
  CHECK(none.exit_code == 4);
  CHECK(contains(outcome_line(none.err), "■ desfecho: budget"));
  CHECK(contains(outcome_line(none.err), "(estimado)"));
  CHECK(none_calls < 40);
  for (const std::string usage : {"{}", R"({"prompt_tokens": 0, "completion_tokens": 0})"}) {
    CAPTURE(usage);
    const auto run = spend_with_usage(usage);
    const ProcessResult& result = run.first;
    const std::size_t calls = run.second;
    CAPTURE(result.err);
    CHECK(result.exit_code == 4);
    CHECK(contains(outcome_line(result.err), "■ desfecho: budget"));
    CHECK(contains(outcome_line(result.err), "(estimado)"));
    CHECK(calls == none_calls);
  }
}

TEST_CASE("só total_tokens: o orçamento cobra tudo pelo preço de saída e para, estimado") {
  // 1000 tokens a US$ 8 por milhão: US$ 0.008 por chamada; a 2ª passa de US$ 0.01.
  const auto run = spend_with_usage(R"({"total_tokens": 1000})");
  const ProcessResult& result = run.first;
  const std::size_t calls = run.second;
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 4);
  CHECK(calls == 2);
  CHECK(outcome_line(result.err) ==
        "■ desfecho: budget · 2 chamadas ao modelo · 2000 tokens · US$ 0.016 (estimado)");
}

TEST_CASE("429 com retry-after-ms: espera o que o servidor pediu e responde") {
  const auto result = run_stage({"--scenario", "brakes/rate-limit"});
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 0);
  CHECK(contains(result.err,
                 "✗ modelo: o provedor respondeu HTTP 429: Rate limit reached for "
                 "requests\n↻ tentativa 2 em 400 ms\n"));
  CHECK(contains(result.err, "· 1 nova tentativa"));
  CHECK(contains(result.out, "Um harness é o programa em volta do modelo"));
}

TEST_CASE("401 termina na hora em provider_error, código 6, com a mensagem do provedor") {
  const auto result = run_stage({"--scenario", "brakes/unauthorized"});
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 6);
  CHECK(result.out.empty());
  CHECK_FALSE(contains(result.err, "↻"));
  CHECK(contains(last_line(result.err),
                 "■ desfecho: provider_error · 1 chamada ao modelo · 0 tokens · custo "
                 "desconhecido · erro: o provedor respondeu HTTP 401: Incorrect API key"));
}

TEST_CASE("o prazo do turno corta o modelo pendurado: timeout, código 5") {
  const auto result = run_stage({"--scenario", "brakes/hang", "--turn-timeout", "0.3"});
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.err);
  CHECK(result.exit_code == 5);
  CHECK(contains(last_line(result.err), "■ desfecho: timeout · 1 chamada ao modelo"));
}

TEST_CASE("--no-stream pede as respostas inteiras, e sem ele o pedido vai por streaming") {
  const TempDir dir;
  ScriptedModel streamed(R"({"name": "s", "steps": [
    {"expect": {"stream": true}, "content": "com streaming"}]})");
  auto result = run_stage({"--base-url", streamed.base_url(), "--model", "m", "--workspace",
                           dir.path().string(), "--prompt", "oi"});
  hz::testing::throw_if_stubbed(result);
  CHECK(result.exit_code == 0);
  CHECK(result.out == "com streaming\n");
  CHECK(streamed.failures().empty());

  ScriptedModel plain(R"({"name": "p", "steps": [
    {"expect": {"stream": false}, "content": "sem streaming"}]})");
  result = run_stage({"--base-url", plain.base_url(), "--model", "m", "--workspace",
                      dir.path().string(), "--prompt", "oi", "--no-stream"});
  CHECK(result.exit_code == 0);
  CHECK(result.out == "sem streaming\n");
  CHECK(plain.failures().empty());
}

TEST_CASE("um modelo sem preço com --budget-usd ganha um aviso de que o teto não vale") {
  const TempDir dir;
  ScriptedModel model(R"({"name": "s", "steps": [{"content": "oi"}]})");
  const auto result =
      run_stage({"--base-url", model.base_url(), "--model", "modelo-sem-preco", "--workspace",
                 dir.path().string(), "--prompt", "oi", "--budget-usd", "1"});
  hz::testing::throw_if_stubbed(result);
  CHECK(result.exit_code == 0);
  CHECK(contains(result.err,
                 "aviso: o modelo modelo-sem-preco não está na tabela de preços "
                 "(etapas/support/prices.json): o orçamento NÃO pode ser cumprido."));
  CHECK(contains(result.err, "custo desconhecido"));
}

TEST_CASE("um modelo local da tabela custa zero, um preço conhecido") {
  const TempDir dir;
  ScriptedModel model(R"({"name": "s", "steps": [
    {"content": "oi", "usage": {"prompt_tokens": 100, "completion_tokens": 5}}]})");
  const auto result = run_stage({"--base-url", model.base_url(), "--model", "qwen3:8b",
                                 "--workspace", dir.path().string(), "--prompt", "oi"});
  hz::testing::throw_if_stubbed(result);
  CHECK(result.exit_code == 0);
  CHECK(contains(result.err, "preço US$ 0.00 / US$ 0.00 por milhão"));
  CHECK(last_line(result.err) ==
        "■ desfecho: success · 1 chamada ao modelo · 105 tokens · US$ 0.00");
}

TEST_CASE("Ctrl-C de verdade durante um turno: cancelled, código 130") {
  const TempDir dir;
  const auto result = interrupt_when({"--scenario", "brakes/hang"}, "chamada 1", "", dir);
  CAPTURE(result.err);
  CHECK(contains(result.out, "■ desfecho: cancelled · 1 chamada ao modelo"));
  CHECK(last_line(result.out) == "código: 130");
}

TEST_CASE("no chat, o turno interrompido não encerra a conversa") {
  // O Ctrl-C chega com o comando rodando: o pedido 1 certamente chegou ao mock
  // (a tool call veio dele), então o pedido 2 é o da segunda linha.
  const TempDir dir;
  ScriptedModel model(R"({"name": "chat", "steps": [
    {"tool_calls": [{"id": "s", "name": "run_shell", "arguments": {"command": "sleep 30"}}]},
    {"expect": {"message_count": 5, "tool_call_id": "s", "last_contains": "segunda"},
     "content": "respondi a segunda"}
  ]})");
  const auto result = interrupt_when(
      {"--base-url", model.base_url(), "--model", "m", "--workspace", dir.path().string(), "--yes"},
      "⚙ run_shell", "primeira\nsegunda\n", dir);
  CAPTURE(result.out);
  CAPTURE(result.err);
  CHECK(contains(result.out, "■ desfecho: cancelled"));
  CHECK(contains(result.out, "turno interrompido; a conversa continua"));
  CHECK(contains(result.out, "■ desfecho: success"));
  CHECK(last_line(result.out) == "código: 0");
  CHECK(dir.read("out.txt") == "respondi a segunda\n");
  CHECK(model.failures().empty());
  const auto bodies = model.request_bodies();
  REQUIRE(bodies.size() == 2);
  const std::string tool_text = bodies[1]["messages"][3]["content"].get<std::string>();
  CHECK(contains(tool_text, "cancelado"));
}

TEST_CASE("SIGTERM e SIGHUP no meio de um comando: ele é encerrado, cancelled, código 143 e 129") {
  for (const auto& expected : {std::pair{"TERM", 143}, std::pair{"HUP", 129}}) {
    const std::string signal = expected.first;  // TERM, HUP, INT
    const int code = expected.second;
    CAPTURE(signal);
    const TempDir dir;
    ScriptedModel model(slow_command_scenario());
    const auto result = signal_when({"--base-url", model.base_url(), "--model", "m", "--workspace",
                                     dir.path().string(), "--yes", "--prompt", "rode"},
                                    signal, "[ -s '" + (dir / "pid").string() + "' ]", "", dir, 1,
                                    command_alive(dir));
    hz::testing::throw_if_stubbed(result);
    CAPTURE(result.out);
    CHECK(contains(result.out, "comando cancelado pelo usuário; o comando foi encerrado"));
    CHECK(contains(result.out, "■ desfecho: cancelled · 1 chamada ao modelo"));
    CHECK(contains(result.out, "código: " + std::to_string(code) + "\nfilho: encerrado\n"));
  }
}

TEST_CASE("dois SIGTERM seguidos: sai com 143 na hora e não deixa o comando rodando") {
  const TempDir dir;
  ScriptedModel model(slow_command_scenario());
  const auto result = signal_when({"--base-url", model.base_url(), "--model", "m", "--workspace",
                                   dir.path().string(), "--yes", "--prompt", "rode"},
                                  "TERM", "[ -s '" + (dir / "pid").string() + "' ]", "", dir, 2,
                                  command_alive(dir));
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.out);
  CHECK(contains(result.out, "código: 143\nfilho: encerrado\n"));
}

TEST_CASE("no chat, o SIGTERM encerra o turno e o programa, sem ler a próxima linha") {
  const TempDir dir;
  ScriptedModel model(slow_command_scenario("nunca"));
  const auto result = signal_when(
      {"--base-url", model.base_url(), "--model", "m", "--workspace", dir.path().string(), "--yes"},
      "TERM", "[ -s '" + (dir / "pid").string() + "' ]", "primeira\nsegunda\n", dir, 1,
      command_alive(dir));
  hz::testing::throw_if_stubbed(result);
  CAPTURE(result.out);
  CHECK(contains(result.out, "■ desfecho: cancelled"));
  CHECK_FALSE(contains(result.out, "a conversa continua"));
  CHECK(contains(result.out, "código: 143\nfilho: encerrado\n"));
  CHECK(model.request_bodies().size() == 1);
  CHECK(dir.read("out.txt").empty());
}

TEST_CASE("--help lista os códigos de saída, com os dos sinais") {
  const auto result = run_stage({"--help"});
  CHECK(result.exit_code == 0);
  CHECK(contains(result.out,
                 "códigos de saída:\n  0 success · 3 max_turns · 4 budget · 5 timeout · "
                 "6 provider_error\n  cancelled: 128 + o número do sinal (130 no Ctrl-C, 143 no "
                 "SIGTERM, 129 no SIGHUP);\n"));
}

TEST_CASE("entradas ruins dos freios saem com código 2 e mensagem clara") {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases{
      {{"--budget-usd", "2,50"},
       "--budget-usd: \"2,50\" não é um valor em dólares: use ponto para separar os centavos"},
      {{"--budget-usd", "muito"}, "--budget-usd: \"muito\" não é um valor em dólares"},
      {{"--price-input", "2"}, "--price-input e --price-output vão juntos"},
      {{"--price-input", "2", "--price-output", "-1"}, "--price-output: \"-1\""},
      {{"--timeout", "abc"}, "--timeout: \"abc\" não é um número de segundos"},
      {{"--timeout", "0"}, "--timeout precisa ser maior que zero"},
      {{"--turn-timeout", "1.2345"}, "--turn-timeout: \"1.2345\" tem mais de 3 casas decimais"},
      {{"--idle-timeout", "100000"}, "--idle-timeout: \"100000\" passa de um dia"},
      {{"--max-retries", "-1"}, "--max-retries vai de 0 a 100"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args[0]);
    const auto result = run_stage(c.args);
    CHECK(result.exit_code == 2);
    CHECK(contains(result.err, c.message));
    CHECK(result.out.empty());
  }
}

TEST_CASE("--help mostra as flags dos freios e sai com 0") {
  const auto result = run_stage({"--help"});
  CHECK(result.exit_code == 0);
  for (const char* flag :
       {"--budget-usd", "--price-input", "--price-output", "--timeout", "--turn-timeout",
        "--connect-timeout", "--idle-timeout", "--max-retries", "--no-stream"}) {
    CAPTURE(flag);
    CHECK(contains(result.out, flag));
  }
}
