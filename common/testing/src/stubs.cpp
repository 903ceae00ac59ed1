#include "hz/testing/stubs.hpp"

#include <stdexcept>
#include <string>

namespace hz::testing {

void throw_if_stubbed(const ProcessResult& result) {
  const std::size_t start = result.err.find("exercício ");
  if (start == std::string::npos) return;
  const std::size_t end = result.err.find('\n', start);
  const std::string line = result.err.substr(start, end - start);
  if (line.find(" não implementado") != std::string::npos) throw std::logic_error(line);
}

}  // namespace hz::testing
