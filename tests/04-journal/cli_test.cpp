// Ponta a ponta: o executável hz-04-journal de verdade, com o mock embutido
// e os cenários de mock-server/scenarios/journal/ (o passo sai da conversa,
// então um harness retomado, com um mock novo, continua o mesmo roteiro). O
// processo morre de verdade (HZ_CRASH_AT: SIGKILL) em cada fronteira do
// journal, e --resume chega ao mesmo fim de uma execução sem queda.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "crash_point.hpp"
#include "helpers.hpp"
#include "hz/testing/printing.hpp"
#include "hz/testing/process.hpp"
#include "hz/testing/stubs.hpp"
#include "hz/testing/temp_dir.hpp"
#include "journal.hpp"
#include "journal_record.hpp"
#include "resume.hpp"

using hz::testing::contains;
using hz::testing::ProcessResult;
using hz::testing::TempDir;

namespace {

const std::string kAnswer = "Pronto: anotei que a migração começou e a versão agora é 2.\n";
const std::string kNotes = "# notas da migração\n- a migração começou\n";
const std::string kConfig = "versao = 2\n";

std::string scenario(const std::string& name) {
  return hz::testing::source_path("mock-server/scenarios/journal/" + name + ".json").string();
}

// Uma pasta com a fixture do cenário (ws/) e o lugar do journal.
struct CliWorld {
  TempDir dir{"hz-journal-cli"};
  std::filesystem::path journal = dir / "conversa.jsonl";
  CliWorld() {
    dir.write("ws/config.ini", "versao = 1\n");
    dir.write("ws/notas.txt", "# notas da migração\n");
  }
  std::string ws() const { return (dir / "ws").string(); }
  std::string file(const std::string& name) const { return dir.read("ws/" + name); }
  std::string bytes() const { return dir.read("conversa.jsonl"); }
};

// Roda hz-04-journal com o journal do mundo; crash_at vazio: sem ponto de queda.
ProcessResult run_stage(std::vector<std::string> args, const std::string& crash_at = "") {
  args.insert(args.begin(), hz::testing::bin_path("hz-04-journal").string());
  return hz::testing::run_program(
      args, "", {"OPENAI_BASE_URL=", "OPENAI_API_KEY=", "NO_COLOR=1", "HZ_CRASH_AT=" + crash_at});
}

ProcessResult start(const CliWorld& w, const std::string& crash_at = "",
                    const std::string& name = "notes", std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"--scenario",       scenario(name), "--journal",
                                w.journal.string(), "--workspace",  w.ws()};
  args.insert(args.end(), extra.begin(), extra.end());
  ProcessResult result = run_stage(args, crash_at);
  hz::testing::throw_if_stubbed(result);  // um exercício ainda stub: a falha diz qual
  return result;
}

// A retomada não diz a pasta: ela vem do journal.
ProcessResult resume(const CliWorld& w, const std::string& crash_at = "",
                     const std::string& name = "notes", std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"--scenario", scenario(name), "--journal", w.journal.string(),
                                "--resume"};
  args.insert(args.end(), extra.begin(), extra.end());
  ProcessResult result = run_stage(args, crash_at);
  hz::testing::throw_if_stubbed(result);
  return result;
}

// O estado que o journal conta, lido como a retomada lê.
hz::ResumeState journaled_state(const CliWorld& w) {
  auto read = hz::read_journal(w.journal);
  REQUIRE_MESSAGE(read.ok(), read.error().message);
  CHECK(read->warning.empty());
  auto state = hz::rebuild_state(read->records);
  REQUIRE_MESSAGE(state.ok(), state.error().message);
  return std::move(state).value();
}

struct CliReference {
  std::vector<hz::Message> history;
  std::string journal;
};

// A execução sem queda, que toda retomada precisa alcançar.
CliReference reference() {
  CliWorld w;
  const ProcessResult run = start(w);
  CAPTURE(run.err);
  REQUIRE(run.exit_code == 0);
  REQUIRE(run.out == kAnswer);
  REQUIRE(w.file("notas.txt") == kNotes);
  REQUIRE(w.file("config.ini") == kConfig);
  return {journaled_state(w).history, w.bytes()};
}

// As linhas do journal (sem o \n), para trocar bytes de uma delas.
std::vector<std::string> split_lines(const std::string& bytes) {
  std::vector<std::string> lines;
  std::size_t from = 0;
  for (std::size_t nl = bytes.find('\n'); nl != std::string::npos; nl = bytes.find('\n', from)) {
    lines.push_back(bytes.substr(from, nl - from));
    from = nl + 1;
  }
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string bytes;
  for (const std::string& line : lines) bytes += line + "\n";
  return bytes;
}

void overwrite(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

}  // namespace

TEST_CASE("sem queda, o journal conta a conversa inteira, passo por passo, na ordem") {
  CliWorld w;
  const ProcessResult run = start(w);
  CAPTURE(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.out == kAnswer);
  auto read = hz::read_journal(w.journal);
  REQUIRE_MESSAGE(read.ok(), hz::testing::refusal(read));
  std::vector<std::string> types;
  for (const hz::Record& record : read->records) types.push_back(record.rec["type"]);
  CHECK(types == std::vector<std::string>{"start", "user", "reply", "intent", "result", "intent",
                                          "result", "reply", "intent", "result", "reply",
                                          "turn_end"});
  CHECK(read->records[0].rec["settings"]["workspace"] ==
        std::filesystem::absolute(w.ws()).lexically_normal().string());
  CHECK(read->records[3].rec["append_key"] ==
        nlohmann::json{{"size_before", 22}, {"content_bytes", 24}, {"content_crc32c", "a42d3401"}});
}

TEST_CASE("morto de verdade em cada fronteira, --resume chega ao mesmo workspace e histórico") {
  const CliReference ref = reference();
  for (const std::string boundary :
       {"after_reply", "before_intent", "after_intent", "after_effect", "after_result"}) {
    for (int n = 1; n <= 3; ++n) {
      const std::string point = boundary + ":" + std::to_string(n);
      CAPTURE(point);
      CliWorld w;
      const ProcessResult crashed = start(w, point);
      CAPTURE(crashed.err);
      REQUIRE(crashed.exit_code == 128 + 9);  // SIGKILL
      const ProcessResult resumed = resume(w);
      CAPTURE(resumed.err);
      CHECK(resumed.exit_code == 0);
      CHECK(resumed.out == kAnswer);
      CHECK(contains(resumed.err, "↺ retomada do journal: "));
      CHECK(w.file("notas.txt") == kNotes);  // a linha do append_file, uma vez só
      CHECK(w.file("config.ini") == kConfig);
      const hz::ResumeState state = journaled_state(w);
      CHECK(state.history == ref.history);
      CHECK(state.next == hz::NextStep::wait_user);
      CHECK(state.turns_ended == 1);
    }
  }
}

TEST_CASE("retomar duas vezes seguidas, a segunda depois de outra queda, acrescenta uma vez só") {
  const CliReference ref = reference();
  CliWorld w;
  REQUIRE(start(w, "after_effect:1").exit_code == 137);
  // A primeira retomada dá o append por feito e morre depois do efeito do edit:
  // a passagem 1 por after_effect é antes do result decidido do append, a 2,
  // antes do result do edit.
  const ProcessResult first = resume(w, "after_effect:2");
  CAPTURE(first.err);
  REQUIRE(first.exit_code == 137);
  CHECK(contains(first.err, "  ↺ append_file (call_1_1): done · "));
  const ProcessResult second = resume(w);
  CAPTURE(second.err);
  CHECK(second.exit_code == 0);
  CHECK(second.out == kAnswer);
  CHECK(contains(second.err, "  ↺ edit_file (call_1_2): done · "));
  CHECK(w.file("notas.txt") == kNotes);
  CHECK(w.file("config.ini") == kConfig);
  CHECK(journaled_state(w).history == ref.history);
}

TEST_CASE("run_shell sem resultado não roda de novo: o modelo ouve que não se sabe") {
  CliWorld w;
  REQUIRE(start(w, "after_effect:1", "shell").exit_code == 137);
  const ProcessResult resumed = resume(w, "", "shell");
  CAPTURE(resumed.err);
  CHECK(resumed.exit_code == 0);
  CHECK(w.file("deploy.log") == "deploy\n");  // rodou uma vez, antes da queda
  const hz::ResumeState state = journaled_state(w);
  REQUIRE(state.history.size() == 5);
  CHECK(state.history[3] == hz::Message::tool("call_1_1", std::string(hz::kUnknownResultText)));
}

namespace {

// Reescreve o registro intent de `name` com `change`, e o crc certo: um
// journal forjado por quem sabe o formato, não um dano que o crc acusaria.
void forge_intent(const CliWorld& w, const std::string& name,
                  const std::function<void(nlohmann::json&)>& change) {
  std::vector<std::string> lines = split_lines(w.bytes());
  bool found = false;
  for (std::string& text : lines) {
    nlohmann::json rec = nlohmann::json::parse(text)["rec"];
    if (rec["type"] != "intent" || rec["name"] != name) continue;
    change(rec);
    text = hz::encode_line(rec);
    text.pop_back();  // encode_line termina com \n; join_lines põe de volta
    found = true;
  }
  REQUIRE(found);
  overwrite(w.journal, join_lines(lines));
}

}  // namespace

TEST_CASE("uma intenção forjada como idempotente não faz o append_file rodar de novo") {
  CliWorld w;
  REQUIRE(start(w, "after_effect:1").exit_code == 137);  // o texto entrou; sem resultado
  forge_intent(w, "append_file", [](nlohmann::json& rec) { rec["idempotency"] = "yes"; });
  const ProcessResult resumed = resume(w);
  CAPTURE(resumed.err);
  CHECK(resumed.exit_code == 0);
  CHECK(contains(resumed.err, "  ↺ append_file (call_1_1): done · "));
  CHECK(w.file("notas.txt") == kNotes);  // uma linha só
}

TEST_CASE("uma intenção que não é a chamada do modelo: a retomada recusa e não toca em nada") {
  CliWorld w;
  REQUIRE(start(w, "after_intent:1").exit_code == 137);
  forge_intent(w, "append_file", [](nlohmann::json& rec) {
    rec["arguments"] = R"({"path":"notas.txt","content":"outra coisa\n"})";
  });
  const std::string forged = w.bytes();
  ProcessResult resumed = resume(w);
  CAPTURE(resumed.err);
  CHECK(resumed.exit_code == 2);
  CHECK(contains(resumed.err,
                 "hz-04-journal: journal " + w.journal.string() +
                     ": uma intenção não bate com a chamada do modelo (nada foi retomado):\n"
                     "  call_1_1: a intenção de append_file tem outros argumentos que os da "
                     "resposta do modelo\n"));
  CHECK(w.bytes() == forged);
  CHECK(w.file("notas.txt") == "# notas da migração\n");
  forge_intent(w, "append_file", [](nlohmann::json& rec) { rec["name"] = "run_shell"; });
  resumed = resume(w);
  CHECK(resumed.exit_code == 2);
  CHECK(contains(resumed.err,
                 "  call_1_1: a intenção diz run_shell, a resposta do modelo pede append_file\n"));
}

TEST_CASE("um fim rasgado é cortado com um aviso antes de a retomada acrescentar") {
  const CliReference ref = reference();
  CliWorld w;
  REQUIRE(start(w, "after_intent:1").exit_code == 137);
  const std::string before = w.bytes();
  overwrite(w.journal, before + "{\"crc\":\"0a1b2c3d\",\"rec\":{\"seq\":5,\"ty");
  const ProcessResult resumed = resume(w);
  CAPTURE(resumed.err);
  CHECK(resumed.exit_code == 0);
  CHECK(contains(
      resumed.err,
      "hz-04-journal: aviso: journal " + w.journal.string() +
          ": o último registro, na linha 5 (seq esperado 5), estava "
          "incompleto (sem a quebra de linha do fim): 36 bytes cortados; o journal agora termina "
          "no seq 4\n"));
  CHECK(w.bytes().substr(0, before.size()) == before);
  CHECK(w.file("notas.txt") == kNotes);
  CHECK(journaled_state(w).history == ref.history);
}

TEST_CASE("bytes zerados no meio: a retomada para, diz a linha e o seq, e não toca no journal") {
  CliWorld w;
  REQUIRE(start(w).exit_code == 0);
  std::vector<std::string> lines = split_lines(w.bytes());
  lines[2] = std::string(lines[2].size(), '\0');
  const std::string damaged = join_lines(lines);
  overwrite(w.journal, damaged);
  const ProcessResult resumed = resume(w);
  CAPTURE(resumed.err);
  CHECK(resumed.exit_code == 2);
  CHECK(resumed.out.empty());
  const std::string line3_why = journal_test::why(lines[2], 3);  // a frase do read-record
  CHECK(
      contains(resumed.err, "hz-04-journal: journal " + w.journal.string() +
                                ": registro danificado na linha 3 (seq esperado 3): " + line3_why +
                                "; há registros depois dele, então não é o fim de uma escrita "
                                "interrompida. O arquivo não foi alterado\n"));
  CHECK(w.bytes() == damaged);
}

TEST_CASE("crc errado num JSON válido no meio: a retomada para e não toca no journal") {
  CliWorld w;
  REQUIRE(start(w).exit_code == 0);
  std::vector<std::string> lines = split_lines(w.bytes());
  const std::size_t at = lines[4].find("texto acrescentado");
  REQUIRE(at != std::string::npos);
  lines[4][at] = 'T';  // ainda JSON válido, o crc não bate
  const std::string damaged = join_lines(lines);
  overwrite(w.journal, damaged);
  const ProcessResult resumed = resume(w);
  CAPTURE(resumed.err);
  CHECK(resumed.exit_code == 2);
  const std::string line5_why = journal_test::why(lines[4], 5);  // a frase do read-record
  CHECK(
      contains(resumed.err, "hz-04-journal: journal " + w.journal.string() +
                                ": registro danificado na linha 5 (seq esperado 5): " + line5_why +
                                "; há registros depois dele, então não é o fim de uma escrita "
                                "interrompida. O arquivo não foi alterado\n"));
  CHECK(w.bytes() == damaged);
}

TEST_CASE("retomar um turno que já terminou repete a resposta final, sem mexer em nada") {
  // Uma queda logo depois do turn_end, antes de a resposta chegar ao stdout,
  // deixa este journal: quem retoma recebe a resposta que se perdeu.
  CliWorld w;
  REQUIRE(start(w).exit_code == 0);
  const std::string before = w.bytes();
  const ProcessResult resumed = resume(w);
  CAPTURE(resumed.err);
  CHECK(resumed.exit_code == 0);
  CHECK(resumed.out == kAnswer);
  CHECK(contains(resumed.err, "hz-04-journal: o último turno do journal " + w.journal.string() +
                                  " já tinha terminado (success); nada a retomar; a resposta "
                                  "final vai de novo para a saída\n"));
  CHECK_FALSE(contains(resumed.err, "→ modelo"));
  CHECK(w.bytes() == before);
  CHECK(w.file("notas.txt") == kNotes);
}

TEST_CASE("retomar com a pasta de trabalho apagada diz que a pasta veio do journal") {
  CliWorld w;
  REQUIRE(start(w, "after_intent:1").exit_code == 137);
  std::filesystem::remove_all(w.dir / "ws");
  const std::string before = w.bytes();
  const ProcessResult resumed = resume(w);
  CAPTURE(resumed.err);
  CHECK(resumed.exit_code == 2);
  CHECK(resumed.err == "hz-04-journal: journal " + w.journal.string() +
                           ": a pasta de trabalho gravada nele não existe mais: " + w.ws() +
                           " (o turno trabalhava nela; nada foi retomado)\n");
  CHECK(w.bytes() == before);
}

TEST_CASE("um journal vazio não tem o que retomar") {
  CliWorld w;
  overwrite(w.journal, "");
  const ProcessResult resumed = resume(w);
  CHECK(resumed.exit_code == 2);
  CHECK(resumed.err ==
        "hz-04-journal: journal " + w.journal.string() + " está vazio: não há nada para retomar\n");
  CHECK(w.bytes().empty());
}

TEST_CASE("o orçamento sobrevive à retomada: uma queda não zera o gasto") {
  // 1 US$ por milhão de tokens: o passo 1 custa 1100 µUS$, o 2, 1250. Com teto de
  // 2000, o read_file do passo 2 não roda (budget), com ou sem queda no meio.
  const std::vector<std::string> money{"--price-input", "1",    "--price-output", "1",
                                       "--budget-usd",  "0.002"};
  CliWorld plain;
  const ProcessResult uninterrupted = start(plain, "", "notes", money);
  CAPTURE(uninterrupted.err);
  REQUIRE(uninterrupted.exit_code == 4);
  CliWorld w;
  REQUIRE(start(w, "after_reply:2", "notes", money).exit_code == 137);
  const ProcessResult resumed = resume(w, "", "notes", money);
  CAPTURE(resumed.err);
  CHECK(resumed.exit_code == 4);
  CHECK(contains(resumed.err, "gasto da conversa: US$ 0.00235;"));
  CHECK(hz::testing::occurrences(resumed.err, "→ modelo: chamada") == 0);
  CHECK(journaled_state(w).history == journaled_state(plain).history);
  CHECK(journaled_state(w).spent == 2350);
}

TEST_CASE("o limite de chamadas do turno sobrevive à retomada") {
  const std::vector<std::string> two{"--max-turns", "2"};
  CliWorld plain;
  REQUIRE(start(plain, "", "notes", two).exit_code == 3);
  CliWorld w;
  REQUIRE(start(w, "after_result:3", "notes", two).exit_code == 137);
  const ProcessResult resumed = resume(w, "", "notes", two);
  CAPTURE(resumed.err);
  CHECK(resumed.exit_code == 3);
  CHECK(hz::testing::occurrences(resumed.err, "→ modelo: chamada") == 0);
  CHECK(journaled_state(w).history == journaled_state(plain).history);
}

TEST_CASE("um segundo harness no mesmo journal é recusado enquanto o primeiro o segura") {
  CliWorld w;
  REQUIRE(start(w, "after_intent:1").exit_code == 137);
  auto holder = hz::Journal::resume(w.journal);  // este processo segura a trava
  REQUIRE_MESSAGE(holder.ok(), hz::testing::refusal(holder));
  const std::string before = w.bytes();
  const ProcessResult second = resume(w);
  CHECK(second.exit_code == 2);
  CHECK(second.err == "hz-04-journal: journal " + w.journal.string() +
                          " está em uso por outro processo (outro harness com o mesmo --journal?): "
                          "só um pode escrever nele de cada vez\n");
  CHECK(w.bytes() == before);
}

TEST_CASE("configurações que contradizem o journal são recusadas, com as diferenças") {
  CliWorld w;
  REQUIRE(start(w, "after_intent:1").exit_code == 137);
  const std::string before = w.bytes();
  const ProcessResult resumed =
      resume(w, "", "notes", {"--max-turns", "5", "--repetition-window", "6"});
  CHECK(resumed.exit_code == 2);
  CHECK(resumed.err == "hz-04-journal: as configurações desta execução contradizem as do journal " +
                           w.journal.string() +
                           " (retome com as mesmas):\n  max_turns: no journal 20, agora 5\n  "
                           "repetition_window: no journal 5, agora 6\n");
  CHECK(w.bytes() == before);
}

TEST_CASE("--resume sem --journal é erro de uso, e um journal com registros pede --resume") {
  const ProcessResult alone = run_stage({"--scenario", scenario("notes"), "--resume"});
  CHECK(alone.exit_code == 2);
  CHECK(alone.err ==
        "hz-04-journal: --resume precisa de --journal ARQUIVO\nUse hz-04-journal --help para ver "
        "as opções.\n");
  CliWorld w;
  REQUIRE(start(w).exit_code == 0);
  const std::string before = w.bytes();
  const ProcessResult again = start(w);
  CHECK(again.exit_code == 2);
  CHECK(contains(again.err, "já tem registros: use --resume"));
  CHECK(w.bytes() == before);
}

TEST_CASE("um registro que o disco recusa para o turno com saída 1, e a retomada continua dali") {
  CliWorld probe;
  REQUIRE(start(probe).exit_code == 0);
  const std::vector<std::string> lines = split_lines(probe.bytes());
  // O limite de tamanho de arquivo (ulimit -f, em blocos de 512) deixa passar
  // o start e o user, mas não a primeira resposta: write(2) falha com EFBIG.
  const std::size_t head = lines[0].size() + lines[1].size() + 2;
  const std::size_t blocks = head / 512 + 1;
  REQUIRE(blocks * 512 < head + lines[2].size() + 1);
  CliWorld w;
  const ProcessResult run = hz::testing::run_program(
      {"/bin/sh", "-c", "ulimit -f " + std::to_string(blocks) + "; trap '' XFSZ; exec \"$@\"", "sh",
       hz::testing::bin_path("hz-04-journal").string(), "--scenario", scenario("notes"),
       "--journal", w.journal.string(), "--workspace", w.ws()},
      "", {"OPENAI_BASE_URL=", "OPENAI_API_KEY=", "NO_COLOR=1", "HZ_CRASH_AT="});
  CAPTURE(run.err);
  CHECK(run.exit_code == 1);
  CHECK(run.out.empty());
  CHECK(contains(run.err, "hz-04-journal: journal " + w.journal.string() +
                              ": a escrita do registro seq 3 falhou: File too large\n"));
  CHECK(contains(run.err, "■ desfecho: journal"));
  CHECK(split_lines(w.bytes()).size() == 2);              // o pedaço escrito foi desfeito
  CHECK(w.file("notas.txt") == "# notas da migração\n");  // nenhuma ferramenta rodou
  const ProcessResult resumed = resume(w);
  CAPTURE(resumed.err);
  CHECK(resumed.exit_code == 0);
  CHECK(resumed.out == kAnswer);
  CHECK(w.file("notas.txt") == kNotes);
}
