/* Relaxation in memory with file I/O that does not follow the rows: every
 * iteration each rank writes a fixed-size restart record (its boundary
 * values and a summary, 64 KiB whatever its rows) to its slot of a shared
 * checkpoint file, and rank 0 appends a line to a log. The ranks' blocks
 * are independent; a checksum is reduced once at the end.
 *
 * Usage: checkpoint_log [folder [rows [iterations]]]   (default ., 1001, 40)
 * Prints "result checksum <c>" and "loop: <k> iterations, <t> s, <t/k> s per iteration".
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COLS = 512, RECORD_DOUBLES = 8192 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* folder = argc > 1 ? argv[1] : ".";
  const int total_rows = argc > 2 ? atoi(argv[2]) : 1001;
  const int iterations = argc > 3 ? atoi(argv[3]) : 40;
  const int rows = total_rows / size + (rank < total_rows % size ? 1 : 0);
  char path[4096];
  MPI_File checkpoint, log;
  snprintf(path, sizeof path, "%s/checkpoint.dat", folder);
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                &checkpoint);
  snprintf(path, sizeof path, "%s/run.log", folder);
  MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                &log);
  double* field = malloc(sizeof(double) * (size_t)rows * COLS);
  double* record = calloc(RECORD_DOUBLES, sizeof(double));
  for (int i = 0; i < rows * COLS; ++i) field[i] = sin(0.001 * (rank * rows * COLS + i));
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int it = 0; it < iterations; ++it) {
    double sum = 0;
    for (int i = 0; i < rows; ++i) {
      double* row = field + (size_t)i * COLS;
      for (int sweep = 0; sweep < 4; ++sweep)
        for (int j = 1; j < COLS - 1; ++j) row[j] = 0.25 * row[j - 1] + 0.5 * row[j] + 0.25 * row[j + 1];
      sum += row[COLS / 2];
    }
    memcpy(record, field, sizeof(double) * COLS);
    memcpy(record + COLS, field + (size_t)(rows - 1) * COLS, sizeof(double) * COLS);
    record[2 * COLS] = sum;
    MPI_File_write_at(checkpoint, (MPI_Offset)rank * RECORD_DOUBLES * sizeof(double), record, RECORD_DOUBLES,
                      MPI_DOUBLE, MPI_STATUS_IGNORE);
    if (rank == 0) {
      char line[128];
      const int n = snprintf(line, sizeof line, "iteration %6d sum %.6e\n", it, sum);
      MPI_File_write(log, line, n, MPI_CHAR, MPI_STATUS_IGNORE);
    }
  }
  double elapsed = MPI_Wtime() - start, slowest = 0;
  double local = 0, checksum = 0;
  for (int i = 0; i < rows * COLS; ++i) local += field[i] * (1 + (i % 7));
  MPI_File_close(&log);
  MPI_File_close(&checkpoint);
  MPI_Reduce(&local, &checksum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("result checksum %.12e\n", checksum);
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", iterations, slowest, slowest / iterations);
  }
  free(record);
  free(field);
  MPI_Finalize();
  return 0;
}
