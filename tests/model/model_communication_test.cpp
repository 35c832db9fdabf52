// Two-rank cases that must equal Eq 3, 4 and 5 of the MHETA paper, and their
// generalization to more ranks, collectives and empty ranks.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "model/model.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

using testing::compute_stage;
using testing::recv_from;
using testing::send_to;
using namespace testing::message_costs;


// Both ranks compute, send to each other, then receive (nearest neighbour).
Profile exchange_profile(double compute0, double compute1) {
  Profile p = testing::empty_profile({100, 100});
  p.ranks[0].sections.push_back(Section{{compute_stage(compute0)}, {send_to(1, kBytes), recv_from(1, kBytes)}});
  p.ranks[1].sections.push_back(Section{{compute_stage(compute1)}, {send_to(0, kBytes), recv_from(0, kBytes)}});
  return p;
}

TEST(Eq3, SlowSenderMakesTheReceiverWait) {
  const double t0 = 0.5;
  const double t1 = 0.3;
  const Model model(exchange_profile(t0, t1), testing::uniform_cluster(2, kSend, kRecv, kAlpha, kBeta));
  // Eq 3-5 are of one iteration from a common start: the first (the ones
  // after it overlap, repeated_iterations_test.cpp).
  const Prediction p = model.first_iteration(std::vector<std::int64_t>{100, 100});
  // Eq 3: T_w(1,q) = max(0, T_tau(0) + O-> + T_{0->1} - (T_tau(1) + O->)).
  const double wait1 = std::max(0.0, t0 + kSendQ + kTransfer - (t1 + kSendQ));
  const double wait0 = std::max(0.0, t1 + kSendQ + kTransfer - (t0 + kSendQ));
  EXPECT_DOUBLE_EQ(p.ranks[1].wait_s, wait1);
  EXPECT_DOUBLE_EQ(p.ranks[0].wait_s, wait0);
  EXPECT_EQ(wait0, 0.0);  // Eq3_WaitIsZeroWhenReceiverIsSlower
  // Eq 5: T_Upsilon(i) = O-> + T_w(i,q) + O<-, and T_sigma = T_tau + T_Upsilon.
  EXPECT_DOUBLE_EQ(p.ranks[1].total_s, t1 + (kSendQ + wait1 + kRecv));
  EXPECT_DOUBLE_EQ(p.ranks[0].total_s, t0 + (kSendQ + wait0 + kRecv));
  EXPECT_DOUBLE_EQ(p.ranks[1].comm_s, kSendQ + kRecv);
  EXPECT_DOUBLE_EQ(p.first_iteration_s, std::max(p.ranks[0].total_s, p.ranks[1].total_s));
  EXPECT_EQ(p.slowest_rank, 1);
  // Repeated, rank 1 leaves T_{0->1} behind: rank 0's next message comes
  // t0 + O->(q) + O<- after its last, and rank 1 waits only what its own
  // iteration leaves of that.
  const Prediction repeated = model.predict(std::vector<std::int64_t>{100, 100});
  EXPECT_NEAR(repeated.iteration_s, t0 + kSendQ + kRecv, 1e-15);
  EXPECT_NEAR(repeated.ranks[1].wait_s, t0 - t1, 1e-15);
}

TEST(Eq3, IsSymmetricBetweenTheTwoRanks) {
  const Model a(exchange_profile(0.5, 0.3), testing::uniform_cluster(2, kSend, kRecv, kAlpha, kBeta));
  const Model b(exchange_profile(0.3, 0.5), testing::uniform_cluster(2, kSend, kRecv, kAlpha, kBeta));
  const std::vector<std::int64_t> rows{100, 100};
  EXPECT_DOUBLE_EQ(a.first_iteration(rows).ranks[1].wait_s, b.first_iteration(rows).ranks[0].wait_s);
  EXPECT_DOUBLE_EQ(a.predict(rows).ranks[1].wait_s, b.predict(rows).ranks[0].wait_s);
}

TEST(Eq3, ComputeScalesWithTheNewRows) {
  const Model model(exchange_profile(0.5, 0.3), testing::uniform_cluster(2, kSend, kRecv, kAlpha, kBeta));
  const Prediction p = model.first_iteration(std::vector<std::int64_t>{150, 50});
  // T_Phi' = T_Phi * W'/W.
  const double t0 = 0.5 * 150 / 100;
  const double t1 = 0.3 * 50 / 100;
  EXPECT_DOUBLE_EQ(p.ranks[0].compute_s, t0);
  EXPECT_DOUBLE_EQ(p.ranks[1].compute_s, t1);
  EXPECT_DOUBLE_EQ(p.ranks[1].wait_s, std::max(0.0, t0 + kSendQ + kTransfer - (t1 + kSendQ)));
}

// A rank with nothing in the iteration (a ping-pong's onlookers, waiting at
// the run's end) costs 0 and leaves the others' Eq 3 exchange as it was.
TEST(Eq3, ARankWithoutOpsIsIdleAndChangesNothing) {
  Profile p = testing::empty_profile({100, 100, 100});
  p.ranks[0].sections.push_back(Section{{compute_stage(0.5)}, {send_to(1, kBytes), recv_from(1, kBytes)}});
  p.ranks[1].sections.push_back(Section{{compute_stage(0.3)}, {send_to(0, kBytes), recv_from(0, kBytes)}});
  const Model model(p, testing::uniform_cluster(3, kSend, kRecv, kAlpha, kBeta));
  const Prediction with_idle = model.first_iteration(std::vector<std::int64_t>{100, 100, 100});
  const Prediction alone = Model(exchange_profile(0.5, 0.3), testing::uniform_cluster(2, kSend, kRecv, kAlpha, kBeta))
                               .first_iteration(std::vector<std::int64_t>{100, 100});
  EXPECT_EQ(with_idle.ranks[2].total_s, 0.0);
  EXPECT_DOUBLE_EQ(with_idle.ranks[1].wait_s, std::max(0.0, 0.5 + kSendQ + kTransfer - (0.3 + kSendQ)));
  EXPECT_DOUBLE_EQ(with_idle.first_iteration_s, alone.first_iteration_s);
  EXPECT_DOUBLE_EQ(with_idle.iteration_s, alone.iteration_s);
  EXPECT_EQ(with_idle.slowest_rank, 1);
}

// Rank 0 computes tile j and sends it to rank 1, which receives, then
// computes its tile j (a pipeline of `tiles` tiles). The paper's Eq 4 is of
// one iteration from a common start: Model::first_iteration (the repeated
// iteration of such a pipeline is pipeline_steady_state_test.cpp's).
Profile pipeline_profile(const std::vector<double>& tiles0, const std::vector<double>& tiles1) {
  Profile p = testing::empty_profile({100, 100});
  for (double t : tiles0) p.ranks[0].sections.push_back(Section{{compute_stage(t)}, {send_to(1, kBytes)}});
  p.ranks[1].sections.push_back(Section{{}, {recv_from(0, kBytes)}});
  for (std::size_t j = 0; j < tiles1.size(); ++j) {
    Section s{{compute_stage(tiles1[j])}, {}};
    if (j + 1 < tiles1.size()) s.comm.push_back(recv_from(0, kBytes));
    p.ranks[1].sections.push_back(s);
  }
  return p;
}

TEST(Eq4, PipelinedWaitPerTileMatchesThePaperWithoutSendOverhead) {
  // With O->(q) = 0 (no per-message overhead, and a link whose cost is all
  // latency, so no gap) the paper's Eq 4 is exact as printed.
  const std::vector<double> t0{0.10, 0.30, 0.10, 0.20};
  const std::vector<double> t1{0.20, 0.05, 0.25, 0.10};
  const double transfer = kAlpha + kBeta * kBytes;
  const Model model(pipeline_profile(t0, t1), testing::uniform_cluster(2, 0.0, kRecv, transfer, 0.0));
  const Prediction p = model.first_iteration(std::vector<std::int64_t>{100, 100});
  // Eq 4: T_w(1,q,j) = [sum_{k<=j} T_tau(0,k) + O->] + T_{0->1}
  //                    - [sum_{k<j} T_w(1,q,k) + O<- + T_tau(1,k)], clamped at 0.
  double waits = 0;
  double sent = 0;
  double done1 = 0;
  for (std::size_t j = 0; j < t0.size(); ++j) {
    sent += t0[j];
    const double w = std::max(0.0, sent + 0.0 + transfer - done1);
    waits += w;
    done1 += w + kRecv + t1[j];
  }
  EXPECT_NEAR(p.ranks[1].wait_s, waits, 1e-12);
  // T_Upsilon(1) = sum_j [T_w(1,q,j) + O<-]; rank 0 never waits.
  EXPECT_NEAR(p.ranks[1].total_s, 0.6 + waits + 4 * kRecv, 1e-12);
  EXPECT_EQ(p.ranks[0].wait_s, 0.0);
  EXPECT_NEAR(p.ranks[0].total_s, 0.7, 1e-12);
}

TEST(Eq4, SendOverheadIsPaidOnEveryTile) {
  // The paper's Eq 4 writes O-> once, but its text says each tile of P0
  // lasts T_tau(0,j) + O->: the model charges it per tile.
  const std::vector<double> t0{0.10, 0.30, 0.10};
  const std::vector<double> t1{0.01, 0.01, 0.01};
  const Model model(pipeline_profile(t0, t1), testing::uniform_cluster(2, kSend, kRecv, kAlpha, kBeta));
  const Prediction p = model.first_iteration(std::vector<std::int64_t>{100, 100});
  // Rank 1 is faster, so it ends right after the last tile arrives.
  const double last_arrival = (0.10 + kSendQ) + (0.30 + kSendQ) + (0.10 + kSendQ) + kTransfer;
  EXPECT_NEAR(p.ranks[1].total_s, last_arrival + kRecv + 0.01, 1e-12);
  EXPECT_NEAR(p.ranks[0].total_s, 0.5 + 3 * kSendQ, 1e-12);
}

TEST(Pipeline, FourRanksFollowTheWavefrontRecurrence) {
  // Rank r computes tile j after receiving it from r-1, then sends it on.
  constexpr int kRanks = 4;
  constexpr int kTiles = 5;
  auto tile = [](int r, int j) { return 0.01 * (1 + (r * 7 + j * 3) % 5); };
  Profile p = testing::empty_profile({10, 10, 10, 10});
  for (int r = 0; r < kRanks; ++r) {
    auto& sections = p.ranks[static_cast<std::size_t>(r)].sections;
    for (int j = 0; j < kTiles; ++j) {
      Section s;
      if (r > 0) s.comm.push_back(recv_from(r - 1, kBytes));
      sections.push_back(s);  // the receive ends the section before the tile
      Section work{{compute_stage(tile(r, j))}, {}};
      if (r + 1 < kRanks) work.comm.push_back(send_to(r + 1, kBytes));
      sections.push_back(work);
    }
  }
  const Model model(p, testing::uniform_cluster(kRanks, kSend, kRecv, kAlpha, kBeta));
  const Prediction prediction = model.first_iteration(std::vector<std::int64_t>{10, 10, 10, 10});
  // Recurrence: tile j of rank r starts when rank r finished tile j-1 and
  // the tile arrived from r-1 (Eq 4 applied at every stage of the pipe).
  double finish[kRanks][kTiles];
  for (int r = 0; r < kRanks; ++r) {
    double clock = 0;
    for (int j = 0; j < kTiles; ++j) {
      if (r > 0) clock = std::max(clock, finish[r - 1][j] + kTransfer) + kRecv;
      clock += tile(r, j);
      if (r + 1 < kRanks) clock += kSendQ;
      finish[r][j] = clock;
    }
  }
  for (int r = 0; r < kRanks; ++r) {
    EXPECT_NEAR(prediction.ranks[static_cast<std::size_t>(r)].total_s, finish[r][kTiles - 1], 1e-12) << "rank " << r;
  }
  EXPECT_NEAR(prediction.first_iteration_s, finish[kRanks - 1][kTiles - 1], 1e-12);
  EXPECT_EQ(prediction.slowest_rank, 3);
}

// Three ranks of 10 rows computing kUnequalCompute, then an allreduce of 64
// bytes, on a cluster whose allreduce curve prices it at kAllreduceCost.
constexpr double kUnequalCompute[3] = {0.2, 0.5, 0.1};
const double kAllreduceCost = 1e-3 + 2e-4 * std::log2(3.0) + 1e-7 * 64;

Profile unequal_compute_then_allreduce() {
  Profile p = testing::empty_profile({10, 10, 10});
  for (int r = 0; r < 3; ++r) {
    p.ranks[static_cast<std::size_t>(r)].sections.push_back(
        Section{{compute_stage(kUnequalCompute[r])}, {testing::collective(Collective::allreduce, 64)}});
  }
  return p;
}

Cluster allreduce_curve_cluster() {
  Cluster c = testing::uniform_cluster(3, kSend, kRecv, kAlpha, kBeta);
  c.network.collectives[static_cast<std::size_t>(Collective::allreduce)] = CollectiveCurve{1e-3, 2e-4, 0, 1e-7, 0};
  return c;
}

TEST(Collectives, CompleteAtTheLatestArrivalPlusTheirCost) {
  const Model model(unequal_compute_then_allreduce(), allreduce_curve_cluster());
  const Prediction prediction = model.predict(std::vector<std::int64_t>{10, 10, 10});
  for (int r = 0; r < 3; ++r) {
    EXPECT_NEAR(prediction.ranks[static_cast<std::size_t>(r)].total_s, 0.5 + kAllreduceCost, 1e-12);
    EXPECT_NEAR(prediction.ranks[static_cast<std::size_t>(r)].wait_s, 0.5 - kUnequalCompute[r], 1e-12);
  }
}

// A collective timed at the program's own size is priced by that time, not
// by the curve: three ranks computing 0.2, 0.5 and 0.1 s, then an allreduce
// of 64 bytes timed at 3 ranks and 64 bytes at 4e-3 s (the curve's price
// there: 1.33e-3 s); the iteration is 0.5 + 4e-3 s. A point at another size
// is not used.
TEST(Collectives, APointMeasuredAtTheProgramsSizePricesIt) {
  const Profile p = unequal_compute_then_allreduce();
  Cluster c = allreduce_curve_cluster();
  c.network.collective_points[static_cast<std::size_t>(Collective::allreduce)] = {{3, 64, 4e-3}, {3, 128, 9.0}};
  const Prediction prediction = Model(p, c).predict(std::vector<std::int64_t>{10, 10, 10});
  for (int r = 0; r < 3; ++r) {
    EXPECT_NEAR(prediction.ranks[static_cast<std::size_t>(r)].total_s, 0.5 + 4e-3, 1e-12);
  }
  // At 4 ranks' sizes the point does not apply: the curve prices it.
  c.network.collective_points[static_cast<std::size_t>(Collective::allreduce)] = {{4, 64, 4e-3}};
  EXPECT_NEAR(Model(p, c).predict(std::vector<std::int64_t>{10, 10, 10}).iteration_s, 0.5 + kAllreduceCost, 1e-12);
}

// Four ranks of 10 rows that each compute 0.1 s, then call `op` with
// `bytes`.
Profile one_collective_profile(Collective op, std::int64_t bytes) {
  Profile p = testing::empty_profile({10, 10, 10, 10});
  for (auto& rank : p.ranks) rank.sections.push_back(Section{{compute_stage(0.1)}, {testing::collective(op, bytes)}});
  return p;
}

// A ring allgather's curve (log2 P latencies of 5e-5 s, the P-1 blocks of
// the others at 1e-6 s/byte), on four ranks with kAlpha, kBeta links.
Cluster ring_allgather_cluster() {
  Cluster c = testing::uniform_cluster(4, kSend, kRecv, kAlpha, kBeta);
  CollectiveCurve ring;
  ring.c_log2p = 5e-5;
  ring.c_bytes = -1e-6;
  ring.c_bytes_p = 1e-6;
  c.network.collectives[static_cast<std::size_t>(Collective::allgather)] = ring;
  return c;
}

const std::vector<std::int64_t> kFourByTen{10, 10, 10, 10};

// A ring allgather: every rank passes on the P-1 blocks of the others, so
// its cost follows (P-1)*n, the n*P term with the n term at minus its
// coefficient. Four ranks gather 80 bytes each after 0.1 s of compute:
// 5e-5 * log2(4) + 1e-6 * 80 * 4 - 1e-6 * 80 = 1e-4 + 2.4e-4 s.
TEST(Collectives, ARingAllgatherCostsTheOtherRanksBlocks) {
  const Cluster c = ring_allgather_cluster();
  const Prediction prediction = Model(one_collective_profile(Collective::allgather, 80), c).predict(kFourByTen);
  EXPECT_NEAR(prediction.iteration_s, 0.1 + 1e-4 + 2.4e-4, 1e-12);
  EXPECT_NEAR(c.network.curve(Collective::allgather)->seconds(8, 80), 5e-5 * 3 + 7 * 80 * 1e-6, 1e-15);
}

// A pairwise all-to-all sends its n bytes to each of the P-1 others in turn:
// (P-1)(alpha + n beta) = -alpha + alpha P - beta n + beta n P. Four ranks
// exchange 80 bytes per peer after 0.1 s of compute, alpha = 5e-5 s and
// beta = 1e-6 s/byte: 3 * (5e-5 + 80e-6) = 3.9e-4 s with the all-to-all's
// own curve. A cluster file without one (measured before alltoall had its
// own) lends it allgather's ring curve: 5e-5 log2(4) + 3 * 80e-6 = 3.4e-4 s.
TEST(Collectives, AnAlltoallIsPricedByItsOwnCurveElseAllgathers) {
  const Profile p = one_collective_profile(Collective::alltoall, 80);
  Cluster c = ring_allgather_cluster();
  EXPECT_NEAR(Model(p, c).predict(kFourByTen).iteration_s, 0.1 + 5e-5 * 2 + 3 * 80e-6, 1e-12);

  CollectiveCurve pairwise;
  pairwise.c0 = -5e-5;
  pairwise.c_p = 5e-5;
  pairwise.c_bytes = -1e-6;
  pairwise.c_bytes_p = 1e-6;
  c.network.collectives[static_cast<std::size_t>(Collective::alltoall)] = pairwise;
  const Prediction own = Model(p, c).predict(kFourByTen);
  EXPECT_NEAR(own.iteration_s, 0.1 + 3 * (5e-5 + 80e-6), 1e-12);
  EXPECT_NEAR(own.ranks[2].comm_s, 3 * (5e-5 + 80e-6), 1e-12);
  // The allgather keeps its own curve.
  EXPECT_EQ(c.network.curve(Collective::allgather)->c_log2p, 5e-5);
}

// Two ranks that each compute 0.1 s on 10 rows, then gather `gathered`
// bytes each and allreduce `reduced` bytes each.
Model gather_model(std::int64_t gathered, std::int64_t reduced) {
  Profile p = testing::empty_profile({10, 10});
  for (int r = 0; r < 2; ++r) {
    p.ranks[static_cast<std::size_t>(r)].sections.push_back(
        Section{{compute_stage(0.1)},
                {testing::collective(Collective::allgather, gathered), testing::collective(Collective::allreduce, reduced)}});
  }
  Cluster c = testing::uniform_cluster(2, kSend, kRecv, kAlpha, kBeta);
  c.network.collectives[static_cast<std::size_t>(Collective::allgather)] = CollectiveCurve{1e-3, 0, 0, 1e-5, 0};
  c.network.collectives[static_cast<std::size_t>(Collective::allreduce)] = CollectiveCurve{2e-3, 0, 0, 1e-5, 0};
  return Model(p, c);
}

// A gather of 8 bytes per row (a distributed vector gathered whole) is
// priced at the largest share of the new distribution: 15 rows, 120 bytes,
// 1e-3 + 1e-5 * 120 s; the allreduce keeps its instrumented 80 bytes,
// 2e-3 + 1e-5 * 80 s. Rank 0 computes 0.1 * 15 / 10 s.
TEST(Collectives, AGatherOfTheRowsFollowsTheLargestShare) {
  const Prediction p = gather_model(80, 80).predict(std::vector<std::int64_t>{15, 5});
  const double gather = 1e-3 + 1e-5 * 120;
  const double reduce = 2e-3 + 1e-5 * 80;
  EXPECT_NEAR(p.iteration_s, 0.15 + gather + reduce, 1e-12);
  EXPECT_NEAR(p.ranks[1].comm_s, gather + reduce, 1e-12);
  EXPECT_NEAR(p.ranks[1].wait_s, 0.15 - 0.05, 1e-12);
  // The instrumented distribution costs what was instrumented.
  EXPECT_NEAR(gather_model(80, 80).predict(std::vector<std::int64_t>{10, 10}).iteration_s,
              0.1 + 1e-3 + 1e-5 * 80 + reduce, 1e-12);
}

// 12 bytes from 10 rows is no whole number of bytes per row: the gather
// keeps its instrumented bytes, whatever the distribution.
TEST(Collectives, AGatherOfOtherDataKeepsItsBytes) {
  const Prediction p = gather_model(12, 8).predict(std::vector<std::int64_t>{15, 5});
  EXPECT_NEAR(p.iteration_s, 0.15 + (1e-3 + 1e-5 * 12) + (2e-3 + 1e-5 * 8), 1e-12);
}

// A chain 0 - 1 - 2 exchanging halos with both neighbours.
Profile chain_profile(const double (&compute)[3]) {
  Profile p = testing::empty_profile({100, 100, 100});
  for (int r = 0; r < 3; ++r) {
    Section s{{compute_stage(compute[r])}, {}};
    if (r > 0) s.comm.push_back(send_to(r - 1, kBytes));
    if (r < 2) s.comm.push_back(send_to(r + 1, kBytes));
    if (r > 0) s.comm.push_back(recv_from(r - 1, kBytes));
    if (r < 2) s.comm.push_back(recv_from(r + 1, kBytes));
    p.ranks[static_cast<std::size_t>(r)].sections.push_back(s);
  }
  return p;
}

TEST(EmptyRanks, NeighboursExchangeAcrossAnEmptyRankAsEq3) {
  const Model model(chain_profile({0.4, 0.1, 0.2}), testing::uniform_cluster(3, kSend, kRecv, kAlpha, kBeta));
  const Prediction p = model.first_iteration(std::vector<std::int64_t>{150, 0, 150});
  EXPECT_EQ(p.ranks[1].total_s, 0.0);
  const double t0 = 0.4 * 1.5;
  const double t2 = 0.2 * 1.5;
  // Ranks 0 and 2 now form the two-rank exchange of Eq 3.
  const double wait2 = std::max(0.0, t0 + kSendQ + kTransfer - (t2 + kSendQ));
  EXPECT_DOUBLE_EQ(p.ranks[2].wait_s, wait2);
  EXPECT_DOUBLE_EQ(p.ranks[2].total_s, t2 + kSendQ + wait2 + kRecv);
  EXPECT_DOUBLE_EQ(p.ranks[0].total_s, t0 + kSendQ + kRecv);
}

TEST(EmptyRanks, ReroutingFollowsTheEmptySetFromOneEvaluationToTheNext) {
  const Model model(chain_profile({0.4, 0.1, 0.2}), testing::uniform_cluster(3, kSend, kRecv, kAlpha, kBeta));
  Workspace ws(model);
  const std::vector<std::int64_t> middle_empty{150, 0, 150};
  const std::vector<std::int64_t> last_empty{150, 150, 0};
  const std::vector<std::int64_t> none_empty{100, 100, 100};
  for (const auto* rows : {&middle_empty, &last_empty, &none_empty, &middle_empty}) {
    EXPECT_DOUBLE_EQ(model.iteration_seconds(*rows, ws), model.predict(*rows).iteration_s);
  }
  // With rank 2 empty, 0 and 1 exchange: rank 1 (0.15 s) waits for rank 0 (0.6 s).
  const Prediction p = model.first_iteration(last_empty);
  EXPECT_DOUBLE_EQ(p.ranks[1].wait_s, 0.6 + kSendQ + kTransfer - (0.15 + kSendQ));
}

TEST(LinkCosts, PerPairExceptionsOverrideTheDefault) {
  Cluster c = testing::uniform_cluster(2, kSend, kRecv, kAlpha, kBeta);
  c.network.pairs.push_back(LinkException{0, 1, Link{0.01, 1e-5}});
  const Model model(exchange_profile(0.5, 0.3), c);
  const Prediction p = model.first_iteration(std::vector<std::int64_t>{100, 100});
  // Rank 0's bytes leave on the slower pair link (its gap), rank 1's on the
  // default one.
  EXPECT_DOUBLE_EQ(p.ranks[1].wait_s, 0.5 + kSend + 1e-5 * kBytes + 0.01 - (0.3 + kSendQ));
}

// A link with a measured curve prices the message from it, not from its
// line: rank 0's 1000 B to rank 1 take 1 ms at 8 B and 5 ms at 4096 B,
// 1 + 4 * 992/4088 ms at 1000 B; of that, 1 ms (the curve at no bytes)
// arrives after the sender's gap, the rest is the gap.
TEST(LinkCosts, ACurvePricesTheMessageFromItsPoints) {
  Cluster c = testing::uniform_cluster(2, kSend, kRecv, kAlpha, kBeta);
  Link curved{0.5, 1.0};  // a line far off, so that using it would show
  curved.set_curve(std::vector<LinkPoint>{{8, 1e-3}, {4096, 5e-3}});
  c.network.pairs.push_back(LinkException{0, 1, curved});
  const Model model(exchange_profile(0.5, 0.3), c);
  const Prediction p = model.first_iteration(std::vector<std::int64_t>{100, 100});
  const double one_way = 1e-3 + 4e-3 * 992.0 / 4088.0;
  // Eq 3 with T_{0->1}(q) from the curve: rank 1 waits for rank 0's send
  // (its O-> plus the whole one-way time) beyond its own compute and O->(q).
  EXPECT_DOUBLE_EQ(p.ranks[1].wait_s, 0.5 + kSend + one_way - (0.3 + kSendQ));
  // Rank 0 pays the curve's gap in its send: O-> + (one_way - 1 ms).
  EXPECT_DOUBLE_EQ(p.ranks[0].comm_s, kSend + (one_way - 1e-3) + kRecv);
}

}  // namespace
}  // namespace mheta::model
