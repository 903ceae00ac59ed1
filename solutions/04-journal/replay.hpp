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
  std::string reason;  // por quê, numa frase para o trace e o chat
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

// decide_append (abaixo) em detalhe. agora é o tamanho do arquivo (0 se ele
// não existe); depois, key.size_before + key.content_bytes.
//   unknown, seja qual for o tamanho: sem como olhar (file.error), ou com um
//     content que não é o texto da chave (outro tamanho ou outro CRC-32C):
//     aí o tamanho do arquivo não prova nada
//   run: agora == key.size_before; o texto não entrou
//   done: agora == depois, e os bytes a partir de key.size_before são
//     exatamente content; result é o que a ferramenta teria dado
//     (appended_text, de hz/tools.hpp; ok)
//   unknown: qualquer outra coisa
// O reason é seu: uma frase que começa por "append_file" e diz o que se viu.
// Os testes conferem que ela cita o caminho e o tamanho de agora (run); o
// caminho (done); o caminho, o tamanho de agora e os esperados (unknown pelo
// tamanho ou pelos bytes); file.error, quando há.
// listing: decide-append
// append_file, pela chave: tamanho igual ao de antes, não entrou (rodar);
// tamanho de antes + o texto, com os bytes do fim iguais ao texto, entrou
// (feito, com o resultado que a ferramenta teria dado); qualquer outra coisa,
// desconhecido. file deve começar em key.size_before.
Replay decide_append(const AppendKey& key, std::string_view path, std::string_view content,
                     const FileSnapshot& file);
// end-listing: decide-append

// decide_replay (abaixo) em detalhe (N é intent.call.name):
//   yes: run; no: unknown
//   check: só edit_file e append_file sabem ser conferidos, cada um pela sua
//     chave (edit_key, append_key) e com os argumentos de texto que
//     string_args lê (edit_file: path; append_file: path e content). Com os
//     dois, a decisão é a de decide_edit ou decide_append, com o reason dele;
//     sem a chave, com os argumentos ilegíveis, ou outra ferramenta: unknown
// O reason das decisões que não vêm de decide_edit/decide_append é seu: uma
// frase que começa por N e diz por quê. Os testes conferem o começo e que
// os três unknown de check (outra ferramenta, argumentos ilegíveis, sem a
// chave) dizem coisas diferentes depois de N.
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
