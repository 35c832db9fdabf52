#pragma once
// How a prediction is shown: a per-rank table for people, JSON for programs.
#include <ostream>
#include <string>
#include <vector>

#include "model/json_fields.hpp"
#include "model/model.hpp"

namespace mheta::cli {

void print_prediction_table(std::ostream& out, const model::Prediction& prediction);
model::Json prediction_to_json(const model::Prediction& prediction);
// Each collective of the iteration: its price, and whether the capture's
// time or the cluster's price set it (docs/formats.md, prediction JSON).
model::Json collective_prices_to_json(const std::vector<model::CollectivePrice>& prices);

// "12.345 ms", "1.234 s", "250.0 us": a duration a person can read.
std::string human_seconds(double seconds);

}  // namespace mheta::cli
