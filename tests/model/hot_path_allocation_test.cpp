// The model's evaluation must not allocate once its Workspace is warm:
// search evaluates millions of distributions. Counts every operator new.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "model/model.hpp"
#include "model_fixture.hpp"

namespace {
std::atomic<long> allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace mheta::model {
namespace {

// Evaluates `dists` once to warm `ws`, then 100 times and every rank's busy
// time at 0-40 rows, counting the allocations of the second part.
void expect_no_allocations(const Model& model, Workspace& ws, const std::vector<std::vector<std::int64_t>>& dists) {
  for (const auto& d : dists) model.iteration_seconds(d, ws);  // warm up
  const long before = allocations.load();
  double sum = 0;
  for (int repeat = 0; repeat < 100; ++repeat) {
    for (const auto& d : dists) sum += model.iteration_seconds(d, ws);
  }
  for (int rank = 0; rank < model.ranks(); ++rank) {
    for (std::int64_t rows = 0; rows <= 40; rows += 5) sum += model.rank_busy_seconds(rank, 0, rows);
  }
  EXPECT_EQ(allocations.load() - before, 0);
  EXPECT_GT(sum, 0);
}

// Four ranks sweeping an out-of-core array, exchanging halos with their
// neighbours, then an allreduce.
Profile halo_profile() {
  Profile p = testing::empty_profile({10, 10, 10, 10});
  p.variables = {Variable{"A", 100, Access::read_write}};
  for (int r = 0; r < 4; ++r) {
    Stage stage = testing::compute_stage(0.1);
    stage.io.push_back(StageIo{0, IoStats{1, 1000, 1e-3}, IoStats{1, 1000, 1e-3}, false, 0});
    Section s{{stage}, {}};
    if (r > 0) s.comm.push_back(testing::send_to(r - 1, 100));
    if (r < 3) s.comm.push_back(testing::send_to(r + 1, 100));
    if (r > 0) s.comm.push_back(testing::recv_from(r - 1, 100));
    if (r < 3) s.comm.push_back(testing::recv_from(r + 1, 100));
    s.comm.push_back(testing::collective(Collective::allreduce, 8));
    p.ranks[static_cast<std::size_t>(r)].sections.push_back(s);
  }
  return p;
}

const std::vector<std::vector<std::int64_t>> kHaloDistributions = {
    {10, 10, 10, 10}, {40, 0, 0, 0}, {5, 0, 20, 15}, {0, 20, 0, 20}, {1, 2, 3, 34}};

TEST(HotPath, EvaluationAndBusyTimeAllocateNothingOnceTheWorkspaceIsWarm) {
  Cluster c = testing::uniform_cluster(4, 1e-6, 1e-6, 1e-5, 1e-9);
  for (Node& n : c.nodes) n.memory_bytes = 1500;
  const Model model(halo_profile(), c);
  Workspace ws(model);
  expect_no_allocations(model, ws, kHaloDistributions);
}

// Links with measured curves, copied and interpolated when the messages of
// empty ranks are rerouted, allocate nothing either.
TEST(HotPath, LinkCurvesAllocateNothing) {
  Cluster c = testing::uniform_cluster(4, 1e-6, 1e-6, 1e-5, 1e-9);
  for (Node& n : c.nodes) n.memory_bytes = 1500;
  const std::vector<LinkPoint> points{{8, 1e-5}, {64, 1.2e-5}, {512, 2e-5}, {4096, 6e-5}};
  c.network.default_link.set_curve(points);
  Link slow{1e-4, 1e-8};
  slow.set_curve(points);
  c.network.pairs.push_back(LinkException{0, 2, slow});
  const Model model(halo_profile(), c);
  Workspace ws(model);
  expect_no_allocations(model, ws, kHaloDistributions);
  const long before = allocations.load();
  const Link copy = c.network.link(0, 2);
  EXPECT_EQ(allocations.load() - before, 0);
  EXPECT_DOUBLE_EQ(copy.seconds(288), 1.2e-5 + 0.8e-5 * 224.0 / 448.0);
}

// Non-blocking sends: their link and completions are replayed, and the
// own time finds each completed send's end, without allocating.
TEST(HotPath, NonblockingSendsAllocateNothing) {
  Profile p = testing::empty_profile({10, 10, 10, 10});
  for (int r = 0; r < 4; ++r) {
    Section post{{testing::compute_stage(0.01)}, {}};
    for (int peer : {r - 1, r + 1}) {
      if (peer < 0 || peer > 3) continue;
      CommOp send = testing::send_to(peer, 1000);
      send.nonblocking = true;
      send.completed_section = 1;  // the wait after the interior's compute, before the receives
      send.completed_comm = 0;
      post.comm.push_back(send);
    }
    Section wait{{testing::compute_stage(0.1)}, {}};
    if (r > 0) wait.comm.push_back(testing::recv_from(r - 1, 1000));
    if (r < 3) wait.comm.push_back(testing::recv_from(r + 1, 1000));
    p.ranks[static_cast<std::size_t>(r)].sections = {post, wait};
  }
  const Model model(p, testing::uniform_cluster(4, 1e-6, 1e-6, 1e-5, 1e-4));
  Workspace ws(model);
  expect_no_allocations(model, ws, {{10, 10, 10, 10}, {40, 0, 0, 0}, {5, 0, 20, 15}, {1, 2, 3, 34}});
}

TEST(HotPath, APipelinesPaceAllocatesNothing) {
  Profile p = testing::empty_profile({10, 10, 10, 10});
  for (int r = 0; r < 4; ++r) {
    Section s{{testing::compute_stage(0.1)}, {}};
    if (r > 0) s.comm.push_back(testing::recv_from(r - 1, 100));
    if (r < 3) s.comm.push_back(testing::send_to(r + 1, 100));
    p.ranks[static_cast<std::size_t>(r)].sections.push_back(s);
  }
  const Model model(p, testing::uniform_cluster(4, 1e-6, 1e-6, 1e-5, 1e-9));
  Workspace ws(model);
  model.predict(std::vector<std::int64_t>{10, 10, 10, 10}, ws);
  const std::vector<std::vector<std::int64_t>> moves = {{5, 15, 10, 10}, {10, 10, 0, 20}, {10, 0, 20, 10},
                                                        {12, 10, 10, 8}};
  for (const auto& d : moves) model.iteration_seconds(d, ws);  // warm up: the routings of the empty ranks
  const long before = allocations.load();
  double sum = 0;
  for (int repeat = 0; repeat < 100; ++repeat) {
    for (const auto& d : moves) sum += model.iteration_seconds(d, ws);
  }
  EXPECT_EQ(allocations.load() - before, 0);
  EXPECT_GT(sum, 0);
}

}  // namespace
}  // namespace mheta::model
