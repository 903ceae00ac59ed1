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
  // EXERCICIO 01-loop/tool-dispatch: rode a chamada; todo erro vira texto na mensagem tool
  // Todo caminho termina aqui: uma mensagem tool com o id do pedido.
  auto answer = [&](ToolOutput output) {
    const std::size_t bytes = output.text.size();
    return ToolResult{Message::tool(call.id, truncate_middle(output.text, max_output_bytes_)),
                      output.ok, bytes};
  };
  auto fail = [&](const std::string& why) { return answer(ToolOutput::failure("erro: " + why)); };

  const Tool* tool = find(call.name);
  if (tool == nullptr) {
    return fail("ferramenta desconhecida \"" + call.name +
                "\". Ferramentas disponíveis: " + tool_names(schemas()) + ".");
  }
  const nlohmann::json args = parse_arguments(call.arguments);
  if (!args.is_object()) {
    return fail("os argumentos de " + call.name +
                " não são um objeto JSON válido: " + truncate_middle(call.arguments, 200));
  }
  if (auto field = missing_field(tool->schema, args)) {
    return fail("falta o campo obrigatório \"" + *field + "\" nos argumentos de " + call.name +
                ".");
  }
  if (tool->needs_approval && approver_ && !approver_(*tool, args)) {
    return fail("o usuário recusou esta chamada de " + call.name + ".");
  }
  try {
    return answer(tool->run(args));
  } catch (const std::exception& error) {
    // Uma exceção é um bug da ferramenta, mas o turno não precisa morrer por causa dele.
    return fail("a ferramenta " + call.name + " lançou uma exceção: " + error.what());
  }
  // STUB: (void)call;
  // STUB: throw hz::NotImplemented("01-loop/tool-dispatch");
  // FIM-EXERCICIO
}
// end-listing: dispatch

}  // namespace hz
