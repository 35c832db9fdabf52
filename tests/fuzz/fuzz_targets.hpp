#pragma once
// Fuzz targets over mheta's input readers and the model's entry. Each takes
// arbitrary bytes and must return normally: a clear error (FormatError,
// ModelError) is fine, a crash, a hang, another exception or a time that is
// not finite is a finding (the target aborts). One function per target, in
// the shape libFuzzer's LLVMFuzzerTestOneInput has, so the same targets run
// under the driver in fuzz_driver.cpp or under libFuzzer (fuzz_libfuzzer.cpp).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace mheta::fuzz {

using Target = void (*)(std::string_view input);

struct NamedTarget {
  std::string_view name;
  Target run;
};

// profile, cluster, dist, emulation, weights, model-profile, model-cluster.
std::span<const NamedTarget> targets();
const NamedTarget* target_by_name(std::string_view name);

// The fixed other half of the model targets: the files the mutated one is
// combined with (set once before fuzzing).
void set_model_inputs(std::string profile_json, std::string cluster_json);

}  // namespace mheta::fuzz
