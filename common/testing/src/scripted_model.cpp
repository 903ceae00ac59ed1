#include "hz/testing/scripted_model.hpp"

#include <stdexcept>
#include <utility>

#include "hz/mock/embedded.hpp"

namespace hz::testing {

namespace {

hz::mock::Scenario must(hz::Result<hz::mock::Scenario> scenario) {
  if (!scenario) {
    throw std::runtime_error("cenário inválido no teste: " + scenario.error().message);
  }
  return std::move(scenario).value();
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace

// Origem sem pasta: o parser resolve um "workspace" relativo contra a pasta
// dos cenários embutidos, como nos arquivos de mock-server/scenarios/.
ScriptedModel::ScriptedModel(std::string_view scenario_json)
    : ScriptedModel(must(hz::mock::parse_scenario(scenario_json, "cenário do teste"))) {}

ScriptedModel::ScriptedModel(hz::mock::Scenario scenario)
    : scenario_(std::make_unique<hz::mock::Scenario>(scenario)),
      server_(std::make_unique<hz::mock::MockServer>(std::move(scenario))) {
  auto port = server_->start("127.0.0.1", 0);
  if (!port) throw std::runtime_error("o mock não subiu: " + port.error().message);
  port_ = *port;
}

ScriptedModel ScriptedModel::from_scenario(std::string_view name_or_file) {
  auto file = hz::mock::find_scenario(name_or_file);
  if (!file) throw std::runtime_error("cenário não encontrado: " + file.error().message);
  return ScriptedModel(must(hz::mock::load_scenario(*file)));
}

ScriptedModel::ScriptedModel(ScriptedModel&&) noexcept = default;
ScriptedModel& ScriptedModel::operator=(ScriptedModel&&) noexcept = default;
ScriptedModel::~ScriptedModel() = default;

std::string ScriptedModel::base_url() const { return server_->base_url(); }

hz::EndpointConfig ScriptedModel::endpoint() const {
  hz::EndpointConfig config;
  config.base_url = base_url();
  config.http.connect_timeout = std::chrono::seconds(2);
  config.http.timeout = std::chrono::seconds(10);
  return config;
}

std::vector<hz::mock::RecordedRequest> ScriptedModel::requests() const {
  return server_->requests();
}

std::vector<std::string> ScriptedModel::failures() const { return server_->failures(); }

std::vector<nlohmann::json> ScriptedModel::request_bodies() const {
  std::vector<nlohmann::json> bodies;
  for (const auto& request : server_->requests()) {
    if (request.method == "POST" && ends_with(request.path, "/chat/completions")) {
      bodies.push_back(request.body);
    }
  }
  return bodies;
}

}  // namespace hz::testing
