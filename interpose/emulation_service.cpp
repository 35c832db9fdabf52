#include "interpose/emulation_service.hpp"

#include <sched.h>

#include <algorithm>

#include "interpose/clock.hpp"
#include "interpose/runtime.hpp"

namespace mheta::interpose {

namespace {

// Ranks sharing this node over the cores this process may run on: with
// more ranks than cores, a CPU factor of at least this much leaves each rank
// the CPU its emulated compute needs (docs/emulation.md). A collective over
// MPI_COMM_WORLD, called from MPI_Init's wrapper on every rank.
double automatic_dilation() {
  MPI_Comm node = MPI_COMM_NULL;
  int ranks = 1;
  if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
    PMPI_Comm_size(node, &ranks);
    PMPI_Comm_free(&node);
  }
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  const int cores = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
  return std::max(1.0, static_cast<double>(ranks) / std::max(1, cores));
}

}  // namespace

void EmulationService::on_start(Runtime& rt) {
  const Emulation& emulation = *rt.settings().emulation;
  emulator_.configure(emulation.for_rank(rt.world_rank(), rt.world_size()),
                      emulation.dilation.value_or(automatic_dilation()), emulation.disk);
}

void EmulationService::before_call(Runtime&, Fn, ComputeSection& section) {
  // Emulated: the section lasts, and counts, its dilated CPU time.
  section.seconds = emulator_.stretch_compute(section.cpu_s, section.wall_s);
}

void EmulationService::value_compute(Runtime&, ComputeSection& section) {
  section.seconds = emulator_.emulated_compute(section.cpu_s);
}

void EmulationService::time_file_io(Runtime&, FileTiming& timing) {
  if (emulator_.emulates_disk()) {
    timing.seconds = emulator_.serve_io(timing.op, timing.bytes, now_s() - timing.wall_s, timing.io_s);
    return;
  }
  timing.seconds = emulator_.stretch_io(timing.io_s, timing.wall_s);
}

}  // namespace mheta::interpose
