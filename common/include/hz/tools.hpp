// As ferramentas básicas oferecidas ao modelo (a lista está em etapas/01-loop/README.md).
//
// As de arquivo passam todo caminho por Workspace::place e trabalham sobre
// descritores abertos a partir da raiz, sem reabrir nomes: um link trocado
// no meio da operação não as leva para fora. Elas só leem e escrevem
// arquivos comuns (um FIFO, um dispositivo ou um socket é recusado, sem
// travar) de até 1 MiB (read_file e edit_file). write_file e edit_file
// escrevem um arquivo temporário ao lado, fazem fsync e o renomeiam por
// cima: uma escrita que falha (disco cheio) deixa o original intacto. O
// modo do arquivo é mantido; hard links para ele deixam de compartilhar o
// conteúdo (o nome passa a apontar para um arquivo novo).
//
// run_shell roda com o workspace como diretório atual, tempo limite e saída
// cortada, mas não é uma caixa de areia: o comando pode sair da pasta. A
// defesa ali é a confirmação do usuário (needs_approval), não o confinamento.
//
// Uma Tool recebe argumentos já lidos como objeto JSON e já conferidos contra
// os campos obrigatórios do schema (quem confere é o despacho da etapa). Ela
// devolve ToolOutput: falhas esperadas (arquivo inexistente, texto não
// encontrado) são ToolOutput::failure, nunca exceção.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
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

// O que fazer, na retomada (etapa 04), com uma chamada cuja intenção está no
// journal e o resultado não: o processo caiu entre o efeito e o registro.
//   yes    rodar de novo dá o mesmo efeito (read_file, list_dir, write_file);
//   check  dá para conferir pelo estado do workspace se o efeito aconteceu
//          (edit_file pelo texto; append_file pela chave gravada na intenção);
//   no     não dá para saber nem para repetir sem risco (run_shell): o modelo
//          ouve que o resultado é desconhecido.
enum class Idempotency { yes, check, no };

struct Tool {
  ToolSchema schema;            // nome, descrição e JSON Schema dos argumentos
  bool needs_approval = false;  // escreve ou executa algo: pergunta antes (endpoint real)
  std::function<ToolOutput(const nlohmann::json& args)> run;
  // Só a etapa 04 pergunta. O padrão é o seguro: quem não declara nunca roda de novo.
  Idempotency idempotency = Idempotency::no;
};

// run_shell: o comando roda com /bin/sh -c num grupo de processos só dele.
// Quando o shell sai, a saída é lida por mais um instante e o resultado é o
// código de saída do próprio shell; filhos deixados em segundo plano são
// mortos (SIGKILL ao grupo), não esperados. No tempo esgotado ou no
// cancelamento, o grupo recebe SIGTERM e, se o shell não sair logo, SIGKILL.
// Limite: um processo que sai do grupo (setsid, setpgid) escapa desse
// encerramento e continua rodando.
struct ShellOptions {
  std::chrono::milliseconds timeout{30000};
  // Saída maior que isso fica só com o começo e o fim (metade para cada), um
  // marcador "[... N bytes omitidos ...]" no meio (o de truncate_middle) e,
  // antes dela, a linha "[saída de T bytes: mostrando o começo e o fim]".
  std::size_t max_output_bytes = 64 * 1024;
  // Se não for nulo, é consultado pelo menos a cada 50 ms enquanto o comando
  // roda: true encerra o grupo e devolve uma falha "comando cancelado ...".
  // Quem passa (a etapa 02, no Ctrl-C) mantém o atomic vivo enquanto as
  // ferramentas existirem.
  const std::atomic<bool>* cancel = nullptr;
};

// read_file{path}, write_file{path, content}, edit_file{path, old_text, new_text},
// list_dir{path}, run_shell{command}, nessa ordem. Cada Tool guarda uma cópia
// do workspace.
std::vector<Tool> basic_tools(const Workspace& workspace, ShellOptions shell = {});

// append_file{path, content}: a ferramenta não idempotente da etapa 04.
Tool append_file_tool(const Workspace& workspace);

// A troca que o edit_file faz, sem o disco: se old_text (não vazio) aparece
// exatamente uma vez em text, contando sobreposições ("aa" aparece 2 vezes
// em "aaa": trocar "a primeira" seria um chute), essa vez vira new_text.
// occurrences diz quantas vezes apareceu; com qualquer número diferente de 1
// (ou old_text vazio, 0), text volta como estava. A retomada da etapa 04
// calcula com ela o arquivo que a troca deixaria, pela mesma regra.
struct TextEdit {
  std::size_t occurrences = 0;
  std::string text;
};
TextEdit edit_text(std::string text, std::string_view old_text, std::string_view new_text);

// O resultado de um append_file que deu certo: "texto acrescentado a P (N
// bytes; agora com M bytes)", com o tamanho do arquivo depois. O tamanho é o
// estado do workspace que a ferramenta relata: o mesmo acréscimo três vezes
// dá três resultados diferentes, e o detector de repetição da etapa 03 os
// conta como progresso (o arquivo cresceu), não como travamento. A retomada
// da etapa 04 usa o mesmo texto para o resultado de um acréscimo já feito.
std::string appended_text(std::string_view path, std::uint64_t bytes, std::uint64_t size_after);

// Mata (SIGKILL no grupo) os comandos que o run_shell roda neste momento.
// Segura dentro de um tratador de sinal: só lê atomics e chama kill. Para o
// programa que vai sair por um sinal não deixar comandos rodando: eles vivem
// num grupo próprio, que o Ctrl-C do terminal não alcança.
void kill_running_commands() noexcept;

// Para um programa sem tratador de sinal próprio (a etapa 01): em SIGINT,
// SIGTERM e SIGHUP, mata os comandos em curso e morre do mesmo sinal, como
// morreria sem o tratador (o shell mostra 128 + o número do sinal).
void end_commands_on_signals();

}  // namespace hz
