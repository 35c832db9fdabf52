// auto_sweep DIR ROWS COLS ITERS [--stay]: an out-of-core iterative program on one
// read-write local array, redistributed on the fly by advisor::AutoRedistributor.
// Each iteration sweeps its block in ICLAs (every row relaxed in place, a
// per-row computation whose cost is the same for every row), then
// allreduces a sum: one section per iteration. After the loop the array's
// checksum is compared with a serial run of the same updates. Rank 0 prints
// JSON lines (--stay: no runtime, the distribution stays Blk): {"iteration":k,"seconds":s,"rows":[...]} for every
// iteration,
// {"decision":...} when one was taken, and {"result":"PASS"|"FAIL"}.
#include <mheta/marks.h>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "advisor/auto_redistribute.hpp"
#include "io/icla_array.hpp"
#include "io/redistribution_checksum.hpp"
#include "io/redistribution_data_checksum.hpp"
#include "io/redistribution_recovery.hpp"
#include "io/sweep_plan.hpp"
#include "mpi_world.hpp"

namespace {

constexpr int kPasses = 24;  // compute per row and iteration

double initial(std::int64_t i, std::int64_t j) { return std::sin(0.001 * static_cast<double>(i * 131 + j)); }

void relax(double* row, std::int64_t cols) {
  for (int p = 0; p < kPasses; ++p) {
    for (std::int64_t j = 1; j + 1 < cols; ++j) row[j] = 0.5 * row[j] + 0.25 * (row[j - 1] + row[j + 1]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const mheta::test::MpiWorld world(argc, argv);
  const int rank = world.rank();
  const int size = world.size();
  const bool stay = argc == 6 && std::string(argv[5]) == "--stay";
  if (argc != 5 && !stay) {
    if (rank == 0) std::cerr << "usage: auto_sweep DIR ROWS COLS ITERS [--stay]\n";
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const std::int64_t rows = std::atoll(argv[2]);
  const std::int64_t cols = std::atoll(argv[3]);
  const int iters = std::atoi(argv[4]);
  const mheta::io::RowShape shape{"x", mheta::io::ElementType::f64, cols};
  if (rank == 0) std::filesystem::remove_all(dir);
  MPI_Barrier(MPI_COMM_WORLD);
  mheta::model::GenBlock dist = mheta::model::block_distribution(rows, size);
  const mheta::io::SweepSettings settings = mheta::io::sweep_settings(MPI_COMM_WORLD, false);

  std::optional<mheta::io::LocalArray> block(mheta::io::LocalArray::create(dir, shape, dist, rank));
  {
    std::vector<double> row(static_cast<std::size_t>(cols));
    for (std::int64_t i = 0; i < block->local_rows(); ++i) {
      for (std::int64_t j = 0; j < cols; ++j) row[static_cast<std::size_t>(j)] = initial(block->first_row() + i, j);
      block->write_rows(i, 1, row.data());
    }
  }
  mheta::advisor::AutoRedistributor runtime(MPI_COMM_WORLD, dir, {shape}, dist, iters);
  for (int k = 0; k < iters; ++k) {
    const double start = MPI_Wtime();
    {
      const mheta::io::LocalArray* arrays[] = {&*block};
      mheta::io::IclaArray x(*block, mheta::io::plan_sweep(arrays, settings)[0], false);
      double sum = 0;
      mheta_mark_stage_begin("relax");
      for (std::int64_t c = 0; c < x.chunk_count(); ++c) {
        auto chunk = mheta::io::rows_as<double>(x.acquire(c));
        for (std::int64_t i = 0; i < x.chunk(c).count; ++i) {
          relax(chunk.data() + i * cols, cols);
          sum += chunk[static_cast<std::size_t>(i * cols + cols / 2)];
        }
        x.release(c, true);
      }
      mheta_mark_stage_end();
      x.flush();
      double total = 0;
      MPI_Allreduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    double seconds = MPI_Wtime() - start;
    MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
      std::cout << nlohmann::json{{"iteration", k + 1}, {"seconds", seconds}, {"rows", dist.rows}}.dump() << std::endl;
    mheta_mark_iteration();
    if (auto decision = stay ? std::nullopt : runtime.after_iteration(k + 1)) {
      if (rank == 0) {
        std::cout << nlohmann::json{{"decision", decision->redistribute ? "redistribute" : "stay"},
                                    {"predicted_current_s", decision->current_s},
                                    {"predicted_best_s", decision->best_s},
                                    {"gain_s", decision->gain_s},
                                    {"cost_s", decision->cost_s},
                                    {"moved_s", decision->moved_s},
                                    {"to", decision->to.rows}}
                         .dump()
                  << std::endl;
      }
      if (decision->redistribute) {
        dist = runtime.dist();
        block.emplace(mheta::io::LocalArray::open(dir, shape, dist, rank));
      }
    }
  }
  block.reset();
  const std::uint64_t checksum = mheta::io::data_checksum(MPI_COMM_WORLD, dir, shape, dist);
  int pass = 1;
  if (rank == 0) {
    std::uint64_t reference = 0;
    std::vector<double> row(static_cast<std::size_t>(cols));
    for (std::int64_t i = 0; i < rows; ++i) {
      for (std::int64_t j = 0; j < cols; ++j) row[static_cast<std::size_t>(j)] = initial(i, j);
      for (int k = 0; k < iters; ++k) relax(row.data(), cols);
      reference += mheta::io::rows_checksum(i, 1, cols * 8, reinterpret_cast<const std::byte*>(row.data()));
    }
    pass = reference == checksum;
    std::cout
        << nlohmann::json{{"result", pass ? "PASS" : "FAIL"}, {"checksum", checksum}, {"reference", reference}}.dump()
        << std::endl;
  }
  MPI_Bcast(&pass, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return pass ? 0 : 1;
}
