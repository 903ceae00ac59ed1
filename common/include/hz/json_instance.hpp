// O nlohmann::json (basic_json<>) compilado uma vez só, em
// common/src/json_instance.cpp, e não de novo em cada arquivo que o usa.
//
// Só o cabeçalho pré-compilado do núcleo na trilha de exercícios o inclui
// (cmake/HzPch.cmake): é lá que o aluno salva um arquivo e espera. Medido no
// agent_loop.cpp da etapa 02: 0,6 s de CPU a menos em cada compilação.
// Fora json_instance.cpp, nenhum arquivo do curso o inclui: sem o cabeçalho
// pré-compilado tudo compila igual, só instanciando o json de novo em cada
// arquivo.
#pragma once

#include <nlohmann/json.hpp>

extern template class nlohmann::basic_json<>;
