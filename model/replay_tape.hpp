#pragma once
// The max-plus form of one replayed iteration (docs/model.md, "The period"):
// every time in the replay is the larger of two earlier times, each plus a
// sum of costs, back to the states where the iteration started (each
// rank's clock and link). Recorded once, it gives the iteration as a
// function of any start without replaying it, which is what the period's
// computation (cycle_time.cpp) evaluates again and again.
#include <array>
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
  std::vector<double> value;                   // per node, as replayed
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

  // The node of max(a, b), a being node `na`'s time plus costs and b node
  // `nb`'s.
  int max_of(int na, double a, int nb, double b) {
    larger.push_back(
        {Operand{na, a - value[static_cast<std::size_t>(na)]}, Operand{nb, b - value[static_cast<std::size_t>(nb)]}});
    value.push_back(a >= b ? a : b);
    return static_cast<int>(value.size()) - 1;
  }

  Operand operand(int node, double time) const { return {node, time - value[static_cast<std::size_t>(node)]}; }
};

}  // namespace mheta::model
