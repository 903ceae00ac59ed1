// A conversa com a pessoa no terminal: a pergunta de confirmação antes de
// uma ferramenta agir e o chat linha a linha no stdin.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace hz::stage {

// Escreve a pergunta em out e lê uma linha de in. "s", "sim", "y" ou "yes"
// (sem diferenciar maiúsculas) autorizam; qualquer outra coisa, ou fim da
// entrada, recusa.
bool ask_permission(std::istream& in, std::ostream& out, std::string_view tool_name,
                    const nlohmann::json& args);

// O chat: mostra "você> " em out, lê uma linha de in e, se não for vazia,
// roda um turno com ela (turn devolve o código de saída do desfecho). Repete
// até o fim da entrada. Devolve o código do último turno (0 se nenhum).
int run_chat(std::istream& in, std::ostream& out,
             const std::function<int(const std::string&)>& turn);

// "você> TEXTO": a linha do usuário, como o chat a mostraria.
std::string user_line(std::string_view text, bool color);

}  // namespace hz::stage
