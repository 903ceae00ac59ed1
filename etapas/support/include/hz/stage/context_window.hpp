// A janela de contexto de um modelo: quantos tokens um pedido pode ter.
//
// A API compatível com OpenAI não diz isso. Alguns servidores dizem por
// outros caminhos, e é deles que isto lê:
// - Ollama: GET /api/ps traz o context_length que o servidor alocou para cada
//   modelo carregado (a janela que vale); POST /api/show traz o num_ctx do
//   Modelfile, se houver, e o máximo do modelo (<arquitetura>.context_length);
// - vLLM: GET /v1/models traz max_model_len em cada modelo; outros servidores
//   usam context_length, context_window ou loaded_context_length.
// Nada aqui lança por causa do que veio da rede: o que não dá para ler é 0
// (desconhecido).
#pragma once

#include <string>
#include <string_view>

#include "hz/http.hpp"

namespace hz::stage {

struct ContextWindow {
  long tokens = 0;     // a janela que vale nos pedidos; 0: desconhecida
  long model_max = 0;  // o máximo que o modelo aceitaria; 0: desconhecido
  std::string source;  // de onde veio, para mostrar ("Ollama, /api/ps")
};

// A raiz do servidor: a URL base sem a barra final e sem o "/v1" do fim
// (as APIs nativas do Ollama moram em /api, não em /v1/api).
std::string server_root(std::string_view base_url);

// O context_length do modelo carregado, lido do corpo de GET /api/ps; 0 se o
// modelo não está carregado ou o corpo não dá para ler. "qwen3" casa com
// "qwen3:latest", como no Ollama.
long context_from_ollama_ps(std::string_view body, std::string_view model);

// Lido do corpo de POST /api/show: tokens é o num_ctx de "parameters" (0 sem
// ele: vale o padrão do servidor, que /api/show não informa); model_max é o
// <arquitetura>.context_length de "model_info".
ContextWindow context_from_ollama_show(std::string_view body);

// A janela que GET /models anuncia para o modelo (max_model_len,
// loaded_context_length, context_length ou context_window); 0 sem nenhum.
long context_from_models(std::string_view body, std::string_view model);

// O servidor se diz um Ollama: GET /api/version (na raiz, sem o /v1) responde
// 200 com {"version": "..."}. Não se adivinha pela URL: um Ollama pode estar
// em qualquer porta e com qualquer nome de host.
bool answers_as_ollama(HttpClient& http, std::string_view base_url);

// Pergunta a um Ollama: primeiro /api/ps (a janela que vale, se o modelo já
// está carregado), depois /api/show. Não confere se a URL parece de um
// Ollama: quem chama decide (answers_as_ollama).
ContextWindow ask_ollama(HttpClient& http, std::string_view base_url, std::string_view model);

// A janela que o servidor informa para o modelo: pergunta se ele é um Ollama
// (answers_as_ollama) e, se for, a janela que vale (ask_ollama); 0 para
// qualquer outro servidor ou sem resposta. É a descoberta do guarda de contexto.
long server_window(HttpClient& http, std::string_view base_url, std::string_view model);

}  // namespace hz::stage
