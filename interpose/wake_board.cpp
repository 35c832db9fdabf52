#include "interpose/wake_board.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <ctime>
#include <new>

#include "interpose/clock.hpp"

namespace mheta::interpose {

namespace {

// A rank's word, alone on its cache line so that one rank's sleeps do not
// slow its neighbours' reads.
constexpr MPI_Aint kSlotBytes = 64;
constexpr std::uint32_t kAwake = 0;
constexpr std::uint32_t kAsleep = 1;

static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t) &&
              std::atomic<std::uint32_t>::is_always_lock_free);

// Not FUTEX_PRIVATE: the word is in memory other processes map.
long futex(std::atomic<std::uint32_t>* word, int op, std::uint32_t value, const timespec* timeout) {
  return syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(word), op, value, timeout, nullptr, 0);
}

}  // namespace

void WakeBoard::open() {
  if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node_) != MPI_SUCCESS) {
    node_ = MPI_COMM_NULL;
    return;
  }
  // Without shared memory the board stays closed: never the program stopped.
  PMPI_Comm_set_errhandler(node_, MPI_ERRORS_RETURN);
  void* base = nullptr;
  if (PMPI_Win_allocate_shared(kSlotBytes, 1, MPI_INFO_NULL, node_, &base, &win_) != MPI_SUCCESS) {
    win_ = MPI_WIN_NULL;
    return;
  }
  // Each rank's word is made by that rank, before any rank reads another's.
  auto* mine = new (base) std::atomic<std::uint32_t>(kAwake);
  int size = 0, world_size = 0;
  PMPI_Comm_size(node_, &size);
  PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
  MPI_Group node_group = MPI_GROUP_NULL;
  PMPI_Comm_group(node_, &node_group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world_group_);
  std::vector<int> local(static_cast<std::size_t>(size)), world(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) local[static_cast<std::size_t>(r)] = r;
  PMPI_Group_translate_ranks(node_group, size, local.data(), world_group_, world.data());
  PMPI_Group_free(&node_group);
  PMPI_Barrier(node_);
  by_world_.assign(static_cast<std::size_t>(world_size), nullptr);
  for (int r = 0; r < size; ++r) {
    MPI_Aint bytes = 0;
    int unit = 0;
    void* slot = nullptr;
    if (PMPI_Win_shared_query(win_, r, &bytes, &unit, &slot) != MPI_SUCCESS || bytes < kSlotBytes) continue;
    const int w = world[static_cast<std::size_t>(r)];
    if (w >= 0 && w < world_size) {
      auto* word = std::launder(static_cast<std::atomic<std::uint32_t>*>(slot));
      by_world_[static_cast<std::size_t>(w)] = word;
      if (word != mine) others_.push_back(word);
    }
  }
  mine_ = mine;
}

void WakeBoard::close() {
  if (node_ == MPI_COMM_NULL) return;
  mine_ = nullptr;
  by_world_.clear();
  others_.clear();
  if (world_group_ != MPI_GROUP_NULL) PMPI_Group_free(&world_group_);
  if (win_ != MPI_WIN_NULL) PMPI_Win_free(&win_);
  PMPI_Comm_free(&node_);
}

bool WakeBoard::sleep(double seconds) {
  if (mine_ == nullptr) {
    sleep_s(seconds);
    return false;
  }
  mine_->store(kAsleep, std::memory_order_seq_cst);
  const double whole = std::floor(seconds);
  const timespec timeout{static_cast<time_t>(whole), static_cast<long>((seconds - whole) * 1e9)};
  // A wake between the store and the wait finds the word changed: the
  // wait returns at once.
  futex(mine_, FUTEX_WAIT, kAsleep, &timeout);
  return mine_->exchange(kAwake, std::memory_order_seq_cst) == kAwake;
}

void WakeBoard::wake(int world_rank) {
  if (world_rank < 0 || static_cast<std::size_t>(world_rank) >= by_world_.size()) return;
  std::atomic<std::uint32_t>* word = by_world_[static_cast<std::size_t>(world_rank)];
  if (word == nullptr || word == mine_ || word->load(std::memory_order_relaxed) != kAsleep) return;
  if (word->exchange(kAwake, std::memory_order_seq_cst) == kAsleep) futex(word, FUTEX_WAKE, 1, nullptr);
}

void WakeBoard::wake_target(MPI_Win win, int rank, bool every_rank) {
  if (mine_ == nullptr || win == MPI_WIN_NULL) return;
  // The node's words first (a few loads): the window's group is looked up
  // only when some rank of the node sleeps.
  const auto asleep = [](const std::atomic<std::uint32_t>* w) { return w->load(std::memory_order_relaxed) == kAsleep; };
  if (std::none_of(others_.begin(), others_.end(), asleep)) return;
  MPI_Group group = MPI_GROUP_NULL;
  if (PMPI_Win_get_group(win, &group) != MPI_SUCCESS) return;
  int size = 0;
  PMPI_Group_size(group, &size);
  std::vector<int> ranks;
  if (every_rank) {
    for (int r = 0; r < size; ++r) ranks.push_back(r);
  } else if (rank >= 0 && rank < size) {
    ranks.push_back(rank);
  }
  std::vector<int> world(ranks.size(), MPI_UNDEFINED);
  if (!ranks.empty()) {
    PMPI_Group_translate_ranks(group, static_cast<int>(ranks.size()), ranks.data(), world_group_, world.data());
  }
  PMPI_Group_free(&group);
  for (const int w : world) wake(w);
}

WakeBoard& wake_board() {
  static WakeBoard* board = new WakeBoard;  // never destroyed: used during exit
  return *board;
}

}  // namespace mheta::interpose
