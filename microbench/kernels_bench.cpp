// mheta-microbench-kernels: the single-node kernels behind cluster.json's
// node figures, under Google Benchmark, without MPI: the compute reference
// (cpu_power), memory copy, and cold disk reads and synced writes (the
// POSIX counterparts of the MPI-IO requests mheta-microbench times).
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "microbench/reference_kernel.hpp"

namespace {

using mheta::microbench::CopyKernel;
using mheta::microbench::StencilKernel;

void BM_StencilReference(benchmark::State& state) {
  StencilKernel kernel(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(kernel.run(1));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kernel.points()));
}
BENCHMARK(BM_StencilReference)->Arg(256)->Arg(1024);

void BM_MemoryCopy(benchmark::State& state) {
  CopyKernel kernel(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(kernel.run(1));
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_MemoryCopy)->Range(4 << 10, 64 << 20);

// A scratch file of 64 MiB in $TMPDIR (or /tmp), removed at the end.
class ScratchFile {
 public:
  ScratchFile() {
    const char* tmp = std::getenv("TMPDIR");
    path_ = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/mheta-kernels-XXXXXX";
    fd_ = mkstemp(path_.data());
    std::vector<char> block(1 << 20, 'm');
    for (int i = 0; fd_ >= 0 && i < 64; ++i) {
      if (pwrite(fd_, block.data(), block.size(), static_cast<off_t>(i) << 20) < 0) break;
    }
    if (fd_ >= 0) fsync(fd_);
  }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  ~ScratchFile() {
    if (fd_ >= 0) close(fd_);
    unlink(path_.c_str());
  }
  int fd() const { return fd_; }
  static constexpr off_t kBytes = off_t{64} << 20;

 private:
  std::string path_;
  int fd_ = -1;
};

void BM_DiskColdRead(benchmark::State& state) {
  ScratchFile file;
  if (file.fd() < 0) {
    state.SkipWithError("cannot create a scratch file in $TMPDIR");
    return;
  }
  std::vector<char> buffer(static_cast<std::size_t>(state.range(0)));
  off_t offset = 0;
  for (auto _ : state) {
    state.PauseTiming();
    posix_fadvise(file.fd(), 0, 0, POSIX_FADV_DONTNEED);
    offset = (offset + (off_t{1} << 20)) % (ScratchFile::kBytes - state.range(0));
    state.ResumeTiming();
    benchmark::DoNotOptimize(pread(file.fd(), buffer.data(), buffer.size(), offset));
  }
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_DiskColdRead)->RangeMultiplier(4)->Range(4 << 10, 1 << 20)->UseRealTime();

void BM_DiskSyncedWrite(benchmark::State& state) {
  ScratchFile file;
  if (file.fd() < 0) {
    state.SkipWithError("cannot create a scratch file in $TMPDIR");
    return;
  }
  std::vector<char> buffer(static_cast<std::size_t>(state.range(0)), 'w');
  off_t offset = 0;
  for (auto _ : state) {
    offset = (offset + (off_t{1} << 20)) % (ScratchFile::kBytes - state.range(0));
    benchmark::DoNotOptimize(pwrite(file.fd(), buffer.data(), buffer.size(), offset));
    fdatasync(file.fd());
  }
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_DiskSyncedWrite)->RangeMultiplier(4)->Range(4 << 10, 1 << 20)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
