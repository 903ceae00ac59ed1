#pragma once

// As listagens do livro: um comentário HTML
//   <!-- listing: solutions/01-loop/agent_loop.cpp#run-turn -->
// seguido IMEDIATAMENTE de um bloco cercado com as linhas exatas da região.

#include <filesystem>
#include <functional>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace hz::course {

// O texto que o livro deve mostrar para `spec` ("CAMINHO" ou "CAMINHO#REGIAO"),
// uma linha por elemento, sem terminador. Em erro, `error` diz o porquê.
struct Expected {
  std::vector<std::string> lines;
  std::string error;
};
Expected expected_listing(const std::filesystem::path& root, const std::string& spec);

// Diff unificado (3 linhas de contexto) de `expected` para `actual`.
std::vector<std::string> unified_diff(const std::vector<std::string>& expected,
                                      const std::vector<std::string>& actual);

struct ListingReport {
  int checked = 0;  // listagens encontradas
  int updated = 0;  // blocos reescritos (só com update)
  std::vector<std::string> files_updated;
  std::vector<std::string> problems;  // linhas prontas para imprimir
};

// De onde vêm as listagens que o livro marca com "solutions/...".
//   solutions  como estão escritas (o livro do curso completo)
//   exercises  "solutions/NN/..." é lido de "exercises/NN/..." (o livro da cópia
//              exportada para alunos, que não tem solutions/ nem deve mostrar as
//              respostas); com `update`, o comentário passa a apontar para exercises/
enum class ListingSource { solutions, exercises };

// O caminho que a listagem `spec` lê com a fonte `source`.
std::string map_listing_spec(const std::string& spec, ListingSource source);

// Os documentos com listagens e saídas conferidas: livro/*.md, README.md,
// etapas/*/README.md, common/README.md e mock-server/README.md, em ordem.
std::vector<std::filesystem::path> checked_documents(const std::filesystem::path& root);

// Um comentário marcador do livro (uma listagem, uma saída) e o bloco cercado
// (```) que precisa vir na linha seguinte.
struct MarkedBlock {
  enum class Shape { ok, no_block, unclosed };
  std::string doc;     // o documento como é mostrado ("livro/01-loop.md")
  std::size_t line;    // a linha do comentário (1, 2, ...); o bloco começa em line + 2
  std::smatch marker;  // o comentário, sem os espaços em volta, casado com o regex
  Shape shape;
  std::vector<std::string> body;          // as linhas do bloco, sem o fim de linha
  const std::vector<std::string>& lines;  // o documento inteiro, com os fins de linha
  std::string where() const { return doc + ":" + std::to_string(line); }
};

// O que muda num marcador: a linha do comentário e/ou as linhas do bloco.
struct BlockEdit {
  std::optional<std::string> comment;
  std::optional<std::vector<std::string>> body;
};

// Chama `visit` para cada linha de `docs` que, fora de um bloco cercado,
// começa com "<!--" e casa com `marker`. Um documento com alguma BlockEdit é
// reescrito (vai para files_updated; a falha, para problems), e um que não se
// lê vira um problema.
void edit_marked_blocks(const std::filesystem::path& root,
                        const std::vector<std::filesystem::path>& docs, const std::regex& marker,
                        const std::function<std::optional<BlockEdit>(const MarkedBlock&)>& visit,
                        std::vector<std::string>& files_updated,
                        std::vector<std::string>& problems);

// Confere (ou, com `update`, reescreve) as listagens dos documentos acima.
ListingReport check_listings(const std::filesystem::path& root, bool update,
                             ListingSource source = ListingSource::solutions);

}  // namespace hz::course
