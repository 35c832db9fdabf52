/* Every way a C program may receive, complete and synchronize that the
 * virtual clock must follow without changing a result: wildcard source and
 * tag receives, Testany/Waitsome/Testall polling loops, persistent requests,
 * Sendrecv, a receive from MPI_PROC_NULL, Probe and Iprobe, non-blocking collectives, MPI-IO (blocking,
 * non-blocking, collective), split and duplicated communicators, and MPI-4's
 * large-count v- and w-collectives and MPI-IO. Only
 * integers are combined, in an order that does not depend on which message
 * arrives first, so rank 0 prints the same lines whatever the timing.
 * Usage: unchanged_c directory [iterations] */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { kMaxCount = 64, kBlock = 256, kResults = 10 };

typedef int64_t i64;

/* Deterministic compute between MPI calls, so the clock has something to count. */
static i64 work(int rank, int it) {
  i64 s = 0;
  for (int i = 0; i < 20000; ++i) s = (s * 31 + (i ^ (rank + 7 * it))) % 1000003;
  return s;
}

static void fill(int* buf, int n, int seed) {
  for (int i = 0; i < n; ++i) buf[i] = (seed * 131 + i * 17) % 9973;
}

static i64 sum(const int* buf, int n) {
  i64 s = 0;
  for (int i = 0; i < n; ++i) s += buf[i];
  return s;
}

/* Every rank but 0 sends rank 0 one message of its own tag and length;
 * rank 0 posts wildcard receives and polls them with Testany. On a
 * communicator of its own, so that no other message can match. */
static i64 wildcard_gather(MPI_Comm comm, int rank, int size, int it) {
  int out[kMaxCount];
  if (rank != 0) {
    const int count = 1 + (rank * 5 + it) % kMaxCount;
    fill(out, count, rank + it);
    MPI_Send(out, count, MPI_INT, 0, 100 + rank + it, comm);
    return 0;
  }
  int in[16][kMaxCount];
  MPI_Request req[16];
  const int n = size - 1;
  for (int i = 0; i < n; ++i) MPI_Irecv(in[i], kMaxCount, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &req[i]);
  i64 s = 0;
  for (int done = 0; done < n;) {
    int index, flag;
    MPI_Status status;
    MPI_Testany(n, req, &index, &flag, &status);
    if (!flag || index == MPI_UNDEFINED) continue;
    int count;
    MPI_Get_count(&status, MPI_INT, &count);
    s += (i64)status.MPI_SOURCE * 1000003 + (i64)status.MPI_TAG * 1009 + count + sum(in[index], count);
    ++done;
  }
  return s;
}

/* A message of a length the receiver learns by Iprobe (polled), then one
 * from any source by a blocking Probe. */
static i64 probed(int rank, int size, int it) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out[kMaxCount], in[kMaxCount];
  const int count = 1 + (rank + it) % 9;
  fill(out, kMaxCount, 3 * rank + it);
  MPI_Request req[2];
  MPI_Isend(out, count, MPI_INT, right, 20, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(out, 2, MPI_INT, left, 21, MPI_COMM_WORLD, &req[1]);
  MPI_Status status;
  int flag = 0;
  while (!flag) MPI_Iprobe(left, 20, MPI_COMM_WORLD, &flag, &status);
  int got;
  MPI_Get_count(&status, MPI_INT, &got);
  MPI_Recv(in, got, MPI_INT, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  i64 s = got * 7 + sum(in, got);
  MPI_Probe(MPI_ANY_SOURCE, 21, MPI_COMM_WORLD, &status);
  MPI_Recv(in, 2, MPI_INT, status.MPI_SOURCE, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  s += status.MPI_SOURCE + sum(in, 2);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  return s;
}

/* Both neighbours, four requests completed by a Waitsome loop. */
static i64 ring_waitsome(int rank, int size, int it) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int to_l[kBlock], to_r[kBlock], from_l[kBlock], from_r[kBlock];
  fill(to_l, kBlock, rank + 2 * it);
  fill(to_r, kBlock, rank + 3 * it);
  MPI_Request req[4];
  MPI_Irecv(from_l, kBlock, MPI_INT, left, 30, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(from_r, kBlock, MPI_INT, right, 31, MPI_COMM_WORLD, &req[1]);
  MPI_Isend(to_r, kBlock, MPI_INT, right, 30, MPI_COMM_WORLD, &req[2]);
  MPI_Isend(to_l, kBlock, MPI_INT, left, 31, MPI_COMM_WORLD, &req[3]);
  for (int remaining = 4; remaining > 0;) {
    int outcount, indices[4];
    MPI_Waitsome(4, req, &outcount, indices, MPI_STATUSES_IGNORE);
    if (outcount != MPI_UNDEFINED) remaining -= outcount;
  }
  return sum(from_l, kBlock) * 3 + sum(from_r, kBlock);
}

/* Persistent requests started every iteration, polled with Testall. */
static i64 persistent(MPI_Request* pair, int* out, const int* in, int rank, int it) {
  fill(out, kBlock, 5 * rank + it);
  MPI_Startall(2, pair);
  for (int flag = 0; !flag;) MPI_Testall(2, pair, &flag, MPI_STATUSES_IGNORE);
  return sum(in, kBlock);
}

static i64 sendrecv(int rank, int size, int it) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out[kBlock], in[kBlock];
  fill(out, kBlock, 11 * rank + it);
  MPI_Sendrecv(out, kBlock, MPI_INT, left, 40, in, kBlock, MPI_INT, right, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return sum(in, kBlock);
}

/* An open chain: each rank receives from the one before it and sends to
 * the one after, the ends from and to MPI_PROC_NULL, whose receive returns
 * at once with the status MPI defines for it (source MPI_PROC_NULL, tag
 * MPI_ANY_TAG, nothing received), which must reach the program as such. */
static i64 open_chain(int rank, int size, int it) {
  const int above = rank > 0 ? rank - 1 : MPI_PROC_NULL, below = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  int block[kBlock];
  fill(block, kBlock, 13 * rank + it);
  MPI_Status status;
  MPI_Recv(block, kBlock, MPI_INT, above, 45, MPI_COMM_WORLD, &status);
  int count = -1;
  MPI_Get_count(&status, MPI_INT, &count);
  MPI_Send(block, kBlock, MPI_INT, below, 45, MPI_COMM_WORLD);
  return sum(block, kBlock) + 1000 * (i64)(status.MPI_SOURCE + 3) + 100 * (i64)(status.MPI_TAG + 3) + count;
}

/* Non-blocking collectives, completed by Wait, Test polling and Waitall. */
static i64 nonblocking_collectives(int rank, int size, int it) {
  long long local = work(rank, it), total = 0;
  int root_value = rank == it % size ? 1000 + it : -1;
  int to_all[16], from_all[16], gathered[16];
  for (int i = 0; i < size; ++i) to_all[i] = rank * 100 + i + it;
  MPI_Request req[4];
  MPI_Iallreduce(&local, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &req[0]);
  MPI_Ibcast(&root_value, 1, MPI_INT, it % size, MPI_COMM_WORLD, &req[1]);
  MPI_Ialltoall(to_all, 1, MPI_INT, from_all, 1, MPI_INT, MPI_COMM_WORLD, &req[2]);
  MPI_Iallgather(&rank, 1, MPI_INT, gathered, 1, MPI_INT, MPI_COMM_WORLD, &req[3]);
  MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  for (int flag = 0; !flag;) MPI_Test(&req[1], &flag, MPI_STATUS_IGNORE);
  MPI_Waitall(2, req + 2, MPI_STATUSES_IGNORE);
  MPI_Request barrier;
  MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
  MPI_Wait(&barrier, MPI_STATUS_IGNORE);
  return total % 1000003 + root_value + sum(from_all, size) * 7 + sum(gathered, size);
}

/* MPI-4's large-count v- and w-collectives, blocking, non-blocking and
 * persistent: rank r sends r + 1 ints to each rank. */
static i64 large_count(int rank, int size, int it) {
#if MPI_VERSION >= 4
  MPI_Count send_counts[16], recv_counts[16];
  MPI_Aint send_displs[16], recv_displs[16], send_bytes[16], recv_bytes[16];
  MPI_Datatype types[16];
  int out[16 * 16], in[16 * 16], reduced[16];
  for (int i = 0; i < size; ++i) {
    send_counts[i] = rank + 1;
    recv_counts[i] = i + 1;
    send_displs[i] = 16 * i;
    recv_displs[i] = 16 * i;
    send_bytes[i] = (MPI_Aint)(16 * i * sizeof(int));
    recv_bytes[i] = (MPI_Aint)(16 * i * sizeof(int));
    types[i] = MPI_INT;
  }
  for (int i = 0; i < 16 * 16; ++i) {
    out[i] = rank * 1000 + i + it;
    in[i] = 0;
  }
  MPI_Alltoallv_c(out, send_counts, send_displs, MPI_INT, in, recv_counts, recv_displs, MPI_INT, MPI_COMM_WORLD);
  i64 s = sum(in, 16 * 16);
  MPI_Alltoallw_c(out, send_counts, send_bytes, types, in, recv_counts, recv_bytes, types, MPI_COMM_WORLD);
  s = s * 3 + sum(in, 16 * 16);
  MPI_Allgatherv_c(out, rank + 1, MPI_INT, in, recv_counts, recv_displs, MPI_INT, MPI_COMM_WORLD);
  s = s * 3 + sum(in, 16 * 16);
  MPI_Count ones[16];
  for (int i = 0; i < size; ++i) ones[i] = 1;
  MPI_Request req[2];
  MPI_Ireduce_scatter_c(out, reduced, ones, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[0]);
  MPI_Igatherv_c(out, rank + 1, MPI_INT, in, recv_counts, recv_displs, MPI_INT, it % size, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  s = s * 3 + reduced[0] + (rank == it % size ? sum(in, 16 * 16) : 0);
  MPI_Request scatter;
  MPI_Scatterv_init_c(out, recv_counts, recv_displs, MPI_INT, in, rank + 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
                      &scatter);
  MPI_Start(&scatter);
  MPI_Wait(&scatter, MPI_STATUS_IGNORE);
  MPI_Request_free(&scatter);
  return s * 3 + sum(in, rank + 1);
#else
  (void)rank;
  (void)size;
  (void)it;
  return 0;
#endif
}

/* Even and odd ranks apart, and a duplicate of each half: a wildcard
 * exchange inside the duplicate and reductions on both. */
static i64 split_and_dup(int rank, int it) {
  MPI_Comm half, twin;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  MPI_Comm_dup(half, &twin);
  int hrank, hsize;
  MPI_Comm_rank(half, &hrank);
  MPI_Comm_size(half, &hsize);
  long long mine = rank + it, half_sum = 0, twin_max = 0;
  MPI_Allreduce(&mine, &half_sum, 1, MPI_LONG_LONG, MPI_SUM, half);
  i64 s = half_sum * 13;
  if (hsize > 1) {
    int out = rank * 1000 + it, in = -1;
    MPI_Status status;
    MPI_Request send;
    MPI_Isend(&out, 1, MPI_INT, (hrank + 1) % hsize, it, twin, &send);
    MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, twin, &status);
    MPI_Wait(&send, MPI_STATUS_IGNORE);
    s += in + status.MPI_SOURCE * 7 + status.MPI_TAG;
  }
  MPI_Request req;
  MPI_Iallreduce(&mine, &twin_max, 1, MPI_LONG_LONG, MPI_MAX, twin, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Comm_free(&twin);
  MPI_Comm_free(&half);
  return s + twin_max;
}

/* A shared file: blocking and non-blocking writes of each rank's block, a
 * sync, a collective read of the next rank's block and a non-blocking read
 * polled with Testany, then collective, non-blocking collective and split
 * collective writes and a split collective read. */
static i64 file_io(const char* dir, int rank, int size, int it) {
  char path[4096];
  snprintf(path, sizeof path, "%s/unchanged_c.bin", dir);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  int a[kBlock], b[kBlock], in[kBlock], in2[kBlock];
  fill(a, kBlock, 17 * rank + it);
  fill(b, kBlock, 19 * rank + it);
  const MPI_Offset stride = (MPI_Offset)sizeof a * 2;
  const MPI_Offset mine = stride * rank, next = stride * ((rank + 1) % size);
  MPI_File_write_at(fh, mine, a, kBlock, MPI_INT, MPI_STATUS_IGNORE);
  MPI_Request req;
  MPI_File_iwrite_at(fh, mine + (MPI_Offset)sizeof a, b, kBlock, MPI_INT, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_File_sync(fh);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_sync(fh);
  MPI_File_read_at_all(fh, next, in, kBlock, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_iread_at(fh, next + (MPI_Offset)sizeof a, in2, kBlock, MPI_INT, &req);
  for (int index = MPI_UNDEFINED, flag = 0; !flag;) MPI_Testany(1, &req, &index, &flag, MPI_STATUS_IGNORE);
  i64 s = sum(in, kBlock) * 5 + sum(in2, kBlock);
  MPI_File_write_at_all(fh, mine, in, kBlock, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_iwrite_at_all(fh, mine + (MPI_Offset)sizeof a, in2, kBlock, MPI_INT, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  /* Split collectives: a write of this rank's block, the next rank's read back. */
  MPI_File_write_at_all_begin(fh, mine, b, kBlock, MPI_INT);
  MPI_File_write_at_all_end(fh, b, MPI_STATUS_IGNORE);
  MPI_File_sync(fh);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_sync(fh);
  MPI_File_read_at_all_begin(fh, next, in, kBlock, MPI_INT);
  MPI_File_read_at_all_end(fh, in, MPI_STATUS_IGNORE);
  s = s * 3 + sum(in, kBlock);
#if MPI_VERSION >= 4
  /* The large-count twins: a collective write, a read back and a
   * non-blocking collective read of the next rank's. */
  MPI_File_write_at_all_c(fh, mine, a, (MPI_Count)kBlock, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_sync(fh);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_sync(fh);
  MPI_File_read_at_c(fh, mine, in, (MPI_Count)kBlock, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_iread_at_all_c(fh, next, in2, (MPI_Count)kBlock, MPI_INT, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  s = s * 3 + sum(in, kBlock) + sum(in2, kBlock);
#endif
  MPI_File_close(&fh);
  return s;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2 || size > 16) {
    if (rank == 0) fprintf(stderr, "usage: unchanged_c directory [iterations], at most 16 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int iterations = argc > 2 ? atoi(argv[2]) : 6;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int pout[kBlock], pin[kBlock];
  MPI_Request pair[2];
  MPI_Send_init(pout, kBlock, MPI_INT, right, 50, MPI_COMM_WORLD, &pair[0]);
  MPI_Recv_init(pin, kBlock, MPI_INT, left, 50, MPI_COMM_WORLD, &pair[1]);
  MPI_Comm wild;
  MPI_Comm_dup(MPI_COMM_WORLD, &wild);
  i64 results[kResults] = {0};
  for (int it = 0; it < iterations; ++it) {
    results[0] += work(rank, it);
    results[1] += wildcard_gather(wild, rank, size, it);
    results[2] += probed(rank, size, it);
    results[3] += ring_waitsome(rank, size, it);
    results[4] += persistent(pair, pout, pin, rank, it);
    results[5] += sendrecv(rank, size, it);
    results[6] += nonblocking_collectives(rank, size, it);
    results[7] += split_and_dup(rank, it);
    results[8] += open_chain(rank, size, it);
    results[9] += large_count(rank, size, it);
  }
  MPI_Request_free(&pair[0]);
  MPI_Request_free(&pair[1]);
  MPI_Comm_free(&wild);
  const i64 io = file_io(argv[1], rank, size, iterations);
  long long mine[kResults + 1], all[16 * (kResults + 1)];
  for (int i = 0; i < kResults; ++i) mine[i] = results[i];
  mine[kResults] = io;
  MPI_Gather(mine, kResults + 1, MPI_LONG_LONG, all, kResults + 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    static const char* names[] = {"work", "wildcard", "probe", "waitsome", "persistent",
                                  "sendrecv", "icollectives", "split_dup", "open_chain", "large_count", "mpi_io"};
    for (int r = 0; r < size; ++r) {
      printf("rank %d", r);
      for (int i = 0; i <= kResults; ++i) printf(" %s=%lld", names[i], all[r * (kResults + 1) + i]);
      printf("\n");
    }
  }
  MPI_Finalize();
  return 0;
}
