#include "model/profile.hpp"

#include <algorithm>

#include "model/output_file.hpp"
#include "model/text_file.hpp"

namespace mheta::model {

namespace {

class ProfileReader {
 public:
  explicit ProfileReader(std::string_view source) : f_(std::string(source)) {}

  Profile read(const Json& document) {
    f_.expect_format(document, kProfileFormat);
    Profile p;
    if (const Json* program = f_.optional_member(document, "program", "")) {
      if (!program->is_string()) f_.fail("program", "must be a string");
      p.program = program->get<std::string>();
    }
    if (const Json* clock = f_.optional_member(document, "clock", "")) {
      const std::string name = clock->is_string() ? clock->get<std::string>() : "";
      if (name == profile_clock_name(ProfileClock::virtual_time)) {
        p.clock = ProfileClock::virtual_time;
      } else if (name != profile_clock_name(ProfileClock::wall)) {
        f_.fail("clock", "must be \"wall\" or \"virtual\"");
      }
    }
    p.iterations = f_.integer(document, "iterations", "", 1);
    p.prefetch = f_.boolean_or(document, "prefetch", "", false);
    p.forced_out_of_core = f_.boolean_or(document, "forced_out_of_core", "", true);
    read_distribution(document, p);
    read_variables(document, p);
    read_row_weights(document, p);
    read_capture(document, p);
    const Json& ranks = f_.array(document, "ranks", "");
    if (static_cast<int>(ranks.size()) != p.distribution.ranks()) {
      f_.fail("ranks", "lists " + std::to_string(ranks.size()) + " ranks but the distribution has " +
                           std::to_string(p.distribution.ranks()));
    }
    for (std::size_t r = 0; r < ranks.size(); ++r) p.ranks.push_back(read_rank(ranks[r], r, p));
    check_compute_variation(p);
    return p;
  }

 private:
  void read_distribution(const Json& document, Profile& p) {
    const Json& rows = f_.array(document, "distribution", "");
    if (rows.empty()) f_.fail("distribution", "must give the rows of at least one rank");
    std::int64_t sum = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const std::int64_t value = f_.integer_value(rows[r], index_path("distribution", r));
      if (value > INT64_MAX - sum) f_.fail("distribution", "rows add up to more than 64 bits can hold");
      sum += value;
      p.distribution.rows.push_back(value);
    }
    const std::int64_t global_rows = f_.integer(document, "global_rows", "", 1);
    if (sum != global_rows) {
      f_.fail("distribution", "rows add up to " + std::to_string(sum) + " but global_rows is " +
                                  std::to_string(global_rows));
    }
  }

  void read_variables(const Json& document, Profile& p) {
    const Json& variables = f_.array(document, "variables", "");
    for (std::size_t i = 0; i < variables.size(); ++i) {
      const std::string path = index_path("variables", i);
      Variable v;
      v.name = f_.string(variables[i], "name", path);
      if (v.name.empty()) f_.fail(field_path(path, "name"), "must not be empty");
      if (find_variable(p, v.name) >= 0) f_.fail(field_path(path, "name"), "duplicate variable '" + v.name + "'");
      v.bytes_per_row = f_.integer(variables[i], "bytes_per_row", path, 1);
      const std::string access = f_.string(variables[i], "access", path);
      if (access == "read_only") {
        v.access = Access::read_only;
      } else if (access == "read_write") {
        v.access = Access::read_write;
      } else {
        f_.fail(field_path(path, "access"), "must be \"read_only\" or \"read_write\", got \"" + access + "\"");
      }
      if (f_.optional_member(variables[i], "io", path)) {
        const std::string io = f_.string(variables[i], "io", path);
        if (io == "program_file") {
          v.io = VariableIo::program_file;
        } else if (io != "out_of_core_array") {
          f_.fail(field_path(path, "io"), "must be \"out_of_core_array\" or \"program_file\", got \"" + io + "\"");
        }
      }
      v.per_row = f_.boolean_or(variables[i], "per_row", path, false);
      if (v.per_row && v.io != VariableIo::program_file) {
        f_.fail(field_path(path, "per_row"), "applies to a program_file only (an out-of-core array's I/O follows its rows)");
      }
      p.variables.push_back(std::move(v));
    }
    check_total_bytes(p);
  }

  // Every size the model and io/ compute (bytes a rank owns, ICLA bytes) is
  // at most all rows of all variables: if that fits in 64 bits, they all do.
  void check_total_bytes(const Profile& p) {
    std::int64_t bytes_per_row = 0;
    std::int64_t total = 0;
    for (const Variable& v : p.variables) {
      if (__builtin_add_overflow(bytes_per_row, v.bytes_per_row, &bytes_per_row) ||
          __builtin_mul_overflow(bytes_per_row, p.global_rows(), &total)) {
        f_.fail("variables", "global_rows times the bytes per row of all variables is more than 64 bits can hold");
      }
    }
  }

  void read_row_weights(const Json& document, Profile& p) {
    const Json* weights = f_.optional_member(document, "row_weights", "");
    if (weights == nullptr) return;
    if (!weights->is_array()) f_.fail("row_weights", "must be an array");
    if (static_cast<std::int64_t>(weights->size()) != p.global_rows()) {
      f_.fail("row_weights", "has " + std::to_string(weights->size()) + " entries but there are " +
                                 std::to_string(p.global_rows()) + " rows");
    }
    p.row_weights.reserve(weights->size());
    for (std::size_t i = 0; i < weights->size(); ++i) {
      p.row_weights.push_back(f_.non_negative_value((*weights)[i], index_path("row_weights", i)));
    }
  }

  void read_capture(const Json& document, Profile& p) {
    const Json* capture = f_.optional_member(document, "capture", "");
    if (capture == nullptr) return;
    if (!capture->is_object()) f_.fail("capture", "must be an object");
    CaptureConfidence c;
    c.repetitions = f_.integer(*capture, "repetitions", "capture", 1);
    c.time_share = f_.non_negative(*capture, "time_share", "capture");
    if (c.time_share > 1) f_.fail("capture.time_share", "must be at most 1, got " + std::to_string(c.time_share));
    if (capture->contains("pace")) c.pace = f_.positive(*capture, "pace", "capture");
    p.capture = c;
  }

  static int find_variable(const Profile& p, std::string_view name) {
    for (std::size_t i = 0; i < p.variables.size(); ++i) {
      if (p.variables[i].name == name) return static_cast<int>(i);
    }
    return -1;
  }

  int variable_ref(const Profile& p, const Json& object, std::string_view key, const std::string& path) {
    const std::string name = f_.string(object, key, path);
    const int index = find_variable(p, name);
    if (index < 0) f_.fail(field_path(path, key), "names variable '" + name + "', which is not in variables");
    return index;
  }

  IoStats read_io_stats(const Json& io, std::string_view key, const std::string& path) {
    const Json* stats = f_.optional_member(io, key, path);
    if (stats == nullptr) return {};
    const std::string p = field_path(path, key);
    return IoStats{f_.integer(*stats, "count", p), f_.integer(*stats, "bytes", p), f_.non_negative(*stats, "seconds", p)};
  }

  Stage read_stage(const Json& stage, const std::string& path, const Profile& p) {
    Stage s;
    s.compute_s = f_.non_negative(stage, "compute_s", path);
    if (const Json* io = f_.optional_member(stage, "io", path)) {
      if (!io->is_array()) f_.fail(field_path(path, "io"), "must be an array");
      for (std::size_t i = 0; i < io->size(); ++i) {
        const std::string io_path = index_path(field_path(path, "io"), i);
        const Json& entry = (*io)[i];
        StageIo record;
        record.variable = variable_ref(p, entry, "variable", io_path);
        record.reads = read_io_stats(entry, "reads", io_path);
        record.writes = read_io_stats(entry, "writes", io_path);
        record.prefetch = f_.boolean_or(entry, "prefetch", io_path, false);
        record.overlap_compute_s = f_.non_negative_or(entry, "overlap_compute_s", io_path, 0);
        s.io.push_back(record);
      }
    }
    return s;
  }

  CommOp read_comm(const Json& op, const std::string& path, std::size_t rank, const Profile& p) {
    const std::string name = f_.string(op, "op", path);
    CommOp c;
    c.bytes = f_.integer(op, "bytes", path);
    if (name == "send" || name == "recv") {
      c.kind = name == "send" ? CommKind::send : CommKind::recv;
      c.peer = static_cast<int>(f_.integer(op, "peer", path, 0, p.distribution.ranks() - 1));
      if (c.peer == static_cast<int>(rank)) f_.fail(field_path(path, "peer"), "a rank cannot message itself");
      c.tag = f_.optional_member(op, "tag", path) ? static_cast<int>(f_.integer(op, "tag", path, 0, INT32_MAX)) : 0;
      if (f_.optional_member(op, "from_variable", path)) c.from_variable = variable_ref(p, op, "from_variable", path);
      if (f_.optional_member(op, "segments", path)) {
        if (c.kind != CommKind::send) f_.fail(field_path(path, "segments"), "applies to a send only");
        c.segments = f_.integer(op, "segments", path, 1, INT64_MAX);
      }
      if (c.kind == CommKind::send) read_completion(op, path, c);
      return c;
    }
    const auto collective = collective_from_name(name);
    if (!collective) {
      f_.fail(field_path(path, "op"), "unknown operation '" + name + "' (send, recv or a collective such as allreduce)");
    }
    c.kind = CommKind::collective;
    c.collective = *collective;
    read_completion(op, path, c);
    if (f_.optional_member(op, "inside_s", path)) {
      if (c.nonblocking) f_.fail(field_path(path, "inside_s"), "applies to a blocking collective only");
      c.inside_s = f_.non_negative(op, "inside_s", path);
    }
    return c;
  }

  // A non-blocking send or collective, and where it was completed (its
  // place is checked against the rank's sections once they are read:
  // check_completions).
  void read_completion(const Json& op, const std::string& path, CommOp& c) {
    c.nonblocking = f_.boolean_or(op, "nonblocking", path, false);
    c.synchronous = f_.boolean_or(op, "synchronous", path, false);
    if (c.synchronous && (!c.nonblocking || c.kind != CommKind::send)) {
      f_.fail(field_path(path, "synchronous"), "applies to a nonblocking send only");
    }
    const Json* at = f_.optional_member(op, "completed_at", path);
    if (at == nullptr) return;
    const std::string at_path = field_path(path, "completed_at");
    const std::string what = c.kind == CommKind::send ? "send" : "collective";
    if (!c.nonblocking) {
      f_.fail(at_path, "applies to a nonblocking " + what + " only (a blocking " + what + " completes where it is)");
    }
    if (!at->is_object()) f_.fail(at_path, "must be an object {\"section\", \"comm\"}");
    c.completed_section = static_cast<int>(f_.integer(*at, "section", at_path, 0, INT32_MAX));
    c.completed_comm = static_cast<int>(f_.integer(*at, "comm", at_path, 0, INT32_MAX));
  }

  // A send is completed after it is posted, at a place the rank's
  // iteration has: a section it has, at most after its last operation.
  void check_completions(const RankProfile& rp, const std::string& path) {
    for (std::size_t s = 0; s < rp.sections.size(); ++s) {
      for (std::size_t k = 0; k < rp.sections[s].comm.size(); ++k) {
        const CommOp& c = rp.sections[s].comm[k];
        if (c.completed_section < 0) continue;
        const std::string at_path =
            field_path(index_path(field_path(index_path(field_path(path, "sections"), s), "comm"), k), "completed_at");
        const auto section = static_cast<std::size_t>(c.completed_section);
        const auto comm = static_cast<std::size_t>(c.completed_comm);
        if (section >= rp.sections.size()) {
          f_.fail(at_path, "names section " + std::to_string(section) + " but the rank has " +
                               std::to_string(rp.sections.size()));
        }
        if (comm > rp.sections[section].comm.size()) {
          f_.fail(at_path, "names operation " + std::to_string(comm) + " of section " + std::to_string(section) +
                               ", which has " + std::to_string(rp.sections[section].comm.size()));
        }
        if (section < s || (section == s && comm <= k)) {
          const std::string what = c.kind == CommKind::send ? "send" : "collective";
          f_.fail(at_path, "is before the " + what + " itself (section " + std::to_string(s) + ", operation " +
                               std::to_string(k) + "): a " + what + " is completed after it is posted");
        }
      }
    }
  }

  RankProfile read_rank(const Json& rank, std::size_t r, const Profile& p) {
    const std::string path = index_path("ranks", r);
    RankProfile rp;
    if (const Json* index = f_.optional_member(rank, "rank", path)) {
      if (f_.integer_value(*index, field_path(path, "rank")) != static_cast<std::int64_t>(r)) {
        f_.fail(field_path(path, "rank"), "ranks must be listed in order; expected " + std::to_string(r));
      }
    }
    if (const Json* host = f_.optional_member(rank, "host", path)) {
      if (!host->is_string()) f_.fail(field_path(path, "host"), "must be a string");
      rp.host = host->get<std::string>();
    }
    rp.memory_budget_bytes = static_cast<std::uint64_t>(f_.integer(rank, "memory_budget_bytes", path));
    rp.slowdown = read_slowdown(f_, rank, path);
    if (f_.optional_member(rank, "in_core_compute_s", path)) {
      rp.in_core_compute_s = f_.non_negative(rank, "in_core_compute_s", path);
    }
    if (const Json* variation = f_.optional_member(rank, "compute_variation", path)) {
      const std::string variation_path = field_path(path, "compute_variation");
      if (!variation->is_array() || variation->empty()) f_.fail(variation_path, "must be a non-empty array of numbers");
      for (std::size_t k = 0; k < variation->size(); ++k) {
        rp.compute_variation.push_back(f_.non_negative_value((*variation)[k], index_path(variation_path, k)));
      }
    }
    const Json& sections = f_.array(rank, "sections", path);
    for (std::size_t s = 0; s < sections.size(); ++s) {
      const std::string section_path = index_path(field_path(path, "sections"), s);
      Section section;
      const Json& stages = f_.array(sections[s], "stages", section_path);
      for (std::size_t k = 0; k < stages.size(); ++k) {
        section.stages.push_back(read_stage(stages[k], index_path(field_path(section_path, "stages"), k), p));
      }
      if (const Json* comm = f_.optional_member(sections[s], "comm", section_path)) {
        if (!comm->is_array()) f_.fail(field_path(section_path, "comm"), "must be an array");
        for (std::size_t c = 0; c < comm->size(); ++c) {
          section.comm.push_back(read_comm((*comm)[c], index_path(field_path(section_path, "comm"), c), r, p));
        }
      }
      rp.sections.push_back(std::move(section));
    }
    check_completions(rp, path);
    return rp;
  }

  // Each sample is one iteration of the run on every rank: as many on each.
  void check_compute_variation(const Profile& p) {
    const std::size_t samples = p.ranks.front().compute_variation.size();
    for (std::size_t r = 1; r < p.ranks.size(); ++r) {
      if (p.ranks[r].compute_variation.size() != samples) {
        f_.fail(field_path(index_path("ranks", r), "compute_variation"),
                "has " + std::to_string(p.ranks[r].compute_variation.size()) + " samples but rank 0's has " +
                    std::to_string(samples) + ": every rank's are the same iterations of the run");
      }
    }
  }

  JsonFields f_;
};

Json io_stats_to_json(const IoStats& s) {
  return {{"count", s.count}, {"bytes", s.bytes}, {"seconds", s.seconds}};
}

Json comm_to_json(const CommOp& c, const Profile& p) {
  Json op;
  if (c.kind == CommKind::collective) {
    op = {{"op", collective_name(c.collective)}, {"bytes", c.bytes}};
    if (c.inside_s >= 0) op["inside_s"] = c.inside_s;
  } else {
    op = {{"op", c.kind == CommKind::send ? "send" : "recv"}, {"peer", c.peer}, {"bytes", c.bytes}, {"tag", c.tag}};
    if (c.from_variable >= 0) op["from_variable"] = p.variables[static_cast<std::size_t>(c.from_variable)].name;
    if (c.segments > 1) op["segments"] = c.segments;
  }
  if (c.nonblocking) {
    op["nonblocking"] = true;
    if (c.synchronous) op["synchronous"] = true;
    if (c.completed_section >= 0) op["completed_at"] = {{"section", c.completed_section}, {"comm", c.completed_comm}};
  }
  return op;
}

}  // namespace

Profile parse_profile(std::string_view text, std::string_view source) {
  return ProfileReader(source).read(parse_json_text(text, source));
}

Profile read_profile(const std::filesystem::path& path) {
  return parse_profile(read_text_file(path), path.string());
}

Json profile_to_json(const Profile& p) {
  Json variables = Json::array();
  for (const Variable& v : p.variables) {
    Json variable = {{"name", v.name},
                     {"bytes_per_row", v.bytes_per_row},
                     {"access", v.access == Access::read_only ? "read_only" : "read_write"}};
    if (v.io == VariableIo::program_file) {
      variable["io"] = "program_file";
      variable["per_row"] = v.per_row;
    }
    variables.push_back(std::move(variable));
  }
  Json ranks = Json::array();
  for (std::size_t r = 0; r < p.ranks.size(); ++r) {
    const RankProfile& rp = p.ranks[r];
    Json sections = Json::array();
    for (const Section& section : rp.sections) {
      Json stages = Json::array();
      for (const Stage& stage : section.stages) {
        Json io = Json::array();
        for (const StageIo& s : stage.io) {
          Json entry = {{"variable", p.variables[static_cast<std::size_t>(s.variable)].name}};
          if (s.reads.count > 0) entry["reads"] = io_stats_to_json(s.reads);
          if (s.writes.count > 0) entry["writes"] = io_stats_to_json(s.writes);
          if (s.prefetch) {
            entry["prefetch"] = true;
            entry["overlap_compute_s"] = s.overlap_compute_s;
          }
          io.push_back(std::move(entry));
        }
        Json stage_json = {{"compute_s", stage.compute_s}};
        if (!io.empty()) stage_json["io"] = std::move(io);
        stages.push_back(std::move(stage_json));
      }
      Json comm = Json::array();
      for (const CommOp& c : section.comm) comm.push_back(comm_to_json(c, p));
      sections.push_back({{"stages", stages}, {"comm", comm}});
    }
    Json rank = {{"rank", r}, {"host", rp.host}, {"memory_budget_bytes", rp.memory_budget_bytes}};
    if (rp.slowdown) rank["slowdown"] = slowdown_to_json(*rp.slowdown);
    if (rp.in_core_compute_s) rank["in_core_compute_s"] = *rp.in_core_compute_s;
    if (!rp.compute_variation.empty()) rank["compute_variation"] = rp.compute_variation;
    rank["sections"] = std::move(sections);
    ranks.push_back(std::move(rank));
  }
  Json document = {{"format", kProfileFormat},
                   {"program", p.program},
                   {"clock", profile_clock_name(p.clock)},
                   {"iterations", p.iterations},
                   {"prefetch", p.prefetch},
                   {"forced_out_of_core", p.forced_out_of_core},
                   {"global_rows", p.global_rows()},
                   {"distribution", p.distribution.rows},
                   {"variables", variables}};
  if (!p.row_weights.empty()) document["row_weights"] = p.row_weights;
  if (p.capture) {
    document["capture"] = {{"repetitions", p.capture->repetitions}, {"time_share", p.capture->time_share}};
    if (p.capture->pace) document["capture"]["pace"] = *p.capture->pace;
  }
  document["ranks"] = std::move(ranks);
  return document;
}

std::string_view profile_clock_name(ProfileClock clock) {
  return clock == ProfileClock::virtual_time ? "virtual" : "wall";
}

void write_profile(const std::filesystem::path& path, const Profile& profile) {
  write_output(path, profile_to_json(profile).dump(1) + "\n");
}

}  // namespace mheta::model
