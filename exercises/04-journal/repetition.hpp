// O detector de repetição: a segunda defesa do turno.
//
// O limite de chamadas ao modelo mede duração, não progresso: 63 chamadas
// idênticas cabem folgadas num limite de 100. O detector mede falta de
// progresso: a mesma chamada, com os mesmos argumentos, recebendo de volta o
// mesmo resultado, de novo e de novo, sozinha ou num ciclo.
//
// O vocabulário, na ordem em que o detector decide:
//   - a chave de uma chamada (call_key): um número de 64 bits que é o mesmo
//     para chamadas iguais (o mesmo nome, os mesmos argumentos na forma
//     canônica de canonical_json.hpp) e diferente para as outras;
//   - uma observação (Observation): a chave, o hash do texto que o modelo
//     recebeu de volta e se a ferramenta deu certo;
//   - a janela: as últimas W observações do turno, a atual incluída
//     (RepetitionConfig::window, padrão 5);
//   - lento ou travado (compare_with_last): a última observação anterior da
//     janela com a mesma chave teve o mesmo resultado? Então é uma repetição.
//     Resultado diferente é progresso (a sondagem de um build lento, um arquivo
//     que está mudando) e não conta;
//   - travada por contagem: uma repetição cuja (chave, resultado) aparece T
//     vezes na janela (RepetitionConfig::threshold, padrão 3). Três chamadas
//     idênticas que falham com o mesmo erro, em seguida, travam assim;
//   - travada por ciclo (cycle_period): as últimas 2p observações são o mesmo
//     período de p chamadas duas vezes, com os mesmos resultados, para p = 2
//     ou 3 (A-B-A-B, A-B-C-A-B-C), e o período não é uma chamada só. O ciclo
//     olha as últimas 2p observações do turno, qualquer que seja W;
//   - dois avisos (strikes): a primeira observação travada do turno pede um
//     aviso ao modelo (Action::warn: nudge_text, anexado ao resultado da
//     chamada repetida); a próxima, num passo posterior, encerra o turno
//     (Action::stop). O aviso não decai: depois dele, qualquer travamento no
//     mesmo turno encerra.
// Ferramentas isentas (RepetitionConfig::exempt, um "wait", por exemplo) não
// entram na janela. Uma mensagem nova do usuário começa outro turno: reset().
//
// A técnica é prática observada no código de harnesses (gemini-cli, OpenHands,
// goose, Roo Code, Cline), cada um com seus números; nenhum fornecedor a
// normatiza.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hz/result.hpp"
#include "hz/wire.hpp"

namespace hz {

// listing: fnv1a
// FNV-1a de 64 bits: o mesmo número em qualquer plataforma e em qualquer
// execução (std::hash não promete nenhum dos dois). `hash` continua uma conta
// já começada: fnv1a_64("ab") == fnv1a_64("b", fnv1a_64("a")).
inline constexpr std::uint64_t kFnvOffsetBasis = 14695981039346656037ULL;  // 0xcbf29ce484222325
inline constexpr std::uint64_t kFnvPrime = 1099511628211ULL;               // 0x100000001b3

std::uint64_t fnv1a_64(std::string_view bytes, std::uint64_t hash = kFnvOffsetBasis);
// end-listing: fnv1a

// listing: call-key
// A chave de uma chamada, um fnv1a_64 (o mesmo em qualquer plataforma e
// execução): a mesma para o mesmo nome com argumentos iguais; outra, salvo
// colisão do hash, para qualquer outra chamada. Argumentos iguais são:
//   - JSON com o mesmo canonical_json (ordem das chaves, espaços, 1 ou 1.0);
//   - vazios ou só espaços, que valem {}, como no despacho;
//   - texto que não é JSON, ou com mais de kMaxCanonicalDepth níveis: só o
//     mesmo texto, byte a byte.
// Nome e argumentos não se misturam: ("f{", "}") não é ("f", "{}"). O id
// não entra. Não lança, e nenhum texto estoura a pilha.
std::uint64_t call_key(const ToolCall& call);
// end-listing: call-key

// listing: observation
// Uma chamada de ferramenta já respondida, do jeito que o detector a vê.
struct Observation {
  std::uint64_t key = 0;          // call_key
  std::uint64_t result_hash = 0;  // fnv1a_64 do texto que o modelo recebeu de volta
  bool ok = true;                 // a ferramenta deu certo (false: o texto é um erro)
  std::string name{};             // nome da ferramenta: isenções e o texto do aviso
  std::string call_id{};          // para o trace
  // A chamada ao modelo, no turno (1, 2, ...), que pediu esta tool call.
  // Tool calls paralelas de uma resposta têm o mesmo step. O detector só para
  // o turno num step posterior ao do aviso: quem observa precisa numerar os
  // steps (com todos iguais, ele avisaria e nunca pararia).
  int step = 0;

  bool operator==(const Observation&) const = default;
};

// A observação de `call`, respondida com `result_text` (o conteúdo da
// mensagem tool, sem aviso nenhum anexado).
Observation observation_of(const ToolCall& call, std::string_view result_text, bool ok, int step);

// A mesma chave e o mesmo resultado.
bool same_call_and_result(const Observation& a, const Observation& b);
// end-listing: observation

// listing: verdict
// Como uma observação foi classificada. Os rótulos de to_string vão para o
// trace: "new", "progress", "repeat", "cycle", "exempt".
enum class Repetition {
  fresh,     // a chave não está na janela
  progress,  // a chave está, mas o resultado mudou desde a última vez
  repeat,    // a chave está e o resultado é o mesmo da última vez
  cycle,     // fecha um ciclo (veja cycle_period)
  exempt,    // ferramenta isenta: não foi contada
};
std::string_view to_string(Repetition kind);

// O que o turno deve fazer por causa desta observação: "none", "warn", "stop".
enum class Action { none, warn, stop };
std::string_view to_string(Action action);

struct Verdict {
  Repetition kind = Repetition::fresh;
  // Quantas observações da janela têm esta chave e este resultado, esta
  // incluída (1 para a primeira; 0 para uma isenta).
  int count = 1;
  bool stuck = false;  // travada: repeat com count >= threshold, ou cycle
  Action action = Action::none;
  int period = 0;                    // cycle: 2 ou 3
  std::vector<std::string> cycle{};  // cycle: os nomes de um período, em ordem
  std::string name{};                // a ferramenta desta observação
  bool ok = true;                    // se ela deu certo

  bool operator==(const Verdict&) const = default;
};
// end-listing: verdict

// listing: repetition-config
inline constexpr int kMaxRepetitionWindow = 100;
inline constexpr int kMaxCyclePeriod = 3;

struct RepetitionConfig {
  int window = 5;                     // W, --repetition-window: 2 a kMaxRepetitionWindow
  int threshold = 3;                  // T, --repetition-threshold: 2 a W
  std::vector<std::string> exempt{};  // --repetition-exempt: ferramentas que não contam
};

// O próprio config, ou um Error em português que cita a flag e o valor.
Result<RepetitionConfig> check_repetition_config(RepetitionConfig config);
// end-listing: repetition-config

// listing: compare-with-last
// Lento ou travado: procura em `earlier` (a janela antes de `now`, da mais
// antiga para a mais nova) a última observação com a chave de `now`. Não
// achou: fresh. Achou com o mesmo resultado: repeat. Com outro: progress.
Repetition compare_with_last(std::span<const Observation> earlier, const Observation& now);
// end-listing: compare-with-last

// listing: cycle-period
// O período p (2 ou 3, o menor que servir) se as últimas 2p observações de
// `history` (a atual é a última) forem p observações seguidas das mesmas p,
// na mesma ordem, com os mesmos resultados (same_call_and_result), e as p
// não forem todas iguais entre si (isso é repetição, não ciclo). Senão, 0.
// Uma sondagem que alterna entre duas respostas exatas também fecha um ciclo.
int cycle_period(std::span<const Observation> history);
// end-listing: cycle-period

// listing: nudge
// O aviso para o modelo, em português, para um veredito travado (stuck) do
// tipo repeat ou cycle; qualquer outro veredito dá "". Uma linha só, que
// começa por kNudgeMark e termina com kNudgeAdvice; o meio, com as suas
// palavras, diz o que o modelo repetiu:
//   - repeat: o nome da ferramenta, quantas vezes (count) e se voltou sempre
//     o mesmo resultado ou sempre o mesmo erro (ok): os dois avisos diferem;
//   - cycle: quantas chamadas as duas voltas da sequência ocuparam e os
//     nomes de uma volta, na ordem (cycle).
std::string nudge_text(const Verdict& verdict);

// O começo de todo aviso: quem lê o histórico sabe que o texto não veio
// da ferramenta.
inline constexpr std::string_view kNudgeMark = "[aviso do harness] ";
// O fim de todo aviso: o que fazer, e o que acontece se o modelo não fizer
// (ele não sabe que há um segundo aviso).
inline constexpr std::string_view kNudgeAdvice =
    "Mude de abordagem (outros argumentos, outra ferramenta) ou, se não houver como avançar, "
    "pare e explique ao usuário o que tentou e onde travou. Se repetir, o turno será encerrado.";

// Anexa nudge_text(verdict) ao conteúdo da mensagem tool da chamada repetida,
// depois de uma linha em branco. Não muda o papel nem o tool_call_id: o aviso
// vai no resultado, e não numa mensagem nova de usuário ou de sistema, que
// começaria outro turno (e zeraria a janela) ou quebraria templates de chat
// que não aceitam system no meio da conversa. Com "" não muda nada.
void append_nudge(Message& tool_message, const Verdict& verdict);
// end-listing: nudge

// listing: detector
// O detector de um turno. Guarda as últimas max(W, 2 * kMaxCyclePeriod)
// observações não isentas e os avisos dados.
class RepetitionDetector {
 public:
  // Lança std::invalid_argument se check_repetition_config recusar o config
  // (um erro de inicialização: as flags já deveriam ter sido conferidas).
  explicit RepetitionDetector(RepetitionConfig config = {});

  // O veredito de `now`, que passa a ser a última de history(). Isenta:
  // kind exempt, count 0, e history() não muda. Senão, sendo a janela as W
  // observações mais recentes do turno, `now` incluída:
  //   - kind: a regra de compare_with_last para `now` na janela, ou cycle;
  //   - count: quantas da janela têm a chave e o resultado de `now`;
  //   - stuck: repeat com count >= threshold; senão, um ciclo
  //     (cycle_period) que termina em `now`: kind cycle, period e cycle (os
  //     nomes do período, do mais antigo a `now`);
  //   - action: none se não travou. Travada: o primeiro aviso do turno é
  //     warn; depois, stop, mas só num step posterior ao do aviso (o modelo
  //     precisa ter lido o aviso; no mesmo step, none).
  Verdict observe(const Observation& now);

  // Um turno novo (mensagem do usuário): esquece a janela e os avisos.
  void reset();

  int strikes() const { return strikes_; }  // 0, 1 (avisado) ou 2 (parado)
  const RepetitionConfig& config() const { return config_; }
  std::span<const Observation> history() const { return history_; }

 private:
  bool is_exempt(std::string_view name) const;
  void remember(const Observation& now);
  Action strike(int step);

  RepetitionConfig config_;
  std::vector<Observation> history_;  // da mais antiga para a mais nova
  int strikes_ = 0;
  int warned_step_ = 0;
};
// end-listing: detector

}  // namespace hz
