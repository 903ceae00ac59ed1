#include "hz/course/junit.hpp"

#include <pugixml.hpp>

namespace hz::course {
namespace {

// Todo o texto de um elemento (pedaços comuns e CDATA), com as entidades já decodificadas.
std::string text_of(const pugi::xml_node& element) {
  std::string out;
  for (const pugi::xml_node& part : element.children()) {
    if (part.type() == pugi::node_pcdata || part.type() == pugi::node_cdata) out += part.value();
  }
  return out;
}

// Sem status (outros geradores de JUnit), a falha ou o skip vêm como filhos do <testcase>.
TestStatus status_of(const pugi::xml_node& testcase) {
  const std::string_view status = testcase.attribute("status").value();
  if (status == "fail" || testcase.child("failure") || testcase.child("error")) {
    return TestStatus::failed;
  }
  if (status == "notrun" || status == "disabled" || testcase.child("skipped")) {
    return TestStatus::not_run;
  }
  return status.empty() || status == "run" ? TestStatus::passed : TestStatus::failed;
}

}  // namespace

JunitReport parse_junit(std::string_view xml) {
  JunitReport report;
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_buffer(xml.data(), xml.size());
  if (!parsed && parsed.status != pugi::status_no_document_element) {
    report.error = "relatório JUnit malformado (byte " + std::to_string(parsed.offset) + ")";
    return report;
  }
  if (!doc.select_node("//testsuite")) {
    report.error = "não parece um relatório JUnit (falta <testsuite>)";
    return report;
  }
  for (const pugi::xpath_node& found : doc.select_nodes("//testcase")) {
    const pugi::xml_node testcase = found.node();
    const pugi::xml_attribute name = testcase.attribute("name");
    if (!name) {
      report.error = "<testcase> sem atributo name";
      return report;
    }
    report.tests.push_back({name.value(), status_of(testcase),
                            text_of(testcase.child("system-out")),
                            testcase.attribute("time").as_double()});
  }
  return report;
}

Score score(const JunitReport& report) {
  Score s;
  for (const TestResult& t : report.tests) s.passed += t.status == TestStatus::passed ? 1 : 0;
  s.total = static_cast<int>(report.tests.size());
  return s;
}

std::string score_line(std::string_view stage, const Score& s) {
  return std::string(stage) + ": " + std::to_string(s.passed) + "/" + std::to_string(s.total) +
         " testes passando";
}

}  // namespace hz::course
