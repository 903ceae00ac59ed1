// As saídas do encanamento das etapas (etapas/support) que levam texto do
// modelo ou de um cenário ao terminal.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "hz/stage/console.hpp"
#include "hz/stage/interrupt.hpp"
#include "hz/stage/session.hpp"

using nlohmann::json;

namespace {

// Um ESC cru (0x1b) ou um CSI C1 cru (U+009B em UTF-8) chegando ao terminal.
bool has_raw_control(const std::string& text) {
  return text.find('\x1b') != std::string::npos || text.find("\xc2\x9b") != std::string::npos ||
         text.find('\x07') != std::string::npos;
}

}  // namespace

TEST_CASE("write_answer escreve a resposta escapada com quebra de linha") {
  std::ostringstream out;
  CHECK(hz::stage::write_answer(out,
                                "pronto\x1b[2J\x1b]52;c;ZWNobw==\x07\x1b]0;t\x07\xc2\x9b"
                                "31m!"));
  CHECK(out.str() == "pronto\\x1b[2J\\x1b]52;c;ZWNobw==\\x07\\x1b]0;t\\x07\\u009b31m!\n");
  std::ostringstream plain;
  CHECK(hz::stage::write_answer(plain, "linha 1\n\tlinha 2 ação"));
  CHECK(plain.str() == "linha 1\n\tlinha 2 ação\n");
}

TEST_CASE("write_answer devolve false quando a escrita falha") {
  std::ostringstream out;
  out.setstate(std::ios::badbit);  // como um stdout fechado ou /dev/full depois do flush
  CHECK_FALSE(hz::stage::write_answer(out, "resposta"));
}

TEST_CASE("ask_permission mostra nome e argumentos do modelo sem controles crus") {
  std::istringstream in("s\n");
  std::ostringstream out;
  const json args = {{"path", "a\x1b]52;c;ZWNobw==\x07.txt"},
                     {"content",
                      "x\xc2\x9b"
                      "2J\x7f"}};
  CHECK(hz::stage::ask_permission(in, out, "write_file\x1b[2J", args));
  CHECK_FALSE(has_raw_control(out.str()));
  CHECK(out.str() ==
        "permitir write_file\\x1b[2J {\"content\":\"x\\u009b2J\\x7f\",\"path\":\"a\\u001b]52;c;"
        "ZWNobw==\\u0007.txt\"}? [s/N] ");
}

TEST_CASE("ask_permission não estoura a pilha com argumentos aninhados fundo demais") {
  // 100 mil níveis cabem em 200 KB de resposta; o dump deles é recursivo.
  json args = {{"path", "a.txt"}};
  args["content"] = json::parse(std::string(100000, '[') + std::string(100000, ']'));
  std::istringstream in("s\n");
  std::ostringstream out;
  CHECK(hz::stage::ask_permission(in, out, "write_file", args));
  CHECK(out.str() ==
        "permitir write_file (argumentos aninhados fundo demais para mostrar)? [s/N] ");
}

TEST_CASE("user_line escapa o pedido, que pode vir de um cenário") {
  CHECK(hz::stage::user_line("oi\x1b]0;titulo\x07", false) == "você> oi\\x1b]0;titulo\\x07");
}

TEST_CASE("closing_code devolve o código do turno quando a resposta e o trace chegaram") {
  const hz::stage::Session session;
  std::ostringstream err;
  CHECK(hz::stage::closing_code(err, "hz-x", session, false, false, 7) == 7);
  CHECK(hz::stage::closing_code(err, "hz-x", session, false, false, 0) == 0);
  CHECK(err.str().empty());
}

TEST_CASE("closing_code troca o código por 1 quando a resposta se perdeu, e diz por quê") {
  const hz::stage::Session session;
  std::ostringstream err;
  CHECK(hz::stage::closing_code(err, "hz-x", session, true, false, 0) == 1);
  CHECK(hz::stage::closing_code(err, "hz-x", session, true, false, 7) == 1);
  CHECK(err.str() ==
        "hz-x: não foi possível escrever a resposta na saída padrão\n"
        "hz-x: não foi possível escrever a resposta na saída padrão\n");
}

TEST_CASE("closing_code: um trace incompleto não termina como sucesso, mas não esconde um freio") {
  const hz::stage::Session session;
  std::ostringstream err;
  CHECK(hz::stage::closing_code(err, "hz-x", session, false, true, 0) == 1);
  CHECK(hz::stage::closing_code(err, "hz-x", session, false, true, 3) == 3);
  CHECK(err.str().empty());  // o próprio trace já avisou a falha
}

TEST_CASE("say_chat_goes_on diz que a conversa continua e como sair") {
  std::ostringstream out;
  hz::stage::say_chat_goes_on(out, false);
  CHECK(out.str() ==
        "  turno interrompido; a conversa continua (Ctrl-C no prompt, ou Ctrl-D, sai)\n");
}
