// O formato de fio do OpenAI Chat Completions: mensagens, tool calls e uso
// de tokens, e a conversão de/para JSON.
//
// A decodificação é tolerante às variações dos provedores: argumentos como
// objeto em vez de string, tool calls sem id, content nulo, campos de
// raciocínio (reasoning_content/reasoning), ausência de usage. E desconfia
// dos números: contagens de tokens negativas, fracionárias, que não são
// números ou absurdas (mais de 10^12) fazem o uso contar como não informado.
// Nenhuma função daqui lança exceção por causa de JSON vindo da rede.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "hz/result.hpp"

namespace hz {

enum class Role { system, user, assistant, tool };

// "system", "user", "assistant", "tool".
std::string_view to_string(Role role);

// Um pedido estruturado de ação feito pelo modelo.
struct ToolCall {
  std::string id;         // casa a resposta (mensagem tool) com o pedido
  std::string name;       // nome da ferramenta
  std::string arguments;  // texto JSON exatamente como o modelo enviou (pode ser inválido)

  bool operator==(const ToolCall&) const = default;
};

struct Message {
  Role role = Role::user;
  std::string content;               // pode ser vazio (assistente só com tool calls)
  std::vector<ToolCall> tool_calls;  // só no papel assistant
  std::string tool_call_id;          // só no papel tool

  static Message system(std::string text);
  static Message user(std::string text);
  static Message assistant(std::string text, std::vector<ToolCall> calls = {});
  static Message tool(std::string call_id, std::string text);

  bool operator==(const Message&) const = default;
};

// Tokens de uma chamada (ou a soma de várias).
struct Usage {
  long prompt_tokens = 0;
  long completion_tokens = 0;
  bool reported = false;  // o provedor mandou a divisão, com prompt_tokens ≥ 1? (alguns não mandam)
  bool estimated = false;  // quem chamou estimou os números; o transporte nunca estima
  // Tokens que o provedor só contou no total (total_tokens sem a divisão entre
  // entrada e saída). Com reported falso: o transporte não sabe o preço, quem
  // cobra decide (a etapa 02 cobra tudo pelo preço mais caro).
  long unsplit_tokens = 0;

  // Somas saturam em LONG_MAX (ou LONG_MIN) em vez de estourar.
  long total() const;
  // reported e estimated ficam verdadeiros se algum dos dois lados era.
  Usage& operator+=(const Usage& other);
  bool operator==(const Usage&) const = default;
};

// O que o modelo sabe sobre uma ferramenta: nome, descrição e o JSON Schema
// dos argumentos (um objeto com "properties" e "required").
struct ToolSchema {
  std::string name;
  std::string description;
  nlohmann::json parameters;
};

struct ChatRequest {
  std::string model;
  std::vector<Message> messages;
  std::vector<ToolSchema> tools;
};

struct ChatReply {
  Message message;            // sempre com role assistant
  std::string finish_reason;  // como veio; o loop não decide por ele
  Usage usage;
  // reasoning_content/reasoning, se o provedor mandou; nunca volta no histórico.
  std::string reasoning;

  // Fatos para a conta, preenchidos pelo OpenAiClient. Quando a chamada foi
  // refeita (veja fallback), somam as duas tentativas, e usage também.
  std::size_t request_bytes = 0;   // bytes dos corpos JSON enviados
  std::size_t response_bytes = 0;  // bytes dos corpos recebidos
  bool streamed = false;           // esta resposta chegou por streaming
  // Vazio normalmente. Se o cliente mudou de caminho por causa do servidor
  // (refez o pedido sem streaming, desligou o streaming da sessão), uma
  // frase em português dizendo por quê, pronta para o trace.
  std::string fallback;
};

// Mensagens e pedidos em JSON, exatamente como vão no corpo do POST.
nlohmann::json to_json(const Message& message);
nlohmann::json to_json(const ToolSchema& tool);
nlohmann::json to_json(const ChatRequest& request);
std::string encode_request(const ChatRequest& request);
// O uso de tokens como os eventos do trace o gravam (model_response, turn_end):
// {"prompt_tokens": p, "completion_tokens": c}.
nlohmann::json usage_json(const Usage& usage);
// O mesmo pedido com "stream": true e "stream_options": {"include_usage": true}.
std::string encode_stream_request(const ChatRequest& request);

// Lê uma mensagem do JSON (usado pelo mock para gravar pedidos e pelo journal).
Result<Message> message_from_json(const nlohmann::json& json);

// Quantas tool calls uma resposta pode pedir. A API da OpenAI aceita até 128
// ferramentas num pedido; uma resposta que pede mais chamadas que isso não é
// um modelo trabalhando, é uma geração que disparou ou um servidor hostil (10
// mil chamadas rodavam uma a uma). A resposta inteira é recusada, como
// malformada, em vez de rodar as primeiras: rodar 128 e recusar o resto ainda
// poria milhares de resultados de erro no histórico.
inline constexpr std::size_t kMaxToolCallsPerReply = 128;

// Lê o corpo de uma resposta não-streaming de /chat/completions.
// Tolerante às variações listadas no topo; erro só quando não há como
// extrair uma mensagem (corpo que não é JSON, sem "choices", etc.) ou quando
// ela pede mais de kMaxToolCallsPerReply tool calls.
Result<ChatReply> decode_reply(std::string_view body);

// Um evento de um corpo text/event-stream (SSE).
struct SseEvent {
  std::string event;  // o campo "event:", vazio se não veio
  std::string data;   // as linhas "data:" do evento, unidas por \n
  std::string error;  // as linhas "error:", o jeito do llama.cpp mandar um erro
  bool operator==(const SseEvent&) const = default;
};

// Separa um corpo text/event-stream em eventos. Os bytes podem chegar
// partidos em qualquer lugar: no meio de um evento, de uma linha, entre o \r
// e o \n. Fim de linha é \n, \r\n ou \r; uma linha em branco fecha o
// evento; comentários (":") e campos que o chat não usa (id, retry) somem.
class SseDecoder {
 public:
  // Os eventos que estes bytes completaram, em ordem.
  std::vector<SseEvent> feed(std::string_view bytes);
  // O corpo acabou: o evento em curso conta mesmo sem a linha em branco final.
  std::vector<SseEvent> finish();

 private:
  void take_line(std::vector<SseEvent>& events);
  void dispatch(std::vector<SseEvent>& events);

  std::string line_;
  SseEvent pending_;
  bool has_data_ = false;
  // O último pedaço terminou em \r: um \n no começo do próximo é o par dele.
  bool after_cr_ = false;
};

// Por que uma resposta em streaming não virou ChatReply.
struct StreamError {
  enum class Kind {
    cut,        // acabou antes do fim: sem "data: [DONE]" ou sem finish_reason
    provider,   // o provedor mandou um erro no meio do streaming
    malformed,  // um evento que não é JSON, ou não tem a forma de um pedaço
  };
  Kind kind = Kind::cut;
  std::string message;  // em português; com a mensagem do provedor, quando há
};

// Junta uma resposta em streaming de /chat/completions (eventos
// chat.completion.chunk) numa ChatReply igual à do caminho sem streaming:
// texto e raciocínio em ordem; tool calls montadas pelo índice, com id, nome
// e argumentos chegando em pedaços ou inteiros num delta só (um nome vazio
// ou repetido num delta posterior não apaga nem duplica o que já veio; ids
// ausentes viram "call_<i>"); o último finish_reason; o uso do pedaço final
// (choices vazio). Erros: "data: {\"error\": ...}", "event: error" ou uma
// linha "error:" viram StreamError::provider; o primeiro erro vence e o
// resto do corpo é ignorado. Um servidor que ignorou "stream" e mandou um
// JSON comum (o corpo começa com "{") é lido como resposta sem streaming
// (veja plain_json()). Nada aqui lança por causa do que veio da rede.
class StreamDecoder {
 public:
  // on_text recebe cada pedaço não vazio de texto assim que ele chega.
  explicit StreamDecoder(std::function<void(std::string_view)> on_text = {});

  void feed(std::string_view bytes);
  // Chamar quando o corpo terminou sem erro de transporte.
  Result<ChatReply, StreamError> finish();
  bool plain_json() const { return mode_ == Mode::plain; }

 private:
  enum class Mode { unknown, sse, plain };
  struct Slot {
    long index = 0;
    ToolCall call;
  };

  void take_bytes(std::string_view bytes);
  void take(const SseEvent& event);
  void take_chunk(const nlohmann::json& chunk);
  void take_delta(const nlohmann::json& delta);
  void take_tool_call(const nlohmann::json& entry);
  // Cabe mais uma tool call (kMaxToolCallsPerReply)? Se não, falha como malformado.
  bool room_for_call();
  void fail(StreamError::Kind kind, std::string message);

  std::function<void(std::string_view)> on_text_;
  Mode mode_ = Mode::unknown;
  std::string plain_body_;
  SseDecoder sse_;
  ChatReply reply_;
  std::string reasoning_content_;
  std::string reasoning_;
  std::vector<Slot> slots_;  // em ordem de chegada; ordenados pelo índice no fim
  bool done_ = false;
  bool failed_ = false;
  StreamError error_;
};

}  // namespace hz
