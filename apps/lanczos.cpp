// lanczos: the Lanczos iteration on a dense SPD matrix, read-only out of
// core; per iteration one allgatherv of the Lanczos vector and two
// allreduces. The extreme eigenvalues of the tridiagonal T_k are checked
// against Eigen's dense eigensolver on the whole matrix.
#include <mheta/marks.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <vector>

#include "apps/app_arrays.hpp"
#include "apps/app_main.hpp"
#include "apps/deterministic_hash.hpp"
#include "apps/distributed_vector.hpp"
#include "apps/whole_array.hpp"
#include "io/icla_array.hpp"
#include "io/redistribution_vector.hpp"

namespace mheta::apps {
namespace {

// Symmetric: a small random coupling around a diagonal in [4, 6], with the
// first diagonal entry at 12 and the last at 1, so both extreme eigenvalues
// stand apart from the rest and Lanczos finds them in a few iterations.
double matrix_entry(std::int64_t i, std::int64_t j, std::int64_t n) {
  if (i == j) {
    if (i == 0) return 12.0;
    if (i == n - 1) return 1.0;
    return 4.0 + 2.0 * unit_value(static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(i));
  }
  const double u = unit_value(static_cast<std::uint64_t>(std::min(i, j)), static_cast<std::uint64_t>(std::max(i, j)));
  return (u - 0.5) / std::sqrt(static_cast<double>(n));
}

Eigen::VectorXd tridiagonal_eigenvalues(const std::vector<double>& alpha, const std::vector<double>& beta) {
  const Eigen::Index k = static_cast<Eigen::Index>(alpha.size());
  Eigen::MatrixXd t = Eigen::MatrixXd::Zero(k, k);
  for (Eigen::Index i = 0; i < k; ++i) {
    t(i, i) = alpha[static_cast<std::size_t>(i)];
    if (i + 1 < k) t(i, i + 1) = t(i + 1, i) = beta[static_cast<std::size_t>(i)];
  }
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(t, Eigen::EigenvaluesOnly).eigenvalues();
}

bool run_lanczos(AppContext& ctx) {
  const std::int64_t n = ctx.options.rows;
  AppArrays arrays(ctx, {{"a", io::ElementType::f64, n}});
  if (arrays.created()) {
    generate_rows(arrays[0], [&](std::int64_t i, std::span<std::byte> bytes) {
      auto row = io::rows_as<double>(bytes);
      for (std::int64_t j = 0; j < n; ++j) row[static_cast<std::size_t>(j)] = matrix_entry(i, j, n);
    });
    arrays[0].flush();
    arrays.publish_generated();
  }

  std::size_t local = static_cast<std::size_t>(arrays[0].array().local_rows());
  const std::int64_t g0 = arrays[0].array().first_row();
  DistributedVectors vectors(ctx.comm, ctx.dist);
  std::vector<double> v(local), v_previous(local, 0.0), w(local), v_whole(static_cast<std::size_t>(n));
  // After a move (--auto): the Lanczos vectors' rows follow the matrix rows.
  auto rebuild = [&](const model::GenBlock& old_dist) {
    local = static_cast<std::size_t>(arrays[0].array().local_rows());
    vectors = DistributedVectors(ctx.comm, ctx.dist);
    for (std::vector<double>* x : {&v, &v_previous}) {
      *x = io::redistribute_in_memory(ctx.comm, *x, 1, old_dist, ctx.dist);
    }
    w.assign(local, 0.0);
  };
  for (std::size_t i = 0; i < local; ++i) v[i] = 0.5 + unit_value(static_cast<std::uint64_t>(g0) + i, 3);
  const double norm = std::sqrt(vectors.dot(v, v));
  for (double& x : v) x /= norm;
  std::vector<double> alpha, beta;
  double beta_k = 0;
  for (int iteration = 0; iteration < ctx.options.iters; ++iteration) {
    ctx.report->begin_iteration();
    arrays.group().follow_environment();
    io::IclaArray& a = arrays[0];
    vectors.gather(v, v_whole);
    mheta_mark_stage_begin("multiply");
    for (std::int64_t k = 0; k < a.chunk_count(); ++k) {
      const io::RowRange range = a.chunk(k);
      const double* rows = io::rows_as<double>(a.acquire(k)).data();
      for (std::int64_t r = 0; r < range.count; ++r) {
        const double* row = rows + r * n;
        double sum = 0;
        for (std::int64_t j = 0; j < n; ++j) sum += row[j] * v_whole[static_cast<std::size_t>(j)];
        w[static_cast<std::size_t>(range.first + r)] = sum;
      }
      a.release(k, false);
    }
    mheta_mark_stage_end();
    for (std::size_t i = 0; i < local; ++i) w[i] -= beta_k * v_previous[i];
    const double alpha_k = vectors.dot(w, v);
    for (std::size_t i = 0; i < local; ++i) w[i] -= alpha_k * v[i];
    beta_k = std::sqrt(vectors.dot(w, w));
    alpha.push_back(alpha_k);
    beta.push_back(beta_k);
    v_previous = v;
    // beta = 0: an invariant subspace was found (iterations >= rows); T_k
    // stays exact with a zero coupling.
    const double scale = beta_k > 0 ? 1.0 / beta_k : 0.0;
    for (std::size_t i = 0; i < local; ++i) v[i] = w[i] * scale;
    ctx.report->end_iteration();
    arrays.after_iteration(iteration + 1, rebuild);
  }
  const Eigen::VectorXd ritz = tridiagonal_eigenvalues(alpha, beta);
  nlohmann::json detail = {{"iterations", ctx.options.iters},
                           {"smallest_ritz_value", ritz.minCoeff()},
                           {"largest_ritz_value", ritz.maxCoeff()}};
  int pass = 1;
  if (ctx.options.check && ctx.rank == 0) {
    Eigen::MatrixXd whole(n, n);
    for (Eigen::Index i = 0; i < n; ++i) {
      for (Eigen::Index j = 0; j < n; ++j) whole(i, j) = matrix_entry(i, j, n);
    }
    const Eigen::VectorXd exact =
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(whole, Eigen::EigenvaluesOnly).eigenvalues();
    const double low_error = std::fabs(ritz.minCoeff() - exact.minCoeff()) / exact.minCoeff();
    const double high_error = std::fabs(ritz.maxCoeff() - exact.maxCoeff()) / exact.maxCoeff();
    detail["smallest_eigenvalue"] = exact.minCoeff();
    detail["largest_eigenvalue"] = exact.maxCoeff();
    // The extremes are isolated by construction: 20 iterations pin them to
    // rounding; fewer iterations only have to get close.
    const double tolerance = ctx.options.iters >= 20 ? 1e-9 : 1e-2;
    pass = low_error < tolerance && high_error < tolerance;
  }
  MPI_Bcast(&pass, 1, MPI_INT, 0, ctx.comm);
  print_result(ctx.comm, "lanczos", pass != 0, detail);
  return pass != 0;
}

}  // namespace
}  // namespace mheta::apps

int main(int argc, char** argv) {
  mheta::apps::AppSpec spec;
  spec.name = "lanczos";
  spec.description =
      "Out-of-core Lanczos iteration on a dense SPD matrix (HDF5 local arrays, rows distributed "
      "GEN_BLOCK); checks the extreme eigenvalues against Eigen's dense solver.";
  spec.defaults.rows = 512;
  spec.defaults.iters = 30;
  return mheta::apps::run_app(argc, argv, spec, mheta::apps::run_lanczos);
}
