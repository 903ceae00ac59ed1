#pragma once

// Leitura mínima do relatório JUnit que o ctest escreve com --output-junit.
// Só o que importa: nome de cada teste e se passou.

#include <string>
#include <string_view>
#include <vector>

namespace hz::course {

enum class TestStatus { passed, failed, not_run };

struct TestResult {
  std::string name;
  TestStatus status;
};

struct JunitReport {
  std::vector<TestResult> tests;
  std::string error;  // vazio se o XML foi entendido
};

JunitReport parse_junit(std::string_view xml);

// Decodifica as entidades de XML (&amp; &lt; &gt; &quot; &apos; &#N; &#xN;).
std::string xml_unescape(std::string_view s);

}  // namespace hz::course
