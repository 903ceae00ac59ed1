// O detector de repetição, exercício por exercício, na ordem do capítulo: a
// chave, lento ou travado, o ciclo, a decisão da janela (com os dois avisos),
// o aviso ao modelo. Os vereditos são comparados inteiros e aparecem na falha
// pelo nome (helpers.hpp).
#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "helpers.hpp"
#include "hz/testing/facts.hpp"
#include "hz/testing/printing.hpp"
#include "repetition.hpp"

using hz::Action;
using hz::Observation;
using hz::Repetition;
using hz::RepetitionConfig;
using hz::RepetitionDetector;
using hz::Verdict;
using hz::testing::called;
using hz::testing::cycle_seen_twice;
using hz::testing::hex;
using hz::testing::seen;
using hz::testing::seen_all;
using hz::testing::shown;
using hz::testing::verdict;

namespace {

// A chave em hexadecimal, para a falha mostrar os dois lados como o teste os escreve.
std::string key(std::string name, std::string arguments) {
  return hex(hz::call_key(hz::ToolCall{"call_1", std::move(name), std::move(arguments)}));
}

// read_file do mesmo arquivo, com o mesmo conteúdo, no passo `step`.
Observation read_a(int step) { return called("read_file", R"({"path":"a.txt"})", "linha 1", step); }

// O teste que falha sempre do mesmo jeito.
Observation test_fails(int step) {
  return called("run_shell", R"({"command":"make test"})",
                "FAIL test_login: esperado 200, veio 500", step, false);
}

}  // namespace

// ---------------------------------------------------------------------------
TEST_SUITE_BEGIN("03-repetition-detector/call-key");

TEST_CASE("call_key: a mesma chamada com outros espaços dá a mesma chave") {
  CHECK(key("read_file", R"({"path":"a.txt"})") == key("read_file", R"( { "path" : "a.txt" } )"));
  CHECK(key("read_file", R"({"path":"a.txt"})") != key("read_file", R"({"path":"b.txt"})"));
}

TEST_CASE("call_key: os mesmos argumentos em outra ordem dão a mesma chave") {
  CHECK(key("edit_file", R"({"path":"a.cpp","old_text":"x","new_text":"y"})") ==
        key("edit_file", R"({"new_text":"y","path":"a.cpp","old_text":"x"})"));
  CHECK(key("search", R"({"q":"x","opts":{"case":true,"max":10,"in":["a","b"]}})") ==
        key("search", R"({"opts":{"in":["a","b"],"max":10,"case":true},"q":"x"})"));
}

TEST_CASE("call_key: um espaço dentro de uma string muda a chave") {
  CHECK(key("run_shell", R"({"command":"make  test"})") !=
        key("run_shell", R"({"command":"make test"})"));
  CHECK(key("run_shell", R"({"command":"make test "})") !=
        key("run_shell", R"({"command":"make test"})"));
}

TEST_CASE("call_key: 1 e 1.0 são a mesma chave; 1 e 1.5, não") {
  CHECK(key("read_file", R"({"path":"a","offset":1})") ==
        key("read_file", R"({"path":"a","offset":1.0})"));
  CHECK(key("read_file", R"({"path":"a","offset":1})") ==
        key("read_file", R"({"path":"a","offset":1e0})"));
  CHECK(key("read_file", R"({"path":"a","offset":1})") !=
        key("read_file", R"({"path":"a","offset":1.5})"));
}

TEST_CASE("call_key: a ordem dos elementos de um array muda a chave") {
  CHECK(key("run", R"({"argv":["a","b"]})") != key("run", R"({"argv":["b","a"]})"));
}

TEST_CASE("call_key: o nome entra na chave, o id da chamada não") {
  CHECK(key("read_file", R"({"path":"a"})") != key("list_dir", R"({"path":"a"})"));
  CHECK(hex(hz::call_key({"call_1", "read_file", R"({"path":"a"})"})) ==
        hex(hz::call_key({"outro_id", "read_file", R"({"path":"a"})"})));
}

TEST_CASE("call_key: argumentos vazios valem {}") {
  CHECK(key("list_dir", "") == key("list_dir", "{}"));
  CHECK(key("list_dir", " \n\t") == key("list_dir", "{}"));
  CHECK(key("list_dir", "") != key("list_dir", "[]"));
}

TEST_CASE("call_key: argumentos que não são JSON entram como texto cru") {
  CHECK(key("run_shell", R"({"command":"make test")") ==
        key("run_shell", R"({"command":"make test")"));
  CHECK(key("run_shell", R"({"command":"make test")") !=
        key("run_shell", R"({"command": "make test")"));
  CHECK(key("run_shell", R"({"command":"make test")") !=
        key("run_shell", R"({"command":"make test"})"));
}

TEST_CASE("call_key: nome e argumentos não se misturam") {
  // Emendados sem nada entre eles, os dois pares seriam o mesmo texto: f{}.
  CHECK(key("f{", "}") != key("f", "{}"));
  CHECK(key("f{}", "") != key("f", "{}{}"));
}

TEST_CASE("limite conhecido: outro nome do mesmo caminho, ou um argumento a mais, muda a chave") {
  // A chave é do texto dos argumentos, não do que eles querem dizer: o
  // detector não sabe que ./a.txt e sub/../a.txt são a.txt, nem que um
  // "nonce" que a ferramenta ignora não muda a chamada. Um modelo que varia
  // assim escapa da contagem; o limite de chamadas (max_turns) ainda o para.
  const std::string plain = key("read_file", R"({"path":"a.txt"})");
  CHECK(key("read_file", R"({"path":"./a.txt"})") != plain);
  CHECK(key("read_file", R"({"path":"sub/../a.txt"})") != plain);
  CHECK(key("read_file", R"({"path":"a.txt","nonce":1})") != plain);
}

TEST_CASE("call_key: argumentos fundos demais entram como texto cru, sem estourar a pilha") {
  const std::string deep_ok = std::string(100, '[') + std::string(100, ']');
  const std::string spaced_ok = std::string(100, '[') + " " + std::string(100, ']');
  CHECK(key("f", deep_ok) == key("f", spaced_ok));  // canônico: o espaço some
  const std::string full = std::string(100, '[') + "1" + std::string(100, ']');
  CHECK(key("f", full) == key("f", std::string(100, '[') + " 1" + std::string(100, ']')));

  // Com um nível a mais, o mesmo texto é cru: o espaço conta.
  const std::string deep = std::string(101, '[') + std::string(101, ']');
  const std::string spaced = std::string(101, '[') + " " + std::string(101, ']');
  CHECK(key("f", deep) == key("f", deep));
  CHECK(key("f", deep) != key("f", spaced));
  const std::string abyss = std::string(200000, '[') + std::string(200000, ']');
  CHECK(key("f", abyss) == key("f", abyss));
  CHECK(key("f", abyss) != key("f", abyss + " "));
}

TEST_SUITE_END();

// ---------------------------------------------------------------------------
TEST_SUITE_BEGIN("03-repetition-detector/slow-or-stuck");

TEST_CASE("compare_with_last: uma chave que não está na janela é nova") {
  CHECK(hz::compare_with_last({}, seen('A')) == Repetition::fresh);
  const std::vector<Observation> earlier = seen_all("BCD");
  INFO("a janela antes: ", shown(earlier));
  CHECK(hz::compare_with_last(earlier, seen('A')) == Repetition::fresh);
}

TEST_CASE("compare_with_last: a mesma chave com o mesmo resultado é repetição") {
  const std::vector<Observation> earlier = {seen('A', 7)};
  INFO("a janela antes: ", shown(earlier));
  CHECK(hz::compare_with_last(earlier, seen('A', 7)) == Repetition::repeat);
}

TEST_CASE("compare_with_last: a mesma chave com outro resultado é progresso") {
  const std::vector<Observation> earlier = {seen('A', 7)};
  INFO("a janela antes: ", shown(earlier));
  CHECK(hz::compare_with_last(earlier, seen('A', 8)) == Repetition::progress);
}

TEST_CASE("compare_with_last compara com a última vez, não com qualquer uma") {
  // A sondagem voltou a uma resposta antiga: mudou desde a última vez, é progresso.
  const std::vector<Observation> back = {seen('A', 1), seen('A', 2)};
  INFO("a janela antes: ", shown(back));
  CHECK(hz::compare_with_last(back, seen('A', 1)) == Repetition::progress);
  // A sondagem mudou e depois parou de mudar: repetição.
  const std::vector<Observation> settled = {seen('A', 1), seen('A', 2)};
  CHECK(hz::compare_with_last(settled, seen('A', 2)) == Repetition::repeat);
}

TEST_CASE("compare_with_last: outras chamadas no meio não mudam a resposta") {
  const std::vector<Observation> earlier = {seen('A', 7), seen('B'), seen('C')};
  INFO("a janela antes: ", shown(earlier));
  CHECK(hz::compare_with_last(earlier, seen('A', 7)) == Repetition::repeat);
  CHECK(hz::compare_with_last(earlier, seen('A', 9)) == Repetition::progress);
}

TEST_SUITE_END();

// ---------------------------------------------------------------------------
TEST_SUITE_BEGIN("03-repetition-detector/cycle");

TEST_CASE("cycle_period acha A-B-A-B (período 2)") {
  CHECK(hz::cycle_period(seen_all("ABAB")) == 2);
  CHECK(hz::cycle_period(seen_all("XYZABAB")) == 2);
}

TEST_CASE("cycle_period acha A-B-C-A-B-C (período 3)") {
  CHECK(hz::cycle_period(seen_all("ABCABC")) == 3);
  CHECK(hz::cycle_period(seen_all("XABCABC")) == 3);
  CHECK(hz::cycle_period(seen_all("AABAAB")) == 3);
}

TEST_CASE("cycle_period: a mesma chamada seguida não é ciclo (é repetição)") {
  CHECK(hz::cycle_period(seen_all("AAAA")) == 0);
  CHECK(hz::cycle_period(seen_all("AAAAAA")) == 0);
}

TEST_CASE("cycle_period precisa do ciclo inteiro duas vezes, terminando na atual") {
  CHECK(hz::cycle_period(seen_all("ABA")) == 0);
  CHECK(hz::cycle_period(seen_all("ABCAB")) == 0);
  CHECK(hz::cycle_period(seen_all("ABABX")) == 0);
  CHECK(hz::cycle_period(seen_all("")) == 0);
}

TEST_CASE("cycle_period: um resultado diferente no período desfaz o ciclo") {
  std::vector<Observation> history = seen_all("ABAB");
  history[3].result_hash = 2;  // o segundo B respondeu outra coisa: progresso
  INFO("o histórico: ", shown(history));
  CHECK(hz::cycle_period(history) == 0);
}

TEST_CASE("cycle_period: uma sondagem que alterna entre duas respostas exatas fecha um ciclo") {
  const std::vector<Observation> history = {seen('P', 1), seen('P', 2), seen('P', 1), seen('P', 2)};
  INFO("o histórico: ", shown(history));
  CHECK(hz::cycle_period(history) == 2);
}

TEST_CASE("cycle_period não procura períodos maiores que 3") {
  CHECK(hz::cycle_period(seen_all("ABCDABCD")) == 0);
}

TEST_SUITE_END();

// ---------------------------------------------------------------------------
TEST_SUITE_BEGIN("03-repetition-detector/window");

TEST_CASE("A cinco vezes: repetição, aviso na terceira, parada na quarta") {
  RepetitionDetector detector;
  CHECK(detector.observe(read_a(1)) ==
        verdict(Repetition::fresh, 1, false, Action::none, "read_file"));
  CHECK(detector.observe(read_a(2)) ==
        verdict(Repetition::repeat, 2, false, Action::none, "read_file"));
  CHECK(detector.observe(read_a(3)) ==
        verdict(Repetition::repeat, 3, true, Action::warn, "read_file"));
  CHECK(detector.strikes() == 1);
  CHECK(detector.observe(read_a(4)) ==
        verdict(Repetition::repeat, 4, true, Action::stop, "read_file"));
  CHECK(detector.observe(read_a(5)) ==
        verdict(Repetition::repeat, 5, true, Action::stop, "read_file"));
  CHECK(detector.strikes() == 2);
}

TEST_CASE("A-B-A-B é um ciclo: aviso na quarta chamada, parada na quinta") {
  RepetitionDetector detector;
  CHECK(detector.observe(read_a(1)) ==
        verdict(Repetition::fresh, 1, false, Action::none, "read_file"));
  CHECK(detector.observe(test_fails(2)) ==
        verdict(Repetition::fresh, 1, false, Action::none, "run_shell", false));
  CHECK(detector.observe(read_a(3)) ==
        verdict(Repetition::repeat, 2, false, Action::none, "read_file"));
  Verdict fourth = cycle_seen_twice(Action::warn, {"read_file", "run_shell"});
  fourth.ok = false;
  CHECK(detector.observe(test_fails(4)) == fourth);
  // Na quinta, read_file já está 3 vezes na janela: a contagem pega antes do ciclo.
  CHECK(detector.observe(read_a(5)) ==
        verdict(Repetition::repeat, 3, true, Action::stop, "read_file"));

  // Com o limiar 5, a contagem não pega a quinta, e ela fecha outro ciclo
  // (run_shell, read_file). O ciclo não muda count: são 3 read_file na janela.
  RepetitionDetector patient(RepetitionConfig{.window = 5, .threshold = 5});
  patient.observe(read_a(1));
  patient.observe(test_fails(2));
  patient.observe(read_a(3));
  CHECK(patient.observe(test_fails(4)).action == Action::warn);
  Verdict fifth = cycle_seen_twice(Action::stop, {"run_shell", "read_file"});
  fifth.count = 3;
  CHECK(patient.observe(read_a(5)) == fifth);
}

TEST_CASE("A-B-C-A-B-C é um ciclo: aviso na sexta chamada, parada na sétima") {
  RepetitionDetector detector;
  const auto a = [](int step) {
    return called("run_shell", R"({"command":"make test"})", "FAIL", step);
  };
  const auto b = [](int step) {
    return called("read_file", R"({"path":"erro.log"})", "linha 3", step);
  };
  const auto c = [](int step) {
    return called("write_file", R"({"path":"login.cpp","content":"x"})", "escrito", step);
  };
  CHECK(detector.observe(a(1)) == verdict(Repetition::fresh, 1, false, Action::none, "run_shell"));
  CHECK(detector.observe(b(2)) == verdict(Repetition::fresh, 1, false, Action::none, "read_file"));
  CHECK(detector.observe(c(3)) == verdict(Repetition::fresh, 1, false, Action::none, "write_file"));
  CHECK(detector.observe(a(4)) == verdict(Repetition::repeat, 2, false, Action::none, "run_shell"));
  CHECK(detector.observe(b(5)) == verdict(Repetition::repeat, 2, false, Action::none, "read_file"));
  CHECK(detector.observe(c(6)) ==
        cycle_seen_twice(Action::warn, {"run_shell", "read_file", "write_file"}));
  CHECK(detector.observe(a(7)) ==
        cycle_seen_twice(Action::stop, {"read_file", "write_file", "run_shell"}));
}

TEST_CASE("a mesma chamada com o resultado mudando é progresso, não travamento") {
  RepetitionDetector detector;
  const auto poll = [](int step) {
    return called("run_shell", R"({"command":"tail -1 build.log"})",
                  "compilando: " + std::to_string(step * 10) + "%", step);
  };
  CHECK(detector.observe(poll(1)) ==
        verdict(Repetition::fresh, 1, false, Action::none, "run_shell"));
  for (int step = 2; step <= 10; ++step) {
    CAPTURE(step);
    CHECK(detector.observe(poll(step)) ==
          verdict(Repetition::progress, 1, false, Action::none, "run_shell"));
  }
  CHECK(detector.strikes() == 0);

  // A sondagem que volta a uma resposta antiga: a terceira "limpo" da janela,
  // mas a última vez foi outra. É progresso, e só repetição trava pela contagem.
  RepetitionDetector back;
  const auto status = [](int step, const std::string& text) {
    return called("run_shell", R"({"command":"git status"})", text, step);
  };
  back.observe(status(1, "limpo"));
  back.observe(status(2, "limpo"));
  back.observe(status(3, "modificado: a.txt"));
  CHECK(back.observe(status(4, "limpo")) ==
        verdict(Repetition::progress, 3, false, Action::none, "run_shell"));
}

TEST_CASE("uma sondagem que parou de mudar trava") {
  RepetitionDetector detector;
  const auto poll = [](int step, const std::string& text) {
    return called("run_shell", R"({"command":"tail -1 build.log"})", text, step);
  };
  CHECK(detector.observe(poll(1, "compilando: 10%")).kind == Repetition::fresh);
  CHECK(detector.observe(poll(2, "compilando: 90%")).kind == Repetition::progress);
  CHECK(detector.observe(poll(3, "erro: disco cheio")).kind == Repetition::progress);
  CHECK(detector.observe(poll(4, "erro: disco cheio")) ==
        verdict(Repetition::repeat, 2, false, Action::none, "run_shell"));
  CHECK(detector.observe(poll(5, "erro: disco cheio")) ==
        verdict(Repetition::repeat, 3, true, Action::warn, "run_shell"));
}

TEST_CASE("leituras paginadas com offsets diferentes não travam") {
  RepetitionDetector detector;
  for (int page = 0; page < 10; ++page) {
    CAPTURE(page);
    const std::string args =
        R"({"path":"big.log","offset":)" + std::to_string(page * 100) + R"(,"limit":100})";
    // Mesmo com a mesma resposta: as chaves são outras.
    CHECK(detector.observe(called("read_file", args, "...", page + 1)) ==
          verdict(Repetition::fresh, 1, false, Action::none, "read_file"));
  }
  CHECK(detector.strikes() == 0);
}

TEST_CASE("editar 20 arquivos diferentes não trava") {
  RepetitionDetector detector;
  for (int file = 1; file <= 20; ++file) {
    CAPTURE(file);
    const std::string args = R"({"path":"src/f)" + std::to_string(file) +
                             R"(.cpp","old_text":"int x","new_text":"long x"})";
    CHECK(detector.observe(called("edit_file", args, "editado", file)) ==
          verdict(Repetition::fresh, 1, false, Action::none, "edit_file"));
  }
  CHECK(detector.strikes() == 0);
}

TEST_CASE(
    "a mesma falha de teste três vezes na janela trava, mesmo com edições diferentes no meio") {
  RepetitionDetector detector;
  const auto edit = [](int step) {
    return called(
        "edit_file",
        R"({"path":"login.cpp","old_text":"a","new_text":")" + std::to_string(step) + R"("})",
        "editado", step);
  };
  CHECK(detector.observe(test_fails(1)).kind == Repetition::fresh);
  CHECK(detector.observe(edit(2)).kind == Repetition::fresh);
  CHECK(detector.observe(test_fails(3)).kind == Repetition::repeat);
  CHECK(detector.observe(edit(4)).kind == Repetition::fresh);
  CHECK(detector.observe(test_fails(5)) ==
        verdict(Repetition::repeat, 3, true, Action::warn, "run_shell", false));
}

TEST_CASE("três erros idênticos seguidos travam") {
  RepetitionDetector detector;
  CHECK(detector.observe(test_fails(1)) ==
        verdict(Repetition::fresh, 1, false, Action::none, "run_shell", false));
  CHECK(detector.observe(test_fails(2)) ==
        verdict(Repetition::repeat, 2, false, Action::none, "run_shell", false));
  CHECK(detector.observe(test_fails(3)) ==
        verdict(Repetition::repeat, 3, true, Action::warn, "run_shell", false));
}

TEST_CASE("argumentos que não são JSON: o mesmo texto errado repetido trava") {
  RepetitionDetector detector;
  const auto broken = [](int step) {
    return called("run_shell", R"({"command": "make test")",
                  "erro: os argumentos de run_shell não são um objeto JSON válido", step, false);
  };
  CHECK(detector.observe(broken(1)).kind == Repetition::fresh);
  CHECK(detector.observe(broken(2)).kind == Repetition::repeat);
  CHECK(detector.observe(broken(3)) ==
        verdict(Repetition::repeat, 3, true, Action::warn, "run_shell", false));
  // Outro texto errado é outra chamada.
  CHECK(
      detector.observe(called("run_shell", R"({"command": "make tests")", "erro", 4, false)).kind ==
      Repetition::fresh);
}

TEST_CASE("depois do aviso, chamadas novas seguem; o aviso não decai e o próximo travamento para") {
  RepetitionDetector detector;
  detector.observe(read_a(1));
  detector.observe(read_a(2));
  CHECK(detector.observe(read_a(3)).action == Action::warn);
  // O modelo mudou de abordagem: quatro chamadas novas tiram read_a da janela.
  const std::vector<std::string> paths = {"b", "c", "d", "e"};
  int step = 4;
  for (const std::string& path : paths) {
    CHECK(detector.observe(called("read_file", R"({"path":")" + path + R"("})", "ok", step++)) ==
          verdict(Repetition::fresh, 1, false, Action::none, "read_file"));
  }
  CHECK(detector.strikes() == 1);
  CHECK(detector.observe(read_a(step++)) ==
        verdict(Repetition::fresh, 1, false, Action::none, "read_file"));
  // Um travamento novo, de outra chamada, no mesmo turno: parada.
  detector.observe(test_fails(step++));
  detector.observe(test_fails(step++));
  CHECK(detector.observe(test_fails(step++)) ==
        verdict(Repetition::repeat, 3, true, Action::stop, "run_shell", false));
  CHECK(detector.strikes() == 2);
}

TEST_CASE("depois do aviso, voltar à chamada repetida ainda na janela para o turno") {
  RepetitionDetector detector;
  detector.observe(read_a(1));
  detector.observe(read_a(2));
  CHECK(detector.observe(read_a(3)).action == Action::warn);
  CHECK(detector.observe(called("list_dir", "{}", "a.txt", 4)).action == Action::none);
  CHECK(detector.observe(read_a(5)) ==
        verdict(Repetition::repeat, 4, true, Action::stop, "read_file"));
}

TEST_CASE("chamadas paralelas no passo do aviso não param o turno: o aviso ainda não chegou") {
  RepetitionDetector detector;
  CHECK(detector.observe(read_a(1)).action == Action::none);
  CHECK(detector.observe(read_a(1)).action == Action::none);
  CHECK(detector.observe(read_a(1)) ==
        verdict(Repetition::repeat, 3, true, Action::warn, "read_file"));
  CHECK(detector.observe(read_a(1)) ==
        verdict(Repetition::repeat, 4, true, Action::none, "read_file"));
  CHECK(detector.strikes() == 1);
  CHECK(detector.observe(read_a(2)) ==
        verdict(Repetition::repeat, 5, true, Action::stop, "read_file"));
}

TEST_CASE("reset (mensagem nova do usuário) esquece a janela e o aviso") {
  RepetitionDetector detector;
  detector.observe(read_a(1));
  detector.observe(read_a(2));
  CHECK(detector.observe(read_a(3)).action == Action::warn);
  detector.reset();
  CHECK(detector.strikes() == 0);
  CHECK(detector.history().empty());
  CHECK(detector.observe(read_a(1)) ==
        verdict(Repetition::fresh, 1, false, Action::none, "read_file"));
  CHECK(detector.observe(read_a(2)) ==
        verdict(Repetition::repeat, 2, false, Action::none, "read_file"));
  CHECK(detector.observe(read_a(3)) ==
        verdict(Repetition::repeat, 3, true, Action::warn, "read_file"));
}

TEST_CASE("ferramentas isentas não contam nem entram na janela") {
  RepetitionDetector detector(RepetitionConfig{.exempt = {"wait"}});
  const auto wait = [](int step) { return called("wait", R"({"seconds":30})", "ok", step); };
  CHECK(detector.observe(read_a(1)).kind == Repetition::fresh);
  for (int step = 2; step <= 11; ++step) {
    CAPTURE(step);
    CHECK(detector.observe(wait(step)) ==
          verdict(Repetition::exempt, 0, false, Action::none, "wait"));
  }
  // Dez waits depois, a primeira leitura ainda está na janela de 5.
  CHECK(detector.observe(read_a(12)) ==
        verdict(Repetition::repeat, 2, false, Action::none, "read_file"));
  CHECK(detector.observe(read_a(13)) ==
        verdict(Repetition::repeat, 3, true, Action::warn, "read_file"));
  CHECK(detector.history().size() == 3);
}

TEST_CASE("uma ferramenta isenta no meio não forma ciclo") {
  const auto wait = [](int step) { return called("wait", R"({"seconds":30})", "ok", step); };
  RepetitionDetector counted;
  counted.observe(read_a(1));
  counted.observe(wait(2));
  counted.observe(read_a(3));
  CHECK(counted.observe(wait(4)).kind == Repetition::cycle);

  RepetitionDetector exempted(RepetitionConfig{.exempt = {"wait"}});
  exempted.observe(read_a(1));
  exempted.observe(wait(2));
  CHECK(exempted.observe(read_a(3)) ==
        verdict(Repetition::repeat, 2, false, Action::none, "read_file"));
  CHECK(exempted.observe(wait(4)).kind == Repetition::exempt);
}

TEST_CASE("janela e limiar mínimos (2 e 2): a segunda chamada igual já trava") {
  RepetitionDetector detector(RepetitionConfig{.window = 2, .threshold = 2});
  CHECK(detector.observe(read_a(1)).kind == Repetition::fresh);
  CHECK(detector.observe(read_a(2)) ==
        verdict(Repetition::repeat, 2, true, Action::warn, "read_file"));
}

TEST_CASE("janela de 2: a chamada de duas atrás já saiu da janela") {
  RepetitionDetector detector(RepetitionConfig{.window = 2, .threshold = 2});
  detector.observe(read_a(1));
  detector.observe(called("list_dir", "{}", "a.txt", 2));
  CHECK(detector.observe(read_a(3)) ==
        verdict(Repetition::fresh, 1, false, Action::none, "read_file"));
}

TEST_CASE("limiar igual à janela (5 e 5): trava só na quinta") {
  RepetitionDetector detector(RepetitionConfig{.window = 5, .threshold = 5});
  for (int step = 1; step <= 4; ++step) {
    CAPTURE(step);
    CHECK_FALSE(detector.observe(read_a(step)).stuck);
  }
  CHECK(detector.observe(read_a(5)) ==
        verdict(Repetition::repeat, 5, true, Action::warn, "read_file"));
  // Com outra chamada no meio, a primeira das cinco já saiu da janela (W conta a atual).
  RepetitionDetector spaced(RepetitionConfig{.window = 5, .threshold = 5});
  for (int step = 1; step <= 4; ++step) spaced.observe(read_a(step));
  spaced.observe(called("list_dir", "{}", "a.txt", 5));
  CHECK(spaced.observe(read_a(6)) ==
        verdict(Repetition::repeat, 4, false, Action::none, "read_file"));
}

TEST_CASE("janela e limiar máximos (100 e 100): trava na centésima") {
  RepetitionDetector detector(RepetitionConfig{.window = 100, .threshold = 100});
  for (int step = 1; step <= 99; ++step) {
    REQUIRE_FALSE(detector.observe(read_a(step)).stuck);
  }
  CHECK(detector.observe(read_a(100)) ==
        verdict(Repetition::repeat, 100, true, Action::warn, "read_file"));
  CHECK(detector.history().size() == 100);
}

TEST_CASE("o detector guarda max(janela, 6) observações") {
  RepetitionDetector small(RepetitionConfig{.window = 2, .threshold = 2});
  for (int step = 1; step <= 10; ++step) {
    small.observe(called("read_file", R"({"path":"f)" + std::to_string(step) + R"("})", "", step));
  }
  CHECK(small.history().size() == 6);
  CHECK(small.history().back().step == 10);
}

TEST_SUITE_END();

// ---------------------------------------------------------------------------
TEST_SUITE_BEGIN("03-repetition-detector/nudge");

namespace {

// O que falta a um aviso (as palavras são do aluno): começar por kNudgeMark e
// citar cada fato (reason_gaps; o começo e o fim fixos não têm nomes nem
// algarismos), terminar com kNudgeAdvice e caber numa linha. Vazio se nada
// falta; senão, o que falta e o aviso inteiro.
std::string nudge_gaps(const std::string& text, std::initializer_list<std::string_view> facts) {
  std::string gaps = hz::testing::reason_gaps(text, hz::kNudgeMark, facts);
  const auto add = [&gaps](const std::string& gap) { gaps += (gaps.empty() ? "" : "; ") + gap; };
  if (!text.ends_with(hz::kNudgeAdvice)) add("não termina com kNudgeAdvice");
  if (text.find('\n') != std::string::npos) add("tem mais de uma linha");
  return gaps.empty() ? "" : gaps + " — o aviso: " + hz::testing::quoted(text);
}

}  // namespace

TEST_CASE("nudge_text de uma repetição diz a ferramenta, quantas vezes e o que fazer") {
  const std::string text =
      hz::nudge_text(verdict(Repetition::repeat, 3, true, Action::warn, "read_file"));
  CHECK(nudge_gaps(text, {"read_file", "3"}) == "");
}

TEST_CASE("nudge_text conta as vezes do veredito, e não sempre o limiar padrão") {
  const std::string text =
      hz::nudge_text(verdict(Repetition::repeat, 4, true, Action::warn, "run_shell"));
  CHECK(nudge_gaps(text, {"run_shell", "4"}) == "");
}

TEST_CASE("nudge_text de uma repetição que falha não diz o mesmo que a que deu certo") {
  const std::string failed =
      hz::nudge_text(verdict(Repetition::repeat, 4, true, Action::warn, "run_shell", false));
  const std::string succeeded =
      hz::nudge_text(verdict(Repetition::repeat, 4, true, Action::warn, "run_shell", true));
  CHECK(nudge_gaps(failed, {"run_shell", "4"}) == "");
  CHECK(failed != succeeded);
}

TEST_CASE("nudge_text de um ciclo diz quantas chamadas e a sequência, na ordem") {
  for (const std::vector<std::string>& names :
       {std::vector<std::string>{"run_shell", "read_file", "edit_file"},
        std::vector<std::string>{"run_tests", "wait"}}) {
    CAPTURE(names);
    const std::string text = hz::nudge_text(cycle_seen_twice(Action::warn, names));
    // Duas voltas da sequência: 6 chamadas no período 3, 4 no período 2.
    CHECK(nudge_gaps(text, {std::to_string(2 * names.size())}) == "");
    INFO("o aviso: ", hz::testing::quoted(text));
    CHECK(hz::testing::order_gaps(text, names) == "");
  }
}

TEST_CASE("nudge_text de um veredito que não travou é vazio") {
  CHECK(hz::nudge_text(verdict(Repetition::fresh, 1, false, Action::none, "a")) == "");
  CHECK(hz::nudge_text(verdict(Repetition::progress, 1, false, Action::none, "a")) == "");
  CHECK(hz::nudge_text(verdict(Repetition::repeat, 2, false, Action::none, "a")) == "");
  CHECK(hz::nudge_text(verdict(Repetition::exempt, 0, false, Action::none, "wait")) == "");
}

TEST_CASE("append_nudge anexa o aviso ao resultado, depois de uma linha em branco") {
  hz::Message message = hz::Message::tool("call_3", "linha 1");
  const Verdict repeated = verdict(Repetition::repeat, 3, true, Action::warn, "read_file");
  hz::append_nudge(message, repeated);
  CHECK(message == hz::Message::tool("call_3", "linha 1\n\n" + hz::nudge_text(repeated)));
}

TEST_CASE("append_nudge num resultado vazio deixa só o aviso") {
  hz::Message message = hz::Message::tool("call_3", "");
  const Verdict repeated = verdict(Repetition::repeat, 3, true, Action::warn, "read_file");
  hz::append_nudge(message, repeated);
  CHECK(message == hz::Message::tool("call_3", hz::nudge_text(repeated)));
}

TEST_CASE("append_nudge com um veredito que não travou não muda a mensagem") {
  hz::Message message = hz::Message::tool("call_3", "linha 1");
  hz::append_nudge(message, verdict(Repetition::repeat, 2, false, Action::none, "read_file"));
  CHECK(message == hz::Message::tool("call_3", "linha 1"));
  // O nudge_text de verdade precisa existir para a comparação acima valer alguma coisa.
  CHECK_FALSE(hz::nudge_text(verdict(Repetition::repeat, 3, true, Action::warn, "a")).empty());
}

TEST_SUITE_END();

// ---------------------------------------------------------------------------
// Sem exercício: o hash, os rótulos e a configuração.

TEST_CASE("fnv1a_64 bate com os valores de referência do FNV-1a") {
  CHECK(hex(hz::fnv1a_64("")) == "0xcbf29ce484222325");
  CHECK(hex(hz::fnv1a_64("a")) == "0xaf63dc4c8601ec8c");
  CHECK(hex(hz::fnv1a_64("foobar")) == "0x85944171f73967e8");
  CHECK(hex(hz::fnv1a_64("bar", hz::fnv1a_64("foo"))) == hex(hz::fnv1a_64("foobar")));
}

TEST_CASE("os rótulos do detector para o trace") {
  CHECK(hz::to_string(Repetition::fresh) == "new");
  CHECK(hz::to_string(Repetition::progress) == "progress");
  CHECK(hz::to_string(Repetition::repeat) == "repeat");
  CHECK(hz::to_string(Repetition::cycle) == "cycle");
  CHECK(hz::to_string(Repetition::exempt) == "exempt");
  CHECK(hz::to_string(Action::none) == "none");
  CHECK(hz::to_string(Action::warn) == "warn");
  CHECK(hz::to_string(Action::stop) == "stop");
}

TEST_CASE("o detector começa com janela 5, limiar 3 e nenhuma isenção") {
  const RepetitionConfig config;
  CHECK(config.window == 5);
  CHECK(config.threshold == 3);
  CHECK(config.exempt.empty());
}

TEST_CASE("check_repetition_config aceita janela de 2 a 100 e limiar de 2 até a janela") {
  CHECK(hz::check_repetition_config({.window = 2, .threshold = 2}).ok());
  CHECK(hz::check_repetition_config({.window = 100, .threshold = 100}).ok());
  CHECK(hz::check_repetition_config({.window = 5, .threshold = 3}).ok());
}

TEST_CASE("check_repetition_config recusa valores fora dos limites citando a flag") {
  const auto error = [](RepetitionConfig config) {
    const hz::Result<RepetitionConfig> checked = hz::check_repetition_config(std::move(config));
    return checked.ok() ? std::string("(aceito)") : checked.error().message;
  };
  CHECK(error({.window = 1, .threshold = 2}) ==
        "a janela do detector de repetição (--repetition-window) precisa ficar entre 2 e 100; veio "
        "1");
  CHECK(error({.window = 101, .threshold = 3}) ==
        "a janela do detector de repetição (--repetition-window) precisa ficar entre 2 e 100; veio "
        "101");
  CHECK(error({.window = 5, .threshold = 1}) ==
        "o limiar do detector de repetição (--repetition-threshold) precisa ficar entre 2 e a "
        "janela (5); veio 1");
  CHECK(error({.window = 5, .threshold = 6}) ==
        "o limiar do detector de repetição (--repetition-threshold) precisa ficar entre 2 e a "
        "janela (5); veio 6");
}

TEST_CASE("o detector com config inválido lança na construção") {
  CHECK_THROWS_WITH_AS(RepetitionDetector(RepetitionConfig{.window = 5, .threshold = 6}),
                       "o limiar do detector de repetição (--repetition-threshold) precisa ficar "
                       "entre 2 e a janela (5); veio 6",
                       std::invalid_argument);
}
