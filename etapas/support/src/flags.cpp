#include "hz/stage/flags.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace hz::stage {

void add_common_flags(FlagParser& parser, CommonFlags& flags) {
  parser.add_string("scenario", &flags.scenario,
                    "cenário do mock embutido: nome (monday, wednesday) ou arquivo .json "
                    "(padrão sem endpoint: o demo da etapa)",
                    "NOME|ARQUIVO");
  parser.add_string("base-url", &flags.base_url,
                    "endpoint compatível com OpenAI, ex.: http://localhost:11434/v1 "
                    "(padrão: $OPENAI_BASE_URL; sem nenhum, usa o mock embutido)",
                    "URL");
  parser.add_string("model", &flags.model,
                    "modelo pedido ao endpoint, ex.: qwen3:8b (obrigatório com endpoint real)",
                    "NOME");
  parser.add_string("api-key", &flags.api_key, "chave da API (padrão: $OPENAI_API_KEY)", "CHAVE");
  parser.add_string("prompt", &flags.prompt,
                    "roda um turno só com este pedido (sem ele: o pedido do cenário, se "
                    "houver; senão, um chat no stdin)");
  parser.add_int(
      "max-turns", &flags.max_turns,
      "máximo de chamadas ao modelo por turno (padrão: " + std::to_string(flags.max_turns) + ")");
  parser.add_string("workspace", &flags.workspace,
                    "pasta onde as ferramentas trabalham, usada como está (padrão: cópia "
                    "temporária da fixture do cenário, ou a pasta atual com endpoint real)",
                    "DIR");
  parser.add_bool("keep-workspace", &flags.keep_workspace,
                  "não apaga, no fim, a cópia temporária da fixture do cenário (diz onde ela "
                  "ficou)");
  parser.add_string("trace", &flags.trace, "grava os eventos em JSONL, um por linha", "ARQUIVO");
  parser.add_bool("yes", &flags.yes, "não pergunta antes de ferramentas que escrevem ou executam");
  parser.add_string("system-prompt", &flags.system_prompt,
                    "troca o prompt de sistema padrão pelo conteúdo deste arquivo", "ARQUIVO");
  parser.add_int("context-window", &flags.context_window,
                 "a janela de contexto do modelo, em tokens: avisa quando um pedido chega perto "
                 "(padrão: a que o Ollama informa; sem ela, nenhum aviso)",
                 "TOKENS");
}

Result<std::string> read_text_file(const std::string& path) {
  // Um ifstream abre uma pasta sem reclamar e lê zero bytes.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Error{path + " é uma pasta, não um arquivo"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"não consegui ler o arquivo " + path};
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Error{"erro lendo o arquivo " + path};
  return text.str();
}

std::string exit_codes_help(const std::vector<OutcomeCode>& outcomes, bool handles_signals) {
  std::string out = "códigos de saída:\n ";
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    out += (i == 0 ? " " : " · ") + std::to_string(outcomes[i].code) + " " + outcomes[i].label;
  }
  out += "\n";
  if (handles_signals) {
    out +=
        "  cancelled: 128 + o número do sinal (130 no Ctrl-C, 143 no SIGTERM, 129 no SIGHUP);\n"
        "    o comando em curso é encerrado. Depois de um Ctrl-C o chat continua; depois de\n"
        "    SIGTERM ou SIGHUP o programa sai. Um segundo sinal sai na hora.\n";
  } else {
    out +=
        "  Ctrl-C, SIGTERM e SIGHUP: o comando em curso é encerrado e o programa morre do\n"
        "    sinal (o shell mostra 130, 143 ou 129).\n";
  }
  out +=
      handles_signals
          ? "  2 erro de uso · 1 erro de ambiente (uma saída ou um trace que não pôde ser "
            "escrito)\n"
          : "  2 erro de uso · 1 erro do provedor ou de ambiente (uma saída ou um trace que não\n"
            "    pôde ser escrito)\n";
  return out;
}

}  // namespace hz::stage
