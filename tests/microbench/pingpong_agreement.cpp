// Validation: the alpha and beta that mheta-microbench fits for a pair agree
// with an independent ping-pong written here with plain MPI, in the same
// job. The two methods alternate a few times so that both see the same
// load on a shared machine; the medians of their estimates are compared.
//
//   mpiexec -n 2 microbench_pingpong_agreement [--alpha-tolerance A] [--beta-tolerance B] [--alternations K]
//
// A comparison that misses is repeated (up to --attempts times, default 3):
// a load spike during one method's turn is the machine, a miss every time
// is a disagreement.
//
// Exit 0 when |microbench/plain - 1| <= tolerance for both; the figures go to
// stdout. Exit 77 (a skip for ctest) when the plain ping-pong of 8 bytes
// takes more than 50 us: then the ranks wait for the scheduler of an
// oversubscribed machine, not for the network, and neither method measures
// the network.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "microbench/budget.hpp"
#include "microbench/network_probe.hpp"

namespace {

struct Line {
  double alpha = 0;
  double beta = 0;
};

// Weighted least squares by the normal equations, with relative weights
// (1/t^2): every size counts the same, whatever its time.
Line relative_fit(const std::vector<double>& x, const std::vector<double>& t) {
  double s = 0, sx = 0, sxx = 0, sy = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double w = 1 / (t[i] * t[i]);
    s += w;
    sx += w * x[i];
    sxx += w * x[i] * x[i];
    sy += w * t[i];
    sxy += w * x[i] * t[i];
  }
  const double det = s * sxx - sx * sx;
  return {(sxx * sy - sx * sxy) / det, (s * sxy - sx * sy) / det};
}

// Plain ping-pong between ranks 0 and 1: for each size, the median of 51
// timed round trips, halved.
Line plain_pingpong(const std::vector<std::int64_t>& sizes, int rank) {
  std::vector<char> buffer(static_cast<std::size_t>(sizes.back()));
  std::vector<double> x, t;
  for (const std::int64_t size : sizes) {
    const int n = static_cast<int>(size);
    std::vector<double> trips;
    for (int k = 0; k < 52; ++k) {
      const double t0 = MPI_Wtime();
      if (rank == 0) {
        MPI_Send(buffer.data(), n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(buffer.data(), n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buffer.data(), n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buffer.data(), n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
      }
      if (k > 0) trips.push_back(MPI_Wtime() - t0);  // the first one warms up
    }
    std::nth_element(trips.begin(), trips.begin() + 25, trips.end());
    x.push_back(static_cast<double>(size));
    t.push_back(trips[25] / 2);
  }
  return relative_fit(x, t);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double alpha_tolerance = 0.15;
  double beta_tolerance = 0.15;
  int alternations = 3;
  int attempts = 3;
  double budget_s = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const double value = std::atof(argv[i + 1]);
    if (flag == "--alpha-tolerance") alpha_tolerance = value;
    if (flag == "--beta-tolerance") beta_tolerance = value;
    if (flag == "--alternations") alternations = static_cast<int>(value);
    if (flag == "--budget") budget_s = value;
    if (flag == "--attempts") attempts = static_cast<int>(value);
  }
  if (size != 2) {
    if (rank == 0) std::fprintf(stderr, "run with exactly 2 ranks\n");
    MPI_Finalize();
    return 2;
  }
  mheta::microbench::Options options;
  const std::vector<std::int64_t> sizes = mheta::microbench::message_sizes(options);
  int code = 1;
  for (int attempt = 1; attempt <= attempts && code == 1; ++attempt) {
    std::vector<double> mb_alpha, mb_beta, plain_alpha, plain_beta;
    for (int k = 0; k < alternations; ++k) {
      mheta::microbench::Budget budget(budget_s, MPI_COMM_WORLD);
      budget.begin_phase("ping-pong", 1.0);
      const mheta::microbench::NetworkResult net = mheta::microbench::probe_network(options, budget, MPI_COMM_WORLD);
      const Line plain = plain_pingpong(sizes, rank);
      if (rank == 0) {
        mb_alpha.push_back(net.pairs.at(0).cost.overhead_s);
        mb_beta.push_back(net.pairs.at(0).cost.s_per_byte);
        plain_alpha.push_back(plain.alpha);
        plain_beta.push_back(plain.beta);
      }
    }
    code = 0;
    if (rank == 0) {
      std::printf("attempt %d of %d\n", attempt, attempts);
      const double a_mb = median(mb_alpha), a_plain = median(plain_alpha);
      const double b_mb = median(mb_beta), b_plain = median(plain_beta);
      if (a_plain > 50e-6) {
        std::printf(
            "skipped: an 8-byte ping-pong takes %.3g s here; the machine is too loaded to measure the network\n",
            a_plain);
        code = 77;
      }
      const double a_dev = std::fabs(a_mb / a_plain - 1);
      const double b_dev = std::fabs(b_mb / b_plain - 1);
      std::printf("alpha: microbench %.4g s, plain ping-pong %.4g s, deviation %.1f%% (tolerance %.0f%%)\n", a_mb,
                  a_plain, 100 * a_dev, 100 * alpha_tolerance);
      std::printf("beta:  microbench %.4g s/B, plain ping-pong %.4g s/B, deviation %.1f%% (tolerance %.0f%%)\n", b_mb,
                  b_plain, 100 * b_dev, 100 * beta_tolerance);
      if (code == 0 && (!(a_dev <= alpha_tolerance) || !(b_dev <= beta_tolerance))) code = 1;
    }
    MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return code;
}
