// CRC-32C (Castagnoli): o checksum de cada registro do journal.
//
// Um CRC não protege contra quem quer enganar, só contra o acaso: um bit
// trocado no disco, um registro cortado no meio, bytes nulos que o sistema de
// arquivos deixou depois de uma queda. Para isso basta e é barato. O C de
// Castagnoli é o polinômio 0x1EDC6F41, escolhido por detectar mais erros que
// o do zlib em mensagens do tamanho das nossas; é o mesmo do iSCSI, do ext4
// e do log do leveldb (que tem instrução própria em x86 e ARM, não usada aqui).
//
// A conta é a de sempre: bits refletidos (o polinômio vira 0x82F63B78), valor
// inicial 0xFFFFFFFF e inversão no fim. Valor de conferência do padrão:
// crc32c("123456789") == 0xE3069283.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hz {

// listing: crc32c
// O CRC-32C de `bytes`. `crc` continua uma conta já começada:
// crc32c("ab") == crc32c("b", crc32c("a")).
std::uint32_t crc32c(std::string_view bytes, std::uint32_t crc = 0);
// end-listing: crc32c

// 8 dígitos hexadecimais minúsculos: 0xE3069283 -> "e3069283".
std::string crc32c_hex(std::uint32_t crc);

}  // namespace hz
