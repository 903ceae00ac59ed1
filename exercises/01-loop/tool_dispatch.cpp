#include "tool_dispatch.hpp"

#include <exception>
#include <optional>
#include <string>
#include <utility>

#include "hz/not_implemented.hpp"
#include "hz/text.hpp"

namespace hz {
namespace {

// Argumentos vêm do modelo: texto qualquer. Nunca lançar por causa dele;
// um texto vazio conta como objeto vazio (alguns provedores mandam "" quando
// a ferramenta não tem parâmetros).
[[maybe_unused]] nlohmann::json parse_arguments(const std::string& text) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    return nlohmann::json::object();
  }
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

// O primeiro campo de "required" do schema que não veio nos argumentos.
[[maybe_unused]] std::optional<std::string> missing_field(const ToolSchema& schema,
                                                          const nlohmann::json& args) {
  const auto required = schema.parameters.find("required");
  if (required == schema.parameters.end() || !required->is_array()) return std::nullopt;
  for (const auto& field : *required) {
    if (field.is_string() && !args.contains(field.get<std::string>())) {
      return field.get<std::string>();
    }
  }
  return std::nullopt;
}

[[maybe_unused]] std::string tool_names(const std::vector<ToolSchema>& schemas) {
  std::string names;
  for (const auto& schema : schemas) {
    names += (names.empty() ? "" : ", ") + schema.name;
  }
  return names;
}

}  // namespace

ToolBox::ToolBox(std::vector<Tool> tools, Approver approver, std::size_t max_output_bytes)
    : tools_(std::move(tools)),
      approver_(std::move(approver)),
      max_output_bytes_(max_output_bytes) {}

std::vector<ToolSchema> ToolBox::schemas() const {
  std::vector<ToolSchema> schemas;
  schemas.reserve(tools_.size());
  for (const auto& tool : tools_) schemas.push_back(tool.schema);
  return schemas;
}

const Tool* ToolBox::find(std::string_view name) const {
  for (const auto& tool : tools_) {
    if (tool.schema.name == name) return &tool;
  }
  return nullptr;
}

// listing: dispatch
ToolResult ToolBox::dispatch(const ToolCall& call) const {
  // TODO EXERCICIO 01-loop/tool-dispatch: rode a chamada; todo erro vira texto na mensagem tool
  (void)call;
  throw hz::NotImplemented("01-loop/tool-dispatch");
  // FIM-EXERCICIO
}
// end-listing: dispatch

}  // namespace hz
