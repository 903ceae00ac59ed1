// Como o doctest mostra os tipos do fio quando uma comparação falha: os dois
// lados legíveis, em vez de "{?} == {?}".
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "hz/wire.hpp"

namespace doctest {

template <>
struct StringMaker<hz::Usage> {
  static String convert(const hz::Usage& usage) {
    const std::string text = "Usage{" + std::to_string(usage.prompt_tokens) + ", " +
                             std::to_string(usage.completion_tokens) +
                             (usage.reported ? ", reported" : ", não informado") +
                             (usage.estimated ? ", estimated}" : "}");
    return String(text.c_str());
  }
};

template <>
struct StringMaker<hz::ToolCall> {
  static String convert(const hz::ToolCall& call) {
    const std::string text = "ToolCall{" + call.id + ", " + call.name + ", " + call.arguments + "}";
    return String(text.c_str());
  }
};

template <>
struct StringMaker<std::vector<hz::ToolCall>> {
  static String convert(const std::vector<hz::ToolCall>& calls) {
    std::string text = "[";
    for (const hz::ToolCall& call : calls) {
      if (text.size() > 1) text += ", ";
      text += StringMaker<hz::ToolCall>::convert(call).c_str();
    }
    text += "]";
    return String(text.c_str());
  }
};

template <>
struct StringMaker<hz::SseEvent> {
  static String convert(const hz::SseEvent& event) {
    const std::string text = "SseEvent{event=\"" + event.event + "\", data=\"" + event.data +
                             "\", error=\"" + event.error + "\"}";
    return String(text.c_str());
  }
};

template <>
struct StringMaker<std::vector<hz::SseEvent>> {
  static String convert(const std::vector<hz::SseEvent>& events) {
    std::string text = "[";
    for (const hz::SseEvent& event : events) {
      if (text.size() > 1) text += ", ";
      text += StringMaker<hz::SseEvent>::convert(event).c_str();
    }
    text += "]";
    return String(text.c_str());
  }
};

}  // namespace doctest
