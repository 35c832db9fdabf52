// The table of intercepted functions (interpose/mpi_functions.def): every
// MPI-4 large-count twin is stamped out as its function, and the count
// arrays of both read alike.
#include "interpose/call.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace mheta::interpose {
namespace {

std::set<std::string> table_names() {
  std::set<std::string> names;
  for (int f = 0; f < static_cast<int>(Fn::count_); ++f) names.insert(fn_name(static_cast<Fn>(f)));
  return names;
}

TEST(CallTable, ATwinIsItsFunctionWithItsCategory) {
  int twins = 0;
  for (int f = 0; f < static_cast<int>(Fn::count_); ++f) {
    const Fn fn = static_cast<Fn>(f);
    const std::string name = fn_name(fn);
    const bool twin = name.size() > 2 && name.compare(name.size() - 2, 2, "_c") == 0;
    if (!twin) {
      EXPECT_EQ(fn_base(fn), fn) << name;
      continue;
    }
    ++twins;
    EXPECT_EQ(std::string(fn_name(fn_base(fn))) + "_c", name);
    EXPECT_EQ(fn_category(fn_base(fn)), fn_category(fn)) << name;
  }
#if MPI_VERSION >= 4
  EXPECT_GT(twins, 100);  // every twin MPICH 4.0.2 declares of a function in the table: 112
#else
  EXPECT_EQ(twins, 0);
#endif
}

#if MPI_VERSION >= 4
TEST(CallTable, HoldsTheTwinsOfTheVCollectivesAndOfMpiIo) {
  const std::set<std::string> names = table_names();
  for (const char* name :
       {"MPI_Gatherv_c", "MPI_Scatterv_c", "MPI_Allgatherv_c", "MPI_Alltoallv_c", "MPI_Alltoallw_c",
        "MPI_Reduce_scatter_c", "MPI_Igatherv_c", "MPI_Iscatterv_c", "MPI_Iallgatherv_c", "MPI_Ialltoallv_c",
        "MPI_Ialltoallw_c", "MPI_Ireduce_scatter_c", "MPI_Gatherv_init_c", "MPI_Scatterv_init_c",
        "MPI_Allgatherv_init_c", "MPI_Alltoallv_init_c", "MPI_Alltoallw_init_c", "MPI_Reduce_scatter_init_c",
        "MPI_File_read_c", "MPI_File_read_at_all_c", "MPI_File_write_ordered_c", "MPI_File_iread_shared_c",
        "MPI_File_iwrite_at_all_c"}) {
    EXPECT_EQ(names.count(name), 1U) << name;
  }
  EXPECT_EQ(names.count("MPI_Barrier_init_c"), 0U);  // no count, no twin
}
#endif

TEST(CallTable, CountArraysOfIntsAndOfMpiCountsReadAlike) {
  const int ints[] = {3, 0, 7};
  const MPI_Count wide[] = {3, 0, MPI_Count{1} << 40};
  const CountArray a(ints);
  const CountArray b(wide);
  EXPECT_TRUE(CountArray{}.empty());
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a[2], 7);
  EXPECT_EQ(b[0], 3);
  EXPECT_EQ(b[2], MPI_Count{1} << 40);
}

}  // namespace
}  // namespace mheta::interpose
