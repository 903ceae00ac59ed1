#include <iostream>
#include <string>
#include <vector>

#include "hz/course/cli.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return hz::course::run(args, std::cout, std::cerr);
}
