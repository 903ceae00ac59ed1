// Os registros que o loop grava, um em cada fronteira do turno, montados com
// os valores do loop e sem seq (o Journal numera). O que cada tipo leva, e
// como uma linha vira bytes e volta, está em journal_record.hpp.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "hz/tools.hpp"
#include "hz/wire.hpp"
#include "journal_record.hpp"
#include "money.hpp"

namespace hz {

// settings: as configurações que uma retomada precisa repetir (veja
// settings_differences em resume.hpp); "system_prompt" (texto), se houver,
// abre o histórico reconstruído.
nlohmann::json start_record(const nlohmann::json& settings);
nlohmann::json user_record(std::string_view text);
// cost_micros: tudo o que o passo custou (as tentativas cobradas, não só a última).
nlohmann::json reply_record(const Message& message, const Usage& usage, Micros cost_micros);
nlohmann::json intent_record(const Intent& intent);
nlohmann::json result_record(std::string_view call_id, const ToolOutput& output);
// call_id: a tool call em cujo resultado a nota foi (Decision::note_call_id);
// vazio: a última mensagem, e o registro não leva o campo. budget: a nota
// traz o aviso de orçamento (o campo só vai quando é true).
nlohmann::json note_record(std::string_view text, std::string_view call_id = {},
                           bool budget = false);
// cost_micros: o custo do turno inteiro (TurnResult::cost_micros).
nlohmann::json turn_end_record(std::string_view outcome, int model_calls, Micros cost_micros);

}  // namespace hz
