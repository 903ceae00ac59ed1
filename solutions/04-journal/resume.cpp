#include "resume.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <set>
#include <utility>

#include "policy.hpp"

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

std::string_view to_string(Entry::Phase phase) {
  switch (phase) {
    case Entry::Phase::call_model:
      return "call_model";
    case Entry::Phase::run_tools:
      return "run_tools";
    case Entry::Phase::decide:
      return "decide";
    case Entry::Phase::finish:
      return "finish";
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
        state.turn_notes.push_back(text);
        if (rec.value("budget", false)) state.budget_noted = true;
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

// listing: entry-point
const Replay* Entry::replay_for(int step, std::string_view call_id) const {
  if (phase != Phase::run_tools || step != call) return nullptr;
  for (const auto& [id, replay] : replays) {
    if (id == call_id) return &replay;
  }
  return nullptr;
}

namespace {

// A decisão de uma chamada com intenção e sem resultado. A idempotência é a
// da ferramenta, no código; a gravada no journal não conta.
Replay replay_of(const Intent& intent, const ToolBox& tools, const Workspace* workspace) {
  const Tool* tool = tools.find(intent.call.name);
  const Idempotency idempotency = tool != nullptr ? tool->idempotency : Idempotency::no;
  if (workspace != nullptr) return decide_replay(intent, idempotency, *workspace);
  // Sem pasta, yes e no decidem do mesmo jeito; check não tem onde conferir.
  if (idempotency == Idempotency::check) {
    return {Replay::Kind::unknown, ToolOutput::failure(std::string(kUnknownResultText)),
            "sem pasta de trabalho para conferir"};
  }
  return decide_replay(intent, idempotency, Workspace(std::filesystem::current_path()));
}

}  // namespace

Entry entry_point(const ResumeState& state, const ToolBox& tools, const Workspace* workspace,
                  const std::optional<RepetitionConfig>& repetition, TurnState& turn) {
  turn.model_calls = state.model_calls;
  turn.cost_micros = state.turn_cost;
  turn.memory.budget_noted = state.budget_noted;
  Entry entry;
  entry.call = state.model_calls;
  if (state.next == NextStep::finish_turn) {
    entry.phase = Entry::Phase::finish;
    return entry;
  }
  if (state.next == NextStep::run_tools) {
    entry.phase = Entry::Phase::run_tools;
  } else if (!state.last_step_decided) {
    entry.phase = Entry::Phase::decide;
  } else {
    entry.phase = Entry::Phase::call_model;
    entry.call = state.model_calls + 1;
  }
  // Os passos do turno aberto, em ordem: os que a política já respondeu
  // entram na memória do detector; o passo em curso, nos fatos do turno. Os
  // resultados foram gravados na ordem das chamadas, passo a passo (um
  // call_id pode se repetir noutro passo: a ordem decide, não o id).
  if (repetition) turn.memory.detector.emplace(*repetition);
  std::size_t open = 0;  // onde o turno aberto começa: a última mensagem do usuário
  for (std::size_t i = 0; i < state.history.size(); ++i) {
    if (state.history[i].role == Role::user) open = i;
  }
  std::size_t next_result = 0;
  int step = 0;
  for (std::size_t i = open; i < state.history.size(); ++i) {
    const Message& message = state.history[i];
    if (message.role != Role::assistant) continue;
    const bool current = ++step == entry.call && entry.phase != Entry::Phase::call_model;
    if (current) turn.last_calls = message.tool_calls;
    for (const ToolCall& call : message.tool_calls) {
      if (next_result == state.turn_results.size() ||
          state.turn_results[next_result].call.id != call.id) {
        break;
      }
      const std::string& content = state.turn_results[next_result++].content;
      if (current) {
        turn.last_results.push_back(Message::tool(call.id, content));
      } else if (turn.memory.detector) {
        turn.memory.detector->observe(observation_of(call, content, /*ok=*/true, step));
      }
    }
  }
  for (const UnfinishedCall& call : state.unfinished) {
    if (call.intent)
      entry.replays.emplace_back(call.call.id, replay_of(*call.intent, tools, workspace));
  }
  return entry;
}

json resume_event(const ResumeState& state, const Entry& entry) {
  json pending = json::array();
  json decisions = json::array();
  for (const UnfinishedCall& call : state.unfinished) {
    pending.push_back(
        {{"call_id", call.call.id}, {"name", call.call.name}, {"intent", call.intent.has_value()}});
    const Replay* replay = entry.replay_for(entry.call, call.call.id);
    decisions.push_back(
        {{"call_id", call.call.id},
         {"name", call.call.name},
         {"decision", replay != nullptr ? to_string(replay->kind) : "run"},
         {"reason", replay != nullptr ? replay->reason
                                      : "a intenção não foi gravada: a chamada não começou"}});
  }
  return {{"event", "journal_resume"},     {"records", state.last_seq}, {"turn", state.model_calls},
          {"next", to_string(state.next)}, {"pending", pending},        {"decisions", decisions}};
}
// end-listing: entry-point

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
