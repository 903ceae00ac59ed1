// Um passo do roteiro no formato de fio do Chat Completions: o corpo JSON
// (sem streaming) e a sequência de eventos SSE (com streaming).
//
// Interno ao mock: o servidor decide QUAL passo responde; aqui só se escreve.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hz/mock/scenario.hpp"

namespace hz::mock::detail {

// O que a resposta precisa saber além do passo.
struct ReplyContext {
  std::size_t ordinal = 1;        // número deste pedido de chat (1, 2, ...): "chatcmpl-hz-N"
  std::size_t call_number = 1;    // o N dos ids gerados "call_N_i" (o pedido ou a posição)
  std::string model = "hz-mock";  // ecoado em "model"
  std::size_t request_bytes = 0;  // tamanho do corpo do pedido, para estimar o uso
};

// O "created" de toda resposta: fixo, para as respostas serem idênticas a cada execução.
inline constexpr long kCreated = 1735689600;  // 2025-01-01T00:00:00Z

// Ids das tool calls como vão no fio: o do roteiro ou "call_<call_number>_<i>".
std::vector<ScriptedToolCall> resolve_tool_calls(const Step& step, const ReplyContext& context);

// O uso do passo, ou a estimativa (bytes / 4, arredondado para cima).
ScriptedUsage usage_for(const Step& step, const ReplyContext& context);

// Corpo de uma resposta sem streaming.
nlohmann::json completion_body(const Step& step, const ReplyContext& context);

// Eventos SSE de uma resposta com streaming, cada um já com "data: ...\n\n",
// o último sendo "data: [DONE]\n\n". Com a peculiaridade stream_drops_tool_calls,
// sem os deltas de tool calls (o finish_reason fica o do passo).
std::vector<std::string> stream_events(const Step& step, const ReplyContext& context,
                                       bool include_usage);

// {"error":{"message","type","param":null,"code"}}; code vazio vira null.
nlohmann::json error_body(const std::string& message, const std::string& type,
                          const std::string& code = "");

// Serializa sem lançar por causa de UTF-8 inválido (troca por U+FFFD).
std::string dump(const nlohmann::json& value);

// Corta um texto em pedaços que não partem caracteres UTF-8 ao meio.
std::vector<std::string> split_words(const std::string& text);
std::vector<std::string> split_bytes(const std::string& text, std::size_t piece);

}  // namespace hz::mock::detail
