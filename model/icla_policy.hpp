#pragma once
// The one ICLA sizing policy. io/ sizes the in-core local arrays (ICLAs) of a
// running program with it, and the model predicts with it, so the model and
// the program always agree on which variables are out of core and how many
// disk accesses a sweep costs (the MHETA paper's limitation 2 came from the
// model and the program disagreeing).
//
// Policy: if every distributed variable a rank owns fits in its memory budget
// together, all stay in core (read once, kept in memory). Otherwise every
// variable the rank owns rows of is out of core, and all of them are swept
// together in ICLAs of the same number of rows: as many rows of every
// variable as fit in the budget (halved when ICLAs are double-buffered for
// prefetching), at least one row.
#include <cstdint>
#include <span>

namespace mheta::model {

struct VariableDemand {
  std::int64_t rows = 0;           // rows of this variable the rank owns (M_beta / bytes_per_row)
  std::int64_t bytes_per_row = 0;
};

struct IclaPlan {
  bool in_core = true;
  std::int64_t icla_rows = 0;  // rows per ICLA; the whole block when in core
  std::int64_t chunks = 0;     // N_L = ceil(rows / icla_rows) when out of core, 0 in core
};

struct IclaOptions {
  bool force_out_of_core = false;  // MHETA_FORCE_OOC: the instrumented iteration does I/O everywhere
  int buffers = 1;                 // 2 when ICLAs are double-buffered for prefetching
};

// Fills `plans[i]` for `demands[i]`. Allocation-free: the model calls it for
// every rank of every distribution it evaluates.
void plan_iclas(std::uint64_t budget_bytes, std::span<const VariableDemand> demands,
                IclaOptions options, std::span<IclaPlan> plans);

// The plan plan_iclas gives every variable when all of them own the same
// `rows` (one GEN_BLOCK distributes them all, as in the model), in constant
// time: `bytes_per_row` is the sum over the variables.
IclaPlan plan_equal_rows(std::uint64_t budget_bytes, std::uint64_t bytes_per_row, std::int64_t rows,
                         IclaOptions options);

}  // namespace mheta::model
