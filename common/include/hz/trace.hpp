// O trace: o que o harness fez, para uma pessoa (stderr) e para máquinas
// (JSONL, um objeto por linha com o campo "event").
//
// As etapas emitem eventos; este módulo só escreve. Eventos conhecidos
// (model_request, model_response, tool_start, tool_end, turn_end; da
// etapa 02, model_error, retry, stream_fallback, tool_skipped e note; da
// etapa 03, tool_repetition, repetition_warning e repetition_stop; da etapa
// 04, journal_resume) têm uma linha humana própria; os demais aparecem de
// forma genérica.
//
// O Trace carimba cada evento do JSONL com a hora ("time") e, nos que fecham
// algo, com a duração ("duration_ms"): tool_end desde o tool_start de mesmo
// call_id, model_response e model_error desde o model_request, turn_end desde
// o primeiro evento do turno (o formato está em hz/trace_time.hpp). Quem
// emite não passa hora nenhuma: o relógio é do Trace (o do sistema, um falso
// nos testes, o relógio injetado do loop da etapa 02 em diante). A linha
// humana não mostra horas.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace hz {

// A hora para o trace: nanossegundos desde 1970-01-01T00:00:00Z.
using TraceClock = std::function<std::int64_t()>;

// O relógio do sistema (std::chrono::system_clock).
TraceClock system_trace_clock();

// Um relógio de teste: a primeira leitura dá `start`, e cada leitura seguinte
// anda `step` nanossegundos. Dois traces com o mesmo relógio falso escrevem as
// mesmas horas.
TraceClock stepping_trace_clock(std::int64_t start, std::int64_t step);

// Um relógio que segue outro, monotônico, a partir da hora do sistema de
// agora: `monotonic` dá nanossegundos de uma origem qualquer (o Clock da etapa
// 02, falso ou não). As durações saem dele; a hora de parede, só da âncora.
TraceClock anchored_trace_clock(std::function<std::int64_t()> monotonic);

struct TraceOptions {
  std::ostream* human = nullptr;  // normalmente &std::cerr; nullptr: sem trace humano
  bool color = false;             // só num TTY e sem NO_COLOR (veja terminal.hpp)
  std::optional<std::filesystem::path> jsonl_path;  // --trace FILE
  // Onde avisar, uma única vez, que uma linha do JSONL não pôde ser escrita
  // (disco cheio, /dev/full). Normalmente &std::cerr; nullptr: sem aviso
  // (failed() ainda conta).
  std::ostream* warnings = nullptr;
  // De onde vem a hora dos eventos. Vazio: system_trace_clock().
  TraceClock clock{};
};

// Um campo de evento, como em trace.emit({{"event", "retry"}, {"turn", 2}}).
// Os construtores não são templates e ficam em trace.cpp, um por tipo de
// valor: montar um evento não instancia nada do nlohmann/json em quem emite.
// Cada literal de tamanho diferente ("retry", "tool_end") instanciava um
// construtor do json, e os eventos eram quase um segundo da compilação do
// agent_loop.cpp (o arquivo que o aluno salva e recompila a cada teste).
// Um valor de outro tipo (um vetor, um enum com to_json) passa pelo json.
class TraceField {
 public:
  TraceField(std::string_view key, const char* value);  // nunca nulo
  TraceField(std::string_view key, std::nullptr_t);     // null no JSON
  TraceField(std::string_view key, std::string_view value);
  TraceField(std::string_view key, const std::string& value);
  TraceField(std::string_view key, bool value);
  TraceField(std::string_view key, int value);
  TraceField(std::string_view key, long value);
  TraceField(std::string_view key, long long value);
  TraceField(std::string_view key, unsigned value);
  TraceField(std::string_view key, unsigned long value);
  TraceField(std::string_view key, unsigned long long value);
  TraceField(std::string_view key, double value);
  TraceField(std::string_view key, nlohmann::json value);
  TraceField(const TraceField&) = delete;
  TraceField& operator=(const TraceField&) = delete;
  ~TraceField();

  // A chave aponta para o texto de quem emitiu: vale só durante o emit.
  std::string_view key() const { return key_; }
  const nlohmann::json& value() const { return value_; }

 private:
  std::string_view key_;
  nlohmann::json value_;
};

class Trace {
 public:
  // Lança std::runtime_error (erro de inicialização) se o arquivo JSONL não abrir.
  explicit Trace(TraceOptions options);
  // Um trace que não escreve nada (testes).
  Trace();

  // Pré-condição: event é um objeto com "event" (string). Escreve a linha
  // JSONL (com flush, para sobreviver a um crash) e a linha humana.
  // Uma escrita do JSONL que falha não lança: o aviso vai para
  // options.warnings na primeira vez, as linhas seguintes não são tentadas
  // e failed() passa a ser true.
  // O JSONL leva o evento com "time" e, se for o caso, "duration_ms" (veja
  // o começo deste arquivo); campos com esses nomes que vierem são trocados.
  void emit(const nlohmann::json& event);
  // O mesmo evento, campo a campo: {{"event", "retry"}, {"turn", 2}} chega
  // aqui (uma lista entre chaves prefere o initializer_list). Uma chave
  // repetida vale a primeira vez, como no json.
  void emit(std::initializer_list<TraceField> fields);

  // Troca o relógio (o executável da etapa 02 em diante passa o do loop,
  // que só existe depois de o trace abrir). Vazio: o do sistema.
  void set_clock(TraceClock clock);

  // O modelo dos pedidos: o Trace o acrescenta como "model" a cada
  // model_request (o loop não o repete a cada evento). Vazio: sem o campo.
  void set_model(std::string model) { model_ = std::move(model); }

  // Alguma linha do JSONL se perdeu. A etapa termina com código diferente
  // de zero: o trace pedido ficou incompleto.
  bool failed() const { return !failure_.empty(); }
  // O aviso dado (vazio se nada falhou), sem quebra de linha.
  const std::string& failure() const { return failure_; }

 private:
  void note_failure(int error);
  nlohmann::json stamped(const nlohmann::json& event);

  TraceOptions options_;
  std::ofstream jsonl_;
  std::string failure_;
  std::string model_;
  // O que está aberto, para a duração de quem fecha: a hora de cada
  // ferramenta por call_id, do último model_request e do começo do turno.
  std::map<std::string, std::int64_t> tools_started_;
  std::optional<std::int64_t> model_started_;
  std::optional<std::int64_t> turn_started_;
};

// A linha humana de um evento, sem cor e sem quebra de linha final.
std::string render_human(const nlohmann::json& event);

}  // namespace hz
