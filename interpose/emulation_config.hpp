#pragma once
// The emulated heterogeneous cluster (MHETA §5.1): per rank, how much slower
// its CPU and its disk are than the machine's, and how much memory its
// ICLAs may use. Named presets for the paper's Table 1 configurations, or a
// JSON file (format "mheta-emulation/1", docs/emulation.md). No MPI here:
// `mheta run` validates the same configuration before it starts a program.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interpose/emulated_disk.hpp"
#include "interpose/emulated_network.hpp"

namespace mheta::interpose {

inline constexpr std::string_view kEmulationFormat = "mheta-emulation/1";

// CPU and I/O factors and dilation lie in [1, kMaxEmulationFactor].
inline constexpr double kMaxEmulationFactor = 1e6;

enum class WaitMode { spin, sleep };

struct RankEmulation {
  double cpu_factor = 1;                      // compute between MPI calls takes this many times as long (>= 1)
  double io_factor = 1;                       // MPI-IO takes this many times as long (>= 1)
  std::optional<std::uint64_t> memory_bytes;  // exported as MHETA_MEMORY_BYTES
};

struct Emulation {
  std::string name;
  WaitMode wait = WaitMode::sleep;
  std::vector<RankEmulation> ranks;  // the configuration's nodes, at least one
  // Time dilation, wall clock only (MHETA_CLOCK=wall): every CPU factor is
  // multiplied by it, so that ranks sharing cores still each get the CPU
  // their emulated compute needs (docs/emulation.md). Absent: automatic,
  // ranks on the node / its cores when the node is oversubscribed, else 1.
  // The virtual clock has no dilation: a rank's CPU time does not grow
  // with the ranks it shares a core with.
  std::optional<double> dilation;
  // The network messages cross under the virtual clock; absent: the
  // machine's own (what the messages really take).
  std::optional<Network> network;
  // The disk every node's MPI-IO is timed on under the virtual clock, each
  // rank's request times its io_factor; absent: the machine's own (the
  // measured time of each call times io_factor).
  std::optional<Disk> disk;

  // The node rank `rank` of `size` emulates: the configuration is stretched
  // over the run's ranks (node floor(rank * nodes / size)), so an 8-node
  // preset run on 4 ranks keeps every other node and the same proportions.
  const RankEmulation& for_rank(int rank, int size) const;
};

// The names of the presets: DC, IO, HY1, HY2.
std::vector<std::string> emulation_preset_names();
std::optional<Emulation> emulation_preset(std::string_view name);

// Parses an emulation file; throws model::FormatError naming it and the field.
Emulation parse_emulation(std::string_view text, std::string_view source);

// A preset name, else the path of an emulation file (read and parsed).
// Throws model::FormatError when the name is neither.
Emulation load_emulation(std::string_view spec);

}  // namespace mheta::interpose
