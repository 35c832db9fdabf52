// redistribution_throughput DIR MIB [most]: the redistribution's throughput
// beside a plain sequential write of the same bytes on the same disk, in
// one run. The move goes from Blk to shares 1, 2, ..., ranks, or with `most`
// to rank 0 holding all but a 1/(10 ranks) share per other rank, which moves
// most rows (with 2 ranks, 45%: the most any GEN_BLOCK move can).
// Every rank makes its block of one variable (MIB MiB in all, 4 KiB rows)
// under Blk; then, timed from a barrier to the slowest rank:
//   sequential    each rank writes the bytes of its block under the new
//                 distribution to a plain file (4 MiB writes) and fsyncs it
//   redistribute  io::redistribute from Blk to the new distribution (reads,
//                 exchange, writes, fsync, read-back verification, commit,
//                 switch); what it leaves to the background (recording
//                 completion, freeing the old blocks' space) is waited for
//                 apart, untimed, and its time printed
// in five rounds (the redistribution going there and back in turn), and
// prints one JSON line with both median throughputs (bytes written /
// seconds) and their ratio, and the processor time of each (all ranks',
// median), which the other programs on a shared machine change less than
// the wall-clock time; the data checksum must be unchanged (exit 1
// otherwise).
#include <fcntl.h>
#include <mpi.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/background_release.hpp"
#include "io/local_array.hpp"
#include "io/redistribution.hpp"
#include "io/redistribution_data_checksum.hpp"
#include "model/gen_block.hpp"
#include "mpi_world.hpp"

namespace {

constexpr std::int64_t kRowBytes = 4096;
constexpr std::int64_t kWriteBytes = 4 << 20;
constexpr int kRounds = 5;

double processor_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

struct Timing {
  double seconds = 0;            // the slowest rank's, from a barrier
  double processor_seconds = 0;  // every rank's, user and system
};

Timing timed(MPI_Comm comm, const std::function<void()>& step) {
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  const double processor_start = processor_seconds();
  step();
  Timing t{MPI_Wtime() - start, processor_seconds() - processor_start};
  MPI_Allreduce(MPI_IN_PLACE, &t.seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(MPI_IN_PLACE, &t.processor_seconds, 1, MPI_DOUBLE, MPI_SUM, comm);
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  const mheta::test::MpiWorld world(argc, argv);
  const int rank = world.rank();
  const int size = world.size();
  const bool most = argc == 4 && std::string(argv[3]) == "most";
  if (argc != 3 && !most) {
    if (rank == 0) std::cerr << "usage: redistribution_throughput DIR MIB [most]\n";
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const std::int64_t rows = std::atoll(argv[2]) * (1 << 20) / kRowBytes;
  const mheta::io::RowShape shape{"x", mheta::io::ElementType::u8, kRowBytes};
  const mheta::model::GenBlock from = mheta::model::block_distribution(rows, size);
  // Uneven shares 1, 2, ..., size: most rows change owner.
  mheta::model::GenBlock to{std::vector<std::int64_t>(static_cast<std::size_t>(size))};
  std::int64_t given = 0;
  for (int r = size - 1; r >= 0; --r) {
    const std::int64_t share = most ? rows / (10 * size) : rows * (r + 1) / (size * (size + 1) / 2);
    to.rows[static_cast<std::size_t>(r)] = r == 0 ? rows - given : share;
    given += to.rows[static_cast<std::size_t>(r)];
  }
  if (rank == 0) std::filesystem::remove_all(dir);
  MPI_Barrier(MPI_COMM_WORLD);
  {
    auto block = mheta::io::LocalArray::create(dir, shape, from, rank);
    std::vector<std::byte> chunk(static_cast<std::size_t>(kWriteBytes));
    const std::int64_t chunk_rows = kWriteBytes / kRowBytes;
    for (std::int64_t i = 0; i < block.local_rows(); i += chunk_rows) {
      const std::int64_t n = std::min(chunk_rows, block.local_rows() - i);
      for (std::int64_t k = 0; k < n * kRowBytes; ++k) {
        chunk[static_cast<std::size_t>(k)] = static_cast<std::byte>((block.first_row() + i) * 31 + k * 7);
      }
      block.write_rows(i, n, chunk.data());
    }
  }
  const std::uint64_t before = mheta::io::data_checksum(MPI_COMM_WORLD, dir, shape, from);
  // Nothing of the setup left to write back while the timed steps run.
  ::sync();
  MPI_Barrier(MPI_COMM_WORLD);

  const std::int64_t my_bytes = to.rows[static_cast<std::size_t>(rank)] * kRowBytes;
  const std::filesystem::path plain = dir / ("sequential." + std::to_string(rank));
  auto sequential = [&] {
    std::vector<std::byte> chunk(static_cast<std::size_t>(kWriteBytes), std::byte{1});
    const int fd = ::open(plain.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    for (std::int64_t done = 0; done < my_bytes; done += kWriteBytes) {
      const auto n = static_cast<std::size_t>(std::min(kWriteBytes, my_bytes - done));
      if (::write(fd, chunk.data(), n) != static_cast<ssize_t>(n)) std::cerr << "sequential write failed\n";
    }
    ::fsync(fd);
    ::close(fd);
  };
  // Rounds of one sequential write and one redistribution (there and back
  // in turn); medians, because this disk's fsync times vary run to run.
  std::vector<double> sequential_s;
  std::vector<double> redistribute_s;
  std::vector<double> sequential_processor_s;
  std::vector<double> redistribute_processor_s;
  mheta::io::RedistributionStats stats;
  double background_s = 0;
  mheta::model::GenBlock now = from;
  for (int round = 0; round < kRounds; ++round) {
    const Timing write = timed(MPI_COMM_WORLD, sequential);
    sequential_s.push_back(write.seconds);
    sequential_processor_s.push_back(write.processor_seconds);
    std::filesystem::remove(plain);
    ::sync();
    const mheta::model::GenBlock next = now == from ? to : from;
    const Timing move =
        timed(MPI_COMM_WORLD, [&] { stats = mheta::io::redistribute(MPI_COMM_WORLD, dir, {shape}, now, next); });
    redistribute_s.push_back(move.seconds);
    redistribute_processor_s.push_back(move.processor_seconds);
    // The completion record and the freeing of the old blocks' space run
    // in the background while the program goes on; here they must not
    // overlap the next round's plain write.
    background_s = timed(MPI_COMM_WORLD, [] { mheta::io::wait_for_background_release(); }).seconds;
    now = next;
    ::sync();
    MPI_Barrier(MPI_COMM_WORLD);
  }
  const std::uint64_t after = mheta::io::data_checksum(MPI_COMM_WORLD, dir, shape, now);
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };

  const double bytes = static_cast<double>(rows * kRowBytes);
  if (rank == 0) {
    std::cout << nlohmann::json{{"ranks", size},
                                {"move", most ? "most rows" : "shares 1:2:...:ranks"},
                                {"bytes", rows * kRowBytes},
                                {"bytes_moved_between_ranks", stats.bytes_moved},
                                {"rounds", kRounds},
                                {"sequential_write_MBps", bytes / median(sequential_s) / 1e6},
                                {"redistribution_MBps", bytes / median(redistribute_s) / 1e6},
                                {"ratio", median(sequential_s) / median(redistribute_s)},
                                {"last_round_exchange_s", stats.exchange_s},
                                {"last_round_verify_s", stats.verify_s},
                                {"last_round_switch_s", stats.switch_s},
                                {"last_round_background_s", background_s},
                                {"sequential_write_processor_s", median(sequential_processor_s)},
                                {"redistribution_processor_s", median(redistribute_processor_s)},
                                {"checksum_unchanged", before == after}}
                     .dump()
              << std::endl;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) std::filesystem::remove_all(dir);
  return before == after ? 0 : 1;
}
