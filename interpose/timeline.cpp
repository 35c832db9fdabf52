#include "interpose/timeline.hpp"

#include <algorithm>
#include <atomic>
#include <utility>

#include "model/accounting.hpp"

namespace mheta::interpose {

namespace {

// Each timeline's own number: a request posted in one capture and completed
// in the next names a send of the first.
std::atomic<std::uint64_t> g_timelines{0};

}  // namespace

Timeline::Timeline() : id_(++g_timelines) {}

model::Section& Timeline::open_section() {
  sections_.emplace_back();
  sections_.back().stages.emplace_back();
  stage_closed_ = false;
  completion_closes_section_ = false;
  return sections_.back();
}

// Work (compute or I/O) after communication, or after a send's completion,
// starts the next section; after a stage mark it starts the next stage.
model::Stage& Timeline::stage_for_work() {
  if (sections_.empty() || !sections_.back().comm.empty() || completion_closes_section_) return open_section().stages.back();
  model::Section& section = sections_.back();
  if (stage_closed_) {
    section.stages.emplace_back();
    stage_closed_ = false;
  }
  return section.stages.back();
}

namespace {

// Only non-blocking sends posted since the section's compute: a short gap
// after them is the rest of their group (an Irecv, a Waitall's call), which
// may join the compute before them. After a receive or a collective the
// compute may need the data; after a blocking send it runs once the bytes
// have left, and moving it ahead would delay them (a ping-pong's reply
// computed before it is sent, where the program sends it first).
bool posting_only(const model::Section& section) {
  for (const model::CommOp& op : section.comm) {
    if (op.kind != model::CommKind::send || !op.nonblocking) return false;
  }
  return true;
}

}  // namespace

void Timeline::add_compute(double seconds) {
  if (seconds <= 0) return;
  total_compute_ += seconds;
  if (!sections_.empty() && !sections_.back().comm.empty() && seconds < kMinSectionCompute && !stage_closed_ &&
      !completion_closes_section_ && posting_only(sections_.back())) {
    sections_.back().stages.back().compute_s += seconds;
    return;
  }
  stage_for_work().compute_s += seconds;
}

Timeline::IoRef Timeline::add_io(int variable, bool write, std::int64_t bytes, double seconds, bool prefetch) {
  model::Stage& stage = stage_for_work();
  std::size_t i = 0;
  while (i < stage.io.size() && !(stage.io[i].variable == variable && stage.io[i].prefetch == prefetch)) ++i;
  if (i == stage.io.size()) {
    model::StageIo io;
    io.variable = variable;
    io.prefetch = prefetch;
    stage.io.push_back(io);
  }
  model::IoStats& stats = write ? stage.io[i].writes : stage.io[i].reads;
  ++stats.count;
  stats.bytes += bytes;
  stats.seconds += seconds;
  return {sections_.size() - 1, sections_.back().stages.size() - 1, i};
}

void Timeline::add_overlap(IoRef ref, double seconds) {
  if (ref.section >= sections_.size() || seconds <= 0) return;
  sections_[ref.section].stages[ref.stage].io[ref.io].overlap_compute_s += seconds;
}

double Timeline::overlap_since(OverlapStart start) const {
  const double end = start.blocking_requests < blocking_io_compute_.size()
                         ? blocking_io_compute_[start.blocking_requests]
                         : total_compute_;
  return end - start.compute;
}

void Timeline::add_io_seconds(IoRef ref, bool write, double seconds) {
  if (ref.section >= sections_.size() || seconds <= 0) return;
  model::Section& section = sections_[ref.section];
  if (ref.stage >= section.stages.size() || ref.io >= section.stages[ref.stage].io.size()) return;
  model::StageIo& io = section.stages[ref.stage].io[ref.io];
  (write ? io.writes : io.reads).seconds += seconds;
}

Timeline::CommRef Timeline::add_comm(const model::CommOp& op, std::int64_t number) {
  if (number >= 0) {
    const Channel channel = channel_of(op);
    if (channels_seen_.insert(channel).second) channel_starts_.push_back({channel, number});
  }
  if (sections_.empty()) open_section();
  sections_.back().comm.push_back(op);
  return {id_, sections_.size() - 1, sections_.back().comm.size() - 1};
}

Timeline::Place Timeline::here() const {
  if (sections_.empty()) return {};
  return {static_cast<int>(sections_.size()) - 1, static_cast<int>(sections_.back().comm.size())};
}

void Timeline::complete(CommRef posted, Place at, bool synchronous) {
  if (posted.timeline != id_ || at.section < 0 || posted.section >= sections_.size()) return;
  model::CommOp& op = sections_[posted.section].comm[posted.comm];
  op.synchronous = synchronous;
  op.completed_section = at.section;
  op.completed_comm = at.comm;
  completion_closes_section_ = true;
}

void Timeline::receive_from_nobody() {
  if (!sections_.empty()) completion_closes_section_ = true;
}

void Timeline::mark_stage() {
  if (sections_.empty()) return;
  // A mark right after another (or at the start) opens no empty stage.
  const model::Stage& stage = sections_.back().stages.back();
  if (stage.io.empty() && stage.compute_s < kMinSectionCompute && sections_.back().comm.empty()) return;
  stage_closed_ = true;
}

namespace {

bool same_shape(const std::vector<model::Section>& a, const std::vector<model::Section>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t s = 0; s < a.size(); ++s) {
    if (a[s].stages.size() != b[s].stages.size() || a[s].comm.size() != b[s].comm.size()) return false;
    for (std::size_t c = 0; c < a[s].comm.size(); ++c) {
      if (a[s].comm[c] != b[s].comm[c]) return false;
    }
    for (std::size_t g = 0; g < a[s].stages.size(); ++g) {
      const auto& x = a[s].stages[g].io;
      const auto& y = b[s].stages[g].io;
      if (x.size() != y.size()) return false;
      for (std::size_t i = 0; i < x.size(); ++i) {
        if (x[i].variable != y[i].variable || x[i].prefetch != y[i].prefetch ||
            x[i].reads.count != y[i].reads.count || x[i].writes.count != y[i].writes.count) {
          return false;
        }
      }
    }
  }
  return true;
}

}  // namespace

Timeline Timeline::median_of(const std::vector<Timeline>& periods) {
  if (periods.empty()) return Timeline{};
  Timeline out = periods.front();
  std::vector<const Timeline*> alike;
  for (const Timeline& p : periods) {
    if (same_shape(p.sections_, out.sections_)) alike.push_back(&p);
  }
  // Each figure of each stage, taken over the periods alike.
  const auto take = [&](auto figure) {
    std::vector<double> values;
    values.reserve(alike.size());
    for (const Timeline* p : alike) values.push_back(figure(*p));
    return model::median_of(std::move(values));
  };
  out.total_compute_ = 0;
  for (std::size_t s = 0; s < out.sections_.size(); ++s) {
    for (std::size_t g = 0; g < out.sections_[s].stages.size(); ++g) {
      model::Stage& stage = out.sections_[s].stages[g];
      const auto at = [s, g](const Timeline& p) -> const model::Stage& { return p.sections_[s].stages[g]; };
      stage.compute_s = take([&](const Timeline& p) { return at(p).compute_s; });
      out.total_compute_ += stage.compute_s;
      for (std::size_t i = 0; i < stage.io.size(); ++i) {
        stage.io[i].reads.seconds = take([&](const Timeline& p) { return at(p).io[i].reads.seconds; });
        stage.io[i].writes.seconds = take([&](const Timeline& p) { return at(p).io[i].writes.seconds; });
        stage.io[i].overlap_compute_s = take([&](const Timeline& p) { return at(p).io[i].overlap_compute_s; });
      }
    }
  }
  return out;
}

}  // namespace mheta::interpose
