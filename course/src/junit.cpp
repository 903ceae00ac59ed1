#include "hz/course/junit.hpp"

#include <cstdlib>

namespace hz::course {
namespace {

void append_utf8(std::string& out, unsigned long cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Valor do atributo `name` dentro da tag `tag` (sem o '<' e o '>').
bool attribute(std::string_view tag, std::string_view name, std::string& value) {
  std::size_t pos = 0;
  while ((pos = tag.find(name, pos)) != std::string_view::npos) {
    const bool starts_word = pos > 0 && (tag[pos - 1] == ' ' || tag[pos - 1] == '\t' ||
                                         tag[pos - 1] == '\n' || tag[pos - 1] == '\r');
    std::size_t p = pos + name.size();
    if (starts_word && p + 1 < tag.size() && tag[p] == '=' &&
        (tag[p + 1] == '"' || tag[p + 1] == '\'')) {
      const char quote = tag[p + 1];
      const std::size_t end = tag.find(quote, p + 2);
      if (end == std::string_view::npos) return false;
      value = xml_unescape(tag.substr(p + 2, end - p - 2));
      return true;
    }
    pos = p;
  }
  return false;
}

}  // namespace

std::string xml_unescape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out += s[i];
      continue;
    }
    const std::size_t semi = s.find(';', i);
    if (semi == std::string_view::npos) {
      out += s[i];
      continue;
    }
    const std::string_view entity = s.substr(i + 1, semi - i - 1);
    if (entity == "amp") {
      out += '&';
    } else if (entity == "lt") {
      out += '<';
    } else if (entity == "gt") {
      out += '>';
    } else if (entity == "quot") {
      out += '"';
    } else if (entity == "apos") {
      out += '\'';
    } else if (entity.size() > 1 && entity[0] == '#') {
      const bool hex = entity[1] == 'x' || entity[1] == 'X';
      const std::string digits(entity.substr(hex ? 2 : 1));
      append_utf8(out, std::strtoul(digits.c_str(), nullptr, hex ? 16 : 10));
    } else {
      out += s.substr(i, semi - i + 1);
    }
    i = semi;
  }
  return out;
}

JunitReport parse_junit(std::string_view xml) {
  JunitReport report;
  if (xml.find("<testsuite") == std::string_view::npos) {
    report.error = "não parece um relatório JUnit (falta <testsuite>)";
    return report;
  }
  // O texto dos testes (system-out) vem escapado, então "<testcase" só
  // aparece como tag de verdade.
  std::size_t pos = 0;
  while ((pos = xml.find("<testcase", pos)) != std::string_view::npos) {
    const std::size_t end = xml.find('>', pos);
    if (end == std::string_view::npos) {
      report.error = "relatório JUnit truncado";
      return report;
    }
    const std::string_view tag = xml.substr(pos, end - pos);
    std::string name;
    std::string status;
    if (!attribute(tag, "name", name)) {
      report.error = "<testcase> sem atributo name";
      return report;
    }
    attribute(tag, "status", status);
    // Sem status (outros geradores de JUnit): falha ou skip como filho da tag.
    const std::size_t close = xml.find("</testcase>", end);
    const bool self_closed = tag.size() > 0 && tag.back() == '/';
    const std::string_view inner = self_closed || close == std::string_view::npos
                                       ? std::string_view()
                                       : xml.substr(end, close - end);
    TestStatus st = TestStatus::passed;
    if (status == "fail" || inner.find("<failure") != std::string_view::npos ||
        inner.find("<error") != std::string_view::npos) {
      st = TestStatus::failed;
    } else if (status == "notrun" || status == "disabled" ||
               inner.find("<skipped") != std::string_view::npos) {
      st = TestStatus::not_run;
    } else if (!status.empty() && status != "run") {
      st = TestStatus::failed;
    }
    std::string output;
    const std::size_t out_open = inner.find("<system-out>");
    if (out_open != std::string_view::npos) {
      const std::size_t from = out_open + std::string_view("<system-out>").size();
      const std::size_t out_close = inner.find("</system-out>", from);
      output = xml_unescape(inner.substr(
          from, out_close == std::string_view::npos ? std::string_view::npos : out_close - from));
    }
    report.tests.push_back({std::move(name), st, std::move(output)});
    pos = end;
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
