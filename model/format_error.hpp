#pragma once
// The one exception type every reader of mheta's input formats throws: it
// names the file, the place inside it (line:column or a JSON field path) and
// what was wrong, so a user can fix the input without reading our code.
#include <stdexcept>
#include <string>
#include <string_view>

namespace mheta::model {

// `text`, cut to `limit` characters (saying how long it was), so that an error
// message never echoes a huge input back whole.
inline std::string excerpt(std::string_view text, std::size_t limit = 40) {
  if (text.size() <= limit) return std::string(text);
  return std::string(text.substr(0, limit)) + "... (" + std::to_string(text.size()) + " characters)";
}

class FormatError : public std::runtime_error {
 public:
  FormatError(std::string file, std::string where, std::string reason)
      : std::runtime_error(compose(file, where, reason)),
        file_(std::move(file)),
        where_(std::move(where)),
        reason_(std::move(reason)) {}

  const std::string& file() const { return file_; }
  const std::string& where() const { return where_; }
  const std::string& reason() const { return reason_; }

 private:
  static std::string compose(const std::string& file, const std::string& where,
                             const std::string& reason) {
    std::string text = file;
    if (!where.empty()) text += ":" + where;
    return text + ": " + reason;
  }

  std::string file_;
  std::string where_;
  std::string reason_;
};

}  // namespace mheta::model
