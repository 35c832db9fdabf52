#pragma once
// The memory a rank may fill with its in-core local arrays (ICLAs): the
// budget the one ICLA policy (model/icla_policy.hpp) sizes against.
#include <cstdint>
#include <optional>
#include <string>

namespace mheta::io {

// Where a budget came from, for reports.
struct MemoryBudget {
  std::uint64_t bytes = 0;
  std::string source;  // "MHETA_MEMORY_BYTES", "cgroup v2", "cgroup v1" or "/proc/meminfo"
};

// MHETA_MEMORY_BYTES when set (bytes for this rank; the interposer's
// emulation exports it per rank). Otherwise the memory this process can
// still use: the smaller of the cgroup limit minus the cgroup's usage (v2,
// then v1) and MemAvailable from /proc/meminfo, divided among the
// `ranks_on_node` ranks that share the node. Throws std::runtime_error when
// MHETA_MEMORY_BYTES is not a positive integer.
MemoryBudget memory_budget(int ranks_on_node);

// Parses a byte count: digits with an optional K, M or G suffix (powers of
// 1024). Empty when the text is not one.
std::optional<std::uint64_t> parse_byte_count(const std::string& text);

// MHETA_FORCE_OOC=1: every distributed variable out of core for the whole
// run (the paper instruments that way, so the I/O cost of every rank is
// measured). The interposer's forcing, around the iteration it captures
// only, comes through mheta_out_of_core_forced() (<mheta/interposer.h>);
// groups follow it at each iteration (IclaGroup::follow_environment) but
// plan the run as usual.
bool force_out_of_core_from_environment();  // either
bool whole_run_forced_out_of_core();        // MHETA_FORCE_OOC=1

}  // namespace mheta::io
