#include "synthetic_program.hpp"

namespace mheta::bench {

model::Profile jacobi_like_profile(int ranks, std::int64_t rows_per_rank, int sections) {
  using model::CommKind;
  model::Profile p;
  p.program = "synthetic jacobi";
  p.iterations = 100;
  p.distribution.rows.assign(static_cast<std::size_t>(ranks), rows_per_rank);
  p.variables = {{"A", 8192, model::Access::read_write}, {"B", 8192, model::Access::read_write}};
  for (int r = 0; r < ranks; ++r) {
    model::RankProfile rank;
    rank.memory_budget_bytes = 1 << 20;
    const std::int64_t bytes = rows_per_rank * 8192;
    for (int s = 0; s < sections; ++s) {
      model::Section section;
      model::Stage stage{1e-3 * (1 + r % 3), {}};
      stage.io.push_back({0, {4, bytes / sections, 1e-3}, {}, false, 0});
      stage.io.push_back({1, {}, {4, bytes / sections, 2e-3}, false, 0});
      section.stages.push_back(stage);
      if (r > 0) section.comm.push_back({CommKind::send, r - 1, 8192, s, model::Collective::barrier, -1});
      if (r + 1 < ranks) section.comm.push_back({CommKind::send, r + 1, 8192, s, model::Collective::barrier, -1});
      if (r > 0) section.comm.push_back({CommKind::recv, r - 1, 8192, s, model::Collective::barrier, -1});
      if (r + 1 < ranks) section.comm.push_back({CommKind::recv, r + 1, 8192, s, model::Collective::barrier, -1});
      if (s + 1 == sections) section.comm.push_back({CommKind::collective, -1, 8, 0, model::Collective::allreduce, -1});
      rank.sections.push_back(section);
    }
    p.ranks.push_back(rank);
  }
  return p;
}

model::Cluster mixed_cluster(int ranks) {
  model::Cluster c;
  for (int r = 0; r < ranks; ++r) {
    const bool small = r % 4 == 3;
    c.nodes.push_back({"n" + std::to_string(r), small ? (1u << 20) : (1u << 30), 1.0 + (r % 3) * 0.5,
                       {1e-3, 1e-3, 1e-4, 1e-8, 1.5e-8}, std::nullopt});
  }
  c.network.send_overhead_s = 5e-6;
  c.network.recv_overhead_s = 5e-6;
  c.network.default_link = {5e-5, 1e-8};
  c.network.collectives[static_cast<std::size_t>(model::Collective::allreduce)] = model::CollectiveCurve{2e-5, 3e-5};
  return c;
}

}  // namespace mheta::bench
