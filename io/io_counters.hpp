#pragma once
// What this process's local arrays did on disk: the figures an application
// reports per iteration, and the tests compare with N_L x ICLA.
#include <cstdint>

namespace mheta::io {

struct IoCounters {
  std::int64_t reads = 0;  // MPI_File_read_at and MPI_File_iread_at calls on row data
  std::int64_t read_bytes = 0;
  std::int64_t writes = 0;  // MPI_File_write_at calls on row data
  std::int64_t write_bytes = 0;
  double read_seconds = 0;   // inside synchronous reads
  double issue_seconds = 0;  // inside MPI_File_iread_at calls (starting prefetches)
  double write_seconds = 0;
  double wait_seconds = 0;  // inside MPI_Wait for prefetched reads (T_s of Eq 2)

  IoCounters operator-(const IoCounters& before) const;
};

// The process-wide counters; local arrays add to them.
IoCounters& io_counters();

}  // namespace mheta::io
