#include "hz/stage/session.hpp"

#include <cstdlib>
#include <iostream>
#include <system_error>
#include <utility>

#include "hz/mock/embedded.hpp"
#include "hz/mock/scenario.hpp"
#include "hz/terminal.hpp"
#include "hz/text.hpp"

namespace hz::stage {
namespace {

std::string from_env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

SetupError usage(std::string message) { return SetupError{2, std::move(message)}; }

// Um workspace dado pela pessoa é usado como está: precisa existir.
Result<std::filesystem::path, SetupError> given_workspace(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return usage("--workspace " + dir + ": não é uma pasta que existe");
  }
  return std::filesystem::canonical(dir, ec);
}

Result<mock::Scenario, SetupError> load(const std::string& name_or_file) {
  auto path = mock::find_scenario(name_or_file);
  if (!path) return usage(path.error().message);
  auto scenario = mock::load_scenario(*path);
  if (!scenario) return usage("cenário inválido: " + scenario.error().message);
  return std::move(scenario).value();
}

// Sem endpoint real, um modelo precisa de nome; com um, o servidor decide
// quais existem, e dizer quais ajuda mais que só reclamar.
SetupError missing_model(OpenAiClient& client, const std::string& base_url) {
  std::string message = "falta --model (qual modelo pedir a " + base_url + ")";
  auto models = client.list_models();
  if (models && !models->empty()) {
    message += "; o servidor anuncia:";
    for (const auto& id : *models) message += " " + id;
  }
  return usage(message);
}

}  // namespace

std::vector<std::string> Session::mock_failures() const {
  std::vector<std::string> lines = mock ? mock->failures() : std::vector<std::string>{};
  for (std::string& line : lines) line = printable(line);
  return lines;
}

Result<Session, SetupError> open_session(const CommonFlags& flags,
                                         std::string_view default_scenario,
                                         const HttpOptions& http) {
  if (flags.context_window < 0) return usage("--context-window precisa ser 0 ou mais");
  Session session;
  std::string base_url = flags.base_url;
  if (base_url.empty() && flags.scenario.empty()) base_url = from_env("OPENAI_BASE_URL");
  session.scripted = base_url.empty();

  std::optional<mock::Scenario> scenario;
  if (!flags.scenario.empty() || session.scripted) {
    auto loaded = load(flags.scenario.empty() ? std::string(default_scenario) : flags.scenario);
    if (!loaded) return loaded.error();
    scenario = std::move(loaded).value();
    session.scenario_name = scenario->name;
    session.scenario_prompt = scenario->prompt;
  }

  if (!flags.workspace.empty()) {
    auto dir = given_workspace(flags.workspace);
    if (!dir) return dir.error();
    session.workspace = *dir;
  } else if (scenario) {
    auto copy = mock::copy_fixture_to_temp(*scenario);
    if (!copy) return SetupError{1, "não consegui copiar a fixture: " + copy.error().message};
    session.workspace = *copy;
    session.temporary = TemporaryWorkspace(*copy, flags.keep_workspace);
  } else {
    session.workspace = std::filesystem::current_path();
  }

  EndpointConfig endpoint;
  endpoint.http = http;
  if (session.scripted) {
    session.model_name = flags.model.empty() ? scenario->model : flags.model;
    session.mock = std::make_unique<mock::MockServer>(*scenario);
    auto port = session.mock->start("127.0.0.1", 0);
    if (!port) return SetupError{1, "não consegui subir o mock embutido: " + port.error().message};
    endpoint.base_url = session.mock->base_url();
  } else {
    endpoint.base_url = base_url;
    endpoint.api_key = flags.api_key.empty() ? from_env("OPENAI_API_KEY") : flags.api_key;
  }
  session.base_url = endpoint.base_url;
  session.client = std::make_unique<OpenAiClient>(endpoint);
  if (!session.scripted) {
    if (flags.model.empty()) return missing_model(*session.client, session.base_url);
    session.model_name = flags.model;
  }
  return session;
}

Result<std::unique_ptr<Trace>, SetupError> open_trace(const std::string& jsonl_path) {
  TraceOptions options;
  options.human = &std::cerr;
  options.color = wants_color(2);
  options.warnings = &std::cerr;
  if (!jsonl_path.empty()) options.jsonl_path = jsonl_path;
  try {
    return std::make_unique<Trace>(options);
  } catch (const std::exception& error) {
    return usage(std::string("--trace: ") + error.what());
  }
}

TemporaryWorkspace::TemporaryWorkspace(std::filesystem::path dir, bool keep)
    : dir_(std::move(dir)), kept_(keep) {}

TemporaryWorkspace::TemporaryWorkspace(TemporaryWorkspace&& other) noexcept
    : dir_(std::exchange(other.dir_, {})), kept_(other.kept_) {}

TemporaryWorkspace& TemporaryWorkspace::operator=(TemporaryWorkspace&& other) noexcept {
  if (this != &other) {
    remove();
    dir_ = std::exchange(other.dir_, {});
    kept_ = other.kept_;
  }
  return *this;
}

TemporaryWorkspace::~TemporaryWorkspace() { remove(); }

void TemporaryWorkspace::remove() noexcept {
  if (dir_.empty() || kept_) return;
  std::error_code ignored;  // uma pasta que não dá para apagar não derruba o fim da etapa
  std::filesystem::remove_all(dir_, ignored);
  dir_.clear();
}

std::string describe(const Session& session) {
  std::string text;
  if (session.scripted) {
    text += "modelo: roteirizado, cenário " + session.scenario_name + " (mock embutido em " +
            session.base_url + ")\n";
  } else {
    text += "modelo: " + session.model_name + " em " + session.base_url + "\n";
    if (!session.scenario_name.empty()) {
      text += "cenário: " + session.scenario_name + " (só a pasta de trabalho e o pedido)\n";
    }
  }
  text += "workspace: " + session.workspace.string();
  if (session.temporary.temporary()) {
    text += session.temporary.kept()
                ? " (cópia temporária do cenário; fica depois do fim)"
                : " (cópia temporária do cenário, apagada no fim; --keep-workspace a guarda)";
  }
  text += "\n";
  return printable(text);  // nomes de cenário e de modelo vêm de arquivos JSON
}

int closing_code(std::ostream& err, std::string_view program, const Session& session,
                 bool answer_lost, bool trace_failed, int code) {
  for (const std::string& failure : session.mock_failures()) {
    err << program << ": o mock registrou: " << failure << "\n";
  }
  // Uma resposta que não chegou ao stdout, ou um trace pedido que ficou
  // incompleto, não pode terminar como sucesso.
  if (answer_lost) {
    err << program << ": não foi possível escrever a resposta na saída padrão\n";
    code = 1;
  }
  if (trace_failed && code == 0) code = 1;
  return code;
}

}  // namespace hz::stage
