/*
 * step_tagged_heat.c -- explicit heat equation whose halo messages carry
 * the step number in their tags
 *
 * An R x C grid is split into block rows.  Each step exchanges the edge
 * rows with the ranks above and below (MPI_Irecv, MPI_Isend, MPI_Waitall)
 * under the tags 2 s (going down) and 2 s + 1 (going up), so that a
 * message that comes late can never be taken for the next step's, then
 * updates the rows.  The largest change is reduced every `check` steps
 * (MPI_Allreduce); the steps in between have no collective.  The last
 * largest change and the total heat are reported.
 *
 * Usage: step_tagged_heat [rows [columns [steps [check]]]]
 *        (defaults 256 4096 100 25)
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    int dims[4] = {256, 4096, 100, 25};
    if (rank == 0)
        for (int i = 0; i < 4 && i + 1 < argc; i++) {
            const int v = atoi(argv[i + 1]);
            if (v > 0) dims[i] = v;
        }
    MPI_Bcast(dims, 4, MPI_INT, 0, MPI_COMM_WORLD);
    const int rows = dims[0], cols = dims[1], steps = dims[2], check = dims[3];
    const int nl = rows / nprocs + (rank < rows % nprocs ? 1 : 0);
    const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    const int down = rank < nprocs - 1 ? rank + 1 : MPI_PROC_NULL;
    if (rank == 0) printf("step-tagged heat: %d x %d grid, %d ranks, %d steps\n", rows, cols, nprocs, steps);

    const size_t width = (size_t)cols + 2;
    double *u = calloc((size_t)(nl + 2) * width, sizeof(double));
    double *unew = calloc((size_t)(nl + 2) * width, sizeof(double));
    if (!u || !unew) {
        fprintf(stderr, "rank %d: allocation failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int first = 0;
    for (int r = 0; r < rank; r++) first += rows / nprocs + (r < rows % nprocs ? 1 : 0);
    for (int i = 1; i <= nl; i++)
        for (int j = 1; j <= cols; j++)
            u[i * width + j] = unew[i * width + j] = sin(3.0 * (first + i) / rows) * cos(2.0 * j / cols);

    const double k = 0.2;
    double change = 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int s = 0; s < steps; s++) {
        const int going_down = 2 * s, going_up = 2 * s + 1;
        MPI_Request halo[4];
        MPI_Irecv(&u[0], (int)width, MPI_DOUBLE, up, going_down, MPI_COMM_WORLD, &halo[0]);
        MPI_Irecv(&u[(nl + 1) * width], (int)width, MPI_DOUBLE, down, going_up, MPI_COMM_WORLD, &halo[1]);
        MPI_Isend(&u[nl * width], (int)width, MPI_DOUBLE, down, going_down, MPI_COMM_WORLD, &halo[2]);
        MPI_Isend(&u[1 * width], (int)width, MPI_DOUBLE, up, going_up, MPI_COMM_WORLD, &halo[3]);
        MPI_Waitall(4, halo, MPI_STATUSES_IGNORE);
        double local = 0.0;
        for (int i = 1; i <= nl; i++)
            for (int j = 1; j <= cols; j++) {
                const size_t c = i * width + j;
                unew[c] = u[c] + k * (u[c - width] + u[c + width] + u[c - 1] + u[c + 1] - 4.0 * u[c]);
                const double d = fabs(unew[c] - u[c]);
                if (d > local) local = d;
            }
        double *t = u; u = unew; unew = t;
        if ((s + 1) % check == 0) MPI_Allreduce(&local, &change, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    const double t1 = MPI_Wtime();

    double local = 0.0, heat = 0.0;
    for (int i = 1; i <= nl; i++)
        for (int j = 1; j <= cols; j++) local += u[i * width + j];
    MPI_Reduce(&local, &heat, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("result heat %.10e\n", heat);
        printf("result change %.10e\n", change);
        printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, t1 - t0, (t1 - t0) / steps);
    }

    free(u); free(unew);
    MPI_Finalize();
    return 0;
}
