// hz-course update e release: a cópia de um aluno recebe uma versão nova do
// curso sem perder o que ele escreveu, e o professor libera a referência de
// uma etapa. Cada teste monta duas árvores pequenas (a cópia do aluno e a
// versão nova), as duas sem solutions/, como o ./hz export as escreve.
#include <doctest/doctest.h>

#include <filesystem>

#include "fixture.hpp"

using hz::course::test::replaced;
using hz::course::test::run_course;
using hz::course::test::run_in;
using hz::course::test::Tree;
using hz::course::test::usage_error;
namespace fs = std::filesystem;
namespace small = hz::course::test::small;

namespace {

// A cópia dos alunos: o curso sem solutions/.
void export_to(const Tree& course, const Tree& dest) {
  fs::copy(course.root(), dest.root(),
           fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  dest.remove("solutions");
}

// Três árvores: o curso (com solutions/), a cópia do aluno e a versão nova.
struct Trees {
  Tree course;
  Tree student;
  Tree fresh;
  Trees() {
    small::write_generated(course);
    export_to(course, student);
    export_to(course, fresh);
  }
  // Na versão nova, a região 02-b/triplo sai de soma.cpp e passa a morar em dobro.cpp.
  void move_triplo_to_dobro() const {
    fresh.write("exercises/02-b/soma.cpp", small::kSomaExercise01);
    fresh.write("exercises/02-b/dobro.cpp", fresh.read("exercises/02-b/dobro.cpp") +
                                                "\nint triplo(int a) {\n" + small::kTriploStub +
                                                "}\n");
  }
  hz::course::test::Run update(std::vector<std::string> extra = {}) const {
    extra.insert(extra.begin(), {"--from", fresh.path()});
    return run_in(student, "update", std::move(extra));
  }
};

// A parte do relatório do update que lista os fontes que mudaram fora das
// regiões; `files` são as linhas "  exercises/...\n".
std::string changed_outside(const std::string& files) {
  return "Fontes de exercises/ que também mudaram fora das regiões de exercício (confira com git "
         "diff):\n" +
         files;
}

}  // namespace

TEST_CASE("update troca os arquivos do curso e leva as respostas do aluno pela região") {
  Trees t;
  t.student.write("exercises/01-a/soma.cpp", small::kSomaAnswered01);
  t.student.write("exercises/02-b/soma.cpp", small::kTriploAnswered02);
  // A versão nova mexe no livro, num fonte fora das regiões e acrescenta um arquivo.
  const std::string soma01_new = "// versão 2 do curso\n" + small::kSomaExercise01;
  t.fresh.write("exercises/01-a/soma.cpp", soma01_new);
  t.fresh.write("livro/01-a.md", "# A etapa 01-a, revista\n\n## Exercício 1 — A soma\n");
  t.fresh.write("livro/glossario.md", "# Glossário\n");

  CHECK_RUN(t.update(), 0,
            "Novos:\n"
            "  livro/glossario.md\n"
            "Mudaram:\n"
            "  exercises/01-a/soma.cpp\n"
            "  livro/01-a.md\n"
            "Suas respostas, levadas para o arquivo novo:\n"
            "  01-a/soma  (exercises/01-a/soma.cpp)\n" +
                changed_outside("  exercises/01-a/soma.cpp\n") +
                "1 arquivo novo, 2 mudaram, 1 resposta sua levada.\n",
            "");
  CHECK(t.student.read("exercises/01-a/soma.cpp") ==
        replaced(soma01_new, small::kSomaStub, small::kSomaAnswer));
  CHECK(t.student.read("livro/01-a.md") == t.fresh.read("livro/01-a.md"));
  CHECK(t.student.read("livro/glossario.md") == "# Glossário\n");
  // Um arquivo que a versão nova não muda não é reescrito nem listado; a resposta fica.
  CHECK(t.student.read("exercises/02-b/soma.cpp") == small::kTriploAnswered02);

  // De novo: nada a fazer.
  const auto again = t.update();
  CHECK(again.out == "Nada a atualizar: a sua cópia já está nesta versão.\n");
  CHECK(again.code == 0);
}

TEST_CASE("update leva a resposta para o arquivo novo quando a região muda de arquivo") {
  Trees t;
  t.student.write("exercises/02-b/soma.cpp", small::kTriploAnswered02);
  t.move_triplo_to_dobro();
  const auto r = t.update();
  CHECK(r.err == "");
  CHECK(r.out ==
        "Mudaram:\n"
        "  exercises/02-b/dobro.cpp\n"
        "  exercises/02-b/soma.cpp\n"
        "Suas respostas, levadas para o arquivo novo:\n"
        "  02-b/triplo  (exercises/02-b/dobro.cpp, antes em exercises/02-b/soma.cpp)\n" +
            changed_outside("  exercises/02-b/dobro.cpp\n"
                            "  exercises/02-b/soma.cpp\n") +
            "0 arquivos novos, 2 mudaram, 1 resposta sua levada.\n");
  CHECK(t.student.read("exercises/02-b/dobro.cpp").find(small::kTriploAnswer) != std::string::npos);
  CHECK(t.student.read("exercises/02-b/soma.cpp") == small::kSomaExercise01);
}

TEST_CASE("update avisa quando a resposta muda de arquivo e deixa para trás o código do aluno") {
  // O aluno tinha uma ajudante na área // SEU-CODIGO de soma.cpp, usada pela
  // resposta de 02-b/triplo; na versão nova, a região mora em dobro.cpp.
  Trees t;
  const std::string helper = "constexpr int kTres = 3;  // do aluno\n";
  t.student.write("exercises/02-b/soma.cpp",
                  small::with_own_code(small::kTriploAnswered02, helper));
  t.move_triplo_to_dobro();
  const auto r = t.update();
  CHECK(r.err == "");
  CHECK(r.code == 0);
  INFO("a saída do update:\n", r.out);
  CHECK(r.out.find("Suas respostas, levadas para o arquivo novo:\n"
                   "  02-b/triplo  (exercises/02-b/dobro.cpp, antes em exercises/02-b/soma.cpp)\n"
                   "  SEU-CODIGO  (exercises/02-b/soma.cpp)\n"
                   "O seu código na área // SEU-CODIGO ficou no arquivo em que estava; se uma "
                   "resposta que mudou de arquivo usa algo dele, copie para a área do arquivo "
                   "novo:\n"
                   "  exercises/02-b/soma.cpp -> exercises/02-b/dobro.cpp\n") != std::string::npos);
  // A ajudante continua onde estava: nada se perde.
  CHECK(t.student.read("exercises/02-b/soma.cpp").find(helper) != std::string::npos);
}

TEST_CASE("update relata a região que a versão nova renomeou e guarda os arquivos do aluno") {
  Trees t;
  t.student.write("exercises/01-a/soma.cpp", small::kSomaAnswered01);
  t.student.write("exercises/01-a/notas.txt", "minhas notas\n");
  t.student.write("meu-rascunho.md", "rascunho\n");
  // A versão nova troca o id da região (o capítulo a reescreveu).
  const std::string renamed_stub =
      "  // TODO EXERCICIO 01-a/adicao: devolva a soma de a e b\n"
      "  throw hz::NotImplemented(\"01-a/adicao\", \"livro/01-a.md, \\\"Exercício 1 — A "
      "soma\\\"\");\n"
      "  // FIM-EXERCICIO\n";
  t.fresh.write("exercises/01-a/soma.cpp",
                replaced(small::kSomaExercise01, small::kSomaStub, renamed_stub));
  t.fresh.write("exercises/02-b/soma.cpp",
                replaced(small::kSomaExercise02, small::kSomaStub, renamed_stub));
  t.fresh.write("exercises/01-a/hints.md",
                "# Dicas da etapa 01-a\n\n" +
                    hz::course::test::hint_entry("01-a/adicao", "Exercício 1 — A soma"));

  CHECK_RUN(t.update(), 0,
            "Mudaram:\n"
            "  exercises/01-a/hints.md\n"
            "  exercises/01-a/soma.cpp\n"
            "  exercises/02-b/soma.cpp\n"
            "Regiões suas que a versão nova não tem mais (renomeadas ou removidas); o seu código "
            "continua no último commit:\n"
            "  01-a/soma  (git show HEAD:exercises/01-a/soma.cpp)\n"
            "Só na sua cópia (ficaram como estão):\n"
            "  exercises/01-a/notas.txt\n"
            "  meu-rascunho.md\n"
            "0 arquivos novos, 3 mudaram, 0 respostas suas levadas.\n",
            "");
  CHECK(t.student.read("exercises/01-a/notas.txt") == "minhas notas\n");
  CHECK(t.student.read("meu-rascunho.md") == "rascunho\n");
}

TEST_CASE("a referência liberada entra onde era stub e não apaga a resposta do aluno") {
  Trees t;
  const auto released = run_course(
      {"release", "--root", t.fresh.path(), "--reference", t.course.path(), "--stages", "01-a"});
  REQUIRE(released.code == 0);
  t.student.write("exercises/01-a/soma.cpp", small::kSomaAnswered01);

  const auto r = t.update();
  CHECK(r.err == "");
  CHECK(r.out ==
        "Mudaram:\n"
        "  exercises/02-b/soma.cpp\n"
        "Referências liberadas pelo professor (estavam como stub):\n"
        "  01-a/soma  (exercises/02-b/soma.cpp)\n"
        "Referências liberadas que não entraram, porque você já tinha escrito a sua (para trocar "
        "pela referência: ./hz update --take-released):\n"
        "  01-a/soma  (exercises/01-a/soma.cpp)\n"
        "0 arquivos novos, 1 mudou, 0 respostas suas levadas.\n");
  CHECK(t.student.read("exercises/01-a/soma.cpp") == small::kSomaAnswered01);
  CHECK(t.student.read("exercises/02-b/soma.cpp") == t.fresh.read("exercises/02-b/soma.cpp"));

  const auto taken = t.update({"--take-released"});
  CHECK(taken.out ==
        "Mudaram:\n"
        "  exercises/01-a/soma.cpp\n"
        "Trocadas pela referência liberada (a sua resposta continua no último commit):\n"
        "  01-a/soma  (exercises/01-a/soma.cpp)\n"
        "0 arquivos novos, 1 mudou, 0 respostas suas levadas.\n");
  CHECK(t.student.read("exercises/01-a/soma.cpp") == t.fresh.read("exercises/01-a/soma.cpp"));
}

TEST_CASE("update com marcadores quebrados na cópia do aluno não escreve nada") {
  Trees t;
  const std::string broken = replaced(small::kSomaAnswered01, "  // FIM-EXERCICIO\n", "");
  t.student.write("exercises/01-a/soma.cpp", broken);
  t.fresh.write("livro/01-a.md", "mudou\n");
  CHECK_RUN(t.update(), 1, "",
            "exercises/01-a/soma.cpp:9: região de exercício sem // FIM-EXERCICIO (conserte os "
            "marcadores na sua cópia e rode de novo)\n"
            "hz-course: nada foi atualizado\n");
  CHECK(t.student.read("exercises/01-a/soma.cpp") == broken);
  CHECK(t.student.read("livro/01-a.md") == t.course.read("livro/01-a.md"));
}

TEST_CASE("update recusa o curso completo como versão nova e uma origem que não existe") {
  Trees t;
  const auto full = run_in(t.student, "update", {"--from", t.course.path()});
  CHECK(full.code == 2);
  CHECK(full.err ==
        usage_error("a versão nova tem solutions/: é o curso completo, não o repositório-modelo "
                    "dos alunos (o professor o escreve com ./hz export)"));
  const auto missing = run_in(t.student, "update", {"--from", t.fresh.path("nada")});
  CHECK(missing.code == 2);
  CHECK(run_in(t.student, "update").code == 2);
}

TEST_CASE("release põe a referência das etapas liberadas em todas as pastas de exercises/") {
  Tree course;
  small::write_generated(course);
  CHECK_RUN(run_in(course, "release", {"--reference", course.path(), "--stages", "01-a"}), 0,
            "Com a resposta de referência:\n"
            "  01-a/soma  (exercises/01-a/soma.cpp)\n"
            "  01-a/soma  (exercises/02-b/soma.cpp)\n"
            "2 regiões liberadas (01-a).\n",
            "");
  CHECK(course.read("exercises/01-a/soma.cpp") ==
        replaced(small::kSomaExercise01, small::kSomaStub, small::kSomaReference));
  // O exercício da etapa 02-b continua stub.
  CHECK(course.read("exercises/02-b/soma.cpp") ==
        replaced(small::kSomaExercise02, small::kSomaStub, small::kSomaReference));

  const auto unknown = run_course(
      {"release", "--root", course.path(), "--reference", course.path(), "--stages", "01-a,09-z"});
  CHECK(unknown.code == 2);
  CHECK(unknown.err == usage_error("etapa desconhecida: 09-z"));
}

TEST_CASE("update só olha o bit de execução nas permissões, como o git") {
  Trees t;
  using fs::perms;
  // A umask de quem extraiu muda o resto das permissões: isso não é mudança.
  fs::permissions(t.student.root() / "livro/01-a.md", perms::owner_read | perms::owner_write |
                                                          perms::group_read | perms::group_write |
                                                          perms::others_read);
  fs::permissions(t.fresh.root() / "livro/01-a.md",
                  perms::owner_read | perms::owner_write | perms::group_read | perms::others_read);
  // Um arquivo que passa a ser executável muda.
  fs::permissions(t.fresh.root() / "livro/02-b.md", perms::owner_exec, fs::perm_options::add);

  const auto r = t.update();
  CHECK(r.err == "");
  CHECK(r.out ==
        "Mudaram:\n"
        "  livro/02-b.md\n"
        "0 arquivos novos, 1 mudou, 0 respostas suas levadas.\n");
  CHECK((fs::status(t.student.root() / "livro/02-b.md").permissions() & perms::owner_exec) ==
        perms::owner_exec);
  CHECK((fs::status(t.student.root() / "livro/01-a.md").permissions() & perms::group_write) ==
        perms::group_write);
}

TEST_CASE("update leva o código da área // SEU-CODIGO para a área do arquivo novo") {
  Trees t;
  const std::string helper = "constexpr int kDois = 2;  // do aluno\n";
  const std::string with_helper = small::with_own_code(small::kSomaExercise01, helper);
  t.student.write("exercises/01-a/soma.cpp", with_helper);
  // A versão nova muda o arquivo fora das regiões e da área.
  t.fresh.write("exercises/01-a/soma.cpp", "// versão 2 do curso\n" + small::kSomaExercise01);
  const auto r = t.update();
  CHECK(r.err == "");
  CHECK(r.code == 0);
  CHECK(r.out.find("Suas respostas, levadas para o arquivo novo:\n"
                   "  SEU-CODIGO  (exercises/01-a/soma.cpp)\n") != std::string::npos);
  CHECK(t.student.read("exercises/01-a/soma.cpp") == "// versão 2 do curso\n" + with_helper);

  // A versão nova sem a área: o código do aluno fica no último commit, e o update diz.
  t.fresh.write("exercises/01-a/soma.cpp",
                replaced(small::kSomaExercise01, small::kOwnArea + "\n", ""));
  t.student.write("exercises/01-a/soma.cpp", with_helper);
  const auto gone = t.update();
  CHECK(gone.out.find("continua no último commit:\n"
                      "  SEU-CODIGO  (git show HEAD:exercises/01-a/soma.cpp)\n") !=
        std::string::npos);
}
