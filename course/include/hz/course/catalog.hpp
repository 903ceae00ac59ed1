#pragma once

// As etapas do curso e os exercícios de cada uma.
//
// etapas/stages.txt é o único lugar que lista as etapas (CMake, ./hz e
// hz-course leem dele). Cada linha: o nome da etapa e, da segunda em diante,
// depois de ":", os arquivos do núcleo (solutions/NN/) que o capítulo muda ou
// acrescenta em relação à etapa anterior. Os demais arquivos do núcleo são
// idênticos, byte a byte, aos da etapa anterior.
//
// exercises/NN/hints.md (escrito à mão; o gerador não o toca) descreve os
// exercícios da etapa NN, na ordem do capítulo:
//   ## 01-loop/dispatch
//   Capítulo: livro/01-loop.md
//   Seção: Exercício 4 — O despacho
//
//   1. a primeira dica (pode continuar nas linhas seguintes, recuadas)
//   2. a segunda, mais perto da resposta
// "Seção" é o texto exato de um título do capítulo: o stub manda o aluno ler
// essa seção, e ./hz hint mostra as dicas uma por vez.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace hz::course {

struct StageInfo {
  std::string name;                  // "02-brakes"
  std::vector<std::string> changes;  // arquivos do núcleo que o capítulo muda (vazio na 1ª)
  int line = 0;                      // linha em etapas/stages.txt
};

struct StageList {
  std::vector<StageInfo> stages;  // na ordem do curso
  std::string error;              // "etapas/stages.txt:linha: mensagem"

  const StageInfo* find(std::string_view name) const;
  // As etapas até `name`, inclusive, em ordem (vazio se não existe).
  std::vector<std::string> up_to(std::string_view name) const;
};

StageList parse_stage_list(std::string_view text, std::string_view shown_path);
StageList read_stage_list(const std::filesystem::path& root);

struct ExerciseInfo {
  std::string id;       // "01-loop/dispatch"
  std::string stage;    // "01-loop"
  std::string chapter;  // "livro/01-loop.md"
  std::string section;  // "Exercício 4 — O despacho"
  std::vector<std::string> hints;
  std::string source;  // "exercises/01-loop/hints.md:12", para mensagens

  // livro/01-loop.md, "Exercício 4 — O despacho": para onde o stub manda ler.
  std::string where() const;
};

struct Catalog {
  std::vector<ExerciseInfo> exercises;  // etapa por etapa, na ordem de cada hints.md
  std::vector<std::string> errors;

  const ExerciseInfo* find(std::string_view id) const;
  std::vector<const ExerciseInfo*> of_stage(std::string_view stage) const;
};

// Lê um hints.md. `stage` é a etapa dona do arquivo.
Catalog parse_hints(std::string_view text, std::string_view shown_path, std::string_view stage);

// Lê exercises/<etapa>/hints.md de cada etapa (um arquivo que falta não é erro
// aqui: a etapa sem regiões não precisa dele; quem exige é o gerador).
Catalog read_catalog(const std::filesystem::path& root, const StageList& stages);

// Confere que cada "Seção" é um título do "Capítulo" indicado.
std::vector<std::string> check_sections(const std::filesystem::path& root, const Catalog& catalog);

}  // namespace hz::course
