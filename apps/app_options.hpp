#pragma once
// The command line every app shares: --rows, --cols (where it applies),
// --iters, --data, --dist, --prefetch, --no-check, --auto.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <string>

namespace mheta::apps {

struct AppOptions {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  int iters = 0;
  std::string data;  // directory of the local arrays
  std::string dist;  // dist.txt; empty: Blk
  bool prefetch = false;
  bool check = true;
  bool automatic = false;  // --auto: redistribute on the fly (apps/app_arrays.hpp)
};

// What differs between apps: name, help text, default sizes, extra options.
struct AppSpec {
  std::string name;
  std::string description;
  bool has_cols = false;
  AppOptions defaults;
  std::function<void(CLI::App&)> add_options;  // may be empty
};

// Registers the shared options on `cli`, writing into `options`.
void add_app_options(CLI::App& cli, const AppSpec& spec, AppOptions& options);

}  // namespace mheta::apps
