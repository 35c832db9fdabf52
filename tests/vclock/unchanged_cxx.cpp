// The C++ counterpart of unchanged_c.c, written as C++ programs use MPI's C
// interface: std::vector buffers, a Waitany loop over wildcard receives from
// every other rank, Iprobe polling for messages of unknown length, a
// non-blocking reduction polled with Testany, persistent requests completed
// by Waitall, Sendrecv_replace, communicators split by parity and
// duplicated, and non-blocking MPI-IO completed by Waitsome. Rank 0 prints
// one line per rank of integer results that do not depend on timing.
// Usage: unchanged_cxx directory [iterations]
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

namespace {

using Results = std::vector<long long>;

std::vector<int> pattern(int n, int seed) {
  std::vector<int> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = (seed * 37 + i * 11) % 7919;
  return v;
}

long long total(const std::vector<int>& v, int n) { return std::accumulate(v.begin(), v.begin() + n, 0LL); }

long long compute(int rank, int it) {
  long long s = 1;
  for (int i = 0; i < 30000; ++i) s = (s * 17 + (i | (rank + it))) % 999983;
  return s;
}

// All to all by point-to-point: every rank sends every other rank one
// message; each receives them with wildcard source and tag, completed by Waitany.
long long all_to_all_wildcard(MPI_Comm comm, int rank, int size, int it) {
  const int n = size - 1;
  std::vector<std::vector<int>> in(static_cast<std::size_t>(n), std::vector<int>(64));
  std::vector<std::vector<int>> out;
  std::vector<MPI_Request> req(static_cast<std::size_t>(2 * n));
  for (int i = 0; i < n; ++i) {
    MPI_Irecv(in[static_cast<std::size_t>(i)].data(), 64, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm,
              &req[static_cast<std::size_t>(i)]);
  }
  for (int peer = 0, i = 0; peer < size; ++peer) {
    if (peer == rank) continue;
    out.push_back(pattern(1 + (rank + peer + it) % 64, rank * size + peer));
    MPI_Isend(out.back().data(), static_cast<int>(out.back().size()), MPI_INT, peer, rank + 10 * it, comm,
              &req[static_cast<std::size_t>(n + i++)]);
  }
  long long s = 0;
  for (int done = 0; done < 2 * n; ++done) {
    int index = 0;
    MPI_Status status;
    MPI_Waitany(2 * n, req.data(), &index, &status);
    if (index >= n) continue;  // a send
    int count = 0;
    MPI_Get_count(&status, MPI_INT, &count);
    s += status.MPI_SOURCE * 100003LL + status.MPI_TAG * 31LL + total(in[static_cast<std::size_t>(index)], count);
  }
  return s;
}

// A message of unknown length from the left, found by polling Iprobe.
long long unknown_length(int rank, int size, int it) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  const std::vector<int> out = pattern(1 + (3 * rank + it) % 50, rank + it);
  MPI_Request send;
  MPI_Isend(out.data(), static_cast<int>(out.size()), MPI_INT, right, 7, MPI_COMM_WORLD, &send);
  int flag = 0;
  MPI_Status status;
  while (flag == 0) MPI_Iprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &flag, &status);
  int count = 0;
  MPI_Get_count(&status, MPI_INT, &count);
  std::vector<int> in(static_cast<std::size_t>(count));
  MPI_Recv(in.data(), count, MPI_INT, status.MPI_SOURCE, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&send, MPI_STATUS_IGNORE);
  return count * 1000LL + total(in, count) + (status.MPI_SOURCE == left ? 1 : 0);
}

long long reduction_polled(int rank, int it) {
  long long mine = compute(rank, it), sum = 0;
  MPI_Request req;
  MPI_Iallreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &req);
  for (int flag = 0, index = 0; flag == 0;) MPI_Testany(1, &req, &index, &flag, MPI_STATUS_IGNORE);
  return sum;
}

long long replace(int rank, int size, int it) {
  std::vector<int> v = pattern(128, 5 * rank + it);
  MPI_Sendrecv_replace(v.data(), 128, MPI_INT, (rank + 1) % size, 3, (rank + size - 1) % size, 3, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE);
  return total(v, 128);
}

long long halves(int rank, int it) {
  MPI_Comm half;
  MPI_Comm copy;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_dup(half, &copy);
  int hsize = 0;
  MPI_Comm_size(half, &hsize);
  long long mine = rank * 3 + it, in_half = 0, in_copy = 0;
  MPI_Allreduce(&mine, &in_half, 1, MPI_LONG_LONG, MPI_SUM, half);
  int hrank = 0;
  MPI_Comm_rank(copy, &hrank);
  MPI_Request req;
  MPI_Ireduce(&mine, &in_copy, 1, MPI_LONG_LONG, MPI_MAX, 0, copy, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Bcast(&in_copy, 1, MPI_LONG_LONG, 0, copy);
  MPI_Comm_free(&copy);
  MPI_Comm_free(&half);
  return in_half * 7 + in_copy + hsize;
}

// Each rank's own file: non-blocking writes and reads completed by Waitsome.
long long own_file(const std::string& dir, int rank, int it) {
  const std::string path = dir + "/unchanged_cxx." + std::to_string(rank) + ".bin";
  MPI_File fh;
  MPI_File_open(MPI_COMM_SELF, path.c_str(), MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  const std::vector<int> a = pattern(1024, rank + it), b = pattern(1024, rank + 2 * it);
  const MPI_Offset bytes = 1024 * static_cast<MPI_Offset>(sizeof(int));
  MPI_Request req[2];
  MPI_File_iwrite_at(fh, 0, a.data(), 1024, MPI_INT, &req[0]);
  MPI_File_iwrite_at(fh, bytes, b.data(), 1024, MPI_INT, &req[1]);
  for (int remaining = 2; remaining > 0;) {
    int outcount = 0, indices[2];
    MPI_Waitsome(2, req, &outcount, indices, MPI_STATUSES_IGNORE);
    if (outcount != MPI_UNDEFINED) remaining -= outcount;
  }
  std::vector<int> back(2048);
  MPI_File_iread_at(fh, 0, back.data(), 2048, MPI_INT, &req[0]);
  MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
  return total(back, 1024) * 3 + total(back, 2048);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2) {
    if (rank == 0) std::fprintf(stderr, "usage: unchanged_cxx directory [iterations]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 6;
  MPI_Comm wild;
  MPI_Comm_dup(MPI_COMM_WORLD, &wild);
  std::vector<int> pout(256), pin(256);
  MPI_Request pair[2];
  MPI_Send_init(pout.data(), 256, MPI_INT, (rank + size - 1) % size, 9, MPI_COMM_WORLD, &pair[0]);
  MPI_Recv_init(pin.data(), 256, MPI_INT, (rank + 1) % size, 9, MPI_COMM_WORLD, &pair[1]);
  Results r(7, 0);
  for (int it = 0; it < iterations; ++it) {
    r[0] += all_to_all_wildcard(wild, rank, size, it);
    r[1] += unknown_length(rank, size, it);
    r[2] += reduction_polled(rank, it);
    // Into the buffer the persistent send was bound to (assigning a new
    // vector would move another buffer in).
    const std::vector<int> next = pattern(256, 9 * rank + it);
    std::copy(next.begin(), next.end(), pout.begin());
    MPI_Startall(2, pair);
    MPI_Waitall(2, pair, MPI_STATUSES_IGNORE);
    r[3] += total(pin, 256);
    r[4] += replace(rank, size, it);
    r[5] += halves(rank, it);
    r[6] += own_file(argv[1], rank, it);
  }
  MPI_Request_free(&pair[0]);
  MPI_Request_free(&pair[1]);
  MPI_Comm_free(&wild);
  std::vector<long long> all(static_cast<std::size_t>(size) * r.size());
  MPI_Gather(r.data(), static_cast<int>(r.size()), MPI_LONG_LONG, all.data(), static_cast<int>(r.size()),
             MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    const char* names[] = {"wildcard", "iprobe", "testany", "persistent", "replace", "split_dup", "mpi_io"};
    for (int p = 0; p < size; ++p) {
      std::printf("rank %d", p);
      for (std::size_t i = 0; i < r.size(); ++i) std::printf(" %s=%lld", names[i], all[p * r.size() + i]);
      std::printf("\n");
    }
  }
  MPI_Finalize();
  return 0;
}
