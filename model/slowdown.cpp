#include "model/slowdown.hpp"

namespace mheta::model {

std::optional<Slowdown> read_slowdown(const JsonFields& fields, const Json& object, std::string_view path) {
  const Json* member = fields.optional_member(object, "slowdown", path);
  if (member == nullptr) return std::nullopt;
  const std::string here = field_path(path, "slowdown");
  if (!member->is_object()) fields.fail(here, "must be an object {\"cpu\": factor, \"io\": factor}");
  return Slowdown{fields.positive(*member, "cpu", here), fields.positive(*member, "io", here)};
}

Json slowdown_to_json(const Slowdown& slowdown) { return {{"cpu", slowdown.cpu}, {"io", slowdown.io}}; }

}  // namespace mheta::model
