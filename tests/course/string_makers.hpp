#pragma once

// Como o doctest imprime listas e conjuntos nas falhas dos testes do curso:
// os dois lados legíveis, não "{?} == {?}".

#include <doctest/doctest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace hz::course::test {

template <typename Container>
doctest::String show_items(const Container& items) {
  std::ostringstream out;
  out << "{";
  bool first = true;
  for (const auto& item : items) {
    out << (first ? "" : ", ") << doctest::toString(item);
    first = false;
  }
  out << "}";
  return out.str().c_str();
}

}  // namespace hz::course::test

namespace doctest {

template <>
struct StringMaker<std::vector<std::string>> {
  static String convert(const std::vector<std::string>& v) {
    return hz::course::test::show_items(v);
  }
};

template <>
struct StringMaker<std::set<std::string>> {
  static String convert(const std::set<std::string>& v) { return hz::course::test::show_items(v); }
};

template <>
struct StringMaker<std::vector<long long>> {
  static String convert(const std::vector<long long>& v) { return hz::course::test::show_items(v); }
};

template <>
struct StringMaker<std::vector<std::vector<std::string>>> {
  static String convert(const std::vector<std::vector<std::string>>& v) {
    return hz::course::test::show_items(v);
  }
};

}  // namespace doctest
