#include "apps/iteration_report.hpp"

#include <mheta/marks.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace mheta::apps {

void IterationReport::describe(const io::SweepSettings& settings, const std::vector<const io::IclaArray*>& arrays,
                               std::int64_t rows) {
  nlohmann::json variables = nlohmann::json::array();
  for (const io::IclaArray* a : arrays) {
    const io::IclaArray& array = *a;
    variables.push_back({{"name", array.array().shape().variable},
                         {"bytes_per_row", array.array().bytes_per_row()},
                         {"rows", array.array().local_rows()},
                         {"in_core", array.in_core()},
                         {"icla_rows", array.plan().icla_rows},
                         {"chunks", array.chunk_count()}});
  }
  rank_line_ = {{"rows", rows},
                {"budget_bytes", settings.budget_bytes},
                {"budget_source", settings.budget_source},
                {"force_out_of_core", settings.force_out_of_core},
                {"prefetch", settings.prefetch},
                {"variables", variables}};
}

void IterationReport::begin_iteration() {
  counters_at_start_ = io::io_counters();
  started_ = MPI_Wtime();
}

void IterationReport::end_iteration() {
  seconds_.push_back(MPI_Wtime() - started_);
  io_.push_back(io::io_counters() - counters_at_start_);
  mheta_mark_iteration();
}

namespace {

// Flat numbers per iteration, so one MPI_Gather carries them.
constexpr int kFields = 9;

std::vector<double> flatten(const std::vector<double>& seconds, const std::vector<io::IoCounters>& io) {
  std::vector<double> flat;
  for (std::size_t k = 0; k < seconds.size(); ++k) {
    const io::IoCounters& c = io[k];
    flat.insert(flat.end(), {seconds[k], double(c.reads), double(c.read_bytes), double(c.writes), double(c.write_bytes),
                             c.read_seconds, c.write_seconds, c.wait_seconds, c.issue_seconds});
  }
  return flat;
}

}  // namespace

void IterationReport::print(MPI_Comm comm) const {
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::vector<double> flat = flatten(seconds_, io_);
  const int count = static_cast<int>(flat.size());
  std::vector<double> all(rank == 0 ? flat.size() * static_cast<std::size_t>(size) : 0);
  MPI_Gather(flat.data(), count, MPI_DOUBLE, all.data(), count, MPI_DOUBLE, 0, comm);
  const std::string text = rank_line_.dump();
  const int length = static_cast<int>(text.size());
  std::vector<int> lengths(static_cast<std::size_t>(size));
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
  std::vector<int> offsets(static_cast<std::size_t>(size), 0);
  for (int r = 1; r < size; ++r) offsets[r] = offsets[r - 1] + lengths[r - 1];
  std::string texts(rank == 0 ? static_cast<std::size_t>(offsets.back() + lengths.back()) : 0, '\0');
  MPI_Gatherv(text.data(), length, MPI_CHAR, texts.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, comm);
  if (rank != 0) return;
  const std::size_t iterations = seconds_.size();
  auto field = [&](int r, std::size_t k, int f) {
    return all[(static_cast<std::size_t>(r) * iterations + k) * kFields + static_cast<std::size_t>(f)];
  };
  for (std::size_t k = 0; k < iterations; ++k) {
    double slowest = 0;
    for (int r = 0; r < size; ++r) slowest = std::max(slowest, field(r, k, 0));
    std::cout << nlohmann::json{{"mheta", "iteration"}, {"index", k}, {"seconds", slowest}}.dump() << '\n';
  }
  for (int r = 0; r < size; ++r) {
    nlohmann::json line = {{"mheta", "rank"}, {"rank", r}};
    line.update(nlohmann::json::parse(
        texts.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r]))));
    nlohmann::json per_iteration = nlohmann::json::array();
    for (std::size_t k = 0; k < iterations; ++k) {
      per_iteration.push_back({{"seconds", field(r, k, 0)},
                               {"reads", std::int64_t(field(r, k, 1))},
                               {"read_bytes", std::int64_t(field(r, k, 2))},
                               {"writes", std::int64_t(field(r, k, 3))},
                               {"write_bytes", std::int64_t(field(r, k, 4))},
                               {"read_seconds", field(r, k, 5)},
                               {"write_seconds", field(r, k, 6)},
                               {"wait_seconds", field(r, k, 7)},
                               {"issue_seconds", field(r, k, 8)}});
    }
    line["iterations"] = per_iteration;
    std::cout << line.dump() << '\n';
  }
  std::cout.flush();
}

void print_result(MPI_Comm comm, const std::string& app, bool pass, const nlohmann::json& detail) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank != 0) return;
  nlohmann::json line = {{"mheta", "result"}, {"app", app}, {"check", pass ? "PASS" : "FAIL"}};
  line.update(detail);
  std::cout << line.dump() << '\n' << app << ": " << (pass ? "PASS" : "FAIL") << " " << detail.dump() << std::endl;
}

}  // namespace mheta::apps
