// in_memory_rows: io::redistribute_in_memory on the ranks it runs on, over
// several pairs of distributions (empty ranks, everything moving, nothing
// moving); every row must arrive where the new distribution puts it, with
// its contents. Exit 1 naming the first wrong row.
#include <mpi.h>

#include <cstdint>
#include <iostream>
#include <vector>

#include "io/redistribution_vector.hpp"
#include "model/gen_block.hpp"
#include "mpi_world.hpp"

namespace {

constexpr std::int64_t kWidth = 3;

double value(std::int64_t row, std::int64_t k) { return static_cast<double>(row) * 10 + static_cast<double>(k); }

// Shares from a pattern of weights (0 allowed) over `size` ranks, `rows` in all.
mheta::model::GenBlock shares(const std::vector<int>& weights, int size, std::int64_t rows) {
  std::vector<std::int64_t> out(static_cast<std::size_t>(size));
  std::int64_t total_weight = 0;
  for (int r = 0; r < size; ++r) total_weight += weights[static_cast<std::size_t>(r) % weights.size()];
  std::int64_t given = 0;
  for (int r = 0; r < size; ++r) {
    out[static_cast<std::size_t>(r)] = rows * weights[static_cast<std::size_t>(r) % weights.size()] / total_weight;
    given += out[static_cast<std::size_t>(r)];
  }
  for (int r = size - 1; r >= 0 && given < rows; --r) {
    if (weights[static_cast<std::size_t>(r) % weights.size()] > 0) {
      out[static_cast<std::size_t>(r)] += rows - given;
      given = rows;
    }
  }
  return mheta::model::GenBlock{out};
}

}  // namespace

int main(int argc, char** argv) {
  const mheta::test::MpiWorld world(argc, argv);
  const int rank = world.rank();
  const int size = world.size();
  const std::int64_t rows = 101;
  const std::vector<std::vector<int>> patterns = {{1}, {0, 1, 2}, {3, 1}, {1, 0}, {5, 1, 1, 2}};
  int bad = 0;
  for (const auto& a : patterns) {
    for (const auto& b : patterns) {
      const auto from = shares(a, size, rows);
      const auto to = shares(b, size, rows);
      std::vector<double> local;
      for (std::int64_t i = 0; i < from.rows[static_cast<std::size_t>(rank)]; ++i) {
        for (std::int64_t k = 0; k < kWidth; ++k) local.push_back(value(from.first_row(rank) + i, k));
      }
      const std::vector<double> moved = mheta::io::redistribute_in_memory(MPI_COMM_WORLD, local, kWidth, from, to);
      const std::int64_t expected_rows = to.rows[static_cast<std::size_t>(rank)];
      if (static_cast<std::int64_t>(moved.size()) != expected_rows * kWidth) {
        std::cerr << "rank " << rank << ": " << moved.size() / kWidth << " rows, expected " << expected_rows << "\n";
        bad = 1;
        continue;
      }
      for (std::int64_t i = 0; i < expected_rows && !bad; ++i) {
        for (std::int64_t k = 0; k < kWidth; ++k) {
          if (moved[static_cast<std::size_t>(i * kWidth + k)] != value(to.first_row(rank) + i, k)) {
            std::cerr << "rank " << rank << ": local row " << i << " is not global row " << to.first_row(rank) + i
                      << "\n";
            bad = 1;
          }
        }
      }
    }
  }
  int any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) std::cout << (any ? "FAIL" : "PASS") << "\n";
  return any;
}
