#include "records.hpp"

#include <string>

#include "crc32c.hpp"

namespace hz {

using nlohmann::json;

namespace {

json typed(RecordType type) { return {{"type", std::string(to_string(type))}}; }

}  // namespace

json start_record(const json& settings) {
  json rec = typed(RecordType::start);
  rec["version"] = kJournalVersion;
  rec["settings"] = settings;
  return rec;
}

json user_record(std::string_view text) {
  json rec = typed(RecordType::user);
  rec["text"] = std::string(text);
  return rec;
}

json reply_record(const Message& message, const Usage& usage, Micros cost_micros) {
  json rec = typed(RecordType::reply);
  rec["message"] = to_json(message);
  rec["usage"] = {{"prompt_tokens", usage.prompt_tokens},
                  {"completion_tokens", usage.completion_tokens},
                  {"reported", usage.reported}};
  rec["cost_micros"] = cost_micros;
  rec["estimated"] = usage.estimated;
  return rec;
}

json intent_record(const Intent& intent) {
  json rec = typed(RecordType::intent);
  rec["call_id"] = intent.call.id;
  rec["name"] = intent.call.name;
  rec["arguments"] = intent.call.arguments;
  rec["idempotency"] = std::string(to_string(intent.idempotency));
  if (intent.append_key) {
    rec["append_key"] = {{"size_before", intent.append_key->size_before},
                         {"content_bytes", intent.append_key->content_bytes},
                         {"content_crc32c", crc32c_hex(intent.append_key->content_crc)}};
  }
  if (intent.edit_key) {
    rec["edit_key"] = {{"size_before", intent.edit_key->size_before},
                       {"crc32c_before", crc32c_hex(intent.edit_key->crc_before)},
                       {"size_after", intent.edit_key->size_after},
                       {"crc32c_after", crc32c_hex(intent.edit_key->crc_after)}};
  }
  return rec;
}

json result_record(std::string_view call_id, const ToolOutput& output) {
  json rec = typed(RecordType::result);
  rec["call_id"] = std::string(call_id);
  rec["ok"] = output.ok;
  rec["content"] = output.text;
  return rec;
}

json note_record(std::string_view text, std::string_view call_id, bool budget) {
  json rec = typed(RecordType::note);
  rec["text"] = std::string(text);
  if (!call_id.empty()) rec["call_id"] = std::string(call_id);
  if (budget) rec["budget"] = true;
  return rec;
}

json turn_end_record(std::string_view outcome, int model_calls, Micros cost_micros) {
  json rec = typed(RecordType::turn_end);
  rec["outcome"] = std::string(outcome);
  rec["model_calls"] = model_calls;
  rec["cost_micros"] = cost_micros;
  return rec;
}

}  // namespace hz
