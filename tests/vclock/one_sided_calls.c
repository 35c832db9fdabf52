/* One-sided synchronization beyond the fence, which the virtual clock
 * follows (docs/emulation.md, "One-sided synchronization"), one mode each:
 *
 *   one_sided_calls pscw       rank 0 posts to every other rank; each origin
 *                              computes 20 + 10 r ms, puts a block into
 *                              rank 0's window and completes; rank 0 waits
 *   one_sided_calls pscw_test  the same, rank 0 polling MPI_Win_test (with
 *                              sleeps between, which are no compute)
 *   one_sided_calls pscw_late  rank 0 computes 50 ms before it posts; the
 *                              origins put and complete at once: their
 *                              blocks go once the post has reached them
 *   one_sided_calls passive    each origin locks rank 0's window, puts and
 *                              unlocks; then in a lock_all epoch puts and
 *                              flushes, puts and flushes locally, unlocks all
 *   one_sided_calls atomics    each origin locks rank 0's window: a fetch-and-op
 *                              on a counter, a compare-and-swap, a
 *                              get-accumulate, each flushed; an
 *                              rget-accumulate, ended by the unlock
 *
 * Arguments: the mode, the network's latency L (s) and bandwidth B (bytes/s);
 * a block is kBlock bytes, N / B on the link. The window's contents go to
 * stdout from rank 0 (the same with and without the interposer); the
 * virtual times to check go to stderr as name=value with the value worked
 * out by hand from the network, as expected_name=value. Compute is burnt
 * CPU time, which the virtual clock counts exactly (tests/common/cpu_work.h).
 */
#define _POSIX_C_SOURCE 199309L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/common/cpu_work.h"

enum { kBlock = 100000, kMaxRanks = 64 };

typedef struct {
  MPI_Win win;
  unsigned char* base;
  MPI_Group origins; /* every rank but 0 */
  MPI_Group target;  /* rank 0 */
} Window;

/* A window of one block per rank on every rank; the clocks meet in a
 * barrier so that the figures start together. */
static Window open_window(int size) {
  Window w;
  MPI_Win_allocate((MPI_Aint)size * kBlock, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w.base, &w.win);
  memset(w.base, 0, (size_t)size * kBlock);
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  const int zero = 0;
  MPI_Group_excl(world, 1, &zero, &w.origins);
  MPI_Group_incl(world, 1, &zero, &w.target);
  MPI_Group_free(&world);
  MPI_Barrier(MPI_COMM_WORLD);
  return w;
}

/* Rank 0 prints a checksum of its window, read in an epoch of its own. */
static void close_window(Window* w, const char* mode, int rank, int size) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w->win);
    unsigned long sum = 0;
    for (long i = 0; i < (long)size * kBlock; ++i) sum = sum * 31 + w->base[i];
    MPI_Win_unlock(0, w->win);
    printf("%s: window checksum %lu\n", mode, sum);
  }
  MPI_Group_free(&w->origins);
  MPI_Group_free(&w->target);
  MPI_Win_free(&w->win);
}

static unsigned char* block_of(int rank, int round) {
  unsigned char* block = malloc(kBlock);
  for (int i = 0; i < kBlock; ++i) block[i] = (unsigned char)(rank * 7 + round * 13 + i);
  return block;
}

static void put_block(const unsigned char* block, int rank, MPI_Win win) {
  MPI_Put(block, kBlock, MPI_BYTE, 0, (MPI_Aint)rank * kBlock, kBlock, MPI_BYTE, win);
}

/* The origins' figures, `n` each, gathered on rank 0 (row r: rank r's). */
static void gather(const double* mine, int n, double* all) {
  MPI_Gather(mine, n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

static void figure(const char* name, int r, double value, double expected) {
  if (r >= 0) {
    fprintf(stderr, "%s_r%d_s=%.9f expected_%s_r%d_s=%.9f\n", name, r, value, name, r, expected);
  } else {
    fprintf(stderr, "%s_s=%.9f expected_%s_s=%.9f\n", name, value, name, expected);
  }
}

/* An origin's access epoch ends once its block has left its link (N / B
 * after the put: the post came long before); rank 0's exposure epoch once
 * the last origin's completion has reached it, L later, its block having
 * arrived with it: the latest origin's entry into MPI_Win_complete + N / B + L.
 * Late: every origin's epoch ends at rank 0's post + L, rank 0's L later. */
static void pscw(int rank, int size, double latency, double bandwidth, int poll, int late, const char* mode) {
  Window w = open_window(size);
  unsigned char* block = block_of(rank, 0);
  double mine[2] = {0, 0}; /* an origin's entry into MPI_Win_complete and its exit */
  double posted = 0, ended = 0;
  if (rank == 0) {
    if (late) compute_for(0.05);
    posted = MPI_Wtime();
    MPI_Win_post(w.origins, 0, w.win);
    if (poll) {
      int flag = 0;
      const struct timespec pause = {0, 1000000};
      for (;;) {
        MPI_Win_test(w.win, &flag);
        if (flag) break;
        nanosleep(&pause, NULL);
      }
    } else {
      MPI_Win_wait(w.win);
    }
    ended = MPI_Wtime();
  } else {
    MPI_Win_start(w.target, 0, w.win);
    if (!late) compute_for(0.02 + 0.01 * rank);
    put_block(block, rank, w.win);
    mine[0] = MPI_Wtime();
    MPI_Win_complete(w.win);
    mine[1] = MPI_Wtime();
  }
  double all[2 * kMaxRanks];
  gather(mine, 2, all);
  if (rank == 0) {
    const double transfer = kBlock / bandwidth;
    double last_entry = 0;
    for (int r = 1; r < size; ++r) {
      const double entered = all[2 * r], left = all[2 * r + 1];
      if (entered > last_entry) last_entry = entered;
      if (late) {
        figure("late_complete_after_post", r, left - posted, latency + transfer);
      } else {
        figure("complete", r, left - entered, transfer);
      }
    }
    if (late) {
      figure("late_wait_after_post", -1, ended - posted, 2 * latency + transfer);
    } else {
      figure(poll ? "test_after_last_complete" : "wait_after_last_complete", -1, ended - last_entry,
             transfer + latency);
    }
  }
  free(block);
  close_window(&w, mode, rank, size);
}

/* The target takes no part: each origin's unlock and flush end once its
 * block has arrived (L + N / B after the put), a local flush once it has
 * left (N / B), and the unlock_all after it once that block has arrived
 * (L more). MPI_Win_sync costs nothing. */
static void passive(int rank, int size, double latency, double bandwidth) {
  Window w = open_window(size);
  double mine[4] = {0, 0, 0, 0};
  if (rank != 0) {
    unsigned char* block = block_of(rank, 1);
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w.win);
    compute_for(0.01);
    put_block(block, rank, w.win);
    double t = MPI_Wtime();
    MPI_Win_unlock(0, w.win);
    mine[0] = MPI_Wtime() - t;
    MPI_Win_lock_all(0, w.win);
    MPI_Win_sync(w.win);
    put_block(block, rank, w.win);
    t = MPI_Wtime();
    MPI_Win_flush(0, w.win);
    mine[1] = MPI_Wtime() - t;
    free(block);
    block = block_of(rank, 2);
    put_block(block, rank, w.win);
    t = MPI_Wtime();
    MPI_Win_flush_local(0, w.win);
    mine[2] = MPI_Wtime() - t;
    t = MPI_Wtime();
    MPI_Win_unlock_all(w.win);
    mine[3] = MPI_Wtime() - t;
    free(block);
  }
  double all[4 * kMaxRanks];
  gather(mine, 4, all);
  if (rank == 0) {
    const double transfer = kBlock / bandwidth;
    for (int r = 1; r < size; ++r) {
      figure("unlock", r, all[4 * r], latency + transfer);
      figure("flush", r, all[4 * r + 1], latency + transfer);
      figure("flush_local", r, all[4 * r + 2], transfer);
      figure("unlock_all_after_flush_local", r, all[4 * r + 3], latency);
    }
  }
  close_window(&w, "passive", rank, size);
}

/* The atomic transfers, each alone in flight to rank 0: a flush (or the
 * unlock) ends once what went and what comes back have crossed the link,
 * L + (sent + returned) / B after it. Each origin adds 1 to a counter in
 * rank 0's block, swaps its own block's first value in, then adds a block
 * of ints to the rest of its own block twice: the window's contents are the
 * same whatever the order the origins come in. */
static void atomics(int rank, int size, double latency, double bandwidth) {
  Window w = open_window(size);
  enum { kHead = 64, kInts = (kBlock - kHead) / (int)sizeof(int) };
  const double block_bytes = (double)kInts * sizeof(int);
  double mine[4] = {0, 0, 0, 0};
  if (rank != 0) {
    const MPI_Aint own = (MPI_Aint)rank * kBlock;
    int* adds = malloc(sizeof(int) * kInts);
    int* before = malloc(sizeof(int) * kInts);
    for (int i = 0; i < kInts; ++i) adds[i] = rank + i % 97;
    const long one = 1, swap_in = rank + 1, compare = 0;
    long old = 0, found = 0; /* what came back: not printed, as it depends on the order */
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w.win);
    MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, w.win);
    double t = MPI_Wtime();
    MPI_Win_flush(0, w.win);
    mine[0] = MPI_Wtime() - t;
    MPI_Compare_and_swap(&swap_in, &compare, &found, MPI_LONG, 0, own, w.win);
    t = MPI_Wtime();
    MPI_Win_flush(0, w.win);
    mine[1] = MPI_Wtime() - t;
    MPI_Get_accumulate(adds, kInts, MPI_INT, before, kInts, MPI_INT, 0, own + kHead, kInts, MPI_INT, MPI_SUM, w.win);
    t = MPI_Wtime();
    MPI_Win_flush(0, w.win);
    mine[2] = MPI_Wtime() - t;
    MPI_Request request;
    MPI_Rget_accumulate(adds, kInts, MPI_INT, before, kInts, MPI_INT, 0, own + kHead, kInts, MPI_INT, MPI_SUM, w.win,
                        &request);
    t = MPI_Wtime();
    MPI_Win_unlock(0, w.win);
    mine[3] = MPI_Wtime() - t;
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    free(adds);
    free(before);
  }
  double all[4 * kMaxRanks];
  gather(mine, 4, all);
  if (rank == 0) {
    const double word = sizeof(long);
    for (int r = 1; r < size; ++r) {
      figure("fetch_and_op_flush", r, all[4 * r], latency + 2 * word / bandwidth);
      figure("compare_and_swap_flush", r, all[4 * r + 1], latency + 3 * word / bandwidth);
      figure("get_accumulate_flush", r, all[4 * r + 2], latency + 2 * block_bytes / bandwidth);
      figure("rget_accumulate_unlock", r, all[4 * r + 3], latency + 2 * block_bytes / bandwidth);
    }
  }
  close_window(&w, "atomics", rank, size);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 4 || size < 2 || size > kMaxRanks) {
    if (rank == 0)
      fprintf(stderr, "usage: one_sided_calls pscw|pscw_test|pscw_late|passive|atomics LATENCY_S BANDWIDTH_BPS\n");
    MPI_Finalize();
    return 2;
  }
  const char* mode = argv[1];
  const double latency = atof(argv[2]), bandwidth = atof(argv[3]);
  int rc = 0;
  if (strcmp(mode, "pscw") == 0) {
    pscw(rank, size, latency, bandwidth, 0, 0, mode);
  } else if (strcmp(mode, "pscw_test") == 0) {
    pscw(rank, size, latency, bandwidth, 1, 0, mode);
  } else if (strcmp(mode, "pscw_late") == 0) {
    pscw(rank, size, latency, bandwidth, 0, 1, mode);
  } else if (strcmp(mode, "passive") == 0) {
    passive(rank, size, latency, bandwidth);
  } else if (strcmp(mode, "atomics") == 0) {
    atomics(rank, size, latency, bandwidth);
  } else {
    if (rank == 0) fprintf(stderr, "unknown mode %s\n", mode);
    rc = 2;
  }
  MPI_Finalize();
  return rc;
}
