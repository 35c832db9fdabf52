#pragma once
// Assembles the profile.json document from every rank's captured record:
// the variables (merged by name), the distribution the run used and each
// rank's sections. No MPI: rank 0 runs it on the gathered records.
#include <cstdint>
#include <string>
#include <vector>

#include "interpose/runtime.hpp"
#include "model/profile.hpp"

namespace mheta::interpose {

// One rank's capture, as sent to rank 0.
struct RankRecord {
  int rank = 0;
  bool complete = false;                 // a whole iteration was captured
  std::vector<model::Section> sections;  // StageIo::variable indexes `variables`
  std::vector<VariableSeen> variables;
  std::int64_t iterations = 0;  // iterations seen so far (marks or k-th calls)
  std::string host;
  std::uint64_t memory_budget_bytes = 0;
};

model::Json rank_record_to_json(const RankRecord& record);
RankRecord rank_record_from_json(const model::Json& json);

struct AssemblyInputs {
  std::string program;
  std::int64_t global_rows = 0;  // MHETA_ROWS, 0 = unknown
  std::string dist_path;         // MHETA_DIST, empty = none
};

// Builds and validates the profile (model::parse_profile checks it as
// `mheta predict` will). Problems that leave the profile usable (no row
// count known, a dist.txt that does not fit) are appended to `warnings`;
// unusable inputs throw model::FormatError.
model::Profile assemble_profile(const std::vector<RankRecord>& records, const AssemblyInputs& inputs,
                                std::vector<std::string>& warnings);

}  // namespace mheta::interpose
