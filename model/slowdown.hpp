#pragma once
// How much slower than the machine a node computes and does I/O: the rates
// a profile was captured with, and the rates of a cluster's node, in one
// unit, so that a profile captured on one cluster predicts another
// (docs/model.md, "Predicting another cluster"). An emulated node's
// slowdown is the emulation's CPU factor (times the wall clock's dilation)
// and I/O factor; the machine itself, unemulated, is 1 and 1.
#include <optional>
#include <string_view>

#include "model/json_fields.hpp"

namespace mheta::model {

struct Slowdown {
  double cpu = 1;  // compute takes this many times as long as on the machine
  double io = 1;   // MPI-IO takes this many times as long

  bool operator==(const Slowdown&) const = default;
};

// The optional "slowdown" member of `object` ({"cpu": f, "io": g}, both
// positive); absent gives nullopt.
std::optional<Slowdown> read_slowdown(const JsonFields& fields, const Json& object, std::string_view path);
Json slowdown_to_json(const Slowdown& slowdown);

}  // namespace mheta::model
