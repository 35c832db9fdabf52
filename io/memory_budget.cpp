#include "io/memory_budget.hpp"

#include <mheta/interposer.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <mheta/environment.hpp>
#include <sstream>
#include <stdexcept>

namespace mheta::io {

std::optional<std::uint64_t> parse_byte_count(const std::string& text) {
  std::size_t i = 0;
  std::uint64_t value = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    const unsigned d = static_cast<unsigned>(text[i] - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return std::nullopt;
    value = value * 10 + d;
    ++i;
  }
  if (i == 0) return std::nullopt;
  int shift = 0;
  if (i < text.size()) {
    switch (std::toupper(static_cast<unsigned char>(text[i]))) {
      case 'K':
        shift = 10;
        break;
      case 'M':
        shift = 20;
        break;
      case 'G':
        shift = 30;
        break;
      default:
        return std::nullopt;
    }
    ++i;
  }
  if (i != text.size()) return std::nullopt;
  if (value > (std::numeric_limits<std::uint64_t>::max() >> shift)) return std::nullopt;
  return value << shift;
}

namespace {

// First whitespace-separated word of a file; empty when unreadable.
std::string first_word(const char* path) {
  std::ifstream in(path);
  std::string word;
  in >> word;
  return word;
}

// Limit minus usage of a cgroup, when it has a finite limit.
std::optional<std::uint64_t> cgroup_room(const char* limit_path, const char* usage_path) {
  const std::string limit_text = first_word(limit_path);
  if (limit_text.empty() || limit_text == "max") return std::nullopt;
  const auto limit = parse_byte_count(limit_text);
  // cgroup v1 reports "no limit" as a huge page-rounded number.
  if (!limit || *limit >= (std::uint64_t{1} << 60)) return std::nullopt;
  const auto usage = parse_byte_count(first_word(usage_path));
  const std::uint64_t used = usage.value_or(0);
  return *limit > used ? *limit - used : 0;
}

std::optional<std::uint64_t> mem_available() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream fields(line.substr(13));
    std::uint64_t kib = 0;
    if (fields >> kib) return kib * 1024;
  }
  return std::nullopt;
}

}  // namespace

MemoryBudget memory_budget(int ranks_on_node) {
  if (const char* env = std::getenv(env::kMemoryBytes); env != nullptr && *env != '\0') {
    const auto bytes = parse_byte_count(env);
    if (!bytes || *bytes == 0) {
      throw std::runtime_error(std::string("MHETA_MEMORY_BYTES: expected a positive byte count such as "
                                           "1048576 or 64M, got '") +
                               env + "'");
    }
    return {*bytes, "MHETA_MEMORY_BYTES"};
  }
  std::optional<std::uint64_t> room;
  std::string source = "/proc/meminfo";
  if (auto v2 = cgroup_room("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current")) {
    room = v2;
    source = "cgroup v2";
  } else if (auto v1 = cgroup_room("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                                   "/sys/fs/cgroup/memory/memory.usage_in_bytes")) {
    room = v1;
    source = "cgroup v1";
  }
  const auto available = mem_available();
  if (available && (!room || *available < *room)) {
    room = available;
    source = "/proc/meminfo";
  }
  const std::uint64_t total = room.value_or(std::uint64_t{1} << 30);
  return {total / static_cast<std::uint64_t>(std::max(ranks_on_node, 1)), source};
}

bool force_out_of_core_from_environment() {
  return whole_run_forced_out_of_core() || mheta_out_of_core_forced_now() != 0;
}

bool whole_run_forced_out_of_core() {
  const char* value = std::getenv(env::kForceOutOfCore);
  return value != nullptr && std::string(value) == "1";
}

}  // namespace mheta::io
