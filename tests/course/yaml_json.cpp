#include "yaml_json.hpp"

#include <yaml-cpp/yaml.h>

#include <vector>

namespace hz::course::test {
namespace {

using nlohmann::json;

// Chave repetida: carrega a mensagem até parse_yaml, que a devolve como valor.
struct Failure {
  std::string message;
};

json to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      return node.Scalar();
    case YAML::NodeType::Sequence: {
      json items = json::array();
      for (const YAML::Node& item : node) items.push_back(to_json(item));
      return items;
    }
    case YAML::NodeType::Map: {
      json object = json::object();
      for (const auto& entry : node) {
        const std::string key = entry.first.Scalar();
        if (object.contains(key)) {
          throw Failure{"linha " + std::to_string(entry.first.Mark().line + 1) +
                        ": chave repetida: " + key};
        }
        object[key] = to_json(entry.second);
      }
      return object;
    }
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      break;
  }
  return nullptr;
}

}  // namespace

YamlResult parse_yaml(std::string_view text) {
  try {
    const std::vector<YAML::Node> documents = YAML::LoadAll(std::string(text));
    if (documents.size() > 1) {
      return {nullptr, "linha " + std::to_string(documents[1].Mark().line + 1) +
                           ": vários documentos não são suportados"};
    }
    return {documents.empty() ? json() : to_json(documents.front()), ""};
  } catch (const YAML::Exception& e) {
    return {nullptr, "linha " + std::to_string(e.mark.line + 1) + ", coluna " +
                         std::to_string(e.mark.column + 1) + ": " + e.msg};
  } catch (const Failure& f) {
    return {nullptr, f.message};
  }
}

}  // namespace hz::course::test
