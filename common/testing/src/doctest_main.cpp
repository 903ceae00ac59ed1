// O main de todos os executáveis de teste do curso: o doctest com um
// relatório que não afoga o aluno.
//
// Um exercício ainda não feito lança hz::NotImplemented em dezenas de testes.
// O relatório padrão do doctest imprime um cabeçalho e várias linhas para cada
// um; este imprime UMA linha por teste ("✗ <teste>: exercício ... não
// implementado: leia ..."), e só mostra o relatório completo (com os dois
// lados de cada comparação) para as falhas de verdade.
//
// E põe um teto no que um teste que falha imprime: as primeiras
// kShownFailures verificações que falharam, até kShownBytes. Um teste que
// confere o mesmo em cada prefixo de um journal, com uma resposta errada,
// imprimia mais de 500 KB. O resto não se perde: vai inteiro para um arquivo
// em HZ_TEST_OUTPUT_DIR (o ctest põe build*/test-output/ no ambiente de cada
// teste, cmake/HzDiscoverTests.cmake), e o aviso no fim diz qual.
// HZ_TEST_OUTPUT=inteira desliga o teto. O teto só muda o que aparece: toda
// verificação roda e conta, e o teste falha como antes.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <mutex>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>

namespace {

constexpr int kShownFailures = 3;
constexpr std::size_t kShownBytes = 16 * 1024;

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

bool full_output_wanted() {
  const char* wanted = std::getenv("HZ_TEST_OUTPUT");
  return wanted != nullptr && std::string(wanted) == "inteira";
}

// Um nome de arquivo para o teste: letras e dígitos do nome (os acentos
// ficam), o resto vira "-", e um hash (FNV-1a) do nome inteiro, para dois
// nomes parecidos não caírem no mesmo arquivo.
std::string file_name(const std::string& test) {
  std::string slug;
  std::uint32_t hash = 2166136261u;
  for (const char c : test) {
    const auto byte = static_cast<unsigned char>(c);
    hash = (hash ^ byte) * 16777619u;
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (plain || byte >= 0x80) {
      slug += c;
    } else if (!slug.empty() && slug.back() != '-') {
      slug += '-';
    }
  }
  std::size_t size = std::min<std::size_t>(slug.size(), 60);
  while (size < slug.size() && (static_cast<unsigned char>(slug[size]) & 0xC0) == 0x80) --size;
  slug.resize(size);
  std::ostringstream out;
  out << slug << (slug.empty() || slug.back() == '-' ? "" : "-") << std::hex << hash << ".txt";
  return out.str();
}

std::string kilobytes(std::size_t bytes) { return std::to_string((bytes + 1023) / 1024) + " KB"; }

// Sem buffer (o que já foi escrito aparece mesmo se o teste cair depois):
// repassa ao destino até o teto e guarda tudo, para o arquivo da saída inteira.
class CappedBuf : public std::streambuf {
 public:
  enum class Mode { capped, quiet, through };  // quiet: só guarda; through: fora do teto

  explicit CappedBuf(std::streambuf* target) : target_(target) {}

  void restart(bool capped) {
    full_.clear();
    left_ = capped ? kShownBytes : std::numeric_limits<std::size_t>::max();
    dropped_ = 0;
    mode_ = Mode::capped;
  }
  void set_mode(Mode mode) { mode_ = mode; }
  const std::string& full() const { return full_; }
  std::size_t dropped() const { return dropped_; }
  bool at_line_start() const { return last_ == '\n'; }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    xsputn(&ch, 1);
    return c;
  }

  std::streamsize xsputn(const char* data, std::streamsize n) override {
    const auto size = static_cast<std::size_t>(n);
    full_.append(data, size);
    std::size_t shown = size;
    if (mode_ == Mode::quiet) {
      shown = 0;
    } else if (mode_ == Mode::capped && size > left_) {
      shown = left_;
      // Não corta um caractere UTF-8 ao meio.
      while (shown > 0 && (static_cast<unsigned char>(data[shown]) & 0xC0) == 0x80) --shown;
      left_ = 0;
    } else if (mode_ == Mode::capped) {
      left_ -= size;
    }
    if (shown > 0) {
      target_->sputn(data, static_cast<std::streamsize>(shown));
      last_ = data[shown - 1];
    }
    dropped_ += size - shown;
    return n;
  }

  int sync() override { return target_->pubsync(); }

 private:
  std::streambuf* target_;
  std::string full_;
  std::size_t left_ = kShownBytes;
  std::size_t dropped_ = 0;
  Mode mode_ = Mode::capped;
  char last_ = '\n';
};

// Vem antes do ConsoleReporter na lista de bases: o fluxo existe quando ele o recebe.
struct CappedStream {
  explicit CappedStream(std::ostream& target) : buf(target.rdbuf()), stream(&buf) {}
  CappedBuf buf;
  std::ostream stream;
};

// O ConsoleReporter do doctest mora num namespace anônimo do próprio doctest,
// visível aqui porque esta é a unidade que tem a implementação.
struct HzReporter : private CappedStream, public doctest::ConsoleReporter {
  explicit HzReporter(const doctest::ContextOptions& options)
      : CappedStream(*options.cout), ConsoleReporter(options, stream) {}

  void test_run_start() override {}  // sem a faixa "doctest version is ..."

  void test_case_start(const doctest::TestCaseData& test) override {
    stubbed_ = false;
    failures_ = 0;
    buf.restart(capped_);
    ConsoleReporter::test_case_start(test);
  }

  void log_assert(const doctest::AssertData& assertion) override {
    if (assertion.m_threw && is_not_implemented(assertion.m_exception)) {
      report_stub(assertion.m_exception);
      return;
    }
    if (!assertion.m_failed) {
      ConsoleReporter::log_assert(assertion);  // não imprime nada (sem --success)
      return;
    }
    // Um CHECK pode falhar em outra thread: a contagem e o modo, um de cada vez.
    const std::lock_guard<std::mutex> lock(failures_mutex_);
    real_failure_ = true;
    ++failures_;
    // Depois das primeiras falhas, as seguintes só vão para o arquivo.
    const bool hidden = capped_ && failures_ > kShownFailures;
    buf.set_mode(hidden ? CappedBuf::Mode::quiet : CappedBuf::Mode::capped);
    ConsoleReporter::log_assert(assertion);
    buf.set_mode(CappedBuf::Mode::capped);
  }

  void test_case_exception(const doctest::TestCaseException& exception) override {
    if (is_not_implemented(exception.error_string)) {
      report_stub(exception.error_string);
      return;
    }
    real_failure_ = true;
    buf.set_mode(CappedBuf::Mode::through);  // a exceção que encerrou o teste sempre aparece
    ConsoleReporter::test_case_exception(exception);
    buf.set_mode(CappedBuf::Mode::capped);
  }

  void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
    if (stubbed_) return;
    buf.set_mode(CappedBuf::Mode::through);
    ConsoleReporter::test_case_end(stats);
    if (buf.dropped() > 0) report_cut();
  }

  void test_run_end(const doctest::TestRunStats& stats) override {
    buf.set_mode(CappedBuf::Mode::through);
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

  // O arquivo com a saída inteira deste teste, ou vazio se não há onde gravar.
  std::string save_full_output() const {
    const char* dir = std::getenv("HZ_TEST_OUTPUT_DIR");
    if (dir == nullptr || *dir == '\0') return "";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const std::filesystem::path path = std::filesystem::path(dir) / file_name(tc->m_name);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << buf.full();
    return out.flush() ? path.string() : "";
  }

  void report_cut() {
    const std::string path = save_full_output();
    if (!buf.at_line_start()) s << "\n";
    s << "[hz] saída cortada: um teste que falha mostra as " << kShownFailures
      << " primeiras verificações que falharam, até " << kilobytes(kShownBytes) << "; neste, "
      << failures_ << (failures_ == 1 ? " falhou" : " falharam") << ", e "
      << kilobytes(buf.dropped()) << (buf.dropped() <= 1024 ? " ficou" : " ficaram")
      << " de fora.\n";
    if (!path.empty()) {
      s << "[hz] a saída inteira está em " << path << "\n";
    } else {
      s << "[hz] para ver a saída inteira, rode de novo com HZ_TEST_OUTPUT=inteira no ambiente\n";
    }
  }

  const bool capped_ = !full_output_wanted();
  std::mutex failures_mutex_;
  bool stubbed_ = false;
  bool real_failure_ = false;
  int failures_ = 0;
};

REGISTER_REPORTER("hz", 1, HzReporter);

}  // namespace

int main(int argc, char** argv) {
  doctest::Context context;
  context.setOption("reporters", "hz");
  context.applyCommandLine(argc, argv);
  return context.run();
}
