#pragma once

// As listagens do livro: um comentário HTML
//   <!-- listing: solutions/01-loop/agent_loop.cpp#run-turn -->
// seguido IMEDIATAMENTE de um bloco cercado com as linhas exatas da região.

#include <filesystem>
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

// Confere (ou, com `update`, reescreve) as listagens dos documentos acima.
ListingReport check_listings(const std::filesystem::path& root, bool update,
                             ListingSource source = ListingSource::solutions);

}  // namespace hz::course
