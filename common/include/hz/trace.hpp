// O trace: o que o harness fez, para uma pessoa (stderr) e para máquinas
// (JSONL, um objeto por linha com o campo "event").
//
// As etapas emitem eventos; este módulo só escreve. Eventos conhecidos
// (model_request, model_response, tool_start, tool_end, turn_end) têm uma
// linha humana própria; os demais aparecem de forma genérica.
#pragma once

#include <filesystem>
#include <fstream>
#include <iosfwd>
#include <optional>

#include <nlohmann/json.hpp>

namespace hz {

struct TraceOptions {
  std::ostream* human = nullptr;  // normalmente &std::cerr; nullptr: sem trace humano
  bool color = false;             // só num TTY e sem NO_COLOR (veja terminal.hpp)
  std::optional<std::filesystem::path> jsonl_path;  // --trace FILE
};

class Trace {
 public:
  // Lança std::runtime_error (erro de inicialização) se o arquivo JSONL não abrir.
  explicit Trace(TraceOptions options);
  // Um trace que não escreve nada (testes).
  Trace();

  // Pré-condição: event é um objeto com "event" (string). Escreve a linha
  // JSONL (com flush, para sobreviver a um crash) e a linha humana.
  void emit(const nlohmann::json& event);

 private:
  TraceOptions options_;
  std::ofstream jsonl_;
};

// A linha humana de um evento, sem cor e sem quebra de linha final.
std::string render_human(const nlohmann::json& event);

}  // namespace hz
