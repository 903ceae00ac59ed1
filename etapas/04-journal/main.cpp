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
// (crash_point.hpp, aqui ao lado: o núcleo não sabe dele).
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
#include <unistd.h>

#include <cstddef>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agent_loop.hpp"
#include "brakes_cli.hpp"
#include "budget.hpp"
#include "chat_cli.hpp"
#include "clock.hpp"
#include "context.hpp"
#include "crash_point.hpp"
#include "hz/cli.hpp"
#include "hz/stage/console.hpp"
#include "hz/stage/context_guard.hpp"
#include "hz/stage/flags.hpp"
#include "hz/stage/interrupt.hpp"
#include "hz/stage/limits.hpp"
#include "hz/stage/live.hpp"
#include "hz/stage/session.hpp"
#include "hz/terminal.hpp"
#include "hz/text.hpp"
#include "hz/tools.hpp"
#include "hz/workspace.hpp"
#include "journal.hpp"
#include "journal_record.hpp"
#include "money.hpp"
#include "outcome.hpp"
#include "repetition.hpp"
#include "repetition_cli.hpp"
#include "resume.hpp"
#include "retry.hpp"
#include "tool_dispatch.hpp"

namespace {

using hz::stage::Limits;

constexpr const char* kProgram = "hz-04-journal";
constexpr const char* kDemoScenario = "monday";

int usage_error(const std::string& message) {
  std::cerr << kProgram << ": " << message << "\n"
            << "Use " << kProgram << " --help para ver as opções.\n";
  return 2;
}

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

int run(int argc, char** argv) {
  hz::stage::CommonFlags flags;
  flags.max_turns = hz::kDefaultMaxTurns;
  hz::stage::LimitFlags limit_flags;
  limit_flags.max_retries = hz::kDefaultMaxRetries;
  int max_tool_output = static_cast<int>(hz::kDefaultMaxToolOutput);
  hz::stage::RepetitionFlags repetition_flags;
  std::string journal_path;
  bool resume = false;

  hz::FlagParser parser(kProgram,
                        "Etapa 04: o journal e a retomada, sobre o detector da etapa 03.");
  hz::stage::add_common_flags(parser, flags);
  hz::stage::add_limit_flags(parser, limit_flags);
  const std::string cut_help =
      "bytes da saída de uma ferramenta que entram no histórico; o meio do resto é cortado "
      "(padrão: " +
      std::to_string(max_tool_output) + ")";
  parser.add_int("max-tool-output", &max_tool_output, cut_help, "BYTES");
  hz::stage::add_repetition_flags(parser, repetition_flags);
  parser.add_string("journal", &journal_path,
                    "grava cada passo concluído neste arquivo JSONL, no disco antes do passo "
                    "seguinte (o arquivo não pode ter registros; para continuar um, use --resume)",
                    "ARQUIVO");
  parser.add_bool("resume", &resume,
                  "continua a conversa do --journal: o histórico, o gasto, as chamadas do turno e "
                  "a pasta de trabalho gravados; as outras configurações precisam ser as mesmas");
  // Os códigos do --help saem do próprio outcome.hpp: não há como divergirem.
  auto code_of = [](hz::Outcome outcome) {
    return hz::stage::OutcomeCode{std::string(hz::to_string(outcome)), hz::exit_code(outcome)};
  };
  parser.set_epilog(hz::stage::exit_codes_help(
      {code_of(hz::Outcome::success), code_of(hz::Outcome::max_turns), code_of(hz::Outcome::budget),
       code_of(hz::Outcome::timeout), code_of(hz::Outcome::provider_error),
       code_of(hz::Outcome::repetition), code_of(hz::Outcome::journal)},
      true));
  auto help = parser.parse(argc, argv);
  if (!help) return usage_error(help.error().message);
  if (*help) {
    std::cout << parser.answer();
    return 0;
  }
  if (flags.max_turns < 1) return usage_error("--max-turns precisa ser pelo menos 1");
  if (max_tool_output < 64) return usage_error("--max-tool-output precisa ser pelo menos 64");
  auto limits = hz::stage::read_limits(limit_flags);
  if (!limits) return usage_error(limits.error().message);
  auto repetition = hz::stage::read_repetition(repetition_flags);
  if (!repetition) return usage_error(repetition.error().message);
  if (resume && journal_path.empty()) return usage_error("--resume precisa de --journal ARQUIVO");
  // Um HZ_CRASH_AT inválido lança: erro de inicialização (saída 1).
  hz::CrashPoints crash = hz::CrashPoints::from_env();

  // A retomada lê o journal antes de tudo: a pasta de trabalho vem dele.
  std::optional<hz::Journal> journal;
  std::optional<hz::ResumeState> resumed;
  std::optional<std::string> finished;  // o desfecho, se o journal termina num turn_end
  if (resume) {
    auto opened = hz::Journal::resume(journal_path);
    if (!opened) return refuse(opened.error().message);
    if (!opened->warning.empty()) std::cerr << kProgram << ": aviso: " << opened->warning << "\n";
    auto state = hz::rebuild_state(opened->records);
    if (!state) return refuse("journal " + journal_path + ": " + state.error().message);
    // Uma intenção que não é a chamada que o modelo pediu: o journal foi mexido.
    if (const auto mismatches = hz::intent_mismatches(*state); !mismatches.empty()) {
      std::string text = "journal " + journal_path +
                         ": uma intenção não bate com a chamada do modelo (nada foi retomado):";
      for (const std::string& line : mismatches) text += "\n  " + hz::printable(line);
      return refuse(text);
    }
    journal.emplace(std::move(opened->journal));
    finished = hz::last_outcome(opened->records);
    resumed = std::move(state).value();
    const auto recorded = resumed->settings.find("workspace");
    if (flags.workspace.empty() && recorded != resumed->settings.end() && recorded->is_string()) {
      flags.workspace = recorded->get<std::string>();
      // A pasta veio do journal, e não de um --workspace: o erro diz isso.
      std::error_code ignored;
      if (!std::filesystem::is_directory(flags.workspace, ignored)) {
        return refuse(
            "journal " + journal_path + ": a pasta de trabalho gravada nele não existe mais: " +
            hz::printable(flags.workspace) + " (o turno trabalhava nela; nada foi retomado)");
      }
    }
  }

  auto system_prompt = hz::stage::system_prompt_of(flags);
  if (!system_prompt) return usage_error(system_prompt.error().message);

  auto trace = hz::stage::open_trace(flags.trace);
  if (!trace) return usage_error(trace.error().message);
  auto session = hz::stage::open_session(flags, kDemoScenario, limits->http);
  if (!session) {
    std::cerr << kProgram << ": " << session.error().message << "\n";
    return session.error().exit_code;
  }
  (*trace)->set_model(session->model_name);  // o "model" de cada model_request no JSONL
  // O journal grava a pasta de trabalho, e uma retomada volta a ela: a cópia
  // temporária de um cenário fica.
  if (!journal_path.empty()) session->temporary.keep();
  const bool color = hz::wants_color(2);

  // Ctrl-C, SIGTERM e SIGHUP só marcam a flag; quem a lê é o loop, o transporte e o run_shell.
  hz::stage::install_interrupt_handler();
  std::atomic<bool>& cancel = hz::stage::interrupt_flag();
  hz::SystemClock clock(&cancel);
  // Um orçamento por conversa: os turnos do chat gastam do mesmo.
  hz::Budget budget = limits->budget ? hz::Budget(*limits->budget) : hz::Budget();

  hz::LoopConfig config{session->model_name, flags.max_turns};
  config.budget = &budget;
  hz::stage::apply_limits(config, *limits);
  config.clock = &clock;
  // As horas e as durações do trace saem do mesmo relógio que o prazo e o backoff.
  (*trace)->set_clock(hz::stage::trace_clock_of(clock));
  config.cancel = &cancel;
  config.repetition = *repetition;
  const hz::Workspace workspace(session->workspace);
  config.workspace = &workspace;

  const nlohmann::json settings =
      settings_of(*session, config, *limits, *system_prompt, max_tool_output);
  if (resumed) {
    const std::vector<std::string> differences =
        hz::settings_differences(resumed->settings, settings);
    if (!differences.empty()) {
      std::string text = "as configurações desta execução contradizem as do journal " +
                         journal_path + " (retome com as mesmas):";
      for (const std::string& line : differences) text += "\n  " + hz::printable(line);
      return refuse(text);
    }
    // Um orçamento por conversa: o que já foi gasto antes da queda conta.
    budget.charge(resumed->spent);
  } else if (!journal_path.empty()) {
    auto created = hz::Journal::create(journal_path);
    if (!created) return refuse(created.error().message);
    journal.emplace(std::move(created).value());
    if (auto seq = journal->append(hz::start_record(settings)); !seq) {
      std::cerr << kProgram << ": " << seq.error().message << "\n";
      return 1;
    }
  }
  // Os registros do turno passam pelos pontos de queda (HZ_CRASH_AT) antes
  // do journal; sem HZ_CRASH_AT, o CrashingSink só os passa adiante.
  std::optional<hz::CrashingSink> crashing;
  if (journal) config.journal = &crashing.emplace(*journal, crash);

  std::cerr << hz::paint(hz::stage::describe(*session) +
                             hz::stage::describe_limits(config, *limits) +
                             hz::stage::describe_repetition(*config.repetition) + "\n",
                         hz::Tint::dim, color);
  hz::stage::warn_if_unpriced(std::cerr, config, *limits, color);

  hz::ShellOptions shell;
  shell.cancel = &cancel;
  // append_file, a ferramenta que não se pode repetir, só existe nesta etapa.
  std::vector<hz::Tool> tool_list = hz::basic_tools(workspace, shell);
  tool_list.push_back(hz::append_file_tool(workspace));
  const hz::ToolBox tools(std::move(tool_list), hz::stage::approver_for(*session, flags),
                          static_cast<std::size_t>(max_tool_output));

  // Num terminal, a resposta aparece enquanto chega; fora dele, só no fim.
  const bool live = config.stream && isatty(STDOUT_FILENO) == 1;
  // O loop fala com o modelo através do aviso de janela de contexto cheia.
  const auto guarded = hz::stage::guard_context(flags, *session, std::cerr);
  hz::stage::LiveText live_text(std::cout);
  hz::stage::LiveModel live_model(*guarded, live_text);
  hz::ChatModel& model = live ? static_cast<hz::ChatModel&>(live_model) : *guarded;

  std::vector<hz::Message> history = hz::start_conversation(*system_prompt);
  const bool chat = flags.prompt.empty() && session->scenario_prompt.empty();
  bool answer_lost = false;
  bool journal_failed = false;
  auto report = [&](const hz::TurnResult& result) {
    const bool shown = live && live_model.last_reply_shown();
    if (!result.final_text.empty() && !shown &&
        !hz::stage::write_answer(std::cout, result.final_text)) {
      answer_lost = true;
    }
    if (result.outcome == hz::Outcome::journal) {
      std::cerr << kProgram << ": " << result.error << "\n";
      journal_failed = true;
    }
    hz::stage::show_spent(std::cerr, budget, *limits, color);
    if (result.outcome != hz::Outcome::cancelled) return hz::exit_code(result.outcome);
    if (chat && hz::stage::chat_goes_on()) hz::stage::say_chat_goes_on(std::cerr, color);
    return hz::stage::cancelled_exit_code();  // 128 + o sinal: 130, 143 ou 129
  };
  auto one_turn = [&](const std::string& text) {
    // Depois de uma falha, o journal recusa tudo: nenhum turno novo sem registro.
    if (journal_failed) return 1;
    if (journal) {
      if (auto seq = journal->append(hz::user_record(text)); !seq) {
        std::cerr << kProgram << ": " << seq.error().message << "\n";
        journal_failed = true;
        return 1;
      }
    }
    hz::add_user_message(history, text);
    return report(hz::run_turn(history, config, model, tools, **trace));
  };

  int code = 0;
  std::string prompt = flags.prompt.empty() ? session->scenario_prompt : flags.prompt;
  if (resumed) {
    std::cerr << hz::paint(describe_resume(journal_path, *resumed), hz::Tint::dim, color);
    history = resumed->history;
    if (resumed->next != hz::NextStep::wait_user) {
      code = report(hz::resume_turn(history, *resumed, config, model, tools, **trace));
    } else if (finished) {
      code = report_finished(std::cerr, journal_path, *finished, history, answer_lost);
    }
    // O pedido do cenário já está no journal: só um --prompt abre um turno
    // novo (ou o do cenário, se a queda veio antes de o primeiro turno começar).
    const bool started = resumed->turns_ended > 0 || resumed->turn_open;
    if ((started && flags.prompt.empty()) || journal_failed) prompt.clear();
  }
  if (!prompt.empty()) {
    std::cerr << hz::stage::user_line(prompt, color) << "\n";
    code = one_turn(prompt);
  } else if (chat && !journal_failed) {
    code = hz::stage::run_interruptible_chat(std::cin, std::cerr, cancel, one_turn);
  }
  code =
      hz::stage::closing_code(std::cerr, kProgram, *session, answer_lost, (*trace)->failed(), code);
  return journal_failed ? 1 : code;
}

}  // namespace

int main(int argc, char** argv) {
  hz::stage::guard_standard_fds();
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    // Erros de inicialização e bugs: uma mensagem clara em vez de um abort.
    std::cerr << kProgram << ": erro: " << error.what() << "\n";
    return 1;
  }
}
