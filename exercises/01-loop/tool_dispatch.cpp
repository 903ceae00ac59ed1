#include "tool_dispatch.hpp"

#include <exception>
#include <string>
#include <utility>

#include "hz/not_implemented.hpp"
#include "hz/text.hpp"

// SEU-CODIGO: includes, constantes e funções suas (./hz carry e ./hz update os levam)
// FIM-SEU-CODIGO

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
  // TODO EXERCICIO 01-loop/tool-result: a mensagem tool que responde à chamada, dentro do limite
  throw hz::NotImplemented("01-loop/tool-result",
                           "livro/01-loop.md, \"Exercício 1 — A resposta de uma ferramenta\"");
  // FIM-EXERCICIO
}
// end-listing: tool-result

// listing: check-arguments
Result<nlohmann::json> check_arguments(const ToolSchema& schema, const ToolCall& call) {
  // TODO EXERCICIO 01-loop/check-arguments: os argumentos como objeto, ou o motivo de não servirem
  throw hz::NotImplemented("01-loop/check-arguments",
                           "livro/01-loop.md, \"Exercício 2 — Os argumentos\"");
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
  // TODO EXERCICIO 01-loop/dispatch: o resultado da chamada; todo erro vira texto para o modelo
  throw hz::NotImplemented("01-loop/dispatch", "livro/01-loop.md, \"Exercício 3 — O despacho\"");
  // FIM-EXERCICIO
}
// end-listing: dispatch

}  // namespace hz
