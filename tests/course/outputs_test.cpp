#include <doctest/doctest.h>

#include "fixture.hpp"
#include "hz/course/lines.hpp"
#include "hz/course/outputs.hpp"

using hz::course::check_outputs;
using hz::course::command_output;
using hz::course::normalize_output;
using hz::course::OutputReport;
using hz::course::select_lines;
using hz::course::shell_quote;
using hz::course::with_bin;
using hz::course::test::replaced;
using hz::course::test::run_in;
using hz::course::test::Tree;
using hz::course::test::usage_error;

namespace {

const std::vector<std::string> kFive = {"a", "b", "c", "d", "e"};

std::vector<std::string> selected(const std::string& spec) {
  std::vector<std::string> out;
  std::string error;
  CHECK(select_lines(kFive, spec, out, error));
  CHECK(error == "");
  return out;
}

std::string selection_error(const std::string& spec) {
  std::vector<std::string> out;
  std::string error;
  CHECK_FALSE(select_lines(kFive, spec, out, error));
  return error;
}

// Um capítulo com duas saídas conferidas e uma de exemplo, dentro de um bloco
// de quatro crases, que não conta.
const std::string kOutputsChapter =
    "# Saídas\n"
    "\n"
    "<!-- output: printf 'um\\ndois\\n' -->\n"
    "```\n"
    "um\n"
    "dois\n"
    "```\n"
    "\n"
    "<!-- output lines=1,...,-1: printf 'a\\nb\\nc\\nd\\n' -->\n"
    "```text\n"
    "a\n"
    "...\n"
    "d\n"
    "```\n"
    "\n"
    "````markdown\n"
    "<!-- output: printf 'ignorado' -->\n"
    "```\n"
    "x\n"
    "```\n"
    "````\n";

}  // namespace

TEST_CASE("normalize_output troca a porta do mock por ...") {
  CHECK(normalize_output("mock em http://127.0.0.1:43211/v1 e 127.0.0.1:80\n", "") ==
        "mock em http://127.0.0.1:.../v1 e 127.0.0.1:...\n");
  CHECK(normalize_output("10.0.0.1:8080\n", "") == "10.0.0.1:8080\n");
}

TEST_CASE("normalize_output troca as pastas temporárias hz-NOME-XXXXXX") {
  CHECK(normalize_output("workspace: /tmp/hz-ws-AbC123/src/a.cpp\n", "") ==
        "workspace: /tmp/hz-ws-.../src/a.cpp\n");
  CHECK(normalize_output("'/var/tmp/x/hz-work-space-q1W2e3' e \"/tmp/hz-b-zzzzzz\"", "") ==
        "'/tmp/hz-work-space-...' e \"/tmp/hz-b-...\"");
  // Sem barra antes, com sufixo de outro tamanho ou com maiúscula no nome: fica.
  CHECK(
      normalize_output("hz-ws-abc123 /tmp/hz-ws-abc12 /tmp/hz-ws-abc1234 /tmp/hz-Ws-abc123", "") ==
      "hz-ws-abc123 /tmp/hz-ws-abc12 /tmp/hz-ws-abc1234 /tmp/hz-Ws-abc123");
}

TEST_CASE("normalize_output troca a hora e as durações do trace JSONL por ...") {
  CHECK(normalize_output(
            R"({"duration_ms":12.345,"event":"tool_end","time":"2025-06-02T09:00:01.234567Z"})"
            "\n",
            "") == R"({"duration_ms":...,"event":"tool_end","time":"..."})"
                   "\n");
  // Só o campo do trace: um texto qualquer com uma data fica como está.
  CHECK(normalize_output(R"({"summary":"2025-06-02T09:00:01Z","time_left":3})", "") ==
        R"({"summary":"2025-06-02T09:00:01Z","time_left":3})");
}

TEST_CASE("normalize_output troca a pasta HZ_OUT antes das outras") {
  CHECK(normalize_output("escrito em /tmp/hz-saida-Q1w2E3/t.jsonl e /tmp/hz-saida-Q1w2E3\n",
                         "/tmp/hz-saida-Q1w2E3") == "escrito em $HZ_OUT/t.jsonl e $HZ_OUT\n");
  // O TMPDIR do comando, dentro dela, aparece como /tmp.
  CHECK(normalize_output("workspace: /tmp/hz-saida-Q1w2E3/tmp/hz-workspace-aB3dE6/notas.txt\n",
                         "/tmp/hz-saida-Q1w2E3") == "workspace: /tmp/hz-workspace-.../notas.txt\n");
}

TEST_CASE("select_lines: N, N-M, -K e ...") {
  CHECK(selected("1") == std::vector<std::string>{"a"});
  CHECK(selected("2-4") == std::vector<std::string>{"b", "c", "d"});
  CHECK(selected("-1") == std::vector<std::string>{"e"});
  CHECK(selected("-5") == std::vector<std::string>{"a"});
  CHECK(selected("1,...,-1") == std::vector<std::string>{"a", "...", "e"});
  CHECK(selected(" 1 , -2 ") == std::vector<std::string>{"a", "d"});
  CHECK(selected("3,1") == std::vector<std::string>{"c", "a"});
}

TEST_CASE("select_lines: item inválido ou fora da saída é erro") {
  CHECK(selection_error("x") == "lines=: item inválido 'x' (use N, N-M, -K ou ...)");
  CHECK(selection_error("") == "lines=: item inválido '' (use N, N-M, -K ou ...)");
  CHECK(selection_error("1,") == "lines=: item inválido '' (use N, N-M, -K ou ...)");
  CHECK(selection_error("1-") == "lines=: item inválido '1-' (use N, N-M, -K ou ...)");
  CHECK(selection_error("-2-3") == "lines=: item inválido '-2-3' (use N, N-M, -K ou ...)");
  CHECK(selection_error("99999999999999999999") ==
        "lines=: item inválido '99999999999999999999' (use N, N-M, -K ou ...)");
  CHECK(selection_error("0") == "lines=: '0' fora das 5 linhas da saída");
  CHECK(selection_error("6") == "lines=: '6' fora das 5 linhas da saída");
  CHECK(selection_error("-6") == "lines=: '-6' fora das 5 linhas da saída");
  CHECK(selection_error("2-9") == "lines=: '2-9' fora das 5 linhas da saída");
  CHECK(selection_error("4-2") == "lines=: '4-2' fora das 5 linhas da saída");
}

TEST_CASE("check_outputs: o livro em dia passa, e blocos dentro de exemplos não contam") {
  Tree t;
  t.write("livro/01-a.md", kOutputsChapter);
  const OutputReport r = check_outputs(t.root(), false);
  CHECK(r.problems.empty());
  CHECK(r.checked == 2);
  CHECK(r.updated == 0);
}

TEST_CASE("check_outputs mostra a saída que mudou como diff e --update reescreve o bloco") {
  Tree t;
  t.write("livro/01-a.md", replaced(kOutputsChapter, "dois\n```", "2\n```"));
  const OutputReport r = check_outputs(t.root(), false);
  CHECK(r.checked == 2);
  CHECK(r.problems ==
        std::vector<std::string>{"livro/01-a.md:3: a saída de `printf 'um\\ndois\\n'` mudou",
                                 "--- saída de agora", "+++ livro/01-a.md:5 (documento)",
                                 "@@ -1,2 +1,2 @@", " um", "-dois", "+2"});

  const OutputReport u = check_outputs(t.root(), true);
  CHECK(u.problems.empty());
  CHECK(u.updated == 1);
  CHECK(u.files_updated == std::vector<std::string>{"livro/01-a.md"});
  CHECK(t.read("livro/01-a.md") == kOutputsChapter);
}

TEST_CASE("check_outputs confere também os READMEs da raiz, das etapas, do common e do mock") {
  Tree t;
  const std::string block = "<!-- output: printf 'ok\\n' -->\n```\nvelho\n```\n";
  for (const char* rel : {"README.md", "etapas/01-a/README.md", "common/README.md",
                          "mock-server/README.md", "outra/README.md"}) {
    t.write(rel, block);
  }
  const OutputReport r = check_outputs(t.root(), true);
  CHECK(r.checked == 4);
  CHECK(r.files_updated == std::vector<std::string>{"README.md", "common/README.md",
                                                    "etapas/01-a/README.md",
                                                    "mock-server/README.md"});
  CHECK(t.read("README.md") == "<!-- output: printf 'ok\\n' -->\n```\nok\n```\n");
  CHECK(t.read("outra/README.md") == block);
}

TEST_CASE("check_outputs --update mantém o CRLF do capítulo") {
  Tree t;
  t.write("livro/a.md", "<!-- output: printf 'a\\nb\\n' -->\r\n```\r\nvelho\r\n```\r\n");
  const OutputReport r = check_outputs(t.root(), true);
  CHECK(r.problems.empty());
  CHECK(r.updated == 1);
  CHECK(t.read("livro/a.md") == "<!-- output: printf 'a\\nb\\n' -->\r\n```\r\na\r\nb\r\n```\r\n");
}

TEST_CASE("check_outputs roda na raiz com NO_COLOR, HZ_OUT novo, entrada vazia e sem stderr") {
  Tree t;
  t.write("dado.txt", "da raiz\n");
  t.write("livro/a.md",
          "<!-- output: cat dado.txt; echo \"cor=$NO_COLOR\"; cat; echo erro >&2; printf x > "
          "\"$HZ_OUT/f\"; cat \"$HZ_OUT/f\"; echo \" em $HZ_OUT\" -->\n"
          "```\n"
          "```\n");
  REQUIRE(check_outputs(t.root(), true).updated == 1);
  CHECK(t.read("livro/a.md") ==
        "<!-- output: cat dado.txt; echo \"cor=$NO_COLOR\"; cat; echo erro >&2; printf x > "
        "\"$HZ_OUT/f\"; cat \"$HZ_OUT/f\"; echo \" em $HZ_OUT\" -->\n"
        "```\n"
        "da raiz\n"
        "cor=1\n"
        "x em $HZ_OUT\n"
        "```\n");
}

TEST_CASE("check_outputs dá ao comando um TMPDIR que some com a saída") {
  Tree t;
  // O comando guarda, na raiz, o caminho de verdade da pasta que criou.
  t.write("livro/a.md",
          "<!-- output: d=\"$(mktemp -d)\"; printf %s \"$d\" > visto.txt; case \"$d\" in "
          "\"$HZ_OUT\"/*) echo dentro;; esac -->\n"
          "```\n"
          "```\n");
  REQUIRE(check_outputs(t.root(), true).updated == 1);
  CHECK(t.read("livro/a.md").find("```\ndentro\n```\n") != std::string::npos);
  const std::string made = t.read("visto.txt");
  REQUIRE_FALSE(made.empty());
  CHECK_FALSE(std::filesystem::exists(made));
}

TEST_CASE("check_outputs: ^ roda os comandos do bloco console acima, como o leitor digita") {
  Tree t;
  t.write("dado.txt", "um\ndois\n");
  t.write("livro/a.md",
          "```console\n"
          "$ printf 'x\\n' > $HZ_OUT/f\n"
          "saída que o leitor vê, não é comando\n"
          "$ cat dado.txt $HZ_OUT/f\n"
          "```\n"
          "\n"
          "<!-- output: echo 'dois' | grep -c '^d'; ^ | tail -n 2 -->\n"
          "```text\n"
          "```\n");
  const hz::course::OutputReport report = check_outputs(t.root(), true);
  CHECK(report.problems.empty());
  CHECK(report.updated == 1);
  // O que vem antes do ^ roda antes (e o ^ dentro de '^d' não é o do bloco).
  CHECK(t.read("livro/a.md").find("```text\n1\ndois\nx\n```\n") != std::string::npos);
}

TEST_CASE("check_outputs: ^ sem um bloco console logo acima é um problema, e o bloco fica") {
  Tree t;
  const std::string chapter =
      "```text\n"
      "$ echo oi\n"
      "```\n"
      "<!-- output: ^ -->\n"
      "```text\n"
      "o que estava\n"
      "```\n";
  t.write("livro/a.md", chapter);
  // Nem com --update: sem comando, nada roda e nada é reescrito.
  const hz::course::OutputReport report = check_outputs(t.root(), true);
  CHECK(
      report.problems ==
      std::vector<std::string>{
          "livro/a.md:4: o ^ quer dizer os comandos do bloco ```console logo acima, e não há um"});
  CHECK(report.updated == 0);
  CHECK(t.read("livro/a.md") == chapter);
}

TEST_CASE("check_outputs: bloco que falta, sem fechamento e lines= fora da saída") {
  Tree t;
  t.write("livro/a.md",
          "<!-- output: printf 'a\\nb\\n' -->\n"
          "texto\n"
          "<!-- output lines=9: printf 'a\\nb\\n' -->\n"
          "```\n"
          "a\n"
          "```\n"
          "<!-- output: printf 'a' -->\n"
          "```\n"
          "a\n");
  const OutputReport r = check_outputs(t.root(), true);
  CHECK(r.checked == 3);
  CHECK(r.problems == std::vector<std::string>{
                          "livro/a.md:1: a saída precisa de um bloco cercado (```) logo abaixo",
                          "livro/a.md:3: lines=: '9' fora das 2 linhas da saída",
                          "livro/a.md:7: bloco da saída sem cerca de fechamento"});
  CHECK(r.updated == 0);
  CHECK(r.files_updated.empty());
}

TEST_CASE("outputs na linha de comando: --check, --update e --chapter") {
  Tree t;
  t.write("livro/01-a.md", replaced(kOutputsChapter, "dois\n```", "2\n```"));
  t.write("livro/02-b.md", "<!-- output: echo oi -->\n```\noi\n```\n");
  const auto only = run_in(t, "outputs", {"--chapter", "02-b.md"});
  CHECK_RUN(only, 0, "1 saída conferida\n", "");

  const auto check = run_in(t, "outputs", {"--check"});
  CHECK_RUN(check, 1, "",
            "livro/01-a.md:3: a saída de `printf 'um\\ndois\\n'` mudou\n"
            "--- saída de agora\n"
            "+++ livro/01-a.md:5 (documento)\n"
            "@@ -1,2 +1,2 @@\n"
            " um\n"
            "-dois\n"
            "+2\n"
            "3 saídas conferidas; há saídas do livro que não batem com os executáveis: rode ./hz "
            "outputs --update\n");

  const auto update = run_in(t, "outputs", {"--update"});
  CHECK_RUN(update, 0, "  atualizado: livro/01-a.md\n3 saídas conferidas, 1 atualizada\n", "");
  CHECK(t.read("livro/01-a.md") == kOutputsChapter);

  const auto both = run_in(t, "outputs", {"--check", "--update"});
  CHECK(both.code == 2);
  CHECK(both.err == usage_error("use --check ou --update, não os dois"));
}

TEST_CASE("with_bin troca o bin/ do começo de cada palavra pela pasta do build conferido") {
  CHECK(with_bin("bin/hz-01-loop --trace \"$HZ_OUT/bin/t.jsonl\"", "/b/x/bin") ==
        "/b/x/bin/hz-01-loop --trace \"$HZ_OUT/bin/t.jsonl\"");
  CHECK(with_bin("a; bin/hz-mock & (bin/hz-02-brakes) | bin/x", "B") ==
        "a; B/hz-mock & (B/hz-02-brakes) | B/x");
  CHECK(with_bin("echo $(bin/hz-course list) cabin/x robin/", "B") ==
        "echo $(B/hz-course list) cabin/x robin/");
  CHECK(with_bin("bin/hz-01-loop", "") == "bin/hz-01-loop");
  // Um comando de várias linhas: cada linha começa uma palavra.
  CHECK(with_bin("{ bin/hz-04-journal a\ntruncate x\nbin/hz-04-journal b\n\tbin/y\n}", "B") ==
        "{ B/hz-04-journal a\ntruncate x\nB/hz-04-journal b\n\tB/y\n}");
}

TEST_CASE("shell_quote: o texto chega ao /bin/sh como uma palavra, aspas e $ inclusive") {
  CHECK(shell_quote("it's") == "'it'\\''s'");
  const std::string tricky = "a b'c\"d $HOME `x`";
  CHECK(command_output("printf %s " + shell_quote(tricky)) == tricky);
}

TEST_CASE("command_output: o stdout inteiro, ou nada se o comando sai com erro") {
  CHECK(command_output("printf 'um\\ndois\\n'") == "um\ndois\n");
  CHECK(command_output("printf parcial; exit 3") == std::nullopt);
}
