#pragma once
// The machine's own network, for a virtual clock whose emulation names none:
// a short ping-pong between ranks 0 and 1 at MPI_Init (docs/emulation.md).
#include <mpi.h>

#include "interpose/emulated_network.hpp"

namespace mheta::interpose {

// Collective over `comm` (a private communicator: the program's messages
// cannot match). Ranks 0 and 1 measure, every rank gets the result: the
// latency is half the fastest round trip of 8 bytes, the bandwidth that of
// 1 MiB beyond the latency (the fastest: a shared machine only adds waits). One rank: no network (zero latency, unlimited
// bandwidth).
Link measure_network(MPI_Comm comm);

}  // namespace mheta::interpose
