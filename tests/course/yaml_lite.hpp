#pragma once

// Um leitor de YAML só para o subconjunto que os workflows do curso usam
// (.github/workflows/*.yml, course/export/autograding.yml): mapas e listas em
// bloco, listas em fluxo numa linha ([a, "b"]), {} vazio, escalares simples e
// entre aspas, blocos literais (| e >, com - ou +) e comentários.
//
// Existe para a conferência de mantenedor provar, sem rede e sem Python, que
// os workflows são bem formados. Tudo o que fica fora do subconjunto (âncoras,
// tags, chaves complexas, vários documentos, escalares em várias linhas) é
// erro, com a linha: melhor recusar do que aceitar algo que o GitHub leria
// diferente.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace hz::course::test {

struct YamlResult {
  // Mapas viram objetos, listas viram arrays, escalares viram strings (sem
  // conversão para número ou booleano) e valores vazios viram null.
  nlohmann::json value;
  std::string error;  // vazio se deu certo; senão "linha N: ..."
};

YamlResult parse_yaml(std::string_view text);

}  // namespace hz::course::test
