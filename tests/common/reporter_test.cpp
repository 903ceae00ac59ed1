// O relatório dos executáveis de teste (common/testing/src/doctest_main.cpp),
// rodado no hz-reporter-sample (reporter_sample.cpp): um teste que falha
// mostra as primeiras falhas, até um teto, diz que cortou e onde está a saída
// inteira; o teste continua falhando, com toda verificação contada.
#include <doctest/doctest.h>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "hz/testing/process.hpp"
#include "hz/testing/temp_dir.hpp"

namespace fs = std::filesystem;
using hz::testing::contains;
using hz::testing::ProcessResult;

namespace {

// O caso de teste do exemplo, com HZ_TEST_OUTPUT_DIR e HZ_TEST_OUTPUT dados
// (vazios: como se não existissem, mesmo que o ctest os ponha neste teste).
ProcessResult run_sample(const std::string& test_case, const std::string& output_dir,
                         const std::string& output = "") {
  return hz::testing::run_program(
      {hz::testing::bin_path("hz-reporter-sample").string(), "--test-case=" + test_case}, "",
      {"HZ_TEST_OUTPUT_DIR=" + output_dir, "HZ_TEST_OUTPUT=" + output, "HZ_TEST_CORE="});
}

}  // namespace

TEST_CASE("100 falhas grandes: a tela mostra 3, e a saída inteira vai para um arquivo") {
  hz::testing::TempDir dir;
  const ProcessResult r = run_sample("muitas falhas grandes", (dir / "saidas").string());
  CHECK(r.exit_code == 1);
  CHECK(r.out.size() < 20 * 1024);
  CHECK(hz::testing::occurrences(r.out, "ERROR: CHECK(") == 3);
  CHECK(contains(r.out,
                 "[hz] saída cortada: um teste que falha mostra as 3 primeiras "
                 "verificações que falharam, até 16 KB; neste, 100 falharam, e "));
  CHECK(contains(r.out, "[hz] a saída inteira está em " + (dir / "saidas").string() + "/"));
  // O resumo do doctest fica inteiro: o teste falha, com as 100 falhas contadas.
  CHECK(contains(r.out, "| 100 failed |"));
  CHECK(contains(r.out, "[doctest] Status: FAILURE!"));
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir / "saidas")) files.push_back(entry.path());
  REQUIRE(files.size() == 1);
  CHECK(contains(r.out, files[0].string() + "\n"));
  CHECK(files[0].filename().string().rfind("muitas-falhas-grandes-", 0) == 0);
  const std::string full = dir.read("saidas/" + files[0].filename().string());
  CHECK(hz::testing::occurrences(full, "ERROR: CHECK(") == 100);
  CHECK(contains(full, "i := 99"));
}

TEST_CASE("uma falha maior que o teto é cortada nele, sem partir um caractere") {
  hz::testing::TempDir dir;
  const ProcessResult r = run_sample("uma falha enorme", dir.path().string());
  CHECK(r.exit_code == 1);
  CHECK(r.out.size() < 17 * 1024);
  CHECK(contains(r.out, "neste, 1 falhou, e "));
  const std::size_t cut = r.out.find("\n[hz] saída cortada");
  REQUIRE(cut != std::string::npos);
  REQUIRE(cut >= 2);
  CHECK(r.out.substr(cut - 2, 2) == "é");
}

TEST_CASE("uma quarta falha pequena: o corte diz que 1 KB ficou de fora, no singular") {
  hz::testing::TempDir dir;
  const ProcessResult r = run_sample("quatro falhas pequenas", dir.path().string());
  CHECK(r.exit_code == 1);
  CHECK(hz::testing::occurrences(r.out, "ERROR: CHECK(") == 3);
  CHECK(contains(r.out, "; neste, 4 falharam, e 1 KB ficou de fora.\n"));
}

TEST_CASE("sem pasta para a saída inteira, o aviso diz como vê-la") {
  const ProcessResult r = run_sample("muitas falhas grandes", "");
  CHECK(r.exit_code == 1);
  CHECK(hz::testing::occurrences(r.out, "ERROR: CHECK(") == 3);
  CHECK(contains(r.out,
                 "[hz] para ver a saída inteira, rode de novo com HZ_TEST_OUTPUT=inteira "
                 "no ambiente\n"));
}

TEST_CASE("HZ_TEST_OUTPUT=inteira mostra tudo, sem aviso") {
  hz::testing::TempDir dir;
  const ProcessResult r = run_sample("muitas falhas grandes", dir.path().string(), "inteira");
  CHECK(r.exit_code == 1);
  CHECK(hz::testing::occurrences(r.out, "ERROR: CHECK(") == 100);
  CHECK_FALSE(contains(r.out, "[hz]"));
  CHECK(fs::is_empty(dir.path()));
}

TEST_CASE("poucas falhas, um stub e um teste que passa: nada é cortado") {
  hz::testing::TempDir dir;
  const ProcessResult two = run_sample("duas falhas pequenas", dir.path().string());
  CHECK(two.exit_code == 1);
  CHECK(hz::testing::occurrences(two.out, "ERROR: CHECK(") == 2);
  CHECK_FALSE(contains(two.out, "[hz]"));
  const ProcessResult stub = run_sample("stub", dir.path().string());
  CHECK(stub.exit_code == 1);
  CHECK(stub.out == "✗ stub: exercício 09-x/y não implementado: leia livro/09-x.md\n");
  const ProcessResult ok = run_sample("passa", dir.path().string());
  CHECK(ok.exit_code == 0);
  CHECK_FALSE(contains(ok.out, "[hz]"));
  CHECK(fs::is_empty(dir.path()));
}
