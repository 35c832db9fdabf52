#pragma once
// Memory available to the application on this node: the smaller of the
// kernel's MemAvailable and what the memory cgroup still allows, shared
// equally by the ranks on the node. An emulated node's budget
// (MHETA_MEMORY_BYTES, exported by `mheta run --emulate`) wins over both.
#include <cstdint>
#include <string>

namespace mheta::microbench {

struct MemoryProbe {
  std::uint64_t bytes = 0;  // for one rank
  std::string source;       // how it was found, for the "measurement" record
};

MemoryProbe probe_memory(int ranks_on_node);

}  // namespace mheta::microbench
