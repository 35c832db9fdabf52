// jacobi: 2-D 5-point Jacobi relaxation on a rows x cols grid distributed by
// rows (GEN_BLOCK). Two read-write local arrays, u and v, swap roles every
// iteration: each sweep reads u in ICLAs and writes v. Nearest-neighbour
// halo exchange of one row each way (MHETA Eq 3's pattern).
#include <mheta/marks.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "apps/app_arrays.hpp"
#include "apps/app_main.hpp"
#include "apps/deterministic_hash.hpp"
#include "apps/row_checksum.hpp"
#include "apps/whole_array.hpp"
#include "io/icla_array.hpp"

namespace mheta::apps {
namespace {

double initial_value(std::int64_t i, std::int64_t j) {
  return unit_value(static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(j));
}

// One row of the update. Boundary rows and columns keep their values
// (Dirichlet); the serial reference calls the same function, so results
// agree bit for bit.
void relax_row(std::int64_t global_row, std::int64_t rows, std::int64_t cols, const double* above, const double* mid,
               const double* below, double* out) {
  if (global_row == 0 || global_row == rows - 1) {
    std::copy(mid, mid + cols, out);
    return;
  }
  out[0] = mid[0];
  out[cols - 1] = mid[cols - 1];
  for (std::int64_t j = 1; j < cols - 1; ++j) {
    out[j] = 0.25 * ((above[j] + below[j]) + (mid[j - 1] + mid[j + 1]));
  }
}

std::uint64_t serial_reference(std::int64_t rows, std::int64_t cols, int iters) {
  std::vector<double> u(static_cast<std::size_t>(rows * cols));
  std::vector<double> v(u.size());
  for (std::int64_t i = 0; i < rows; ++i) {
    for (std::int64_t j = 0; j < cols; ++j) u[static_cast<std::size_t>(i * cols + j)] = initial_value(i, j);
  }
  for (int k = 0; k < iters; ++k) {
    for (std::int64_t i = 0; i < rows; ++i) {
      const double* mid = u.data() + i * cols;
      relax_row(i, rows, cols, i > 0 ? mid - cols : mid, mid, i + 1 < rows ? mid + cols : mid, v.data() + i * cols);
    }
    std::swap(u, v);
  }
  std::uint64_t sum = 0;
  for (std::int64_t i = 0; i < rows; ++i) {
    sum += row_checksum(i, std::as_bytes(std::span<const double>(u.data() + i * cols, static_cast<std::size_t>(cols))));
  }
  return sum;
}

enum Tag { kRowGoingUp = 1, kRowGoingDown = 2 };

bool run_jacobi(AppContext& ctx) {
  const std::int64_t rows = ctx.options.rows;
  const std::int64_t cols = ctx.options.cols;
  const std::size_t width = static_cast<std::size_t>(cols);
  AppArrays arrays(ctx, {{"u", io::ElementType::f64, cols}, {"v", io::ElementType::f64, cols}});
  // Which of the two arrays holds the current grid: they swap every iteration.
  // (An --auto run reopens the arrays once: u and v are looked up again.)
  std::size_t current = 0;
  io::IclaArray* u = &arrays[0];
  io::IclaArray* v = &arrays[1];

  std::int64_t local_rows = ctx.dist.rows[static_cast<std::size_t>(ctx.rank)];
  std::int64_t g0 = ctx.dist.first_row(ctx.rank);
  // The block's first and last rows, kept in memory for the halo exchange
  // so that sending them costs no disk access.
  std::vector<double> first_row(width), last_row(width);
  auto keep_edges = [&](std::int64_t i, const double* row) {
    if (i == 0) std::copy(row, row + cols, first_row.begin());
    if (i == local_rows - 1) std::copy(row, row + cols, last_row.begin());
  };
  // The grid is the program's state, not read-only input: every run starts
  // from the initial values.
  generate_rows(*u, [&](std::int64_t i, std::span<std::byte> bytes) {
    auto row = io::rows_as<double>(bytes);
    for (std::int64_t j = 0; j < cols; ++j) row[static_cast<std::size_t>(j)] = initial_value(i, j);
    keep_edges(i - g0, row.data());
  });
  arrays.publish_generated();

  int up = model::next_rank_with_rows(ctx.dist.rows, ctx.rank, -1);
  int down = model::next_rank_with_rows(ctx.dist.rows, ctx.rank, +1);
  // After a move (--auto): the new block's bounds, neighbours and edges,
  // the edges read from the current grid's file.
  auto rebuild = [&](const model::GenBlock&) {
    local_rows = ctx.dist.rows[static_cast<std::size_t>(ctx.rank)];
    g0 = ctx.dist.first_row(ctx.rank);
    up = model::next_rank_with_rows(ctx.dist.rows, ctx.rank, -1);
    down = model::next_rank_with_rows(ctx.dist.rows, ctx.rank, +1);
    if (local_rows > 0) {
      arrays.local_array(current).read_rows(0, 1, first_row.data());
      arrays.local_array(current).read_rows(local_rows - 1, 1, last_row.data());
    }
  };
  std::vector<double> ghost_above(width), ghost_below(width), saved1(width), saved2(width);
  for (int iteration = 0; iteration < ctx.options.iters; ++iteration) {
    ctx.report->begin_iteration();
    arrays.group().follow_environment();
    u = &arrays[current];
    v = &arrays[1 - current];
    if (local_rows > 0) {
      std::vector<MPI_Request> requests;
      auto exchange = [&](int peer, std::vector<double>& ghost, const std::vector<double>& edge, int recv_tag,
                          int send_tag) {
        if (peer < 0) return;
        requests.resize(requests.size() + 2);
        MPI_Irecv(ghost.data(), static_cast<int>(cols), MPI_DOUBLE, peer, recv_tag, ctx.comm,
                  &requests[requests.size() - 2]);
        MPI_Isend(edge.data(), static_cast<int>(cols), MPI_DOUBLE, peer, send_tag, ctx.comm, &requests.back());
      };
      exchange(up, ghost_above, first_row, kRowGoingDown, kRowGoingUp);
      exchange(down, ghost_below, last_row, kRowGoingUp, kRowGoingDown);
      MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    }
    mheta_mark_stage_begin("relax");
    // Row i of v needs rows i-1..i+1 of u, so the last row of each ICLA is
    // finished once the next ICLA is in: v's chunk k-1 is written after u's
    // chunk k is read. saved2, saved1: the two rows of u before the chunk.
    saved1 = ghost_above;
    double* pending_last = nullptr;
    const std::int64_t chunks = u->chunk_count();
    for (std::int64_t k = 0; k < chunks; ++k) {
      const io::RowRange range = u->chunk(k);
      const double* ub = io::rows_as<double>(u->acquire(k)).data();
      auto row = [&](std::int64_t i) { return ub + (i - range.first) * cols; };
      if (k > 0) {
        const std::int64_t i = range.first - 1;
        relax_row(g0 + i, rows, cols, saved2.data(), saved1.data(), row(range.first), pending_last);
        keep_edges(i, pending_last);
        v->release(k - 1, true);
      }
      double* vb = io::rows_as<double>(v->acquire_for_write(k)).data();
      for (std::int64_t i = range.first; i + 1 < range.end(); ++i) {
        double* out = vb + (i - range.first) * cols;
        relax_row(g0 + i, rows, cols, i == range.first ? saved1.data() : row(i - 1), row(i), row(i + 1), out);
        keep_edges(i, out);
      }
      if (range.count >= 2) {
        std::copy(row(range.end() - 2), row(range.end() - 2) + cols, saved2.begin());
      } else {
        saved2 = saved1;
      }
      std::copy(row(range.end() - 1), row(range.end() - 1) + cols, saved1.begin());
      u->release(k, false);
      pending_last = vb + (range.count - 1) * cols;
    }
    if (chunks > 0) {
      relax_row(g0 + local_rows - 1, rows, cols, saved2.data(), saved1.data(), ghost_below.data(), pending_last);
      keep_edges(local_rows - 1, pending_last);
      v->release(chunks - 1, true);
    }
    mheta_mark_stage_end();
    std::swap(u, v);
    current = 1 - current;
    // v now holds the previous grid, which the next sweep overwrites: not
    // worth writing back when the interposer forces a switch out of core.
    v->discard();
    ctx.report->end_iteration();
    arrays.after_iteration(iteration + 1, rebuild);
  }
  u = &arrays[current];
  v = &arrays[1 - current];
  u->flush();
  v->flush();
  const std::uint64_t checksum = array_checksum(*u, ctx.comm);
  int pass = 1;
  std::uint64_t reference = 0;
  if (ctx.options.check && ctx.rank == 0) {
    reference = serial_reference(rows, cols, ctx.options.iters);
    pass = reference == checksum;
  }
  MPI_Bcast(&pass, 1, MPI_INT, 0, ctx.comm);
  nlohmann::json detail = {{"checksum", checksum}};
  if (ctx.options.check) detail["reference"] = reference;
  print_result(ctx.comm, "jacobi", pass != 0, detail);
  return pass != 0;
}

}  // namespace
}  // namespace mheta::apps

int main(int argc, char** argv) {
  mheta::apps::AppSpec spec;
  spec.name = "jacobi";
  spec.description =
      "Out-of-core 2-D 5-point Jacobi relaxation on HDF5 local arrays, rows distributed GEN_BLOCK; "
      "checks the result bit for bit against a serial run.";
  spec.has_cols = true;
  spec.defaults.rows = 512;
  spec.defaults.cols = 512;
  spec.defaults.iters = 10;
  return mheta::apps::run_app(argc, argv, spec, mheta::apps::run_jacobi);
}
