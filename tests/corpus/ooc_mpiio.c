/* Out-of-core relaxation: each rank's rows of a large field live in one
 * shared file and never fit in memory at once. Every iteration streams the
 * rank's block through a small buffer, chunk by chunk: MPI_File_read_at,
 * relax, MPI_File_write_at. The ranks' blocks are independent, so the loop
 * makes no other MPI call; a checksum is reduced once at the end.
 *
 * Usage: ooc_mpiio [file [rows [iterations]]]   (default ooc_mpiio.dat in the working folder, 1024, 40)
 * Prints "result checksum <c>" and "loop: <k> iterations, <t> s, <t/k> s per iteration".
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { COLS = 1024, CHUNK_ROWS = 64 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* path = argc > 1 ? argv[1] : "ooc_mpiio.dat";
  const int total_rows = argc > 2 ? atoi(argv[2]) : 1024;
  const int iterations = argc > 3 ? atoi(argv[3]) : 40;
  const int rows = total_rows / size, first = rank * rows;
  MPI_File file;
  if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                    &file) != MPI_SUCCESS) {
    fprintf(stderr, "ooc_mpiio: cannot open %s\n", path);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  double* chunk = malloc(sizeof(double) * CHUNK_ROWS * COLS);
  for (int r0 = 0; r0 < rows; r0 += CHUNK_ROWS) {
    for (int i = 0; i < CHUNK_ROWS; ++i)
      for (int j = 0; j < COLS; ++j) chunk[i * COLS + j] = sin(0.001 * (first + r0 + i) * (j + 1));
    const MPI_Offset at = ((MPI_Offset)(first + r0) * COLS) * (MPI_Offset)sizeof(double);
    MPI_File_write_at(file, at, chunk, CHUNK_ROWS * COLS, MPI_DOUBLE, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int it = 0; it < iterations; ++it) {
    for (int r0 = 0; r0 < rows; r0 += CHUNK_ROWS) {
      const MPI_Offset at = ((MPI_Offset)(first + r0) * COLS) * (MPI_Offset)sizeof(double);
      MPI_File_read_at(file, at, chunk, CHUNK_ROWS * COLS, MPI_DOUBLE, MPI_STATUS_IGNORE);
      for (int i = 0; i < CHUNK_ROWS; ++i) {
        double* row = chunk + i * COLS;
        for (int sweep = 0; sweep < 4; ++sweep)
          for (int j = 1; j < COLS - 1; ++j) row[j] = 0.25 * row[j - 1] + 0.5 * row[j] + 0.25 * row[j + 1];
      }
      MPI_File_write_at(file, at, chunk, CHUNK_ROWS * COLS, MPI_DOUBLE, MPI_STATUS_IGNORE);
    }
  }
  double elapsed = MPI_Wtime() - start, slowest = 0;
  double local = 0, checksum = 0;
  for (int r0 = 0; r0 < rows; r0 += CHUNK_ROWS) {
    const MPI_Offset at = ((MPI_Offset)(first + r0) * COLS) * (MPI_Offset)sizeof(double);
    MPI_File_read_at(file, at, chunk, CHUNK_ROWS * COLS, MPI_DOUBLE, MPI_STATUS_IGNORE);
    for (int k = 0; k < CHUNK_ROWS * COLS; ++k) local += chunk[k] * (1 + (k % 7));
  }
  MPI_File_close(&file);
  MPI_Reduce(&local, &checksum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("result checksum %.12e\n", checksum);
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", iterations, slowest, slowest / iterations);
  }
  free(chunk);
  MPI_Finalize();
  return 0;
}
