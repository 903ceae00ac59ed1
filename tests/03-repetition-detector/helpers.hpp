// Ajudantes dos testes do detector: como os tipos dele aparecem numa falha e
// observações fáceis de montar.
#pragma once

#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hz/testing/printing.hpp"
#include "repetition.hpp"

namespace hz {

// O doctest acha estes operator<< pelo namespace dos tipos: uma falha mostra
// "Verdict{kind=repeat, count=2, ...}" em vez de "{?}".
inline std::ostream& operator<<(std::ostream& out, Repetition kind) {
  return out << to_string(kind);
}

inline std::ostream& operator<<(std::ostream& out, Action action) {
  return out << to_string(action);
}

// Soltos num CHECK, também pelo nome, e não pela posição no enum
// ("CHECK( repeat == progress )"; veja hz/testing/printing.hpp).
inline doctest::String toString(Repetition kind) { return testing::printed(kind); }
inline doctest::String toString(Action action) { return testing::printed(action); }

inline std::ostream& operator<<(std::ostream& out, const Verdict& verdict) {
  out << "Verdict{kind=" << verdict.kind << ", count=" << verdict.count
      << ", stuck=" << (verdict.stuck ? "true" : "false") << ", action=" << verdict.action;
  if (verdict.period != 0 || !verdict.cycle.empty()) {
    out << ", period=" << verdict.period << ", cycle=[";
    for (std::size_t i = 0; i < verdict.cycle.size(); ++i) {
      out << (i > 0 ? ", " : "") << verdict.cycle[i];
    }
    out << "]";
  }
  return out << ", name=" << testing::quoted(verdict.name)
             << ", ok=" << (verdict.ok ? "true" : "false") << "}";
}

inline std::ostream& operator<<(std::ostream& out, const Observation& seen) {
  return out << "Observation{name=" << testing::quoted(seen.name) << ", key=" << seen.key
             << ", result_hash=" << seen.result_hash << ", ok=" << (seen.ok ? "true" : "false")
             << ", step=" << seen.step << "}";
}

}  // namespace hz

namespace hz::testing {

// Um hash de 64 bits como o teste o escreve, com os 16 dígitos:
// "0x0a1c3cbeab188935". Comparadas assim, as chaves aparecem numa falha em
// hexadecimal dos dois lados, e não em decimal.
inline std::string hex(std::uint64_t value) {
  char text[19];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(value));
  return text;
}

// O veredito esperado, campo a campo (period e cycle à parte, nos ciclos).
inline Verdict verdict(Repetition kind, int count, bool stuck, Action action, std::string name,
                       bool ok = true) {
  Verdict expected;
  expected.kind = kind;
  expected.count = count;
  expected.stuck = stuck;
  expected.action = action;
  expected.name = std::move(name);
  expected.ok = ok;
  return expected;
}

// O veredito de um ciclo: a sequência `names` (o período é o tamanho dela)
// apareceu duas vezes seguidas na janela.
inline Verdict cycle_seen_twice(Action action, std::vector<std::string> names) {
  Verdict expected = verdict(Repetition::cycle, 2, true, action, names.back());
  expected.period = static_cast<int>(names.size());
  expected.cycle = std::move(names);
  return expected;
}

// O aviso que o loop anexa quando `name` trava em `count` chamadas iguais, e
// quando a sequência `names` se repete: o nudge_text do aluno para o veredito
// que o detector dá (no loop, ok é sempre true). As palavras do aviso são do
// aluno (exercício nudge); os testes da política e do loop comparam com elas.
inline std::string repeat_nudge(std::string name, int count) {
  return nudge_text(verdict(Repetition::repeat, count, true, Action::warn, std::move(name)));
}

inline std::string cycle_nudge(std::vector<std::string> names) {
  return nudge_text(cycle_seen_twice(Action::warn, std::move(names)));
}

// Uma observação sintética: a chamada é a letra (A, B, ...) e o resultado, um
// número. Para os testes que não dependem de call_key.
inline Observation seen(char call, std::uint64_t result = 1, int step = 0) {
  Observation observation;
  observation.key = static_cast<std::uint64_t>(call);
  observation.result_hash = result;
  observation.name = std::string(1, call);
  observation.step = step;
  return observation;
}

inline std::vector<Observation> seen_all(std::string_view calls) {
  std::vector<Observation> all;
  for (const char call : calls) all.push_back(seen(call));
  return all;
}

// Observações como o capítulo as escreve, nome/resultado, da mais antiga para
// a mais nova: "A/1 B/1 A/2" (vazio: "(nenhuma)"). Para o INFO de um caso que
// monta a janela numa variável, que a expressão do CHECK não mostra.
inline std::string shown(const std::vector<Observation>& observations) {
  if (observations.empty()) return "(nenhuma)";
  std::string out;
  for (const Observation& seen : observations) {
    if (!out.empty()) out += ' ';
    out += seen.name + "/" + std::to_string(seen.result_hash);
  }
  return out;
}

// Uma observação de verdade: a chamada `name(arguments)` respondida com `result`.
inline Observation called(std::string name, std::string arguments, std::string_view result,
                          int step, bool ok = true) {
  const ToolCall call{"call_" + std::to_string(step), std::move(name), std::move(arguments)};
  return observation_of(call, result, ok, step);
}

}  // namespace hz::testing
