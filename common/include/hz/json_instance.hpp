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

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

extern template class nlohmann::basic_json<>;

// O parse é um template à parte (um por tipo de entrada), que a linha acima
// não cobre: cada arquivo que lê JSON gerava de novo o lexer e o parser
// inteiros. Estes são os dois que o núcleo usa, um texto (const
// std::string&) e uma vista (std::string_view&). Medido no tool_dispatch.cpp
// da etapa 01: de 2,7 s para 1,7 s de CPU.
extern template nlohmann::json nlohmann::json::parse<const std::string&>(
    const std::string&, nlohmann::json::parser_callback_t, bool, bool);
extern template nlohmann::json nlohmann::json::parse<std::string_view&>(
    std::string_view&, nlohmann::json::parser_callback_t, bool, bool);
