#include "microbench/disk_probe.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <iterator>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <stdexcept>

#include "microbench/linear_cost.hpp"
#include "microbench/quiet_wait.hpp"
#include "microbench/statistics.hpp"

namespace mheta::microbench {

namespace {

constexpr std::int64_t kBlock = 4096;
// The row a mapped read hashes at a time: 1024 doubles, as the apps' rows
// are (io/redistribution_checksum.hpp hashes row by row).
constexpr std::int64_t kHashedRow = 8192;
constexpr int kAsyncPairsPerRound = 4;

std::string temp_parent() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

std::string mpi_error(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

// One rank's scratch file: MPI-IO handle for the measurements, a POSIX
// descriptor only to drop the file's pages from the cache.
class ScratchFile {
 public:
  ScratchFile(const Options& options, int rank) {
    if (options.disk_dir.empty()) {
      std::string pattern = temp_parent() + "/mheta-microbench-XXXXXX";
      if (mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error("cannot create a temporary directory under " + temp_parent() + ": " +
                                 std::strerror(errno) + " (choose another with --disk-dir)");
      }
      own_dir_ = pattern;
      path_ = pattern + "/scratch.dat";
    } else {
      path_ = options.disk_dir + "/mheta-microbench." + std::to_string(rank) + ".dat";
    }
    const int rc = MPI_File_open(MPI_COMM_SELF, path_.c_str(), MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh_);
    if (rc != MPI_SUCCESS) {
      if (!own_dir_.empty()) std::filesystem::remove_all(own_dir_);
      throw std::runtime_error("cannot open the disk scratch file " + path_ + ": " + mpi_error(rc) +
                               " (is --disk-dir an existing, writable directory?)");
    }
    fd_ = ::open(path_.c_str(), O_RDONLY);
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  ~ScratchFile() {
    MPI_File_close(&fh_);
    if (fd_ >= 0) ::close(fd_);
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
    if (!own_dir_.empty()) std::filesystem::remove_all(own_dir_, ignored);
  }

  MPI_File handle() const { return fh_; }
  int descriptor() const { return fd_; }
  void drop_cache() const {
    if (fd_ >= 0) posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED);
  }
  void check(int rc, const char* what) const {
    if (rc != MPI_SUCCESS) throw std::runtime_error(std::string(what) + " on " + path_ + ": " + mpi_error(rc));
  }

 private:
  std::string path_;
  std::string own_dir_;
  MPI_File fh_ = MPI_FILE_NULL;
  int fd_ = -1;
};

class DiskMeasurer {
 public:
  DiskMeasurer(const Options& options, const DiskSetup& setup, int rank)
      : setup_(setup),
        file_(options, rank),
        buffer_(static_cast<char*>(std::aligned_alloc(kBlock, static_cast<std::size_t>(setup.sizes.back())))),
        random_(0x6d68657461u + static_cast<unsigned>(rank)),
        reads_(setup.sizes.size()),
        writes_(setup.sizes.size()),
        cached_reads_(setup.sizes.size()),
        buffered_writes_(setup.sizes.size()),
        mapped_hashes_(setup.sizes.size()) {
    std::memset(buffer_.get(), 'm', static_cast<std::size_t>(setup.sizes.back()));
  }

  void fill() {
    const std::int64_t chunk = setup_.sizes.back();
    for (std::int64_t offset = 0; offset < setup_.file_bytes; offset += chunk) {
      file_.check(MPI_File_write_at(file_.handle(), offset, buffer_.get(), static_cast<int>(chunk), MPI_BYTE,
                                    MPI_STATUS_IGNORE),
                  "MPI_File_write_at");
    }
    file_.check(MPI_File_sync(file_.handle()), "MPI_File_sync");
    file_.drop_cache();
  }

  void round() {
    for (std::size_t i = 0; i < setup_.sizes.size(); ++i) {
      const int bytes = static_cast<int>(setup_.sizes[i]);
      double t0 = MPI_Wtime();
      file_.check(MPI_File_write_at(file_.handle(), offset(bytes), buffer_.get(), bytes, MPI_BYTE, MPI_STATUS_IGNORE),
                  "MPI_File_write_at");
      file_.check(MPI_File_sync(file_.handle()), "MPI_File_sync");
      writes_[i].add(MPI_Wtime() - t0);
      file_.drop_cache();  // clean after the sync, so the pages really go
      t0 = MPI_Wtime();
      file_.check(MPI_File_read_at(file_.handle(), offset(bytes), buffer_.get(), bytes, MPI_BYTE, MPI_STATUS_IGNORE),
                  "MPI_File_read_at");
      reads_[i].add(MPI_Wtime() - t0);
      file_.drop_cache();
    }
    // The same sizes served by the page cache, as a program whose ICLAs
    // stay in memory sees them: a read of pages just read, a write left to
    // write-back. Synced and dropped afterwards, untimed, so the next
    // round's disk figures start clean.
    for (std::size_t i = 0; i < setup_.sizes.size(); ++i) {
      const int bytes = static_cast<int>(setup_.sizes[i]);
      const MPI_Offset at = offset(bytes);
      file_.check(MPI_File_read_at(file_.handle(), at, buffer_.get(), bytes, MPI_BYTE, MPI_STATUS_IGNORE),
                  "MPI_File_read_at");
      double t0 = MPI_Wtime();
      file_.check(MPI_File_read_at(file_.handle(), at, buffer_.get(), bytes, MPI_BYTE, MPI_STATUS_IGNORE),
                  "MPI_File_read_at");
      cached_reads_[i].add(MPI_Wtime() - t0);
      t0 = MPI_Wtime();
      hash_mapped(at, bytes);
      mapped_hashes_[i].add(MPI_Wtime() - t0);
      t0 = MPI_Wtime();
      file_.check(MPI_File_write_at(file_.handle(), at, buffer_.get(), bytes, MPI_BYTE, MPI_STATUS_IGNORE),
                  "MPI_File_write_at");
      buffered_writes_[i].add(MPI_Wtime() - t0);
    }
    file_.check(MPI_File_sync(file_.handle()), "MPI_File_sync");
    file_.drop_cache();
    // O_A on a cached block: both variants find the data in memory, so the
    // difference is the cost of issuing and completing a non-blocking read.
    const int bytes = static_cast<int>(kBlock);
    file_.check(MPI_File_read_at(file_.handle(), 0, buffer_.get(), bytes, MPI_BYTE, MPI_STATUS_IGNORE),
                "MPI_File_read_at");
    for (int k = 0; k < kAsyncPairsPerRound; ++k) {
      double t0 = MPI_Wtime();
      file_.check(MPI_File_read_at(file_.handle(), 0, buffer_.get(), bytes, MPI_BYTE, MPI_STATUS_IGNORE),
                  "MPI_File_read_at");
      sync_small_.add(MPI_Wtime() - t0);
      t0 = MPI_Wtime();
      MPI_Request request;
      file_.check(MPI_File_iread_at(file_.handle(), 0, buffer_.get(), bytes, MPI_BYTE, &request), "MPI_File_iread_at");
      file_.check(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait");
      async_small_.add(MPI_Wtime() - t0);
    }
  }

  DiskResult result(int rounds) const {
    const LinearCost mapped_hash = fit_linear_cost(setup_.sizes, mapped_hashes_);
    const LinearCost read = fit_linear_cost(setup_.sizes, reads_);
    const LinearCost write = fit_linear_cost(setup_.sizes, writes_);
    const LinearCost cached_read = fit_linear_cost(setup_.sizes, cached_reads_);
    const LinearCost buffered_write = fit_linear_cost(setup_.sizes, buffered_writes_);
    DiskResult r;
    r.rounds = rounds;
    r.costs = {read.overhead_s,       write.overhead_s,         std::max(0.0, async_small_.median() - sync_small_.median()),
               read.s_per_byte,       write.s_per_byte,         cached_read.overhead_s,
               cached_read.s_per_byte, buffered_write.overhead_s, buffered_write.s_per_byte,
               mapped_hash.s_per_byte};
    r.ci95 = {read.overhead_ci95,           write.overhead_ci95,           std::hypot(async_small_.ci95(), sync_small_.ci95()),
              read.s_per_byte_ci95,         write.s_per_byte_ci95,         cached_read.overhead_ci95,
              cached_read.s_per_byte_ci95,  buffered_write.overhead_ci95, buffered_write.s_per_byte_ci95,
              mapped_hash.s_per_byte_ci95};
    return r;
  }

  bool precise_enough(double target) const {
    return fit_linear_cost(setup_.sizes, reads_).precise_enough(setup_.sizes, target) &&
           fit_linear_cost(setup_.sizes, writes_).precise_enough(setup_.sizes, target);
  }

 private:
  // The pages of [at, at + bytes), just read, mapped and hashed row by row
  // as a redistribution reads an old block and its new one back.
  void hash_mapped(MPI_Offset at, std::int64_t bytes) {
    void* map = ::mmap(nullptr, static_cast<std::size_t>(bytes), PROT_READ, MAP_SHARED, file_.descriptor(), at);
    if (map == MAP_FAILED) throw std::runtime_error(std::string("cannot map the disk scratch file: ") + std::strerror(errno));
    const auto* data = static_cast<const unsigned char*>(map);
    for (std::int64_t row = 0; row * kHashedRow < bytes; ++row) {
      hash_sum_ += XXH3_64bits_withSeed(data + row * kHashedRow,
                                        static_cast<std::size_t>(std::min(kHashedRow, bytes - row * kHashedRow)),
                                        static_cast<XXH64_hash_t>(row));
    }
    ::munmap(map, static_cast<std::size_t>(bytes));
  }

  MPI_Offset offset(std::int64_t bytes) {
    const std::int64_t blocks = (setup_.file_bytes - bytes) / kBlock;
    return static_cast<MPI_Offset>(std::uniform_int_distribution<std::int64_t>(0, blocks)(random_) * kBlock);
  }

  const DiskSetup& setup_;
  ScratchFile file_;
  std::unique_ptr<char, FreeDeleter> buffer_;
  std::mt19937_64 random_;
  std::vector<Sample> reads_;
  std::vector<Sample> writes_;
  std::vector<Sample> cached_reads_;
  std::vector<Sample> buffered_writes_;
  std::vector<Sample> mapped_hashes_;
  std::uint64_t hash_sum_ = 0;  // every hash summed, so that none is left out as unused
  Sample sync_small_;
  Sample async_small_;
};

// One rank's result as doubles for the gather: every DiskCosts field of the
// costs, then of the intervals, then the rounds.
constexpr int kFieldCount = static_cast<int>(std::size(model::kDiskFields));
constexpr int kPacked = 2 * kFieldCount + 1;

void pack(const DiskResult& r, double out[kPacked]) {
  const model::DiskCosts* both[2] = {&r.costs, &r.ci95};
  for (int k = 0; k < 2; ++k) {
    for (int f = 0; f < kFieldCount; ++f) out[kFieldCount * k + f] = both[k]->*model::kDiskFields[f].value;
  }
  out[kPacked - 1] = r.rounds;
}

DiskResult unpack(const double in[kPacked]) {
  DiskResult r;
  model::DiskCosts* both[2] = {&r.costs, &r.ci95};
  for (int k = 0; k < 2; ++k) {
    for (int f = 0; f < kFieldCount; ++f) both[k]->*model::kDiskFields[f].value = in[kFieldCount * k + f];
  }
  r.rounds = static_cast<int>(in[kPacked - 1]);
  return r;
}

}  // namespace

DiskSetup disk_setup(const Options& options) {
  DiskSetup setup;
  for (std::int64_t s = kBlock; s <= (1 << 20); s *= 4) setup.sizes.push_back(s);
  setup.file_bytes = std::max<std::int64_t>(options.disk_file_bytes, 4 * setup.sizes.back());
  setup.file_bytes -= setup.file_bytes % setup.sizes.back();
  setup.page_cache =
      "posix_fadvise(POSIX_FADV_DONTNEED) on the file before every timed read and after every "
      "write_at + MPI_File_sync (ROMIO's file driver offers no O_DIRECT)";
  setup.directory = options.disk_dir.empty() ? temp_parent() + "/mheta-microbench-XXXXXX" : options.disk_dir;
  return setup;
}

void probe_disks(const Options& options, Budget& budget, MPI_Comm comm, std::vector<DiskResult>& all) {
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int turn_of = 0;
  int turns = 0;
  MPI_Comm_rank(node, &turn_of);
  MPI_Comm_size(node, &turns);

  const DiskSetup setup = disk_setup(options);
  // Open (and so check) every scratch file before anyone starts measuring.
  DiskMeasurer measurer(options, setup, rank);
  const double start = wall_s();  // the budget's clock
  const double slice = budget.phase_seconds() / turns;
  DiskResult mine;
  for (int turn = 0; turn < turns; ++turn) {
    if (turn == turn_of) {
      const double deadline = start + slice * (turn + 1);
      measurer.fill();
      int rounds = 0;
      // At least 3 rounds, for a spread; then until precise or out of time.
      while (rounds < 3 || (wall_s() < deadline && !measurer.precise_enough(options.target_relative_ci95))) {
        measurer.round();
        ++rounds;
      }
      mine = measurer.result(rounds);
    }
    quiet_barrier(node);
  }
  MPI_Comm_free(&node);

  double packed[kPacked];
  pack(mine, packed);
  std::vector<double> gathered(rank == 0 ? kPacked * static_cast<std::size_t>(size) : 0);
  MPI_Request request;
  MPI_Igather(packed, kPacked, MPI_DOUBLE, gathered.data(), kPacked, MPI_DOUBLE, 0, comm, &request);
  quiet_wait(request);
  if (rank != 0) return;
  all.clear();
  for (int r = 0; r < size; ++r) all.push_back(unpack(&gathered[kPacked * static_cast<std::size_t>(r)]));
}

}  // namespace mheta::microbench
