/*
 * persistent_heat.c -- explicit heat equation with MPI-4 persistent
 * communication throughout
 *
 * An R x C grid is split into block rows.  Every request is set up once:
 * the halo exchange with the ranks above and below (MPI_Send_init,
 * MPI_Recv_init) and a column profile of the field, the sum and the sum of
 * squares of every column over all ranks (MPI_Allreduce_init, 2 C doubles).
 * Each step starts the halos (MPI_Startall), updates the rows, completes
 * them (MPI_Waitall), then fills the profile and starts and waits the
 * reduction (MPI_Start, MPI_Wait); the source term of the next step follows
 * the profile.  The last profile's checksum and the total heat are
 * reported.
 *
 * Usage: persistent_heat [rows [columns [steps]]]   (defaults 256 4096 100)
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    int dims[3] = {256, 4096, 100};
    if (rank == 0)
        for (int i = 0; i < 3 && i + 1 < argc; i++) {
            const int v = atoi(argv[i + 1]);
            if (v > 0) dims[i] = v;
        }
    MPI_Bcast(dims, 3, MPI_INT, 0, MPI_COMM_WORLD);
    const int rows = dims[0], cols = dims[1], steps = dims[2];
    const int nl = rows / nprocs + (rank < rows % nprocs ? 1 : 0);
    const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    const int down = rank < nprocs - 1 ? rank + 1 : MPI_PROC_NULL;
    if (rank == 0) printf("persistent heat: %d x %d grid, %d ranks, %d steps\n", rows, cols, nprocs, steps);

    const size_t width = (size_t)cols + 2;
    double *u = calloc((size_t)(nl + 2) * width, sizeof(double));
    double *unew = calloc((size_t)(nl + 2) * width, sizeof(double));
    double *profile = malloc(2 * (size_t)cols * sizeof(double));
    double *global = malloc(2 * (size_t)cols * sizeof(double));
    if (!u || !unew || !profile || !global) {
        fprintf(stderr, "rank %d: allocation failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int first = 0;
    for (int r = 0; r < rank; r++) first += rows / nprocs + (r < rows % nprocs ? 1 : 0);
    for (int i = 1; i <= nl; i++)
        for (int j = 1; j <= cols; j++)
            u[i * width + j] = sin(3.0 * (first + i) / rows) * cos(2.0 * j / cols);

    MPI_Request halo[4], reduce;
    MPI_Send_init(&u[1 * width], (int)width, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &halo[0]);
    MPI_Send_init(&u[nl * width], (int)width, MPI_DOUBLE, down, 2, MPI_COMM_WORLD, &halo[1]);
    MPI_Recv_init(&u[0], (int)width, MPI_DOUBLE, up, 2, MPI_COMM_WORLD, &halo[2]);
    MPI_Recv_init(&u[(nl + 1) * width], (int)width, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &halo[3]);
    MPI_Allreduce_init(profile, global, 2 * cols, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &reduce);

    const double k = 0.2;
    double source = 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int s = 0; s < steps; s++) {
        MPI_Startall(4, halo);
        MPI_Waitall(4, halo, MPI_STATUSES_IGNORE);
        for (int i = 1; i <= nl; i++)
            for (int j = 1; j <= cols; j++) {
                const size_t c = i * width + j;
                unew[c] = u[c] + k * (u[c - width] + u[c + width] + u[c - 1] + u[c + 1] - 4.0 * u[c]) + source * 1e-3;
            }
        for (int j = 0; j < cols; j++) { profile[j] = 0.0; profile[cols + j] = 0.0; }
        for (int i = 1; i <= nl; i++)
            for (int j = 0; j < cols; j++) {
                const double v = unew[i * width + j + 1];
                profile[j] += v;
                profile[cols + j] += v * v;
            }
        /* the halo requests point into u: the new rows go back there */
        memcpy(u + width, unew + width, (size_t)nl * width * sizeof(double));
        MPI_Start(&reduce);
        MPI_Wait(&reduce, MPI_STATUS_IGNORE);
        source = global[s % cols] / rows;
    }
    const double t1 = MPI_Wtime();

    double local = 0.0, heat = 0.0, check = 0.0;
    for (int i = 1; i <= nl; i++)
        for (int j = 1; j <= cols; j++) local += u[i * width + j];
    MPI_Reduce(&local, &heat, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    for (int j = 0; j < 2 * cols; j++) check += global[j] * (1.0 + (j % 7));
    if (rank == 0) {
        printf("result heat %.10e\n", heat);
        printf("result profile %.10e\n", check);
        printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, t1 - t0, (t1 - t0) / steps);
    }

    for (int i = 0; i < 4; i++) MPI_Request_free(&halo[i]);
    MPI_Request_free(&reduce);
    free(u); free(unew); free(profile); free(global);
    MPI_Finalize();
    return 0;
}
