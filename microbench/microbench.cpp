#include "microbench/microbench.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "microbench/budget.hpp"
#include "microbench/cluster_report.hpp"
#include "microbench/memory_probe.hpp"
#include "microbench/quiet_wait.hpp"
#include <mheta/interposer.h>

namespace mheta::microbench {

namespace {

std::vector<std::string> gather_strings(const std::string& mine, int rank, int size, MPI_Comm comm) {
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(size));
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
  std::vector<int> displs(static_cast<std::size_t>(size), 0);
  for (int r = 1; rank == 0 && r < size; ++r) {
    displs[static_cast<std::size_t>(r)] =
        displs[static_cast<std::size_t>(r) - 1] + lengths[static_cast<std::size_t>(r) - 1];
  }
  std::string all(rank == 0 ? static_cast<std::size_t>(displs.back() + lengths.back()) : 0, '\0');
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), displs.data(), MPI_CHAR, 0, comm);
  std::vector<std::string> out;
  for (int r = 0; rank == 0 && r < size; ++r) {
    out.push_back(all.substr(static_cast<std::size_t>(displs[static_cast<std::size_t>(r)]),
                             static_cast<std::size_t>(lengths[static_cast<std::size_t>(r)])));
  }
  return out;
}

}  // namespace

std::string output_problem(const std::filesystem::path& path) {
  std::error_code error;
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  if (path.empty()) return "no output file given";
  if (std::filesystem::is_directory(path, error)) return path.string() + " is a directory, not a file";
  if (!std::filesystem::is_directory(dir, error)) return "the directory " + dir.string() + " does not exist";
  if (access(dir.c_str(), W_OK) != 0)
    return "the directory " + dir.string() + " is not writable: " + std::strerror(errno);
  if (std::filesystem::exists(path, error) && access(path.c_str(), W_OK) != 0) {
    return path.string() + " is not writable: " + std::strerror(errno);
  }
  return "";
}

bool writable_directory(const std::filesystem::path& dir) {
  std::error_code error;
  return std::filesystem::is_directory(dir, error) && access(dir.c_str(), W_OK | X_OK) == 0;
}

model::Json run_microbench(const Options& options, MPI_Comm comm) {
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);

  char name[MPI_MAX_PROCESSOR_NAME];
  int name_length = 0;
  MPI_Get_processor_name(name, &name_length);
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int ranks_on_node = 1;
  MPI_Comm_size(node, &ranks_on_node);
  MPI_Comm_free(&node);
  const MemoryProbe memory = probe_memory(ranks_on_node);

  Measurements m;
  m.names = gather_strings(std::string(name, static_cast<std::size_t>(name_length)), rank, size, comm);
  m.memory_sources = gather_strings(memory.source, rank, size, comm);
  m.memory_bytes.resize(rank == 0 ? static_cast<std::size_t>(size) : 0);
  const auto mine = static_cast<unsigned long long>(memory.bytes);
  MPI_Gather(&mine, 1, MPI_UNSIGNED_LONG_LONG, m.memory_bytes.data(), 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  // The rates the figures below are measured at (an emulated node's
  // factors, 1 on the machine itself): the unit profiles record theirs in.
  double slowdown[2] = {1, 1};
  mheta_slowdown(&slowdown[0], &slowdown[1]);
  std::vector<double> slowdowns(rank == 0 ? 2 * static_cast<std::size_t>(size) : 0);
  MPI_Gather(slowdown, 2, MPI_DOUBLE, slowdowns.data(), 2, MPI_DOUBLE, 0, comm);
  for (std::size_t r = 0; r + 1 < slowdowns.size(); r += 2) m.slowdowns.push_back({slowdowns[r], slowdowns[r + 1]});

  const bool progress = options.progress == "always" || (options.progress == "auto" && isatty(STDERR_FILENO) == 1);
  Budget budget(options.budget_s, comm, progress);
  // The disk first: a bad --disk-dir is reported before the budget is spent.
  budget.begin_phase("disk", kDiskPhaseEnd);
  m.disk_setup = disk_setup(options);
  probe_disks(options, budget, comm, m.disks);
  m.phase_end_s.emplace_back("disk", budget.elapsed());
  budget.begin_phase("cpu", kCpuPhaseEnd);
  m.cpu = probe_cpu(options, budget, comm);
  m.phase_end_s.emplace_back("cpu", budget.elapsed());
  budget.begin_phase("ping-pong", kNetworkPhaseEnd);
  m.network = probe_network(options, budget, comm);
  m.phase_end_s.emplace_back("ping-pong", budget.elapsed());
  budget.begin_phase("collectives", kCollectivePhaseEnd);
  m.collectives = probe_collectives(options, budget, comm);
  m.elapsed_s = budget.elapsed();
  m.phase_end_s.emplace_back("collectives", m.elapsed_s);
  budget.finish_progress();
  if (rank != 0) return model::Json();
  return cluster_report(options, m);
}

std::optional<model::Cluster> measure_cluster(const Options& options, MPI_Comm comm) {
  const model::Json document = run_microbench(options, comm);
  if (document.is_null()) return std::nullopt;
  // The report is the model's cluster format: read it back with every check
  // cluster.json gets.
  return model::parse_cluster(document.dump(), "the quick characterization");
}

}  // namespace mheta::microbench
