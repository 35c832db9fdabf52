#pragma once
// The max-plus form of one replayed iteration (docs/model.md, "The period"):
// every time in the replay is the larger of two earlier times, each plus a
// sum of costs, back to the states where the iteration started (each
// rank's clock and link). Recorded once, it gives the iteration as a
// function of any start without replaying it, which is what the period's
// computation (cycle_time.cpp) evaluates again and again; and since which
// times it compares does not depend on the costs, a distribution that
// changes the costs of a few ranks only re-weights their operands
// (replay.cpp, "reweight_rank").
#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

namespace mheta::model {

struct ReplayTape {
  // A time: `node`'s plus `weight` (the costs added since).
  struct Operand {
    int node = 0;
    double weight = 0;
  };
  // State s: 2r for rank r's clock, 2r + 1 for its link. Node s < states
  // is state s's start; every later node the larger of its two operands,
  // which name earlier nodes only (the nodes are in an order that
  // evaluates).
  int states = 0;
  std::vector<double> value;                   // per node, from the starts (evaluate)
  std::vector<std::array<Operand, 2>> larger;  // per node from `states` on
  std::vector<Operand> end;                    // per state: where the iteration leaves it

  // Empties the tape for a replay that starts each rank at `clock` and its
  // link at `link`.
  void restart(const std::vector<double>& clock, const std::vector<double>& link) {
    states = static_cast<int>(2 * clock.size());
    value.clear();
    larger.clear();
    for (std::size_t r = 0; r < clock.size(); ++r) {
      value.push_back(clock[r]);
      value.push_back(link[r]);
    }
  }

  // The node of the larger of node `na`'s time plus `wa` and node `nb`'s
  // plus `wb`.
  int max_of(int na, double wa, int nb, double wb) {
    larger.push_back({Operand{na, wa}, Operand{nb, wb}});
    return states + static_cast<int>(larger.size()) - 1;
  }

  // Where the weight of one side (0 or 1) of node `node`'s maximum is kept,
  // for re-weighting it (`weight`).
  static int slot(int node, int states, int side) { return 2 * (node - states) + side; }
  double& weight(int slot) {
    return larger[static_cast<std::size_t>(slot / 2)][static_cast<std::size_t>(slot % 2)].weight;
  }

  // Every node's time from the states' starts (value's first `states`).
  void evaluate() {
    const auto first = static_cast<std::size_t>(states);
    value.resize(first + larger.size());
    for (std::size_t n = first; n < value.size(); ++n) {
      const auto& [a, b] = larger[n - first];
      value[n] = std::max(value[static_cast<std::size_t>(a.node)] + a.weight,
                          value[static_cast<std::size_t>(b.node)] + b.weight);
    }
  }
};

}  // namespace mheta::model
