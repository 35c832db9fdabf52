#include "interpose/period_rotation.hpp"

#include <tuple>
#include <utility>

namespace mheta::interpose {

namespace {

// The period as one sequence: each section's stages, then its operations.
struct Token {
  const model::Stage* stage = nullptr;  // or
  const model::CommOp* op = nullptr;
};

bool empty_stage(const model::Stage& s) { return s.compute_s == 0 && s.io.empty(); }

}  // namespace

std::vector<model::Section> rotate_period(const std::vector<model::Section>& sections, int cut) {
  std::vector<Token> tokens;
  std::vector<std::vector<int>> place_index(sections.size());  // (s, k) -> token index, k up to comm.size()
  int cut_index = -1;
  int ops = 0;
  for (std::size_t s = 0; s < sections.size(); ++s) {
    // An empty stage (the one a section that begins with a message opens
    // with) is no work: sections are drawn again from the work and messages.
    for (const model::Stage& stage : sections[s].stages) {
      if (!empty_stage(stage)) tokens.push_back({&stage, nullptr});
    }
    for (const model::CommOp& op : sections[s].comm) {
      place_index[s].push_back(static_cast<int>(tokens.size()));
      if (ops++ == cut) cut_index = static_cast<int>(tokens.size());
      tokens.push_back({nullptr, &op});
    }
    place_index[s].push_back(static_cast<int>(tokens.size()));  // after its operations
  }
  if (cut <= 0 || cut_index < 0) return sections;  // as captured, or no such operation
  const int count = static_cast<int>(tokens.size());
  // The token index of a non-blocking send's or collective's completion place, or -1.
  const auto completion = [&](const model::CommOp& op) {
    if (op.kind == model::CommKind::recv || !op.nonblocking || op.completed_section < 0 ||
        static_cast<std::size_t>(op.completed_section) >= sections.size() || op.completed_comm < 0 ||
        static_cast<std::size_t>(op.completed_comm) >=
            place_index[static_cast<std::size_t>(op.completed_section)].size()) {
      return -1;
    }
    return place_index[static_cast<std::size_t>(op.completed_section)][static_cast<std::size_t>(op.completed_comm)];
  };
  const auto moved = [&](int index) { return ((index - cut_index) % count + count) % count; };
  // A place at the cut is the rotated period's end: what completes there
  // completes sends posted before it, which the rotation puts ahead.
  const auto moved_place = [&](int index) {
    const int r = moved(index);
    return r == 0 ? count : r;
  };
  std::vector<bool> completion_at(static_cast<std::size_t>(count) + 1, false);
  for (const model::Section& section : sections) {
    for (const model::CommOp& op : section.comm) {
      if (const int at = completion(op); at >= 0) completion_at[static_cast<std::size_t>(moved_place(at))] = true;
    }
  }
  // Sections again, from the rotated tokens: stages after operations, or
  // after a completion (as the timeline does: the work after a completion
  // is told from the work before), open a section.
  std::vector<model::Section> out;
  std::vector<std::pair<int, int>> place_at(static_cast<std::size_t>(count) + 1);  // rotated index -> (section, k)
  std::vector<int> op_at;                                                          // old token index of each new op
  for (int i = 0; i < count; ++i) {
    const int old = (cut_index + i) % count;
    const Token& t = tokens[static_cast<std::size_t>(old)];
    // Here: after the operations of the last section so far.
    const auto here = [&] {
      return std::pair{static_cast<int>(out.size()) - 1, static_cast<int>(out.back().comm.size())};
    };
    if (t.stage != nullptr) {
      if (out.empty() || !out.back().comm.empty() || completion_at[static_cast<std::size_t>(i)]) {
        if (!out.empty()) place_at[static_cast<std::size_t>(i)] = here();
        out.emplace_back();
      }
      out.back().stages.push_back(*t.stage);
    } else {
      if (out.empty()) out.emplace_back().stages.emplace_back();
      place_at[static_cast<std::size_t>(i)] = here();
      out.back().comm.push_back(*t.op);
      op_at.push_back(old);
    }
  }
  place_at[static_cast<std::size_t>(count)] = {static_cast<int>(out.size()) - 1,
                                               static_cast<int>(out.back().comm.size())};
  // Each non-blocking send's or collective's completion, in the rotated period's places.
  std::size_t n = 0;
  for (model::Section& section : out) {
    for (model::CommOp& op : section.comm) {
      const int old = op_at[n++];
      const int at = completion(op);
      if (at < 0) continue;
      const int done = moved_place(at);
      if (done > moved(old)) {
        std::tie(op.completed_section, op.completed_comm) = place_at[static_cast<std::size_t>(done)];
      } else {
        op.completed_section = -1;
        op.completed_comm = 0;
      }
    }
  }
  return out;
}

}  // namespace mheta::interpose
