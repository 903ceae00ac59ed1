// As ferramentas básicas oferecidas ao modelo (a lista está em etapas/01-loop/README.md).
//
// As de arquivo passam todo caminho por Workspace::resolve. run_shell roda
// com o workspace como diretório atual, tempo limite e saída cortada, mas não
// é uma caixa de areia: o comando pode sair da pasta. A defesa ali é a
// confirmação do usuário (needs_approval), não o confinamento.
//
// Uma Tool recebe argumentos já lidos como objeto JSON e já conferidos contra
// os campos obrigatórios do schema (quem confere é o despacho da etapa). Ela
// devolve ToolOutput: falhas esperadas (arquivo inexistente, texto não
// encontrado) são ToolOutput::failure, nunca exceção.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hz/wire.hpp"
#include "hz/workspace.hpp"

namespace hz {

struct ToolOutput {
  bool ok = true;
  std::string text;  // o que o modelo vai ler

  static ToolOutput success(std::string text) { return {true, std::move(text)}; }
  static ToolOutput failure(std::string text) { return {false, std::move(text)}; }
};

struct Tool {
  ToolSchema schema;            // nome, descrição e JSON Schema dos argumentos
  bool needs_approval = false;  // escreve ou executa algo: pergunta antes (endpoint real)
  std::function<ToolOutput(const nlohmann::json& args)> run;
};

struct ShellOptions {
  std::chrono::milliseconds timeout{30000};
  // Saída maior que isso fica só com o começo e o fim (metade para cada), um
  // marcador "[... N bytes omitidos ...]" no meio (o de truncate_middle) e,
  // antes dela, a linha "[saída de T bytes: mostrando o começo e o fim]".
  std::size_t max_output_bytes = 64 * 1024;
};

// read_file{path}, write_file{path, content}, edit_file{path, old_text, new_text},
// list_dir{path}, run_shell{command}, nessa ordem. Cada Tool guarda uma cópia
// do workspace.
std::vector<Tool> basic_tools(const Workspace& workspace, ShellOptions shell = {});

// append_file{path, content}: a ferramenta não idempotente da etapa 04.
Tool append_file_tool(const Workspace& workspace);

}  // namespace hz
