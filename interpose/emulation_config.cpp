#include "interpose/emulation_config.hpp"

#include <array>
#include <filesystem>

#include "model/format_error.hpp"
#include "model/json_fields.hpp"
#include "model/text_file.hpp"

namespace mheta::interpose {

namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1024} * 1024;
// Memory classes of the presets. Table 1 of the paper is qualitative ("small
// memories", "large memories"); these sizes put the apps' default problems
// (tens of MiB per rank) out of core, partly in core and in core.
constexpr std::uint64_t kSmallMemory = 4 * kMiB;
constexpr std::uint64_t kNormalMemory = 32 * kMiB;
constexpr std::uint64_t kLargeMemory = 256 * kMiB;

struct PresetNode {
  double cpu;
  double io;
  std::uint64_t memory;
};

struct Preset {
  std::string_view name;
  std::array<PresetNode, 8> nodes;
};

// MHETA Table 1, 8 nodes. A CPU can only be slowed down by sleeping, so
// "higher relative power" is factor 1 and the unchanged nodes are 1.5.
constexpr Preset kPresets[] = {
    // DC: two nodes of lower CPU power, two of higher, the rest unchanged.
    {"DC",
     {{{3, 1, kNormalMemory},
       {3, 1, kNormalMemory},
       {1, 1, kNormalMemory},
       {1, 1, kNormalMemory},
       {1.5, 1, kNormalMemory},
       {1.5, 1, kNormalMemory},
       {1.5, 1, kNormalMemory},
       {1.5, 1, kNormalMemory}}}},
    // IO: half the nodes have high I/O latency and small memories; equal CPUs.
    {"IO",
     {{{1, 1, kNormalMemory},
       {1, 1, kNormalMemory},
       {1, 1, kNormalMemory},
       {1, 1, kNormalMemory},
       {1, 4, kSmallMemory},
       {1, 4, kSmallMemory},
       {1, 4, kSmallMemory},
       {1, 4, kSmallMemory}}}},
    // HY1: four nodes of varying CPU power; four with low I/O latency and small memories.
    {"HY1",
     {{{1, 2, kNormalMemory},
       {1.5, 2, kNormalMemory},
       {2, 2, kNormalMemory},
       {3, 2, kNormalMemory},
       {1, 1, kSmallMemory},
       {1, 1, kSmallMemory},
       {1, 1, kSmallMemory},
       {1, 1, kSmallMemory}}}},
    // HY2: four nodes of varying CPU power, two with high I/O latency, two with large memories.
    {"HY2",
     {{{1, 1, kNormalMemory},
       {1.5, 1, kNormalMemory},
       {2, 1, kNormalMemory},
       {3, 1, kNormalMemory},
       {1, 4, kNormalMemory},
       {1, 4, kNormalMemory},
       {1, 1, kLargeMemory},
       {1, 1, kLargeMemory}}}},
};

double factor(const model::JsonFields& f, const model::Json& node, std::string_view key, const std::string& path) {
  const double value = f.non_negative_or(node, key, path, 1);
  if (value < 1) {
    f.fail(model::field_path(path, key),
           "must be at least 1 (emulation can slow a node down, never speed it up), got " + std::to_string(value));
  }
  // A factor of 10^19 would make a rank sleep for ever.
  if (value > kMaxEmulationFactor) {
    f.fail(model::field_path(path, key), "must be at most 1e6 (a million times slower), got " + std::to_string(value));
  }
  return value;
}

}  // namespace

const RankEmulation& Emulation::for_rank(int rank, int size) const {
  return ranks[static_cast<std::size_t>(node_of_rank(rank, size, static_cast<int>(ranks.size())))];
}

std::vector<std::string> emulation_preset_names() {
  std::vector<std::string> names;
  for (const Preset& p : kPresets) names.emplace_back(p.name);
  return names;
}

std::optional<Emulation> emulation_preset(std::string_view name) {
  for (const Preset& p : kPresets) {
    if (p.name != name) continue;
    Emulation e;
    e.name = std::string(p.name);
    for (const PresetNode& n : p.nodes) e.ranks.push_back({n.cpu, n.io, n.memory});
    // The paper's cluster (§5.1) is one machine room: the same network for
    // every configuration of Table 1.
    e.network = gigabit_ethernet(static_cast<int>(e.ranks.size()));
    // And one kind of local disk, each node's io_factor times slower: so the
    // same run gives the same virtual times (docs/emulation.md, "Disk").
    e.disk = sata_ssd();
    return e;
  }
  return std::nullopt;
}

Emulation parse_emulation(std::string_view text, std::string_view source) {
  const model::Json document = model::parse_json_text(text, source);
  const model::JsonFields f{std::string(source)};
  f.expect_format(document, kEmulationFormat);
  Emulation e;
  e.name = std::filesystem::path(source).stem().string();
  if (const model::Json* name = f.optional_member(document, "name", "")) {
    if (!name->is_string()) f.fail("name", "must be a string");
    e.name = name->get<std::string>();
  }
  if (const model::Json* wait = f.optional_member(document, "wait", "")) {
    if (*wait == "sleep") {
      e.wait = WaitMode::sleep;
    } else if (*wait == "spin") {
      e.wait = WaitMode::spin;
    } else {
      f.fail("wait", "must be \"sleep\" or \"spin\"");
    }
  }
  if (const model::Json* dilation = f.optional_member(document, "dilation", "")) {
    if (*dilation != "auto") e.dilation = factor(f, document, "dilation", "");
  }
  const model::Json& ranks = f.array(document, "ranks", "");
  if (ranks.empty()) f.fail("ranks", "must describe at least one node");
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const std::string path = model::index_path("ranks", i);
    if (!ranks[i].is_object()) f.fail(path, "must be an object");
    RankEmulation r;
    r.cpu_factor = factor(f, ranks[i], "cpu_factor", path);
    r.io_factor = factor(f, ranks[i], "io_factor", path);
    if (f.optional_member(ranks[i], "memory_bytes", path)) {
      r.memory_bytes = static_cast<std::uint64_t>(f.integer(ranks[i], "memory_bytes", path, 1));
    }
    e.ranks.push_back(r);
  }
  if (const model::Json* network = f.optional_member(document, "network", "")) {
    e.network = parse_network(f, *network, static_cast<int>(e.ranks.size()));
  }
  if (const model::Json* disk = f.optional_member(document, "disk", "")) e.disk = parse_disk(f, *disk);
  return e;
}

Emulation load_emulation(std::string_view spec) {
  if (auto preset = emulation_preset(spec)) return *preset;
  const std::filesystem::path path(spec);
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    std::string names;
    for (const std::string& n : emulation_preset_names()) names += (names.empty() ? "" : ", ") + n;
    throw model::FormatError(std::string(spec), "",
                             "is neither an emulation preset (" + names + ") nor a readable emulation file");
  }
  return parse_emulation(model::read_text_file(path), path.string());
}

}  // namespace mheta::interpose
