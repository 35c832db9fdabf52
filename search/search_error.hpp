#pragma once
// A search that cannot be done as asked.
#include <stdexcept>
#include <string>

namespace mheta::search {

class SearchError : public std::runtime_error {
 public:
  enum class Cause {
    inputs,   // the profile and cluster leave no way to hold the data
    request,  // what was asked is impossible or unknown (--min-rows, a method name)
  };
  SearchError(Cause cause, const std::string& message) : std::runtime_error(message), cause_(cause) {}
  Cause cause() const { return cause_; }

 private:
  Cause cause_;
};

}  // namespace mheta::search
