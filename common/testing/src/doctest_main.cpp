// O main de todos os executáveis de teste do curso: o doctest com um
// relatório que não afoga o aluno.
//
// Um exercício ainda não feito lança hz::NotImplemented em dezenas de testes.
// O relatório padrão do doctest imprime um cabeçalho e várias linhas para cada
// um; este imprime UMA linha por teste ("✗ <teste>: exercício ... não
// implementado: leia ..."), e só mostra o relatório completo (com os dois
// lados de cada comparação) para as falhas de verdade.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

namespace {

// O texto de hz::NotImplemented (hz/not_implemented.hpp), sem as aspas que o
// doctest põe em volta quando a exceção sai de dentro de um CHECK.
std::string unquoted(const doctest::String& text) {
  std::string s(text.c_str());
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return s;
}

bool is_not_implemented(const doctest::String& text) {
  const std::string s = unquoted(text);
  return s.rfind("exercício ", 0) == 0 && s.find(" não implementado") != std::string::npos;
}

// O ConsoleReporter do doctest mora num namespace anônimo do próprio doctest,
// visível aqui porque esta é a unidade que tem a implementação.
struct HzReporter : public doctest::ConsoleReporter {
  explicit HzReporter(const doctest::ContextOptions& options) : ConsoleReporter(options) {}

  void test_run_start() override {}  // sem a faixa "doctest version is ..."

  void test_case_start(const doctest::TestCaseData& test) override {
    stubbed_ = false;
    ConsoleReporter::test_case_start(test);
  }

  void log_assert(const doctest::AssertData& assertion) override {
    if (assertion.m_threw && is_not_implemented(assertion.m_exception)) {
      report_stub(assertion.m_exception);
      return;
    }
    if (assertion.m_failed) real_failure_ = true;
    ConsoleReporter::log_assert(assertion);
  }

  void test_case_exception(const doctest::TestCaseException& exception) override {
    if (is_not_implemented(exception.error_string)) {
      report_stub(exception.error_string);
      return;
    }
    real_failure_ = true;
    ConsoleReporter::test_case_exception(exception);
  }

  void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
    if (stubbed_) return;
    ConsoleReporter::test_case_end(stats);
  }

  void test_run_end(const doctest::TestRunStats& stats) override {
    // Só stubs: a linha de cada um já disse tudo.
    if (stats.numTestCasesFailed == 0 || real_failure_) ConsoleReporter::test_run_end(stats);
    if (stats.numTestCasesFailed > 0) report_core();
  }

 private:
  // Numa falha, contra que núcleo o teste rodou ("exercises/02-brakes": o seu
  // código; "solutions/02-brakes": a referência). O ctest põe HZ_TEST_CORE no
  // ambiente de cada teste de etapa (cmake/HzTests.cmake).
  void report_core() {
    const char* core = std::getenv("HZ_TEST_CORE");
    if (core == nullptr || *core == '\0') return;
    s << "(rodou contra o núcleo de " << core << "/)\n";
  }

  void report_stub(const doctest::String& message) {
    if (stubbed_) return;  // uma linha por teste, mesmo que várias asserções lancem
    stubbed_ = true;
    s << doctest::Color::Red << "✗ " << doctest::Color::None << tc->m_name << ": "
      << unquoted(message) << "\n";
  }

  bool stubbed_ = false;
  bool real_failure_ = false;
};

REGISTER_REPORTER("hz", 1, HzReporter);

}  // namespace

int main(int argc, char** argv) {
  doctest::Context context;
  context.setOption("reporters", "hz");
  context.applyCommandLine(argc, argv);
  return context.run();
}
