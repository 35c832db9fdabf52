// rna: a pipelined wavefront dynamic programme (a Smith-Waterman-like
// recurrence, as in RNA secondary-structure and sequence-alignment codes).
// The table h (rows x cols, 64-bit integers) is distributed by rows and kept
// read-write out of core. Each iteration sweeps the columns in tiles: a rank
// receives the row above its block for the tile from the previous rank that
// owns rows, computes the tile on its rows ICLA by ICLA, and sends its last
// row's tile to the next rank (MHETA Eq 4's pipeline).
#include <mheta/marks.h>

#include <algorithm>
#include <vector>

#include "apps/app_arrays.hpp"
#include "apps/app_main.hpp"
#include "apps/deterministic_hash.hpp"
#include "apps/row_checksum.hpp"
#include "apps/whole_array.hpp"
#include "io/icla_array.hpp"

namespace mheta::apps {
namespace {

int tiles = 8;

int base(std::uint64_t index, std::uint64_t strand) { return static_cast<int>(mix64(index * 2 + strand) % 4); }

// h[i][j] from its three finished neighbours and its value of the previous
// iteration (so that iterations differ and the result depends on all).
std::int64_t cell(std::int64_t i, std::int64_t j, std::int64_t diagonal, std::int64_t up, std::int64_t left,
                  std::int64_t previous) {
  const std::int64_t score =
      (base(static_cast<std::uint64_t>(i), 0) == base(static_cast<std::uint64_t>(j), 1) ? 3 : -1) + (previous & 1);
  return std::max({std::int64_t{0}, diagonal + score, up - 2, left - 2});
}

// Columns [c0, c1) of one row, given the finished row above it.
void compute_row(std::int64_t i, std::int64_t c0, std::int64_t c1, const std::int64_t* above, std::int64_t* row) {
  for (std::int64_t j = c0; j < c1; ++j) {
    const std::int64_t diagonal = j > 0 ? above[j - 1] : 0;
    const std::int64_t left = j > 0 ? row[j - 1] : 0;
    row[j] = cell(i, j, diagonal, above[j], left, row[j]);
  }
}

std::int64_t tile_begin(int t, std::int64_t cols) { return cols * t / tiles; }

std::uint64_t serial_reference(std::int64_t rows, std::int64_t cols, int iters) {
  const std::size_t width = static_cast<std::size_t>(cols);
  std::vector<std::int64_t> h(static_cast<std::size_t>(rows) * width, 0), zeros(width, 0);
  for (int k = 0; k < iters; ++k) {
    for (std::int64_t i = 0; i < rows; ++i) {
      std::int64_t* row = h.data() + i * cols;
      compute_row(i, 0, cols, i > 0 ? row - cols : zeros.data(), row);
    }
  }
  std::uint64_t sum = 0;
  for (std::int64_t i = 0; i < rows; ++i) {
    sum += row_checksum(i, std::as_bytes(std::span<const std::int64_t>(h.data() + i * cols, width)));
  }
  return sum;
}

bool run_rna(AppContext& ctx) {
  const std::int64_t cols = ctx.options.cols;
  const std::size_t width = static_cast<std::size_t>(cols);
  AppArrays arrays(ctx, {{"h", io::ElementType::i64, cols}});
  // The table is the program's state: every run starts from zeros.
  generate_rows(arrays[0],
                [](std::int64_t, std::span<std::byte> row) { std::fill(row.begin(), row.end(), std::byte{0}); });
  arrays.publish_generated();

  std::int64_t g0 = 0, local_rows = 0;
  int previous = -1, next = -1;
  // The row above the block (zeros above global row 0) and above the current ICLA.
  std::vector<std::int64_t> above_block(width, 0), above(width);
  // The block's place in the pipeline; again after a move (--auto), when
  // the first rank with rows may be another one (its row above: zeros).
  auto place = [&](const model::GenBlock&) {
    g0 = arrays[0].array().first_row();
    local_rows = arrays[0].array().local_rows();
    previous = model::next_rank_with_rows(ctx.dist.rows, ctx.rank, -1);
    next = model::next_rank_with_rows(ctx.dist.rows, ctx.rank, +1);
    std::fill(above_block.begin(), above_block.end(), 0);
  };
  place(ctx.dist);
  for (int iteration = 0; iteration < ctx.options.iters; ++iteration) {
    ctx.report->begin_iteration();
    arrays.group().follow_environment();
    io::IclaArray& h = arrays[0];
    for (int t = 0; t < tiles && local_rows > 0; ++t) {
      const std::int64_t c0 = tile_begin(t, cols);
      const std::int64_t c1 = tile_begin(t + 1, cols);
      // The message carries the tile and the column before it (the diagonal).
      const std::int64_t lo = std::max<std::int64_t>(c0 - 1, 0);
      const int count = static_cast<int>(c1 - lo);
      if (previous >= 0) {
        MPI_Recv(above_block.data() + lo, count, MPI_INT64_T, previous, t, ctx.comm, MPI_STATUS_IGNORE);
      }
      mheta_mark_stage_begin("tile");
      std::copy(above_block.begin(), above_block.end(), above.begin());
      for (std::int64_t k = 0; k < h.chunk_count(); ++k) {
        const io::RowRange range = h.chunk(k);
        std::int64_t* rows = io::rows_as<std::int64_t>(h.acquire(k)).data();
        for (std::int64_t r = 0; r < range.count; ++r) {
          std::int64_t* row = rows + r * cols;
          compute_row(g0 + range.first + r, c0, c1, r == 0 ? above.data() : row - cols, row);
        }
        std::copy(rows + (range.count - 1) * cols, rows + range.count * cols, above.begin());
        h.release(k, true);
      }
      mheta_mark_stage_end();
      // `above` now holds the block's last row.
      if (next >= 0) MPI_Send(above.data() + lo, count, MPI_INT64_T, next, t, ctx.comm);
    }
    ctx.report->end_iteration();
    arrays.after_iteration(iteration + 1, place);
  }
  arrays[0].flush();
  const std::uint64_t checksum = array_checksum(arrays[0], ctx.comm);
  int pass = 1;
  std::uint64_t reference = 0;
  if (ctx.options.check && ctx.rank == 0) {
    reference = serial_reference(ctx.options.rows, cols, ctx.options.iters);
    pass = reference == checksum;
  }
  MPI_Bcast(&pass, 1, MPI_INT, 0, ctx.comm);
  nlohmann::json detail = {{"checksum", checksum}, {"tiles", tiles}};
  if (ctx.options.check) detail["reference"] = reference;
  print_result(ctx.comm, "rna", pass != 0, detail);
  return pass != 0;
}

}  // namespace
}  // namespace mheta::apps

int main(int argc, char** argv) {
  mheta::apps::AppSpec spec;
  spec.name = "rna";
  spec.description =
      "Out-of-core pipelined wavefront dynamic programme (tiles along columns, receive from the "
      "previous rank, send to the next) on HDF5 local arrays, rows distributed GEN_BLOCK; checks the "
      "table bit for bit against a serial run.";
  spec.has_cols = true;
  spec.defaults.rows = 512;
  spec.defaults.cols = 512;
  spec.defaults.iters = 5;
  spec.add_options = [](CLI::App& cli) {
    cli.add_option("--tiles", mheta::apps::tiles, "Column tiles per iteration (pipeline stages)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
  };
  return mheta::apps::run_app(argc, argv, spec, mheta::apps::run_rna);
}
