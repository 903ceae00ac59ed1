#include "tool_dispatch.hpp"

#include <exception>
#include <string>
#include <utility>

#include "hz/text.hpp"

namespace hz {
namespace {

// listing: tool-names
// "echo, explode": para o modelo saber o que existe quando erra o nome.
std::string tool_names(const std::vector<ToolSchema>& schemas) {
  std::string names;
  for (const auto& schema : schemas) {
    names += (names.empty() ? "" : ", ") + schema.name;
  }
  return names;
}
// end-listing: tool-names

}  // namespace

// listing: tool-result
ToolResult tool_result(const ToolCall& call, const ToolOutput& output, std::size_t max_bytes) {
  // EXERCICIO 01-loop/tool-result: a mensagem tool que responde à chamada, dentro do limite
  return ToolResult{Message::tool(call.id, truncate_middle(output.text, max_bytes)), output.ok,
                    output.text.size()};
  // FIM-EXERCICIO
}
// end-listing: tool-result

// listing: check-arguments
Result<nlohmann::json> check_arguments(const ToolSchema& schema, const ToolCall& call) {
  // EXERCICIO 01-loop/check-arguments: os argumentos como objeto, ou o motivo de não servirem
  // Os argumentos vêm do modelo: texto qualquer, lido sem lançar. Alguns
  // provedores mandam "" quando a ferramenta não tem parâmetros.
  nlohmann::json args = nlohmann::json::object();
  if (call.arguments.find_first_not_of(" \t\r\n") != std::string::npos) {
    args = nlohmann::json::parse(call.arguments, nullptr, /*allow_exceptions=*/false);
  }
  if (!args.is_object()) {
    return Error{"os argumentos de " + call.name + " não são um objeto JSON válido: " +
                 truncate_middle(call.arguments, kMaxQuotedArguments)};
  }
  const nlohmann::json required = schema.parameters.value("required", nlohmann::json::array());
  for (const nlohmann::json& field : required) {
    if (field.is_string() && !args.contains(field.get<std::string>())) {
      return Error{"falta o campo obrigatório \"" + field.get<std::string>() +
                   "\" nos argumentos de " + call.name + "."};
    }
  }
  return args;
  // FIM-EXERCICIO
}
// end-listing: check-arguments

// listing: toolbox
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
// end-listing: toolbox

// listing: dispatch
ToolResult ToolBox::dispatch(const ToolCall& call) const {
  // EXERCICIO 01-loop/dispatch: o resultado da chamada; todo erro vira texto para o modelo
  // Todo caminho termina numa mensagem tool com o id do pedido.
  auto fail = [&](const std::string& why) {
    return tool_result(call, ToolOutput::failure("erro: " + why), max_output_bytes_);
  };
  const Tool* tool = find(call.name);
  if (tool == nullptr) {
    return fail("ferramenta desconhecida \"" + call.name +
                "\". Ferramentas disponíveis: " + tool_names(schemas()) + ".");
  }
  const Result<nlohmann::json> args = check_arguments(tool->schema, call);
  if (!args) return fail(args.error().message);
  if (tool->needs_approval && approver_ && !approver_(*tool, *args)) {
    return fail("o usuário recusou esta chamada de " + call.name + ".");
  }
  try {
    return tool_result(call, tool->run(*args), max_output_bytes_);
  } catch (const std::exception& error) {
    // Uma exceção é um bug da ferramenta, mas o turno não precisa morrer por causa dele.
    return fail("a ferramenta " + call.name + " lançou uma exceção: " + error.what());
  } catch (...) {
    // throw 42 também é "algo que a ferramenta faça": não tem what(), mas vira texto igual.
    return fail("a ferramenta " + call.name + " lançou uma exceção desconhecida");
  }
  // FIM-EXERCICIO
}
// end-listing: dispatch

}  // namespace hz
