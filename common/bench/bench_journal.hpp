// A seção do journal do hz-bench (etapa 04): o passo durável (Journal::append)
// ao lado do fdatasync puro do disco, e a retomada de um journal de 10.000
// registros (e de 20.000, para ver se cresce em linha reta). Só entra no
// hz-bench quando a etapa 04 está na trilha solutions (CMakeLists.txt da raiz).
#pragma once

#include <filesystem>

// A meta da retomada de 10.000 registros.
inline constexpr double kResumeTargetMs = 200.0;

// Mede na pasta dir (arquivos temporários, apagados no fim) com `steps`
// passos duráveis. Falso: a retomada passou da meta ou falhou.
bool run_journal_bench(const std::filesystem::path& dir, int steps);
