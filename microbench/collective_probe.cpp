#include "microbench/collective_probe.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "microbench/clock_offset.hpp"
#include "microbench/least_squares.hpp"
#include "microbench/quiet_wait.hpp"
#include "microbench/statistics.hpp"
#include "microbench/timing_batch.hpp"

namespace mheta::microbench {

namespace {

struct Buffers {
  std::vector<char> send;
  std::vector<char> recv;
  std::vector<int> counts;
  std::vector<int> displs;
};

// The operations timed, and the curve each one's points feed. allgather and
// allgatherv share the model's one allgather curve.
// `swept`: timed over the sweep of sizes and rank counts for its curve;
// the others are timed only at a program's own sizes (--profile), and
// otherwise borrow a curve (model::Network::curve).
struct Operation {
  const char* mpi_name;
  model::Collective curve;
  bool sized;
  void (*call)(Buffers& b, int bytes, MPI_Comm comm);
  bool swept = true;
};

constexpr Operation kOperations[] = {
    {"MPI_Barrier", model::Collective::barrier, false, [](Buffers&, int, MPI_Comm c) { MPI_Barrier(c); }},
    {"MPI_Bcast", model::Collective::bcast, true,
     [](Buffers& b, int n, MPI_Comm c) { MPI_Bcast(b.send.data(), n, MPI_BYTE, 0, c); }},
    {"MPI_Allreduce(MPI_DOUBLE, MPI_SUM)", model::Collective::allreduce, true,
     [](Buffers& b, int n, MPI_Comm c) {
       MPI_Allreduce(b.send.data(), b.recv.data(), std::max(n / 8, 1), MPI_DOUBLE, MPI_SUM, c);
     }},
    {"MPI_Allgather", model::Collective::allgather, true,
     [](Buffers& b, int n, MPI_Comm c) { MPI_Allgather(b.send.data(), n, MPI_BYTE, b.recv.data(), n, MPI_BYTE, c); }},
    {"MPI_Allgatherv", model::Collective::allgather, true,
     [](Buffers& b, int n, MPI_Comm c) {
       int p = 0;
       MPI_Comm_size(c, &p);
       for (int r = 0; r < p; ++r) {
         b.counts[static_cast<std::size_t>(r)] = n;
         b.displs[static_cast<std::size_t>(r)] = r * n;
       }
       MPI_Allgatherv(b.send.data(), n, MPI_BYTE, b.recv.data(), b.counts.data(), b.displs.data(), MPI_BYTE, c);
     }},
    // n bytes to every peer: the send count, what the capture records for
    // MPI_Alltoall (docs/interpose.md) and what the emulated network's
    // (P-1)(alpha + n beta) prices (docs/emulation.md).
    {"MPI_Alltoall", model::Collective::alltoall, true,
     [](Buffers& b, int n, MPI_Comm c) { MPI_Alltoall(b.send.data(), n, MPI_BYTE, b.recv.data(), n, MPI_BYTE, c); }},
    // n bytes reduced into each rank's block: the receive count, what the
    // capture records; its bytes follow (P-1)*n like allgather's, not the
    // log2(P)*n of allreduce, whose curve it borrowed before.
    {"MPI_Reduce_scatter_block(MPI_DOUBLE, MPI_SUM)", model::Collective::reduce_scatter, true,
     [](Buffers& b, int n, MPI_Comm c) {
       MPI_Reduce_scatter_block(b.send.data(), b.recv.data(), std::max(n / 8, 1), MPI_DOUBLE, MPI_SUM, c);
     }},
    // n bytes: the buffer (reduce, scan), the block each rank sends
    // (gather) or receives (scatter), as the capture records them.
    {"MPI_Reduce(MPI_DOUBLE, MPI_SUM)", model::Collective::reduce, true,
     [](Buffers& b, int n, MPI_Comm c) {
       MPI_Reduce(b.send.data(), b.recv.data(), std::max(n / 8, 1), MPI_DOUBLE, MPI_SUM, 0, c);
     },
     false},
    {"MPI_Gather", model::Collective::gather, true,
     [](Buffers& b, int n, MPI_Comm c) { MPI_Gather(b.send.data(), n, MPI_BYTE, b.recv.data(), n, MPI_BYTE, 0, c); },
     false},
    {"MPI_Scatter", model::Collective::scatter, true,
     [](Buffers& b, int n, MPI_Comm c) { MPI_Scatter(b.send.data(), n, MPI_BYTE, b.recv.data(), n, MPI_BYTE, 0, c); },
     false},
    {"MPI_Scan(MPI_DOUBLE, MPI_SUM)", model::Collective::scan, true,
     [](Buffers& b, int n, MPI_Comm c) {
       MPI_Scan(b.send.data(), b.recv.data(), std::max(n / 8, 1), MPI_DOUBLE, MPI_SUM, c);
     },
     false},
};

// The operation that times a program's `op`: the first of its curve's.
const Operation* operation_of(model::Collective op) {
  for (const Operation& candidate : kOperations) {
    if (candidate.curve == op) return &candidate;
  }
  return nullptr;
}

// Each rank holds a send and a receive buffer of P blocks of this size;
// a program's larger blocks are not timed (the model keeps its curve there).
constexpr std::int64_t kMostProgramBufferBytes = std::int64_t{256} << 20;

struct Point {
  const Operation* op;
  int ranks;
  std::int64_t bytes;
  Sample time;
  bool fitted = true;  // false: a program's own size (--profile), kept out of the curve's fit
};

// p = 2, 3, the powers of two, and the whole communicator: enough distinct
// counts for the three rank terms, without timing every p of a large run.
std::vector<int> collective_rank_counts(int size) {
  std::vector<int> counts;
  for (int p = 2; p <= size; ++p) {
    if (p == 3 || (p & (p - 1)) == 0 || p == size) counts.push_back(p);
  }
  return counts;
}

CurveFit fit_curve(const std::vector<const Point*>& points) {
  std::set<int> ranks;
  std::set<std::int64_t> bytes;
  for (const Point* p : points) {
    ranks.insert(p->ranks);
    bytes.insert(p->bytes);
  }
  // A term enters the fit only when the sweep can tell it apart from the
  // others: log2 p needs two rank counts, p a third (else it is collinear
  // with 1 and log2 p), the byte terms two byte counts, and n*p, like p, a
  // third rank count.
  CurveFit fit;
  const bool two_sizes = bytes.size() >= 2;
  fit.fitted = {true, ranks.size() >= 2, ranks.size() >= 3, two_sizes, two_sizes && ranks.size() >= 2,
                two_sizes && ranks.size() >= 3};
  std::vector<std::size_t> columns;
  for (std::size_t k = 0; k < fit.fitted.size(); ++k) {
    if (fit.fitted[k]) columns.push_back(k);
  }
  const auto n = static_cast<Eigen::Index>(points.size());
  Eigen::MatrixXd x(n, static_cast<Eigen::Index>(columns.size()));
  Eigen::VectorXd y(n);
  Eigen::VectorXd sigma(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Point& p = *points[static_cast<std::size_t>(i)];
    const auto terms = model::CollectiveCurve::basis(p.ranks, static_cast<double>(p.bytes));
    for (std::size_t c = 0; c < columns.size(); ++c) {
      x(i, static_cast<Eigen::Index>(c)) = terms[columns[c]];
    }
    y(i) = p.time.median();
    sigma(i) = std::max({p.time.standard_error(), 0.02 * p.time.median(), 1e-9});
  }
  const LinearFit solved = weighted_least_squares(x, y, sigma);
  const auto coefficients = fit.curve.coefficients();
  for (std::size_t c = 0; c < columns.size(); ++c) {
    *coefficients[columns[c]] = solved.coefficients(static_cast<Eigen::Index>(c));
    fit.ci95[columns[c]] = solved.ci95(static_cast<Eigen::Index>(c));
  }
  return fit;
}

}  // namespace

CollectiveResult probe_collectives(const Options& options, Budget& budget, MPI_Comm comm) {
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  CollectiveResult result;
  // Costs are linear in n: a few sizes decades apart pin the byte terms.
  for (std::int64_t s = 8; s <= options.max_collective_bytes && s <= 32768; s *= 64) result.sizes.push_back(s);
  if (result.sizes.back() < options.max_collective_bytes) result.sizes.push_back(options.max_collective_bytes);
  result.rank_counts = collective_rank_counts(size);
  const std::vector<int>& rank_counts = result.rank_counts;
  for (const Operation& op : kOperations) {
    if (op.swept) result.operations.push_back(op.mpi_name);
  }

  std::vector<Point> points;
  for (const int p : rank_counts) {
    for (const Operation& op : kOperations) {
      if (!op.swept) continue;
      if (!op.sized) {
        points.push_back({&op, p, 0, {}});
        continue;
      }
      for (const std::int64_t bytes : result.sizes) points.push_back({&op, p, bytes, {}});
    }
  }
  result.points = static_cast<int>(points.size());
  std::int64_t largest_bytes = result.sizes.empty() ? 8 : result.sizes.back();
  std::vector<int> communicator_sizes = rank_counts;
  for (const Options::ProgramCollective& call : options.program_collectives) {
    const Operation* op = operation_of(call.op);
    if (op == nullptr || call.ranks < 2 || call.ranks > size ||
        call.bytes > kMostProgramBufferBytes / std::max(call.ranks, 1)) {
      result.program_skipped.push_back(call);
      continue;
    }
    points.push_back({op, call.ranks, op->sized ? call.bytes : 0, {}, false});
    communicator_sizes.push_back(call.ranks);
    largest_bytes = std::max(largest_bytes, call.bytes);
  }
  // Grouped by rank count, as the rounds below time them.
  std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.ranks < b.ranks; });
  std::vector<MPI_Comm> sub(static_cast<std::size_t>(size) + 1, MPI_COMM_NULL);
  for (int p = 2; p <= size; ++p) {
    if (std::find(communicator_sizes.begin(), communicator_sizes.end(), p) == communicator_sizes.end()) continue;
    MPI_Comm_split(comm, rank < p ? 0 : MPI_UNDEFINED, rank, &sub[static_cast<std::size_t>(p)]);
  }
  const auto largest = static_cast<std::size_t>(largest_bytes);
  // An all-to-all sends a block to every rank, a reduce-scatter reduces one
  // for every rank: both buffers hold P blocks.
  Buffers buffers{std::vector<char>(largest * static_cast<std::size_t>(size), 1),
                  std::vector<char>(largest * static_cast<std::size_t>(size)),
                  std::vector<int>(static_cast<std::size_t>(size)), std::vector<int>(static_cast<std::size_t>(size))};

  const double clock_offset = clock_offset_from_root(comm);
  bool time_up = false;
  for (int round = 1; !time_up; ++round) {
    std::size_t i = 0;
    while (i < points.size() && !time_up) {
      // All points of one rank count, then the ranks left out rejoin.
      const int p = points[i].ranks;
      const MPI_Comm c = sub[static_cast<std::size_t>(p)];
      for (; i < points.size() && points[i].ranks == p; ++i) {
        if (c == MPI_COMM_NULL) continue;
        Point& point = points[i];
        const int bytes = static_cast<int>(point.bytes);
        point.op->call(buffers, bytes, c);  // warm
        MPI_Barrier(c);                     // start together
        // The model completes a collective at its last rank's arrival plus
        // the curve's cost (docs/model.md): the time an earlier rank spends
        // inside is waiting, which the replay adds itself. So a call's cost
        // is its last end minus its last start, on rank 0's clock. (Each
        // rank's own time inside, the slowest taken, counted the skew of
        // back-to-back calls on ranks that sleep while they wait: 1 ms per
        // 8-byte allreduce at p = 4 on two cores, against 0.2 ms inside
        // lanczos; the fastest rank's time missed the wake-up of the others:
        // 0.01 ms. docs/results.md.)
        std::array<double, 2 * kBatch> stamps{};  // the calls' starts, then their ends
        std::size_t k = 0;
        time_batch([&] {
          const double t0 = MPI_Wtime();
          point.op->call(buffers, bytes, c);
          const double t1 = MPI_Wtime();
          stamps[k] = t0 - clock_offset;
          stamps[kBatch + k] = t1 - clock_offset;
          ++k;
          return t1 - t0;
        });
        std::array<double, 2 * kBatch> last{};
        MPI_Reduce(stamps.data(), last.data(), static_cast<int>(last.size()), MPI_DOUBLE, MPI_MAX, 0, c);
        std::array<double, kBatch> cost{};
        for (std::size_t call = 0; call < kBatch; ++call) {
          cost[call] = std::max(0.0, last[kBatch + call] - last[call]);
        }
        if (rank == 0) add_all(point.time, cost);
      }
      // The ranks left out rejoin; after the first full round (every point
      // has an interval) the budget is checked at every rank count, since
      // a round on many oversubscribed ranks can take long.
      const int mine = rank == 0 && round > 1 && budget.phase_time_up() ? 1 : 0;
      int any = 0;
      quiet_allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm);
      time_up = any == 1;
    }
    result.rounds = round;
    if (time_up) break;
    bool want_more = false;
    if (rank == 0) {
      for (const Point& point : points)
        want_more = want_more || point.time.relative_ci95() > options.target_relative_ci95;
    }
    if (!budget.another_round(want_more, round)) break;
  }
  for (MPI_Comm& c : sub) {
    if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
  }
  if (rank != 0) return result;
  for (int k = 0; k < model::kCollectiveCount; ++k) {
    std::vector<const Point*> own;
    for (const Point& point : points) {
      if (point.fitted && static_cast<int>(point.op->curve) == k) own.push_back(&point);
    }
    if (!own.empty()) result.curves[static_cast<std::size_t>(k)] = fit_curve(own);
  }
  for (const Point& point : points) {
    if (point.fitted) continue;
    result.program_points.push_back({point.op->curve, point.op->mpi_name, point.ranks, point.bytes, point.time});
  }
  return result;
}

}  // namespace mheta::microbench
