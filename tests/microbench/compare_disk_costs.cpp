// Checks that an emulated I/O factor shows up in the measured disk: the
// per-byte read cost (and O_r) of a cluster.json measured under
// `mheta run --emulate` is FACTOR times that of a plain run, within TOLERANCE
// (exit 3 when outside: the exit of a figure outside its bound, tests/checks.py).
//
//   microbench_compare_disk_costs PLAIN.json EMULATED.json FACTOR TOLERANCE
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "model/cluster.hpp"

namespace {

double mean_read_s_per_byte(const mheta::model::Cluster& c) {
  double sum = 0;
  for (const auto& node : c.nodes) sum += node.disk.read_s_per_byte;
  return sum / c.ranks();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s plain.json emulated.json factor tolerance\n", argv[0]);
    return 2;
  }
  const auto plain = mheta::model::read_cluster(argv[1]);
  const auto emulated = mheta::model::read_cluster(argv[2]);
  const double factor = std::atof(argv[3]);
  const double tolerance = std::atof(argv[4]);
  const double ratio = mean_read_s_per_byte(emulated) / mean_read_s_per_byte(plain);
  std::printf("read s/byte: plain %.4g, emulated %.4g, ratio %.3f (expected %.2f within %.0f%%)\n",
              mean_read_s_per_byte(plain), mean_read_s_per_byte(emulated), ratio, factor, 100 * tolerance);
  const int outside_bound = 3;
  return std::fabs(ratio / factor - 1) <= tolerance ? 0 : outside_bound;
}
