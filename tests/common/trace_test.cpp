#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "hz/json_integer.hpp"
#include "hz/saturating.hpp"
#include "hz/terminal.hpp"
#include "hz/testing/temp_dir.hpp"
#include "hz/trace.hpp"
#include "hz/trace_time.hpp"

using nlohmann::json;

namespace {
// 2025-06-02T09:00:00Z (uma segunda-feira), em nanossegundos desde 1970.
constexpr std::int64_t kMonday9h = 1'748'854'800'000'000'000LL;
}  // namespace

TEST_CASE("render_human escreve a linha de model_request") {
  CHECK(
      hz::render_human({{"event", "model_request"}, {"turn", 2}, {"messages", 5}, {"tools", 5}}) ==
      "→ modelo: chamada 2 (5 mensagens)");
  CHECK(
      hz::render_human({{"event", "model_request"}, {"turn", 1}, {"messages", 1}, {"tools", 0}}) ==
      "→ modelo: chamada 1 (1 mensagem)");
}

TEST_CASE("render_human escreve a linha de model_response") {
  const json usage = {{"prompt_tokens", 812}, {"completion_tokens", 35}};
  CHECK(hz::render_human({{"event", "model_response"},
                          {"turn", 1},
                          {"tool_calls", 2},
                          {"finish_reason", "tool_calls"},
                          {"usage", usage},
                          {"cost_usd", 0.0}}) ==
        "← modelo: 2 chamadas de ferramenta · 812+35 tokens");
  CHECK(hz::render_human(
            {{"event", "model_response"}, {"turn", 1}, {"tool_calls", 1}, {"usage", usage}}) ==
        "← modelo: 1 chamada de ferramenta · 812+35 tokens");
  CHECK(hz::render_human({{"event", "model_response"},
                          {"turn", 3},
                          {"tool_calls", 0},
                          {"usage", usage},
                          {"cost_usd", 0.00123}}) ==
        "← modelo: resposta em texto · 812+35 tokens · US$ 0.00123");
  CHECK(hz::render_human({{"event", "model_response"},
                          {"turn", 1},
                          {"tool_calls", 0},
                          {"usage", usage},
                          {"cost_usd", 0.0},
                          {"estimated", true}}) ==
        "← modelo: resposta em texto · 812+35 tokens estimados");
}

TEST_CASE("render_human escreve início e fim de ferramenta") {
  CHECK(hz::render_human({{"event", "tool_start"},
                          {"turn", 1},
                          {"call_id", "c1"},
                          {"name", "run_shell"},
                          {"arguments", R"({"command":"sh test_login.sh"})"}}) ==
        R"(  ⚙ run_shell {"command":"sh test_login.sh"})");
  CHECK(hz::render_human({{"event", "tool_end"},
                          {"turn", 1},
                          {"call_id", "c1"},
                          {"ok", true},
                          {"output_bytes", 40},
                          {"summary", "código de saída: 0 …"}}) == "  ✓ código de saída: 0 …");
  CHECK(hz::render_human({{"event", "tool_end"},
                          {"turn", 1},
                          {"call_id", "c1"},
                          {"ok", false},
                          {"output_bytes", 30},
                          {"summary", "texto não encontrado em a.txt"}}) ==
        "  ✗ texto não encontrado em a.txt");
}

TEST_CASE("render_human escreve o desfecho") {
  CHECK(hz::render_human({{"event", "turn_end"},
                          {"outcome", "success"},
                          {"turns", 5},
                          {"usage", {{"prompt_tokens", 4000}, {"completion_tokens", 210}}},
                          {"cost_usd", 0.0}}) ==
        "■ desfecho: success · 5 chamadas ao modelo · 4210 tokens");
  CHECK(hz::render_human({{"event", "turn_end"}, {"outcome", "max_turns"}, {"turns", 1}}) ==
        "■ desfecho: max_turns · 1 chamada ao modelo");
}

TEST_CASE("render_human escreve o desfecho com custo, novas tentativas e erro (etapa 02)") {
  const json usage = {{"prompt_tokens", 48000}, {"completion_tokens", 1200}};
  CHECK(hz::render_human({{"event", "turn_end"},
                          {"outcome", "budget"},
                          {"turns", 4},
                          {"usage", usage},
                          {"cost_usd", 0.1056},
                          {"cost_known", true},
                          {"estimated", false},
                          {"retries", 0},
                          {"error", ""}}) ==
        "■ desfecho: budget · 4 chamadas ao modelo · 49200 tokens · US$ 0.1056");
  // Preço conhecido e zero (um modelo local) aparece: é um custo, não a falta dele.
  CHECK(hz::render_human({{"event", "turn_end"},
                          {"outcome", "success"},
                          {"turns", 1},
                          {"cost_usd", 0.0},
                          {"cost_known", true}}) ==
        "■ desfecho: success · 1 chamada ao modelo · US$ 0.00");
  CHECK(hz::render_human({{"event", "turn_end"},
                          {"outcome", "success"},
                          {"turns", 2},
                          {"cost_usd", 0.0021},
                          {"cost_known", true},
                          {"estimated", true},
                          {"retries", 2}}) ==
        "■ desfecho: success · 2 chamadas ao modelo · US$ 0.0021 (estimado) · 2 novas tentativas");
  CHECK(hz::render_human({{"event", "turn_end"},
                          {"outcome", "provider_error"},
                          {"turns", 1},
                          {"cost_usd", 0.0},
                          {"cost_known", false},
                          {"retries", 1},
                          {"error", "o provedor respondeu HTTP 503: fora do ar"}}) ==
        "■ desfecho: provider_error · 1 chamada ao modelo · custo desconhecido · 1 nova "
        "tentativa · erro: o provedor respondeu HTTP 503: fora do ar");
}

TEST_CASE("render_human escreve as falhas, as novas tentativas e as notas da etapa 02") {
  CHECK(hz::render_human({{"event", "model_error"},
                          {"turn", 1},
                          {"attempt", 1},
                          {"kind", "http"},
                          {"status", 503},
                          {"message", "o provedor respondeu HTTP 503: fora do ar"},
                          {"billed", false},
                          {"cost_usd", 0.0}}) ==
        "✗ modelo: o provedor respondeu HTTP 503: fora do ar");
  CHECK(hz::render_human({{"event", "model_error"},
                          {"message", "corpo ilegível"},
                          {"billed", true},
                          {"cost_usd", 0.000215}}) ==
        "✗ modelo: corpo ilegível · cobrada US$ 0.000215 (estimado)");
  CHECK(hz::render_human({{"event", "retry"}, {"turn", 1}, {"attempt", 2}, {"delay_ms", 437}}) ==
        "↻ tentativa 2 em 437 ms");
  CHECK(hz::render_human({{"event", "stream_fallback"}, {"reason", "sem uso"}}) ==
        "⚠ streaming: sem uso");
  CHECK(
      hz::render_human({{"event", "tool_skipped"}, {"name", "run_shell"}, {"outcome", "budget"}}) ==
      "  ⊘ run_shell não rodou (budget)");
  CHECK(hz::render_human({{"event", "note"}, {"text", "[nota: conclua]"}}) ==
        "  ⚑ nota ao modelo: [nota: conclua]");
}

TEST_CASE("render_human escreve o que o detector de repetição da etapa 03 viu") {
  CHECK(hz::render_human({{"event", "tool_repetition"},
                          {"turn", 2},
                          {"call_id", "c2"},
                          {"name", "run_shell"},
                          {"repetition", "repeat"},
                          {"repeat_count", 2},
                          {"threshold", 3}}) ==
        "  ↻ run_shell: repetição 2/3 (mesma chamada, mesmo resultado)");
  CHECK(hz::render_human({{"event", "tool_repetition"},
                          {"name", "run_shell"},
                          {"repetition", "progress"},
                          {"repeat_count", 1},
                          {"threshold", 3}}) ==
        "  ↻ run_shell: mesma chamada, resultado novo (progresso)");
  CHECK(hz::render_human({{"event", "tool_repetition"},
                          {"name", "write_file"},
                          {"repetition", "cycle"},
                          {"repeat_count", 2},
                          {"threshold", 3}}) ==
        "  ↻ write_file: ciclo (a mesma sequência, com os mesmos resultados)");
  CHECK(hz::render_human({{"event", "repetition_warning"},
                          {"turn", 3},
                          {"call_id", "c3"},
                          {"name", "run_shell"},
                          {"count", 3},
                          {"kind", "same"}}) ==
        "  ⚠ repetição: run_shell 3 vezes com o mesmo resultado; aviso ao modelo (se repetir, o "
        "turno para)");
  CHECK(hz::render_human({{"event", "repetition_stop"},
                          {"name", "write_file"},
                          {"count", 2},
                          {"kind", "cycle"},
                          {"cycle", {"run_shell", "read_file", "write_file"}}}) ==
        "  ⚠ repetição depois do aviso: o ciclo run_shell → read_file → write_file duas vezes "
        "com os mesmos resultados; o turno para");
  // Campos de tipo errado não derrubam a linha.
  CHECK(hz::render_human({{"event", "repetition_warning"}, {"kind", "cycle"}, {"cycle", 7}}) ==
        "  ⚠ repetição: o ciclo ? duas vezes com os mesmos resultados; aviso ao modelo (se "
        "repetir, o turno para)");
}

TEST_CASE("render_human mostra a retomada do journal com a decisão de cada chamada pendente") {
  CHECK(hz::render_human({{"event", "journal_resume"},
                          {"records", 4},
                          {"next", "run_tools"},
                          {"decisions",
                           {{{"call_id", "c1"},
                             {"name", "append_file"},
                             {"decision", "done"},
                             {"reason", "o texto já entrou"}}}}}) ==
        "↺ retomada do journal: 4 registros · próximo passo: run_tools\n"
        "  ↺ append_file (c1): done · o texto já entrou");
  CHECK(hz::render_human({{"event", "journal_resume"}, {"records", 1}}) ==
        "↺ retomada do journal: 1 registro · próximo passo: ");
}

TEST_CASE("render_human mostra eventos desconhecidos de forma genérica") {
  CHECK(hz::render_human({{"event", "checkpoint"}, {"step", 2}, {"path", "j.jsonl"}}) ==
        R"(· checkpoint {"path":"j.jsonl","step":2})");
  CHECK(hz::render_human({{"event", "pausa"}}) == "· pausa");
  CHECK(hz::render_human({{"x", 1}}) == R"(· (evento sem nome) {"x":1})");
  CHECK(hz::render_human(json::array()) == "· evento inválido: []");
}

TEST_CASE("render_human não lança com campos de tipo errado") {
  CHECK(hz::render_human({{"event", "model_request"}, {"turn", "dois"}, {"messages", nullptr}}) ==
        "→ modelo: chamada 0 (0 mensagens)");
}

TEST_CASE("Trace grava uma linha JSON por evento, com a hora, e a linha humana") {
  hz::testing::TempDir dir;
  std::ostringstream human;
  {
    hz::TraceOptions options;
    options.human = &human;
    options.jsonl_path = dir / "trace.jsonl";
    options.clock = hz::stepping_trace_clock(kMonday9h, 250'000'000);
    hz::Trace trace(options);
    trace.emit({{"event", "model_request"}, {"turn", 1}, {"messages", 2}, {"tools", 5}});
    // Já está no disco antes do próximo evento (flush por evento).
    CHECK(dir.read("trace.jsonl") ==
          "{\"event\":\"model_request\",\"messages\":2,\"time\":\"2025-06-02T09:00:00.000000Z\","
          "\"tools\":5,\"turn\":1}\n");
    trace.emit({{"event", "turn_end"}, {"outcome", "success"}, {"turns", 1}});
  }
  CHECK(dir.read("trace.jsonl") ==
        "{\"event\":\"model_request\",\"messages\":2,\"time\":\"2025-06-02T09:00:00.000000Z\","
        "\"tools\":5,\"turn\":1}\n"
        "{\"duration_ms\":250.0,\"event\":\"turn_end\",\"outcome\":\"success\","
        "\"time\":\"2025-06-02T09:00:00.250000Z\",\"turns\":1}\n");
  // A linha humana não mostra horas: o que o livro captura do stderr não muda de uma vez para
  // outra.
  CHECK(human.str() ==
        "→ modelo: chamada 1 (2 mensagens)\n"
        "■ desfecho: success · 1 chamada ao modelo\n");
}

namespace {
// Lê o JSONL de um TempDir, um evento por linha.
std::vector<json> events_in(const hz::testing::TempDir& dir) {
  std::vector<json> events;
  std::istringstream in(dir.read("trace.jsonl"));
  for (std::string line; std::getline(in, line);) events.push_back(json::parse(line));
  return events;
}
}  // namespace

TEST_CASE("Trace dá a duração de cada ferramenta, de cada chamada ao modelo e do turno") {
  hz::testing::TempDir dir;
  {
    hz::TraceOptions options;
    options.jsonl_path = dir / "trace.jsonl";
    // 1 ms por leitura: o evento N sai em 09:00:00 + N ms.
    options.clock = hz::stepping_trace_clock(kMonday9h, 1'000'000);
    hz::Trace trace(options);
    trace.set_model("roteiro");
    trace.emit({{"event", "model_request"}, {"turn", 1}});                        // 0
    trace.emit({{"event", "model_error"}, {"turn", 1}, {"time", "antes"}});       // 1
    trace.emit({{"event", "retry"}, {"turn", 1}});                                // 2
    trace.emit({{"event", "model_request"}, {"turn", 1}});                        // 3
    trace.emit({{"event", "model_response"}, {"turn", 1}, {"duration_ms", -1}});  // 4
    trace.emit({{"event", "tool_start"}, {"call_id", "a"}});                      // 5
    trace.emit({{"event", "tool_start"}, {"call_id", "b"}});                      // 6
    trace.emit({{"event", "tool_end"}, {"call_id", "b"}});                        // 7
    trace.emit({{"event", "tool_end"}, {"call_id", "a"}});                        // 8
    trace.emit({{"event", "tool_end"}, {"call_id", "sem-inicio"}});               // 9
    trace.emit({{"event", "turn_end"}, {"outcome", "success"}});                  // 10
    trace.emit({{"event", "model_request"}, {"turn", 1}});                        // 11
    trace.emit({{"event", "turn_end"}, {"outcome", "success"}});                  // 12
  }
  const std::vector<json> events = events_in(dir);
  REQUIRE(events.size() == 13);
  for (std::size_t i = 0; i < events.size(); ++i) {
    CAPTURE(i);
    char expected[40];
    std::snprintf(expected, sizeof expected, "2025-06-02T09:00:00.%03zu000Z", i);
    CHECK(events[i]["time"] == expected);
  }
  const auto duration = [&](std::size_t i) {
    return events[i].contains("duration_ms") ? events[i]["duration_ms"].dump() : "(nenhuma)";
  };
  CHECK(duration(0) == "(nenhuma)");
  CHECK(duration(1) == "1.0");  // a tentativa que falhou, desde o seu model_request
  CHECK(duration(2) == "(nenhuma)");
  CHECK(duration(4) == "1.0");  // o -1 que veio é trocado
  CHECK(duration(7) == "1.0");  // b: 6 → 7
  CHECK(duration(8) == "3.0");  // a: 5 → 8, pelo call_id
  CHECK(duration(9) == "(nenhuma)");
  CHECK(duration(10) == "10.0");  // o turno: do primeiro evento ao turn_end
  CHECK(duration(12) == "1.0");   // o segundo turno começa no evento depois do turn_end
  CHECK(events[0]["model"] == "roteiro");
  CHECK(events[3]["model"] == "roteiro");
  CHECK_FALSE(events[4].contains("model"));
}

TEST_CASE("anchored_trace_clock anda com o relógio monotônico, a partir da hora do sistema") {
  long long monotonic = 5'000;
  hz::TraceClock clock = hz::anchored_trace_clock([&monotonic] { return monotonic; });
  const std::int64_t before = hz::system_trace_clock()();
  const std::int64_t first = clock();
  monotonic += 1'500'000'000;  // o relógio do loop andou 1,5 s (um backoff num FakeClock)
  CHECK(clock() - first == 1'500'000'000);
  // A âncora é a hora de parede de quando o relógio foi criado.
  CHECK(first <= before);
  CHECK(before - first < 60'000'000'000LL);
}

TEST_CASE("Trace::set_clock troca o relógio no meio, e vazio volta ao do sistema") {
  hz::testing::TempDir dir;
  {
    hz::TraceOptions options;
    options.jsonl_path = dir / "trace.jsonl";
    hz::Trace trace(options);
    trace.emit({{"event", "model_request"}});
    trace.set_clock(hz::stepping_trace_clock(kMonday9h, 0));
    trace.emit({{"event", "model_request"}});
    trace.set_clock({});
    trace.emit({{"event", "model_request"}});
  }
  const std::vector<json> events = events_in(dir);
  REQUIRE(events.size() == 3);
  CHECK(events[1]["time"] == "2025-06-02T09:00:00.000000Z");
  // O relógio do sistema: uma hora deste século, no formato do trace.
  const auto current = [](const json& event) {
    const auto at = hz::parse_trace_time(event["time"].get<std::string>());
    return at && *at > kMonday9h;
  };
  CHECK(current(events[0]));
  CHECK(current(events[2]));
  CHECK(events[2]["time"] != events[1]["time"]);
}

TEST_CASE("format_trace_time e parse_trace_time vão e voltam; o resto é recusado") {
  CHECK(hz::format_trace_time(0) == "1970-01-01T00:00:00.000000Z");
  CHECK(hz::format_trace_time(kMonday9h + 1'234'567'891) == "2025-06-02T09:00:01.234567Z");
  CHECK(hz::format_trace_time(951'782'400'000'000'000LL) == "2000-02-29T00:00:00.000000Z");
  CHECK(hz::format_trace_time(-1'000) == "1969-12-31T23:59:59.999999Z");
  CHECK(hz::parse_trace_time("2025-06-02T09:00:01.234567Z") == kMonday9h + 1'234'567'000);
  CHECK(hz::parse_trace_time("2025-06-02T09:00:01Z") == kMonday9h + 1'000'000'000);
  CHECK(hz::parse_trace_time("2025-06-02T09:00:01.5Z") == kMonday9h + 1'500'000'000);
  CHECK(hz::parse_trace_time("2000-02-29T00:00:00.000000Z") == 951'782'400'000'000'000LL);
  for (const char* bad :
       {"", "ontem", "2025-06-02", "2025-06-02T09:00:01.Z", "2025-06-02 09:00:01Z",
        "2025-06-02T09:00:01+00:00", "2025-02-30T00:00:00Z", "2025-13-01T00:00:00Z",
        "2025-06-02T24:00:00Z", "2025-06-02T09:00:01.1234567890Z", "2025-06-02T09:00:01Zx"}) {
    CAPTURE(bad);
    CHECK_FALSE(hz::parse_trace_time(bad).has_value());
  }
  CHECK(hz::duration_ms(1'234'567) == 1.235);
  CHECK(hz::duration_ms(0) == 0.0);
}

TEST_CASE("Trace pinta a linha humana só com cor ligada") {
  std::ostringstream human;
  hz::Trace trace({&human, true, std::nullopt});
  trace.emit({{"event", "tool_end"}, {"ok", false}, {"summary", "erro"}});
  CHECK(human.str() == "\x1b[31m  ✗ erro\x1b[0m\n");
}

TEST_CASE("Trace sem destino não escreve nada e não falha") {
  hz::Trace trace;
  trace.emit({{"event", "model_request"}});
}

TEST_CASE("Trace lança se o arquivo não abre") {
  hz::testing::TempDir dir;
  CHECK_THROWS_WITH(
      hz::Trace({nullptr, false, dir / "nao-existe/trace.jsonl"}),
      ("não foi possível abrir o arquivo de trace: " + (dir / "nao-existe/trace.jsonl").string())
          .c_str());
}

TEST_CASE("paint envolve em ANSI só quando pedido") {
  CHECK(hz::paint("x", hz::Tint::green, true) == "\x1b[32mx\x1b[0m");
  CHECK(hz::paint("x", hz::Tint::green, false) == "x");
  CHECK(hz::paint("x", hz::Tint::none, true) == "x");
}

TEST_CASE("render_human não deixa a saída de uma ferramenta mexer no terminal") {
  CHECK(hz::render_human(
            {{"event", "tool_end"}, {"ok", true}, {"summary", "\x1b[2J\x1b]0;titulo\x07texto"}}) ==
        "  ✓ \\x1b[2J\\x1b]0;titulo\\x07texto");
  CHECK(
      hz::render_human(
          {{"event", "tool_start"}, {"name", "ler\x1b[31m"}, {"arguments", "{\"path\":\"a\"}"}}) ==
      "  ⚙ ler\\x1b[31m {\"path\":\"a\"}");
}

TEST_CASE("render_human escapa DEL e C1 que o JSON de um campo deixa passar") {
  // Achado pelo fuzzing (fuzz/trace.cpp): o dump do nlohmann escapa ESC
  // como \u001b, mas manda U+009B (o CSI de 8 bits) e DEL crus.
  CHECK(hz::render_human({{"event", "pausa"},
                          {"detalhe",
                           "\xc2\x9b"
                           "2J\x7f"}}) == R"(· pausa {"detalhe":"\u009b2J\x7f"})");
  CHECK(hz::render_human({{"event", "tool_start"},
                          {"name", "ler"},
                          {"arguments",
                           {{"path",
                             "\xc2\x9b"
                             "2J"}}}}) == R"(  ⚙ ler {"path":"\u009b2J"})");
  CHECK(hz::render_human(json::array({"\xc2\x9b"})) == R"(· evento inválido: ["\u009b"])");
}

TEST_CASE("render_human mostra 0 num número fora da faixa, em vez de convertê-lo") {
  // Achado pelo fuzzing (fuzz/trace.cpp): "turn": 6.66e87 virava long long
  // com static_cast, o que é comportamento indefinido (o UBSan acusa).
  CHECK(hz::render_human({{"event", "model_request"}, {"messages", 2}, {"turn", 6.66e87}}) ==
        "→ modelo: chamada 0 (2 mensagens)");
  CHECK(hz::render_human({{"event", "model_request"}, {"messages", -1e300}, {"turn", 3.0}}) ==
        "→ modelo: chamada 3 (0 mensagens)");
}

TEST_CASE("render_human não mostra um custo fora da faixa, em vez de convertê-lo") {
  // Achado pelo fuzzing (fuzz/trace.cpp): "cost_usd": 1.8e20 virava micro-dólares
  // num long long fora da faixa, e negar LLONG_MIN é comportamento indefinido.
  CHECK(hz::render_human({{"event", "model_response"},
                          {"tool_calls", 0},
                          {"cost_usd", 184467440737095516150.0}}) == "← modelo: resposta em texto");
  CHECK(hz::render_human({{"event", "model_response"}, {"tool_calls", 0}, {"cost_usd", -1e300}}) ==
        "← modelo: resposta em texto");
  CHECK(hz::render_human({{"event", "model_response"}, {"tool_calls", 0}, {"cost_usd", 0.0025}}) ==
        "← modelo: resposta em texto · US$ 0.0025");
}

TEST_CASE("json_integer aceita inteiros e doubles até 2^53 e recusa o resto") {
  using hz::json_integer;
  CHECK(json_integer(json(42)) == 42);
  CHECK(json_integer(json(-7)) == -7);
  CHECK(json_integer(json(3.9)) == 3);
  CHECK(json_integer(json(-3.9)) == -3);
  CHECK(json_integer(json(hz::kMaxJsonInteger)) == hz::kMaxJsonInteger);
  CHECK(json_integer(json(-hz::kMaxJsonInteger)) == -hz::kMaxJsonInteger);
  CHECK(json_integer(json(9007199254740992.0)) == hz::kMaxJsonInteger);
  CHECK_FALSE(json_integer(json(hz::kMaxJsonInteger + 1)));
  CHECK_FALSE(json_integer(json(std::uint64_t{18446744073709551615ULL})));
  CHECK_FALSE(json_integer(json(6.66e87)));
  CHECK_FALSE(json_integer(json(-1e300)));
  CHECK_FALSE(json_integer(json(std::numeric_limits<double>::quiet_NaN())));
  CHECK_FALSE(json_integer(json(std::numeric_limits<double>::infinity())));
  CHECK_FALSE(json_integer(json("12")));
  CHECK_FALSE(json_integer(json(true)));
}

TEST_CASE("saturating_add soma, e para no teto ou no piso em vez de estourar") {
  using hz::saturating_add;
  constexpr long long kMax = std::numeric_limits<long long>::max();
  constexpr long long kMin = std::numeric_limits<long long>::min();
  CHECK(saturating_add(40LL, 2LL) == 42);
  CHECK(saturating_add(-40LL, 2LL) == -38);
  CHECK(saturating_add(kMax - 1, 1LL) == kMax);
  CHECK(saturating_add(kMax, 1LL) == kMax);
  CHECK(saturating_add(kMax, hz::kMaxJsonInteger) == kMax);
  CHECK(saturating_add(kMin, -1LL) == kMin);
  CHECK(saturating_add(kMax, kMin) == -1);
  CHECK(saturating_add(std::numeric_limits<long>::max(), 5L) == std::numeric_limits<long>::max());
}

TEST_CASE("Trace grava um evento montado campo a campo igual ao mesmo evento em json") {
  // emit({{...}}) escolhe a lista de TraceField; cada tipo de valor tem o seu construtor,
  // e o JSONL tem de sair byte a byte igual ao do evento montado como nlohmann::json.
  const std::string text = "texto";
  const std::string_view view = "vista";
  const std::size_t size = 7;
  const long count = -3;
  json whole = {{"event", "tool_end"},  {"literal", "abc"},  {"text", text},  {"view", "vista"},
                {"ok", true},           {"int", -1},         {"long", count}, {"long long", 5LL},
                {"unsigned", 4U},       {"size", size},      {"ull", 9ULL},   {"double", 0.25},
                {"nested", {{"a", 1}}}, {"absent", nullptr}, {"list", {1, 2}}};
  auto write = [](auto&& emit_into) {
    hz::testing::TempDir dir;
    hz::TraceOptions options;
    options.jsonl_path = dir / "trace.jsonl";
    options.clock = hz::stepping_trace_clock(kMonday9h, 0);
    {
      hz::Trace trace(options);
      emit_into(trace);
    }
    return dir.read("trace.jsonl");
  };
  const std::string by_json = write([&](hz::Trace& trace) { trace.emit(whole); });
  const std::string by_fields = write([&](hz::Trace& trace) {
    trace.emit({{"event", "tool_end"},
                {"literal", "abc"},
                {"text", text},
                {"view", view},
                {"ok", true},
                {"int", -1},
                {"long", count},
                {"long long", 5LL},
                {"unsigned", 4U},
                {"size", size},
                {"ull", 9ULL},
                {"double", 0.25},
                {"nested", {{"a", 1}}},
                {"absent", nullptr},
                {"list", std::vector<int>{1, 2}},
                {"ok", false}});  // repetida: vale a primeira, como no json
  });
  CHECK(by_fields == by_json);
  CHECK(json::parse(by_fields)["ok"] == true);
}

TEST_CASE("Trace avisa uma vez quando o JSONL não pode ser escrito e fica marcado") {
  std::ostringstream warnings;
  hz::TraceOptions options;
  options.jsonl_path = "/dev/full";
  options.warnings = &warnings;
  hz::Trace trace(options);
  CHECK_FALSE(trace.failed());
  trace.emit({{"event", "model_request"}, {"turn", 1}});
  trace.emit({{"event", "turn_end"}, {"outcome", "success"}});
  const std::string expected =
      "aviso: não foi possível gravar o trace em /dev/full: No space left on device; os eventos "
      "seguintes não serão gravados";
  CHECK(trace.failed());
  CHECK(trace.failure() == expected);
  CHECK(warnings.str() == expected + "\n");
}

TEST_CASE("Trace que escreve tudo não acusa falha") {
  hz::testing::TempDir dir;
  hz::TraceOptions options;
  options.jsonl_path = dir / "trace.jsonl";
  std::ostringstream warnings;
  options.warnings = &warnings;
  options.clock = hz::stepping_trace_clock(kMonday9h, 0);
  hz::Trace trace(options);
  trace.emit({{"event", "model_request"}, {"turn", 1}});
  CHECK_FALSE(trace.failed());
  CHECK(trace.failure().empty());
  CHECK(warnings.str().empty());
  CHECK(dir.read("trace.jsonl") ==
        "{\"event\":\"model_request\",\"time\":\"2025-06-02T09:00:00.000000Z\",\"turn\":1}\n");
}
