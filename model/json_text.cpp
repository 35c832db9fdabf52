// Parsing JSON input with limits: a nesting depth, a length for numbers and
// no overflow past a double, each reported with the file, the field path and
// line:column, never with the offending text echoed whole. nlohmann's own
// parser is iterative, but everything that walks the document afterwards
// (destruction, dump, the readers) recurses: the depth limit keeps them safe.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/format_error.hpp"
#include "model/json_fields.hpp"

namespace mheta::model {

namespace {

// "line:column" of a byte offset (nlohmann counts bytes; people read lines).
std::string line_column(std::string_view text, std::size_t byte) {
  const std::size_t offset = std::min<std::size_t>(byte == 0 ? 0 : byte - 1, text.size());
  int line = 1;
  int column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

// Builds the document with nlohmann's DOM builder while keeping the path to
// the value being read, and stops at the first value past a limit.
class LimitedDomBuilder {
  using Dom = nlohmann::detail::json_sax_dom_parser<Json>;

 public:
  LimitedDomBuilder(Json& root, std::string_view text, std::string_view source)
      : dom_(root), text_(text), source_(source) {}

  bool null() { return value() && dom_.null(); }
  bool boolean(bool v) { return value() && dom_.boolean(v); }
  bool number_integer(Json::number_integer_t v) { return value() && dom_.number_integer(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return value() && dom_.number_unsigned(v); }
  bool number_float(Json::number_float_t v, const std::string& text) {
    if (text.size() > kMaxJsonNumberChars) {
      fail_here("a number of " + std::to_string(text.size()) + " characters is longer than the " +
                std::to_string(kMaxJsonNumberChars) + " a number may have");
    }
    return value() && dom_.number_float(v, text);
  }
  bool string(std::string& v) {
    if (v.size() > kMaxJsonStringChars) {
      fail_here("a string of " + std::to_string(v.size()) + " characters is longer than the " +
                std::to_string(kMaxJsonStringChars) + " a string may have");
    }
    return value() && dom_.string(v);
  }
  bool binary(Json::binary_t& v) { return value() && dom_.binary(v); }
  bool start_object(std::size_t n) { return enter(false) && dom_.start_object(n); }
  bool key(std::string& k) {
    frames_.back().key = k.size() > kMaxJsonStringChars ? k.substr(0, 40) + "..." : k;
    return dom_.key(k);
  }
  bool end_object() {
    frames_.pop_back();
    return dom_.end_object();
  }
  bool start_array(std::size_t n) { return enter(true) && dom_.start_array(n); }
  bool end_array() {
    frames_.pop_back();
    return dom_.end_array();
  }

  template <class Exception>
  bool parse_error(std::size_t byte, const std::string& /*token*/, const Exception& error) {
    const std::string at = line_column(text_, byte);
    if (error.id == 406) {
      // nlohmann says "number overflow parsing '<the whole number>'": name
      // the field instead.
      const std::string field = path(true);
      throw FormatError(std::string(source_), field.empty() ? at : field,
                        "a number is out of range (beyond what a double holds) at line:column " + at);
    }
    std::string reason = error.what();
    const auto colon = reason.rfind(": ");
    if (colon != std::string::npos) reason = reason.substr(colon + 2);
    throw FormatError(std::string(source_), at, "invalid JSON: " + excerpt(reason, 160));
  }

 private:
  struct Frame {
    bool array;
    std::size_t elements = 0;  // arrays: values started so far
    std::string key;           // objects: the key being read
  };

  // Every value, scalar or container, counts as an element of an array around it.
  bool value() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().elements;
    return true;
  }

  bool enter(bool array) {
    value();
    if (frames_.size() >= kMaxJsonDepth) {
      // The path is a hundred levels long: its start says where.
      throw FormatError(std::string(source_), excerpt(path(false), 60),
                        "nesting deeper than the " + std::to_string(kMaxJsonDepth) + " levels a document may have");
    }
    frames_.push_back({array, 0, {}});
    return true;
  }

  // The field path of the value being read (or, for a pending value that
  // failed to parse, of the one about to be read).
  std::string path(bool pending) const {
    std::string p;
    for (std::size_t i = 0; i < frames_.size(); ++i) {
      const Frame& f = frames_[i];
      if (f.array) {
        const bool last = i + 1 == frames_.size();
        const std::size_t index = pending && last ? f.elements : (f.elements == 0 ? 0 : f.elements - 1);
        p = index_path(p, index);
      } else if (!f.key.empty()) {
        p = field_path(p, f.key);
      }
    }
    return p;
  }

  [[noreturn]] void fail_here(const std::string& reason) const {
    throw FormatError(std::string(source_), path(false), reason);
  }

  Dom dom_;
  std::string_view text_;
  std::string_view source_;
  std::vector<Frame> frames_;
};

}  // namespace

Json parse_json_text(std::string_view text, std::string_view source) {
  Json document;
  LimitedDomBuilder builder(document, text, source);
  try {
    Json::sax_parse(text, &builder);
  } catch (const Json::exception& error) {
    // Only the builder's own throws are expected; anything else is reported
    // the same way, shortened.
    throw FormatError(std::string(source), "", "invalid JSON: " + excerpt(error.what(), 160));
  }
  return document;
}

}  // namespace mheta::model
