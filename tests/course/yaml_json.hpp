#pragma once

// Os workflows do curso (.github/workflows/*.yml, course/export/*.yml) lidos
// pelo yaml-cpp e entregues como JSON, para as conferências de mantenedor
// provarem, sem rede e sem Python, que eles são bem formados e dizem o que
// devem dizer.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace hz::course::test {

struct YamlResult {
  // Mapas viram objetos, listas viram arrays, escalares viram strings (sem
  // conversão para número ou booleano) e valores vazios viram null.
  nlohmann::json value;
  std::string error;  // vazio se deu certo; senão "linha N...: ..."
};

// Um documento só. Além do que o yaml-cpp recusa, é erro uma chave repetida
// num mapa (o yaml-cpp guarda as duas; o GitHub recusa o workflow).
YamlResult parse_yaml(std::string_view text);

}  // namespace hz::course::test
