// As flags que todo executável de etapa aceita (etapas/01-loop/README.md, "Flags") e a leitura
// dos arquivos que elas apontam.
#pragma once

#include <string>
#include <vector>

#include "hz/cli.hpp"
#include "hz/result.hpp"

namespace hz::stage {

struct CommonFlags {
  std::string scenario;         // --scenario NOME|ARQUIVO
  std::string base_url;         // --base-url (vazio: OPENAI_BASE_URL; veja session.hpp)
  std::string model;            // --model
  std::string api_key;          // --api-key (vazio: OPENAI_API_KEY)
  std::string prompt;           // --prompt: um turno só, sem chat
  int max_turns = 0;            // --max-turns: o main põe o padrão da etapa antes de registrar
  std::string workspace;        // --workspace DIR
  bool keep_workspace = false;  // --keep-workspace: não apaga a cópia temporária do cenário
  std::string trace;            // --trace ARQUIVO (JSONL)
  bool yes = false;             // --yes: não pergunta antes de escrever ou executar
  std::string system_prompt;    // --system-prompt ARQUIVO
  int context_window = 0;  // --context-window: tokens; 0, desconhecida (veja context_guard.hpp)
};

// Registra as flags acima em parser. Os textos de ajuda mostram os padrões
// atuais de flags (por isso max_turns já deve estar preenchido).
void add_common_flags(FlagParser& parser, CommonFlags& flags);

// O conteúdo inteiro de um arquivo de texto, ou um Error com o motivo.
Result<std::string> read_text_file(const std::string& path);

// A seção "códigos de saída" do --help. outcomes: os desfechos da etapa, com o
// código de cada um, na ordem em que aparecem; cancelled fica de fora (o
// código dele depende do sinal). handles_signals: a etapa trata Ctrl-C,
// SIGTERM e SIGHUP (02 em diante) ou morre deles (01).
struct OutcomeCode {
  std::string label;
  int code = 0;
};
std::string exit_codes_help(const std::vector<OutcomeCode>& outcomes, bool handles_signals);

}  // namespace hz::stage
