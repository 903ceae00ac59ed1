// Alvo: o leitor do journal da etapa 04 (hz::scan_journal, hz::decode_line) e a
// retomada que vem depois dele (hz::rebuild_state).
//
// Entrada: o conteúdo inteiro de um arquivo de journal.
//
// Propriedades: nada lança; o fim rasgado só existe quando sobram bytes depois
// do último registro bom (good_bytes < tamanho), e o aviso diz o que foi
// cortado; os registros bons têm seq 1, 2, 3... e, lidos de novo só até
// good_bytes, dão os mesmos registros sem fim rasgado (o corte é estável);
// cada linha passada sozinha a decode_line não lança.
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

#include "journal.hpp"
#include "journal_record.hpp"
#include "resume.hpp"
#include "support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes = hz::fuzz::text_of(data, size);
  try {
    std::int64_t seq = 1;
    for (std::size_t from = 0; from < bytes.size();) {
      const std::size_t nl = bytes.find('\n', from);
      const std::size_t end = nl == std::string_view::npos ? bytes.size() : nl;
      if (hz::decode_line(bytes.substr(from, end - from), seq)) ++seq;
      from = end + 1;
    }
  } catch (const std::exception& error) {
    hz::fuzz::escaped("decode_line", error);
  }
  try {
    const auto scan = hz::scan_journal(bytes);
    if (!scan) return 0;
    hz::fuzz::check(scan->good_bytes <= bytes.size(), "good_bytes dentro do conteúdo");
    hz::fuzz::check(scan->torn.empty() == (scan->good_bytes == bytes.size()),
                    "fim rasgado se e só se sobram bytes");
    for (std::size_t i = 0; i < scan->records.size(); ++i) {
      hz::fuzz::check(scan->records[i].seq == static_cast<std::int64_t>(i) + 1, "seq 1, 2, 3...");
    }
    const auto again = hz::scan_journal(bytes.substr(0, scan->good_bytes));
    hz::fuzz::check(again.ok(), "o prefixo bom lê sem erro");
    hz::fuzz::check(again->torn.empty(), "o prefixo bom não tem fim rasgado");
    hz::fuzz::check(again->records.size() == scan->records.size(), "o corte é estável");
    (void)hz::rebuild_state(scan->records);
  } catch (const std::exception& error) {
    hz::fuzz::escaped("scan_journal", error);
  }
  return 0;
}
