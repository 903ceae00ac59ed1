// As flags do detector de repetição (etapa 03 em diante), lidas contra o
// núcleo da etapa que inclui este cabeçalho (o repetition.hpp dela). Como o
// brakes_cli.hpp, não é uma biblioteca: veja o comentário de lá.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hz/cli.hpp"
#include "hz/result.hpp"
#include "hz/text.hpp"
#include "repetition.hpp"

namespace hz::stage {

// As flags do detector como o usuário as escreveu.
struct RepetitionFlags {
  int window = RepetitionConfig{}.window;
  int threshold = RepetitionConfig{}.threshold;
  std::string exempt;  // "wait,sleep"
};

// --repetition-window, --repetition-threshold e --repetition-exempt, com os
// padrões atuais de flags na ajuda.
inline void add_repetition_flags(FlagParser& parser, RepetitionFlags& flags) {
  parser.add_int("repetition-window", &flags.window,
                 "quantas tool calls recentes do turno o detector de repetição olha, a atual "
                 "incluída (padrão: " +
                     std::to_string(flags.window) + "; de 2 a " +
                     std::to_string(kMaxRepetitionWindow) + ")");
  parser.add_int("repetition-threshold", &flags.threshold,
                 "quantas vezes a mesma chamada, com o mesmo resultado, precisa aparecer na "
                 "janela para travar: a primeira vez avisa o modelo, a seguinte encerra o turno "
                 "com repetition (padrão: " +
                     std::to_string(flags.threshold) + "; de 2 até a janela)");
  parser.add_string("repetition-exempt", &flags.exempt,
                    "ferramentas que o detector não conta, separadas por vírgula (padrão: "
                    "nenhuma)",
                    "NOME[,NOME]");
}

inline std::string without_spaces(std::string_view text) {
  const std::size_t first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return {};
  return std::string(text.substr(first, text.find_last_not_of(' ') - first + 1));
}

// "wait, sleep" → {"wait", "sleep"}; um nome vazio ("wait,,sleep") é erro.
inline Result<std::vector<std::string>> read_exempt(const std::string& text) {
  std::vector<std::string> names;
  if (text.empty()) return names;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::size_t length = comma == std::string::npos ? std::string::npos : comma - start;
    const std::string name = without_spaces(std::string_view(text).substr(start, length));
    if (name.empty()) {
      return Error{"--repetition-exempt: nome de ferramenta vazio em \"" + printable(text) +
                   "\" (use nomes separados por vírgula, como wait,sleep)"};
    }
    names.push_back(name);
    if (comma == std::string::npos) return names;
    start = comma + 1;
  }
}

// As flags do detector conferidas (check_repetition_config), ou o Error.
inline Result<RepetitionConfig> read_repetition(const RepetitionFlags& flags) {
  auto exempt = read_exempt(flags.exempt);
  if (!exempt) return exempt.error();
  return check_repetition_config(
      RepetitionConfig{flags.window, flags.threshold, std::move(exempt).value()});
}

// " · detector de repetição: janela W, limiar T[, isentas: ...]", o pedaço
// da linha "limites:" que a etapa 03 acrescenta.
inline std::string describe_repetition(const RepetitionConfig& config) {
  std::string text = " · detector de repetição: janela " + std::to_string(config.window) +
                     ", limiar " + std::to_string(config.threshold);
  for (std::size_t i = 0; i < config.exempt.size(); ++i) {
    text += (i == 0 ? ", isentas: " : ", ") + printable(config.exempt[i]);
  }
  return text;
}

}  // namespace hz::stage
