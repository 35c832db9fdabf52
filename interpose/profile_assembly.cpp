#include "interpose/profile_assembly.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "interpose/variable_name.hpp"
#include "model/format_error.hpp"
#include "model/gen_block.hpp"
#include "model/model.hpp"

namespace mheta::interpose {

namespace {

using model::Json;

Json stats_json(const model::IoStats& s) { return {{"count", s.count}, {"bytes", s.bytes}, {"seconds", s.seconds}}; }

model::IoStats stats_from(const Json& j) {
  return {j.at("count").get<std::int64_t>(), j.at("bytes").get<std::int64_t>(), j.at("seconds").get<double>()};
}

// The rows each rank owned: a dist.txt (MHETA_DIST), else the hints' local
// rows when every rank gave them, else equal blocks.
model::GenBlock distribution(const std::vector<RankRecord>& records, const AssemblyInputs& in,
                             std::int64_t hinted_global_rows, std::vector<std::string>& warnings) {
  const int ranks = static_cast<int>(records.size());
  std::int64_t global_rows = in.global_rows > 0 ? in.global_rows : hinted_global_rows;
  if (!in.dist_path.empty()) {
    try {
      model::GenBlock dist = model::read_gen_block(in.dist_path);
      model::check_gen_block(dist, ranks, global_rows > 0 ? global_rows : dist.total_rows(), in.dist_path);
      return dist;
    } catch (const model::FormatError& error) {
      warnings.push_back(std::string("MHETA_DIST: ") + error.what() + "; using another distribution");
    }
  }
  model::GenBlock hinted;
  for (const RankRecord& r : records) {
    std::int64_t local = -1;
    for (const VariableSeen& v : r.variables) local = std::max(local, v.local_rows);
    if (local < 0) break;
    hinted.rows.push_back(local);
  }
  if (static_cast<int>(hinted.rows.size()) == ranks && (global_rows <= 0 || hinted.total_rows() == global_rows) &&
      hinted.total_rows() > 0) {
    return hinted;
  }
  if (global_rows <= 0) {
    warnings.push_back(
        "the program's row count is unknown (set MHETA_ROWS, or pass the mheta_global_rows hint to MPI_File_open); "
        "the profile says one row per rank");
    global_rows = ranks;
  }
  return model::block_distribution(global_rows, ranks);
}

// A rank's view of a variable (by name), or null when it has none.
const VariableSeen* seen_by(const RankRecord& record, const std::string& name) {
  for (const VariableSeen& v : record.variables) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

// The bytes per row of a program file whose captured reads and writes were,
// on every rank, its own block of rows (docs/model.md, "I/O the program
// does itself"); 0 when they were not. Each rank owning rows accessed one
// stretch of the file, b bytes per row it owns (the same b on every rank),
// starting at its first row's place: first row × b past a common origin in
// a file the ranks share, the same offset in a file of its own (its name
// holds {rank}). A log one rank appends to, a fixed-size record per rank at
// offsets that do not follow the rows, or accesses at the shared file
// pointer are not a block of rows.
std::int64_t per_row_bytes(const std::string& name, const std::vector<RankRecord>& records,
                           const model::GenBlock& distribution) {
  const bool own_files = name.find(kRankPlaceholder) != std::string::npos;
  std::int64_t bytes_per_row = 0;
  std::int64_t origin = 0;
  std::int64_t first_row = 0;
  for (std::size_t r = 0; r < records.size(); ++r) {
    const std::int64_t rows = distribution.rows[r];
    const VariableSeen* seen = seen_by(records[r], name);
    const FileExtent extent = seen != nullptr ? seen->accessed : FileExtent{};
    if (rows > 0) {
      const std::int64_t length = extent.end - extent.begin;
      if (extent.unknown || extent.begin < 0 || length <= 0 || length % rows != 0) return 0;
      const std::int64_t mine = length / rows;
      const std::int64_t my_origin = extent.begin - (own_files ? 0 : first_row * mine);
      if (bytes_per_row == 0) {
        bytes_per_row = mine;
        origin = my_origin;
      } else if (mine != bytes_per_row || my_origin != origin) {
        return 0;
      }
    } else if (extent.begin >= 0 || extent.unknown) {
      return 0;  // a rank without rows that still reads or writes it
    }
    first_row += rows;
  }
  return bytes_per_row;
}

}  // namespace

Json rank_record_to_json(const RankRecord& r) {
  Json sections = Json::array();
  for (const model::Section& section : r.sections) {
    Json stages = Json::array();
    for (const model::Stage& stage : section.stages) {
      Json io = Json::array();
      for (const model::StageIo& s : stage.io) {
        io.push_back({{"variable", s.variable},
                      {"reads", stats_json(s.reads)},
                      {"writes", stats_json(s.writes)},
                      {"prefetch", s.prefetch},
                      {"overlap_compute_s", s.overlap_compute_s}});
      }
      stages.push_back({{"compute_s", stage.compute_s}, {"io", io}});
    }
    Json comm = Json::array();
    for (const model::CommOp& c : section.comm) {
      comm.push_back({{"kind", static_cast<int>(c.kind)},
                      {"peer", c.peer},
                      {"bytes", c.bytes},
                      {"tag", c.tag},
                      {"collective", static_cast<int>(c.collective)},
                      {"nonblocking", c.nonblocking},
                      {"synchronous", c.synchronous},
                      {"segments", c.segments},
                      {"completed_at", {c.completed_section, c.completed_comm}},
                      {"inside_s", c.inside_s}});
    }
    sections.push_back({{"stages", stages}, {"comm", comm}});
  }
  Json variables = Json::array();
  for (const VariableSeen& v : r.variables) {
    variables.push_back({{"name", v.name},
                         {"bytes_per_row", v.bytes_per_row},
                         {"global_rows", v.global_rows},
                         {"local_rows", v.local_rows},
                         {"file_bytes", v.file_bytes},
                         {"hinted", v.hinted},
                         {"written", v.written},
                         {"accessed", {v.accessed.begin, v.accessed.end, v.accessed.unknown}}});
  }
  Json channels = Json::array();
  for (const ChannelStart& c : r.channel_starts) {
    channels.push_back({static_cast<int>(c.channel.kind), c.channel.peer, c.channel.tag, c.first});
  }
  return {{"rank", r.rank},
          {"complete", r.complete},
          {"sections", sections},
          {"variables", variables},
          {"channels", channels},
          {"iterations", r.iterations},
          {"repetitions", r.repetitions},
          {"time_share", r.time_share},
          {"pace", r.pace},
          {"loop_s", r.loop_s},
          {"compute_without_loop_s", r.compute_without_loop_s},
          {"host", r.host},
          {"memory_budget_bytes", r.memory_budget_bytes},
          {"virtual_clock", r.virtual_clock},
          {"other_threads", r.other_threads},
          {"slowdown", model::slowdown_to_json(r.slowdown)}};
}

RankRecord rank_record_from_json(const Json& j) {
  RankRecord r;
  r.rank = j.at("rank").get<int>();
  r.complete = j.at("complete").get<bool>();
  r.iterations = j.at("iterations").get<std::int64_t>();
  r.repetitions = j.at("repetitions").get<std::int64_t>();
  r.time_share = j.at("time_share").get<double>();
  r.pace = j.value("pace", -1.0);
  r.loop_s = j.value("loop_s", -1.0);
  r.compute_without_loop_s = j.value("compute_without_loop_s", -1.0);
  r.host = j.at("host").get<std::string>();
  r.memory_budget_bytes = j.at("memory_budget_bytes").get<std::uint64_t>();
  r.virtual_clock = j.value("virtual_clock", false);
  r.other_threads = j.value("other_threads", false);
  r.slowdown = {j.at("slowdown").at("cpu").get<double>(), j.at("slowdown").at("io").get<double>()};
  for (const Json& v : j.at("variables")) {
    VariableSeen seen;
    seen.name = v.at("name").get<std::string>();
    seen.bytes_per_row = v.at("bytes_per_row").get<std::int64_t>();
    seen.global_rows = v.at("global_rows").get<std::int64_t>();
    seen.local_rows = v.at("local_rows").get<std::int64_t>();
    seen.file_bytes = v.at("file_bytes").get<std::int64_t>();
    seen.hinted = v.at("hinted").get<bool>();
    seen.written = v.at("written").get<bool>();
    const Json& accessed = v.at("accessed");
    seen.accessed = {accessed.at(0).get<std::int64_t>(), accessed.at(1).get<std::int64_t>(), accessed.at(2).get<bool>()};
    r.variables.push_back(std::move(seen));
  }
  for (const Json& c : j.value("channels", Json::array())) {
    const Channel channel{static_cast<model::CommKind>(c.at(0).get<int>()), c.at(1).get<int>(), c.at(2).get<int>()};
    r.channel_starts.push_back({channel, c.at(3).get<std::int64_t>()});
  }
  for (const Json& s : j.at("sections")) {
    model::Section section;
    for (const Json& st : s.at("stages")) {
      model::Stage stage;
      stage.compute_s = st.at("compute_s").get<double>();
      for (const Json& io : st.at("io")) {
        model::StageIo entry;
        entry.variable = io.at("variable").get<int>();
        entry.reads = stats_from(io.at("reads"));
        entry.writes = stats_from(io.at("writes"));
        entry.prefetch = io.at("prefetch").get<bool>();
        entry.overlap_compute_s = io.at("overlap_compute_s").get<double>();
        stage.io.push_back(entry);
      }
      section.stages.push_back(std::move(stage));
    }
    for (const Json& c : s.at("comm")) {
      model::CommOp op;
      op.kind = static_cast<model::CommKind>(c.at("kind").get<int>());
      op.peer = c.at("peer").get<int>();
      op.bytes = c.at("bytes").get<std::int64_t>();
      op.tag = c.at("tag").get<int>();
      op.collective = static_cast<model::Collective>(c.at("collective").get<int>());
      op.nonblocking = c.at("nonblocking").get<bool>();
      op.synchronous = c.at("synchronous").get<bool>();
      op.segments = c.value("segments", std::int64_t{1});
      op.completed_section = c.at("completed_at").at(0).get<int>();
      op.completed_comm = c.at("completed_at").at(1).get<int>();
      op.inside_s = c.value("inside_s", -1.0);
      section.comm.push_back(op);
    }
    r.sections.push_back(std::move(section));
  }
  return r;
}

std::vector<int> admit_idle_ranks(std::vector<RankRecord>& records) {
  std::vector<bool> messaged(records.size(), false);
  double longest_loop_s = 0;
  for (const RankRecord& r : records) {
    if (!r.complete) continue;
    longest_loop_s = std::max(longest_loop_s, r.loop_s);
    for (const model::Section& s : r.sections) {
      for (const model::CommOp& c : s.comm) {
        if (c.kind == model::CommKind::collective) return {};  // every rank joins it
        if (c.peer >= 0 && c.peer < static_cast<int>(records.size())) messaged[static_cast<std::size_t>(c.peer)] = true;
      }
    }
  }
  std::vector<int> admitted;
  if (longest_loop_s <= 0) return admitted;  // no rank captured a detected loop
  for (std::size_t i = 0; i < records.size(); ++i) {
    RankRecord& r = records[i];
    if (r.complete || messaged[i] || r.compute_without_loop_s < 0 ||
        r.compute_without_loop_s > kIdleComputeShare * longest_loop_s) {
      continue;
    }
    r.complete = true;
    r.sections.clear();
    admitted.push_back(static_cast<int>(i));
  }
  return admitted;
}

model::Profile assemble_profile(const std::vector<RankRecord>& records, const AssemblyInputs& in,
                                std::vector<std::string>& warnings) {
  model::Profile p;
  p.program = in.program;
  // Virtual only if every rank's times are: a rank that fell back to the
  // wall clock (threads calling MPI at once) makes the profile a wall one.
  p.clock = !records.empty() && std::all_of(records.begin(), records.end(),
                                            [](const RankRecord& r) { return r.virtual_clock; })
                ? model::ProfileClock::virtual_time
                : model::ProfileClock::wall;
  p.forced_out_of_core = true;
  // Variables: those a rank read or wrote in the iteration, or named by a
  // hint; merged by name across ranks.
  std::map<std::string, int> index;
  std::vector<std::int64_t> bytes_per_row;
  std::int64_t hinted_global_rows = 0;
  std::vector<std::vector<bool>> used(records.size());
  for (std::size_t r = 0; r < records.size(); ++r) {
    used[r].assign(records[r].variables.size(), false);
    for (const model::Section& s : records[r].sections) {
      for (const model::Stage& st : s.stages) {
        for (const model::StageIo& io : st.io) used[r][static_cast<std::size_t>(io.variable)] = true;
      }
    }
  }
  for (std::size_t r = 0; r < records.size(); ++r) {
    for (std::size_t v = 0; v < records[r].variables.size(); ++v) {
      const VariableSeen& seen = records[r].variables[v];
      hinted_global_rows = std::max(hinted_global_rows, seen.global_rows);
      if (!used[r][v] && !seen.hinted) continue;
      auto [it, added] = index.try_emplace(seen.name, static_cast<int>(p.variables.size()));
      if (added) {
        // A file the program names to mheta is an out-of-core array (io/'s);
        // any other is the program's own (docs/model.md).
        p.variables.push_back({seen.name, 0, model::Access::read_only, model::VariableIo::program_file});
        bytes_per_row.push_back(0);
      }
      model::Variable& var = p.variables[static_cast<std::size_t>(it->second)];
      if (seen.written) var.access = model::Access::read_write;
      if (seen.hinted) var.io = model::VariableIo::out_of_core_array;
      if (seen.bytes_per_row > 0) bytes_per_row[static_cast<std::size_t>(it->second)] = seen.bytes_per_row;
    }
  }
  p.distribution = distribution(records, in, hinted_global_rows, warnings);
  // A program file's bytes per row: of the blocks its ranks streamed, if so.
  // Without a bytes_per_row hint: the largest file block over its rows.
  for (std::size_t i = 0; i < p.variables.size(); ++i) {
    std::int64_t bpr = bytes_per_row[i];
    model::Variable& var = p.variables[i];
    if (var.io == model::VariableIo::program_file) {
      const std::int64_t streamed = per_row_bytes(var.name, records, p.distribution);
      var.per_row = streamed > 0;
      if (var.per_row) bpr = streamed;
    }
    if (bpr <= 0) {
      for (std::size_t r = 0; r < records.size(); ++r) {
        const std::int64_t rows = p.distribution.rows[r];
        for (const VariableSeen& seen : records[r].variables) {
          if (seen.name == p.variables[i].name && rows > 0) bpr = std::max(bpr, (seen.file_bytes + rows - 1) / rows);
        }
      }
    }
    p.variables[i].bytes_per_row = std::max<std::int64_t>(1, bpr);
  }
  std::int64_t iterations = 1;
  for (const RankRecord& record : records) {
    iterations = std::max(iterations, record.iterations);
    model::RankProfile rank;
    rank.host = record.host;
    rank.memory_budget_bytes = record.memory_budget_bytes;
    rank.slowdown = record.slowdown;
    rank.sections = record.sections;
    // Local variable indices become the profile's.
    for (model::Section& s : rank.sections) {
      for (model::Stage& st : s.stages) {
        for (model::StageIo& io : st.io) {
          io.variable = index.at(record.variables[static_cast<std::size_t>(io.variable)].name);
          p.prefetch = p.prefetch || io.prefetch;
        }
      }
    }
    p.ranks.push_back(std::move(rank));
  }
  p.iterations = in.stated_iterations > 0 ? in.stated_iterations : iterations;
  // Detected on every rank (but the idle ones, admit_idle_ranks): the
  // profile is as sure as its least sure rank, its pace the one furthest
  // from the captured period's.
  auto idle = [](const RankRecord& r) { return r.compute_without_loop_s >= 0; };
  auto detected = [](const RankRecord& r) { return r.repetitions > 0 && r.time_share >= 0; };
  std::optional<model::CaptureConfidence> sure;
  bool every_rank_detected = true;
  for (const RankRecord& r : records) {
    if (idle(r)) continue;
    if (!detected(r)) {
      every_rank_detected = false;
      break;
    }
    if (!sure) sure = model::CaptureConfidence{r.repetitions, r.time_share, std::nullopt};
    sure->repetitions = std::min(sure->repetitions, r.repetitions);
    sure->time_share = std::min(sure->time_share, r.time_share);
    if (r.pace > 0 && (!sure->pace || std::abs(std::log(r.pace)) > std::abs(std::log(*sure->pace)))) sure->pace = r.pace;
  }
  if (every_rank_detected) p.capture = sure;
  if (!in.row_weights.empty()) {
    if (static_cast<std::int64_t>(in.row_weights.size()) == p.global_rows()) {
      p.row_weights = in.row_weights;
    } else {
      warnings.push_back("MHETA_ROW_WEIGHTS: " + std::to_string(in.row_weights.size()) + " weights for " +
                         std::to_string(p.global_rows()) + " global rows (one per row expected); the profile has no " +
                         "row weights");
    }
  }
  // The reader `mheta predict` uses checks the whole document.
  return model::parse_profile(model::profile_to_json(p).dump(), "profile assembled from the captured iteration");
}

std::optional<std::string> iterations_misfit(const model::Profile& profile) {
  // A cluster without costs, on which only the profile itself can fail:
  // building the model pairs every message and replays the captured
  // distribution once (model/model.cpp).
  model::Cluster neutral;
  neutral.nodes.resize(profile.ranks.size());
  for (model::Node& node : neutral.nodes) node.memory_bytes = std::uint64_t{1} << 60;
  for (auto& curve : neutral.network.collectives) curve = model::CollectiveCurve{};
  try {
    const model::Model model(profile, neutral);
  } catch (const model::ModelError& error) {
    return error.what();
  }
  return std::nullopt;
}

std::string_view iteration_source_name(IterationSource source) {
  switch (source) {
    case IterationSource::stated:
      return "stated";
    case IterationSource::counted:
      return "counted";
    case IterationSource::captured:
      break;
  }
  return "captured";
}

std::string profile_text(const model::Profile& profile, IterationSource source) {
  Json document = model::profile_to_json(profile);
  document["iterations_source"] = iteration_source_name(source);
  return document.dump(1) + "\n";
}

}  // namespace mheta::interpose
