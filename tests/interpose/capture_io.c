/* An out-of-core sweep with everything the interposer must see in it:
 * per-rank block files opened through MPI_File_open with mheta's hints
 * (variable "A", read and written in ICLAs, prefetched with
 * MPI_File_iread_at + MPI_Wait) and a file without hints (read-only, named by
 * its path), stage marks, a halo exchange and an allreduce, and an iteration
 * mark. Rank r owns 64 + 16*r rows of 256 doubles, swept in ICLAs of 32 rows.
 * Prints a checksum that must not change under the interposer.
 * With `write-first`, each ICLA is written back before it is computed on,
 * right after the prefetch of the next is issued: the disk then serves that
 * write after the prefetch, and the compute after the write overlaps nothing.
 * Usage: capture_io directory [iterations [write-first]]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mheta/hints.h"
#include "mheta/marks.h"

enum { kCols = 256, kIclaRows = 32 };

static MPI_File open_block(const char* dir, const char* name, int rank, long global_rows, long local_rows,
                           int hinted) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.%d.bin", dir, name, rank);
  MPI_Info info = MPI_INFO_NULL;
  if (hinted) {
    char value[64];
    MPI_Info_create(&info);
    MPI_Info_set(info, MHETA_HINT_VARIABLE, name);
    snprintf(value, sizeof value, "%d", (int)(kCols * sizeof(double)));
    MPI_Info_set(info, MHETA_HINT_BYTES_PER_ROW, value);
    snprintf(value, sizeof value, "%ld", global_rows);
    MPI_Info_set(info, MHETA_HINT_GLOBAL_ROWS, value);
    snprintf(value, sizeof value, "%ld", local_rows);
    MPI_Info_set(info, MHETA_HINT_LOCAL_ROWS, value);
  }
  MPI_File fh;
  MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
  if (info != MPI_INFO_NULL) MPI_Info_free(&info);
  return fh;
}

static double compute(double* rows, int n) {
  double s = 0;
  for (int rep = 0; rep < 20; ++rep) {
    for (int i = 0; i < n * kCols; ++i) {
      rows[i] = rows[i] * 0.999 + 0.001;
      s += rows[i];
    }
  }
  return s;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2) {
    if (rank == 0) fprintf(stderr, "usage: capture_io directory [iterations [write-first]]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int iterations = argc > 2 ? atoi(argv[2]) : 4;
  const int write_first = argc > 3 && strcmp(argv[3], "write-first") == 0;
  long global_rows = 0;
  for (int r = 0; r < size; ++r) global_rows += 64 + 16 * r;
  const long local_rows = 64 + 16 * rank;
  const MPI_Offset row_bytes = kCols * sizeof(double);
  MPI_File a = open_block(argv[1], "A", rank, global_rows, local_rows, 1);
  MPI_File b = open_block(argv[1], "B", rank, global_rows, local_rows, 0);
  double* icla[2] = {malloc(kIclaRows * row_bytes), malloc(kIclaRows * row_bytes)};
  for (long row = 0; row < local_rows; ++row) {
    for (int c = 0; c < kCols; ++c) icla[0][c] = rank + row * 0.001 + c;
    MPI_File_write_at(a, row * row_bytes, icla[0], kCols, MPI_DOUBLE, MPI_STATUS_IGNORE);
    MPI_File_write_at(b, row * row_bytes, icla[0], kCols, MPI_DOUBLE, MPI_STATUS_IGNORE);
  }
  double halo_out[kCols], halo_in[kCols];
  double checksum = 0;
  const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  const int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  for (int it = 0; it < iterations; ++it) {
    mheta_mark_stage_begin("sweep A");
    /* Double-buffered sweep of A: prefetch ICLA k+1 while computing on k. */
    const int chunks = (int)((local_rows + kIclaRows - 1) / kIclaRows);
    MPI_Request next;
    MPI_File_iread_at(a, 0, icla[0], (int)(kIclaRows < local_rows ? kIclaRows : local_rows) * kCols, MPI_DOUBLE, &next);
    for (int k = 0; k < chunks; ++k) {
      MPI_Wait(&next, MPI_STATUS_IGNORE);
      const long first = (long)k * kIclaRows;
      const int rows = (int)(local_rows - first < kIclaRows ? local_rows - first : kIclaRows);
      if (k + 1 < chunks) {
        const long nfirst = first + kIclaRows;
        const int nrows = (int)(local_rows - nfirst < kIclaRows ? local_rows - nfirst : kIclaRows);
        MPI_File_iread_at(a, nfirst * row_bytes, icla[(k + 1) % 2], nrows * kCols, MPI_DOUBLE, &next);
      }
      if (write_first) MPI_File_write_at(a, first * row_bytes, icla[k % 2], rows * kCols, MPI_DOUBLE, MPI_STATUS_IGNORE);
      checksum += compute(icla[k % 2], rows);
      if (!write_first) MPI_File_write_at(a, first * row_bytes, icla[k % 2], rows * kCols, MPI_DOUBLE, MPI_STATUS_IGNORE);
    }
    mheta_mark_stage_end();
    /* B: read-only, synchronous, in one request. */
    double* whole_b = malloc(local_rows * row_bytes);
    MPI_File_read_at(b, 0, whole_b, (int)(local_rows * kCols), MPI_DOUBLE, MPI_STATUS_IGNORE);
    checksum += compute(whole_b, (int)local_rows / 4);
    memcpy(halo_out, whole_b, sizeof halo_out);
    free(whole_b);
    /* Halo exchange with the neighbours, then a reduction. */
    MPI_Sendrecv(halo_out, kCols, MPI_DOUBLE, down, 1, halo_in, kCols, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(halo_out, kCols, MPI_DOUBLE, up, 2, halo_in, kCols, MPI_DOUBLE, down, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double local = checksum, global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    checksum = global / size;
    mheta_mark_iteration();
  }
  MPI_File_close(&a);
  MPI_File_close(&b);
  if (rank == 0) printf("checksum %.10e\n", checksum);
  free(icla[0]);
  free(icla[1]);
  MPI_Finalize();
  return 0;
}
