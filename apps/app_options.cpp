#include "apps/app_options.hpp"

namespace mheta::apps {

void add_app_options(CLI::App& cli, const AppSpec& spec, AppOptions& options) {
  options = spec.defaults;
  if (options.data.empty()) options.data = "mheta-data/" + spec.name;
  cli.add_option("--rows", options.rows, "Global rows, distributed over the ranks (GEN_BLOCK)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  if (spec.has_cols) {
    cli.add_option("--cols", options.cols, "Columns of every row")
        ->check(CLI::Range(std::int64_t{3}, std::int64_t{1} << 40))
        ->capture_default_str();
  }
  cli.add_option("--iters", options.iters, "Iterations of the main loop")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cli.add_option("--data", options.data,
                 "Directory of the HDF5 local arrays <var>.<rank>.h5; input is generated there when absent")
      ->capture_default_str();
  cli.add_option("--dist", options.dist, "dist.txt: rows per rank (GEN_BLOCK); a rank may own zero rows. Default: Blk")
      ->check(CLI::ExistingFile);
  cli.add_flag("--prefetch", options.prefetch, "Double-buffer the out-of-core ICLAs (MPI_File_iread_at + MPI_Wait)");
  cli.add_flag_callback(
      "--no-check", [&options] { options.check = false; },
      "Skip the comparison with the serial reference (for runs too large for one rank)");
  cli.add_flag("--auto", options.automatic,
               "Redistribute on the fly: after the captured iteration (run under mheta run), move the rows to the "
               "best distribution when the predicted gain over the remaining iterations pays for the move");
  if (spec.add_options) spec.add_options(cli);
}

}  // namespace mheta::apps
