// O modelo roteirizado dentro do processo do teste.
//
// Sobe um hz::mock::MockServer em 127.0.0.1, porta efêmera, a partir de um
// cenário (texto JSON ou nome/arquivo) e o para no destrutor. Um cenário
// inválido é bug do teste: o construtor lança std::runtime_error com a
// mensagem do parser.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "hz/chat_client.hpp"
#include "hz/mock/mock_server.hpp"
#include "hz/mock/scenario.hpp"

namespace hz::testing {

// O menor pedido de chat: o modelo "hz-mock" e um "oi" do usuário.
inline ChatRequest hello_request() {
  ChatRequest request;
  request.model = "hz-mock";
  request.messages = {Message::user("oi")};
  return request;
}

class ScriptedModel {
 public:
  // scenario_json: o texto de um cenário, como num arquivo de mock-server/scenarios/.
  // Um "workspace" relativo é resolvido contra mock-server/scenarios/.
  explicit ScriptedModel(std::string_view scenario_json);
  explicit ScriptedModel(hz::mock::Scenario scenario);
  // Um nome ("monday": mock-server/scenarios/monday.json) ou o caminho de um
  // arquivo .json, como em hz::mock::find_scenario.
  static ScriptedModel from_scenario(std::string_view name_or_file);

  ScriptedModel(ScriptedModel&&) noexcept;
  ScriptedModel& operator=(ScriptedModel&&) noexcept;
  ~ScriptedModel();

  std::string base_url() const;  // "http://127.0.0.1:PORTA/v1"
  int port() const { return port_; }
  // base_url, sem chave, timeouts curtos (conexão 2 s, pedido 10 s) para um
  // teste que trave falhar em vez de pendurar a suíte.
  hz::EndpointConfig endpoint() const;

  const hz::mock::Scenario& scenario() const { return *scenario_; }
  hz::mock::MockServer& server() { return *server_; }

  std::vector<hz::mock::RecordedRequest> requests() const;
  std::vector<std::string> failures() const;
  // Os corpos JSON dos POST .../chat/completions, em ordem.
  std::vector<nlohmann::json> request_bodies() const;

 private:
  std::unique_ptr<hz::mock::Scenario> scenario_;
  std::unique_ptr<hz::mock::MockServer> server_;
  int port_ = 0;
};

}  // namespace hz::testing
