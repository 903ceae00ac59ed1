#include "resume.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <utility>

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
  // EXERCICIO 04-journal/rebuild: o turno de volta ao ponto em que o journal parou
  for (const Record& record : records) {
    const json& rec = record.rec;
    switch (record.type) {
      case RecordType::start:
        if (&record != &records.front()) return Error{at_seq(record) + ": um segundo start"};
        state.settings = rec["settings"];
        if (const auto it = state.settings.find("system_prompt");
            it != state.settings.end() && it->is_string()) {
          state.history.push_back(Message::system(it->get<std::string>()));
        }
        break;
      case RecordType::user:
        if (state.turn_open) return Error{at_seq(record) + ": o turno anterior não terminou"};
        open_turn(state);
        last_reply_final = false;
        state.history.push_back(Message::user(rec["text"].get<std::string>()));
        break;
      case RecordType::reply: {
        if (!state.turn_open) return Error{at_seq(record) + ": resposta fora de um turno"};
        if (!state.unfinished.empty()) {
          return Error{at_seq(record) + ": chamadas da resposta anterior sem resultado"};
        }
        Message message = reply_message(rec);
        for (const ToolCall& call : message.tool_calls) state.unfinished.push_back({call, {}});
        last_reply_final = message.tool_calls.empty();
        state.history.push_back(std::move(message));
        ++state.model_calls;
        state.turn_cost = add_saturating(state.turn_cost, rec["cost_micros"].get<Micros>());
        break;
      }
      case RecordType::intent: {
        Intent intent = intent_from(rec);
        UnfinishedCall* call = find_unfinished(state.unfinished, intent.call.id);
        if (call == nullptr || call->intent) {
          return Error{at_seq(record) + ": intenção de uma chamada que a última resposta não " +
                       "pediu ou que já tinha intenção (call_id " + json_quoted(intent.call.id) +
                       ")"};
        }
        call->intent = std::move(intent);
        break;
      }
      case RecordType::result: {
        const std::string id = rec["call_id"].get<std::string>();
        UnfinishedCall* call = find_unfinished(state.unfinished, id);
        if (call == nullptr) {
          return Error{at_seq(record) + ": resultado de uma chamada sem resultado pendente (" +
                       "call_id " + json_quoted(id) + ")"};
        }
        const std::string content = rec["content"].get<std::string>();
        state.turn_results.push_back({call->call, rec["ok"].get<bool>(), content});
        state.history.push_back(Message::tool(id, content));
        state.unfinished.erase(state.unfinished.begin() + (call - state.unfinished.data()));
        break;
      }
      case RecordType::note: {
        if (state.history.empty()) return Error{at_seq(record) + ": nota sem mensagem antes"};
        const std::string text = rec["text"].get<std::string>();
        append_note(state.history, text, rec.value("call_id", std::string()));
        if (state.turn_open) {
          state.turn_notes.push_back(text);
          if (rec.value("budget", false)) state.budget_noted = true;
        }
        break;
      }
      case RecordType::turn_end:
        if (!state.turn_open) return Error{at_seq(record) + ": fim de um turno que não começou"};
        if (!state.unfinished.empty()) {
          return Error{at_seq(record) + ": fim de turno com chamadas sem resultado"};
        }
        open_turn(state);
        state.turn_open = false;
        ++state.turns_ended;
        state.spent = add_saturating(state.spent, rec["cost_micros"].get<Micros>());
        break;
    }
    state.last_seq = record.seq;
  }
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
