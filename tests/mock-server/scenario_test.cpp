// O formato dos cenários: o que é aceito, os padrões e as mensagens de erro.
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "hz/mock/embedded.hpp"
#include "hz/mock/scenario.hpp"
#include "support.hpp"

namespace hz::mock {
namespace {

std::string parse_error(const std::string& text, const std::string& origin = "monday.json") {
  auto parsed = parse_scenario(text, origin);
  REQUIRE_FALSE(parsed.ok());
  return parsed.error().message;
}

TEST_CASE("cenário completo é lido com todos os campos") {
  auto scenario = test::scenario_from(R"({
    "name": "exemplo", "description": "descrição", "prompt": "faça algo",
    "workspace": "workspaces/monday", "model": "modelo-x",
    "steps": [
      {"content": "texto", "usage": {"prompt_tokens": 10, "completion_tokens": 3},
       "tool_calls": [{"id": "c1", "name": "read_file", "arguments": {"path": "a.txt"}},
                      {"name": "run_shell", "arguments": "{quebrado"}],
       "expect": {"message_count": 2, "last_role": "user", "last_contains": "oi",
                  "contains": ["a", "b"], "tool_call_id": "c0", "tools_include": "read_file",
                  "model": "m", "stream": true},
       "repeat": 2, "delay_ms": 5, "reasoning_content": "r", "reasoning": "s",
       "quirks": ["missing_ids"]}
    ]})");
  CHECK(scenario.name == "exemplo");
  CHECK(scenario.description == "descrição");
  CHECK(scenario.prompt == "faça algo");
  CHECK(scenario.model == "modelo-x");
  REQUIRE(scenario.workspace);
  CHECK(*scenario.workspace == (scenario_dir() / "workspaces/monday").lexically_normal());
  REQUIRE(scenario.steps.size() == 1);
  const Step& step = scenario.steps[0];
  CHECK(step.content == "texto");
  REQUIRE(step.usage);
  CHECK(step.usage->prompt_tokens == 10);
  CHECK(step.usage->completion_tokens == 3);
  REQUIRE(step.tool_calls.size() == 2);
  CHECK(step.tool_calls[0].id == "c1");
  CHECK(step.tool_calls[0].arguments == R"({"path":"a.txt"})");
  CHECK(step.tool_calls[1].id.empty());
  CHECK(step.tool_calls[1].arguments == "{quebrado");
  CHECK(step.finish_reason == "tool_calls");
  CHECK(step.repeat == 2);
  CHECK_FALSE(step.forever);
  CHECK(step.delay_ms == 5);
  CHECK(step.reasoning_content == "r");
  CHECK(step.reasoning == "s");
  CHECK(step.quirks.missing_ids);
  CHECK_FALSE(step.quirks.no_usage);
  CHECK(step.expect.message_count == 2u);
  CHECK(step.expect.last_role == "user");
  CHECK(step.expect.last_contains == std::vector<std::string>{"oi"});
  CHECK(step.expect.contains == std::vector<std::string>{"a", "b"});
  CHECK(step.expect.tool_call_id == "c0");
  CHECK(step.expect.tools_include == std::vector<std::string>{"read_file"});
  CHECK(step.expect.model == "m");
  CHECK(step.expect.stream == true);
}

TEST_CASE("padrões de um passo mínimo") {
  auto parsed = parse_scenario(R"({"steps": [{}, {"tool_calls": [{"name": "x"}]}]})",
                               "/algum/lugar/meu-cenario.json");
  REQUIRE(parsed.ok());
  CHECK(parsed->name == "meu-cenario");
  CHECK(parsed->origin == "meu-cenario.json");
  CHECK(parsed->model == "hz-mock");
  CHECK_FALSE(parsed->workspace);
  const Step& text = parsed->steps[0];
  CHECK(text.content.empty());
  CHECK(text.finish_reason == "stop");
  CHECK_FALSE(text.usage);
  CHECK(text.repeat == 1);
  CHECK(text.fault == Fault::none);
  CHECK_FALSE(text.error);
  const Step& call = parsed->steps[1];
  CHECK(call.finish_reason == "tool_calls");
  CHECK(call.tool_calls[0].arguments == "{}");
}

TEST_CASE("finish_reason explícito vence o padrão") {
  auto scenario = test::scenario_from(
      R"({"steps": [{"tool_calls": [{"name": "x"}], "finish_reason": "stop"}]})");
  CHECK(scenario.steps[0].finish_reason == "stop");
}

TEST_CASE("repeat forever e quirks do cenário valem para os passos") {
  auto scenario = test::scenario_from(
      R"({"quirks": ["no_usage", "arguments_as_object"],
          "steps": [{"content": "a", "quirks": ["missing_ids"]}, {"content": "b", "repeat": "forever"}]})");
  CHECK(scenario.steps[0].quirks.no_usage);
  CHECK(scenario.steps[0].quirks.arguments_as_object);
  CHECK(scenario.steps[0].quirks.missing_ids);
  CHECK(scenario.steps[1].quirks.no_usage);
  CHECK_FALSE(scenario.steps[1].quirks.missing_ids);
  CHECK(scenario.steps[1].forever);
}

TEST_CASE("erro HTTP roteirizado tem padrões pelo status") {
  auto scenario = test::scenario_from(
      R"({"steps": [{"error": {"status": 429, "retry_after": 2}}, {"error": {"status": 503, "code": "x"}}]})");
  const auto& rate = *scenario.steps[0].error;
  CHECK(rate.status == 429);
  CHECK(rate.type == "rate_limit_error");
  CHECK(rate.message == "erro simulado pelo hz-mock (HTTP 429)");
  CHECK(rate.retry_after == 2);
  CHECK_FALSE(rate.code);
  const auto& server = *scenario.steps[1].error;
  CHECK(server.type == "server_error");
  CHECK(server.code == "x");
  CHECK_FALSE(server.retry_after);
}

TEST_CASE("falhas roteirizadas são lidas") {
  auto scenario = test::scenario_from(R"({"steps": [
      {"fault": "hang"}, {"fault": "drop"}, {"fault": "malformed"},
      {"fault": "truncate_stream", "content": "abc", "truncate_after": 2}]})");
  CHECK(scenario.steps[0].fault == Fault::hang);
  CHECK(scenario.steps[1].fault == Fault::drop);
  CHECK(scenario.steps[2].fault == Fault::malformed);
  CHECK(scenario.steps[3].fault == Fault::truncate_stream);
  CHECK(scenario.steps[3].truncate_after == 2);
  CHECK(to_string(Fault::truncate_stream) == "truncate_stream");
}

TEST_CASE("texto que não é JSON dá erro com linha e coluna") {
  CHECK(parse_error("{\n  \"steps\": [\n    {,\n  ]\n}") ==
        "monday.json: não é JSON válido (linha 3, coluna 6)");
  CHECK(parse_error("") == "monday.json: não é JSON válido (linha 1, coluna 1)");
}

TEST_CASE("número grande demais para um double dá erro de JSON em vez de exceção") {
  // Achado pelo fuzzing (fuzz/scenario.cpp): o nlohmann recusa 1e999 com
  // out_of_range, que não é um parse_error.
  CHECK(parse_error(R"({"steps": [{"delay_ms": 1e999}]})") ==
        "monday.json: não é JSON válido (um número grande demais para um double)");
  CHECK(parse_error(R"({"steps": [{"content": "x"}], "name": -1e400})") ==
        "monday.json: não é JSON válido (um número grande demais para um double)");
}

TEST_CASE("erros no topo do cenário nomeiam o campo") {
  CHECK(parse_error("[]") == "monday.json: esperava um objeto JSON no topo");
  CHECK(parse_error(R"({"name": "x"})") == "monday.json: campo \"steps\": obrigatório");
  CHECK(parse_error(R"({"steps": {}})") == "monday.json: campo \"steps\": esperava uma lista");
  CHECK(parse_error(R"({"steps": []})") ==
        "monday.json: campo \"steps\": precisa de pelo menos um passo");
  CHECK(parse_error(R"({"name": 3, "steps": [{}]})") ==
        "monday.json: campo \"name\": esperava texto");
  CHECK(parse_error(R"({"stepz": [{}]})") == "monday.json: campo \"stepz\": campo desconhecido");
  CHECK(parse_error(R"({"workspace": "nao-existe", "steps": [{}]})", "/tmp/x/monday.json") ==
        "monday.json: campo \"workspace\": a pasta /tmp/x/nao-existe não existe");
}

TEST_CASE("erro de tipo num passo nomeia arquivo passo e campo") {
  CHECK(parse_error(R"({"steps": [{}, {}, {"tool_calls": [{"name": 7}]}]})") ==
        "monday.json: passo 3: campo \"tool_calls[0].name\": esperava texto");
  CHECK(parse_error(R"({"steps": [{"tool_calls": [{"arguments": {}}]}]})") ==
        "monday.json: passo 1: campo \"tool_calls[0].name\": obrigatório");
  CHECK(parse_error(R"({"steps": [{"tool_calls": [{"name": "x", "arguments": 5}]}]})") ==
        "monday.json: passo 1: campo \"tool_calls[0].arguments\": esperava um objeto ou texto");
  CHECK(parse_error(R"({"steps": [{"usage": {"prompt_tokens": -1}}]})") ==
        "monday.json: passo 1: campo \"usage.prompt_tokens\": esperava um inteiro de 0 a "
        "1000000000");
  CHECK(parse_error(R"({"steps": [{"conten": "x"}]})") ==
        "monday.json: passo 1: campo \"conten\": campo desconhecido");
  CHECK(parse_error(R"({"steps": [{"expect": {"last_role": "robot"}}]})") ==
        "monday.json: passo 1: campo \"expect.last_role\": esperava system, user, assistant ou "
        "tool");
  CHECK(parse_error(R"({"steps": [{"expect": {"contains": [1]}}]})") ==
        "monday.json: passo 1: campo \"expect.contains[0]\": esperava texto");
  CHECK(parse_error(R"({"steps": ["oi"]})") == "monday.json: passo 1: esperava um objeto");
}

TEST_CASE("falha desconhecida e combinações inválidas são recusadas") {
  CHECK(parse_error(R"({"steps": [{"fault": "explode"}]})") ==
        "monday.json: passo 1: campo \"fault\": falha desconhecida \"explode\" (use hang, drop, "
        "malformed, truncate_stream ou stall_stream)");
  CHECK(parse_error(R"({"steps": [{"fault": "drop", "content": "x"}]})") ==
        "monday.json: passo 1: campo \"fault\": \"drop\" não leva campos de resposta");
  CHECK(parse_error(R"({"steps": [{"error": {"status": 500}, "content": "x"}]})") ==
        "monday.json: passo 1: campo \"error\": um passo de erro não leva campos de resposta");
  CHECK(parse_error(R"({"steps": [{"error": {"status": 500}, "fault": "hang"}]})") ==
        "monday.json: passo 1: campo \"error\": não combina com \"fault\"");
  CHECK(parse_error(R"({"steps": [{"error": {"status": 200}}]})") ==
        "monday.json: passo 1: campo \"error.status\": esperava um código HTTP de erro (400 a "
        "599)");
  CHECK(parse_error(R"({"steps": [{"truncate_after": 2}]})") ==
        "monday.json: passo 1: campo \"truncate_after\": só vale com \"fault\": "
        "\"truncate_stream\"");
  CHECK(parse_error(R"({"steps": [{"quirks": ["sem_nada"]}]})") ==
        "monday.json: passo 1: campo \"quirks[0]\": peculiaridade desconhecida \"sem_nada\" (use "
        "arguments_as_object, missing_ids, no_usage, reject_stream_options, stream_ignores_usage "
        "ou stream_drops_tool_calls)");
}

TEST_CASE("repeat inválido e passo depois de forever são recusados") {
  for (const char* text : {R"({"steps": [{"repeat": 0}]})", R"({"steps": [{"repeat": "sempre"}]})",
                           R"({"steps": [{"repeat": 1000001}]})"}) {
    CAPTURE(text);
    CHECK(parse_error(text) ==
          "monday.json: passo 1: campo \"repeat\": esperava um inteiro de 1 a 1000000 ou "
          "\"forever\"");
  }
  CHECK(test::scenario_from(R"({"steps": [{"repeat": 1000000}]})").steps[0].repeat == 1000000);
  CHECK(parse_error(R"({"steps": [{"repeat": "forever"}, {}]})") ==
        "monday.json: passo 2: nunca seria usado: o passo 1 repete para sempre");
}

TEST_CASE("números fora da faixa são recusados com a faixa na mensagem") {
  // 4294967295 não pode virar -1 num int (antes saía "Retry-After: -1").
  for (const char* retry_after : {"4294967295", "-1", "1.5"}) {
    CAPTURE(retry_after);
    CHECK(parse_error(R"({"steps": [{"error": {"status": 429, "retry_after": )" +
                      std::string(retry_after) + "}}]}") ==
          "monday.json: passo 1: campo \"error.retry_after\": esperava um inteiro de 0 a 86400 "
          "(segundos)");
  }
  CHECK(parse_error(R"({"steps": [{"error": {"status": 429, "retry_after_ms": 86400001}}]})") ==
        "monday.json: passo 1: campo \"error.retry_after_ms\": esperava um inteiro de 0 a "
        "86400000 (milissegundos)");
  CHECK(parse_error(R"({"steps": [{"usage": {"completion_tokens": 1000000001}}]})") ==
        "monday.json: passo 1: campo \"usage.completion_tokens\": esperava um inteiro de 0 a "
        "1000000000");
  CHECK(parse_error(R"({"steps": [{"usage": {"prompt_tokens": 18446744073709551615}}]})") ==
        "monday.json: passo 1: campo \"usage.prompt_tokens\": esperava um inteiro de 0 a "
        "1000000000");
  CHECK(parse_error(R"({"steps": [{"delay_ms": 3600001}]})") ==
        "monday.json: passo 1: campo \"delay_ms\": esperava um inteiro de 0 a 3600000 "
        "(milissegundos)");
  CHECK(parse_error(R"({"steps": [{"chunk_delay_ms": -5}]})") ==
        "monday.json: passo 1: campo \"chunk_delay_ms\": esperava um inteiro de 0 a 3600000 "
        "(milissegundos)");
  CHECK(parse_error(R"({"steps": [{"fault": "truncate_stream", "truncate_after": 0}]})") ==
        "monday.json: passo 1: campo \"truncate_after\": esperava um inteiro de 1 a 1000000");
  CHECK(parse_error(R"({"steps": [{"fault": "stall_stream", "stall_after": 1000001}]})") ==
        "monday.json: passo 1: campo \"stall_after\": esperava um inteiro de 0 a 1000000");
  CHECK(parse_error(R"({"steps": [{"expect": {"message_count": 18446744073709551615}}]})") ==
        "monday.json: passo 1: campo \"expect.message_count\": esperava um número inteiro não "
        "negativo");
}

TEST_CASE("os limites exatos das faixas são aceitos") {
  auto scenario = test::scenario_from(R"({"steps": [
      {"error": {"status": 429, "retry_after": 86400, "retry_after_ms": 86400000}},
      {"usage": {"prompt_tokens": 1000000000, "completion_tokens": 0}, "delay_ms": 3600000,
       "chunk_delay_ms": 3600000}]})");
  CHECK(scenario.steps[0].error->retry_after == 86400);
  CHECK(scenario.steps[0].error->retry_after_ms == 86400000);
  CHECK(scenario.steps[1].usage->prompt_tokens == 1000000000);
  CHECK(scenario.steps[1].delay_ms == 3600000);
  CHECK(scenario.steps[1].chunk_delay_ms == 3600000);
}

TEST_CASE("campos novos de falhas e de streaming são lidos") {
  auto scenario = test::scenario_from(R"({"quirks": ["stream_ignores_usage"], "steps": [
      {"error": {"status": 503, "retry_after_ms": 1500}},
      {"fault": "stall_stream", "stall_after": 0, "content": "x", "chunk_delay_ms": 7},
      {"fault": "stall_stream"},
      {"content": "y", "quirks": ["reject_stream_options", "stream_drops_tool_calls"]}]})");
  CHECK(scenario.select == Selection::by_request);
  CHECK(scenario.steps[0].error->retry_after_ms == 1500);
  CHECK_FALSE(scenario.steps[0].error->retry_after);
  CHECK(scenario.steps[1].fault == Fault::stall_stream);
  CHECK(scenario.steps[1].stall_after == 0);
  CHECK(scenario.steps[1].chunk_delay_ms == 7);
  CHECK(scenario.steps[1].content == "x");
  CHECK_FALSE(scenario.steps[2].stall_after);
  CHECK(to_string(Fault::stall_stream) == "stall_stream");
  const Quirks& quirks = scenario.steps[3].quirks;
  CHECK(quirks.reject_stream_options);
  CHECK(quirks.stream_drops_tool_calls);
  CHECK(quirks.stream_ignores_usage);
  CHECK_FALSE(scenario.steps[1].quirks.reject_stream_options);
  CHECK(scenario.steps[1].quirks.stream_ignores_usage);
}

TEST_CASE("select escolhe o modo de escolha dos passos") {
  auto scenario = test::scenario_from(R"({"select": "by_assistant_messages", "steps": [{}]})");
  CHECK(scenario.select == Selection::by_assistant_messages);
  CHECK(to_string(scenario.select) == "by_assistant_messages");
  CHECK(test::scenario_from(R"({"select": "by_request", "steps": [{}]})").select ==
        Selection::by_request);
  CHECK(parse_error(R"({"select": "by_turn", "steps": [{}]})") ==
        "monday.json: campo \"select\": modo desconhecido \"by_turn\" (use by_request ou "
        "by_assistant_messages)");
  CHECK(parse_error(R"({"select": 1, "steps": [{}]})") ==
        "monday.json: campo \"select\": esperava texto");
}

TEST_CASE("stall_after e chunk_delay_ms só valem onde há resposta") {
  CHECK(parse_error(R"({"steps": [{"stall_after": 2}]})") ==
        "monday.json: passo 1: campo \"stall_after\": só vale com \"fault\": \"stall_stream\"");
  CHECK(parse_error(R"({"steps": [{"fault": "truncate_stream", "stall_after": 2}]})") ==
        "monday.json: passo 1: campo \"stall_after\": só vale com \"fault\": \"stall_stream\"");
  CHECK(parse_error(R"({"steps": [{"error": {"status": 500}, "chunk_delay_ms": 5}]})") ==
        "monday.json: passo 1: campo \"chunk_delay_ms\": não combina com \"error\"");
  CHECK(parse_error(R"({"steps": [{"fault": "hang", "chunk_delay_ms": 5}]})") ==
        "monday.json: passo 1: campo \"chunk_delay_ms\": não combina com \"fault\": \"hang\"");
  CHECK(parse_error(R"({"steps": [{"error": {"status": 429, "retry_after_ms": "1"}}]})") ==
        "monday.json: passo 1: campo \"error.retry_after_ms\": esperava um inteiro de 0 a "
        "86400000 (milissegundos)");
}

TEST_CASE("arquivo inexistente dá erro com o caminho") {
  auto loaded = load_scenario("/nao/existe/x.json");
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.error().message == "/nao/existe/x.json: não consegui abrir o arquivo de cenário");
}

TEST_CASE("workspace relativo é resolvido contra a pasta do arquivo") {
  auto dir = std::filesystem::temp_directory_path() / "hz-mock-scenario-test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "fixture");
  { std::ofstream(dir / "c.json") << R"({"workspace": "fixture", "steps": [{}]})"; }
  auto loaded = load_scenario(dir / "c.json");
  REQUIRE(loaded.ok());
  CHECK(*loaded->workspace == dir / "fixture");
  std::filesystem::remove_all(dir);
}

TEST_CASE("todos os cenários embutidos são válidos") {
  int count = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(scenario_dir())) {
    if (entry.path().extension() != ".json") continue;
    auto loaded = load_scenario(entry.path());
    INFO(entry.path().string());
    CHECK_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
    ++count;
  }
  CHECK(count >= 10);
}

}  // namespace
}  // namespace hz::mock
