// O roteiro do modelo de mentira: um arquivo JSON com a sequência de respostas.
//
// Formato (documentado com exemplos em mock-server/README.md):
//
//   {
//     "name": "monday", "description": "...", "prompt": "...",
//     "workspace": "workspaces/monday",          (opcional)
//     "model": "hz-mock",                        (opcional)
//     "quirks": ["missing_ids"],                 (opcional, vale para todos os passos)
//     "select": "by_assistant_messages",         (opcional; padrão "by_request")
//     "ollama_context_length": 4096,             (opcional: responde como um Ollama)
//     "steps": [ { ...passo... }, ... ]
//   }
//
// Cada passo responde a um pedido (ou a vários, com "repeat"): uma resposta
// (content, tool_calls, usage, finish_reason, reasoning_content, reasoning),
// ou uma falha ("error" HTTP, ou "fault": hang/drop/malformed/truncate_stream/
// stall_stream), com "expect" opcional conferindo o pedido que chegou,
// "delay_ms" e "chunk_delay_ms".
//
// parse_scenario nunca lança: qualquer problema volta como Error com o nome
// do arquivo, o passo (contado a partir de 1) e o campo, por exemplo
//   monday.json: passo 3: campo "tool_calls[0].name": esperava texto
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hz/result.hpp"

namespace hz::mock {

// Limites do formato: um valor fora deles é erro no arquivo, com a faixa na mensagem.
inline constexpr long kMaxTokens = 1000000000;        // usage.prompt_tokens, completion_tokens
inline constexpr long kMaxRepeat = 1000000;           // repeat, truncate_after, stall_after
inline constexpr long kMaxRetryAfterSeconds = 86400;  // error.retry_after (um dia)
inline constexpr long kMaxDelayMs = 3600L * 1000L;    // delay_ms, chunk_delay_ms (uma hora)
inline constexpr long kMaxRetryAfterMs = kMaxRetryAfterSeconds * 1000L;  // error.retry_after_ms

// Uma tool call roteirizada.
struct ScriptedToolCall {
  std::string id;  // vazio: o servidor gera "call_<pedido ou posição>_<i>"
  std::string name;
  std::string arguments;  // texto exatamente como vai no fio (pode ser JSON inválido)
};

// O "usage" de um passo. Vai no fio só o que o passo escreveu (um provedor
// que manda {} ou só total_tokens também se imita); total_tokens, se o passo
// não o escreveu, é a soma das duas contagens, quando há as duas.
struct ScriptedUsage {
  std::optional<long> prompt_tokens;
  std::optional<long> completion_tokens;
  std::optional<long> total_tokens;
};

// Uma resposta de erro HTTP no formato da OpenAI: {"error":{"message","type","code"}}.
struct ScriptedHttpError {
  int status = 500;
  std::string message;
  std::string type;
  std::optional<std::string> code;    // nullopt: "code": null
  std::optional<int> retry_after;     // segundos, vira o cabeçalho Retry-After
  std::optional<int> retry_after_ms;  // milissegundos, vira o cabeçalho retry-after-ms
};

enum class Fault {
  none,
  hang,             // nunca responde (até o servidor parar)
  drop,             // fecha a conexão sem resposta nenhuma
  malformed,        // 200 com um corpo que não é JSON
  truncate_stream,  // corta a resposta no meio (sem [DONE] no streaming)
  stall_stream,     // manda o começo e fica em silêncio com a conexão aberta
};

// Variações de provedores reais que o harness precisa tolerar.
struct Quirks {
  bool arguments_as_object = false;  // "arguments" vai como objeto JSON, não como texto
  bool missing_ids = false;          // tool calls sem "id"
  bool no_usage = false;             // resposta sem "usage"
  // Servidores que não implementam o streaming inteiro:
  bool reject_stream_options = false;    // pedido com "stream_options" recebe HTTP 400
  bool stream_ignores_usage = false;     // em streaming, nunca manda o uso (ignora include_usage)
  bool stream_drops_tool_calls = false;  // em streaming, manda o texto mas não as tool calls
};

// Conferências sobre o pedido que chega num passo. Campo vazio: não confere.
struct Expectation {
  std::optional<std::size_t> message_count;  // número exato de mensagens
  std::optional<std::string> last_role;      // papel da última mensagem
  std::vector<std::string> last_contains;    // trechos no content da última mensagem
  std::vector<std::string> contains;         // trechos em algum content do histórico
  std::optional<std::string> tool_call_id;   // há mensagem tool respondendo a este id
  std::vector<std::string> tools_include;    // ferramentas que precisam ser oferecidas
  std::optional<std::string> model;          // valor exato de "model"
  std::optional<bool> stream;                // valor de "stream" (ausente conta como false)
};

struct Step {
  // A resposta.
  std::string content;
  std::vector<ScriptedToolCall> tool_calls;
  std::optional<ScriptedUsage> usage;  // nullopt: estimado pelo tamanho (bytes / 4)
  std::string finish_reason;           // já resolvido: o dado, ou "tool_calls"/"stop"
  std::string reasoning_content;       // campo "reasoning_content" da mensagem
  std::string reasoning;               // campo "reasoning" da mensagem
  Quirks quirks;

  // Quantas vezes o passo responde.
  int repeat = 1;
  bool forever = false;

  Expectation expect;
  int delay_ms = 0;        // espera antes de responder (qualquer que seja a resposta)
  int chunk_delay_ms = 0;  // espera antes de cada evento SSE (sem streaming: de cada 64 bytes)

  // Falhas: no máximo uma das duas.
  std::optional<ScriptedHttpError> error;
  Fault fault = Fault::none;
  int truncate_after = 0;          // truncate_stream: eventos enviados antes do corte (0: metade)
  std::optional<int> stall_after;  // stall_stream: eventos antes do silêncio (nullopt: metade)
};

// Como o servidor escolhe o passo que responde a um pedido.
enum class Selection {
  by_request,             // pela ordem dos pedidos: o 1º pedido usa o passo 1, ...
  by_assistant_messages,  // pela conversa: K mensagens "assistant" no pedido usam a posição K
};

struct Scenario {
  std::string name;
  std::string description;
  std::string prompt;                              // pedido padrão do demo
  std::optional<std::filesystem::path> workspace;  // fixture, caminho absoluto
  std::string model = "hz-mock";                   // anunciado em /v1/models
  Selection select = Selection::by_request;
  // Com valor, o mock responde também como um Ollama: GET /api/version e
  // GET /api/ps, com o modelo carregado nesta janela de contexto (tokens).
  std::optional<long> ollama_context_length;
  std::vector<Step> steps;
  std::string origin;  // nome usado nas mensagens (ex.: "monday.json")
};

// Lê um cenário de texto JSON. `origin` é o caminho (ou nome) do arquivo: o
// nome aparece nas mensagens de erro e um "workspace" relativo é resolvido
// contra a pasta de `origin`; sem pasta em `origin`, contra a pasta dos
// cenários embutidos (HZ_SCENARIO_DIR). A fixture precisa existir.
Result<Scenario> parse_scenario(std::string_view json_text, std::string_view origin);

// Lê o arquivo e chama parse_scenario com o caminho dele.
Result<Scenario> load_scenario(const std::filesystem::path& path);

std::string_view to_string(Fault fault);
std::string_view to_string(Selection selection);

}  // namespace hz::mock
