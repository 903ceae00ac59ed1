// A instância única que hz/json_instance.hpp promete (veja lá por quê).
#include "hz/json_instance.hpp"

template class nlohmann::basic_json<>;
