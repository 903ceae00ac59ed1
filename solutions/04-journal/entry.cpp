#include "entry.hpp"

namespace hz {

using nlohmann::json;

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

// listing: entry-point
const Replay* Entry::replay_for(int step, std::string_view call_id) const {
  if (phase != Phase::run_tools || step != call) return nullptr;
  for (const auto& [id, replay] : replays) {
    if (id == call_id) return &replay;
  }
  return nullptr;
}

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

}  // namespace hz
