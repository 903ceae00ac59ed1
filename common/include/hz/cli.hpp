// Um leitor de flags pequeno, para as etapas declararem as suas.
//
// Aceita "--nome valor" e "--nome=valor"; flags booleanas não levam valor.
// Erros de uso voltam como Error com mensagem em português (o main sai com 2).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "hz/result.hpp"

namespace hz {

class FlagParser {
 public:
  FlagParser(std::string program, std::string summary);

  void add_string(std::string name, std::string* target, std::string help,
                  std::string metavar = "TEXTO");
  void add_int(std::string name, int* target, std::string help, std::string metavar = "N");
  void add_double(std::string name, double* target, std::string help, std::string metavar = "X");
  void add_bool(std::string name, bool* target, std::string help);

  // Verdadeiro se --help ou --version foi pedido (o main imprime answer() e
  // sai com 0). Cada flag vista fica em seen().
  Result<bool> parse(int argc, const char* const* argv);
  // O que --help ou --version pediu: usage(), ou a linha da versão
  // ("hz-01-loop (harness-zero X.Y.Z)").
  std::string answer() const;
  bool seen(const std::string& name) const;

  // Um texto que usage() mostra depois das flags (por exemplo, os códigos de
  // saída), como está.
  void set_epilog(std::string text);

  std::string usage() const;

 private:
  struct Flag {
    std::string name;
    std::string metavar;  // vazio: booleana
    std::string help;
    std::function<bool(const std::string&)> set;  // false: valor inválido
    const char* expects = "";  // para a mensagem de valor inválido: "um número inteiro"
  };
  std::string program_;
  std::string summary_;
  std::string epilog_;
  std::vector<Flag> flags_;
  std::vector<std::string> seen_;
  bool version_ = false;
};

}  // namespace hz
