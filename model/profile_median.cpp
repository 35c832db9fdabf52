#include "model/profile_median.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "model/accounting.hpp"

namespace mheta::model {

namespace {

std::string count_difference(const std::string& where, std::size_t a, std::size_t b, const std::string& what) {
  if (a == b) return "";
  return where + ": " + std::to_string(a) + " " + what + " against " + std::to_string(b);
}

bool same_io(const StageIo& a, const StageIo& b) {
  return a.variable == b.variable && a.prefetch == b.prefetch && a.reads.count == b.reads.count &&
         a.reads.bytes == b.reads.bytes && a.writes.count == b.writes.count && a.writes.bytes == b.writes.bytes;
}

std::string section_difference(const Section& a, const Section& b, const std::string& where) {
  std::string d = count_difference(where, a.stages.size(), b.stages.size(), "stages");
  if (d.empty()) d = count_difference(where, a.comm.size(), b.comm.size(), "messages");
  if (!d.empty()) return d;
  for (std::size_t k = 0; k < a.stages.size(); ++k) {
    const std::vector<StageIo>& io_a = a.stages[k].io;
    const std::vector<StageIo>& io_b = b.stages[k].io;
    const std::string stage = where + " stage " + std::to_string(k);
    if (io_a.size() != io_b.size()) return count_difference(stage, io_a.size(), io_b.size(), "I/O records");
    for (std::size_t i = 0; i < io_a.size(); ++i) {
      if (!same_io(io_a[i], io_b[i])) return stage + ": I/O record " + std::to_string(i) + " differs in requests or bytes";
    }
  }
  for (std::size_t c = 0; c < a.comm.size(); ++c) {
    if (a.comm[c] != b.comm[c]) return where + ": message " + std::to_string(c) + " differs";
  }
  return "";
}

// The median over the captures of one time, picked from each by `time`.
double median_over(const std::vector<Profile>& captures, const std::function<double(const Profile&)>& time) {
  std::vector<double> values;
  values.reserve(captures.size());
  for (const Profile& p : captures) values.push_back(time(p));
  return median_of(std::move(values));
}

}  // namespace

std::string shape_difference(const Profile& a, const Profile& b) {
  if (a.distribution.rows != b.distribution.rows) return "another distribution";
  if (a.variables.size() != b.variables.size()) return count_difference("profile", a.variables.size(), b.variables.size(), "variables");
  if (a.prefetch != b.prefetch || a.forced_out_of_core != b.forced_out_of_core || a.clock != b.clock) {
    return "another prefetch, out-of-core forcing or clock";
  }
  for (std::size_t r = 0; r < a.ranks.size(); ++r) {
    const std::string rank = "rank " + std::to_string(r);
    const std::vector<Section>& sa = a.ranks[r].sections;
    const std::vector<Section>& sb = b.ranks[r].sections;
    if (sa.size() != sb.size()) return count_difference(rank, sa.size(), sb.size(), "sections");
    for (std::size_t s = 0; s < sa.size(); ++s) {
      const std::string d = section_difference(sa[s], sb[s], rank + " section " + std::to_string(s));
      if (!d.empty()) return d;
    }
  }
  return "";
}

Profile median_profile(const std::vector<Profile>& captures) {
  if (captures.empty()) throw std::invalid_argument("no capture to take the median of");
  for (std::size_t c = 1; c < captures.size(); ++c) {
    const std::string d = shape_difference(captures.front(), captures[c]);
    if (!d.empty()) throw std::invalid_argument("capture " + std::to_string(c + 1) + " differs from the first: " + d);
  }
  Profile median = captures.front();
  for (std::size_t r = 0; r < median.ranks.size(); ++r) {
    RankProfile& rank = median.ranks[r];
    for (std::size_t s = 0; s < rank.sections.size(); ++s) {
      for (std::size_t k = 0; k < rank.sections[s].stages.size(); ++k) {
        auto stage_of = [r, s, k](const Profile& p) -> const Stage& { return p.ranks[r].sections[s].stages[k]; };
        Stage& stage = rank.sections[s].stages[k];
        stage.compute_s = median_over(captures, [&](const Profile& p) { return stage_of(p).compute_s; });
        for (std::size_t i = 0; i < stage.io.size(); ++i) {
          stage.io[i].reads.seconds = median_over(captures, [&](const Profile& p) { return stage_of(p).io[i].reads.seconds; });
          stage.io[i].writes.seconds =
              median_over(captures, [&](const Profile& p) { return stage_of(p).io[i].writes.seconds; });
          stage.io[i].overlap_compute_s =
              median_over(captures, [&](const Profile& p) { return stage_of(p).io[i].overlap_compute_s; });
        }
      }
    }
    for (std::size_t s = 0; s < rank.sections.size(); ++s) {
      for (std::size_t k = 0; k < rank.sections[s].comm.size(); ++k) {
        CommOp& op = rank.sections[s].comm[k];
        if (op.inside_s < 0) continue;
        const auto inside_of = [r, s, k](const Profile& p) { return p.ranks[r].sections[s].comm[k].inside_s; };
        const bool everywhere = std::all_of(captures.begin(), captures.end(),
                                            [&](const Profile& p) { return inside_of(p) >= 0; });
        op.inside_s = everywhere ? median_over(captures, inside_of) : -1;
      }
    }
    std::vector<double> in_core;
    for (const Profile& p : captures) {
      if (p.ranks[r].in_core_compute_s) in_core.push_back(*p.ranks[r].in_core_compute_s);
    }
    rank.in_core_compute_s.reset();
    if (!in_core.empty()) rank.in_core_compute_s = median_of(std::move(in_core));
  }
  return median;
}

}  // namespace mheta::model
