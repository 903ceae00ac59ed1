// Retomar com configurações que contradizem o journal é recusado: a lista
// das diferenças é o que a pessoa lê para decidir.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "helpers.hpp"
#include "resume.hpp"

using journal_test::json;

TEST_CASE("configurações iguais não têm diferenças, em qualquer ordem de chaves") {
  CHECK(hz::settings_differences(journal_test::settings(), journal_test::settings()).empty());
  CHECK(hz::settings_differences(json::parse(R"({"a":1,"b":[1,2]})"),
                                 json::parse(R"({"b":[1,2],"a":1})"))
            .empty());
}

TEST_CASE("cada diferença é uma frase com o valor do journal e o de agora, em ordem alfabética") {
  json now = journal_test::settings();
  now["model"] = "gpt-4.1";
  now["budget_micros"] = 1000000;
  now["detector_exempt"] = json::array({"wait"});
  now.erase("system_prompt");
  CHECK(hz::settings_differences(journal_test::settings(), now) ==
        std::vector<std::string>{
            "budget_micros: no journal 500000, agora 1000000",
            "detector_exempt: no journal (ausente), agora [\"wait\"]",
            "model: no journal \"gpt-4.1-mini\", agora \"gpt-4.1\"",
            "system_prompt: no journal \"Você é um agente.\", agora (ausente)",
        });
}

TEST_CASE("um orçamento sem teto é diferente de um teto") {
  json before = {{"budget_micros", nullptr}};
  json now = {{"budget_micros", 0}};
  CHECK(hz::settings_differences(before, now) ==
        std::vector<std::string>{"budget_micros: no journal null, agora 0"});
}
