#include "model/json_fields.hpp"

#include <algorithm>
#include <cmath>

#include "model/format_error.hpp"

namespace mheta::model {

std::string describe(const Json& value) { return excerpt(value.dump(), 40); }

std::string field_path(std::string_view parent, std::string_view key) {
  if (parent.empty()) return std::string(key);
  return std::string(parent) + "." + std::string(key);
}

std::string index_path(std::string_view parent, std::size_t index) {
  return std::string(parent) + "[" + std::to_string(index) + "]";
}

void JsonFields::fail(std::string_view path, std::string_view reason) const {
  throw FormatError(source_, std::string(path), std::string(reason));
}

const Json* JsonFields::optional_member(const Json& object, std::string_view key,
                                        std::string_view path) const {
  if (!object.is_object()) fail(path, "must be a JSON object");
  const auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

const Json& JsonFields::member(const Json& object, std::string_view key, std::string_view path) const {
  const Json* value = optional_member(object, key, path);
  if (value == nullptr) fail(field_path(path, key), "missing required field");
  return *value;
}

const Json& JsonFields::array(const Json& object, std::string_view key, std::string_view path) const {
  const Json& value = member(object, key, path);
  if (!value.is_array()) fail(field_path(path, key), "must be an array");
  return value;
}

const Json& JsonFields::object(const Json& object, std::string_view key, std::string_view path) const {
  const Json& value = member(object, key, path);
  if (!value.is_object()) fail(field_path(path, key), "must be an object");
  return value;
}

std::string JsonFields::string(const Json& object, std::string_view key, std::string_view path) const {
  const Json& value = member(object, key, path);
  if (!value.is_string()) fail(field_path(path, key), "must be a string");
  return value.get<std::string>();
}

double JsonFields::non_negative_value(const Json& value, std::string_view path) const {
  // nlohmann writes NaN and infinities as null and cannot read them back;
  // a string "NaN" is what a careless writer produces instead.
  if (!value.is_number()) fail(path, "must be a number, got " + describe(value));
  const double number = value.get<double>();
  if (!std::isfinite(number)) fail(path, "must be a finite number");
  if (number < 0) fail(path, "must not be negative, got " + describe(value));
  if (number > kMaxInputReal) fail(path, "must be at most 1e12, got " + describe(value));
  return number;
}

double JsonFields::non_negative(const Json& object, std::string_view key, std::string_view path) const {
  return non_negative_value(member(object, key, path), field_path(path, key));
}

double JsonFields::non_negative_or(const Json& object, std::string_view key, std::string_view path,
                                   double fallback) const {
  const Json* value = optional_member(object, key, path);
  return value == nullptr ? fallback : non_negative_value(*value, field_path(path, key));
}

double JsonFields::positive(const Json& object, std::string_view key, std::string_view path) const {
  const double number = non_negative(object, key, path);
  if (number < kMinPositiveReal) fail(field_path(path, key), "must be at least 1e-12 (greater than zero)");
  return number;
}

std::int64_t JsonFields::integer_value(const Json& value, std::string_view path, std::int64_t minimum,
                                       std::int64_t maximum) const {
  if (value.is_number_float()) {
    // A literal beyond 64 bits is parsed as a double by the JSON reader.
    const double number = value.get<double>();
    if (std::isfinite(number) && number == std::floor(number) && std::fabs(number) >= 9.2e18) {
      fail(path, "is too large (overflows 64 bits): " + describe(value));
    }
    fail(path, "must be a whole number, got " + describe(value));
  }
  if (!value.is_number_integer()) fail(path, "must be a whole number, got " + describe(value));
  if (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
    fail(path, "is too large (overflows 64 bits): " + describe(value));
  }
  const std::int64_t number = value.get<std::int64_t>();
  if (number < minimum) {
    fail(path, "must be at least " + std::to_string(minimum) + ", got " + describe(value));
  }
  if (number > maximum) {
    fail(path, "must be at most " + std::to_string(maximum) + ", got " + describe(value));
  }
  return number;
}

std::int64_t JsonFields::integer(const Json& object, std::string_view key, std::string_view path,
                                 std::int64_t minimum, std::int64_t maximum) const {
  return integer_value(member(object, key, path), field_path(path, key), minimum, maximum);
}

bool JsonFields::boolean_or(const Json& object, std::string_view key, std::string_view path,
                            bool fallback) const {
  const Json* value = optional_member(object, key, path);
  if (value == nullptr) return fallback;
  if (!value->is_boolean()) fail(field_path(path, key), "must be true or false");
  return value->get<bool>();
}

void JsonFields::only_keys(const Json& object, std::string_view path,
                           std::initializer_list<std::string_view> known) const {
  if (!object.is_object()) fail(path, "must be an object");
  for (const auto& [key, value] : object.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string names;
    for (std::string_view k : known) names += (names.empty() ? "" : ", ") + std::string(k);
    fail(field_path(path, key), "is not a field of this block (expected " + names + ")");
  }
}

void JsonFields::expect_format(const Json& document, std::string_view expected) const {
  if (!document.is_object()) fail("", "must be a JSON object");
  const std::string format = string(document, "format", "");
  if (format != expected) {
    fail("format", "unknown format version '" + format + "' (this build reads '" +
                       std::string(expected) + "')");
  }
}

}  // namespace mheta::model
