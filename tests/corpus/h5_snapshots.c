/* Explicit heat equation on block rows with snapshots in parallel HDF5, as
 * simulation codes write their output: every step exchanges the edge rows
 * with the ranks above and below (MPI_Sendrecv) and relaxes the rows twice;
 * every `every` steps the largest change is reduced (MPI_Allreduce) and the
 * whole field is written as a new dataset "/step_NNNNNN" of one HDF5 file,
 * each rank its block of rows, by a collective transfer through MPI-IO
 * (H5Pset_fapl_mpio, H5FD_MPIO_COLLECTIVE). The program makes no MPI-IO
 * call itself: HDF5 makes them, and its own collectives, inside H5Dcreate,
 * H5Dwrite and H5Dclose. At the end every rank reads the last snapshot's
 * block back and the sums are reduced.
 *
 * Usage: h5_snapshots [file [rows [columns [steps [every]]]]]
 *        (defaults snapshots.h5 512 1024 300 25)
 * Prints "result heat <h>", "result change <c>", "result snapshot <s>" and
 * "loop: <k> iterations, <t> s, <t/k> s per iteration" (per step). The file
 * is removed at the end.
 */
#include <hdf5.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void die(const char* what) {
  fprintf(stderr, "h5_snapshots: %s failed\n", what);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

/* The block of rows [first, first + rows) of a rows_total x cols dataset. */
static hid_t block_of(hid_t space, hsize_t first, hsize_t rows, hsize_t cols) {
  const hsize_t start[2] = {first, 0}, count[2] = {rows, cols};
  if (H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL) < 0) die("H5Sselect_hyperslab");
  return space;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* path = argc > 1 ? argv[1] : "snapshots.h5";
  const int total = argc > 2 ? atoi(argv[2]) : 512;
  const int cols = argc > 3 ? atoi(argv[3]) : 1024;
  const int steps = argc > 4 ? atoi(argv[4]) : 300;
  const int every = argc > 5 ? atoi(argv[5]) : 25;
  const int rows = total / size + (rank < total % size ? 1 : 0);
  const int first = rank * (total / size) + (rank < total % size ? rank : total % size);
  const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

  /* rows + 2 halo rows; u is the field, v the next one. */
  double* u = calloc((size_t)(rows + 2) * cols, sizeof(double));
  double* v = calloc((size_t)(rows + 2) * cols, sizeof(double));
  for (int i = 1; i <= rows; ++i)
    for (int j = 0; j < cols; ++j) u[(size_t)i * cols + j] = sin(0.01 * (first + i)) * cos(0.003 * j);

  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  if (H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL) < 0) die("H5Pset_fapl_mpio");
  hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  if (file < 0) die("H5Fcreate");
  hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
  H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
  const hsize_t dims[2] = {(hsize_t)total, (hsize_t)cols}, mine[2] = {(hsize_t)rows, (hsize_t)cols};
  hid_t memspace = H5Screate_simple(2, mine, NULL);
  char name[32];
  int last_snapshot = -1;
  double change = 0;

  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int step = 1; step <= steps; ++step) {
    double* top = u + cols;
    double* bottom = u + (size_t)rows * cols;
    MPI_Sendrecv(top, cols, MPI_DOUBLE, up, 1, u + (size_t)(rows + 1) * cols, cols, MPI_DOUBLE, down, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(bottom, cols, MPI_DOUBLE, down, 2, u, cols, MPI_DOUBLE, up, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double local = 0;
    for (int sweep = 0; sweep < 2; ++sweep) {
      for (int i = 1; i <= rows; ++i) {
        const int global = first + i - 1;
        double* out = v + (size_t)i * cols;
        const double* c = u + (size_t)i * cols;
        if (global == 0 || global == total - 1) {
          memcpy(out, c, sizeof(double) * cols);
          continue;
        }
        out[0] = c[0];
        out[cols - 1] = c[cols - 1];
        for (int j = 1; j < cols - 1; ++j) {
          out[j] = c[j] + 0.2 * (c[j - cols] + c[j + cols] + c[j - 1] + c[j + 1] - 4 * c[j]);
          if (sweep == 1) local = fmax(local, fabs(out[j] - c[j]));
        }
      }
      double* t = u;
      u = v;
      v = t;
    }
    if (step % every != 0) continue;
    MPI_Allreduce(&local, &change, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    snprintf(name, sizeof name, "/step_%06d", step);
    hid_t filespace = H5Screate_simple(2, dims, NULL);
    hid_t dset = H5Dcreate2(file, name, H5T_NATIVE_DOUBLE, filespace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (dset < 0) die("H5Dcreate2");
    if (H5Dwrite(dset, H5T_NATIVE_DOUBLE, memspace, block_of(filespace, first, rows, cols), dxpl, u + cols) < 0)
      die("H5Dwrite");
    H5Dclose(dset);
    H5Sclose(filespace);
    last_snapshot = step;
  }
  const double elapsed = MPI_Wtime() - start;

  /* The last snapshot's block, read back. */
  double snapshot = 0;
  if (last_snapshot > 0) {
    snprintf(name, sizeof name, "/step_%06d", last_snapshot);
    hid_t dset = H5Dopen2(file, name, H5P_DEFAULT);
    hid_t filespace = H5Dget_space(dset);
    double* back = malloc(sizeof(double) * (size_t)rows * cols);
    if (H5Dread(dset, H5T_NATIVE_DOUBLE, memspace, block_of(filespace, first, rows, cols), dxpl, back) < 0)
      die("H5Dread");
    for (size_t k = 0; k < (size_t)rows * cols; ++k) snapshot += back[k];
    free(back);
    H5Sclose(filespace);
    H5Dclose(dset);
  }
  H5Sclose(memspace);
  H5Pclose(dxpl);
  H5Fclose(file);
  H5Pclose(fapl);

  double heat = 0, total_heat = 0, total_snapshot = 0, slowest = 0;
  for (int i = 1; i <= rows; ++i)
    for (int j = 0; j < cols; ++j) heat += u[(size_t)i * cols + j];
  MPI_Reduce(&heat, &total_heat, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&snapshot, &total_snapshot, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    unlink(path);
    printf("result heat %.10e\n", total_heat);
    printf("result change %.10e\n", change);
    printf("result snapshot %.10e\n", total_snapshot);
    printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, slowest, slowest / steps);
  }
  free(u);
  free(v);
  MPI_Finalize();
  return 0;
}
