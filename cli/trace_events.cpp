#include "cli/trace_events.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

namespace mheta::cli {

namespace {

using Kind = model::ReplayEvent::Kind;

const char* name_of(Kind kind) {
  switch (kind) {
    case Kind::compute: return "compute";
    case Kind::io: return "I/O";
    case Kind::send: return "send";
    case Kind::wait: return "wait for message";
    case Kind::recv: return "receive";
    case Kind::collective_wait: return "wait at collective";
    case Kind::collective: return "collective";
    case Kind::link_wait: return "wait for the link";
  }
  return "?";
}

const char* category_of(Kind kind) {
  switch (kind) {
    case Kind::compute: return "compute";
    case Kind::io: return "io";
    case Kind::wait:
    case Kind::collective_wait: return "wait";
    default: return "comm";
  }
}

double us(double seconds) { return seconds * 1e6; }

// The duration as the difference of the two times in microseconds, not
// the difference in seconds converted: then ts + dur is the next slice's
// ts to the last bit, where the other way could end a slice an ulp past the
// start of the one after it, and a viewer that nests slices by their times
// (Chromium's Performance panel) drops the later one.
model::Json slice(const std::string& name, const char* category, int rank, double start_s, double end_s) {
  return {{"name", name}, {"cat", category}, {"ph", "X"}, {"pid", 0},
          {"tid", rank},  {"ts", us(start_s)}, {"dur", us(end_s) - us(start_s)}};
}

}  // namespace

model::Json trace_events(const model::Prediction& prediction, const std::string& program) {
  model::Json events = model::Json::array();
  events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 0}, {"args", {{"name", program}}}});
  for (std::size_t r = 0; r < prediction.ranks.size(); ++r) {
    const int rank = static_cast<int>(r);
    std::string name = "rank " + std::to_string(rank) + " (" + std::to_string(prediction.ranks[r].rows) + " rows)";
    if (rank == prediction.slowest_rank) name += ", bottleneck";
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 0}, {"tid", rank}, {"args", {{"name", name}}}});
    events.push_back({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", 0}, {"tid", rank},
                      {"args", {{"sort_index", rank}}}});
  }
  // Sections: the span of their intervals on each rank.
  std::map<std::pair<int, int>, std::pair<double, double>> sections;
  for (const model::ReplayEvent& e : prediction.timeline) {
    auto [it, fresh] = sections.try_emplace({e.rank, e.section}, e.start_s, e.end_s);
    if (!fresh) {
      it->second.first = std::min(it->second.first, e.start_s);
      it->second.second = std::max(it->second.second, e.end_s);
    }
  }
  for (const auto& [key, span] : sections) {
    model::Json s = slice("section " + std::to_string(key.second), "section", key.first, span.first, span.second);
    s["args"] = {{"section", key.second}};
    events.push_back(std::move(s));
  }
  for (const model::ReplayEvent& e : prediction.timeline) {
    const bool optional =
        e.kind == Kind::wait || e.kind == Kind::collective_wait || e.kind == Kind::io || e.kind == Kind::link_wait;
    if (optional && e.end_s <= e.start_s) continue;  // no waiting, or in core: nothing to see
    model::Json s = slice(name_of(e.kind), category_of(e.kind), e.rank, e.start_s, e.end_s);
    model::Json args = {{"section", e.section}};
    if (e.peer >= 0) args["peer"] = e.peer;
    if (e.kind == Kind::send || e.kind == Kind::recv) args["bytes"] = e.bytes;
    if (e.collective >= 0) args["collective"] = e.collective;
    s["args"] = std::move(args);
    events.push_back(std::move(s));
    // The message as a flow: from inside the send's slice to the receive's.
    // Each end carries its slice's category and start: Chromium's
    // Performance panel binds a flow end only to a slice of the same
    // category starting at the same time on the same track (Perfetto and
    // the older viewer bind to the enclosing slice, which this is too).
    if (e.kind == Kind::send || e.kind == Kind::recv) {
      const bool send = e.kind == Kind::send;
      model::Json flow = {{"name", "message"}, {"cat", category_of(e.kind)}, {"ph", send ? "s" : "f"}, {"pid", 0},
                          {"tid", e.rank},    {"id", e.message},    {"ts", us(e.start_s)}};
      if (!send) flow["bp"] = "e";
      events.push_back(std::move(flow));
    }
  }
  return {{"traceEvents", events},
          {"displayTimeUnit", "ms"},
          {"otherData",
           {{"format", "mheta-trace/1"},
            {"program", program},
            {"iteration_s", prediction.iteration_s},
            {"first_iteration_s", prediction.first_iteration_s},
            {"bottleneck_rank", prediction.slowest_rank}}}};
}

}  // namespace mheta::cli
