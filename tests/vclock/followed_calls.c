/* The calls the virtual clock follows beyond sends, receives and the
 * collectives (docs/emulation.md, "Virtual time"), one mode each:
 *
 *   followed_calls mprobe   MPI_Mprobe + MPI_Mrecv, MPI_Improbe + MPI_Imrecv
 *   followed_calls ssend    MPI_Ssend and MPI_Issend to a receive posted late
 *   followed_calls pcoll    a persistent MPI_Allreduce_init started 3 times
 *   followed_calls idup     a message on a communicator from MPI_Comm_idup
 *   followed_calls isendrecv  MPI-4's MPI_Isendrecv around a ring
 *   followed_calls fromgroup  messages on communicators from MPI-4's
 *                           MPI_Comm_create_from_group, MPI_Intercomm_create_from_groups
 *   followed_calls largecount  MPI-4's large-count calls: MPI_Send_c to
 *                           MPI_Recv_c, MPI_Isend_c to MPI_Irecv_c, and an
 *                           MPI_Allreduce_c of the ranks' clocks
 *   followed_calls fence    puts around a ring between MPI_Win_fence calls
 *   followed_calls vcollc   MPI-4's large-count v- and w-collectives
 *                           (MPI_Gatherv_c, ..., MPI_Alltoallw_c; blocking,
 *                           non-blocking and persistent), each after
 *                           compute that differs from rank to rank
 *
 * The program's results go to stdout (the same with and without the
 * interposer); the virtual times to check go to stderr as name=value, with
 * the value they should have on a network of latency L (given in seconds as
 * the second argument), as expected_name=value. Compute is burnt CPU time,
 * which the virtual clock counts exactly (tests/common/cpu_work.h).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/common/cpu_work.h"

/* Unsigned: the sum wraps around instead of overflowing. */
static unsigned long checksum(const int* values, int n) {
  unsigned long sum = 0;
  for (int i = 0; i < n; ++i) sum = sum * 31 + (unsigned long)values[i];
  return sum;
}

enum { kCount = 256 };

static void fill(int* values, int seed) {
  for (int i = 0; i < kCount; ++i) values[i] = seed * 1000 + i;
}

/* Rank 0 sends two messages 20 ms of compute apart; rank 1 matches the
 * first with MPI_Mprobe, the second by polling MPI_Improbe. Each arrives L
 * after it was sent. */
static void mprobe(int rank, double latency) {
  int data[kCount];
  if (rank == 0) {
    double sent[2];
    compute_for(0.02);
    sent[0] = MPI_Wtime();
    fill(data, 1);
    MPI_Send(data, kCount, MPI_INT, 1, 5, MPI_COMM_WORLD);
    compute_for(0.02);
    sent[1] = MPI_Wtime();
    fill(data, 2);
    MPI_Send(data, kCount, MPI_INT, 1, 6, MPI_COMM_WORLD);
    MPI_Send(sent, 2, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Message message;
    MPI_Status status;
    double arrived[2];
    double sent[2];
    MPI_Mprobe(0, 5, MPI_COMM_WORLD, &message, &status);
    MPI_Mrecv(data, kCount, MPI_INT, &message, MPI_STATUS_IGNORE);
    arrived[0] = MPI_Wtime();
    printf("mprobe: tag %d checksum %lu\n", status.MPI_TAG, checksum(data, kCount));
    int flag = 0;
    while (!flag) MPI_Improbe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &message, &status);
    MPI_Request request;
    MPI_Imrecv(data, kCount, MPI_INT, &message, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    arrived[1] = MPI_Wtime();
    printf("improbe: tag %d checksum %lu\n", status.MPI_TAG, checksum(data, kCount));
    MPI_Recv(sent, 2, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    fprintf(stderr, "mprobe_delay_s=%.9f expected_mprobe_delay_s=%.9f\n", arrived[0] - sent[0], latency);
    fprintf(stderr, "improbe_delay_s=%.9f expected_improbe_delay_s=%.9f\n", arrived[1] - sent[1], latency);
  }
}

/* Rank 1 computes 30 ms before each receive; rank 0's synchronous sends,
 * posted at once, complete when the receive was posted plus L. */
static void ssend(int rank, double latency) {
  int data[kCount];
  if (rank == 0) {
    double posted[2];
    double done[2];
    fill(data, 3);
    MPI_Ssend(data, kCount, MPI_INT, 1, 1, MPI_COMM_WORLD);
    done[0] = MPI_Wtime();
    MPI_Request request;
    fill(data, 4);
    MPI_Issend(data, kCount, MPI_INT, 1, 2, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    done[1] = MPI_Wtime();
    MPI_Recv(posted, 2, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    fprintf(stderr, "ssend_end_s=%.9f expected_ssend_end_s=%.9f\n", done[0], posted[0] + latency);
    fprintf(stderr, "issend_end_s=%.9f expected_issend_end_s=%.9f\n", done[1], posted[1] + latency);
  } else if (rank == 1) {
    double posted[2];
    compute_for(0.03);
    posted[0] = MPI_Wtime();
    MPI_Recv(data, kCount, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("ssend: checksum %lu\n", checksum(data, kCount));
    compute_for(0.03);
    MPI_Request request;
    posted[1] = MPI_Wtime();
    MPI_Irecv(data, kCount, MPI_INT, 0, 2, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    printf("issend: checksum %lu\n", checksum(data, kCount));
    MPI_Send(posted, 2, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD);
  }
}

/* Rank r computes 10 (r + 1) ms before each start of a persistent
 * allreduce: every rank leaves it at the slowest rank's entry (plus the
 * allreduce's cost on the network, k L for k = ceil(log2 P) rounds). */
static void pcoll(int rank, int size, double latency) {
#if MPI_VERSION >= 4
  long value = 0;
  long sum = 0;
  double ends[3];
  double entries[3];
  MPI_Request request;
  MPI_Allreduce_init(&value, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
  for (int round = 0; round < 3; ++round) {
    compute_for(0.01 * (rank + 1));
    value = (long)(rank + 1) * (round + 1);
    entries[round] = MPI_Wtime();
    MPI_Start(&request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    ends[round] = MPI_Wtime();
    if (rank == 0) printf("pcoll round %d: sum %ld\n", round, sum);
  }
  MPI_Request_free(&request);
  double latest_entries[3];
  double first_ends[3];
  double last_ends[3];
  MPI_Reduce(entries, latest_entries, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(ends, first_ends, 3, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(ends, last_ends, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    int rounds = 0;
    while ((1 << rounds) < size) ++rounds;
    for (int round = 0; round < 3; ++round) {
      fprintf(stderr, "pcoll_end_%d_s=%.9f expected_pcoll_end_%d_s=%.9f\n", round, first_ends[round], round,
              latest_entries[round] + rounds * latency);
      fprintf(stderr, "pcoll_last_end_%d_s=%.9f expected_pcoll_last_end_%d_s=%.9f\n", round, last_ends[round],
              round, latest_entries[round] + rounds * latency);
    }
  }
#else
  (void)size;
  (void)latency;
  if (rank == 0) printf("pcoll: no persistent collectives in this MPI\n");
#endif
}

/* World rank 0, 40 ms of compute ahead, sends a message on `comm` to its
 * peer 0 there (world rank 1; on an intercommunicator, the remote group's
 * first), then its send time on MPI_COMM_WORLD: world rank 1 prints the
 * message's checksum and how long after its sending it arrived. */
static void timed_message(MPI_Comm comm, int rank, int tag, const char* name, double latency) {
  int data[kCount];
  if (rank == 0) {
    compute_for(0.04);
    double sent = MPI_Wtime();
    fill(data, tag);
    int inter = 0;
    MPI_Comm_test_inter(comm, &inter);
    MPI_Send(data, kCount, MPI_INT, inter ? 0 : 1, tag, comm);
    MPI_Send(&sent, 1, MPI_DOUBLE, 1, tag + 1, MPI_COMM_WORLD);
  } else if (rank == 1) {
    double sent = 0;
    MPI_Recv(data, kCount, MPI_INT, 0, tag, comm, MPI_STATUS_IGNORE);
    const double arrived = MPI_Wtime();
    MPI_Recv(&sent, 1, MPI_DOUBLE, 0, tag + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("%s: checksum %lu\n", name, checksum(data, kCount));
    fprintf(stderr, "%s_delay_s=%.9f expected_%s_delay_s=%.9f\n", name, arrived - sent, name, latency);
  }
}

/* A message on a communicator duplicated without blocking arrives L after
 * it was sent, though the receiver is 20 ms of compute behind. */
static void idup(int rank, double latency) {
  MPI_Comm dup;
  MPI_Request request;
  MPI_Comm_idup(MPI_COMM_WORLD, &dup, &request);
  compute_for(0.01 * (rank + 1));
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  timed_message(dup, rank, 8, "idup", latency);
  MPI_Comm_free(&dup);
}

/* The same on communicators made from groups (MPI-4): one of every rank,
 * and the intercommunicator between the even and the odd ranks. */
static void fromgroup(int rank, int size, double latency) {
#if MPI_VERSION >= 4
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Comm all;
  MPI_Comm_create_from_group(world, "mheta.followed_calls", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &all);
  timed_message(all, rank, 10, "fromgroup", latency);
  MPI_Comm_free(&all);
  /* Even ranks to odd ones: local rank 0 of each side exchanges. */
  int evens[64], odds[64], n_even = 0, n_odd = 0;
  for (int r = 0; r < size && r < 128; ++r) {
    if (r % 2 == 0) evens[n_even++] = r;
    else odds[n_odd++] = r;
  }
  MPI_Group even_group, odd_group;
  MPI_Group_incl(world, n_even, evens, &even_group);
  MPI_Group_incl(world, n_odd, odds, &odd_group);
  MPI_Comm inter;
  const int even = rank % 2 == 0;
  MPI_Intercomm_create_from_groups(even ? even_group : odd_group, 0, even ? odd_group : even_group, 0,
                                   "mheta.followed_calls.inter", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &inter);
  timed_message(inter, rank, 12, "inter", latency);
  MPI_Comm_free(&inter);
  MPI_Group_free(&even_group);
  MPI_Group_free(&odd_group);
  MPI_Group_free(&world);
#else
  (void)size;
  (void)latency;
  if (rank == 0) printf("fromgroup: no MPI_Comm_create_from_group in this MPI\n");
#endif
}

/* MPI-4's MPI_Isendrecv around a ring: rank r's message leaves after
 * 10 (r + 1) ms of compute and arrives L later. */
static void isendrecv(int rank, int size, double latency) {
#if MPI_VERSION >= 4
  int out[kCount];
  int in[kCount];
  const int next = (rank + 1) % size;
  const int prev = (rank + size - 1) % size;
  compute_for(0.01 * (rank + 1));
  fill(out, rank);
  double sent = MPI_Wtime();
  MPI_Request request;
  MPI_Isendrecv(out, kCount, MPI_INT, next, 14, in, kCount, MPI_INT, prev, 14, MPI_COMM_WORLD, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  const double arrived = MPI_Wtime();
  double prev_sent = 0;
  MPI_Sendrecv(&sent, 1, MPI_DOUBLE, next, 15, &prev_sent, 1, MPI_DOUBLE, prev, 15, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  unsigned long sums[2] = {checksum(in, kCount), 0};
  MPI_Reduce(&sums[0], &sums[1], 1, MPI_UNSIGNED_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("isendrecv: checksum %lu\n", sums[1]);
  /* Rank 0 computed least: its receive waits for rank size-1's message. */
  if (rank == 0) {
    fprintf(stderr, "isendrecv_arrival_s=%.9f expected_isendrecv_arrival_s=%.9f\n", arrived, prev_sent + latency);
  }
#else
  (void)size;
  (void)latency;
  if (rank == 0) printf("isendrecv: not in this MPI\n");
#endif
}

/* MPI-4's large-count twins are followed as their functions are: rank 0
 * sends after 40 ms of compute with MPI_Send_c, rank 1 answers at once with
 * MPI_Isend_c; each message arrives L after it was sent. Then every rank
 * computes 10 ms x (rank + 1) and an MPI_Allreduce_c of the clocks ends no
 * earlier than the latest entry. */
static void largecount(int rank, int size, double latency) {
#if MPI_VERSION >= 4
  int data[kCount];
  if (rank == 0) {
    compute_for(0.04);
    double sent = MPI_Wtime();
    fill(data, 11);
    MPI_Send_c(data, kCount, MPI_INT, 1, 11, MPI_COMM_WORLD);
    MPI_Send_c(&sent, 1, MPI_DOUBLE, 1, 12, MPI_COMM_WORLD);
    double answer_sent = 0;
    MPI_Request request;
    MPI_Irecv_c(data, kCount, MPI_INT, 1, 13, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    const double arrived = MPI_Wtime();
    MPI_Recv_c(&answer_sent, 1, MPI_DOUBLE, 1, 14, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* Rank 1's answer is what it received plus one: one line shows both. */
    printf("largecount: answer checksum %lu\n", checksum(data, kCount));
    fprintf(stderr, "isend_c_delay_s=%.9f expected_isend_c_delay_s=%.9f\n", arrived - answer_sent, latency);
  } else if (rank == 1) {
    double sent = 0;
    MPI_Recv_c(data, kCount, MPI_INT, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const double arrived = MPI_Wtime();
    MPI_Recv_c(&sent, 1, MPI_DOUBLE, 0, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    fprintf(stderr, "send_c_delay_s=%.9f expected_send_c_delay_s=%.9f\n", arrived - sent, latency);
    for (int i = 0; i < kCount; ++i) data[i] += 1;
    double answer_sent = MPI_Wtime();
    MPI_Request request;
    MPI_Isend_c(data, kCount, MPI_INT, 0, 13, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Send_c(&answer_sent, 1, MPI_DOUBLE, 0, 14, MPI_COMM_WORLD);
  }
  compute_for(0.01 * (rank + 1));
  double entered = MPI_Wtime();
  double latest = 0;
  MPI_Allreduce_c(&entered, &latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const double left = MPI_Wtime();
  if (rank == 0) printf("largecount: allreduce over %d ranks\n", size);
  /* Leaving before the latest entry would be negative. */
  fprintf(stderr, "allreduce_c_not_before_latest=%d expected_allreduce_c_not_before_latest=1\n", left >= latest);
#else
  (void)size;
  (void)latency;
  if (rank == 0) printf("largecount: not in this MPI\n");
#endif
}

/* Rank r computes 10 (r + 1) ms, puts its rank into its right neighbour's
 * window and enters a fence: every rank leaves it when the slowest rank's
 * put has arrived (L after its entry: the bandwidth is practically
 * unlimited) plus a barrier's k L (k = ceil(log2 P) rounds), twice. */
static void fence(int rank, int size, double latency) {
  int slot = -1;
  MPI_Win win;
  MPI_Win_create(&slot, sizeof slot, sizeof slot, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  int rounds = 0;
  while ((1 << rounds) < size) ++rounds;
  for (int round = 0; round < 2; ++round) {
    compute_for(0.01 * (rank + 1));
    const int value = rank + 100 * round;
    MPI_Put(&value, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win);
    const double entered = MPI_Wtime();
    MPI_Win_fence(0, win);
    const double left = MPI_Wtime();
    double latest_entry = 0, first_exit = 0, last_exit = 0;
    MPI_Reduce(&entered, &latest_entry, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&left, &first_exit, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&left, &last_exit, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    int sum = 0;
    MPI_Reduce(&slot, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      printf("fence round %d: slots sum %d\n", round, sum);
      fprintf(stderr, "fence_%d_first_exit_s=%.9f expected_fence_%d_first_exit_s=%.9f\n", round,
              first_exit - latest_entry, round, (rounds + 1) * latency);
      fprintf(stderr, "fence_%d_last_exit_s=%.9f expected_fence_%d_last_exit_s=%.9f\n", round,
              last_exit - latest_entry, round, (rounds + 1) * latency);
    }
  }
  MPI_Win_free(&win);
}

#if MPI_VERSION >= 4
enum { kMaxRanks = 64 };

/* One large-count v- or w-collective of followed_calls vcollc: one int
 * from every rank to every rank (or to and from the root), so that its
 * results are the same whatever the timing. */
typedef struct {
  MPI_Count counts[kMaxRanks];
  MPI_Aint displs[kMaxRanks];
  MPI_Aint byte_displs[kMaxRanks];
  MPI_Datatype types[kMaxRanks];
  int out[kMaxRanks];
  int in[kMaxRanks];
} VBuffers;

static void vcollective_c(int which, VBuffers* b, int rank) {
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Request request;
  switch (which) {
    case 0:
      MPI_Gatherv_c(&b->out[0], 1, MPI_INT, b->in, b->counts, b->displs, MPI_INT, 0, w);
      break;
    case 1:
      MPI_Scatterv_c(b->out, b->counts, b->displs, MPI_INT, &b->in[rank], 1, MPI_INT, 0, w);
      break;
    case 2:
      MPI_Allgatherv_c(&b->out[0], 1, MPI_INT, b->in, b->counts, b->displs, MPI_INT, w);
      break;
    case 3:
      MPI_Alltoallv_c(b->out, b->counts, b->displs, MPI_INT, b->in, b->counts, b->displs, MPI_INT, w);
      break;
    case 4:
      MPI_Alltoallw_c(b->out, b->counts, b->byte_displs, b->types, b->in, b->counts, b->byte_displs, b->types, w);
      break;
    case 5:
      MPI_Reduce_scatter_c(b->out, &b->in[rank], b->counts, MPI_INT, MPI_SUM, w);
      break;
    case 6:
      MPI_Ialltoallv_c(b->out, b->counts, b->displs, MPI_INT, b->in, b->counts, b->displs, MPI_INT, w, &request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      break;
    case 7:
      MPI_Ireduce_scatter_c(b->out, &b->in[rank], b->counts, MPI_INT, MPI_SUM, w, &request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      break;
    default:
      MPI_Allgatherv_init_c(&b->out[0], 1, MPI_INT, b->in, b->counts, b->displs, MPI_INT, w, MPI_INFO_NULL, &request);
      MPI_Start(&request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      MPI_Request_free(&request);
      break;
  }
}
#endif

/* MPI-4's large-count v- and w-collectives synchronize the ranks' clocks as
 * their functions do: rank r computes 10 (r + 1) ms before each, and every
 * rank leaves it at the slowest rank's entry plus its cost on the network,
 * k L for a gather, scatter, allgather or reduce_scatter (k = ceil(log2 P)
 * rounds) and (P - 1) L for an alltoall (the bandwidth is practically
 * unlimited). */
static void vcollc(int rank, int size, double latency) {
#if MPI_VERSION >= 4
  static const char* names[] = {"gatherv_c",        "scatterv_c",      "allgatherv_c",
                                "alltoallv_c",      "alltoallw_c",     "reduce_scatter_c",
                                "ialltoallv_c",     "ireduce_scatter_c", "allgatherv_init_c"};
  enum { kCalls = sizeof names / sizeof names[0] };
  if (size > kMaxRanks) {
    if (rank == 0) printf("vcollc: at most %d ranks\n", kMaxRanks);
    return;
  }
  int rounds = 0;
  while ((1 << rounds) < size) ++rounds;
  VBuffers b;
  for (int i = 0; i < size; ++i) {
    b.counts[i] = 1;
    b.displs[i] = i;
    b.byte_displs[i] = (MPI_Aint)(i * sizeof(int));
    b.types[i] = MPI_INT;
  }
  unsigned long results = 0;
  for (int which = 0; which < kCalls; ++which) {
    for (int i = 0; i < size; ++i) {
      b.out[i] = 1000 * which + 100 * rank + i;
      b.in[i] = -1;
    }
    compute_for(0.01 * (rank + 1));
    const double entered = MPI_Wtime();
    vcollective_c(which, &b, rank);
    const double left = MPI_Wtime();
    const int alltoall = which == 3 || which == 4 || which == 6;
    const double cost = (alltoall ? size - 1 : rounds) * latency;
    double latest_entry = 0, first_exit = 0, last_exit = 0;
    MPI_Reduce(&entered, &latest_entry, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&left, &first_exit, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&left, &last_exit, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    unsigned long mine = checksum(b.in, size), all = 0;
    MPI_Reduce(&mine, &all, 1, MPI_UNSIGNED_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    results = results * 7 + all;
    if (rank == 0) {
      fprintf(stderr, "%s_first_exit_s=%.9f expected_%s_first_exit_s=%.9f\n", names[which],
              first_exit - latest_entry, names[which], cost);
      fprintf(stderr, "%s_last_exit_s=%.9f expected_%s_last_exit_s=%.9f\n", names[which], last_exit - latest_entry,
              names[which], cost);
    }
  }
  if (rank == 0) printf("vcollc: %d calls, checksum %lu\n", (int)kCalls, results);
#else
  (void)size;
  (void)latency;
  if (rank == 0) printf("vcollc: not in this MPI\n");
#endif
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "";
  const double latency = argc > 2 ? atof(argv[2]) : 0;
  int status = 0;
  if (size < 2) {
    fprintf(stderr, "followed_calls: needs at least 2 ranks\n");
    status = 2;
  } else if (strcmp(mode, "mprobe") == 0) {
    mprobe(rank, latency);
  } else if (strcmp(mode, "ssend") == 0) {
    ssend(rank, latency);
  } else if (strcmp(mode, "pcoll") == 0) {
    pcoll(rank, size, latency);
  } else if (strcmp(mode, "idup") == 0) {
    idup(rank, latency);
  } else if (strcmp(mode, "isendrecv") == 0) {
    isendrecv(rank, size, latency);
  } else if (strcmp(mode, "fromgroup") == 0) {
    fromgroup(rank, size, latency);
  } else if (strcmp(mode, "largecount") == 0) {
    largecount(rank, size, latency);
  } else if (strcmp(mode, "fence") == 0) {
    fence(rank, size, latency);
  } else if (strcmp(mode, "vcollc") == 0) {
    vcollc(rank, size, latency);
  } else {
    if (rank == 0) {
      fprintf(stderr, "usage: followed_calls mprobe|ssend|pcoll|idup|fromgroup|isendrecv|largecount|fence|vcollc [LATENCY_S]\n");
    }
    status = 2;
  }
  fflush(stdout);
  MPI_Finalize();
  return status;
}
