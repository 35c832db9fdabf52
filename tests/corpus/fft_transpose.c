/* Spectral time stepping of a 2-D field with FFTs, in the style of the NAS
 * FT benchmark: rows are block-distributed; a 2-D transform is a row FFT,
 * a transpose (MPI_Alltoall of blocks) and a row FFT again. Each iteration
 * evolves the spectrum, transforms back and reduces a checksum.
 *
 * Usage: fft_transpose [n [iterations]]   (default 256, 60; n a power of two, divisible by the ranks)
 * Prints "result checksum <re> <im>" and "loop: <k> iterations, <t> s, <t/k> s per iteration".
 */
#include <complex.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fft(double complex* a, int n, int sign) {
  for (int i = 1, j = 0; i < n; ++i) {
    int bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const double complex t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
  for (int len = 2; len <= n; len <<= 1) {
    const double complex w = cexp(sign * 2 * M_PI * I / len);
    for (int i = 0; i < n; i += len) {
      double complex wk = 1;
      for (int k = 0; k < len / 2; ++k) {
        const double complex u = a[i + k], v = a[i + k + len / 2] * wk;
        a[i + k] = u + v;
        a[i + k + len / 2] = u - v;
        wk *= w;
      }
    }
  }
}

/* rows x n local block -> the transposed rows x n block, through a buffer. */
static void transpose(double complex* a, double complex* buf, int n, int rows, int size) {
  /* Pack: destination rank d gets the columns d*rows .. d*rows+rows-1. */
  for (int d = 0; d < size; ++d)
    for (int i = 0; i < rows; ++i)
      memcpy(buf + ((size_t)d * rows + i) * rows, a + (size_t)i * n + (size_t)d * rows, sizeof(double complex) * rows);
  MPI_Alltoall(buf, 2 * rows * rows, MPI_DOUBLE, a, 2 * rows * rows, MPI_DOUBLE, MPI_COMM_WORLD);
  /* Block from source s holds its rows i (global s*rows+i), our columns j. */
  for (int s = 0; s < size; ++s)
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < rows; ++j) buf[(size_t)j * n + (size_t)s * rows + i] = a[((size_t)s * rows + i) * rows + j];
  memcpy(a, buf, sizeof(double complex) * rows * n);
}

static void fft2d(double complex* a, double complex* buf, int n, int rows, int size, int sign) {
  for (int i = 0; i < rows; ++i) fft(a + (size_t)i * n, n, sign);
  transpose(a, buf, n, rows, size);
  for (int i = 0; i < rows; ++i) fft(a + (size_t)i * n, n, sign);
  transpose(a, buf, n, rows, size);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = argc > 1 ? atoi(argv[1]) : 256;
  const int iterations = argc > 2 ? atoi(argv[2]) : 60;
  const int rows = n / size, first = rank * rows;
  double complex* u0 = malloc(sizeof(double complex) * rows * n);
  double complex* u = malloc(sizeof(double complex) * rows * n);
  double complex* buf = malloc(sizeof(double complex) * rows * n);
  for (size_t k = 0; k < (size_t)rows * n; ++k) {
    unsigned long long x = (unsigned long long)first * n + k + 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    x ^= x >> 31;
    u0[k] = (double)(x >> 40) / 16777216.0 + I * (double)(x & 0xffffff) / 16777216.0;
  }
  fft2d(u0, buf, n, rows, size, -1);

  double complex sum = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int it = 1; it <= iterations; ++it) {
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < n; ++j) {
        const int ki = first + i < n / 2 ? first + i : first + i - n, kj = j < n / 2 ? j : j - n;
        u[(size_t)i * n + j] = u0[(size_t)i * n + j] * exp(-1e-5 * it * (ki * ki + kj * kj));
      }
    fft2d(u, buf, n, rows, size, 1);
    double local[2] = {0, 0}, total[2];
    for (int q = 1; q <= 1024; ++q) {
      const int gi = (5 * q) % n, gj = (3 * q) % n;
      if (gi >= first && gi < first + rows) {
        local[0] += creal(u[(size_t)(gi - first) * n + gj]);
        local[1] += cimag(u[(size_t)(gi - first) * n + gj]);
      }
    }
    MPI_Allreduce(local, total, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    sum += total[0] + I * total[1];
  }
  double elapsed = MPI_Wtime() - start, slowest = 0;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("result checksum %.10e %.10e\n", creal(sum) / ((double)n * n), cimag(sum) / ((double)n * n));
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", iterations, slowest, slowest / iterations);
  }
  free(u0);
  free(u);
  free(buf);
  MPI_Finalize();
  return 0;
}
