#pragma once

// A linha de comando do hz-course, como função: os testes chamam `run` e
// conferem a saída e o código exatos, sem subprocesso.

#include <iosfwd>
#include <string>
#include <vector>

namespace hz::course {

// `args` não inclui o nome do programa. Códigos: 0 ok, 1 conferência falhou,
// 2 erro de uso ou de marcador.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace hz::course
