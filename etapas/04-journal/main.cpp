// hz-04-journal: o loop do agente com os freios da etapa 02, o detector de
// repetição da etapa 03 e o journal (capítulo 4) como um programa que roda.
//
// O mesmo chat da etapa 03, mais o journal: com --journal ARQUIVO, cada passo
// concluído (a mensagem do usuário, cada resposta do modelo, a intenção e o
// resultado de cada ferramenta, as notas, o fim do turno) é gravado e
// sincronizado antes de o seguinte começar; com --resume, a conversa volta
// do journal (histórico, gasto, chamadas do turno, pasta de trabalho) e o
// turno interrompido continua sem repetir o que já teve efeito. A ferramenta
// append_file (não idempotente) existe só nesta etapa. HZ_CRASH_AT, para os
// testes e para o demo do capítulo, mata o processo numa fronteira do journal
// (crash_point.hpp, aqui ao lado: o núcleo não sabe dele). O chat em volta
// do loop (sessão, freios, resposta ao vivo, código de saída) é o de
// etapas/shared/chat_driver.hpp, o mesmo das etapas 02 e 03.
//
// Um journal que não abre, em uso por outro harness, danificado no meio,
// vazio, ou configurações que contradizem as dele: mensagem e saída 2, com o
// arquivo intocado. Um registro que não pôde ser gravado no meio do turno:
// desfecho journal, mensagem com o nome do arquivo e saída 1.
//
// stdout: só as respostas finais (num terminal, a resposta aparece enquanto
// chega). stderr: o trace humano, as perguntas e os avisos. Código de saída: o
// do desfecho do último turno (success 0, max_turns 3, budget 4, timeout 5,
// provider_error 6, repetition 7, cancelled 128 + o sinal: 130 no Ctrl-C, 143
// no SIGTERM, 129 no SIGHUP, journal 1), 2 para erro de uso (e para um journal
// que não pode ser retomado), 1 para erro de ambiente (inclusive uma resposta
// que não pôde ser escrita no stdout ou um --trace que ficou incompleto).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent_loop.hpp"
#include "chat_driver.hpp"
#include "crash_point.hpp"
#include "hz/cli.hpp"
#include "hz/stage/console.hpp"
#include "hz/stage/session.hpp"
#include "hz/terminal.hpp"
#include "hz/text.hpp"
#include "hz/tools.hpp"
#include "hz/workspace.hpp"
#include "journal.hpp"
#include "journal_record.hpp"
#include "money.hpp"
#include "outcome.hpp"
#include "records.hpp"
#include "repetition_cli.hpp"
#include "resume.hpp"
#include "stage_cli.hpp"

namespace {

using hz::stage::ChatDriver;
using hz::stage::Limits;

constexpr const char* kProgram = "hz-04-journal";

// Um journal que não pode ser usado (em uso, danificado, vazio, de outra
// configuração): a mensagem, sem a sugestão do --help, e o código 2.
int refuse(const std::string& message) {
  std::cerr << kProgram << ": " << message << "\n";
  return 2;
}

// listing: settings
// As configurações que uma retomada precisa repetir: as que mudam o que o
// modelo vê, o que as ferramentas tocam e quando o turno para. Com o mock
// embutido, o endereço muda a cada execução (porta efêmera) e conta o
// cenário; com um modelo real, conta o endereço.
nlohmann::json settings_of(const hz::stage::Session& session, const hz::LoopConfig& config,
                           const Limits& limits, const std::string& system_prompt,
                           int max_tool_output) {
  nlohmann::json exempt = nlohmann::json::array();
  if (config.repetition) {
    for (const std::string& name : config.repetition->exempt) exempt.push_back(name);
  }
  return {
      {"model", session.model_name},
      {"endpoint", session.scripted ? "mock:" + session.scenario_name : session.base_url},
      {"workspace", std::filesystem::absolute(session.workspace).lexically_normal().string()},
      {"max_turns", config.max_turns},
      {"budget_micros", limits.budget ? nlohmann::json(*limits.budget) : nlohmann::json()},
      {"price_input_micros",
       config.prices.known ? nlohmann::json(config.prices.input_per_million) : nlohmann::json()},
      {"price_output_micros",
       config.prices.known ? nlohmann::json(config.prices.output_per_million) : nlohmann::json()},
      {"turn_deadline_ms", config.turn_deadline.count()},
      {"repetition_window", config.repetition ? config.repetition->window : 0},
      {"repetition_threshold", config.repetition ? config.repetition->threshold : 0},
      {"repetition_exempt", exempt},
      {"max_tool_output", max_tool_output},
      {"system_prompt", system_prompt},
  };
}
// end-listing: settings

// Uma frase para stderr sobre o que a retomada achou.
std::string describe_resume(const std::string& path, const hz::ResumeState& state) {
  std::string text = "retomando " + path + ": " + std::to_string(state.last_seq) + " registros, " +
                     std::to_string(state.turns_ended) + " turno(s) encerrado(s)";
  if (state.turn_open) {
    text += ", um turno aberto com " + std::to_string(state.model_calls) +
            " chamada(s) ao modelo e US$ " + hz::format_usd(state.turn_cost) + " gastos nele";
  }
  text += "; gasto da conversa: US$ " + hz::format_usd(state.spent) +
          "; próximo passo: " + std::string(hz::to_string(state.next));
  return text + "\n";
}

// O código de saída de um desfecho gravado (cancelled: 130, o sinal não fica
// no journal; um rótulo que não é desta etapa: 1).
int code_of(std::string_view label) {
  for (const hz::Outcome outcome :
       {hz::Outcome::success, hz::Outcome::max_turns, hz::Outcome::budget, hz::Outcome::timeout,
        hz::Outcome::provider_error, hz::Outcome::cancelled, hz::Outcome::repetition,
        hz::Outcome::journal}) {
    if (hz::to_string(outcome) == label) return hz::exit_code(outcome);
  }
  return 1;
}

// Retomar um journal cujo último turno já terminou: nada a fazer, mas a
// resposta final vai de novo para o stdout (a queda pode ter vindo logo
// depois do turn_end, antes de ela chegar a quem lia), e o código é o do
// desfecho gravado.
int report_finished(std::ostream& err, const std::string& path, const std::string& outcome,
                    const std::vector<hz::Message>& history, bool& answer_lost) {
  const bool answered = outcome == hz::to_string(hz::Outcome::success) && !history.empty() &&
                        history.back().role == hz::Role::assistant &&
                        history.back().tool_calls.empty() && !history.back().content.empty();
  err << kProgram << ": o último turno do journal " << path << " já tinha terminado ("
      << hz::printable(outcome) << "); nada a retomar"
      << (answered ? "; a resposta final vai de novo para a saída" : "") << "\n";
  if (answered && !hz::stage::write_answer(std::cout, history.back().content)) answer_lost = true;
  return code_of(outcome);
}

// O journal desta execução e o que a retomada achou nele.
struct JournalState {
  std::string path;  // --journal; vazio: sem journal
  bool resume = false;
  std::optional<hz::Journal> journal;
  std::optional<hz::ResumeState> resumed;  // só com --resume
  std::optional<std::string> finished;     // o desfecho, se o journal termina num turn_end
  std::optional<hz::CrashingSink> crashing;
  bool failed = false;  // depois de uma falha, o journal recusa tudo
};

void add_journal_flags(hz::FlagParser& parser, JournalState& state) {
  parser.add_string("journal", &state.path,
                    "grava cada passo concluído neste arquivo JSONL, no disco antes do passo "
                    "seguinte (o arquivo não pode ter registros; para continuar um, use --resume)",
                    "ARQUIVO");
  parser.add_bool("resume", &state.resume,
                  "continua a conversa do --journal: o histórico, o gasto, as chamadas do turno e "
                  "a pasta de trabalho gravados; as outras configurações precisam ser as mesmas");
}

// A retomada lê o journal antes de tudo: a pasta de trabalho vem dele (em
// common.workspace, se nenhum --workspace a deu). Vazio: pronto para a
// sessão; senão, o código de saída.
std::optional<int> read_journal(JournalState& state, hz::stage::CommonFlags& common) {
  auto opened = hz::Journal::resume(state.path);
  if (!opened) return refuse(opened.error().message);
  if (!opened->warning.empty()) std::cerr << kProgram << ": aviso: " << opened->warning << "\n";
  auto rebuilt = hz::rebuild_state(opened->records);
  if (!rebuilt) return refuse("journal " + state.path + ": " + rebuilt.error().message);
  // Uma intenção que não é a chamada que o modelo pediu: o journal foi mexido.
  if (const auto mismatches = hz::intent_mismatches(*rebuilt); !mismatches.empty()) {
    std::string text = "journal " + state.path +
                       ": uma intenção não bate com a chamada do modelo (nada foi retomado):";
    for (const std::string& line : mismatches) text += "\n  " + hz::printable(line);
    return refuse(text);
  }
  state.journal.emplace(std::move(opened->journal));
  state.finished = hz::last_outcome(opened->records);
  state.resumed = std::move(rebuilt).value();
  const auto recorded = state.resumed->settings.find("workspace");
  if (common.workspace.empty() && recorded != state.resumed->settings.end() &&
      recorded->is_string()) {
    common.workspace = recorded->get<std::string>();
    // A pasta veio do journal, e não de um --workspace: o erro diz isso.
    std::error_code ignored;
    if (!std::filesystem::is_directory(common.workspace, ignored)) {
      return refuse(
          "journal " + state.path + ": a pasta de trabalho gravada nele não existe mais: " +
          hz::printable(common.workspace) + " (o turno trabalhava nela; nada foi retomado)");
    }
  }
  return std::nullopt;
}

// Com --resume, as configurações desta execução conferidas com as do
// journal e o gasto de antes da queda no orçamento; sem ele, o journal novo
// com o registro start. Os registros do turno passam pelos pontos de queda
// (HZ_CRASH_AT) antes do journal; sem HZ_CRASH_AT, o CrashingSink só os passa
// adiante. Vazio: pronto; senão, o código de saída.
std::optional<int> attach_journal(JournalState& state, ChatDriver& chat,
                                  const nlohmann::json& settings, hz::CrashPoints& crash) {
  if (state.resumed) {
    const std::vector<std::string> differences =
        hz::settings_differences(state.resumed->settings, settings);
    if (!differences.empty()) {
      std::string text = "as configurações desta execução contradizem as do journal " + state.path +
                         " (retome com as mesmas):";
      for (const std::string& line : differences) text += "\n  " + hz::printable(line);
      return refuse(text);
    }
    // Um orçamento por conversa: o que já foi gasto antes da queda conta.
    chat.budget().charge(state.resumed->spent);
  } else if (!state.path.empty()) {
    auto created = hz::Journal::create(state.path);
    if (!created) return refuse(created.error().message);
    state.journal.emplace(std::move(created).value());
    if (auto seq = state.journal->append(hz::start_record(settings)); !seq) {
      std::cerr << kProgram << ": " << seq.error().message << "\n";
      return 1;
    }
  }
  if (state.journal) chat.config().journal = &state.crashing.emplace(*state.journal, crash);
  return std::nullopt;
}

// O fim de um turno: a resposta, a falha do journal (desfecho journal, com o
// nome do arquivo) e o resto do ChatDriver::end_turn.
int report(JournalState& state, ChatDriver& chat, const hz::TurnResult& result) {
  chat.show_answer(result);
  if (result.outcome == hz::Outcome::journal) {
    std::cerr << kProgram << ": " << result.error << "\n";
    state.failed = true;
  }
  return chat.end_turn(result);
}

// Um turno novo: a mensagem do usuário vai ao journal antes de ir ao modelo.
int journaled_turn(JournalState& state, ChatDriver& chat, const std::string& text) {
  if (state.failed) return 1;  // nenhum turno novo sem registro
  if (state.journal) {
    if (auto seq = state.journal->append(hz::user_record(text)); !seq) {
      std::cerr << kProgram << ": " << seq.error().message << "\n";
      state.failed = true;
      return 1;
    }
  }
  return report(state, chat, chat.turn(text));
}

// A conversa: com --resume, primeiro o turno interrompido (ou a resposta de
// um que já terminou); depois o pedido ou o chat. O código do último turno.
int converse(JournalState& state, ChatDriver& chat, const hz::stage::CommonFlags& common) {
  int code = 0;
  std::string prompt = chat.prompt();
  if (state.resumed) {
    const hz::ResumeState& resumed = *state.resumed;
    std::cerr << hz::paint(describe_resume(state.path, resumed), hz::Tint::dim, chat.color());
    chat.history() = resumed.history;
    if (resumed.next != hz::NextStep::wait_user) {
      code = report(state, chat,
                    hz::resume_turn(chat.history(), resumed, chat.config(), chat.model(),
                                    chat.tools(), chat.trace()));
    } else if (state.finished) {
      code = report_finished(std::cerr, state.path, *state.finished, chat.history(),
                             chat.answer_lost());
    }
    // O pedido do cenário já está no journal: só um --prompt abre um turno
    // novo (ou o do cenário, se a queda veio antes de o primeiro turno começar).
    const bool started = resumed.turns_ended > 0 || resumed.turn_open;
    if ((started && common.prompt.empty()) || state.failed) prompt.clear();
  }
  if (prompt.empty() && (!chat.chatting() || state.failed)) return code;
  return chat.converse(prompt, [&state, &chat](const std::string& text) {
    return journaled_turn(state, chat, text);
  });
}

int run(int argc, char** argv) {
  hz::stage::BrakeFlags flags;
  hz::stage::RepetitionFlags repetition_flags;
  JournalState state;
  hz::FlagParser parser(kProgram,
                        "Etapa 04: o journal e a retomada, sobre o detector da etapa 03.");
  hz::stage::add_brake_flags(parser, flags);
  hz::stage::add_repetition_flags(parser, repetition_flags);
  add_journal_flags(parser, state);
  parser.set_epilog(hz::stage::outcomes_help(
      {hz::Outcome::success, hz::Outcome::max_turns, hz::Outcome::budget, hz::Outcome::timeout,
       hz::Outcome::provider_error, hz::Outcome::repetition, hz::Outcome::journal},
      true));
  auto limits = hz::stage::read_brake_flags(kProgram, parser, flags, argc, argv);
  if (!limits) return limits.error();
  auto repetition = hz::stage::read_repetition(repetition_flags);
  if (!repetition) return hz::stage::usage_error(kProgram, repetition.error().message);
  if (state.resume && state.path.empty()) {
    return hz::stage::usage_error(kProgram, "--resume precisa de --journal ARQUIVO");
  }
  // Um HZ_CRASH_AT inválido lança: erro de inicialização (saída 1).
  hz::CrashPoints crash = hz::CrashPoints::from_env();
  if (state.resume) {
    if (const auto refused = read_journal(state, flags.common)) return *refused;
  }

  ChatDriver chat(kProgram, flags, std::move(limits).value());
  if (const auto failed = chat.open()) return *failed;
  // O journal grava a pasta de trabalho, e uma retomada volta a ela: a cópia
  // temporária de um cenário fica.
  if (!state.path.empty()) chat.session().temporary.keep();
  chat.config().repetition = *repetition;
  const hz::Workspace workspace(chat.session().workspace);
  chat.config().workspace = &workspace;
  const nlohmann::json settings = settings_of(chat.session(), chat.config(), chat.limits(),
                                              chat.system_prompt(), flags.max_tool_output);
  if (const auto refused = attach_journal(state, chat, settings, crash)) return *refused;

  chat.announce(hz::stage::describe_repetition(*repetition));
  // append_file, a ferramenta que não se pode repetir, só existe nesta etapa.
  std::vector<hz::Tool> tools = hz::basic_tools(workspace, chat.shell());
  tools.push_back(hz::append_file_tool(workspace));
  chat.start(std::move(tools));
  const int code = chat.close(converse(state, chat, flags.common));
  return state.failed ? 1 : code;
}

}  // namespace

int main(int argc, char** argv) { return hz::stage::guarded_main(kProgram, run, argc, argv); }
