#include "interpose/call.hpp"

#include <array>
#include <iterator>
#include <string_view>

namespace mheta::interpose {

const char* fn_name(Fn fn) {
  static constexpr const char* kNames[] = {
#define MHETA_MPI(Name, ...) "MPI_" #Name,
#include "interpose/mpi_functions_all.def"
#undef MHETA_MPI
  };
  return kNames[static_cast<int>(fn)];
}

Category fn_category(Fn fn) {
  static constexpr Category kCategories[] = {
#define MHETA_MPI(Name, Cat, ...) Category::Cat,
#include "interpose/mpi_functions_all.def"
#undef MHETA_MPI
  };
  return kCategories[static_cast<int>(fn)];
}

namespace {

bool collective_file_io_by_name(Fn fn) {
  switch (fn_category(fn)) {
    case Category::file_open:
    case Category::file_close:
    case Category::file_sync:
    case Category::file_control:
    case Category::file_split_read:
    case Category::file_split_write:
      return true;
    case Category::file_read:
    case Category::file_write:
    case Category::file_iread:
    case Category::file_iwrite: {
      const std::string_view name = fn_name(fn);
      return name.find("_all") != std::string_view::npos || name.find("_ordered") != std::string_view::npos;
    }
    default:
      return false;
  }
}

}  // namespace

// Asked at every call automatic detection sees: the names are read once.
bool collective_file_io(Fn fn) {
  static const std::array<bool, static_cast<std::size_t>(Fn::count_)> kCollective = [] {
    std::array<bool, static_cast<std::size_t>(Fn::count_)> table{};
    for (std::size_t f = 0; f < table.size(); ++f) table[f] = collective_file_io_by_name(static_cast<Fn>(f));
    return table;
  }();
  return kCollective[static_cast<std::size_t>(fn)];
}

Fn fn_base(Fn fn) {
  // The table again, each line naming its own function; the twins' pass
  // names the function they are of.
  static constexpr Fn kBases[] = {
#define MHETA_MPI(Name, ...) Fn::Name,
#define MHETA_MPI_TWIN(Name, ...) Fn::Name,
#include "interpose/mpi_functions_all.def"
#undef MHETA_MPI_TWIN
#undef MHETA_MPI
  };
  static_assert(std::size(kBases) == static_cast<std::size_t>(Fn::count_));
  return kBases[static_cast<int>(fn)];
}

}  // namespace mheta::interpose
