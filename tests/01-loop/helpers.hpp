// O que os testes da etapa 01 compartilham: ferramentas falsas, um trace que
// o teste consegue ler, e comparações que, quando falham, dizem onde e
// mostram os dois lados.
#pragma once

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "hz/chat_client.hpp"
#include "hz/result.hpp"
#include "hz/testing/facts.hpp"
#include "hz/testing/printing.hpp"
#include "hz/testing/temp_dir.hpp"
#include "hz/text.hpp"
#include "hz/tools.hpp"
#include "hz/trace.hpp"
#include "hz/wire.hpp"
#include "outcome.hpp"
#include "tool_dispatch.hpp"

namespace hz {

// Numa falha, o desfecho aparece pelo rótulo ("max_turns"), não como {?}
// dentro de outro valor (operator<<) nem como número solto num CHECK
// (toString: veja hz/testing/printing.hpp).
inline std::ostream& operator<<(std::ostream& out, Outcome outcome) {
  return out << to_string(outcome);
}

inline doctest::String toString(Outcome outcome) { return testing::printed(outcome); }

}  // namespace hz

namespace hz::test01 {

// Uma ferramenta com os campos obrigatórios dados (todos texto) e o corpo dado.
inline Tool fake_tool(std::string name, std::initializer_list<const char*> required,
                      std::function<ToolOutput(const nlohmann::json&)> run,
                      bool needs_approval = false) {
  nlohmann::json properties = nlohmann::json::object();
  nlohmann::json fields = nlohmann::json::array();
  for (const char* field : required) {
    properties[field] = {{"type", "string"}};
    fields.push_back(field);
  }
  return Tool{ToolSchema{std::move(name),
                         "ferramenta de teste",
                         {{"type", "object"}, {"properties", properties}, {"required", fields}}},
              needs_approval, std::move(run)};
}

// echo{text}: devolve o texto recebido.
inline Tool echo_tool() {
  return fake_tool("echo", {"text"}, [](const nlohmann::json& args) {
    return ToolOutput::success(args.at("text").get<std::string>());
  });
}

// explode{}: sempre lança.
inline Tool throwing_tool() {
  return fake_tool("explode", {}, [](const nlohmann::json&) -> ToolOutput {
    throw std::runtime_error("disco pegou fogo");
  });
}

// Uma saída longa, "COMECO\n" + dez mil "x" + "\nFIM".
inline std::string long_output() { return "COMECO\n" + std::string(10000, 'x') + "\nFIM"; }

// Confere que text é long_output() cortada no meio em limit bytes. O tamanho
// vem primeiro: sem corte, a comparação exata imprimiria dez mil "x".
inline void check_cut(const std::string& text, std::size_t limit) {
  const std::string big = long_output();
  INFO("a mensagem tem " << text.size() << " bytes; a saída tinha " << big.size());
  REQUIRE(text.size() < limit + 100);
  CHECK(text == truncate_middle(big, limit));
  CHECK(text.substr(0, 7) == "COMECO\n");
  CHECK(text.substr(text.size() - 4) == "\nFIM");
}

// As mensagens como vão no corpo do pedido.
inline nlohmann::json wire_messages(const std::vector<Message>& messages) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& message : messages) out.push_back(to_json(message));
  return out;
}

// Cada linha do arquivo JSONL lida como JSON.
inline std::vector<nlohmann::json> read_jsonl(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<nlohmann::json> events;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    nlohmann::json event = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    // Um campo que não vira JSON (um json descartado, por exemplo) quebra a linha inteira.
    if (event.is_discarded()) {
      throw std::runtime_error("a linha " + std::to_string(number) + " de " + path.string() +
                               " não é JSON: " + line);
    }
    events.push_back(std::move(event));
  }
  return events;
}

inline std::vector<std::string> event_names(const std::vector<nlohmann::json>& events) {
  std::vector<std::string> names;
  for (const auto& event : events) names.push_back(event.value("event", "?"));
  return names;
}

// Um Trace que grava num JSONL temporário, para o teste ler o que foi emitido.
// Cada emit já vai para o disco (o Trace dá flush por linha). O relógio é
// falso: a primeira hora é 2025-06-02T09:00:00Z e cada evento anda 1 ms (os
// testes comparam campos, não horas; as horas só precisam ser as mesmas).
class RecordedTrace {
 public:
  RecordedTrace() : trace_(options(dir_)) {}

  Trace& trace() { return trace_; }
  std::vector<nlohmann::json> events() const { return read_jsonl(dir_ / "trace.jsonl"); }

 private:
  static TraceOptions options(const testing::TempDir& dir) {
    TraceOptions options;
    options.jsonl_path = dir / "trace.jsonl";
    options.clock = stepping_trace_clock(1'748'854'800'000'000'000LL, 1'000'000);
    return options;
  }

  testing::TempDir dir_;
  Trace trace_;
};

// O evento sem o que o relógio do Trace acrescenta ("time", "duration_ms"),
// para comparar um evento inteiro.
inline nlohmann::json without_times(nlohmann::json event) {
  event.erase("time");
  event.erase("duration_ms");
  return event;
}

// Confere os eventos campo a campo: em cada evento esperado, só os campos que
// ele nomeia (as etapas seguintes acrescentam campos aos mesmos eventos).
// Devolve "iguais" ou o primeiro ponto em que diferem, com os dois lados:
//   CHECK(event_difference(trace.events(), expected) == "iguais");
inline std::string event_difference(const std::vector<nlohmann::json>& actual,
                                    const std::vector<nlohmann::json>& expected) {
  std::ostringstream out;
  const std::size_t common = std::min(actual.size(), expected.size());
  for (std::size_t i = 0; i < common; ++i) {
    for (const auto& [field, value] : expected[i].items()) {
      const std::string name = actual[i].value("event", "?");
      if (!actual[i].contains(field)) {
        out << "o evento [" << i << "] (" << name << ") não tem o campo \"" << field
            << "\" (esperado: " << value.dump() << ")\n  veio: " << actual[i].dump();
        return out.str();
      }
      if (actual[i][field] != value) {
        out << "o evento [" << i << "] (" << name << ") difere no campo \"" << field
            << "\":\n  veio:     " << actual[i][field].dump() << "\n  esperado: " << value.dump();
        return out.str();
      }
    }
  }
  if (actual.size() == expected.size()) return "iguais";
  auto names = [](const std::vector<nlohmann::json>& events) {
    std::string joined;
    for (const auto& name : event_names(events)) joined += (joined.empty() ? "" : ", ") + name;
    return joined;
  };
  out << "vieram " << actual.size() << " eventos e eram esperados " << expected.size()
      << " (os primeiros " << common << " conferem)\n  veio:     " << names(actual)
      << "\n  esperado: " << names(expected);
  return out.str();
}

// Onde dois JSON diferem, pelo caminho ("em /messages/3/content: ..."), com
// os dois lados; "iguais" se não diferem. Para um INFO antes do CHECK de dois
// corpos de pedido, que numa linha só são longos demais para comparar de olho.
inline std::string json_difference(const nlohmann::json& actual, const nlohmann::json& expected,
                                   const std::string& path = "") {
  if (actual == expected) return "iguais";
  const std::string where = "em " + (path.empty() ? std::string("/") : path);
  if (actual.is_object() && expected.is_object()) {
    for (const auto& [key, value] : expected.items()) {
      if (!actual.contains(key)) {
        return where + ": falta o campo \"" + key + "\" (esperado: " + value.dump() + ")";
      }
      if (actual[key] != value) return json_difference(actual[key], value, path + "/" + key);
    }
    for (const auto& [key, value] : actual.items()) {
      if (!expected.contains(key)) {
        return where + ": o campo \"" + key + "\" sobra (veio: " + value.dump() + ")";
      }
    }
  }
  if (actual.is_array() && expected.is_array()) {
    const std::size_t common = std::min(actual.size(), expected.size());
    for (std::size_t i = 0; i < common; ++i) {
      if (actual[i] != expected[i]) {
        return json_difference(actual[i], expected[i], path + "/" + std::to_string(i));
      }
    }
    std::ostringstream out;
    out << where << ": vieram " << actual.size() << " elementos e eram esperados "
        << expected.size() << " (os primeiros " << common << " conferem)";
    if (actual.size() > common) out << "\n  sobra:  " << actual[common].dump();
    if (expected.size() > common) out << "\n  falta:  " << expected[common].dump();
    return out.str();
  }
  return where + ":\n  veio:     " + actual.dump() + "\n  esperado: " + expected.dump();
}

// Um texto de erro como shown() o mostra.
inline std::string as_error(const std::string& message) {
  return "Error: " + testing::quoted(message);
}

// O que falta a um erro escrito pelo aluno (o Error de check_arguments, com
// prefix vazio, ou a mensagem do despacho, com prefix "erro: "): começar por
// prefix e citar cada fato. Vazio se nada falta; senão, o que falta e o texto.
inline std::string error_gaps(std::string_view text, std::string_view prefix,
                              std::initializer_list<std::string_view> facts) {
  const std::string gaps = testing::reason_gaps(text, prefix, facts);
  return gaps.empty() ? "" : gaps + " — o texto: " + testing::quoted(text);
}

// O mesmo para o que check_arguments devolveu, que precisa ser uma recusa.
inline std::string refusal_gaps(const Result<nlohmann::json>& args,
                                std::initializer_list<std::string_view> facts) {
  if (args.ok()) return "check_arguments aceitou " + args.value().dump() + " em vez de recusar";
  return error_gaps(args.error().message, "", facts);
}

// A mensagem do despacho quando check_arguments recusa call: "erro: " e o
// texto do Error do aluno ("(aceitou)" se não recusou).
inline std::string args_refusal(const ToolSchema& schema, const ToolCall& call) {
  const Result<nlohmann::json> args = check_arguments(schema, call);
  return args.ok() ? "(check_arguments aceitou)" : "erro: " + args.error().message;
}

// O que check_arguments devolveu, como texto que um CHECK compara e imprime:
// o objeto lido (dump) ou o erro entre aspas, para que um ponto ou um espaço
// a mais apareça:
//   CHECK(shown(args) == R"({"path":"a.txt"})");
inline std::string shown(const Result<nlohmann::json>& result) {
  return result.ok() ? result.value().dump() : as_error(result.error().message);
}

}  // namespace hz::test01
