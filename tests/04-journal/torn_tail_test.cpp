// Exercício torn-tail: o fim rasgado de um journal (o que um processo morto
// no meio de um write deixa) é cortado com um aviso antes do próximo
// acréscimo; um estrago no meio para a leitura, diz a linha e o seq, e deixa
// o arquivo como estava.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "helpers.hpp"
#include "hz/testing/temp_dir.hpp"
#include "journal.hpp"
#include "records.hpp"

using hz::testing::TempDir;
using journal_test::json;
using journal_test::line;
using journal_test::why;

namespace {

const std::string kFirst = line(hz::start_record(journal_test::settings()), 1);
const std::string kSecond = line(hz::user_record("oi"), 2);
const std::string kThird = line(hz::note_record("uma nota"), 3);

struct Journaled {
  TempDir dir;
  std::filesystem::path path;
  explicit Journaled(const std::string& bytes) : path(dir.write("conversa.jsonl", bytes)) {}
  std::string bytes() const { return dir.read("conversa.jsonl"); }
};

// O texto sem o "journal <caminho>: " do começo, que os casos não repetem;
// sem ele, o texto vem marcado, e o CHECK falha.
std::string unnamed(const Journaled& j, const std::string& text) {
  const std::string prefix = "journal " + j.path.string() + ": ";
  if (text.rfind(prefix, 0) == 0) return text.substr(prefix.size());
  return "(sem \"" + prefix + "\" no começo) " + text;
}

// Retoma bytes (dois registros bons e um fim rasgado) e devolve o aviso do
// corte; se o corte não deixou exatamente os dois registros, ou se o próximo
// registro não caiu no lugar certo, o que deu errado vem depois do aviso. O
// CHECK que compara com o aviso esperado mostra os dois lados na linha do caso:
//   CHECK(cut(bytes) == "o último registro, na linha 3 ...");
std::string cut(const std::string& bytes) {
  Journaled j(bytes);
  auto resumed = hz::Journal::resume(j.path);
  if (!resumed.ok()) return "recusou: " + unnamed(j, resumed.error().message);
  std::string out = resumed->warning.empty() ? "(nenhum aviso)" : unnamed(j, resumed->warning);
  if (resumed->records.size() != 2) {
    out += "\n  mas ficaram " + std::to_string(resumed->records.size()) + " registros, e não 2";
  }
  if (j.bytes() != kFirst + kSecond) {
    out += "\n  mas o arquivo ficou com " + hz::testing::quoted(j.bytes());
  }
  const auto appended = resumed->journal.append(hz::note_record("uma nota"));
  if (!appended.ok()) {
    out += "\n  e o próximo registro foi recusado: " + appended.error().message;
  } else if (j.bytes() != kFirst + kSecond + kThird) {
    out +=
        "\n  e, depois do próximo registro, o arquivo ficou com " + hz::testing::quoted(j.bytes());
  }
  return out;
}

// Lê bytes (com um estrago) e devolve a mensagem da recusa; se a leitura
// aceitou, se a retomada disse outra coisa ou se o arquivo mudou, diz isso.
//   CHECK(refusal(bytes) == "registro danificado na linha 2 ...");
std::string refusal(const std::string& bytes) {
  Journaled j(bytes);
  const auto read = hz::read_journal(j.path);
  if (read.ok()) {
    const std::size_t count = read->records.size();
    const std::string warning =
        read->warning.empty() ? "" : ", com o aviso: " + unnamed(j, read->warning);
    return "aceitou: " + std::to_string(count) + (count == 1 ? " registro" : " registros") +
           warning;
  }
  std::string out = unnamed(j, read.error().message);
  if (j.bytes() != bytes)
    out += "\n  mas a leitura mudou o arquivo: " + hz::testing::quoted(j.bytes());
  const auto resumed = hz::Journal::resume(j.path);
  if (resumed.ok()) {
    out += "\n  mas a retomada aceitou";
  } else if (resumed.error().message != read.error().message) {
    out += "\n  mas a retomada disse: " + resumed.error().message;
  }
  if (j.bytes() != bytes) out += "\n  e o arquivo mudou: " + hz::testing::quoted(j.bytes());
  return out;
}

std::string with_crc_mismatch(std::string text) {
  // "oi" virou "oI": JSON válido, crc errado.
  text.replace(text.find("\"oi\""), 4, "\"oI\"");
  return text;
}

}  // namespace

TEST_SUITE_BEGIN("04-journal/torn-tail");

TEST_CASE("um registro pela metade no fim é cortado com aviso, e o próximo cai no lugar dele") {
  CHECK(cut(kFirst + kSecond + kThird.substr(0, 25)) ==
        "o último registro, na linha 3 (seq esperado 3), estava incompleto (sem a quebra de "
        "linha do fim): "
        "25 bytes cortados; o journal agora termina no seq 2");
}

TEST_CASE("um último registro completo mas sem o \\n também é cortado") {
  // Quem gravou não chegou a ver o append voltar: o passo seguinte não começou.
  const std::string unterminated = kThird.substr(0, kThird.size() - 1);
  CHECK(cut(kFirst + kSecond + unterminated) ==
        "o último registro, na linha 3 (seq esperado 3), estava incompleto (sem a quebra de "
        "linha do fim): " +
            std::to_string(unterminated.size()) +
            " bytes cortados; o journal agora termina no seq 2");
}

TEST_CASE("bytes nulos no fim (o que o ext4 deixa de um append interrompido) são cortados") {
  CHECK(cut(kFirst + kSecond + std::string(64, '\0')) ==
        "o último registro, na linha 3 (seq esperado 3), estava incompleto (sem a quebra de "
        "linha do fim): "
        "64 bytes cortados; o journal agora termina no seq 2");
  CHECK(cut(kFirst + kSecond + std::string(64, '\0') + "\n") ==
        "o último registro, na linha 3 (seq esperado 3), estava incompleto (" +
            why(std::string(64, '\0'), 3) +
            "): 65 bytes cortados; o journal agora termina no seq 2");
}

TEST_CASE("uma última linha com \\n que não é JSON ou com o crc errado é cortada") {
  CHECK(cut(kFirst + kSecond + kThird.substr(0, 30) + "\n") ==
        "o último registro, na linha 3 (seq esperado 3), estava incompleto (" +
            why(kThird.substr(0, 30), 3) +
            "): 31 bytes cortados; o journal agora termina no seq 2");
  const std::string bad_crc = with_crc_mismatch(line(hz::user_record("oi"), 3));
  CHECK(cut(kFirst + kSecond + bad_crc) ==
        "o último registro, na linha 3 (seq esperado 3), estava incompleto (" +
            why(bad_crc.substr(0, bad_crc.size() - 1), 3) + "): " + std::to_string(bad_crc.size()) +
            " bytes cortados; o journal agora termina no seq 2");
}

TEST_CASE("bytes nulos no meio param a leitura com a linha e o seq, sem tocar no arquivo") {
  CHECK(refusal(kFirst + std::string(80, '\0') + "\n" + kThird) ==
        "registro danificado na linha 2 (seq esperado 2): " + why(std::string(80, '\0'), 2) +
            "; há registros depois dele, então não é o fim de uma escrita interrompida. O "
            "arquivo não foi alterado");
}

TEST_CASE("um crc que não confere num JSON válido no meio para a leitura") {
  const std::string bad = with_crc_mismatch(kSecond);
  CHECK(
      refusal(kFirst + bad + kThird) ==
      "registro danificado na linha 2 (seq esperado 2): " + why(bad.substr(0, bad.size() - 1), 2) +
          "; há registros depois dele, então não é o fim de uma escrita interrompida. "
          "O arquivo não foi alterado");
}

TEST_CASE("um registro rasgado seguido de outro (os dois grudados na mesma linha) é estrago") {
  // A armadilha do append sem corte: o próximo registro grudou no pedaço.
  const std::string glued = kSecond.substr(0, 20) + kThird;
  CHECK(refusal(kFirst + glued + line(hz::note_record("x"), 4)) ==
        "registro danificado na linha 2 (seq esperado 2): " +
            why(glued.substr(0, glued.size() - 1), 2) +
            "; há registros depois dele, então não é o fim de uma escrita interrompida. O "
            "arquivo não foi alterado");
}

TEST_CASE("uma quebra de linha estragada antes do último registro junta dois registros: estrago") {
  // Os dois últimos registros, completos e sincronizados, numa linha só: um
  // fim rasgado é o pedaço de UM registro, e cortar esta linha apagaria dois.
  std::string glued = kSecond;
  glued.back() = 'x';
  CHECK(refusal(kFirst + glued + kThird) ==
        "registro danificado na linha 2 (seq esperado 2): " +
            why(glued + kThird.substr(0, kThird.size() - 1), 2) + ". O arquivo não foi alterado");
}

TEST_CASE("um seq pulado para a leitura, mesmo no último registro") {
  CHECK(refusal(kFirst + kThird) == "registro danificado na linha 2 (seq esperado 2): " +
                                        why(kThird.substr(0, kThird.size() - 1), 2) +
                                        ". O arquivo não foi alterado");
}

TEST_CASE("journal vazio, inexistente ou só com um registro rasgado: nada para retomar") {
  Journaled empty("");
  const auto read = hz::read_journal(empty.path);
  REQUIRE_FALSE(read.ok());
  CHECK(read.error().message ==
        "journal " + empty.path.string() + " está vazio: não há nada para retomar");

  const auto missing = hz::Journal::resume(empty.dir / "outro.jsonl");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message == "journal " + (empty.dir / "outro.jsonl").string() +
                                       " não existe: não há nada para retomar");

  Journaled torn(kFirst.substr(0, 10));
  const auto cut = hz::Journal::resume(torn.path);
  REQUIRE_FALSE(cut.ok());
  CHECK(cut.error().message ==
        "journal " + torn.path.string() +
            ": o último registro, na linha 1 (seq esperado 1), estava "
            "incompleto (sem a quebra de linha do fim): 10 bytes cortados; o journal "
            "agora termina no seq 0; não sobrou nenhum registro: não há "
            "nada para retomar");
  CHECK(torn.bytes().empty());
}

TEST_CASE("scan_journal diz até onde vão os registros bons") {
  const auto whole = hz::scan_journal(kFirst + kSecond);
  REQUIRE_MESSAGE(whole.ok(), hz::testing::refusal(whole));
  CHECK(whole->records.size() == 2);
  CHECK(whole->good_bytes == kFirst.size() + kSecond.size());
  CHECK(whole->torn.empty());
  const auto torn = hz::scan_journal(kFirst + "{\"crc\"");
  REQUIRE_MESSAGE(torn.ok(), hz::testing::refusal(torn));
  CHECK(torn->records.size() == 1);
  CHECK(torn->good_bytes == kFirst.size());
  CHECK(torn->torn ==
        "o último registro, na linha 2 (seq esperado 2), estava incompleto (sem a quebra de linha "
        "do fim): 6 "
        "bytes cortados; o journal agora termina no seq 1");
}

TEST_CASE("todo prefixo de um journal (o que uma queda pode deixar) é lido sem erro") {
  const std::vector<std::string> recs{kFirst, kSecond, kThird};
  const std::string whole = kFirst + kSecond + kThird;
  std::size_t complete = 0;  // registros inteiros (com o \n) no prefixo
  std::size_t boundary = 0;  // onde termina o último deles
  for (std::size_t cut = 0; cut <= whole.size(); ++cut) {
    if (complete < recs.size() && cut == boundary + recs[complete].size()) {
      boundary = cut;
      ++complete;
    }
    CAPTURE(cut);
    // O que o prefixo tem depois do último registro inteiro (o pedaço rasgado).
    const std::string piece = hz::testing::quoted(whole.substr(boundary, cut - boundary));
    INFO("depois do último registro inteiro, o prefixo tem ", piece);
    const auto scan = hz::scan_journal(std::string_view(whole).substr(0, cut));
    REQUIRE_MESSAGE(scan.ok(), hz::testing::refusal(scan));
    CHECK(scan->records.size() == complete);
    CHECK(scan->good_bytes == boundary);
    CHECK(scan->torn.empty() == (cut == boundary));
  }
}

TEST_CASE("um byte trocado em qualquer lugar nunca passa despercebido nem faz a leitura lançar") {
  const std::string whole = kFirst + kSecond + kThird;
  for (std::size_t at = 0; at < whole.size(); ++at) {
    for (const char byte : {'\0', '\n', '"', '}', 'x', '\xff'}) {
      if (whole[at] == byte) continue;
      std::string damaged = whole;
      damaged[at] = byte;
      CAPTURE(at);
      const auto scan = hz::scan_journal(damaged);
      // O byte e o que a leitura fez, calculados antes dos CHECKs.
      const std::string outcome = scan.ok()
                                      ? std::to_string(scan->records.size()) +
                                            " registros, aviso " + hz::testing::quoted(scan->torn)
                                      : "recusou: " + scan.error().message;
      INFO("o byte trocado por ", hz::testing::quoted(std::string(1, byte)),
           "; a leitura: ", outcome);
      // Até o \n do penúltimo, é estrago (o \n trocado junta dois registros
      // completos numa linha só, que não é um fim rasgado); no último
      // registro, estrago ou fim cortado, e o corte nunca leva os dois primeiros.
      const std::size_t glue = kFirst.size() + kSecond.size() - 1;
      if (at <= glue) CHECK_FALSE(scan.ok());
      if (scan.ok()) {
        CHECK(scan->records.size() == 2u);
        CHECK_FALSE(scan->torn.empty());
      }
    }
  }
}

// Aqui, e não no exercício 1: retomar lê os registros (exercício 2) e corta o
// fim rasgado (este), e um exercício só depende dos anteriores.
TEST_CASE("append continua a numeração de um journal retomado") {
  TempDir dir;
  dir.write("conversa.jsonl", line(hz::user_record("a"), 1) + line(hz::user_record("b"), 2));
  auto resumed = hz::Journal::resume(dir / "conversa.jsonl");
  REQUIRE_MESSAGE(resumed.ok(), hz::testing::refusal(resumed));
  const auto seq = resumed->journal.append(hz::user_record("c"));
  REQUIRE_MESSAGE(seq.ok(), hz::testing::refusal(seq));
  CHECK(*seq == 3);
  CHECK(dir.read("conversa.jsonl") == line(hz::user_record("a"), 1) +
                                          line(hz::user_record("b"), 2) +
                                          line(hz::user_record("c"), 3));
  CHECK(resumed->journal.syncs() == 1);
}

TEST_SUITE_END();

// Fora do exercício: o limite vem antes de a linha ser lida como JSON.
TEST_CASE("um registro maior que o limite não é lido nem gravado, e o arquivo fica como estava") {
  // Um registro válido de 100 MB levava 55 s e 1 GB para ser retomado. O limite é 16 MiB.
  const std::string text(std::size_t{16} * 1024 * 1024, 'x');
  const std::string big = line(hz::note_record(text), 2);
  Journaled j(kFirst + big + kThird);
  const auto resumed = hz::Journal::resume(j.path);
  REQUIRE_FALSE(resumed.ok());
  CHECK(unnamed(j, resumed.error().message) ==
        "registro grande demais na linha 2 (seq esperado 2): " + std::to_string(big.size()) +
            " bytes, e o limite de um registro é 16 MiB (o maior que o harness grava). O arquivo "
            "não foi alterado");
  CHECK(j.bytes() == kFirst + big + kThird);

  TempDir dir;
  auto journal = hz::Journal::create(dir / "novo.jsonl");
  REQUIRE_MESSAGE(journal.ok(), hz::testing::refusal(journal));
  const auto refused = journal->append(hz::note_record(text));
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message == "journal " + (dir / "novo.jsonl").string() +
                                       ": o registro seq 1 teria " + std::to_string(big.size()) +
                                       " bytes, mais que o limite de 16 MiB de um registro; nada "
                                       "foi gravado");
  CHECK(dir.read("novo.jsonl").empty());
}
