// A instância única que hz/json_instance.hpp promete (veja lá por quê).
#include "hz/json_instance.hpp"

template class nlohmann::basic_json<>;
template nlohmann::json nlohmann::json::parse<const std::string&>(const std::string&,
                                                                  nlohmann::json::parser_callback_t,
                                                                  bool, bool);
template nlohmann::json nlohmann::json::parse<std::string_view&>(std::string_view&,
                                                                 nlohmann::json::parser_callback_t,
                                                                 bool, bool);
