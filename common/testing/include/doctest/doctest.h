// O doctest de todo teste que liga com hz::testing: o <doctest/doctest.h> do
// sistema e, logo depois dele, como um texto aparece numa falha.
//
// Sem isto, o doctest imprime um std::string como está: um final_text vazio
// comparado com "feito" sai "CHECK(  == feito )", e um espaço a mais no fim não
// aparece. Com isto, os dois lados saem entre aspas, com quebras de linha e
// controles escapados (hz::testing::quoted): CHECK( "" == "feito" ).
//
// Por que um cabeçalho com o nome do próprio doctest: a especialização de
// StringMaker<std::string> tem de vir antes do primeiro CHECK que compara
// textos em cada arquivo (e em cada lote do build em unidade, HZ_UNITY), senão
// o doctest já usou a versão padrão. Esta pasta vem antes das do sistema na
// busca de #include, então todo #include <doctest/doctest.h> dos testes chega
// aqui, inclusive o do cabeçalho pré-compilado; o #include_next segue a busca
// e acha o do sistema. As mensagens (INFO, CAPTURE) continuam sem aspas. A linha "system_header"
// cala o aviso de extensão do #include_next (-Wpedantic), que o g++ e o clang entendem igual.
#pragma once
#pragma GCC system_header

#include_next <doctest/doctest.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace hz::testing {

// "texto" com \n, \t, \" e controles escapados (src/printing.cpp).
std::string quoted(std::string_view text);

}  // namespace hz::testing

namespace doctest {

template <>
struct StringMaker<std::string> {
  static String convert(const std::string& text);
};

template <>
struct StringMaker<std::string_view> {
  static String convert(std::string_view text);
};

// Um literal ("feito"), do lado direito de quase todo CHECK com texto.
template <std::size_t N>
struct StringMaker<char[N]> {
  static String convert(const char (&text)[N]) {
    const void* end = std::memchr(text, '\0', N);
    const std::size_t size =
        end ? static_cast<std::size_t>(static_cast<const char*>(end) - text) : N;
    return StringMaker<std::string_view>::convert(std::string_view(text, size));
  }
};

// Um const char* sai como o texto para onde aponta (o doctest puro mostra o
// endereço), como com DOCTEST_CONFIG_TREAT_CHAR_STAR_AS_STRING; a comparação
// continua sendo a do C++.
template <>
struct StringMaker<const char*> {
  static String convert(const char* text);
};

namespace detail {

// As mensagens (INFO, CAPTURE, CHECK_MESSAGE, FAIL) usam o mesmo caminho do
// doctest, e ganhariam aspas também: um INFO(first_difference(...)) de várias
// linhas sairia numa linha só, com \n. Estes operadores, que não são
// templates, ganham dos do MessageBuilder (que são) e escrevem o texto como
// está.
inline MessageBuilder& operator*(MessageBuilder& message, const char* text) {
  *message.m_stream << text;
  return message;
}
inline MessageBuilder& operator*(MessageBuilder& message, const std::string& text) {
  *message.m_stream << text;
  return message;
}
inline MessageBuilder& operator,(MessageBuilder& message, const char* text) {
  return message * text;
}
inline MessageBuilder& operator,(MessageBuilder& message, const std::string& text) {
  return message * text;
}
inline MessageBuilder& operator<<(MessageBuilder& message, const char* text) {
  return message * text;
}
inline MessageBuilder& operator<<(MessageBuilder& message, const std::string& text) {
  return message * text;
}

}  // namespace detail

}  // namespace doctest
