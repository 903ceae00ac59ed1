#pragma once

// Os documentos (.md) da cópia dos alunos (./hz export) e o que eles citam.
//
// No curso completo, um documento marca o que só vale numa das duas cópias:
//
//   <!-- curso-completo --> ... <!-- fim-curso-completo -->
//       só no curso completo: sai da cópia dos alunos (solutions/, .ci/run,
//       ./hz solutions...);
//   <!-- copia-do-aluno: TEXTO -->
//       só na cópia dos alunos: lá o comentário vira TEXTO; no curso completo
//       é um comentário, que nenhum leitor de Markdown mostra.
//
// As marcas podem estar no meio de uma linha ou ocupar linhas inteiras; no
// segundo caso, as linhas saem inteiras (sem deixar uma linha vazia a mais).
//
// doc_references lista o que um documento manda abrir ou rodar, para a
// conferência de que tudo existe na cópia: links relativos, caminhos de
// scripts e workflows citados em `código` e os subcomandos de ./hz.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace hz::course {

struct StudentCopy {
  std::string text;
  std::string error;  // vazio se deu certo; senão "linha N: ..."
};

// O texto como ele fica na cópia dos alunos.
StudentCopy student_copy_text(std::string_view text);

// Os documentos de um curso: todo .md fora de pastas ocultas e de build*/.
std::vector<std::filesystem::path> course_markdown(const std::filesystem::path& root);

struct DocReference {
  enum class Kind { link, path, hz };
  Kind kind = Kind::link;
  int line = 0;
  // link: o destino, sem o #fragmento; path: o caminho; hz: o subcomando.
  std::string value;
};

// O que o texto cita, na ordem: links relativos ([x](destino) e href="..."),
// fora de blocos de código e de comentários HTML; caminhos em `código` que são
// scripts (.sh), workflows (.yml) ou estão em .ci/ ou .github/; e todo
// "./hz SUB", também dentro dos blocos de código.
std::vector<DocReference> doc_references(std::string_view text);

}  // namespace hz::course
