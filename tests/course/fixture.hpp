#pragma once

// Ajudantes dos testes do hz-course: uma árvore de arquivos numa pasta
// temporária que se apaga, e `run` do hz-course com a saída capturada.

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hz/course/cli.hpp"
#include "hz/course/lines.hpp"

namespace hz::course::test {

class Tree {
 public:
  Tree() {
    std::string pattern = (std::filesystem::temp_directory_path() / "hz-course-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp falhou");
    root_ = pattern;
  }
  ~Tree() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  Tree(const Tree&) = delete;
  Tree& operator=(const Tree&) = delete;

  const std::filesystem::path& root() const { return root_; }

  void write(const std::string& rel, const std::string& content) const {
    const std::filesystem::path p = root_ / rel;
    std::filesystem::create_directories(p.parent_path());
    if (!write_file(p, content)) throw std::runtime_error("não consegui escrever " + rel);
  }

  std::string read(const std::string& rel) const {
    const auto text = read_file(root_ / rel);
    return text ? *text : std::string("<não existe>");
  }

  bool exists(const std::string& rel) const { return std::filesystem::exists(root_ / rel); }

 private:
  std::filesystem::path root_;
};

struct Run {
  int code;
  std::string out;
  std::string err;
};

inline Run run_course(std::vector<std::string> args) {
  std::ostringstream out;
  std::ostringstream err;
  const int code = run(args, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace hz::course::test
