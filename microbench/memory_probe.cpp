#include "microbench/memory_probe.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

namespace mheta::microbench {

namespace {

constexpr std::uint64_t kUnlimited = std::numeric_limits<std::uint64_t>::max();

std::optional<std::uint64_t> read_number(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return std::nullopt;
  try {
    return std::stoull(word);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<std::uint64_t> mem_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return std::nullopt;
}

// Limit minus usage of this process's memory cgroup (v2 or v1), or
// kUnlimited. Containers often show their own cgroup at the root of
// /sys/fs/cgroup, so the root is tried after the path /proc/self/cgroup gives.
std::uint64_t cgroup_headroom() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  std::uint64_t best = kUnlimited;
  auto consider = [&](const std::string& dir, const char* limit_file, const char* usage_file) {
    const auto limit = read_number(dir + "/" + limit_file);
    if (!limit || *limit >= (std::uint64_t{1} << 60)) return;
    const std::uint64_t usage = read_number(dir + "/" + usage_file).value_or(0);
    best = std::min(best, *limit > usage ? *limit - usage : 0);
  };
  while (std::getline(in, line)) {
    const auto first = line.find(':');
    const auto second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (controllers.empty()) {
      for (const std::string& dir : {"/sys/fs/cgroup" + path, std::string("/sys/fs/cgroup")}) {
        consider(dir, "memory.max", "memory.current");
      }
    } else if (controllers.find("memory") != std::string::npos) {
      for (const std::string& dir : {"/sys/fs/cgroup/memory" + path, std::string("/sys/fs/cgroup/memory")}) {
        consider(dir, "memory.limit_in_bytes", "memory.usage_in_bytes");
      }
    }
  }
  return best;
}

}  // namespace

MemoryProbe probe_memory(int ranks_on_node) {
  if (const char* emulated = std::getenv("MHETA_MEMORY_BYTES")) {
    try {
      return {std::stoull(emulated), "MHETA_MEMORY_BYTES (emulated budget)"};
    } catch (const std::exception&) {
      // Fall through to the real figure; a malformed variable is the
      // emulator's problem to report, not a reason to stop measuring.
    }
  }
  const std::uint64_t cgroup = cgroup_headroom();
  const std::uint64_t meminfo = mem_available().value_or(kUnlimited);
  std::uint64_t node = std::min(cgroup, meminfo);
  std::string source = cgroup < meminfo ? "memory cgroup limit minus usage" : "/proc/meminfo MemAvailable";
  if (node == kUnlimited) {
    node = 0;
    source = "unknown (neither /proc/meminfo nor a memory cgroup could be read)";
  }
  const auto share = static_cast<std::uint64_t>(std::max(ranks_on_node, 1));
  std::ostringstream text;
  text << source << ", divided among " << share << " rank(s) on the node";
  return {node / share, text.str()};
}

}  // namespace mheta::microbench
