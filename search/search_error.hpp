#pragma once
// A search that cannot be done as asked: no rank can hold a row, an
// impossible --min-rows, an unknown method or distribution name.
#include <stdexcept>

namespace mheta::search {

class SearchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mheta::search
