// O trace: o que o harness fez, para uma pessoa (stderr) e para máquinas
// (JSONL, um objeto por linha com o campo "event").
//
// As etapas emitem eventos; este módulo só escreve. Eventos conhecidos
// (model_request, model_response, tool_start, tool_end, turn_end; da
// etapa 02, model_error, retry, stream_fallback, tool_skipped e note; da
// etapa 03, tool_repetition, repetition_warning e repetition_stop) têm uma
// linha humana própria; os demais aparecem de forma genérica.
#pragma once

#include <filesystem>
#include <fstream>
#include <iosfwd>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace hz {

struct TraceOptions {
  std::ostream* human = nullptr;  // normalmente &std::cerr; nullptr: sem trace humano
  bool color = false;             // só num TTY e sem NO_COLOR (veja terminal.hpp)
  std::optional<std::filesystem::path> jsonl_path;  // --trace FILE
  // Onde avisar, uma única vez, que uma linha do JSONL não pôde ser escrita
  // (disco cheio, /dev/full). Normalmente &std::cerr; nullptr: sem aviso
  // (failed() ainda conta).
  std::ostream* warnings = nullptr;
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
  void emit(const nlohmann::json& event);

  // Alguma linha do JSONL se perdeu. A etapa termina com código diferente
  // de zero: o trace pedido ficou incompleto.
  bool failed() const { return !failure_.empty(); }
  // O aviso dado (vazio se nada falhou), sem quebra de linha.
  const std::string& failure() const { return failure_; }

 private:
  void note_failure(int error);

  TraceOptions options_;
  std::ofstream jsonl_;
  std::string failure_;
};

// A linha humana de um evento, sem cor e sem quebra de linha final.
std::string render_human(const nlohmann::json& event);

}  // namespace hz
