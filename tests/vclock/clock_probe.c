/* Workloads whose time under the virtual clock is known in advance, timed by
 * the program itself with MPI_Wtime (which returns virtual time when the
 * clock is on). Rank 0 prints "elapsed_s=<seconds>" and the figure the
 * check compares it with.
 *   clock_probe compute MS ITERATIONS  each iteration computes until the
 *       thread's CPU clock has advanced MS milliseconds, then a barrier;
 *       prints elapsed_s and cpu_s (rank 0's CPU time in those loops)
 *   clock_probe io DIRECTORY ITERATIONS  each iteration writes and reads
 *       back 4 MiB of the rank's own file: I/O and almost nothing else;
 *       prints each rank's virtual time (rankK_elapsed_s) and the real
 *       time the same loop took (rankK_real_s, the machine's clock)
 *   clock_probe io_c DIRECTORY ITERATIONS  the same with MPI-4's
 *       large-count MPI_File_write_at_c and MPI_File_read_at_c
 *   clock_probe io_split DIRECTORY ITERATIONS  the same with split
 *       collective MPI_File_write_at_all_begin/_end and
 *       MPI_File_read_at_all_begin/_end (on MPI_COMM_SELF)
 *   clock_probe io_nb DIRECTORY ITERATIONS  the same with non-blocking
 *       MPI_File_iwrite_at and MPI_File_iread_at, each waited for at once
 *   clock_probe pingpong ROUND_TRIPS BYTES  ranks 0 and 1 exchange a
 *       message of BYTES back and forth; prints the mean round trip
 *   clock_probe fanout BYTES  rank 0 posts an Isend of BYTES to every
 *       other rank at once and waits for all: its link puts them out one
 *       after another; prints elapsed_s (rank 0's) and last_arrival_s (the
 *       latest time a receiver got its message)
 *   clock_probe mixed ITERATIONS  fixed work, a ring exchange and an
 *       allreduce per iteration: prints elapsed_s, the same run after run
 *       under the virtual clock
 *   clock_probe gatherv BYTES  an MPI_Allgatherv in which rank 0 gives
 *       BYTES and every other rank 8: prints each rank's end time
 *       (rankK_end_s) after a barrier at 0
 *   clock_probe calls COUNT  rank 0 makes COUNT MPI_Iprobe calls with
 *       nothing between them: prints per_call_s (the clock's advance per
 *       call) and cpu_read_s (the median CPU time between two back-to-back
 *       readings of the thread's CPU clock, which the interposer reads at
 *       every call)
 *   clock_probe polls nanosleep|usleep PAUSE_US  rank 1 sleeps 0.2 s (no
 *       compute) and sends; rank 0 waits for it in a polling loop, MPI_Test
 *       then a sleep of PAUSE_US: prints elapsed_s (rank 0's wait), polls,
 *       and sleep_cpu_s (the median CPU time one such sleep costs the
 *       thread)
 *   clock_probe status_polls  rank 1 sleeps 0.2 s and sends; rank 0 spins
 *       on MPI_Request_get_status (nothing between the calls) until the
 *       message is there, then waits for it: prints elapsed_s (rank 0's
 *       wait), wall_s (the same on the wall clock), polls
 *   clock_probe work_polls  rank 1 sleeps 0.2 s and sends, then sends
 *       twice more 50 ms apart; rank 0 waits for the first in a loop of
 *       MPI_Test, MPI_Iprobe (of a message never sent) and 20 us of work, then for the other two spinning on
 *       MPI_Testany with nothing between the calls, working 2 ms on each
 *       message it finds: prints sliced_s and sliced_cpu_s (the first wait's
 *       virtual time and its work's CPU time), found_s and found_cpu_s (the
 *       same of the second), received (the three values' sum)
 *   clock_probe cancel  every rank cancels a receive no message matches,
 *       on MPI_COMM_SELF and on MPI_COMM_WORLD: prints rankK_cancelled=1
 *   clock_probe start  each rank's MPI_Wtime as MPI_Init returned
 *       (rankK_start_s) and after a first barrier (rankK_barrier_s)
 *   clock_probe clocks MS ITERATIONS  the loop of `compute`, timed also by
 *       the program's other clocks: prints wtime_s (MPI_Wtime), cpu_s, and
 *       the loop's time by clock_gettime's CLOCK_MONOTONIC, CLOCK_REALTIME
 *       and CLOCK_BOOTTIME, gettimeofday and timespec_get (each <name>_s);
 *       ordered=1 when CLOCK_MONOTONIC read before MPI_Init, after it,
 *       before MPI_Finalize and after it never went back
 *   clock_probe deadlines  rank 0 waits by its clock: clock_nanosleep to
 *       an absolute CLOCK_MONOTONIC deadline 50 ms on (abs_machine_s and
 *       abs_program_s: the wait's time on the machine's clock and on the
 *       program's), then a loop of 1 ms usleeps until gettimeofday passes a
 *       time 50 ms on (loop_machine_s, loop_program_s; loop_ended=0 when
 *       the machine's clock gave up on it after 5 s)
 * Where a check needs the machine's own time it reads the system call,
 * which no library stands between (machine_s). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "tests/common/cpu_work.h"

enum { kIoDoubles = 512 * 1024, kRingDoubles = 8192 };

static double seconds_of(struct timespec t) { return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec; }

static double machine_s(void) {
  struct timespec t;
  syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t);
  return seconds_of(t);
}

static double clock_s(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return seconds_of(t);
}

static double gettimeofday_s(void) {
  struct timeval t;
  gettimeofday(&t, NULL);
  return (double)t.tv_sec + 1e-6 * (double)t.tv_usec;
}

static double timespec_get_s(void) {
  struct timespec t;
  timespec_get(&t, TIME_UTC);
  return seconds_of(t);
}

/* CLOCK_MONOTONIC read before MPI_Init, after it, before MPI_Finalize. */
static double g_before_init_s, g_after_init_s;

enum { kClocks = 6 };

static void read_clocks(double* t) {
  t[0] = MPI_Wtime();
  t[1] = clock_s(CLOCK_MONOTONIC);
  t[2] = clock_s(CLOCK_REALTIME);
  t[3] = clock_s(CLOCK_BOOTTIME);
  t[4] = gettimeofday_s();
  t[5] = timespec_get_s();
}

static int clocks(int rank, double ms, int iterations) {
  static const char* const names[kClocks] = {"wtime", "monotonic", "realtime", "boottime", "gettimeofday",
                                             "timespec_get"};
  double start[kClocks], end[kClocks], cpu = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  read_clocks(start);
  for (int it = 0; it < iterations; ++it) {
    cpu += compute_for(ms * 1e-3);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  read_clocks(end);
  if (rank == 0) {
    for (int c = 0; c < kClocks; ++c) printf("%s_s=%.9f ", names[c], end[c] - start[c]);
    printf("cpu_s=%.9f\n", cpu);
    fflush(stdout);
  }
  return 0;
}

static void fixed_work(double* v, int n, int it) {
  for (int r = 0; r < 40; ++r) {
    for (int i = 0; i < n; ++i) v[i] = 0.5 * v[i] + 0.25 * (double)((i + it + r) % 11);
  }
}

static int compute(int rank, double ms, int iterations) {
  double cpu = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int it = 0; it < iterations; ++it) {
    cpu += compute_for(ms * 1e-3);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  const double elapsed = MPI_Wtime() - start;
  if (rank == 0) printf("elapsed_s=%.9f cpu_s=%.9f\n", elapsed, cpu);
  return 0;
}

enum IoCalls { kBlocking, kLargeCount, kSplit, kNonblocking };

/* One iteration's write and read back: the calls of `io`, their
 * large-count twins, split collectives, or non-blocking calls. */
static void write_and_read(MPI_File fh, double* block, enum IoCalls calls) {
  if (calls == kNonblocking) {
    MPI_Request request;
    MPI_File_iwrite_at(fh, 0, block, kIoDoubles, MPI_DOUBLE, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_File_iread_at(fh, 0, block, kIoDoubles, MPI_DOUBLE, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    return;
  }
  if (calls == kSplit) {
    MPI_File_write_at_all_begin(fh, 0, block, kIoDoubles, MPI_DOUBLE);
    MPI_File_write_at_all_end(fh, block, MPI_STATUS_IGNORE);
    MPI_File_read_at_all_begin(fh, 0, block, kIoDoubles, MPI_DOUBLE);
    MPI_File_read_at_all_end(fh, block, MPI_STATUS_IGNORE);
    return;
  }
#if MPI_VERSION >= 4
  if (calls == kLargeCount) {
    MPI_File_write_at_c(fh, 0, block, (MPI_Count)kIoDoubles, MPI_DOUBLE, MPI_STATUS_IGNORE);
    MPI_File_read_at_c(fh, 0, block, (MPI_Count)kIoDoubles, MPI_DOUBLE, MPI_STATUS_IGNORE);
    return;
  }
#endif
  MPI_File_write_at(fh, 0, block, kIoDoubles, MPI_DOUBLE, MPI_STATUS_IGNORE);
  MPI_File_read_at(fh, 0, block, kIoDoubles, MPI_DOUBLE, MPI_STATUS_IGNORE);
}

static int io(int rank, const char* dir, int iterations, enum IoCalls calls) {
  char path[4096];
  snprintf(path, sizeof path, "%s/clock_probe.%d.bin", dir, rank);
  double* block = calloc(kIoDoubles, sizeof(double));
  MPI_File fh;
  MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  MPI_File_write_at(fh, 0, block, kIoDoubles, MPI_DOUBLE, MPI_STATUS_IGNORE);  // the file exists before timing
  MPI_Barrier(MPI_COMM_WORLD);
  const double real_start = machine_s();
  const double start = MPI_Wtime();
  for (int it = 0; it < iterations; ++it) {
    block[0] = it;
    write_and_read(fh, block, calls);
  }
  const double elapsed = MPI_Wtime() - start;
  const double real = machine_s() - real_start;
  MPI_File_close(&fh);
  free(block);
  // Every rank's own time too: ranks given different disk factors, doing the
  // same I/O at the same moment, are compared within one run.
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double mine[2] = {elapsed, real};
  double* each = calloc(2 * (size_t)size, sizeof(double));
  MPI_Gather(mine, 2, MPI_DOUBLE, each, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("elapsed_s=%.9f", elapsed);
    for (int r = 0; r < size; ++r) printf(" rank%d_elapsed_s=%.9f rank%d_real_s=%.9f", r, each[2 * r], r, each[2 * r + 1]);
    printf("\n");
  }
  free(each);
  return 0;
}

static int pingpong(int rank, int round_trips, int bytes) {
  char* buffer = calloc((size_t)bytes + 1, 1);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int i = 0; i < round_trips && rank < 2; ++i) {
    if (rank == 0) {
      MPI_Send(buffer, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buffer, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buffer, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buffer, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
  }
  const double elapsed = MPI_Wtime() - start;
  free(buffer);
  if (rank == 0) printf("elapsed_s=%.9f round_trip_s=%.9f\n", elapsed, elapsed / round_trips);
  return 0;
}

static int fanout(int rank, int size, int bytes) {
  char* buffer = calloc((size_t)bytes + 1, 1);
  MPI_Request* requests = calloc((size_t)size, sizeof(MPI_Request));
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  double arrival = 0;
  if (rank == 0) {
    for (int peer = 1; peer < size; ++peer) {
      MPI_Isend(buffer, bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &requests[peer - 1]);
    }
    MPI_Waitall(size - 1, requests, MPI_STATUSES_IGNORE);
  } else {
    MPI_Recv(buffer, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    arrival = MPI_Wtime() - start;
  }
  const double elapsed = MPI_Wtime() - start;
  double last = 0;
  MPI_Reduce(&arrival, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  free(requests);
  free(buffer);
  if (rank == 0) printf("elapsed_s=%.9f last_arrival_s=%.9f\n", elapsed, last);
  return 0;
}

static int mixed(int rank, int size, int iterations) {
  double* v = calloc(kRingDoubles, sizeof(double));
  double* in = calloc(kRingDoubles, sizeof(double));
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int it = 0; it < iterations; ++it) {
    fixed_work(v, kRingDoubles, it + rank);
    MPI_Sendrecv(v, kRingDoubles, MPI_DOUBLE, right, 1, in, kRingDoubles, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    double local = in[0], global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    v[1] += global * 1e-9;
  }
  const double elapsed = MPI_Wtime() - start;
  free(v);
  free(in);
  if (rank == 0) printf("elapsed_s=%.9f\n", elapsed);
  return 0;
}

static int gatherv(int rank, int size, int bytes) {
  int* counts = calloc((size_t)size, sizeof(int));
  int* displs = calloc((size_t)size, sizeof(int));
  for (int r = 0, at = 0; r < size; ++r) {
    counts[r] = r == 0 ? bytes : 8;
    displs[r] = at;
    at += counts[r];
  }
  char* all = calloc((size_t)bytes + 8 * (size_t)size, 1);
  char* mine = calloc((size_t)counts[rank], 1);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  MPI_Allgatherv(mine, counts[rank], MPI_BYTE, all, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
  const double end = MPI_Wtime() - start;
  double* ends = calloc((size_t)size, sizeof(double));
  MPI_Gather(&end, 1, MPI_DOUBLE, ends, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int r = 0; r < size; ++r) printf("rank%d_end_s=%.9f ", r, ends[r]);
    printf("\n");
  }
  free(ends);
  free(mine);
  free(all);
  free(displs);
  free(counts);
  return 0;
}

static double thread_cpu(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare_doubles(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static int calls(int rank, int count) {
  if (rank == 0) {
    int flag;
    MPI_Status status;
    const double start = MPI_Wtime();
    for (int i = 0; i < count; ++i) MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_SELF, &flag, &status);
    const double per_call = (MPI_Wtime() - start) / count;
    double reads[63];
    for (int i = 0; i < 63; ++i) {
      const double first = thread_cpu();
      reads[i] = thread_cpu() - first;
    }
    qsort(reads, 63, sizeof reads[0], compare_doubles);
    printf("per_call_s=%.12f cpu_read_s=%.12f\n", per_call, reads[31]);
  }
  return 0;
}

static void pause_for(const char* how, long pause_us) {
  if (strcmp(how, "usleep") == 0) {
    usleep((useconds_t)pause_us);
  } else {
    const struct timespec pause = {0, pause_us * 1000};
    nanosleep(&pause, NULL);
  }
}

/* The median CPU time of `count` calls of `call`. */
static double median_cpu(int count, void (*call)(void*), void* argument) {
  double times[31];
  if (count > 31) count = 31;
  for (int i = 0; i < count; ++i) {
    const double first = thread_cpu();
    call(argument);
    times[i] = thread_cpu() - first;
  }
  qsort(times, (size_t)count, sizeof times[0], compare_doubles);
  return times[count / 2];
}

struct Pause {
  const char* how;
  long us;
};
static void one_pause(void* p) { pause_for(((struct Pause*)p)->how, ((struct Pause*)p)->us); }

/* A receive that no message matches, tested, cancelled and waited for, on
 * MPI_COMM_SELF and on MPI_COMM_WORLD from any source: every rank prints
 * rankK_cancelled=1 when MPI says so. */
static int cancelled(int rank) {
  int value = 0, flag = 0, both = 1;
  MPI_Comm comms[2] = {MPI_COMM_SELF, MPI_COMM_WORLD};
  for (int c = 0; c < 2; ++c) {
    MPI_Request request;
    MPI_Status status;
    MPI_Irecv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 8, comms[c], &request);
    MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    MPI_Cancel(&request);
    MPI_Wait(&request, &status);
    MPI_Test_cancelled(&status, &flag);
    both = both && flag;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank%d_cancelled=%d\n", rank, both);
  return 0;
}

/* After a barrier, rank 1 sleeps 0.2 s (no compute) and sends rank 0 the
 * value 42; rank 0 gets the receive for it posted in `request` and returns
 * 1, the other ranks 0. */
static int message_sent_late(int rank, int* value, MPI_Request* request) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    const struct timespec nap = {0, 200000000};
    nanosleep(&nap, NULL);
    *value = 42;
    MPI_Send(value, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Irecv(value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, request);
    return 1;
  }
  return 0;
}

static int polls(int rank, const char* how, long pause_us) {
  int value = 0;
  MPI_Request request;
  if (message_sent_late(rank, &value, &request)) {
    const double start = MPI_Wtime();
    long count = 0;
    for (int done = 0; !done;) {
      MPI_Test(&request, &done, MPI_STATUS_IGNORE);
      ++count;
      if (!done) pause_for(how, pause_us);
    }
    const double elapsed = MPI_Wtime() - start;
    struct Pause pause = {how, pause_us};
    printf("elapsed_s=%.9f polls=%ld sleep_cpu_s=%.9f received=%d\n", elapsed, count,
           median_cpu(31, one_pause, &pause), value);
  }
  return 0;
}

static int status_polls(int rank) {
  int value = 0;
  MPI_Request request;
  if (message_sent_late(rank, &value, &request)) {
    const double start = MPI_Wtime(), wall_start = machine_s();
    long count = 0;
    for (int done = 0; !done; ++count) MPI_Request_get_status(request, &done, MPI_STATUS_IGNORE);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    printf("elapsed_s=%.9f wall_s=%.9f polls=%ld received=%d\n", MPI_Wtime() - start, machine_s() - wall_start, count,
           value);
  }
  return 0;
}

static int work_polls(int rank) {
  int value = 0, more[2] = {0, 0};
  MPI_Request request;
  const int waits = message_sent_late(rank, &value, &request);
  if (rank == 1) {
    for (int k = 0; k < 2; ++k) {
      const struct timespec nap = {0, 50000000};
      nanosleep(&nap, NULL);
      more[k] = 100 * (k + 1);
      MPI_Send(&more[k], 1, MPI_INT, 0, 8 + k, MPI_COMM_WORLD);
    }
  }
  if (!waits) return 0;
  MPI_Request later[2];
  for (int k = 0; k < 2; ++k) MPI_Irecv(&more[k], 1, MPI_INT, 1, 8 + k, MPI_COMM_WORLD, &later[k]);
  double start = MPI_Wtime(), sliced_cpu = 0;
  for (int done = 0; !done;) {
    int nothing = 0;  // no message has tag 99: two polls, then the work
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    MPI_Iprobe(1, 99, MPI_COMM_WORLD, &nothing, MPI_STATUS_IGNORE);
    if (!done) sliced_cpu += compute_for(20e-6);
  }
  const double sliced = MPI_Wtime() - start;
  start = MPI_Wtime();
  double found_cpu = 0;
  for (int found = 0; found < 2;) {
    int index = MPI_UNDEFINED, flag = 0;
    MPI_Testany(2, later, &index, &flag, MPI_STATUS_IGNORE);
    if (flag && index != MPI_UNDEFINED) {
      found_cpu += compute_for(2e-3);
      ++found;
    }
  }
  printf("sliced_s=%.9f sliced_cpu_s=%.9f found_s=%.9f found_cpu_s=%.9f received=%d\n", sliced, sliced_cpu,
         MPI_Wtime() - start, found_cpu, value + more[0] + more[1]);
  return 0;
}

static double time_of_day_s(void) {
  struct timeval t;
  gettimeofday(&t, NULL);
  return (double)t.tv_sec + 1e-6 * (double)t.tv_usec;
}

static int deadlines(int rank) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    double machine_start = machine_s(), program_start = clock_s(CLOCK_MONOTONIC);
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_nsec += 50000000;
    if (deadline.tv_nsec >= 1000000000) {
      deadline.tv_nsec -= 1000000000;
      ++deadline.tv_sec;
    }
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) != 0) {
    }
    printf("abs_machine_s=%.9f abs_program_s=%.9f\n", machine_s() - machine_start,
           clock_s(CLOCK_MONOTONIC) - program_start);
    machine_start = machine_s();
    program_start = time_of_day_s();
    const double until = program_start + 0.05;
    int ended = 1;
    while (time_of_day_s() < until) {
      if (machine_s() - machine_start > 5) {
        ended = 0;
        break;
      }
      usleep(1000);
    }
    printf("loop_machine_s=%.9f loop_program_s=%.9f loop_ended=%d\n", machine_s() - machine_start,
           time_of_day_s() - program_start, ended);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return 0;
}

// Each rank's time when MPI_Init has returned, read before anything else.
static double init_returned_s;

// The time on every rank's clock as MPI_Init returned, and after a barrier.
static int started(int rank, int size) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double times[2] = {init_returned_s, MPI_Wtime()};
  double* all = calloc(2 * (size_t)size, sizeof(double));
  MPI_Gather(times, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int r = 0; r < size; ++r) printf("rank%d_start_s=%.9f rank%d_barrier_s=%.9f ", r, all[2 * r], r, all[2 * r + 1]);
    printf("\n");
  }
  free(all);
  return 0;
}

int main(int argc, char** argv) {
  g_before_init_s = clock_s(CLOCK_MONOTONIC);
  MPI_Init(&argc, &argv);
  init_returned_s = MPI_Wtime();
  g_after_init_s = clock_s(CLOCK_MONOTONIC);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "";
  int status = 2;
  if (strcmp(mode, "compute") == 0 && argc == 4) {
    status = compute(rank, atof(argv[2]), atoi(argv[3]));
  } else if (strcmp(mode, "io") == 0 && argc == 4) {
    status = io(rank, argv[2], atoi(argv[3]), kBlocking);
  } else if (strcmp(mode, "io_c") == 0 && argc == 4) {
    status = io(rank, argv[2], atoi(argv[3]), kLargeCount);
  } else if (strcmp(mode, "io_split") == 0 && argc == 4) {
    status = io(rank, argv[2], atoi(argv[3]), kSplit);
  } else if (strcmp(mode, "io_nb") == 0 && argc == 4) {
    status = io(rank, argv[2], atoi(argv[3]), kNonblocking);
  } else if (strcmp(mode, "pingpong") == 0 && argc == 4 && size >= 2) {
    status = pingpong(rank, atoi(argv[2]), atoi(argv[3]));
  } else if (strcmp(mode, "fanout") == 0 && argc == 3 && size >= 2) {
    status = fanout(rank, size, atoi(argv[2]));
  } else if (strcmp(mode, "mixed") == 0 && argc == 3) {
    status = mixed(rank, size, atoi(argv[2]));
  } else if (strcmp(mode, "gatherv") == 0 && argc == 3) {
    status = gatherv(rank, size, atoi(argv[2]));
  } else if (strcmp(mode, "calls") == 0 && argc == 3) {
    status = calls(rank, atoi(argv[2]));
  } else if (strcmp(mode, "cancel") == 0 && argc == 2) {
    status = cancelled(rank);
  } else if (strcmp(mode, "status_polls") == 0 && argc == 2 && size >= 2) {
    status = status_polls(rank);
  } else if (strcmp(mode, "work_polls") == 0 && argc == 2 && size >= 2) {
    status = work_polls(rank);
  } else if (strcmp(mode, "polls") == 0 && argc == 4 && size >= 2) {
    status = polls(rank, argv[2], atol(argv[3]));
  } else if (strcmp(mode, "start") == 0 && argc == 2) {
    status = started(rank, size);
  } else if (strcmp(mode, "deadlines") == 0 && argc == 2) {
    status = deadlines(rank);
  } else if (strcmp(mode, "clocks") == 0 && argc == 4) {
    status = clocks(rank, atof(argv[2]), atoi(argv[3]));
  } else if (rank == 0) {
    fprintf(stderr,
            "usage: clock_probe compute MS ITERATIONS | io|io_c|io_split|io_nb DIR ITERATIONS | "
            "pingpong ROUND_TRIPS BYTES (2+ ranks) | fanout BYTES (2+ ranks) | mixed ITERATIONS | "
            "gatherv BYTES | calls COUNT | polls nanosleep|usleep PAUSE_US (2+ ranks) | status_polls (2+ ranks) | "
            "work_polls (2+ ranks) | cancel | start | deadlines | clocks MS ITERATIONS\n");
  }
  const double before_finalize_s = clock_s(CLOCK_MONOTONIC);
  MPI_Finalize();
  const double after_finalize_s = clock_s(CLOCK_MONOTONIC);
  if (strcmp(mode, "clocks") == 0 && rank == 0) {
    printf("ordered=%d\n", g_before_init_s <= g_after_init_s && g_after_init_s <= before_finalize_s &&
                                before_finalize_s <= after_finalize_s);
  }
  return status;
}
