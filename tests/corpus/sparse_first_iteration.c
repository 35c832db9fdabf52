/* Power iteration on a sparse matrix with an unstructured sparsity pattern,
 * rows block-distributed. Like many application codes it sets up its
 * communication lazily, inside the first iteration: it finds which remote
 * vector entries its rows need, tells their owners (MPI_Alltoall of counts,
 * MPI_Alltoallv of indices) and creates persistent requests. Every later
 * iteration only starts them (MPI_Startall / MPI_Waitall), multiplies and
 * normalizes (MPI_Allreduce).
 *
 * Usage: sparse_first_iteration [rows [iterations]]   (default 100000, 200)
 * Prints "result eigenvalue <l>" and "loop: <k> iterations, <t> s, <t/k> s per iteration".
 */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PER_ROW = 12 };

static uint64_t mix(uint64_t x) {
  x ^= x >> 31;
  x *= 0x7fb5d329728ea185ULL;
  x ^= x >> 27;
  x *= 0x81dadef4bc2dd44dULL;
  x ^= x >> 33;
  return x;
}

typedef struct {
  int* send_counts;
  int* recv_counts;
  int* send_index;   /* local indices to send, by destination */
  double* send_buf;
  double* recv_buf;  /* remote values, by source */
  MPI_Request* requests;
  int request_count;
} Halo;

static int compare_int(const void* a, const void* b) { return *(const int*)a - *(const int*)b; }

static int owner(long g, long n, int size) { return (int)(g / ((n + size - 1) / size)); }

/* Maps every column of the local rows to a slot of x_ext = [local | remote]
 * and builds the persistent exchange. */
static void setup_halo(Halo* h, int* col, long nnz, long n, int rows, long first, int size, int rank) {
  int* needed = malloc(sizeof(int) * nnz);
  long m = 0;
  for (long k = 0; k < nnz; ++k)
    if (col[k] < first || col[k] >= first + rows) needed[m++] = col[k];
  qsort(needed, m, sizeof(int), compare_int);
  long unique = 0;
  for (long k = 0; k < m; ++k)
    if (unique == 0 || needed[unique - 1] != needed[k]) needed[unique++] = needed[k];
  h->recv_counts = calloc(size, sizeof(int));
  h->send_counts = calloc(size, sizeof(int));
  for (long k = 0; k < unique; ++k) h->recv_counts[owner(needed[k], n, size)]++;
  MPI_Alltoall(h->recv_counts, 1, MPI_INT, h->send_counts, 1, MPI_INT, MPI_COMM_WORLD);
  int *rdispl = calloc(size + 1, sizeof(int)), *sdispl = calloc(size + 1, sizeof(int));
  for (int r = 0; r < size; ++r) {
    rdispl[r + 1] = rdispl[r] + h->recv_counts[r];
    sdispl[r + 1] = sdispl[r] + h->send_counts[r];
  }
  h->send_index = malloc(sizeof(int) * (sdispl[size] + 1));
  MPI_Alltoallv(needed, h->recv_counts, rdispl, MPI_INT, h->send_index, h->send_counts, sdispl, MPI_INT,
                MPI_COMM_WORLD);
  for (int k = 0; k < sdispl[size]; ++k) h->send_index[k] -= (int)first;
  for (long k = 0; k < nnz; ++k) {
    if (col[k] >= first && col[k] < first + rows) {
      col[k] -= (int)first;
    } else {
      const int* at = bsearch(&col[k], needed, unique, sizeof(int), compare_int);
      col[k] = rows + (int)(at - needed);
    }
  }
  h->send_buf = malloc(sizeof(double) * (sdispl[size] + 1));
  h->recv_buf = malloc(sizeof(double) * (unique + 1));
  h->requests = malloc(sizeof(MPI_Request) * 2 * size);
  h->request_count = 0;
  for (int r = 0; r < size; ++r) {
    if (r == rank) continue;
    if (h->recv_counts[r] > 0)
      MPI_Recv_init(h->recv_buf + rdispl[r], h->recv_counts[r], MPI_DOUBLE, r, 5, MPI_COMM_WORLD,
                    &h->requests[h->request_count++]);
    if (h->send_counts[r] > 0)
      MPI_Send_init(h->send_buf + sdispl[r], h->send_counts[r], MPI_DOUBLE, r, 5, MPI_COMM_WORLD,
                    &h->requests[h->request_count++]);
  }
  free(needed);
  free(rdispl);
  free(sdispl);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long n = argc > 1 ? atol(argv[1]) : 100000;
  const int iterations = argc > 2 ? atoi(argv[2]) : 200;
  const long block = (n + size - 1) / size, first = rank * block;
  const int rows = (int)(first + block <= n ? block : (n > first ? n - first : 0));
  const long nnz = (long)rows * PER_ROW;
  int* col = malloc(sizeof(int) * nnz);
  double* val = malloc(sizeof(double) * nnz);
  for (int i = 0; i < rows; ++i)
    for (int k = 0; k < PER_ROW; ++k) {
      const uint64_t hsh = mix((uint64_t)(first + i) * PER_ROW + k);
      /* Mostly near the diagonal, a few far away: a mesh-like pattern. */
      const long offset = k < 9 ? (long)(hsh % 2001) - 1000 : (long)(hsh % n);
      col[(long)i * PER_ROW + k] = (int)(((first + i + offset) % n + n) % n);
      val[(long)i * PER_ROW + k] = k == 0 ? 4.0 : 1.0 / (1 + (hsh >> 60));
    }
  double* x = malloc(sizeof(double) * rows);
  double* y = malloc(sizeof(double) * rows);
  for (int i = 0; i < rows; ++i) x[i] = 1.0;
  double* x_ext = NULL;
  Halo halo = {0};
  double lambda = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int it = 0; it < iterations; ++it) {
    if (it == 0) {
      setup_halo(&halo, col, nnz, n, rows, first, size, rank);
      long remote = 0;
      for (int r = 0; r < size; ++r) remote += halo.recv_counts[r];
      x_ext = malloc(sizeof(double) * (rows + remote + 1));
    }
    long s = 0;
    for (int r = 0; r < size; ++r)
      for (int k = 0; k < halo.send_counts[r]; ++k, ++s) halo.send_buf[s] = x[halo.send_index[s]];
    MPI_Startall(halo.request_count, halo.requests);
    memcpy(x_ext, x, sizeof(double) * rows);
    MPI_Waitall(halo.request_count, halo.requests, MPI_STATUSES_IGNORE);
    long remote = 0;
    for (int r = 0; r < size; ++r) remote += halo.recv_counts[r];
    memcpy(x_ext + rows, halo.recv_buf, sizeof(double) * remote);
    double local = 0, norm2 = 0;
    for (int i = 0; i < rows; ++i) {
      double sum = 0;
      for (int k = 0; k < PER_ROW; ++k) sum += val[(long)i * PER_ROW + k] * x_ext[col[(long)i * PER_ROW + k]];
      y[i] = sum;
      local += sum * sum;
    }
    MPI_Allreduce(&local, &norm2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    lambda = sqrt(norm2 / n);
    for (int i = 0; i < rows; ++i) x[i] = y[i] / lambda;
  }
  double elapsed = MPI_Wtime() - start, slowest = 0;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  for (int k = 0; k < halo.request_count; ++k) MPI_Request_free(&halo.requests[k]);
  if (rank == 0) {
    printf("result eigenvalue %.12e\n", lambda);
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", iterations, slowest, slowest / iterations);
  }
  free(halo.recv_counts);
  free(halo.send_counts);
  free(halo.send_index);
  free(halo.send_buf);
  free(halo.recv_buf);
  free(halo.requests);
  free(col);
  free(val);
  free(x);
  free(y);
  free(x_ext);
  MPI_Finalize();
  return 0;
}
