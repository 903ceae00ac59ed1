// Os cenários que vêm com o curso, para as etapas e os testes acharem pelo nome.
#pragma once

#include <filesystem>
#include <string_view>

#include "hz/mock/scenario.hpp"
#include "hz/result.hpp"

namespace hz::mock {

// A pasta dos cenários embutidos: <prefixo>/share/harness-zero/scenarios se o
// executável roda instalado em <prefixo>/bin (só no Linux); senão
// mock-server/scenarios/ do código-fonte, fixada na compilação por HZ_SCENARIO_DIR.
std::filesystem::path scenario_dir();

// Acha um cenário:
//  - parece caminho (tem '/' ou termina em ".json"): precisa ser um arquivo;
//  - senão é um nome: scenario_dir()/NOME.json (ex.: "monday", "examples/faults").
// Devolve o caminho absoluto, ou um erro que lista os nomes disponíveis.
Result<std::filesystem::path> find_scenario(std::string_view name_or_file);

// Cria uma pasta temporária nova (TMPDIR/hz-workspace-XXXXXX) e copia para
// ela o conteúdo da fixture do cenário, recursivamente, preservando as
// permissões (o bit de execução dos scripts). Sem fixture: a pasta fica vazia.
// Quem chama é dono da pasta e a apaga quando quiser.
Result<std::filesystem::path> copy_fixture_to_temp(const Scenario& scenario);

}  // namespace hz::mock
