// make_local_arrays DIR dist.txt: writes three variables of different row
// shapes (doubles, 64-bit integers, and rows of bytes whose length is not a
// multiple of eight) as HDF5 local arrays under the distribution, every row
// a function of its global index, so the redistribution tests have data
// whose checksum they can compare before and after.
// make_local_arrays --start DIR dist.txt: does what a program does at its
// start instead (io::bring_to_distribution) and prints what it did.
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "io/local_array.hpp"
#include "io/redistribution_startup.hpp"
#include "model/gen_block.hpp"
#include "mpi_world.hpp"

namespace {

std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  return x ^ (x >> 29);
}

}  // namespace

int main(int argc, char** argv) {
  const mheta::test::MpiWorld world(argc, argv);
  const int rank = world.rank();
  const int size = world.size();
  int code = 0;
  try {
    const bool start = argc == 4 && std::string(argv[1]) == "--start";
    if (argc != 3 && !start) throw std::runtime_error("usage: make_local_arrays [--start] DIR dist.txt");
    const char* dir = argv[argc - 2];
    const char* dist_file = argv[argc - 1];
    const mheta::model::GenBlock dist = mheta::model::read_gen_block(dist_file);
    mheta::model::check_gen_block(dist, size, dist.total_rows(), dist_file);
    const std::vector<mheta::io::RowShape> shapes = {{"a", mheta::io::ElementType::f64, 64},
                                                     {"b", mheta::io::ElementType::u8, 1003},
                                                     {"c", mheta::io::ElementType::i64, 3}};
    if (start) {
      const std::string said = mheta::io::bring_to_distribution(MPI_COMM_WORLD, dir, shapes, dist);
      if (rank == 0) std::cout << (said.empty() ? "nothing to do" : said) << std::endl;
      return 0;
    }
    for (std::size_t v = 0; v < shapes.size(); ++v) {
      auto block = mheta::io::LocalArray::create(dir, shapes[v], dist, rank);
      std::vector<std::byte> row(static_cast<std::size_t>(block.bytes_per_row()));
      for (std::int64_t i = 0; i < block.local_rows(); ++i) {
        for (std::size_t k = 0; k < row.size(); ++k) {
          row[k] =
              static_cast<std::byte>(mix((static_cast<std::uint64_t>(block.first_row() + i) << 20) + (v << 16) + k));
        }
        block.write_rows(i, 1, row.data());
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "make_local_arrays: rank " << rank << ": " << e.what() << "\n";
    code = 1;
  }
  return code;
}
