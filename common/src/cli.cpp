#include "hz/cli.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <utility>

#include "hz/version.hpp"

namespace hz {

namespace {

// Aceita o nome com ou sem "--" na declaração e na consulta.
std::string bare(std::string name) {
  while (!name.empty() && name.front() == '-') name.erase(name.begin());
  return name;
}

template <class Number>
bool parse_number(const std::string& text, Number* out) {
  Number value{};
  const char* first = text.data();
  const char* last = first + text.size();
  const auto [end, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || end != last || text.empty()) return false;
  if constexpr (std::is_floating_point_v<Number>) {
    if (!std::isfinite(value)) return false;
  }
  *out = value;
  return true;
}

}  // namespace

FlagParser::FlagParser(std::string program, std::string summary)
    : program_(std::move(program)), summary_(std::move(summary)) {}

void FlagParser::add_string(std::string name, std::string* target, std::string help,
                            std::string metavar) {
  flags_.push_back({bare(std::move(name)), std::move(metavar), std::move(help),
                    [target](const std::string& value) {
                      *target = value;
                      return true;
                    }});
}

void FlagParser::add_int(std::string name, int* target, std::string help, std::string metavar) {
  flags_.push_back({bare(std::move(name)), std::move(metavar), std::move(help),
                    [target](const std::string& value) { return parse_number(value, target); },
                    "um número inteiro"});
}

void FlagParser::add_double(std::string name, double* target, std::string help,
                            std::string metavar) {
  flags_.push_back({bare(std::move(name)), std::move(metavar), std::move(help),
                    [target](const std::string& value) { return parse_number(value, target); },
                    "um número"});
}

void FlagParser::add_bool(std::string name, bool* target, std::string help) {
  flags_.push_back({bare(std::move(name)), "", std::move(help), [target](const std::string&) {
                      *target = true;
                      return true;
                    }});
}

void FlagParser::add_positionals(std::vector<std::string>* target) { positionals_ = target; }

void FlagParser::disable_help() { help_ = false; }

Result<bool, FlagError> FlagParser::parse(const std::vector<std::string>& args) {
  std::vector<const char*> argv{program_.c_str()};
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  return parse(static_cast<int>(argv.size()), argv.data());
}

Result<bool, FlagError> FlagParser::parse(int argc, const char* const* argv) {
  using Kind = FlagError::Kind;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (help_ && (arg == "--help" || arg == "-h")) return true;
    if (help_ && arg == "--version") {
      version_ = true;
      return true;
    }
    if (positionals_ != nullptr && (arg == "-" || arg.empty() || arg.front() != '-')) {
      positionals_->push_back(arg);
      continue;
    }
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) {
      return FlagError{
          Kind::unexpected_argument, "", arg,
          "argumento inesperado: \"" + arg + "\" (as flags começam com --; veja --help)"};
    }
    const auto equals = arg.find('=');
    const std::string name =
        arg.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
    const auto flag =
        std::find_if(flags_.begin(), flags_.end(), [&](const Flag& f) { return f.name == name; });
    if (flag == flags_.end()) {
      return FlagError{Kind::unknown_flag, name, "", "flag desconhecida: --" + name};
    }

    std::string value;
    if (flag->metavar.empty()) {
      if (equals != std::string::npos) {
        return FlagError{Kind::value_not_allowed, name, arg.substr(equals + 1),
                         "--" + name + " não aceita valor"};
      }
    } else if (equals != std::string::npos) {
      value = arg.substr(equals + 1);
    } else if (i + 1 < argc && std::string_view(argv[i + 1]).rfind("--", 0) != 0) {
      value = argv[++i];
    } else {
      return FlagError{Kind::missing_value, name, "",
                       "--" + name + " precisa de um valor (--" + name + " " + flag->metavar + ")"};
    }

    if (!flag->set(value)) {
      return FlagError{Kind::bad_value, name, value,
                       "--" + name + " espera " + flag->expects + ", recebeu \"" + value + "\""};
    }
    if (!seen(name)) seen_.push_back(name);
  }
  return false;
}

bool FlagParser::seen(const std::string& name) const {
  const std::string wanted = bare(name);
  return std::find(seen_.begin(), seen_.end(), wanted) != seen_.end();
}

void FlagParser::set_epilog(std::string text) { epilog_ = std::move(text); }

std::string FlagParser::answer() const { return version_ ? version_line(program_) : usage(); }

std::string FlagParser::usage() const {
  std::vector<std::pair<std::string, std::string>> rows;
  for (const Flag& flag : flags_) {
    rows.emplace_back("--" + flag.name + (flag.metavar.empty() ? "" : " " + flag.metavar),
                      flag.help);
  }
  rows.emplace_back("--help", "mostra esta ajuda e sai");
  rows.emplace_back("--version", "mostra a versão e sai");
  std::size_t width = 0;
  for (const auto& row : rows) width = std::max(width, row.first.size());

  std::string out = "uso: " + program_ + " [flags]\n";
  if (!summary_.empty()) out += "\n" + summary_ + "\n";
  out += "\nflags:\n";
  for (const auto& [left, help] : rows) {
    out += "  " + left + std::string(width - left.size() + 2, ' ') + help + "\n";
  }
  if (!epilog_.empty()) out += "\n" + epilog_;
  return out;
}

}  // namespace hz
