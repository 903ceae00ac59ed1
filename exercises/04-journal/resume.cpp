#include "resume.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <utility>

#include "hz/not_implemented.hpp"

// SEU-CODIGO: includes, constantes e funções suas (./hz carry e ./hz update os levam)
// FIM-SEU-CODIGO

namespace hz {

using nlohmann::json;

namespace {

Micros add_saturating(Micros a, Micros b) {
  constexpr Micros kMax = std::numeric_limits<Micros>::max();
  if (b <= 0) return a;
  return a > kMax - b ? kMax : a + b;
}

std::string at_seq(const Record& record) {
  return "seq " + std::to_string(record.seq) + " (" + std::string(to_string(record.type)) + ")";
}

std::string json_quoted(std::string_view text) {
  return json(std::string(text)).dump(-1, ' ', false, json::error_handler_t::replace);
}

// A chamada sem resultado com este call_id, se houver.
UnfinishedCall* find_unfinished(std::vector<UnfinishedCall>& calls, const std::string& id) {
  const auto it = std::find_if(calls.begin(), calls.end(),
                               [&](const UnfinishedCall& c) { return c.call.id == id; });
  return it == calls.end() ? nullptr : &*it;
}

void open_turn(ResumeState& state) {
  state.turn_open = true;
  state.model_calls = 0;
  state.turn_cost = 0;
  state.turn_results.clear();
  state.turn_notes.clear();
  state.budget_noted = false;
  state.unfinished.clear();
}

}  // namespace

std::string_view to_string(NextStep step) {
  switch (step) {
    case NextStep::wait_user:
      return "wait_user";
    case NextStep::run_tools:
      return "run_tools";
    case NextStep::call_model:
      return "call_model";
    case NextStep::finish_turn:
      return "finish_turn";
  }
  return "?";
}

// listing: rebuild-state
Result<ResumeState> rebuild_state(const std::vector<Record>& records) {
  if (records.empty()) return Error{"o journal não tem registros: não há nada para retomar"};
  if (records.front().type != RecordType::start) {
    return Error{"o primeiro registro, " + at_seq(records.front()) + ", não é o start"};
  }
  ResumeState state;
  bool last_reply_final = false;  // a última resposta do turno aberto não pediu ferramentas
  // listing: rebuild-body
  // TODO EXERCICIO 04-journal/rebuild: o turno de volta ao ponto em que o journal parou
  throw hz::NotImplemented("04-journal/rebuild",
                           "livro/04-journal.md, \"Exercício 4 — Reconstruir o estado\"");
  // FIM-EXERCICIO
  // end-listing: rebuild-body
  state.spent = add_saturating(state.spent, state.turn_cost);
  if (!state.turn_open) {
    state.next = NextStep::wait_user;
  } else if (!state.unfinished.empty()) {
    state.next = NextStep::run_tools;
  } else if (last_reply_final) {
    state.next = NextStep::finish_turn;
  } else {
    state.next = NextStep::call_model;
    // Depois dos resultados de um passo, só uma nota prova que a política respondeu.
    state.last_step_decided = records.back().type != RecordType::result;
  }
  return state;
}
// end-listing: rebuild-state

std::vector<std::string> intent_mismatches(const ResumeState& state) {
  std::vector<std::string> out;
  for (const UnfinishedCall& call : state.unfinished) {
    if (!call.intent) continue;
    const ToolCall& asked = call.call;
    const ToolCall& recorded = call.intent->call;
    if (recorded.name != asked.name) {
      out.push_back(asked.id + ": a intenção diz " + recorded.name +
                    ", a resposta do modelo pede " + asked.name);
    } else if (recorded.arguments != asked.arguments) {
      out.push_back(asked.id + ": a intenção de " + asked.name +
                    " tem outros argumentos que os da resposta do modelo");
    }
  }
  return out;
}

std::optional<std::string> last_outcome(const std::vector<Record>& records) {
  if (records.empty() || records.back().type != RecordType::turn_end) return std::nullopt;
  return records.back().rec.at("outcome").get<std::string>();
}

std::vector<std::string> settings_differences(const json& journaled, const json& current) {
  std::set<std::string> keys;
  for (const json* side : {&journaled, &current}) {
    if (!side->is_object()) continue;
    for (const auto& item : side->items()) keys.insert(item.key());
  }
  const auto shown = [](const json& side, const std::string& key) -> std::string {
    if (!side.is_object() || !side.contains(key)) return "(ausente)";
    return side[key].dump(-1, ' ', false, json::error_handler_t::replace);
  };
  std::vector<std::string> differences;
  for (const std::string& key : keys) {
    const std::string before = shown(journaled, key);
    const std::string now = shown(current, key);
    if (before != now) differences.push_back(key + ": no journal " + before + ", agora " + now);
  }
  return differences;
}

}  // namespace hz
