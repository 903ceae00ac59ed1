#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "hz/testing/printing.hpp"
#include "hz/testing/process.hpp"
#include "hz/testing/scripted_model.hpp"
#include "hz/testing/temp_dir.hpp"
#include "hz/text.hpp"

namespace fs = std::filesystem;
using hz::testing::run_program;

TEST_CASE("TempDir cria uma pasta nova e a apaga no fim") {
  fs::path kept;
  {
    hz::testing::TempDir dir("hz-teste-temp");
    kept = dir.path();
    CHECK(fs::is_directory(kept));
    CHECK(kept.filename().string().rfind("hz-teste-temp-", 0) == 0);
    CHECK(dir.write("a/b.txt", "conteúdo") == kept / "a/b.txt");
    CHECK(dir.read("a/b.txt") == "conteúdo");
    CHECK(dir / "a" == kept / "a");
  }
  CHECK_FALSE(fs::exists(kept));
}

TEST_CASE("TempDir movido passa a posse da pasta") {
  hz::testing::TempDir first;
  const fs::path path = first.path();
  {
    hz::testing::TempDir second(std::move(first));
    CHECK(second.path() == path);
    CHECK(first.path().empty());  // NOLINT: conferir o estado depois do move é o teste
  }
  CHECK_FALSE(fs::exists(path));
}

TEST_CASE("run_program captura stdout stderr e o código de saída") {
  const auto result = run_program({"/bin/sh", "-c", "echo saída; echo erro >&2; exit 4"});
  CHECK(result.exit_code == 4);
  CHECK(result.out == "saída\n");
  CHECK(result.err == "erro\n");
}

TEST_CASE("run_program entrega stdin e variáveis de ambiente extras") {
  const auto result =
      run_program({"/bin/sh", "-c", "cat; echo \"$HZ_X\""}, "linha 1\nlinha 2\n", {"HZ_X=valor"});
  CHECK(result.exit_code == 0);
  CHECK(result.out == "linha 1\nlinha 2\nvalor\n");
  CHECK(result.err.empty());
}

TEST_CASE("run_program lê saídas grandes sem travar") {
  // Maior que o buffer de um pipe (64 KiB) nas duas saídas ao mesmo tempo.
  const auto result =
      run_program({"/bin/sh", "-c", "head -c 300000 /dev/zero; head -c 200000 /dev/zero >&2"});
  CHECK(result.exit_code == 0);
  CHECK(result.out.size() == 300000);
  CHECK(result.err.size() == 200000);
}

TEST_CASE("run_program devolve 128 mais o sinal quando o processo é morto") {
  CHECK(run_program({"/bin/sh", "-c", "kill -KILL $$"}).exit_code == 137);
}

TEST_CASE("run_program devolve 127 quando o executável não existe") {
  const auto result = run_program({"/nao/existe/programa"});
  CHECK(result.exit_code == 127);
  CHECK(result.err == "run_program: execve falhou\n");
}

TEST_CASE("occurrences conta o trecho sem sobreposição") {
  using hz::testing::occurrences;
  CHECK(occurrences("aaaa", "aa") == 2);
  CHECK(occurrences("⚠ um\n⚠ dois\n", "⚠") == 2);
  CHECK(occurrences("nada aqui", "⚠") == 0);
  CHECK(occurrences("", "x") == 0);
  CHECK(occurrences("abc", "") == 0);  // e termina
}

TEST_CASE("contains vale como bool e, numa falha, mostra o trecho e o texto em que não apareceu") {
  using hz::testing::contains;
  CHECK(static_cast<bool>(contains("você> oi\n", "você> oi")));
  CHECK_FALSE(static_cast<bool>(contains("você> oi\n", "tchau")));
  // O que o doctest imprime no "values:" de um CHECK(contains(...)) que falha.
  CHECK(std::string(doctest::toString(contains("linha 1\nlinha \"2\"", "tchau")).c_str()) ==
        "\"tchau\" não aparece em \"linha 1\\nlinha \\\"2\\\"\"");
  CHECK(std::string(doctest::toString(contains("o mock registrou", "mock")).c_str()) ==
        "\"mock\" aparece em \"o mock registrou\"");
  // Um texto longo sai cortado no meio: a falha não inunda o terminal.
  const std::string long_text(10000, 'a');
  CHECK(std::string(doctest::toString(contains(long_text, "b")).c_str()) ==
        "\"b\" não aparece em \"" + hz::truncate_middle(long_text, 4000) + "\"");
}

TEST_CASE("bin_path e source_path apontam para o build e o repositório") {
  CHECK(hz::testing::bin_path("hz-01-loop") == fs::path(HZ_BIN_DIR) / "hz-01-loop");
  CHECK(fs::exists(hz::testing::source_path("common/include/hz/wire.hpp")));
}

TEST_CASE("ScriptedModel responde pelo roteiro e grava os pedidos") {
  hz::testing::ScriptedModel model(R"({"name":"t","steps":[{"content":"a"},{"content":"b"}]})");
  CHECK(model.base_url() == "http://127.0.0.1:" + std::to_string(model.port()) + "/v1");
  CHECK(model.endpoint().base_url == model.base_url());
  CHECK(model.endpoint().api_key.empty());
  hz::OpenAiClient client(model.endpoint());
  hz::ChatRequest request;
  request.model = "m";
  request.messages = {hz::Message::user("um")};
  CHECK(client.complete(request)->message.content == "a");
  request.messages.push_back(hz::Message::user("dois"));
  CHECK(client.complete(request)->message.content == "b");
  const auto bodies = model.request_bodies();
  REQUIRE(bodies.size() == 2);
  CHECK(bodies[1]["messages"].size() == 2);
  CHECK(model.failures().empty());
}

TEST_CASE("ScriptedModel registra pedido além do roteiro como falha") {
  hz::testing::ScriptedModel model(R"({"name":"t","steps":[{"content":"a"}]})");
  hz::OpenAiClient client(model.endpoint());
  hz::ChatRequest request;
  request.messages = {hz::Message::user("um")};
  REQUIRE(client.complete(request).ok());
  CHECK_FALSE(client.complete(request).ok());
  CHECK(model.failures().size() == 1);
}

TEST_CASE("ScriptedModel lança com cenário inválido") {
  CHECK_THROWS_AS(hz::testing::ScriptedModel("{ nao é json"), std::runtime_error);
  CHECK_THROWS_AS(hz::testing::ScriptedModel::from_scenario("cenario-que-nao-existe"),
                  std::runtime_error);
}

namespace {

// O que o doctest imprime no "values:" de um CHECK(lhs == rhs) que falha: a
// mesma decomposição que a macro CHECK faz.
template <class L, class R>
std::string failure_values(const L& lhs, const R& rhs) {
  const doctest::detail::Result result =
      (doctest::detail::ExpressionDecomposer(doctest::assertType::DT_CHECK) << lhs) == rhs;
  return result.m_decomp.c_str();
}

}  // namespace

TEST_CASE("numa falha, os dois lados de uma comparação de textos saem entre aspas") {
  const std::string empty;
  CHECK(failure_values(empty, "feito") == R"("" == "feito")");
  CHECK(failure_values(std::string("feito "), std::string("feito")) == R"("feito " == "feito")");
  CHECK(failure_values(std::string("a\nb\t\"c\""), std::string_view("ab")) ==
        R"("a\nb\t\"c\"" == "ab")");
  CHECK(failure_values("x", empty) == R"("x" == "")");
  const char* pointer = "ponteiro";
  CHECK(failure_values(empty, pointer) == R"("" == "ponteiro")");
  // Um número continua sem aspas.
  CHECK(failure_values(1, 2) == "1 == 2");
}

TEST_CASE("uma mensagem (INFO, CAPTURE) sai como está, sem aspas, com as quebras de linha") {
  // O que o INFO faz: um MessageBuilder escrevendo no stream do contexto.
  std::ostringstream out;
  {
    doctest::detail::MessageBuilder message(__FILE__, __LINE__, doctest::assertType::is_warn);
    message.m_stream = &out;
    message * "err := ", std::string("linha 1\nlinha 2"), " e ", 3;
  }
  CHECK(out.str() == "err := linha 1\nlinha 2 e 3");
}

TEST_CASE("uma lista de números aparece numa falha com os números, não como {?}") {
  CHECK(std::string(doctest::toString(std::vector<int>{5, 7}).c_str()) == "{5, 7}");
  CHECK(std::string(doctest::toString(std::vector<std::size_t>{}).c_str()) == "{}");
  CHECK(std::string(doctest::toString(std::vector<long>{-1}).c_str()) == "{-1}");
}

TEST_CASE(
    "first_difference diz onde dois históricos, ou as linhas de dois arquivos, começam a diferir") {
  using hz::Message;
  using hz::testing::first_difference;
  const auto printed_message = [](const Message& message) {
    std::ostringstream out;
    out << message;
    return out.str();
  };
  const std::vector<Message> two{Message::system("regras"), Message::user("oi")};
  CHECK(first_difference(two, two) == "iguais");
  CHECK(first_difference(two, {Message::system("regras"), Message::user("olá")}) ==
        "a mensagem [1] difere:\n  veio:     " + printed_message(two[1]) +
            "\n  esperada: " + printed_message(Message::user("olá")));
  CHECK(first_difference(two, {two[0]}) ==
        "as primeiras 1 mensagens são iguais, mas veio 2 e eram esperadas 1");
  const std::vector<std::string> lines{"a", "b\"c"};
  CHECK(first_difference(lines, lines) == "iguais");
  CHECK(first_difference(lines, {"a", "x"}) ==
        "a linha [1] difere:\n  veio:     \"b\\\"c\"\n  esperada: \"x\"");
  CHECK(first_difference({"a"}, lines) ==
        "as primeiras 1 linhas são iguais, mas veio 1 e eram esperadas 2");
}
