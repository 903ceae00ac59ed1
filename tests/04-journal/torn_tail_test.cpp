// Exercício torn-tail: o fim rasgado de um journal (o que um processo morto
// no meio de um write deixa) é cortado com um aviso antes do próximo
// acréscimo; um estrago no meio para a leitura, diz a linha e o seq, e deixa
// o arquivo como estava.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "crc32c.hpp"
#include "helpers.hpp"
#include "hz/testing/temp_dir.hpp"
#include "journal.hpp"

using hz::testing::TempDir;
using journal_test::json;
using journal_test::line;

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

// Resume, confere o aviso e que o próximo registro cai no lugar certo.
void check_cut(const std::string& bytes, const std::string& warning) {
  Journaled j(bytes);
  auto resumed = hz::Journal::resume(j.path);
  REQUIRE(resumed.ok());
  CHECK(resumed->warning == "journal " + j.path.string() + ": " + warning);
  CHECK(resumed->records.size() == 2);
  CHECK(j.bytes() == kFirst + kSecond);
  REQUIRE(resumed->journal.append(hz::note_record("uma nota")).ok());
  CHECK(j.bytes() == kFirst + kSecond + kThird);
}

void check_refused(const std::string& bytes, const std::string& error) {
  Journaled j(bytes);
  const auto read = hz::read_journal(j.path);
  REQUIRE_FALSE(read.ok());
  CHECK(read.error().message == "journal " + j.path.string() + ": " + error);
  CHECK(j.bytes() == bytes);  // nem um byte mexido
  const auto resumed = hz::Journal::resume(j.path);
  REQUIRE_FALSE(resumed.ok());
  CHECK(resumed.error().message == read.error().message);
  CHECK(j.bytes() == bytes);
}

std::string with_crc_mismatch(std::string text) {
  // "oi" virou "oI": JSON válido, crc errado.
  text.replace(text.find("\"oi\""), 4, "\"oI\"");
  return text;
}

}  // namespace

TEST_SUITE_BEGIN("04-journal/torn-tail");

TEST_CASE("um registro pela metade no fim é cortado com aviso, e o próximo cai no lugar dele") {
  check_cut(kFirst + kSecond + kThird.substr(0, 25),
            "o último registro, na linha 3 (seq esperado 3), estava incompleto (sem a quebra de "
            "linha do fim): "
            "25 bytes cortados; o journal agora termina no seq 2");
}

TEST_CASE("um último registro completo mas sem o \\n também é cortado") {
  // Quem gravou não chegou a ver o append voltar: o passo seguinte não começou.
  const std::string unterminated = kThird.substr(0, kThird.size() - 1);
  check_cut(kFirst + kSecond + unterminated,
            "o último registro, na linha 3 (seq esperado 3), estava incompleto (sem a quebra de "
            "linha do fim): " +
                std::to_string(unterminated.size()) +
                " bytes cortados; o journal agora termina no seq 2");
}

TEST_CASE("bytes nulos no fim (o que o ext4 deixa de um append interrompido) são cortados") {
  check_cut(kFirst + kSecond + std::string(64, '\0'),
            "o último registro, na linha 3 (seq esperado 3), estava incompleto (sem a quebra de "
            "linha do fim): "
            "64 bytes cortados; o journal agora termina no seq 2");
  check_cut(kFirst + kSecond + std::string(64, '\0') + "\n",
            "o último registro, na linha 3 (seq esperado 3), estava incompleto (bytes nulos no "
            "lugar do registro, o que o sistema de arquivos deixa de uma escrita interrompida): "
            "65 bytes cortados; o journal agora termina no seq 2");
}

TEST_CASE("uma última linha com \\n que não é JSON ou com o crc errado é cortada") {
  check_cut(kFirst + kSecond + kThird.substr(0, 30) + "\n",
            "o último registro, na linha 3 (seq esperado 3), estava incompleto (não é JSON "
            "válido): 31 bytes cortados; o journal agora termina no seq 2");
  const std::string bad_crc = with_crc_mismatch(line(hz::user_record("oi"), 3));
  const auto computed = hz::crc32c_hex(hz::crc32c(R"({"seq":3,"text":"oI","type":"user"})"));
  check_cut(kFirst + kSecond + bad_crc,
            "o último registro, na linha 3 (seq esperado 3), estava incompleto (crc não confere: "
            "gravado " +
                bad_crc.substr(8, 8) + ", calculado " + computed +
                "): " + std::to_string(bad_crc.size()) +
                " bytes cortados; o journal agora termina no seq 2");
}

TEST_CASE("bytes nulos no meio param a leitura com a linha e o seq, sem tocar no arquivo") {
  check_refused(kFirst + std::string(80, '\0') + "\n" + kThird,
                "registro danificado na linha 2 (seq esperado 2): bytes nulos no lugar do "
                "registro, o que o sistema de arquivos deixa de uma escrita interrompida; há "
                "registros depois dele, então não é o fim de uma escrita interrompida. O arquivo "
                "não foi alterado");
}

TEST_CASE("um crc que não confere num JSON válido no meio para a leitura") {
  const std::string bad = with_crc_mismatch(kSecond);
  const auto computed = hz::crc32c_hex(hz::crc32c(R"({"seq":2,"text":"oI","type":"user"})"));
  check_refused(kFirst + bad + kThird,
                "registro danificado na linha 2 (seq esperado 2): crc não confere: gravado " +
                    bad.substr(8, 8) + ", calculado " + computed +
                    "; há registros depois dele, então não é o fim de uma escrita interrompida. "
                    "O arquivo não foi alterado");
}

TEST_CASE("um registro rasgado seguido de outro (os dois grudados na mesma linha) é estrago") {
  // A armadilha do append sem corte: o próximo registro grudou no pedaço.
  check_refused(kFirst + kSecond.substr(0, 20) + kThird + line(hz::note_record("x"), 4),
                "registro danificado na linha 2 (seq esperado 2): não é JSON válido; há "
                "registros depois dele, então não é o fim de uma escrita interrompida. O arquivo "
                "não foi alterado");
}

TEST_CASE("um seq pulado para a leitura, mesmo no último registro") {
  check_refused(kFirst + kThird,
                "registro danificado na linha 2 (seq esperado 2): seq 3 fora de ordem: esperava "
                "2. O arquivo não foi alterado");
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
  REQUIRE(whole.ok());
  CHECK(whole->records.size() == 2);
  CHECK(whole->good_bytes == kFirst.size() + kSecond.size());
  CHECK(whole->torn.empty());
  const auto torn = hz::scan_journal(kFirst + "{\"crc\"");
  REQUIRE(torn.ok());
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
    const auto scan = hz::scan_journal(std::string_view(whole).substr(0, cut));
    REQUIRE(scan.ok());
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
      // No meio, é estrago; no último registro, estrago ou fim cortado. O limite da regra: o
      // \n do penúltimo trocado junta os dois últimos numa linha só, que parece rasgada e é
      // cortada inteira (com o aviso).
      const std::size_t glue = kFirst.size() + kSecond.size() - 1;
      if (at < glue) CHECK_FALSE(scan.ok());
      if (scan.ok()) {
        CHECK(scan->records.size() == (at == glue ? 1u : 2u));
        CHECK_FALSE(scan->torn.empty());
      }
    }
  }
}

TEST_SUITE_END();
