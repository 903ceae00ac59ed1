// O que o chat das etapas 02 em diante monta em volta do loop e depende do
// núcleo da etapa: o prompt de sistema (o padrão é o do context.hpp dela) e
// quem aprova as ferramentas (o Approver do tool_dispatch.hpp dela). Como o
// brakes_cli.hpp, não é uma biblioteca: veja o comentário de lá.
#pragma once

#include <iostream>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "context.hpp"
#include "hz/result.hpp"
#include "hz/stage/console.hpp"
#include "hz/stage/flags.hpp"
#include "hz/stage/session.hpp"
#include "hz/tools.hpp"
#include "tool_dispatch.hpp"

namespace hz::stage {

// O prompt de sistema: o arquivo de --system-prompt ou o padrão da etapa. O
// Error cita a flag.
inline Result<std::string> system_prompt_of(const CommonFlags& flags) {
  if (flags.system_prompt.empty()) return std::string(default_system_prompt());
  auto text = read_text_file(flags.system_prompt);
  if (!text) return Error{"--system-prompt: " + text.error().message};
  return std::move(text).value();
}

// Com modelo real, quem escreve ou executa pergunta antes no terminal (a não
// ser com --yes); o roteiro do mock já é conhecido, então não pergunta (vazio).
inline Approver approver_for(const Session& session, const CommonFlags& flags) {
  if (session.scripted || flags.yes) return {};
  return [](const Tool& tool, const nlohmann::json& args) {
    return ask_permission(std::cin, std::cerr, tool.schema.name, args);
  };
}

}  // namespace hz::stage
