#pragma once
// Typed access to JSON fields that reports the file, the field path and the
// reason for every problem (missing field, wrong type, negative or non-finite
// number), so the readers of cluster.json and profile.json stay declarative.
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "model/format_error.hpp"

namespace mheta::model {

using Json = nlohmann::json;

// The limits every JSON input is read with (docs/formats.md, "Limits").
inline constexpr std::size_t kMaxJsonDepth = 100;          // nested arrays and objects
inline constexpr std::size_t kMaxJsonNumberChars = 100;    // characters of one number
inline constexpr std::size_t kMaxJsonStringChars = 1 << 20;  // characters of one string or key

// Parses JSON text within those limits; a syntax error names the file and its
// line:column, a value past a limit the file and the field path.
Json parse_json_text(std::string_view text, std::string_view source);

// A JSON value for an error message, shortened with excerpt().
std::string describe(const Json& value);

// The range of real numbers in every input (times, costs, factors, weights):
// wide enough for any machine, narrow enough that the model's sums and
// products of them stay finite (docs/formats.md, "Limits").
inline constexpr double kMaxInputReal = 1e12;
inline constexpr double kMinPositiveReal = 1e-12;

class JsonFields {
 public:
  explicit JsonFields(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(std::string_view path, std::string_view reason) const;

  const Json& member(const Json& object, std::string_view key, std::string_view path) const;
  const Json* optional_member(const Json& object, std::string_view key, std::string_view path) const;
  const Json& array(const Json& object, std::string_view key, std::string_view path) const;
  const Json& object(const Json& object, std::string_view key, std::string_view path) const;
  std::string string(const Json& object, std::string_view key, std::string_view path) const;
  // A finite number in [0, kMaxInputReal] (times, costs, bytes as reals).
  double non_negative(const Json& object, std::string_view key, std::string_view path) const;
  double non_negative_value(const Json& value, std::string_view path) const;
  double non_negative_or(const Json& object, std::string_view key, std::string_view path,
                         double fallback) const;
  // A finite number in [kMinPositiveReal, kMaxInputReal].
  double positive(const Json& object, std::string_view key, std::string_view path) const;
  // A whole number in [minimum, maximum].
  std::int64_t integer(const Json& object, std::string_view key, std::string_view path,
                       std::int64_t minimum = 0, std::int64_t maximum = INT64_MAX) const;
  std::int64_t integer_value(const Json& value, std::string_view path, std::int64_t minimum = 0,
                             std::int64_t maximum = INT64_MAX) const;
  bool boolean_or(const Json& object, std::string_view key, std::string_view path, bool fallback) const;
  // Checks that `object` is an object with no key outside `known`: a
  // misspelt key ("latency_ms") would otherwise be ignored silently.
  void only_keys(const Json& object, std::string_view path, std::initializer_list<std::string_view> known) const;
  // Checks that the document is an object whose "format" field is the one
  // version this build reads.
  void expect_format(const Json& document, std::string_view expected) const;

  const std::string& source() const { return source_; }

 private:
  std::string source_;
};

// "ranks[3].sections" from "ranks[3]" and "sections".
std::string field_path(std::string_view parent, std::string_view key);
std::string index_path(std::string_view parent, std::size_t index);

}  // namespace mheta::model
