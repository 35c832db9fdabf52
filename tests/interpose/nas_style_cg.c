/* Conjugate gradient in the style of the NAS CG benchmark, written with no
 * knowledge of mheta: no marks, no hints, no MPI-IO, its own iteration loop.
 * The sparse SPD matrix (rows of uneven density, diagonally dominant) is
 * generated from a hash, block-distributed by rows; each iteration does an
 * allgatherv of the direction vector, a local sparse matrix-vector product
 * and two allreduces.
 *
 * Usage: nas_style_cg rows iterations
 * Prints the final residual and, as JSON, the mean time of iterations 2..n
 * measured on rank 0 ({"iteration_s": ...}).
 */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long n = argc > 1 ? atol(argv[1]) : 20000;
  const int iterations = argc > 2 ? atoi(argv[2]) : 20;
  int* counts = malloc(sizeof(int) * size);
  int* displs = malloc(sizeof(int) * size);
  for (int r = 0, first = 0; r < size; ++r) {
    counts[r] = (int)(n / size + (r < n % size ? 1 : 0));
    displs[r] = first;
    first += counts[r];
  }
  const int local = counts[rank], first = displs[rank];
  if (local < 0) abort(); /* never: tells the compiler the sizes below are not negative */
  /* CSR rows: 8 to 120 off-diagonal entries, symmetric pattern not needed
   * for the kernel's cost, but values keep the matrix SPD-like (dominant). */
  long* row_start = malloc(sizeof(long) * (local + 1));
  row_start[0] = 0;
  for (int i = 0; i < local; ++i) row_start[i + 1] = row_start[i] + 1 + 8 + (long)(mix(first + i) % 113);
  int* col = malloc(sizeof(int) * row_start[local]);
  double* val = malloc(sizeof(double) * row_start[local]);
  for (int i = 0; i < local; ++i) {
    long k = row_start[i];
    col[k] = first + i;
    val[k] = 200.0;
    for (++k; k < row_start[i + 1]; ++k) {
      col[k] = (int)(mix((uint64_t)(first + i) * 131 + (uint64_t)k) % (uint64_t)n);
      val[k] = -1.0 / (double)(1 + k - row_start[i]);
    }
  }
  double* x = calloc(local, sizeof(double));
  double* r = malloc(sizeof(double) * local);
  double* p = malloc(sizeof(double) * local);
  double* q = malloc(sizeof(double) * local);
  double* p_all = malloc(sizeof(double) * n);
  for (int i = 0; i < local; ++i) r[i] = p[i] = 1.0 + (double)(mix(first + i) % 10);
  double rho_local = 0, rho = 0;
  for (int i = 0; i < local; ++i) rho_local += r[i] * r[i];
  MPI_Allreduce(&rho_local, &rho, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double start = 0;
  for (int it = 0; it < iterations; ++it) {
    if (it == 1) start = MPI_Wtime();
    MPI_Allgatherv(p, local, MPI_DOUBLE, p_all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    for (int i = 0; i < local; ++i) {
      double s = 0;
      for (long k = row_start[i]; k < row_start[i + 1]; ++k) s += val[k] * p_all[col[k]];
      q[i] = s;
    }
    double pq_local = 0, pq = 0;
    for (int i = 0; i < local; ++i) pq_local += p[i] * q[i];
    MPI_Allreduce(&pq_local, &pq, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    const double alpha = rho / pq;
    double rr_local = 0, rr = 0;
    for (int i = 0; i < local; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
      rr_local += r[i] * r[i];
    }
    MPI_Allreduce(&rr_local, &rr, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    const double beta = rr / rho;
    rho = rr;
    for (int i = 0; i < local; ++i) p[i] = r[i] + beta * p[i];
  }
  const double elapsed = MPI_Wtime() - start;
  if (rank == 0) {
    printf("residual %.12e\n", sqrt(rho));
    printf("{\"iteration_s\": %.9f}\n", iterations > 1 ? elapsed / (iterations - 1) : 0.0);
  }
  free(counts); free(displs); free(row_start); free(col); free(val);
  free(x); free(r); free(p); free(q); free(p_all);
  MPI_Finalize();
  return 0;
}
