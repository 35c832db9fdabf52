#pragma once
// The I/O equations of MHETA §4.2.1 for one sweep of an out-of-core variable
// through its ICLAs. Pure functions, so each equation is tested on its own.
#include <cstdint>

namespace mheta::model {

// One sweep of M_beta bytes in N_L = ceil(M_beta / M_i) ICLAs. The paper
// multiplies N_L by a full ICLA; the last ICLA is usually partial, so these
// functions sum the real chunk sizes (equal to the paper's form when M_i
// divides M_beta).
struct Sweep {
  std::int64_t bytes = 0;       // M_beta(m): bytes of m the rank owns
  std::int64_t icla_bytes = 0;  // M_i(m)
  std::int64_t chunks = 0;      // N_L(m)

  std::int64_t last_chunk_bytes() const { return bytes - (chunks - 1) * icla_bytes; }
};

// Eq 1, read half: N_L * O_r + sum of T_r over the chunks (T_r = r * bytes).
double synchronous_read_seconds(const Sweep& sweep, double read_overhead_s, double read_s_per_byte);

// Eq 1 and Eq 2, write half: N_L * O_w + sum of T_w over the chunks.
double write_seconds(const Sweep& sweep, double write_overhead_s, double write_s_per_byte);

// Eq 2, read half, with prefetching (double-buffered ICLAs):
//   N_L * (O_r + O_A) + T_r(first chunk) + sum over later chunks k of T_s(k),
//   T_s(k) = max(0, T_r(chunk k) - T_A(chunk k-1)),
// where T_A is the compute on the previous ICLA, which overlaps the read.
// With equal chunks this is the paper's N_L*(O_r+O_A) + T_r + (N_L-1)*T_s.
double prefetch_read_seconds(const Sweep& sweep, double read_overhead_s, double async_overhead_s,
                             double read_s_per_byte, double overlap_s_per_byte);

// O and r (or w) of one variable on one rank, from what the instrumented
// iteration measured: `count` requests moving `bytes` in `seconds`.
struct IoCalibration {
  double overhead_s = 0;  // O_r or O_w
  double s_per_byte = 0;  // r(m) or w(m)
};

// What a node's requests cost in one regime: t = overhead_s + s_per_byte·bytes.
struct RequestCost {
  double overhead_s = 0;
  double s_per_byte = 0;
  bool measured() const { return overhead_s > 0 || s_per_byte > 0; }
};

// MHETA §4.1.1: the node's request overhead O comes from the cluster, the
// per-byte latency is what the measured time leaves: (seconds − count·O) /
// bytes. The cluster measures two regimes: the disk's (cold reads, synced
// writes) and the page cache's (`cached`: reads of pages in memory, writes
// left to write-back). O is taken from the regime whose cost for these
// requests, count·O + bytes·(its per-byte figure), is nearer the measured
// time (in ratio): a program whose ICLAs stay in the page cache pays the
// cache's overhead per request, not a disk seek or a journal commit
// (docs/model.md, "Which request overhead"). `cached` not measured: the
// disk's. When the measured time is below count·O, the program's requests
// are cheaper still: then O = seconds / count and r = 0, so the model
// charges exactly what was measured instead of count·O. With nothing
// measured the disk's figures stand.
IoCalibration calibrate_io(std::int64_t count, std::int64_t bytes, double seconds, const RequestCost& disk,
                           const RequestCost& cached = {});

}  // namespace mheta::model
