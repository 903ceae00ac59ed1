// Alvo: os argumentos de uma tool call, do texto do modelo até a ferramenta
// (hz::check_arguments e hz::ToolBox::dispatch da etapa 01, com ferramentas
// falsas e a pergunta de confirmação de verdade, hz::stage::ask_permission).
//
// Entrada: um byte de opções, o nome da ferramenta até o primeiro \n e os
// argumentos (o texto JSON do modelo) no resto.
//
// Propriedades: nada lança; toda chamada vira exatamente uma mensagem tool
// com o id do pedido; o texto cabe no limite (mais o marcador do corte); um
// erro começa com "erro: "; uma ferramenta só roda com argumentos que
// check_arguments aceitou (um objeto com os campos obrigatórios) e, se pede
// aprovação, só depois de aprovada; a pergunta não deixa controles crus
// chegarem ao terminal.
#include <exception>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hz/stage/console.hpp"
#include "hz/tools.hpp"
#include "support.hpp"
#include "tool_dispatch.hpp"

namespace {

using nlohmann::json;

hz::Tool fake(std::string name, std::vector<std::string> required, bool needs_approval,
              std::function<hz::ToolOutput(const json&)> run) {
  json properties = json::object();
  for (const std::string& field : required) properties[field] = {{"type", "string"}};
  return hz::Tool{
      hz::ToolSchema{std::move(name),
                     "ferramenta falsa do fuzzing",
                     {{"type", "object"}, {"properties", properties}, {"required", required}}},
      needs_approval, std::move(run)};
}

// Toda ferramenta confere o que o despacho prometeu entregar a ela.
std::function<hz::ToolOutput(const json&)> checked(std::vector<std::string> required,
                                                   std::function<hz::ToolOutput(const json&)> run) {
  return [required = std::move(required), run = std::move(run)](const json& args) {
    hz::fuzz::check(args.is_object(), "a ferramenta só recebe um objeto");
    for (const std::string& field : required) {
      hz::fuzz::check(args.contains(field), "a ferramenta recebe os campos obrigatórios");
    }
    return run(args);
  };
}

struct Box {
  bool approve = false;
  bool asked = false;
  std::string prompt;
  hz::ToolBox box;

  Box(bool approve_all, std::size_t max_bytes)
      : approve(approve_all),
        box(
            tools(), [this](const hz::Tool& tool, const json& args) { return ask(tool, args); },
            max_bytes) {}

  bool ask(const hz::Tool& tool, const json& args) {
    asked = true;
    std::istringstream in(approve ? "s\n" : "n\n");
    std::ostringstream out;
    const bool yes = hz::stage::ask_permission(in, out, tool.schema.name, args);
    prompt = out.str();
    return yes;
  }

  static std::vector<hz::Tool> tools() {
    std::vector<hz::Tool> all;
    all.push_back(fake("echo", {"text"}, false, checked({"text"}, [](const json& args) {
                         const json& text = args.at("text");
                         return hz::ToolOutput::success(text.is_string() ? text.get<std::string>()
                                                                         : std::string("?"));
                       })));
    all.push_back(fake("explode", {}, false, checked({}, [](const json&) -> hz::ToolOutput {
                         throw std::runtime_error("disco pegou fogo");
                       })));
    all.push_back(fake("write", {"path", "content"}, true,
                       checked({"path", "content"},
                               [](const json&) { return hz::ToolOutput::success("escrito"); })));
    all.push_back(fake("many", {"a", "b", "c"}, false, checked({"a", "b", "c"}, [](const json&) {
                         return hz::ToolOutput::failure(std::string(5000, 'x'));
                       })));
    return all;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t options = data[0];
  const std::string_view rest = hz::fuzz::text_of(data + 1, size - 1);
  const std::size_t newline = rest.find('\n');
  const hz::ToolCall call{
      "call_fuzz", std::string(rest.substr(0, newline)),
      newline == std::string_view::npos ? std::string() : std::string(rest.substr(newline + 1))};
  const std::size_t max_bytes = (options & 2U) != 0 ? 64 : hz::kDefaultMaxToolOutput;
  using hz::fuzz::check;
  try {
    Box box((options & 1U) != 0, max_bytes);
    const hz::Tool* tool = box.box.find(call.name);
    if (tool != nullptr) (void)hz::check_arguments(tool->schema, call);

    const hz::ToolResult result = box.box.dispatch(call);
    check(result.message.role == hz::Role::tool, "o despacho devolve uma mensagem tool");
    check(result.message.tool_call_id == call.id, "a mensagem responde pelo id do pedido");
    // O marcador do corte é "[... N bytes omitidos ...]": folga de 64 bytes.
    check(result.message.content.size() <= max_bytes + 64, "o texto cabe no limite");
    if (!result.ok)
      check(result.message.content.rfind("erro: ", 0) == 0 || call.name == "many",
            "um erro começa com \"erro: \"");
    if (box.asked) {
      check(hz::fuzz::terminal_safe(box.prompt), "a pergunta não leva controles crus");
      if (!box.approve) check(!result.ok, "ferramenta recusada não roda");
    }
  } catch (const std::exception& error) {
    hz::fuzz::escaped("ToolBox::dispatch", error);
  }
  return 0;
}
