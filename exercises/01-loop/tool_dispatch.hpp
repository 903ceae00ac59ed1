// O despacho: cada tool call do modelo vira exatamente uma mensagem tool.
//
// É o contrato que mantém o loop de pé: nada que o modelo peça derruba o
// turno. Ferramenta desconhecida, argumentos que não são um objeto JSON,
// campo obrigatório ausente, execução recusada pelo usuário e ferramenta que
// lança exceção viram texto de erro na mensagem tool, e o modelo decide o que
// fazer com ele na próxima chamada.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "hz/result.hpp"
#include "hz/tools.hpp"
#include "hz/wire.hpp"

namespace hz {

// listing: max-output
// Quanto da saída de uma ferramenta vai para o histórico (o resto é cortado
// no meio, guardando começo e fim; veja truncate_middle em hz/text.hpp).
inline constexpr std::size_t kDefaultMaxToolOutput = 16 * 1024;
// end-listing: max-output

// listing: approver
// Pergunta se uma ferramenta que escreve ou executa (Tool::needs_approval)
// pode rodar com estes argumentos (já validados). true: pode.
using Approver = std::function<bool(const Tool& tool, const nlohmann::json& args)>;
// end-listing: approver

// listing: tool-result
// O resultado de despachar uma chamada.
struct ToolResult {
  Message message;               // papel tool, tool_call_id igual ao id do pedido
  bool ok = false;               // false: o texto é um erro para o modelo ler
  std::size_t output_bytes = 0;  // tamanho do texto antes do corte
};

// A resposta a uma chamada: uma mensagem tool com o id do pedido e o texto
// da saída cortado no meio em max_bytes (truncate_middle). output_bytes é o
// tamanho antes do corte.
ToolResult tool_result(const ToolCall& call, const ToolOutput& output, std::size_t max_bytes);
// end-listing: tool-result

// listing: check-arguments
// Os argumentos de call lidos como objeto JSON e conferidos contra o schema:
// texto vazio (ou só espaços) vale {}, e campos além dos de "required" voltam
// no objeto. Uma recusa é um Error com o texto para o modelo (sem o prefixo
// "erro: "), com as suas palavras, que cita o nome pedido (call.name) e:
//   - texto que não é JSON, ou JSON que não é objeto: o texto recebido,
//     cortado no meio em kMaxQuotedArguments bytes (truncate_middle);
//   - um campo de "required" ausente: o primeiro que falta, na ordem do
//     schema, entre aspas ("path").
Result<nlohmann::json> check_arguments(const ToolSchema& schema, const ToolCall& call);

inline constexpr std::size_t kMaxQuotedArguments = 200;
// end-listing: check-arguments

// listing: toolbox
class ToolBox {
 public:
  // approver vazio: nada é perguntado (cenários roteirizados, --yes).
  explicit ToolBox(std::vector<Tool> tools, Approver approver = {},
                   std::size_t max_output_bytes = kDefaultMaxToolOutput);

  // Os schemas, na ordem das ferramentas: vão em toda chamada ao modelo.
  std::vector<ToolSchema> schemas() const;

  // nullptr se não há ferramenta com esse nome.
  const Tool* find(std::string_view name) const;

  // Limite, em bytes, do texto de uma mensagem tool.
  std::size_t max_output_bytes() const { return max_output_bytes_; }

  // Roda uma chamada e devolve a mensagem tool que responde a ela. Não lança
  // por nada que venha do modelo ou da ferramenta. A chamada passa por
  // portas, nesta ordem, e a primeira que fecha dá um erro (ok falso) que
  // começa por "erro: " e segue com as suas palavras:
  //   - nenhuma ferramenta com o nome: cita o nome e os da caixa, na ordem;
  //   - check_arguments recusou: o texto do Error dele;
  //   - o aprovador (só com needs_approval e um aprovador) disse não: cita o
  //     nome da ferramenta;
  //   - run lançou: cita o nome e o what() (algo que não é std::exception,
  //     sem what(), também vira erro, com o nome).
  // Uma falha esperada (ToolOutput::failure) vai como veio, sem prefixo.
  ToolResult dispatch(const ToolCall& call) const;

 private:
  std::vector<Tool> tools_;
  Approver approver_;
  std::size_t max_output_bytes_;
};
// end-listing: toolbox

}  // namespace hz
