// ToolBox::dispatch: uma tool call vira exatamente uma mensagem tool, e todo
// erro (nome, argumentos, recusa, exceção) vira texto com o prefixo "erro: ",
// com as palavras do aluno: os testes conferem o que ele cita.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "hz/testing/facts.hpp"
#include "hz/testing/process.hpp"
#include "hz/testing/temp_dir.hpp"
#include "hz/text.hpp"
#include "hz/tools.hpp"
#include "hz/workspace.hpp"
#include "tool_dispatch.hpp"

using hz::Message;
using hz::ToolCall;
using hz::ToolOutput;
using hz::test01::args_refusal;
using hz::test01::check_cut;
using hz::test01::echo_tool;
using hz::test01::error_gaps;
using hz::test01::fake_tool;
using hz::test01::long_output;
using hz::test01::throwing_tool;
using hz::testing::contains;
using hz::testing::order_gaps;

TEST_SUITE_BEGIN("01-loop/dispatch");

TEST_CASE("o despacho roda a ferramenta e responde com o id do pedido") {
  const hz::ToolBox box({echo_tool()});
  const auto result = box.dispatch(ToolCall{"c1", "echo", R"({"text":"olá"})"});
  CHECK(result.message == Message::tool("c1", "olá"));
  CHECK(result.ok);
  CHECK(result.output_bytes == std::string("olá").size());
}

TEST_CASE("ferramenta desconhecida vira texto de erro com a lista de ferramentas") {
  const hz::ToolBox box({echo_tool(), throwing_tool()});
  const auto result = box.dispatch(ToolCall{"c7", "apagar_tudo", "{}"});
  CHECK(result.message.tool_call_id == "c7");
  CHECK(error_gaps(result.message.content, "erro: ", {"apagar_tudo"}) == "");
  CHECK(order_gaps(result.message.content, {"echo", "explode"}) == "");
  CHECK_FALSE(result.ok);

  // Com as cinco ferramentas da etapa, na ordem da caixa.
  hz::testing::TempDir dir;
  const hz::Workspace workspace{dir.path()};
  const hz::ToolBox stage(hz::basic_tools(workspace));
  for (const char* name : {"bash", "run_tests"}) {
    CAPTURE(name);
    const std::string text = stage.dispatch(ToolCall{"c8", name, "{}"}).message.content;
    CHECK(error_gaps(text, "erro: ", {name}) == "");
    INFO("o texto: ", hz::testing::quoted(text));
    CHECK(order_gaps(text, {"read_file", "write_file", "edit_file", "list_dir", "run_shell"}) ==
          "");
  }
}

TEST_CASE("argumentos que não são JSON viram texto de erro") {
  const hz::ToolBox box({echo_tool()});
  const auto result = box.dispatch(ToolCall{"c1", "echo", R"({"text": )"});
  CHECK(result.message.content ==
        args_refusal(echo_tool().schema, ToolCall{"c1", "echo", R"({"text": )"}));
  CHECK(result.message.tool_call_id == "c1");
  CHECK_FALSE(result.ok);
}

TEST_CASE("argumentos que são JSON mas não um objeto viram texto de erro") {
  const hz::ToolBox box({echo_tool()});
  const auto result = box.dispatch(ToolCall{"c1", "echo", "[1, 2]"});
  CHECK(result.message.content ==
        args_refusal(echo_tool().schema, ToolCall{"c1", "echo", "[1, 2]"}));
  CHECK_FALSE(result.ok);
}

TEST_CASE("argumentos vazios contam como um objeto vazio") {
  const hz::ToolBox box({fake_tool("ping", {}, [](const nlohmann::json& args) {
    return ToolOutput::success("pong " + args.dump());
  })});
  const auto result = box.dispatch(ToolCall{"c1", "ping", ""});
  CHECK(result.message == Message::tool("c1", "pong {}"));
  CHECK(result.ok);
}

TEST_CASE("campo obrigatório ausente vira texto de erro e a ferramenta não roda") {
  int runs = 0;
  const hz::ToolBox box({fake_tool("edit", {"path", "old_text"}, [&runs](const nlohmann::json&) {
    ++runs;
    return ToolOutput::success("editado");
  })});
  const auto result = box.dispatch(ToolCall{"c2", "edit", R"({"path":"a.txt"})"});
  const ToolCall call{"c2", "edit", R"({"path":"a.txt"})"};
  CHECK(result.message == Message::tool("c2", args_refusal(box.find("edit")->schema, call)));
  CHECK_FALSE(result.ok);
  CHECK(runs == 0);
}

TEST_CASE("ferramenta que lança exceção vira texto de erro") {
  const hz::ToolBox box({throwing_tool()});
  const auto result = box.dispatch(ToolCall{"c3", "explode", "{}"});
  CHECK(result.message.tool_call_id == "c3");
  CHECK(error_gaps(result.message.content, "erro: ", {"explode", "disco pegou fogo"}) == "");
  CHECK_FALSE(result.ok);
}

TEST_CASE("ferramenta que lança algo que não é std::exception também vira texto de erro") {
  const hz::ToolBox box({fake_tool("crua", {}, [](const nlohmann::json&) -> ToolOutput {
    throw 42;  // sem what(): o despacho não pode deixar escapar
  })});
  const auto result = box.dispatch(ToolCall{"c5", "crua", "{}"});
  CHECK(result.message.tool_call_id == "c5");
  CHECK(error_gaps(result.message.content, "erro: ", {"crua"}) == "");
  CHECK_FALSE(result.ok);
}

TEST_CASE("falha esperada da ferramenta chega ao modelo como está com ok falso") {
  const hz::ToolBox box({fake_tool("check", {}, [](const nlohmann::json&) {
    return ToolOutput::failure("código de saída: 1\nFALHOU");
  })});
  const auto result = box.dispatch(ToolCall{"c4", "check", "{}"});
  CHECK(result.message == Message::tool("c4", "código de saída: 1\nFALHOU"));
  CHECK_FALSE(result.ok);
}

TEST_CASE("saída longa é cortada no meio guardando o começo e o fim") {
  const std::string big = long_output();
  const hz::ToolBox box(
      {fake_tool("big", {}, [&big](const nlohmann::json&) { return ToolOutput::success(big); }),
       fake_tool("big_error", {},
                 [&big](const nlohmann::json&) -> ToolOutput { throw std::runtime_error(big); })},
      {}, 200);
  CHECK(box.max_output_bytes() == 200);
  {
    const auto result = box.dispatch(ToolCall{"c5", "big", "{}"});
    check_cut(result.message.content, 200);
    CHECK(result.output_bytes == big.size());
    CHECK(result.ok);
  }
  // O erro do despacho também é uma mensagem tool e segue o mesmo limite da
  // caixa: o what() enorme de uma exceção é cortado no meio como uma saída.
  const auto error = box.dispatch(ToolCall{"c6", "big_error", "{}"});
  const std::string& text = error.message.content;
  const std::string start = text.substr(0, 60);
  INFO("o erro tem " << text.size() << " bytes e começa com " << hz::testing::quoted(start));
  REQUIRE(text.size() < 300);
  CHECK(text.substr(0, 6) == "erro: ");
  CHECK(text.substr(text.size() - 4) == "\nFIM");
  CHECK(contains(text, "omitidos"));
  CHECK(error.output_bytes > big.size());
  CHECK_FALSE(error.ok);
}

TEST_CASE("saída dentro do limite não é cortada") {
  const std::string exact(200, 'y');
  const hz::ToolBox box(
      {fake_tool("fit", {},
                 [&exact](const nlohmann::json&) { return ToolOutput::success(exact); })},
      {}, 200);
  CHECK(box.dispatch(ToolCall{"c6", "fit", "{}"}).message.content == exact);
}

TEST_CASE("recusa do usuário vira texto de erro e a ferramenta não roda") {
  int runs = 0;
  std::vector<std::string> asked;
  auto write = fake_tool(
      "write", {"path"},
      [&runs](const nlohmann::json&) {
        ++runs;
        return ToolOutput::success("escrito");
      },
      /*needs_approval=*/true);
  const hz::ToolBox box({write}, [&asked](const hz::Tool& tool, const nlohmann::json& args) {
    asked.push_back(tool.schema.name + " " + args.dump());
    return false;
  });
  const auto result = box.dispatch(ToolCall{"c8", "write", R"({"path":"a.txt"})"});
  CHECK(result.message.tool_call_id == "c8");
  CHECK(error_gaps(result.message.content, "erro: ", {"write"}) == "");
  CHECK_FALSE(result.ok);
  CHECK(runs == 0);
  CHECK(asked == std::vector<std::string>{R"(write {"path":"a.txt"})"});
}

TEST_CASE("argumentos inválidos são recusados antes de perguntar ao usuário") {
  std::vector<std::string> asked;  // o que o aprovador viu: nome e argumentos
  auto write = fake_tool(
      "write", {"path"}, [](const nlohmann::json&) { return ToolOutput::success("escrito"); },
      /*needs_approval=*/true);
  const hz::ToolBox box({write}, [&asked](const hz::Tool& tool, const nlohmann::json& args) {
    asked.push_back(tool.schema.name + " " + args.dump());
    return true;
  });
  const auto result = box.dispatch(ToolCall{"c8", "write", "{}"});
  CHECK(result.message ==
        Message::tool("c8", args_refusal(write.schema, ToolCall{"c8", "write", "{}"})));
  CHECK_FALSE(result.ok);
  // O aprovador nunca vê argumentos inválidos.
  CHECK(asked == std::vector<std::string>{});
}

TEST_CASE("aprovação concedida deixa a ferramenta rodar") {
  auto write = fake_tool(
      "write", {"path"}, [](const nlohmann::json&) { return ToolOutput::success("escrito"); },
      /*needs_approval=*/true);
  const hz::ToolBox box({write}, [](const hz::Tool&, const nlohmann::json&) { return true; });
  const auto result = box.dispatch(ToolCall{"c9", "write", R"({"path":"a.txt"})"});
  CHECK(result.message == Message::tool("c9", "escrito"));
  CHECK(result.ok);
}

TEST_CASE("ferramenta que só lê não pergunta nada ao usuário") {
  std::vector<std::string> asked;  // o que o aprovador viu: nome e argumentos
  const hz::ToolBox box({echo_tool()}, [&asked](const hz::Tool& tool, const nlohmann::json& args) {
    asked.push_back(tool.schema.name + " " + args.dump());
    return false;
  });
  const auto result = box.dispatch(ToolCall{"c1", "echo", R"({"text":"livre"})"});
  CHECK(result.message == Message::tool("c1", "livre"));
  // echo não tem needs_approval: o aprovador não é perguntado.
  CHECK(asked == std::vector<std::string>{});
}

TEST_CASE("read_file fora do workspace é recusado com texto de erro") {
  const hz::testing::TempDir dir;
  dir.write("segredo.txt", "não leia");
  dir.write("ws/dentro.txt", "pode ler");
  const hz::ToolBox box(hz::basic_tools(hz::Workspace(dir / "ws")));

  const auto escape = box.dispatch(ToolCall{"c1", "read_file", R"({"path":"../segredo.txt"})"});
  CHECK(escape.message == Message::tool("c1", "caminho fora do workspace: ../segredo.txt"));
  CHECK_FALSE(escape.ok);

  const auto deep = box.dispatch(ToolCall{"c2", "read_file", R"({"path":"../../etc/passwd"})"});
  CHECK(deep.message == Message::tool("c2", "caminho fora do workspace: ../../etc/passwd"));

  const auto absolute = box.dispatch(ToolCall{"c3", "read_file", R"({"path":"/etc/passwd"})"});
  const std::string refused = "caminho absoluto não é permitido: /etc/passwd";
  CHECK(absolute.message.content.substr(0, refused.size()) == refused);
  CHECK_FALSE(absolute.ok);

  const auto inside = box.dispatch(ToolCall{"c4", "read_file", R"({"path":"dentro.txt"})"});
  CHECK(inside.message == Message::tool("c4", "pode ler"));
}

TEST_SUITE_END();
