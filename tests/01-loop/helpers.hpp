// Ajudantes dos testes da etapa 01: ferramentas falsas e leitura do trace.
#pragma once

#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hz/testing/printing.hpp"
#include "hz/tools.hpp"
#include "hz/wire.hpp"
#include "outcome.hpp"

namespace hz {

// Numa falha, o desfecho aparece pelo rótulo ("max_turns"), não como {?}.
inline std::ostream& operator<<(std::ostream& out, Outcome outcome) {
  return out << to_string(outcome);
}

}  // namespace hz

namespace hz::test01 {

// Uma ferramenta com os campos obrigatórios dados (todos texto) e o corpo dado.
inline Tool fake_tool(std::string name, std::initializer_list<const char*> required,
                      std::function<ToolOutput(const nlohmann::json&)> run,
                      bool needs_approval = false) {
  nlohmann::json properties = nlohmann::json::object();
  nlohmann::json fields = nlohmann::json::array();
  for (const char* field : required) {
    properties[field] = {{"type", "string"}};
    fields.push_back(field);
  }
  return Tool{ToolSchema{std::move(name),
                         "ferramenta de teste",
                         {{"type", "object"}, {"properties", properties}, {"required", fields}}},
              needs_approval, std::move(run)};
}

// echo{text}: devolve o texto recebido.
inline Tool echo_tool() {
  return fake_tool("echo", {"text"}, [](const nlohmann::json& args) {
    return ToolOutput::success(args.at("text").get<std::string>());
  });
}

// explode{}: sempre lança.
inline Tool throwing_tool() {
  return fake_tool("explode", {}, [](const nlohmann::json&) -> ToolOutput {
    throw std::runtime_error("disco pegou fogo");
  });
}

// As mensagens como vão no corpo do pedido.
inline nlohmann::json wire_messages(const std::vector<Message>& messages) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& message : messages) out.push_back(to_json(message));
  return out;
}

// Cada linha do arquivo JSONL lida como JSON.
inline std::vector<nlohmann::json> read_jsonl(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<nlohmann::json> events;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) events.push_back(nlohmann::json::parse(line));
  }
  return events;
}

inline std::vector<std::string> event_names(const std::vector<nlohmann::json>& events) {
  std::vector<std::string> names;
  for (const auto& event : events) names.push_back(event.at("event").get<std::string>());
  return names;
}

}  // namespace hz::test01
