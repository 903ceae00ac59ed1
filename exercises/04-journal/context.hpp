// O contexto com que uma conversa começa: as regras do harness para o modelo
// (o prompt de sistema) e, a cada turno, a mensagem do usuário.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hz/wire.hpp"

namespace hz {

// O prompt de sistema padrão da etapa (--system-prompt FILE troca por outro).
std::string_view default_system_prompt();

// Um histórico novo: só a mensagem de sistema.
std::vector<Message> start_conversation(std::string system_prompt);

// Acrescenta a mensagem do usuário que abre um turno.
void add_user_message(std::vector<Message>& history, std::string text);

}  // namespace hz
