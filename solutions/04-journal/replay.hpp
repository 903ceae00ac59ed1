// O que fazer com uma chamada de ferramenta que começou e não terminou: a
// intenção gravada antes de ela rodar (com a chave do efeito, para as
// ferramentas que dá para conferir) e a decisão na retomada, que pergunta ao
// journal o que aconteceu e ao disco o que ficou.
//
// snapshot_file, as chaves (edit_key_for, append_key_for, intent_for) e
// decide_replay olham o workspace; decide_edit e decide_append são funções
// puras sobre o que snapshot_file viu.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "hz/tools.hpp"
#include "hz/wire.hpp"
#include "hz/workspace.hpp"
#include "journal_record.hpp"
#include "tool_dispatch.hpp"

namespace hz {

// listing: replay
// O texto que o modelo recebe quando não dá para saber se a chamada terminou.
inline constexpr std::string_view kUnknownResultText =
    "o processo caiu antes de gravar o resultado desta chamada; não sei se ela terminou; "
    "confira antes de repetir";

// O destino de uma chamada com intenção e sem resultado.
struct Replay {
  enum class Kind { run, done, unknown };
  Kind kind = Kind::unknown;
  ToolOutput result;   // done: o resultado que a ferramenta teria dado; unknown: a falha
                       // com kUnknownResultText; run: vazio (quem chama roda a ferramenta)
  std::string reason;  // uma frase para o trace e o chat
};

std::string_view to_string(Replay::Kind kind);
// end-listing: replay

// Um pedaço de um arquivo do workspace, como está agora.
struct FileSnapshot {
  bool exists = false;
  std::uint64_t size = 0;    // o tamanho inteiro
  std::uint64_t offset = 0;  // de onde bytes começa
  std::string bytes;         // a partir de offset, no máximo o que foi pedido
  std::string error;         // não vazio: não deu para olhar (e o resto não vale)
};

// Olha path (relativo ao workspace, pelas mesmas regras das ferramentas):
// o tamanho e até max_bytes a partir de offset. Inexistente não é erro.
FileSnapshot snapshot_file(const Workspace& workspace, std::string_view path, std::uint64_t offset,
                           std::size_t max_bytes);

// listing: decide-edit
// edit_file, pela chave: o arquivo como antes da troca, não aconteceu (rodar:
// dá o que a primeira daria); como a troca o deixaria, aconteceu (feito, com o
// resultado que a ferramenta teria dado); diferente dos dois, ou sem como
// olhar, desconhecido. file deve ter o arquivo inteiro (até kMaxEditBytes + 1).
Replay decide_edit(const EditKey& key, std::string_view path, const FileSnapshot& file);
// end-listing: decide-edit

// decide_append (abaixo), caso a caso e nesta ordem, com o reason exato (P é
// path; n, o tamanho do texto; a, key.size_before; d, a + n; agora, o tamanho
// do arquivo, 0 se ele não existe; B(x), bytes_text(x) de hz/text.hpp, como
// "6 bytes"; os outros números, só os algarismos; literais vizinhos formam
// um texto só):
//   file.error não vazio: unknown, "append_file: " seguido de file.error
//   content sem o tamanho e o CRC-32C da chave: unknown,
//     "append_file: os argumentos não batem com a chave da intenção"
//   agora == a: run, "append_file: P tem o tamanho de antes (B(a)); o texto não entrou"
//   agora == d e o arquivo, a partir de a, é exatamente o texto: done, com o
//     resultado que a ferramenta teria dado (appended_text, de hz/tools.hpp) e
//     "append_file: P tem o tamanho de antes mais o texto (a + B(n)) e termina "
//     "com ele; o texto já entrou"
//   qualquer outra coisa: unknown, "append_file: P tem B(agora); esperava a "
//     "(antes) ou d (depois), terminando com o texto"
// listing: decide-append
// append_file, pela chave: tamanho igual ao de antes, não entrou (rodar);
// tamanho de antes + o texto, com os bytes do fim iguais ao texto, entrou
// (feito, com o resultado que a ferramenta teria dado); qualquer outra coisa,
// desconhecido. file deve começar em key.size_before.
Replay decide_append(const AppendKey& key, std::string_view path, std::string_view content,
                     const FileSnapshot& file);
// end-listing: decide-append

// decide_replay (abaixo), caso a caso, com o reason exato de cada decisão (N é
// intent.call.name; os testes conferem o tipo da decisão e o texto):
//   yes: run, "N é idempotente: roda de novo"
//   no: unknown, "N não é idempotente e não dá para conferir: o modelo vai saber"
//   check, e N não é edit_file nem append_file:
//     unknown, "N: não sei conferir o efeito desta ferramenta"
//   check, edit_file ou append_file, conferindo nesta ordem (os argumentos
//   antes da chave; com os dois defeitos, vale o primeiro):
//     argumentos que string_args não lê (edit_file: path; append_file: path e
//     content; todos texto): unknown, "N: argumentos ilegíveis na intenção"
//     sem a chave (edit_key, append_key): unknown, "N: a intenção não tem a chave"
//     com a chave: o que decide_edit ou decide_append decidir, com o reason dele
// listing: decide-replay
// A decisão pela idempotência da ferramenta, a do código (Tool::idempotency),
// e não a gravada na intenção: um journal pode mentir. yes, rodar; no,
// desconhecido; check, conferir no workspace pela chave da intenção
// (edit_file pela EditKey, append_file pela AppendKey; outra ferramenta, ou
// sem a chave, desconhecido).
Replay decide_replay(const Intent& intent, Idempotency idempotency, const Workspace& workspace);
// end-listing: decide-replay

// A decisão de uma chamada com intenção e sem resultado na retomada:
// decide_replay com a idempotência da ferramenta em tools (a do código; a
// gravada no journal não conta; sem a ferramenta, no). Sem workspace, yes e no
// decidem como sempre, e check fica desconhecida ("sem pasta de trabalho para
// conferir").
Replay replay_of(const Intent& intent, const ToolBox& tools, const Workspace* workspace);

// A chave de um edit_file, lida no workspace logo antes de gravar a intenção:
// o arquivo de agora e o que a troca deixaria (a troca só acontece com
// old_text não vazio aparecendo uma vez, como no edit_file; senão, depois é
// igual a antes). Vazio se os argumentos não são {path, old_text, new_text}
// em texto ou se o arquivo não dá para ler: sem chave, a retomada diz
// "desconhecido".
std::optional<EditKey> edit_key_for(const ToolCall& call, const Workspace& workspace);

// A chave de um append_file, lida no workspace logo antes de gravar a
// intenção. Vazio se os argumentos não são {path, content} em texto ou se o
// arquivo não dá para olhar: sem chave, a retomada diz "desconhecido".
std::optional<AppendKey> append_key_for(const ToolCall& call, const Workspace& workspace);

// A intenção de call, lida logo antes de ela rodar: a idempotência da
// ferramenta em tools (sem ela, no) e, com workspace, a chave do append_file
// ou do edit_file (append_key_for, edit_key_for).
Intent intent_for(const ToolCall& call, const ToolBox& tools, const Workspace* workspace);

}  // namespace hz
