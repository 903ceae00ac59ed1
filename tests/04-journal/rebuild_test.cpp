// Exercício rebuild: dos registros de volta ao estado da conversa, em cada
// fronteira onde um processo pode morrer: o histórico, as chamadas do turno,
// o dinheiro gasto, os resultados do turno, o que ficou sem resultado e o
// que a retomada faz primeiro.
#include <doctest/doctest.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "crc32c.hpp"
#include "helpers.hpp"
#include "hz/testing/printing.hpp"
#include "records.hpp"
#include "resume.hpp"

using hz::Idempotency;
using hz::Message;
using hz::NextStep;
using hz::ToolOutput;
using hz::testing::refusal;
using journal_test::call;
using journal_test::json;

namespace {

const hz::ToolCall kAppend =
    call("c1", "append_file", {{"path", "notas.txt"}, {"content", "linha\n"}});
const hz::ToolCall kRead = call("c2", "read_file", {{"path", "notas.txt"}});
const Message kAsk = Message::assistant("", {kAppend, kRead});
const Message kDone = Message::assistant("pronto");
const hz::Intent kAppendIntent{
    kAppend, Idempotency::check, hz::AppendKey{0, 6, hz::crc32c("linha\n")}, {}};
const hz::Intent kReadIntent{kRead, Idempotency::yes, {}, {}};
const std::string kAppended = hz::appended_text("notas.txt", 6, 6);  // o que a ferramenta devolve

// Um turno inteiro, na ordem em que o loop grava. O turn_end custa 20 a mais
// que os dois reply: uma tentativa que falhou e foi cobrada.
std::vector<json> one_turn() {
  return {hz::start_record(journal_test::settings()),                 // 1
          hz::user_record("anote e leia"),                            // 2
          hz::reply_record(kAsk, journal_test::usage(100, 10), 300),  // 3 after_reply
          hz::intent_record(kAppendIntent),                           // 4 after_intent
          hz::result_record("c1", ToolOutput::success(kAppended)),    // 5 after_result
          hz::intent_record(kReadIntent),                             // 6
          hz::result_record("c2", ToolOutput::success("linha\n")),    // 7
          hz::reply_record(kDone, journal_test::usage(120, 5), 200),  // 8
          hz::turn_end_record("success", 2, 520)};                    // 9
}

// O estado dos primeiros count registros de one_turn(). Quem chama confere
// com REQUIRE_MESSAGE(state.ok(), refusal(state)), para a falha apontar a
// linha do caso e mostrar por que a reconstrução recusou.
hz::Result<hz::ResumeState> rebuild(std::size_t count) {
  std::vector<json> recs = one_turn();
  recs.resize(count);
  return hz::rebuild_state(journal_test::records(recs));
}

std::vector<Message> start() {
  return {Message::system("Você é um agente."), Message::user("anote e leia")};
}

// Os pares de recusas que, sem o registro citado ("seq 3 (user)"), dizem a
// mesma coisa: "seq 2 (reply): fora de turno / seq 4 (reply): fora de turno".
std::vector<std::string> repeated_refusals(const std::vector<std::string>& messages) {
  const auto said = [](const std::string& message) {
    const std::size_t open = message.find("seq ");
    const std::size_t close = message.find(')', open);
    if (open == std::string::npos || close == std::string::npos) return message;
    return message.substr(0, open) + message.substr(close + 1);
  };
  std::vector<std::string> repeated;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    for (std::size_t j = i + 1; j < messages.size(); ++j) {
      if (said(messages[i]) == said(messages[j])) {
        repeated.push_back(messages[i] + " / " + messages[j]);
      }
    }
  }
  return repeated;
}

}  // namespace

TEST_SUITE_BEGIN("04-journal/rebuild");

TEST_CASE("morto logo depois da resposta: as duas chamadas nem começaram") {
  const auto state = rebuild(3);
  REQUIRE_MESSAGE(state.ok(), refusal(state));
  std::vector<Message> expected = start();
  expected.push_back(kAsk);
  CHECK(state->history == expected);
  CHECK(state->next == NextStep::run_tools);
  CHECK(state->unfinished == std::vector<hz::UnfinishedCall>{{kAppend, {}}, {kRead, {}}});
  CHECK(state->model_calls == 1);
  CHECK(state->turn_cost == 300);
  CHECK(state->spent == 300);
  CHECK(state->turn_open);
  CHECK(state->last_seq == 3);
  CHECK(state->settings == journal_test::settings());
}

TEST_CASE("morto depois da intenção (antes ou depois do efeito): a chamada fica com a intenção") {
  const auto state = rebuild(4);
  REQUIRE_MESSAGE(state.ok(), refusal(state));
  CHECK(state->next == NextStep::run_tools);
  CHECK(state->unfinished ==
        std::vector<hz::UnfinishedCall>{{kAppend, kAppendIntent}, {kRead, {}}});
  CHECK(state->turn_results.empty());
}

TEST_CASE("morto depois do resultado: ele está no histórico e na janela do turno") {
  const auto state = rebuild(5);
  REQUIRE_MESSAGE(state.ok(), refusal(state));
  std::vector<Message> expected = start();
  expected.push_back(kAsk);
  expected.push_back(Message::tool("c1", kAppended));
  CHECK(state->history == expected);
  CHECK(state->unfinished == std::vector<hz::UnfinishedCall>{{kRead, {}}});
  CHECK(state->turn_results == std::vector<hz::TurnToolResult>{{kAppend, true, kAppended}});
  CHECK(state->next == NextStep::run_tools);
}

TEST_CASE("morto com todas as chamadas respondidas: a retomada chama o modelo") {
  const auto state = rebuild(7);
  REQUIRE_MESSAGE(state.ok(), refusal(state));
  CHECK(state->next == NextStep::call_model);
  CHECK(state->unfinished.empty());
  CHECK(state->turn_results ==
        std::vector<hz::TurnToolResult>{{kAppend, true, kAppended}, {kRead, true, "linha\n"}});
  CHECK(state->model_calls == 1);
}

TEST_CASE("morto depois da resposta final: o turno acabou, só falta o turn_end") {
  const auto state = rebuild(8);
  REQUIRE_MESSAGE(state.ok(), refusal(state));
  CHECK(state->next == NextStep::finish_turn);
  CHECK(state->model_calls == 2);
  CHECK(state->spent == 500);
  CHECK(state->history.back() == kDone);
}

TEST_CASE("turno terminado: espera o usuário, e o gasto é o do turn_end") {
  const auto state = rebuild(9);
  REQUIRE_MESSAGE(state.ok(), refusal(state));
  CHECK(state->next == NextStep::wait_user);
  CHECK_FALSE(state->turn_open);
  CHECK(state->turns_ended == 1);
  CHECK(state->spent == 520);
  CHECK(state->history.size() == 6);
  CHECK(state->turn_results.empty());

  // Uma nota entre dois turnos só entra no histórico: turn_notes e
  // budget_noted são do turno aberto, e não há um.
  std::vector<json> recs = one_turn();
  recs.push_back(hz::note_record("[nota do harness] restam US$ 0.01", "", /*budget=*/true));
  const auto noted = hz::rebuild_state(journal_test::records(recs));
  REQUIRE_MESSAGE(noted.ok(), refusal(noted));
  CHECK(noted->next == NextStep::wait_user);
  CHECK(noted->history.size() == 6);
  CHECK(noted->history.back().content == "pronto\n\n[nota do harness] restam US$ 0.01");
  CHECK(noted->turn_notes == std::vector<std::string>{});
  CHECK_FALSE(noted->budget_noted);

  // Um user depois do turno fechado abre outro, ainda sem resposta: a
  // resposta final que havia era do turno anterior, e a retomada chama o modelo.
  std::vector<json> reopened = one_turn();
  reopened.push_back(hz::user_record("de novo"));
  const auto asked = hz::rebuild_state(journal_test::records(reopened));
  REQUIRE_MESSAGE(asked.ok(), refusal(asked));
  CHECK(asked->next == NextStep::call_model);
  CHECK(asked->turn_open);
  CHECK(asked->model_calls == 0);
}

TEST_CASE("o dinheiro dos turnos fechados soma com o dos reply do turno aberto") {
  std::vector<json> recs = one_turn();
  recs.push_back(hz::user_record("de novo"));
  recs.push_back(hz::reply_record(kDone, journal_test::usage(1, 1), 70));
  recs.push_back(hz::note_record("Atenção: restam US$ 0,01.", "", /*budget=*/true));
  auto state = hz::rebuild_state(journal_test::records(recs));
  REQUIRE_MESSAGE(state.ok(), refusal(state));
  CHECK(state->spent == 590);
  CHECK(state->turn_cost == 70);
  CHECK(state->model_calls == 1);
  CHECK(state->turns_ended == 1);
  CHECK(state->next == NextStep::finish_turn);
  CHECK(state->turn_notes == std::vector<std::string>{"Atenção: restam US$ 0,01."});
  CHECK_MESSAGE(state->budget_noted,
                "a nota do turno aberto foi gravada com budget true, e budget_noted ficou false");
  CHECK(state->history.back().content == "pronto\n\nAtenção: restam US$ 0,01.");
}

TEST_CASE("uma nota com call_id vai no resultado daquela chamada, não no último") {
  std::vector<json> recs = one_turn();
  recs.resize(7);  // até o resultado de c2, o último do passo
  recs.push_back(hz::note_record("[aviso do harness] pare.", "c1"));
  auto state = hz::rebuild_state(journal_test::records(recs));
  REQUIRE_MESSAGE(state.ok(), refusal(state));
  REQUIRE(state->history.size() == 5);
  CHECK(state->history[3] == Message::tool("c1", kAppended + "\n\n[aviso do harness] pare."));
  CHECK(state->history[4] == Message::tool("c2", "linha\n"));
  CHECK(state->turn_notes == std::vector<std::string>{"[aviso do harness] pare."});
}

TEST_CASE("um journal só com o start espera o primeiro usuário") {
  auto state = hz::rebuild_state(journal_test::records({hz::start_record({{"model", "m"}})}));
  REQUIRE_MESSAGE(state.ok(), refusal(state));
  CHECK(state->next == NextStep::wait_user);
  CHECK(state->history.empty());  // sem system_prompt nas configurações
  CHECK(state->last_seq == 1);
}

TEST_CASE("sequências sem sentido são recusadas citando o seq") {
  // A frase da recusa é sua: ela cita o registro como at_seq o escreve ("seq 3
  // (user)") e, quando há, o call_id. Aceitar mostra o que foi montado; uma
  // recusa que não cita o que devia mostra a frase.
  std::vector<std::string> messages;
  const auto refused = [&messages](const std::vector<json>& recs,
                                   std::initializer_list<std::string_view> facts) {
    const auto state = hz::rebuild_state(journal_test::records(recs));
    if (state.ok()) {
      const std::size_t count = state->history.size();
      return "aceitou: " + std::to_string(count) + (count == 1 ? " mensagem" : " mensagens") +
             " no histórico, próximo passo " + std::string(hz::to_string(state->next));
    }
    messages.push_back(state.error().message);
    const std::string gaps = hz::reason_gaps(state.error().message, "", facts);
    return gaps.empty() ? std::string("recusou")
                        : gaps + " em " + hz::testing::quoted(state.error().message);
  };
  const json start = hz::start_record(journal_test::settings());
  CHECK(refused({hz::user_record("oi")}, {"seq 1 (user)"}) == "recusou");
  CHECK(refused({start, start}, {"seq 2 (start)"}) == "recusou");
  CHECK(refused({start, hz::user_record("a"), hz::user_record("b")}, {"seq 3 (user)"}) ==
        "recusou");
  CHECK(refused({start, hz::reply_record(kDone, {}, 0)}, {"seq 2 (reply)"}) == "recusou");
  CHECK(refused({start, hz::user_record("a"), hz::reply_record(kAsk, {}, 0),
                 hz::reply_record(kDone, {}, 0)},
                {"seq 4 (reply)"}) == "recusou");
  // Uma nota precisa de uma mensagem onde ficar: sem system_prompt, antes do
  // primeiro user não há nenhuma; com ele, a nota vai no prompt de sistema.
  CHECK(refused({hz::start_record({{"model", "m"}}), hz::note_record("cedo")}, {"seq 2 (note)"}) ==
        "recusou");
  CHECK(refused({start, hz::note_record("cedo")}, {}) ==
        "aceitou: 1 mensagem no histórico, próximo passo wait_user");
  CHECK(refused({start, hz::user_record("a"), hz::reply_record(kAsk, {}, 0),
                 hz::result_record("c9", ToolOutput::success("x"))},
                {"seq 4 (result)", "c9"}) == "recusou");
  CHECK(refused({start, hz::user_record("a"), hz::reply_record(kAsk, {}, 0),
                 hz::intent_record(kAppendIntent), hz::intent_record(kAppendIntent)},
                {"seq 5 (intent)", "c1"}) == "recusou");
  CHECK(refused({start, hz::user_record("a"), hz::reply_record(kAsk, {}, 0),
                 hz::turn_end_record("cancelled", 1, 0)},
                {"seq 4 (turn_end)"}) == "recusou");
  CHECK(refused({start, hz::turn_end_record("success", 0, 0)}, {"seq 2 (turn_end)"}) == "recusou");
  CHECK(refused({}, {}) == "recusou");
  // Cada recusa diz o que houve: sem o registro citado, as frases são todas diferentes.
  CHECK(repeated_refusals(messages) == std::vector<std::string>{});
}

TEST_SUITE_END();
