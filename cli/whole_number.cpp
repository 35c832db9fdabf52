#include "cli/whole_number.hpp"

#include <string>

#include "model/format_error.hpp"

namespace mheta::cli {

CLI::Validator whole_number(std::int64_t minimum, std::int64_t maximum) {
  const std::string range = "a whole number from " + std::to_string(minimum) + " to " + std::to_string(maximum);
  return CLI::Validator(
      [minimum, maximum, range](std::string& text) -> std::string {
        std::int64_t value = 0;
        bool fits = !text.empty();
        for (char c : text) {
          if (c < '0' || c > '9') return "must be " + range + ", got '" + model::excerpt(text) + "'";
          fits = fits && !__builtin_mul_overflow(value, 10, &value) && !__builtin_add_overflow(value, c - '0', &value);
        }
        if (!fits || value < minimum || value > maximum) {
          return "must be " + range + ", got " + model::excerpt(text);
        }
        return {};
      },
      "INT in [" + std::to_string(minimum) + " - " + std::to_string(maximum) + "]");
}

}  // namespace mheta::cli
