// O leitor de flags de todo executável do curso: as etapas, o hz-mock e os
// subcomandos do hz-course.
//
// Aceita "--nome valor" e "--nome=valor"; flags booleanas não levam valor.
// Erros de uso voltam como FlagError, com a mensagem padrão em português (o
// main sai com 2) e o que houve, para quem escreve a mensagem com as próprias
// palavras.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "hz/result.hpp"

namespace hz {

// Por que argv foi recusado: o tipo, a flag (sem "--"; vazia num argumento
// inesperado), o argumento ou valor recusado e a mensagem padrão.
struct FlagError {
  enum class Kind {
    unexpected_argument,
    unknown_flag,
    value_not_allowed,
    missing_value,
    bad_value
  };
  Kind kind = Kind::unexpected_argument;
  std::string flag;
  std::string value;
  std::string message;
};

class FlagParser {
 public:
  FlagParser(std::string program, std::string summary);

  void add_string(std::string name, std::string* target, std::string help,
                  std::string metavar = "TEXTO");
  void add_int(std::string name, int* target, std::string help, std::string metavar = "N");
  void add_double(std::string name, double* target, std::string help, std::string metavar = "X");
  void add_bool(std::string name, bool* target, std::string help);

  // Os argumentos que não são flags ("ARQUIVO", ou "-" sozinho) vão para
  // target, na ordem; sem isto, cada um é erro (unexpected_argument).
  void add_positionals(std::vector<std::string>* target);
  // --help, -h e --version deixam de ser da casa: são argumentos como os
  // outros (o hz-course tem o próprio "help").
  void disable_help();

  // Verdadeiro se --help ou --version foi pedido (o main imprime answer() e
  // sai com 0). Cada flag vista fica em seen().
  Result<bool, FlagError> parse(int argc, const char* const* argv);
  // O mesmo, com os argumentos sem o nome do programa.
  Result<bool, FlagError> parse(const std::vector<std::string>& args);
  // Depois de um parse verdadeiro: foi --version (e não --help)?
  bool version_requested() const { return version_; }
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
  std::vector<std::string>* positionals_ = nullptr;
  bool help_ = true;
  bool version_ = false;
};

}  // namespace hz
