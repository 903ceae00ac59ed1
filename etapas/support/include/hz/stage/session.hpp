// De onde vem o modelo e onde as ferramentas trabalham.
//
// Sem endpoint, a etapa sobe o mock embutido (no processo, 127.0.0.1, porta
// efêmera) com um cenário e fala com ele pelo mesmo OpenAiClient, por HTTP:
// o loop não sabe a diferença. Com endpoint (--base-url ou OPENAI_BASE_URL),
// fala com o servidor real.
//
// Regras de escolha:
//   --scenario sem --base-url   mock embutido (OPENAI_BASE_URL é ignorada)
//   --scenario com --base-url   modelo real, mas com a pasta de trabalho e o
//                               pedido padrão do cenário
//   --base-url ou OPENAI_BASE_URL, sem --scenario   modelo real
//   nada disso                  mock embutido com o cenário de demonstração
// Pasta de trabalho: --workspace DIR (usada como está); senão, com cenário,
// uma cópia nova da fixture numa pasta temporária, apagada quando a sessão
// acaba (com --keep-workspace, ou com um journal que a cita, ela fica, e a
// linha "workspace:" diz isso); senão, a pasta atual.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hz/chat_client.hpp"
#include "hz/mock/mock_server.hpp"
#include "hz/result.hpp"
#include "hz/stage/flags.hpp"
#include "hz/trace.hpp"

namespace hz::stage {

// Um problema ao montar a sessão: a mensagem (em português) e o código de
// saída (2 para entrada ruim, 1 para o resto).
struct SetupError {
  int exit_code = 2;
  std::string message;
};

// A cópia temporária da fixture de um cenário: apagada (com tudo o que o
// turno pôs nela) quando este objeto morre, a não ser que keep() tenha sido
// chamado. Vazio: a pasta não é temporária. Só se move.
class TemporaryWorkspace {
 public:
  TemporaryWorkspace() = default;
  TemporaryWorkspace(std::filesystem::path dir, bool keep);
  TemporaryWorkspace(TemporaryWorkspace&& other) noexcept;
  TemporaryWorkspace& operator=(TemporaryWorkspace&& other) noexcept;
  TemporaryWorkspace(const TemporaryWorkspace&) = delete;
  TemporaryWorkspace& operator=(const TemporaryWorkspace&) = delete;
  ~TemporaryWorkspace();

  void keep() { kept_ = true; }
  bool temporary() const { return !dir_.empty(); }
  bool kept() const { return kept_; }

 private:
  void remove() noexcept;
  std::filesystem::path dir_;
  bool kept_ = false;
};

struct Session {
  bool scripted = false;        // true: o modelo é o mock embutido (nunca pergunta nada)
  std::string scenario_name;    // vazio: sem cenário
  std::string scenario_prompt;  // o pedido padrão do cenário (vazio: sem cenário)
  std::string model_name;       // o "model" dos pedidos
  std::string base_url;         // com quem o cliente fala
  std::filesystem::path workspace;
  TemporaryWorkspace temporary;            // a cópia da fixture, se workspace é uma
  std::unique_ptr<mock::MockServer> mock;  // só quando scripted
  std::unique_ptr<OpenAiClient> client;

  // Falhas registradas pelo mock embutido (roteiro que não casou), já com os
  // caracteres de controle escapados para o terminal; vazio com endpoint real.
  std::vector<std::string> mock_failures() const;
};

// Monta a sessão a partir das flags e do ambiente (OPENAI_BASE_URL,
// OPENAI_API_KEY). default_scenario é o demo da etapa ("monday"); http, os
// tempos do transporte (a etapa 02 os lê de --timeout, --connect-timeout e
// --idle-timeout).
Result<Session, SetupError> open_session(const CommonFlags& flags,
                                         std::string_view default_scenario,
                                         const HttpOptions& http = {});

// O trace da etapa: linha humana em stderr (cor só num TTY sem NO_COLOR) e,
// se jsonl_path não for vazio, o JSONL. Erro 2 se o arquivo não abrir. Uma
// escrita do JSONL que falhe depois é avisada uma vez em stderr (veja
// Trace::failed: a etapa sai com 1).
Result<std::unique_ptr<Trace>, SetupError> open_trace(const std::string& jsonl_path);

// Algumas linhas para stderr dizendo com quem se fala e onde se trabalha
// (escapadas: o nome do cenário e o do modelo vêm de arquivos).
std::string describe(const Session& session);

// O código de saída do programa, no fim: `code` (o do último turno), ou 1 se
// a resposta não chegou ao stdout (answer_lost) ou se o trace pedido ficou
// incompleto (trace_failed) num código 0. Antes, conta em err, com o nome do
// programa, as falhas que o mock embutido registrou e a resposta perdida.
int closing_code(std::ostream& err, std::string_view program, const Session& session,
                 bool answer_lost, bool trace_failed, int code);

}  // namespace hz::stage
