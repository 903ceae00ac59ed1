#include <doctest/doctest.h>

#include "hz/text.hpp"

TEST_CASE("truncate_middle não mexe em texto que cabe") {
  CHECK(hz::truncate_middle("abcdef", 6) == "abcdef");
  CHECK(hz::truncate_middle("", 0) == "");
}

TEST_CASE("truncate_middle guarda começo e fim com o marcador no meio") {
  CHECK(hz::truncate_middle("0123456789", 4) == "01[... 6 bytes omitidos ...]89");
  CHECK(hz::truncate_middle("0123456789", 5) == "01[... 5 bytes omitidos ...]789");
  CHECK(hz::truncate_middle("0123456789", 0) == "[... 10 bytes omitidos ...]");
}

TEST_CASE("truncate_middle nunca corta um caractere UTF-8 ao meio") {
  // "é" tem 2 bytes e "€" tem 3: os cortes caem no meio deles e recuam/avançam.
  const std::string text = "aé" + std::string(10, 'x') + "€b";  // 1+2+10+3+1 = 17 bytes
  CHECK(hz::truncate_middle(text, 4) == "a[... 15 bytes omitidos ...]b");
  CHECK(hz::truncate_middle(text, 6) == "aé[... 13 bytes omitidos ...]b");
  CHECK(hz::truncate_middle(text, 7) == "aé[... 10 bytes omitidos ...]€b");
}

namespace {

// Passa text para um MiddleTruncator em pedaços de chunk bytes.
std::string stream_through(std::string_view text, std::size_t max_bytes, std::size_t chunk) {
  hz::MiddleTruncator cut(max_bytes);
  for (std::size_t i = 0; i < text.size(); i += chunk) cut.append(text.substr(i, chunk));
  CHECK(cut.total_bytes() == text.size());
  CHECK(cut.truncated() == (text.size() > max_bytes));
  return cut.str();
}

}  // namespace

TEST_CASE("MiddleTruncator guarda começo e fim e conta os bytes omitidos") {
  hz::MiddleTruncator cut(4);
  CHECK(cut.str() == "");
  cut.append("01");
  cut.append("2");
  CHECK(cut.str() == "012");
  CHECK_FALSE(cut.truncated());
  cut.append("3456789");
  CHECK(cut.str() == "01[... 6 bytes omitidos ...]89");
  CHECK(cut.truncated());
  CHECK(cut.total_bytes() == 10);
}

TEST_CASE("MiddleTruncator em pedaços dá o mesmo que truncate_middle no texto inteiro") {
  // Texto longo o bastante para compactar várias vezes, com caracteres de 2
  // e 3 bytes para exercitar as fronteiras UTF-8 em toda posição.
  std::string text = "COMECO\n";
  for (int i = 0; i < 3000; ++i) text += std::to_string(i) + (i % 3 == 0 ? "é" : "€") + "\n";
  text += "FIMSAIDA\n";
  for (std::size_t max_bytes : {0U, 1U, 2U, 5U, 7U, 64U, 1000U, 4097U}) {
    for (std::size_t chunk : {1U, 3U, 7U, 8192U}) {
      CAPTURE(max_bytes);
      CAPTURE(chunk);
      CHECK(stream_through(text, max_bytes, chunk) == hz::truncate_middle(text, max_bytes));
    }
  }
  CHECK(stream_through(text, 64, 5) == "COMECO\n0é\n1€\n2€\n3é\n4€\n5[... " +
                                           std::to_string(text.size() - 64 + 1) +
                                           " bytes omitidos ...]2997é\n2998€\n2999€\nFIMSAIDA\n");
}

TEST_CASE("utf8_length conta caracteres, não bytes") {
  CHECK(hz::utf8_length("") == 0);
  CHECK(hz::utf8_length("abc") == 3);
  CHECK(hz::utf8_length("sem exercício") == 13);  // o í tem dois bytes
  CHECK(hz::utf8_length("✓ ok") == 4);            // o ✓ tem três
}

TEST_CASE("brief com uma linha devolve a primeira linha e marca o resto") {
  CHECK(hz::brief("código de saída: 0\nok\n", 1, 80) == "código de saída: 0 …");
  CHECK(hz::brief("só uma linha\n", 1, 80) == "só uma linha");
  CHECK(hz::brief("\n\n  primeira de verdade\r\nsegunda", 1, 80) == "primeira de verdade …");
  CHECK(hz::brief("", 1, 80) == "");
}

TEST_CASE("brief une as primeiras linhas não vazias com um ponto") {
  const std::string shell = "código de saída: 1\ntest_login ... FALHOU\n  detalhe\n";
  CHECK(hz::brief(shell, 2, 80) == "código de saída: 1 · test_login ... FALHOU …");
  CHECK(hz::brief("a\n\n\n  b  \n\n", 2, 80) == "a · b");
  CHECK(hz::brief("a\nb\nc", 3, 80) == "a · b · c");
  CHECK(hz::brief(shell, 2, 22) == "código de saída: 1 · t…");
}

TEST_CASE("brief corta linhas longas contando caracteres e não bytes") {
  CHECK(hz::brief("ação rápida demais", 1, 4) == "ação…");
  CHECK(hz::brief("abc def", 1, 4) == "abc…");
  CHECK(hz::brief("abcd", 1, 4) == "abcd");
}

TEST_CASE("printable troca códigos de terminal por escapes visíveis") {
  CHECK(hz::printable("\x1b[31mvermelho\x1b]0;titulo\x07") ==
        "\\x1b[31mvermelho\\x1b]0;titulo\\x07");
  CHECK(hz::printable("linha 1\n\tlinha 2") == "linha 1\n\tlinha 2");
  CHECK(hz::printable("del\x7f e c1 \xc2\x9b fim") == "del\\x7f e c1 \\u009b fim");
  CHECK(hz::printable("ação €") == "ação €");
}

TEST_CASE("printable_line escapa também a quebra de linha e a tabulação") {
  CHECK(hz::printable_line("a\nb\tc\x1b[2J\xc2\x85 ação") == "a\\x0ab\\x09c\\x1b[2J\\u0085 ação");
  CHECK(hz::printable_line("") == "");
}

TEST_CASE("trim tira espaços, tabulações e quebras de linha só das pontas") {
  CHECK(hz::trim(" \t\r\n a b \r\n") == "a b");
  CHECK(hz::trim("\n \t") == "");
  CHECK(hz::trim("") == "");
  CHECK(hz::trim("x") == "x");
}

TEST_CASE("PrintableStream escapa igual a printable em qualquer corte entre pedaços") {
  // Limpar a tela, OSC 52 (área de transferência), OSC 0 (título), CSI C1 em
  // UTF-8, DEL, acentos e um 0xC2 que não é C1 (o "Â").
  const std::string text =
      "a\x1b[2Jb\x1b]52;c;ZWNobw==\x07"
      "c\x1b]0;titulo\x07"
      "d\xc2\x9b"
      "31me\x7f ação Â\xc2\x85"
      "fim";
  const std::string whole = hz::printable(text);
  CHECK(whole ==
        "a\\x1b[2Jb\\x1b]52;c;ZWNobw==\\x07c\\x1b]0;titulo\\x07d\\u009b31me\\x7f ação "
        "Â\\u0085fim");
  for (std::size_t cut = 0; cut <= text.size(); ++cut) {
    for (std::size_t second = cut; second <= text.size(); ++second) {
      CAPTURE(cut);
      CAPTURE(second);
      hz::PrintableStream stream;
      std::string out = stream.feed(std::string_view(text).substr(0, cut));
      out += stream.feed(std::string_view(text).substr(cut, second - cut));
      out += stream.feed(std::string_view(text).substr(second));
      out += stream.finish();
      REQUIRE(out == whole);
    }
  }
}

TEST_CASE("PrintableStream segura só o 0xC2 do fim de um pedaço") {
  hz::PrintableStream stream;
  CHECK(stream.feed("antes \xc2") == "antes ");
  CHECK(stream.feed("") == "");
  CHECK(stream.feed("\x9b"
                    "2J depois") == "\\u009b2J depois");
  CHECK(stream.feed("\x1b") == "\\x1b");
  CHECK(stream.feed("[2J") == "[2J");
  CHECK(stream.feed("fim \xc2") == "fim ");
  CHECK(stream.finish() == "\xc2");  // o texto acabou: o byte sai como printable o deixaria
  CHECK(stream.finish() == "");
}
