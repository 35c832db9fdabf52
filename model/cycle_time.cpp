// The period of the repeated iterations straight from the recorded tape of
// one (docs/model.md, "The period"): the cycle time of the max-plus system
// whose states are each rank's clock and link where an iteration starts,
// by Howard's policy iteration in its multichain form (Cochet-Terrasson,
// Cohen, Gaubert, McGettrick and Quadrat, "Numerical computation of
// spectral elements in max-plus algebra", 1998). Replaying iteration after
// iteration reaches it only when every rank has settled, which on a long
// chain of ranks takes as many iterations as the chain has ranks; a few
// evaluations of the tape do here.
#include <algorithm>
#include <cmath>
#include <limits>

#include "model/model.hpp"

namespace mheta::model {

namespace {

// Policy improvements at most before giving up (the replay then goes on
// iteration after iteration instead). It takes a handful in practice.
constexpr int kMaxImprovements = 100;

// The tape's nodes in order, each given to `choose` with its two operands'
// times (`time` of the operand node plus the costs since) and nodes: every
// evaluation of the tape below. `time` holds the states' times on entry
// and gets each node's.
template <class Choose>
void for_each_node(const ReplayTape& tape, std::vector<double>& time, Choose choose) {
  for (std::size_t n = static_cast<std::size_t>(tape.states); n < tape.value.size(); ++n) {
    const auto& [a, b] = tape.larger[n - static_cast<std::size_t>(tape.states)];
    const auto ai = static_cast<std::size_t>(a.node);
    const auto bi = static_cast<std::size_t>(b.node);
    const double va = time[ai] + a.weight;
    const double vb = time[bi] + b.weight;
    const bool take_b = choose(n, ai, bi, va, vb);
    time[n] = take_b ? vb : va;
  }
}

// The tape evaluated for the states' cycle times `mean`, their distances
// `depth` (in iterations) from a state of that cycle time, and their biases
// `bias`: at every node, of the states its time can come from, the one with
// the largest cycle time, of those the nearest, and of those the one giving
// the latest time (its bias plus the heaviest path's costs). Cycle times
// within `tie` of each other count as equal (they are sums of the same
// costs in another order).
void evaluate_tape(const ReplayTape& tape, const std::vector<double>& mean, const std::vector<int>& depth,
                   const std::vector<double>& bias, double tie, std::vector<double>& best_mean,
                   std::vector<int>& best_depth, std::vector<double>& best_value, std::vector<int>& best_state) {
  for (std::size_t s = 0; s < static_cast<std::size_t>(tape.states); ++s) {
    best_mean[s] = mean[s];
    best_depth[s] = depth[s];
    best_value[s] = bias[s];
    best_state[s] = static_cast<int>(s);
  }
  for_each_node(tape, best_value, [&](std::size_t n, std::size_t ai, std::size_t bi, double va, double vb) {
    bool take_b = best_mean[bi] > best_mean[ai] + tie;
    if (!take_b && best_mean[bi] >= best_mean[ai] - tie) {
      take_b = best_depth[bi] < best_depth[ai] || (best_depth[bi] == best_depth[ai] && vb > va);
    }
    const std::size_t from = take_b ? bi : ai;
    best_mean[n] = best_mean[from];
    best_depth[n] = best_depth[from];
    best_state[n] = best_state[from];
    return take_b;
  });
}

// The tape evaluated from the states' times `start` alone (every cycle
// time equal, every depth 0: evaluate_tape's choice is then the later
// operand): each node's time and the state it comes from. The next
// iteration's, once per evaluation of a distribution, so it is kept to the
// two arrays it needs.
void evaluate_tape_from(const ReplayTape& tape, const std::vector<double>& start, std::vector<double>& best_value,
                        std::vector<int>& best_state) {
  for (std::size_t s = 0; s < static_cast<std::size_t>(tape.states); ++s) {
    best_value[s] = start[s];
    best_state[s] = static_cast<int>(s);
  }
  for_each_node(tape, best_value, [&](std::size_t n, std::size_t ai, std::size_t bi, double va, double vb) {
    const bool take_b = vb > va;
    best_state[n] = best_state[take_b ? bi : ai];
    return take_b;
  });
}

}  // namespace

// The largest cycle time that reaches each state over any number of
// iterations, into ws.reached_mean, with the iterations it takes from the
// nearest state of that cycle time into ws.depth (cycle_time calls it when
// some state is one source away from a larger one). Howard's rule moves a
// state to a larger cycle time one iteration's sources at a time, so along a chain of
// ranks the largest would take as many rounds as the chain has ranks; here
// the tape's graph is walked once, from the states of the largest cycle
// time down: within the tape a walk goes from a node to those that take it
// as an operand, and from a state's end to its start in the next iteration.
void Model::spread_cycle_times(Workspace& ws, double tie) const {
  const ReplayTape& tape = ws.tape;
  const auto states = static_cast<std::size_t>(tape.states);
  const std::size_t nodes = tape.value.size();
  // The cycles (a state of each, every other state leads to one) from the
  // largest cycle time down; each walk marks what it reaches first, a level
  // of the walk per iteration.
  std::sort(ws.order.begin(), ws.order.end(), [&ws](int a, int b) {
    return ws.cycle_mean[static_cast<std::size_t>(a)] > ws.cycle_mean[static_cast<std::size_t>(b)];
  });
  std::fill(ws.node_seen.begin(), ws.node_seen.begin() + static_cast<std::ptrdiff_t>(nodes), 0);
  const std::size_t cycles = ws.order.size();
  for (std::size_t k = 0; k < cycles;) {
    const double mean = ws.cycle_mean[static_cast<std::size_t>(ws.order[k])];
    ws.level.clear();
    for (; k < cycles && ws.cycle_mean[static_cast<std::size_t>(ws.order[k])] >= mean - tie; ++k) {
      const auto st = static_cast<std::size_t>(ws.order[k]);
      if (ws.node_seen[st]) continue;  // reached from a larger one
      ws.node_seen[st] = 1;
      ws.reached_mean[st] = ws.cycle_mean[st];
      ws.depth[st] = 0;
      ws.level.push_back(static_cast<int>(st));
    }
    for (int d = 1; !ws.level.empty(); ++d) {
      // Within the iteration from this level's states, then their next.
      ws.next_level.clear();
      ws.walk.assign(ws.level.begin(), ws.level.end());
      while (!ws.walk.empty()) {
        const auto n = static_cast<std::size_t>(ws.walk.back());
        ws.walk.pop_back();
        for (int u = ws.user_begin[n]; u < ws.user_begin[n + 1]; ++u) {
          const auto user = static_cast<std::size_t>(ws.users[static_cast<std::size_t>(u)]);
          if (ws.node_seen[user]) continue;
          ws.node_seen[user] = 1;
          if (user < states) {
            ws.reached_mean[user] = mean;
            ws.depth[user] = d;
            ws.next_level.push_back(static_cast<int>(user));
          } else {
            ws.walk.push_back(static_cast<int>(user));
          }
        }
      }
      ws.level.swap(ws.next_level);
    }
  }
}

// Who takes each node of ws.tape as an operand, and the states that end
// at it: the walks of spread_cycle_times go that way.
void Model::index_users(Workspace& ws) const {
  const ReplayTape& tape = ws.tape;
  const auto states = static_cast<std::size_t>(tape.states);
  const std::size_t nodes = tape.value.size();
  std::fill(ws.user_begin.begin(), ws.user_begin.begin() + static_cast<std::ptrdiff_t>(nodes) + 1, 0);
  for (const auto& operands : tape.larger) {
    for (const ReplayTape::Operand& o : operands) ++ws.user_begin[static_cast<std::size_t>(o.node) + 1];
  }
  for (const ReplayTape::Operand& e : tape.end) ++ws.user_begin[static_cast<std::size_t>(e.node) + 1];
  for (std::size_t n = 0; n < nodes; ++n) ws.user_begin[n + 1] += ws.user_begin[n];
  ws.user_fill.assign(ws.user_begin.begin(), ws.user_begin.begin() + static_cast<std::ptrdiff_t>(nodes));
  for (std::size_t n = states; n < nodes; ++n) {
    for (const ReplayTape::Operand& o : tape.larger[n - states]) {
      ws.users[static_cast<std::size_t>(ws.user_fill[static_cast<std::size_t>(o.node)]++)] = static_cast<int>(n);
    }
  }
  for (std::size_t st = 0; st < states; ++st) {
    ws.users[static_cast<std::size_t>(ws.user_fill[static_cast<std::size_t>(tape.end[st].node)]++)] =
        static_cast<int>(st);
  }
}

// Value determination: the cycle times and biases of the policy (each state
// takes its time from one other, ws.policy, plus ws.policy_weight). Every
// state's sources end in a cycle; its states repeat at the cycle's mean
// weight, and every state leading to it too. A cycle's first state keeps
// its bias from the policy before (Howard's rule that makes the iteration
// end); the others follow from it.
void Model::determine_values(Workspace& ws, int states) const {
  std::fill(ws.walk_mark.begin(), ws.walk_mark.end(), -1);
  ws.order.clear();  // a state of each cycle
  for (int first = 0; first < states; ++first) {
    if (ws.walk_mark[static_cast<std::size_t>(first)] >= 0) continue;
    ws.walk.clear();
    int s = first;
    while (ws.walk_mark[static_cast<std::size_t>(s)] < 0) {
      ws.walk_mark[static_cast<std::size_t>(s)] = first;
      ws.walk.push_back(s);
      s = ws.policy[static_cast<std::size_t>(s)];
    }
    // s is where the walk ran into states already known, or into its own
    // cycle, which starts at s.
    std::size_t known = ws.walk.size();
    if (ws.walk_mark[static_cast<std::size_t>(s)] == first) {
      const auto at = static_cast<std::size_t>(std::find(ws.walk.begin(), ws.walk.end(), s) - ws.walk.begin());
      double weight = 0;
      for (std::size_t k = at; k < ws.walk.size(); ++k)
        weight += ws.policy_weight[static_cast<std::size_t>(ws.walk[k])];
      const double mean = weight / static_cast<double>(ws.walk.size() - at);
      ws.cycle_mean[static_cast<std::size_t>(s)] = mean;  // s keeps its bias
      ws.order.push_back(s);
      for (std::size_t k = ws.walk.size() - 1; k > at; --k) {
        const auto t = static_cast<std::size_t>(ws.walk[k]);
        const auto next = static_cast<std::size_t>(ws.policy[t]);
        ws.cycle_mean[t] = mean;
        ws.bias[t] = ws.policy_weight[t] - mean + ws.bias[next];
      }
      known = at;
    }
    for (std::size_t k = known; k-- > 0;) {
      const auto t = static_cast<std::size_t>(ws.walk[k]);
      const auto next = static_cast<std::size_t>(ws.policy[t]);
      ws.cycle_mean[t] = ws.cycle_mean[next];
      ws.bias[t] = ws.policy_weight[t] - ws.cycle_mean[t] + ws.bias[next];
    }
  }
}

// The iteration after the one on ws.tape, from where ws.clock and ws.link
// stand, into them: the tape evaluated, every cycle time 0.
void Model::next_iteration_from_tape(Workspace& ws) const {
  const ReplayTape& tape = ws.tape;
  for (std::size_t r = 0; r < static_cast<std::size_t>(ranks_); ++r) {
    ws.bias[2 * r] = ws.clock[r];
    ws.bias[2 * r + 1] = ws.link[r];
  }
  evaluate_tape_from(tape, ws.bias, ws.best_value, ws.best_state);
  for (std::size_t r = 0; r < static_cast<std::size_t>(ranks_); ++r) {
    const ReplayTape::Operand& clock = tape.end[2 * r];
    const ReplayTape::Operand& link = tape.end[2 * r + 1];
    ws.clock[r] = ws.best_value[static_cast<std::size_t>(clock.node)] + clock.weight;
    ws.link[r] = ws.best_value[static_cast<std::size_t>(link.node)] + link.weight;
  }
}

// The period from ws.tape: the largest cycle time of any state, or -1 when
// the policy iteration did not settle within kMaxImprovements. Right after
// next_iteration_from_tape, whose evaluation of the tape it starts from.
// Every policy's cycles are cycles of the system (each step a path through
// the tape, with its weight), so the largest of their means is never above
// the period: once it reaches `limit`, that mean is returned as it stands.
double Model::cycle_time(Workspace& ws, double limit) const {
  const ReplayTape& tape = ws.tape;
  const auto states = static_cast<std::size_t>(tape.states);
  if (tape.value.size() > ws.best_mean.size()) return -1;  // more than a node per op: not this replay's
  // The scale of the times (the first iteration's ends are its latest),
  // for what counts as equal and as better.
  double scale = 0;
  for (const ReplayTape::Operand& e : tape.end) {
    scale = std::max({scale, std::abs(e.weight), std::abs(tape.value[static_cast<std::size_t>(e.node)] + e.weight)});
  }
  const double tie = 1e-12 * scale;
  const double better = 1e-9 * scale;
  // The first policy: each state from the one its time comes from in the
  // second iteration, from the tape's evaluation at where the first ended
  // (next_iteration_from_tape, just before; ws.bias is that start).
  for (std::size_t s = 0; s < states; ++s) {
    const ReplayTape::Operand& e = tape.end[s];
    ws.policy[s] = ws.best_state[static_cast<std::size_t>(e.node)];
    ws.policy_weight[s] =
        ws.best_value[static_cast<std::size_t>(e.node)] + e.weight - ws.bias[static_cast<std::size_t>(ws.policy[s])];
  }
  std::fill(ws.bias.begin(), ws.bias.end(), 0.0);
  bool indexed = false;
  for (int round = 0; round < kMaxImprovements; ++round) {
    determine_values(ws, tape.states);
    // The largest mean of the policy's cycles: determine_values left a state
    // of each in ws.order, and every other state has the mean of its cycle.
    double largest = -std::numeric_limits<double>::infinity();
    for (int s : ws.order) largest = std::max(largest, ws.cycle_mean[static_cast<std::size_t>(s)]);
    if (largest >= limit) return largest;
    std::fill(ws.depth.begin(), ws.depth.end(), 0);
    evaluate_tape(tape, ws.cycle_mean, ws.depth, ws.bias, tie, ws.best_mean, ws.best_depth, ws.best_value,
                  ws.best_state);
    // A source of a larger cycle time first (the multichain rule): every
    // state a larger one reaches takes, of its sources, one a step nearer
    // to it, so that the new sources lead there without a cycle of their
    // own. Then, among sources of the same cycle time, one that starts the
    // state later. A larger one reaches some state only if it reaches one
    // from its sources in one iteration, which the evaluation just shows.
    bool spread = false;
    for (std::size_t s = 0; s < states && !spread; ++s) {
      spread = ws.best_mean[static_cast<std::size_t>(tape.end[s].node)] > ws.cycle_mean[s] + tie;
    }
    if (spread) {
      if (!indexed) index_users(ws);
      indexed = true;
      spread_cycle_times(ws, tie);
      evaluate_tape(tape, ws.reached_mean, ws.depth, ws.bias, tie, ws.best_mean, ws.best_depth, ws.best_value,
                    ws.best_state);
    }
    bool improved = false;
    for (std::size_t s = 0; s < states; ++s) {
      const ReplayTape::Operand& e = tape.end[s];
      const auto n = static_cast<std::size_t>(e.node);
      const bool switch_source = spread ? ws.reached_mean[s] > ws.cycle_mean[s] + tie
                                        : ws.best_mean[n] >= ws.cycle_mean[s] - tie &&
                                              ws.best_value[n] + e.weight > ws.bias[s] + ws.cycle_mean[s] + better;
      if (!switch_source) continue;
      const int from = ws.best_state[n];
      ws.policy[s] = from;
      ws.policy_weight[s] = ws.best_value[n] + e.weight - ws.bias[static_cast<std::size_t>(from)];
      improved = true;
    }
    if (improved) continue;
    ws.biased = true;
    return std::max(0.0, largest);
  }
  return -1;
}

}  // namespace mheta::model
