// Utilidades de texto usadas pelo harness e pelo trace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace hz {

// text sem espaços, tabulações, \r e \n nas pontas.
std::string_view trim(std::string_view text);

// Quantos caracteres UTF-8 o texto tem (os bytes que não continuam um
// caractere): as colunas que ele ocupa num terminal ou para o clang-format.
std::size_t utf8_length(std::string_view text);

// "1 byte", "2 bytes": um tamanho para uma mensagem.
std::string bytes_text(std::uint64_t n);

// Se text tem mais que max_bytes, guarda o começo e o fim e põe no meio um
// marcador "[... N bytes omitidos ...]". Nunca corta um caractere UTF-8 ao
// meio. O resultado tem no máximo max_bytes + o tamanho do marcador.
std::string truncate_middle(std::string_view text, std::size_t max_bytes);

// truncate_middle para texto que chega aos pedaços (a saída de um comando):
// guarda só o começo e uma cauda que rola, então a memória fica em torno de
// 2 * max_bytes por maior que seja a entrada, e o custo total é linear.
// str() é exatamente truncate_middle(tudo o que entrou, max_bytes).
class MiddleTruncator {
 public:
  explicit MiddleTruncator(std::size_t max_bytes);

  void append(std::string_view chunk);
  std::size_t total_bytes() const { return kept_.size() + dropped_; }
  bool truncated() const { return total_bytes() > max_bytes_; }
  std::string str() const;

 private:
  std::size_t max_bytes_;
  std::size_t head_keep_;    // começo que nunca sai: a cabeça e 1 byte para a fronteira UTF-8
  std::size_t tail_keep_;    // bytes do fim que a cauda precisa
  std::string kept_;         // os head_keep_ primeiros bytes e, depois deles, um trecho final
  std::size_t dropped_ = 0;  // bytes jogados fora logo depois dos head_keep_ primeiros
};

// text pronto para o terminal: caracteres de controle (C0 menos \n e \t, DEL
// e C1) viram escapes visíveis como "\x1b", para que a saída de uma
// ferramenta ou de um modelo não mude cores, título ou conteúdo da tela.
std::string printable(std::string_view text);

// printable que também escapa \n e \t ("\x0a", "\x09"): o texto ocupa sempre
// uma linha só (a mensagem de erro de um cenário, no hz-mock).
std::string printable_line(std::string_view text);

// printable para texto que chega aos pedaços (a resposta do modelo em
// streaming): feed(a) + feed(b) + finish() == printable(a + b), para
// qualquer corte. Um C1 em UTF-8 (0xC2 seguido de 0x80..0x9F) partido entre
// dois pedaços continua escapado: o 0xC2 do fim de um pedaço espera o
// próximo. Um escape partido (ESC num pedaço, "[2J" no outro) não precisa de
// espera: o ESC vira "\x1b" sozinho e o resto é texto comum.
class PrintableStream {
 public:
  std::string feed(std::string_view chunk);
  // O que ficou guardado (no máximo um byte), quando o texto acabou.
  std::string finish();

 private:
  bool pending_lead_ = false;  // o pedaço anterior terminou num 0xC2
};

// Resumo de text para o trace humano: as primeiras max_lines linhas não
// vazias, sem espaços nas pontas, unidas por " · ", com no máximo max_chars
// caracteres. Se cortou no tamanho, termina em "…"; se só sobraram linhas,
// em " …". Ex.: brief("código de saída: 1\nFALHOU\n...", 2, 80) ==
// "código de saída: 1 · FALHOU …".
std::string brief(std::string_view text, std::size_t max_lines, std::size_t max_chars);

}  // namespace hz
