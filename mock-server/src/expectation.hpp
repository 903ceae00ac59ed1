// Confere um pedido de chat contra as expectativas de um passo do roteiro.
//
// Interno ao mock. Tolera qualquer JSON (campos ausentes ou de tipo errado
// contam como "não veio"); nunca lança.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "hz/mock/scenario.hpp"

namespace hz::mock::detail {

// nullopt: tudo confere. Senão, a primeira divergência em português, dizendo
// o esperado e o que veio (ex.: esperava a última mensagem com papel "tool", veio "user").
std::optional<std::string> check_expectation(const Expectation& expect,
                                             const nlohmann::json& request);

// O texto de uma mensagem: "content" texto, ou a junção das partes {"type":"text"}.
std::string message_text(const nlohmann::json& message);

}  // namespace hz::mock::detail
