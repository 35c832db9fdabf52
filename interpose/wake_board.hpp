#pragma once
// Ranks of one node asleep in a wait (MHETA_WAIT=sleep), and the way another
// rank of the node wakes one: a word a rank, in memory the node's ranks
// share (MPI_Win_allocate_shared on a private communicator of the node),
// slept on and woken with a futex.
//
// Why: a passive target answers a lock or an unlock only while it is inside
// an MPI call that makes progress. Asleep in a long wait, it answers at its
// next poll, 100-180 us later on a virtual machine (a program in which one
// rank reads another's words one lock, get and unlock at a time while the
// other waits in a barrier, as a Coarray Fortran runtime does, ran 230x
// slower than without the interposer). The rank that locks, flushes or
// unlocks wakes its target first; the target then polls without sleeping
// for a while (sleep_wait.cpp), for the next request.
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <vector>

namespace mheta::interpose {

class WakeBoard {
 public:
  // Collective over MPI_COMM_WORLD (PMPI calls only). Without shared memory
  // the board stays closed and sleeps are plain ones.
  void open();
  // Collective over MPI_COMM_WORLD, once every rank has stopped waiting.
  void close();
  bool is_open() const { return mine_ != nullptr; }
  // Sleeps `seconds` unless woken first; whether it was woken.
  bool sleep(double seconds);
  // Wakes rank `world_rank` if it is asleep on this node.
  void wake(int world_rank);
  // Wakes the target `rank` of `win` (a rank of its group), or every rank
  // of its group.
  void wake_target(MPI_Win win, int rank, bool every_rank);

 private:
  MPI_Comm node_ = MPI_COMM_NULL;
  MPI_Win win_ = MPI_WIN_NULL;
  MPI_Group world_group_ = MPI_GROUP_NULL;
  std::atomic<std::uint32_t>* mine_ = nullptr;
  std::vector<std::atomic<std::uint32_t>*> by_world_;  // nullptr: another node's rank
  std::vector<std::atomic<std::uint32_t>*> others_;    // the node's other ranks'
};

WakeBoard& wake_board();

}  // namespace mheta::interpose
