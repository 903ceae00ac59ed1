// O encanamento dos freios em etapas/support (etapa 02 em diante): os tempos
// das flags, a tabela de preços embutida, o chat que continua depois de um
// Ctrl-C e a resposta ao vivo sem <think>.
#include <doctest/doctest.h>

#include <atomic>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hz/stage/interrupt.hpp"
#include "hz/stage/limits.hpp"
#include "hz/stage/live.hpp"

namespace {

std::string seconds(const char* text) {
  auto value = hz::stage::parse_seconds(text, "timeout");
  return value ? std::to_string(value->count()) + " ms" : "Error: " + value.error().message;
}

// Um stdin que, quando chega ao fim, "recebe um Ctrl-C": marca a flag e
// falha a leitura, como o read() interrompido sem SA_RESTART.
class InterruptedInput : public std::streambuf {
 public:
  InterruptedInput(std::string text, std::atomic<bool>& flag)
      : text_(std::move(text)), flag_(flag) {
    setg(text_.data(), text_.data(), text_.data() + text_.size());
  }

 protected:
  int_type underflow() override {
    flag_ = true;
    return traits_type::eof();
  }

 private:
  std::string text_;
  std::atomic<bool>& flag_;
};

}  // namespace

TEST_CASE("parse_seconds lê segundos exatos, até o milissegundo") {
  CHECK(seconds("30") == "30000 ms");
  CHECK(seconds("1.5") == "1500 ms");
  CHECK(seconds("0.25") == "250 ms");
  CHECK(seconds(".3") == "300 ms");
  CHECK(seconds("0") == "0 ms");
  CHECK(seconds("86400") == "86400000 ms");
}

TEST_CASE("parse_seconds recusa o que não é um número de segundos razoável") {
  CHECK(seconds("abc") == "Error: --timeout: \"abc\" não é um número de segundos (ex.: 30 ou 1.5)");
  CHECK(seconds("") == "Error: --timeout: \"\" não é um número de segundos (ex.: 30 ou 1.5)");
  CHECK(seconds("-1") == "Error: --timeout: \"-1\" não é um número de segundos (ex.: 30 ou 1.5)");
  CHECK(seconds("1.2345") ==
        "Error: --timeout: \"1.2345\" tem mais de 3 casas decimais (milissegundos)");
  CHECK(seconds("86401") == "Error: --timeout: \"86401\" passa de um dia");
  CHECK(seconds("99999999999999999999") ==
        "Error: --timeout: \"99999999999999999999\" passa de um dia");
}

TEST_CASE("seconds_text mostra milissegundos como segundos, sem zeros inúteis") {
  using std::chrono::milliseconds;
  CHECK(hz::stage::seconds_text(milliseconds(2000)) == "2 s");
  CHECK(hz::stage::seconds_text(milliseconds(1500)) == "1.5 s");
  CHECK(hz::stage::seconds_text(milliseconds(250)) == "0.25 s");
  CHECK(hz::stage::seconds_text(milliseconds(86400001)) == "86400.001 s");
  CHECK(hz::stage::seconds_text(milliseconds(0)) == "0 s");
}

TEST_CASE("http_options leva as flags de tempo ao transporte") {
  hz::stage::LimitFlags flags;
  flags.timeout = "30";
  flags.connect_timeout = "2.5";
  flags.idle_timeout = "0";
  auto http = hz::stage::http_options(flags);
  REQUIRE(http.ok());
  CHECK(http->timeout.count() == 30000);
  CHECK(http->connect_timeout.count() == 2500);
  CHECK(http->idle_timeout.count() == 0);
  flags.timeout = "0";
  auto zero = hz::stage::http_options(flags);
  REQUIRE_FALSE(zero.ok());
  CHECK(zero.error().message == "--timeout precisa ser maior que zero");
}

TEST_CASE("a tabela de preços embutida é a de etapas/support/prices.json, lida como JSON") {
  const std::string_view table = hz::stage::embedded_price_table();
  const auto prices = nlohmann::json::parse(table, nullptr, false);
  REQUIRE(prices.is_object());
  CHECK(prices.contains("comment"));
  CHECK(prices["models"]["gpt-4.1"]["input"] == "2.00");
  CHECK(prices["models"]["qwen3"]["output"] == "0");
}

TEST_CASE("o chat continua depois de um turno interrompido e desmarca a flag") {
  std::atomic<bool> interrupted{false};
  std::istringstream in("primeira\nsegunda\n");
  std::ostringstream out;
  std::vector<std::string> turns;
  const int code =
      hz::stage::run_interruptible_chat(in, out, interrupted, [&](const std::string& line) {
        turns.push_back(line);
        if (line == "primeira") {
          interrupted = true;              // o Ctrl-C chegou durante o turno
          in.setstate(std::ios::failbit);  // e derrubou uma leitura no meio dele
          return 130;
        }
        CHECK_FALSE(interrupted.load());
        return 0;
      });
  CHECK(turns == std::vector<std::string>{"primeira", "segunda"});
  CHECK(code == 0);
  CHECK_FALSE(interrupted.load());
}

TEST_CASE("no chat, Ctrl-C no prompt sai com 130 e o fim da entrada com o último código") {
  std::atomic<bool> interrupted{false};
  InterruptedInput buffer("oi\n", interrupted);
  std::istream in(&buffer);
  std::ostringstream out;
  const int code =
      hz::stage::run_interruptible_chat(in, out, interrupted, [](const std::string&) { return 3; });
  CHECK(code == 130);

  std::atomic<bool> quiet{false};
  std::istringstream eof("oi\n");
  CHECK(hz::stage::run_interruptible_chat(eof, out, quiet, [](const std::string&) { return 3; }) ==
        3);
}

TEST_CASE("LiveText mostra o texto na hora, sem os blocos think, mesmo com a marca partida") {
  std::ostringstream out;
  hz::stage::LiveText live(out);
  for (const char* chunk :
       {"<thi", "nk>pensando", " muito</th", "ink>\n\nA resp", "osta", " <", "b>"}) {
    live.write(chunk);
  }
  CHECK(live.wrote());
  live.finish();
  CHECK(out.str() == "A resposta <b>\n");
  CHECK_FALSE(live.wrote());
}

TEST_CASE("LiveText escapa controles do terminal e não fecha linha já fechada") {
  std::ostringstream out;
  hz::stage::LiveText live(out);
  live.write("oi\x1b[2J\n");
  live.finish();
  CHECK(out.str() == "oi\\x1b[2J\n");
}
