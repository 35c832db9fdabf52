/* Records of changing sizes appended to one file, one after another: each
 * step a ring exchange of a fixed size, some compute, then every rank
 * writes its step's record (100 to 2099 doubles, a different count every
 * step) at the offset an MPI_Exscan of the counts gives, with
 * MPI_File_write_at_all. The step between a rank's offsets is the whole
 * last step's size, so it changes every step as the sizes do.
 *
 * Usage: appended_records steps file */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    const int steps = argc > 1 ? atoi(argv[1]) : 120;
    const char *path = argc > 2 ? argv[2] : "appended_records.dat";
    MPI_File fh;
    if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh) != MPI_SUCCESS) {
        fprintf(stderr, "appended_records: cannot open %s\n", path);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double *record = malloc(2100 * sizeof(double)), halo[128], from_left[128];
    const int left = (rank + np - 1) % np, right = (rank + 1) % np;
    long long end = 0;
    double sum = 0.0;
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < 128; i++) halo[i] = rank + s + i;
        MPI_Sendrecv(halo, 128, MPI_DOUBLE, right, 0, from_left, 128, MPI_DOUBLE, left, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        const long long count = 100 + (long long)(((unsigned)(s * 7 + rank) * 2654435761u) % 2000u);
        for (long long i = 0; i < count; i++) record[i] = from_left[i % 128] * 0.5 + (double)i;
        for (int k = 0; k < 400000; k++) sum += record[k % count] * 1e-9;
        long long before = 0, total = 0;
        MPI_Exscan(&count, &before, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0) before = 0;
        MPI_Allreduce(&count, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        MPI_File_write_at_all(fh, (MPI_Offset)(end + before) * (MPI_Offset)sizeof(double), record, (int)count,
                              MPI_DOUBLE, MPI_STATUS_IGNORE);
        end += total;
    }
    MPI_File_close(&fh);
    double all = 0.0;
    MPI_Reduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("records: %lld doubles, checksum %.9e\n", end, all);
    free(record);
    MPI_Finalize();
    return 0;
}
