#pragma once

// O gerador de exercises/: copia solutions/NN para exercises/NN trocando cada
// região de exercício (de qualquer etapa até NN) pelo seu stub.
//
// O stub de uma região é o marcador "// TODO EXERCICIO", a instrução, um
// throw hz::NotImplemented com o id e a seção do livro, e o "// FIM-EXERCICIO".
// Num arquivo com regiões, o gerador acrescenta #include "hz/not_implemented.hpp"
// se faltar e, depois do último #include, a área do aluno vazia (// SEU-CODIGO
// e // FIM-SEU-CODIGO, veja regions.hpp). Fora disso, o texto é idêntico ao da
// solução, byte a byte.
// exercises/NN/hints.md é escrito à mão e o gerador não o toca.

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hz/course/catalog.hpp"

namespace hz::course {

enum class StubMode {
  stubs,  // exercises/: cada região vira o stub
  proof,  // a prova da CI: a resposta fica, precedida de um throw condicionado a
          // HZ_STUB (veja hz/not_implemented.hpp), para stubar um exercício por vez
};

struct StubContext {
  std::string stage;                        // a etapa dona do arquivo ("02-brakes")
  std::vector<std::string> allowed_stages;  // as etapas até `stage`, inclusive
  const Catalog* catalog = nullptr;         // de onde vêm as seções; nullptr: sem seção
  StubMode mode = StubMode::stubs;
};

struct StubbedFile {
  std::string text;                            // o texto do exercício
  std::vector<std::string> exercise_ids;       // na ordem do arquivo
  std::vector<int> exercise_lines;             // linha (a partir de 1) de cada abertura
  std::map<std::string, std::string> stubs;    // id -> o texto do stub (da abertura ao fim)
  std::map<std::string, std::string> answers;  // id -> o corpo da resposta na solução
  std::map<std::string, std::string> filled;   // id -> o stub com a resposta no lugar do throw
  std::string error;                           // vazio se ok; senão "arquivo:linha: mensagem"
};

StubbedFile stub_out(std::string_view text, std::string_view shown_path, const StubContext& ctx);

// Arquivos cujo conteúdo passa pelo stub_out (fontes C++); os demais são
// copiados como estão.
bool is_marked_source(const std::filesystem::path& p);

struct PlannedFile {
  std::string rel;  // relativo a solutions/NN e a exercises/NN, com '/'
  std::string content;
  std::filesystem::perms perms;                // copiadas da solução
  std::map<std::string, std::string> stubs;    // id -> stub (para reconhecer um stub intocado)
  std::map<std::string, std::string> answers;  // id -> resposta (para a prova)
  std::map<std::string, std::string> filled;   // id -> região com a resposta (para a correção)
};

struct StagePlan {
  std::string stage;
  std::vector<PlannedFile> files;   // em ordem de `rel`
  int exercises = 0;                // regiões no núcleo (de todas as etapas até esta)
  int own_exercises = 0;            // regiões desta etapa
  std::vector<std::string> errors;  // "arquivo:linha: mensagem"
};

// Lê solutions/<stage> sob `root` e calcula a árvore de exercises/<stage>.
// Confere também: cada região tem entrada no hints.md da sua etapa; cada
// entrada de hints.md tem região; uma região de etapa anterior tem a mesma
// resposta que na sua etapa (quem reescreve uma região dá a ela um id novo).
StagePlan plan_stage(const std::filesystem::path& root, const std::string& stage,
                     const StageList& stages, const Catalog& catalog,
                     StubMode mode = StubMode::stubs);

// O plano de exercises/<stage> lido do próprio exercises/, para quem não tem
// solutions/ (a cópia dos alunos): os fontes com regiões e, em `stubs`, o stub
// que o gerador escreveria para cada região, refeito da linha TODO (e das que a
// continuam) e do catálogo. Basta para reconhecer um stub intocado (o carry);
// `content`, `answers` e `filled` não valem como os do plan_stage. Um arquivo
// com marcadores quebrados entra sem stubs.
StagePlan plan_from_exercises(const std::filesystem::path& root, const std::string& stage,
                              const Catalog& catalog);

// Uma diferença entre o plano e o que está no disco.
struct Drift {
  enum class Kind { missing, differs, mode, extra } kind;
  std::string path;           // relativo a root, com '/'
  bool student_work = false;  // differs/extra: há código que não é um stub gerado
  std::string why;            // por que há (para a mensagem de recusa)
};

// O que o gerador escreveu antes num arquivo (relativo à etapa), se dá para
// saber: o cli o calcula da solução do último commit.
using PreviousGeneration = std::function<std::optional<std::string>(const std::string& rel)>;

// hints.md não entra na comparação (é escrito à mão). Um fonte que difere
// conta como trabalho de alguém (student_work) se tem uma região que não é o
// stub, código na área do aluno ou, fora das regiões e da área, texto que não
// é o que o gerador escreve agora nem o que `previous` diz que ele escreveu.
std::vector<Drift> compare_stage(const std::filesystem::path& root, const StagePlan& plan,
                                 const PreviousGeneration& previous = {});

// Aplica as diferenças: escreve o que falta ou difere, acerta modos, remove o
// que sobra (e pastas que ficaram vazias). Não toca o que tem student_work.
void apply_stage(const std::filesystem::path& root, const StagePlan& plan,
                 const std::vector<Drift>& drift, bool force);

// Escreve a árvore do plano em out_dir/<stage> (a prova da CI).
void write_plan(const std::filesystem::path& out_dir, const StagePlan& plan);

// Pastas "NN-nome" em dir, em ordem (para achar etapas que sobraram em exercises/).
std::vector<std::string> list_stages(const std::filesystem::path& dir);

// As etapas listadas que têm solutions/<etapa>.
std::vector<std::string> stages_with_solutions(const std::filesystem::path& root,
                                               const StageList& stages);

}  // namespace hz::course
