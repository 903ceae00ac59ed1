# O nlohmann/json sem os literais _json e _json_pointer.
#
# O json.hpp (3.11) define operator""_json como uma função inline comum, não
# um template. O corpo dela chama json::parse<const char*>, e o g++ instancia
# esse parse (o lexer e o parser inteiros) no fim de todo arquivo que inclui o
# cabeçalho, mesmo que o arquivo nunca use o literal. Medido com o cabeçalho
# pré-compilado do núcleo (2 núcleos, 6 de dezembro de 2026): um arquivo vazio
# custava 1,17 s de CPU; sem os literais, 0,36 s. É o custo fixo de cada
# arquivo que o aluno salva.
#
# O curso não usa os literais. Esta função copia o json.hpp do sistema para
# build*/hz-json/nlohmann/, sem a definição dos dois e sem os using que os
# põem no escopo global, e põe essa pasta antes da do sistema no alvo
# nlohmann_json::nlohmann_json. O resto do pacote (nlohmann/detail/...) continua
# vindo do sistema. Se o texto não é o esperado (outra versão do pacote), nada
# muda: o build usa o cabeçalho do sistema como está.
function(hz_json_without_literals)
  get_target_property(dirs nlohmann_json::nlohmann_json INTERFACE_INCLUDE_DIRECTORIES)
  find_file(HZ_JSON_HEADER nlohmann/json.hpp PATHS ${dirs} NO_DEFAULT_PATH)
  if(NOT HZ_JSON_HEADER)
    return()
  endif()
  file(READ "${HZ_JSON_HEADER}" text)
  set(first "JSON_HEDLEY_NON_NULL(1)\ninline nlohmann::json operator \"\" _json(")
  set(after "}  // namespace json_literals")
  set(global_using
      "    using nlohmann::literals::json_literals::operator \"\" _json; // NOLINT(misc-unused-using-decls,google-global-names-in-headers)\n    using nlohmann::literals::json_literals::operator \"\" _json_pointer; //NOLINT(misc-unused-using-decls,google-global-names-in-headers)\n"
  )
  string(FIND "${text}" "${first}" begin)
  string(FIND "${text}" "${after}" end)
  string(FIND "${text}" "${global_using}" using_at)
  if(begin EQUAL -1 OR end LESS begin OR using_at EQUAL -1)
    message(STATUS "nlohmann/json: cabeçalho do sistema como está (os literais não estão onde a 3.11 os põe)")
    return()
  endif()
  string(SUBSTRING "${text}" 0 ${begin} head)
  string(SUBSTRING "${text}" ${end} -1 tail)
  string(REPLACE "${global_using}" "" tail "${tail}")
  set(dir "${CMAKE_BINARY_DIR}/hz-json")
  # Escrito só quando muda: um cabeçalho com data nova recompilaria tudo.
  file(WRITE "${dir}/nlohmann/json.hpp.new" "${head}${tail}")
  file(COPY_FILE "${dir}/nlohmann/json.hpp.new" "${dir}/nlohmann/json.hpp" ONLY_IF_DIFFERENT)
  file(REMOVE "${dir}/nlohmann/json.hpp.new")
  set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
                                                                "${HZ_JSON_HEADER}")
  set_property(TARGET nlohmann_json::nlohmann_json PROPERTY INTERFACE_INCLUDE_DIRECTORIES
                                                            "${dir}" ${dirs})
endfunction()
