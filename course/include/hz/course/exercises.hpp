#pragma once

// O gerador de exercises/: copia solutions/NN para exercises/NN trocando cada
// região de exercício pelo seu stub. Fora das regiões, byte a byte idêntico.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace hz::course {

// Resultado de transformar o texto de um arquivo da solução.
struct StubbedFile {
  std::string text;                        // o texto do exercício
  std::vector<std::string> exercise_ids;   // "01-loop/loop-body", na ordem
  std::vector<int> exercise_lines;         // linha (1-based) de cada EXERCICIO
  std::string error;                       // vazio se ok; senão "arquivo:linha: mensagem"
};

// Troca as regiões de `text`. `shown_path` aparece nas mensagens de erro;
// `stage` é a etapa dona do arquivo (o prefixo dos ids de exercício).
StubbedFile stub_out(std::string_view text, std::string_view shown_path, std::string_view stage);

// Arquivos cujo conteúdo passa pelo stub_out (fontes C++); os demais são
// copiados como estão.
bool is_marked_source(const std::filesystem::path& p);

struct PlannedFile {
  std::string rel;               // relativo a solutions/NN e a exercises/NN, com '/'
  std::string content;
  std::filesystem::perms perms;  // copiadas da solução
};

struct StagePlan {
  std::string stage;
  std::vector<PlannedFile> files;  // em ordem de `rel`
  int exercises = 0;
  std::vector<std::string> errors;  // "arquivo:linha: mensagem"
};

// Lê solutions/<stage> sob `root` e calcula a árvore de exercises/<stage>.
StagePlan plan_stage(const std::filesystem::path& root, const std::string& stage);

// Uma diferença entre o plano e o que está no disco.
struct Drift {
  enum class Kind { missing, differs, mode, extra } kind;
  std::string path;  // relativo a root, com '/'
};

std::vector<Drift> compare_stage(const std::filesystem::path& root, const StagePlan& plan);

// Aplica as diferenças: escreve o que falta ou difere, acerta modos, remove
// o que sobra (e pastas que ficaram vazias).
void apply_stage(const std::filesystem::path& root, const StagePlan& plan,
                 const std::vector<Drift>& drift);

// Etapas em root/<dir>: pastas "NN-nome", em ordem.
std::vector<std::string> list_stages(const std::filesystem::path& dir);

}  // namespace hz::course
