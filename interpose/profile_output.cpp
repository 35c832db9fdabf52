#include "interpose/profile_output.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>

namespace mheta::interpose {

namespace {

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

// What the program was told it may use (MHETA_MEMORY_BYTES, the budget io/
// sizes its ICLAs with), else the node's physical memory.
std::uint64_t memory_budget() {
  if (const char* m = std::getenv("MHETA_MEMORY_BYTES")) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(m, &end, 10);
    if (end != m && *end == '\0' && v > 0) return v;
  }
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

std::string program_name() {
  std::ifstream cmdline("/proc/self/cmdline");
  std::string first;
  std::getline(cmdline, first, '\0');
  return first;
}

void warn(const std::string& message) { std::fprintf(stderr, "mheta interpose: %s\n", message.c_str()); }

}  // namespace

bool gather_and_write_profile(MPI_Comm comm, RankRecord record, const Settings& settings) {
  int rank = 0;
  int size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  record.host = host_name();
  record.memory_budget_bytes = memory_budget();
  const std::string text = rank_record_to_json(record).dump();
  int length = static_cast<int>(text.size());
  std::vector<int> lengths(rank == 0 ? static_cast<std::size_t>(size) : 0);
  PMPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
  std::vector<int> displacements(lengths.size());
  std::string all;
  if (rank == 0) {
    std::size_t total = 0;
    for (std::size_t i = 0; i < lengths.size(); ++i) {
      displacements[i] = static_cast<int>(total);
      total += static_cast<std::size_t>(lengths[i]);
    }
    all.resize(total);
  }
  PMPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), displacements.data(), MPI_CHAR, 0, comm);
  int ok = 0;
  if (rank == 0) {
    try {
      std::vector<RankRecord> records;
      bool complete = true;
      for (int r = 0; r < size; ++r) {
        records.push_back(rank_record_from_json(
            model::Json::parse(all.substr(static_cast<std::size_t>(displacements[static_cast<std::size_t>(r)]),
                                          static_cast<std::size_t>(lengths[static_cast<std::size_t>(r)])))));
        complete = complete && records.back().complete;
      }
      if (!complete) {
        warn(
            "the run ended before every rank captured a whole iteration; no profile written (see docs/interpose.md, "
            "\"Which iteration\")");
      } else {
        std::vector<std::string> warnings;
        const model::Profile profile =
            assemble_profile(records, {program_name(), settings.global_rows, settings.dist_path}, warnings);
        for (const std::string& w : warnings) warn(w);
        model::write_profile(settings.profile_path, profile);
        ok = 1;
      }
    } catch (const std::exception& error) {
      warn(std::string("cannot write the profile ") + settings.profile_path + ": " + error.what());
    }
  }
  PMPI_Bcast(&ok, 1, MPI_INT, 0, comm);
  return ok != 0;
}

}  // namespace mheta::interpose
