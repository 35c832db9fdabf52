#pragma once
// Disk costs of the node, measured through MPI-IO on MPI_COMM_SELF exactly
// as the application's ICLA reads and writes are made (MPI_File_read_at,
// write_at, iread_at + MPI_Wait), so the interposer's I/O emulation slows
// them down the way it slows the application.
//
// Fits, by weighted least squares over a sweep of request sizes,
//   read:  t = O_r + r*bytes    (cold: the page cache is dropped first)
//   write: t = O_w + w*bytes    (write_at + MPI_File_sync: the bytes reach the disk)
// the same two when the page cache serves them (a read of pages just read,
// a write without sync), as a program whose ICLAs stay in memory pays,
// and O_A (MHETA Eq 2) as the extra time of iread_at + MPI_Wait over a
// read_at of the same cached 4 KiB block, so the difference is the
// non-blocking machinery and not the disk.
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "microbench/budget.hpp"
#include "microbench/options.hpp"
#include "model/cluster.hpp"

namespace mheta::microbench {

struct DiskResult {
  model::DiskCosts costs;
  model::DiskCosts ci95;  // the same fields, as half-widths
  int rounds = 0;
};

struct DiskSetup {
  std::vector<std::int64_t> sizes;
  std::int64_t file_bytes = 0;
  std::string page_cache;  // how the page cache was bypassed
  std::string directory;   // as given, or the temporary directory's parent
};

// Every rank measures its own file; ranks sharing a node take turns so they
// do not measure each other's contention. On rank 0 `all` holds every rank's
// result (in rank order).
DiskSetup disk_setup(const Options& options);
void probe_disks(const Options& options, Budget& budget, MPI_Comm comm, std::vector<DiskResult>& all);

}  // namespace mheta::microbench
