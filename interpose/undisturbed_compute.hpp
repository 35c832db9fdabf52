#pragma once
// The CPU time of a compute section as if its thread had kept its core
// (docs/emulation.md, "Preempted compute").
//
// When ranks share cores the scheduler preempts a rank in the middle of a
// section; when it resumes, what it had in the caches is gone, and
// refilling them costs CPU time that the emulated node, one rank per core,
// never spends: a sweep over 0.5 MB that takes 20 us undisturbed took 60 us
// (median) when preempted, 8 processes on this machine's 2 cores. Which
// sections are hit depends on how the run was scheduled, not on the
// emulated cluster.
//
// A section is named by the MPI functions before and after it, and the one
// before that (marks and MPI_Wtime count as one function). A section
// its thread was preempted in is charged the median CPU time of that
// section's last undisturbed runs, when at least kFewest are known and its
// excess over that median is no more than refilling the caches can cost
// (kMostRefill): a longer one did more work, and keeps its measured time,
// as does one never seen undisturbed. The bound does not grow with the
// preemptions: a long section is preempted many times, and scaling it
// charged a particle push whose work had grown from 2 to 15 ms (39
// preemptions) its early 2 ms.
#include <array>
#include <cstddef>
#include <cstdint>
#include <unordered_map>

namespace mheta::interpose {

class UndisturbedCompute {
 public:
  static constexpr std::size_t kKept = 9;    // undisturbed runs kept per section
  static constexpr std::size_t kFewest = 3;  // needed before a preempted run is replaced
  // The most the refills of the caches can add to a section: a few times
  // the 40-100 us measured for half a megabyte (above).
  static constexpr double kMostRefill = 0.25e-3;

  // Sections that end at a call of `after`, begin at one of `before`, which
  // followed one of `earlier`. Two functions alone do not tell a program's
  // marks (or MPI_Wtime calls) apart: between a stage's begin and end marks
  // is its compute, between its end and the iteration's mark nothing.
  static std::uint64_t section(std::uint32_t earlier, std::uint32_t before, std::uint32_t after) {
    constexpr unsigned kBits = 21;
    constexpr std::uint64_t kMask = (std::uint64_t{1} << kBits) - 1;
    return ((earlier & kMask) << (2 * kBits)) | ((before & kMask) << kBits) | (after & kMask);
  }
  // The CPU time to charge a run of `section` measured at `cpu_s`, in which
  // its thread was preempted `preemptions` times (< 0: unknown, taken as 0).
  double charge(std::uint64_t section, double cpu_s, long preemptions);

 private:
  struct History {
    std::array<double, kKept> cpu_s{};
    std::size_t runs = 0;  // undisturbed runs seen; the last kKept are kept
  };
  std::unordered_map<std::uint64_t, History> sections_;
};

}  // namespace mheta::interpose
