#pragma once

// Ajudantes dos testes do hz-course: uma árvore de arquivos numa pasta
// temporária que se apaga, `run` do hz-course com a saída capturada e um curso
// pequeno de duas etapas (01-a e 02-b) para os testes do gerador, do carry, do
// fill e do encadeamento das etapas.

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hz/course/cli.hpp"
#include "hz/course/lines.hpp"

namespace hz::course::test {

class Tree {
 public:
  Tree() {
    std::string pattern = (std::filesystem::temp_directory_path() / "hz-course-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp falhou");
    root_ = pattern;
  }
  ~Tree() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  Tree(const Tree&) = delete;
  Tree& operator=(const Tree&) = delete;

  const std::filesystem::path& root() const { return root_; }
  std::string path(const std::string& rel = "") const {
    return rel.empty() ? root_.string() : (root_ / rel).string();
  }

  void write(const std::string& rel, const std::string& content) const {
    const std::filesystem::path p = root_ / rel;
    std::filesystem::create_directories(p.parent_path());
    if (!write_file(p, content)) throw std::runtime_error("não consegui escrever " + rel);
  }

  std::string read(const std::string& rel) const {
    const auto text = read_file(root_ / rel);
    return text ? *text : std::string("<não existe>");
  }

  bool exists(const std::string& rel) const { return std::filesystem::exists(root_ / rel); }

  void remove(const std::string& rel) const { std::filesystem::remove_all(root_ / rel); }

 private:
  std::filesystem::path root_;
};

struct Run {
  int code;
  std::string out;
  std::string err;
};

inline Run run_course(std::vector<std::string> args) {
  std::ostringstream out;
  std::ostringstream err;
  const int code = run(args, out, err);
  return {code, out.str(), err.str()};
}

// hz-course `subcommand` --root t, com as opções `options` depois.
inline Run run_in(const Tree& t, const std::string& subcommand,
                  std::vector<std::string> options = {}) {
  std::vector<std::string> args = {subcommand, "--root", t.path()};
  for (std::string& o : options) args.push_back(std::move(o));
  return run_course(std::move(args));
}

// Confere uma rodada do hz-course inteira: o código de saída, o stdout e o
// stderr exatos (numa falha, o doctest mostra o esperado e o que saiu).
inline void check_run(const Run& r, int expected_code, const std::string& expected_out,
                      const std::string& expected_err) {
  CHECK(r.code == expected_code);
  CHECK(r.out == expected_out);
  CHECK(r.err == expected_err);
}

// check_run com a linha do teste na falha: os CHECK de dentro apontam para
// este arquivo, e um teste confere várias rodadas.
#define CHECK_RUN(...)                               \
  do {                                               \
    INFO("o caso da linha ", __LINE__, " do teste"); \
    hz::course::test::check_run(__VA_ARGS__);        \
  } while (false)

// O stderr de um erro de uso do hz-course (código 2).
inline std::string usage_error(const std::string& message) {
  return "hz-course: " + message + "\nveja: hz-course help\n";
}

// Faz de root um repositório git com tudo num commit (o gerador compara
// exercises/ com o que a solução do último commit gera).
inline void commit_all(const Tree& t) {
  const std::string q = "'" + t.path() + "'";
  const std::string line = "git -C " + q + " init -q && git -C " + q + " add -A && git -C " + q +
                           " -c user.name=hz -c user.email=hz@example.com -c commit.gpgsign=false "
                           "commit -q -m base >/dev/null 2>&1";
  if (std::system(line.c_str()) != 0) throw std::runtime_error("git commit falhou");
}

// Troca a primeira ocorrência de `from` por `to` (o teste falha cedo se não há).
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  if (at == std::string::npos) throw std::runtime_error("não achei '" + from + "'");
  return text.replace(at, from.size(), to);
}

// Uma entrada de exercises/NN/hints.md com duas dicas; o capítulo é livro/NN.md.
inline std::string hint_entry(const std::string& id, const std::string& section) {
  const std::string stage = id.substr(0, id.find('/'));
  return "## " + id + "\nCapítulo: livro/" + stage + ".md\nSeção: " + section +
         "\n\n1. primeira dica de " + id + "\n2. segunda dica de " + id + "\n\n";
}

// O curso pequeno. A etapa 02-b estende a 01-a: soma.cpp ganha o exercício
// 02-b/triplo e dobro.cpp é novo (o manifesto em etapas/stages.txt diz isso).
// Um teste num relatório do ctest: status "run", "fail" ou "notrun".
struct Case {
  std::string name;
  std::string status;
  std::string output{};
  std::vector<std::string> labels{};  // vazio: o teste não aparece no JSON (progress_test)
  std::string time{"0.01"};           // segundos, como o ctest escreve
};

inline std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    const char* entity = c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : nullptr;
    if (c == '"') entity = "&quot;";
    out += entity != nullptr ? std::string(entity) : std::string(1, c);
  }
  return out;
}

// O que o ctest 3.25 escreve com --output-junit.
inline std::string junit_of(const std::vector<Case>& cases) {
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuite name=\"Linux-c++\" tests=\"" +
      std::to_string(cases.size()) + "\" failures=\"0\" disabled=\"0\" skipped=\"0\" >\n";
  for (const Case& c : cases) {
    const std::string name = xml_escape(c.name);
    xml += "\t<testcase name=\"" + name + "\" classname=\"" + name + "\" time=\"" + c.time +
           "\" status=\"" + c.status + "\">\n";
    if (c.status == "fail") xml += "\t\t<failure message=\"Failed\"/>\n";
    if (c.status == "notrun") xml += "\t\t<skipped message=\"Disabled\"/>\n";
    xml += "\t\t<system-out>" + xml_escape(c.output) + "</system-out>\n\t</testcase>\n";
  }
  return xml + "</testsuite>\n";
}

namespace small {

inline const std::string kStages = "01-a\n02-b: dobro.cpp soma.cpp\n";

inline const std::string kHeader = "#pragma once\n\nint soma(int a, int b);\n";

inline const std::string kSoma01 =
    "#include \"soma.hpp\"\n"
    "\n"
    "int soma(int a, int b) {\n"
    "  // EXERCICIO 01-a/soma: devolva a soma de a e b\n"
    "  return a + b;\n"
    "  // FIM-EXERCICIO\n"
    "}\n";

inline const std::string kSoma02 = kSoma01 +
                                   "\n"
                                   "int triplo(int a) {\n"
                                   "  // EXERCICIO 02-b/triplo: devolva o triplo de a\n"
                                   "  return soma(a, soma(a, a));\n"
                                   "  // FIM-EXERCICIO\n"
                                   "}\n";

inline const std::string kDobro =
    "#include \"soma.hpp\"\n"
    "\n"
    "int dobro(int a) {\n"
    "  // EXERCICIO 02-b/dobro: devolva o dobro de a\n"
    "  return soma(a, a);\n"
    "  // FIM-EXERCICIO\n"
    "}\n";

inline const std::string kCMake = "add_library(a soma.cpp)\n";

// O stub que o gerador escreve para 01-a/soma.
inline const std::string kSomaStub =
    "  // TODO EXERCICIO 01-a/soma: devolva a soma de a e b\n"
    "  throw hz::NotImplemented(\"01-a/soma\", \"livro/01-a.md, \\\"Exercício 1 — A soma\\\"\");\n"
    "  // FIM-EXERCICIO\n";

// A área do aluno, vazia, como o gerador a escreve depois do último #include.
inline const std::string kOwnArea =
    "// SEU-CODIGO: includes, constantes e funções suas (./hz carry e ./hz update os levam)\n"
    "// FIM-SEU-CODIGO\n";

// exercises/01-a/soma.cpp como o gerador o escreve.
inline const std::string kSomaExercise01 =
    "#include \"soma.hpp\"\n"
    "\n"
    "#include \"hz/not_implemented.hpp\"\n"
    "\n" +
    kOwnArea +
    "\n"
    "int soma(int a, int b) {\n" +
    kSomaStub + "}\n";

inline const std::string kTriploStub =
    "  // TODO EXERCICIO 02-b/triplo: devolva o triplo de a\n"
    "  throw hz::NotImplemented(\"02-b/triplo\", \"livro/02-b.md, \\\"Exercício 1 — O "
    "triplo\\\"\");\n"
    "  // FIM-EXERCICIO\n";

inline const std::string kSomaExercise02 = kSomaExercise01 +
                                           "\n"
                                           "int triplo(int a) {\n" +
                                           kTriploStub + "}\n";

// Uma resposta de aluno para 01-a/soma, do jeito que ele a escreveria.
inline const std::string kSomaAnswer =
    "  // TODO EXERCICIO 01-a/soma: devolva a soma de a e b\n"
    "  const int total = a + b;  // feito pelo aluno\n"
    "  return total;\n"
    "  // FIM-EXERCICIO\n";

inline void write_course(const Tree& t) {
  t.write("etapas/stages.txt", kStages);
  t.write("solutions/01-a/soma.hpp", kHeader);
  t.write("solutions/01-a/soma.cpp", kSoma01);
  t.write("solutions/01-a/CMakeLists.txt", kCMake);
  t.write("solutions/02-b/soma.hpp", kHeader);
  t.write("solutions/02-b/soma.cpp", kSoma02);
  t.write("solutions/02-b/dobro.cpp", kDobro);
  t.write("solutions/02-b/CMakeLists.txt", kCMake);
  t.write("exercises/01-a/hints.md",
          "# Dicas da etapa 01-a\n\n" + hint_entry("01-a/soma", "Exercício 1 — A soma"));
  t.write("exercises/02-b/hints.md", hint_entry("02-b/triplo", "Exercício 1 — O triplo") +
                                         hint_entry("02-b/dobro", "Exercício 2 — O dobro"));
  t.write("livro/01-a.md", "# A etapa 01-a\n\n## Exercício 1 — A soma\n\nSome.\n");
  t.write("livro/02-b.md",
          "# A etapa 02-b\n\n## Exercício 1 — O triplo\n\n## Exercício 2 — O dobro\n");
}

// O curso pequeno com exercises/ gerado pelo hz-course.
inline void write_generated(const Tree& t) {
  write_course(t);
  const Run r = run_course({"exercises", "--root", t.path()});
  if (r.code != 0) throw std::runtime_error("hz-course exercises falhou: " + r.err);
}

// A resposta do aluno para 02-b/triplo.
inline const std::string kTriploAnswer =
    "  // TODO EXERCICIO 02-b/triplo: devolva o triplo de a\n"
    "  return 3 * a;  // do aluno\n"
    "  // FIM-EXERCICIO\n";

// exercises/NN-x/soma.cpp gerado, com a resposta do aluno para 01-a/soma.
inline const std::string kSomaAnswered01 = replaced(kSomaExercise01, kSomaStub, kSomaAnswer);
inline const std::string kSomaAnswered02 = replaced(kSomaExercise02, kSomaStub, kSomaAnswer);

// exercises/02-b/soma.cpp gerado, com a resposta do aluno para 02-b/triplo.
inline const std::string kTriploAnswered02 = replaced(kSomaExercise02, kTriploStub, kTriploAnswer);

// A região 01-a/soma com a resposta de referência (o que fill e release escrevem).
inline const std::string kSomaReference =
    "  // TODO EXERCICIO 01-a/soma: devolva a soma de a e b\n"
    "  return a + b;\n"
    "  // FIM-EXERCICIO\n";

// exercises/01-a/soma.cpp com o // FIM-EXERCICIO de 01-a/soma trocado por
// código: os marcadores não se leem (a região não fecha, na linha 9).
inline const std::string kSomaBroken01 =
    replaced(kSomaExercise01, "  // FIM-EXERCICIO\n", "  return a + b;\n");

// O texto de um exercício gerado com `code` na área // SEU-CODIGO.
inline std::string with_own_code(const std::string& text, const std::string& code) {
  return replaced(text, "// FIM-SEU-CODIGO\n", code + "// FIM-SEU-CODIGO\n");
}

}  // namespace small

}  // namespace hz::course::test
