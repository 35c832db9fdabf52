// Inputs the model refuses, with a message that says why.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/model.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

std::string error_of(const Profile& p, const Cluster& c) {
  try {
    Model model(p, c);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "";
}

Profile two_ranks() {
  Profile p = testing::empty_profile({5, 5});
  for (auto& r : p.ranks) r.sections.push_back(Section{{testing::compute_stage(0.1)}, {}});
  return p;
}

TEST(ModelErrors, ClusterWithAnotherRankCount) {
  EXPECT_NE(error_of(two_ranks(), testing::uniform_cluster(3, 0, 0, 0, 0)).find("3 nodes"), std::string::npos);
}

TEST(ModelErrors, RankWithoutRowsWhenInstrumented) {
  Profile p = two_ranks();
  p.distribution.rows = {10, 0};
  EXPECT_NE(error_of(p, testing::uniform_cluster(2, 0, 0, 0, 0)).find("rank 1 owned no rows"), std::string::npos);
}

TEST(ModelErrors, SendWithoutReceive) {
  Profile p = two_ranks();
  p.ranks[0].sections[0].comm.push_back(testing::send_to(1, 8, 4));
  const std::string error = error_of(p, testing::uniform_cluster(2, 0, 0, 0, 0));
  EXPECT_NE(error.find("rank 0 section 0: sends to rank 1 (tag 4)"), std::string::npos) << error;
}

TEST(ModelErrors, CollectivesInDifferentOrders) {
  Profile p = two_ranks();
  p.ranks[0].sections[0].comm.push_back(testing::collective(Collective::allreduce, 8));
  p.ranks[1].sections[0].comm.push_back(testing::collective(Collective::bcast, 8));
  EXPECT_NE(error_of(p, testing::uniform_cluster(2, 0, 0, 0, 0)).find("same collectives"), std::string::npos);
}

TEST(ModelErrors, CollectiveWithoutCostCurve) {
  Profile p = two_ranks();
  for (auto& r : p.ranks) r.sections[0].comm.push_back(testing::collective(Collective::alltoall, 8));
  Cluster c = testing::uniform_cluster(2, 0, 0, 0, 0);
  c.network.collectives = {};
  EXPECT_NE(error_of(p, c).find("no cost curve for alltoall"), std::string::npos);
}

TEST(ModelErrors, ReceivesInACycleDeadlock) {
  Profile p = two_ranks();
  // Both receive before sending: a real program would hang too.
  p.ranks[0].sections[0].comm = {testing::recv_from(1, 8), testing::send_to(1, 8)};
  p.ranks[1].sections[0].comm = {testing::recv_from(0, 8), testing::send_to(0, 8)};
  EXPECT_NE(error_of(p, testing::uniform_cluster(2, 0, 0, 0, 0)).find("deadlocks"), std::string::npos);
}

TEST(ModelErrors, SynchronousSendsCompletedBeforeTheirReceivesDeadlock) {
  Profile p = two_ranks();
  // Each completes its Issend (which needs the other's receive) before it
  // receives: the message names the receiver the handshake waits for.
  for (int me = 0; me < 2; ++me) {
    CommOp send = testing::send_to(1 - me, 8);
    send.nonblocking = true;
    send.synchronous = true;
    send.completed_section = 0;
    send.completed_comm = 1;
    p.ranks[static_cast<std::size_t>(me)].sections[0].comm = {send, testing::recv_from(1 - me, 8)};
  }
  const std::string error = error_of(p, testing::uniform_cluster(2, 0, 0, 0, 0));
  EXPECT_NE(error.find("rank 0 section 0 waits for a synchronous send's receiver, rank 1, to reach its receive"),
            std::string::npos)
      << error;
}

TEST(ModelErrors, DistributionOfTheWrongShape) {
  const Model model(two_ranks(), testing::uniform_cluster(2, 0, 0, 0, 0));
  Workspace ws(model);
  EXPECT_THROW(model.iteration_seconds(std::vector<std::int64_t>{5, 5, 0}, ws), std::invalid_argument);
  EXPECT_THROW(model.iteration_seconds(std::vector<std::int64_t>{5, 6}, ws), std::invalid_argument);
  EXPECT_THROW(model.iteration_seconds(std::vector<std::int64_t>{11, -1}, ws), std::invalid_argument);
}

}  // namespace
}  // namespace mheta::model
