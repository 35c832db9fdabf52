#pragma once
// The emulated cluster's disk (docs/emulation.md, "Disk"): what an MPI-IO
// request costs a node whose disk is the emulation file's, in place of the
// machine's own measured I/O time, so that the same out-of-core run takes
// the same time whatever the machine's page cache and write-back were
// doing. Each rank's disk serves its requests one at a time, in the order
// they were issued; its `io_factor` stretches every request. The virtual
// clock advances by it, the wall clock sleeps until it. No MPI here:
// `mheta run` checks the same block before it starts a program.
#include <cstdint>

#include "model/json_fields.hpp"

namespace mheta::interpose {

// What a request is: a read or write of its bytes, or a request that moves
// none (open, close, sync, set_size, preallocate), which costs the latency.
enum class DiskOp : std::uint8_t { read, write, other };

struct Disk {
  double latency_s;   // per request: seek, rotation, the controller
  double read_Bps;    // bytes a second once a read has started
  double write_Bps;   // bytes a second once a write has started (write-through: no page cache)

  // The time one request takes on this disk at `io_factor` times slower.
  double seconds(DiskOp op, std::int64_t bytes, double io_factor) const;
};

// One rank's disk: it serves the requests one at a time, in the order they
// were issued. Times are the caller's (virtual or wall seconds), the same
// for every call.
class DiskQueue {
 public:
  DiskQueue(const Disk& disk, double io_factor) : disk_(disk), io_factor_(io_factor) {}
  // A request issued at `issued_at`: it starts when the disk has served the
  // ones before it; returns when it has been served.
  double request(double issued_at, DiskOp op, std::int64_t bytes);

 private:
  Disk disk_;
  double io_factor_;
  double free_at_ = 0;  // when every request issued so far has been served
};

// A request's turn on an emulated disk, in the clock's time.
struct DiskTurn {
  double done_at = 0;  // when the disk has served it
  double seconds = 0;  // from its issue to then: its I/O time
};

// The local disk the presets give every node (docs/emulation.md says where
// the figures come from).
Disk sata_ssd();

// Parses the "disk" block of an emulation file; throws model::FormatError
// naming the file and the field ("disk.read_MBps").
Disk parse_disk(const model::JsonFields& fields, const model::Json& block);

}  // namespace mheta::interpose
