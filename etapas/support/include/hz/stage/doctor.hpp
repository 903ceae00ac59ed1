// hz-doctor: confere se um servidor compatível com OpenAI tem o que o curso
// precisa e diz, em português, o que mudar.
//
// As conferências, em ordem, cada uma numa linha com uma marca: "✓" deu certo,
// "✗" impede o curso (uma obrigatória falhou, ou o streaming falha de um jeito
// que o harness não contorna: a linha diz a flag), "!" não impede mas pede uma
// ação (a janela de contexto pequena), "~" o harness contorna sozinho, "?" não
// deu para conferir:
//   servidor                  GET /models responde (obrigatória)
//   modelo                    o modelo está na lista (obrigatória)
//   chat                      um pedido simples recebe resposta (obrigatória)
//   ferramentas               com uma ferramenta oferecida, o modelo a chama com
//                             argumentos JSON válidos (obrigatória)
//   resultado de ferramenta   com o resultado no histórico, o modelo responde
//                             (obrigatória)
//   streaming                 o texto chega em pedaços (SSE)
//   stream_options            o servidor aceita "stream_options"
//   uso no streaming          include_usage é respeitado
//   streaming com ferramentas as tool calls chegam em pedaços
//   uso de tokens             as respostas trazem "usage"
//   janela de contexto        quantos tokens cabem (veja context_window.hpp)
// As não obrigatórias falham sem impedir o curso: o harness contorna (refaz
// sem streaming, estima) e a linha diz como; ou o usuário age ("!"), e a linha
// diz o quê. Um streaming que falha sem ser recusado (um 500, um corpo
// quebrado) é obrigatório: o harness só refaz sem streaming uma recusa (400) e,
// com um 5xx, tenta de novo e para, então a linha manda usar --no-stream. Depois de uma obrigatória
// que falha de um jeito que torna as próximas inúteis (servidor fora do ar, modelo inexistente), o
// doctor para.
//
// Texto vindo do servidor passa por hz::printable antes de chegar à saída.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "hz/http.hpp"
#include "hz/stage/context_window.hpp"

namespace hz::stage {

struct DoctorConfig {
  std::string base_url;  // ex.: http://localhost:11434/v1
  std::string model;
  std::string api_key;  // vazio: sem Authorization
  HttpOptions http;     // tempos de cada pedido (um modelo grande demora a carregar)
  bool color = false;   // ✓ ✗ ? coloridos
};

// problem: "✗" se a conferência é obrigatória, "~" (o harness contorna) se não.
// to_do: "!", não impede o curso, mas o usuário precisa agir.
enum class Verdict { ok, problem, to_do, unknown };

struct Check {
  Verdict verdict = Verdict::unknown;
  bool required = false;
  std::string name;  // "ferramentas"
  std::string text;  // a explicação e, num problema, o que fazer
};

// A janela mínima que o doctor recomenda (tokens): o histórico de um agente
// passa de 4096 em poucas voltas.
inline constexpr long kRecommendedContext = 16384;

// "✓ nome: texto" (com cor, se pedida).
std::string check_line(const Check& check, bool color);

// A conferência da janela a partir do que se descobriu. ollama diz se o
// servidor é um Ollama (muda o conselho).
Check context_check(const ContextWindow& window, bool ollama);

// Verdadeiro se a resposta de GET /models tem a cara do Ollama (owned_by
// "library", como a API compatível do Ollama responde).
bool models_look_like_ollama(const std::string& body);

// Roda as conferências, escrevendo cada linha em out assim que sai (um modelo
// real leva segundos por pedido) e, no fim, uma linha de resumo.
std::vector<Check> run_doctor(const DoctorConfig& config, std::ostream& out);

// 0 se nenhuma conferência obrigatória falhou; senão 1.
int doctor_exit_code(const std::vector<Check>& checks);

}  // namespace hz::stage
