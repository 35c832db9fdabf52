#pragma once
// The replayed iteration as a Chrome trace-event / Perfetto timeline
// (docs/cli.md, "mheta trace"): one track per rank, the profile's sections
// as slices holding their compute, I/O, message and collective intervals,
// and every message as a flow from its send to its receive.
#include "model/json_fields.hpp"
#include "model/model.hpp"

namespace mheta::cli {

// {"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {...}};
// times in microseconds from the iteration's start.
model::Json trace_events(const model::Prediction& prediction, const std::string& program);

}  // namespace mheta::cli
