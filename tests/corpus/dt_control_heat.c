/*
 * dt_control_heat.c -- explicit heat equation with two controls of their
 * own periods
 *
 * An R x C grid is split into block rows.  Each step exchanges the edge
 * rows with the ranks above and below (MPI_Sendrecv) and updates the rows.
 * Every `check` steps the largest change is reduced (MPI_Allreduce) to
 * test convergence; every `adapt` steps rank 0 picks the next time step
 * from the last one it saw and broadcasts it (MPI_Bcast).  With check 5
 * and adapt 3 the calls repeat only every 15 steps.  The last change and
 * the total heat are reported.
 *
 * Usage: dt_control_heat [rows [columns [steps [check [adapt]]]]]
 *        (defaults 256 2048 300 5 3)
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

    int dims[5] = {256, 2048, 300, 5, 3};
    if (rank == 0)
        for (int i = 0; i < 5 && i + 1 < argc; i++) {
            const int v = atoi(argv[i + 1]);
            if (v > 0) dims[i] = v;
        }
    MPI_Bcast(dims, 5, MPI_INT, 0, MPI_COMM_WORLD);
    const int rows = dims[0], cols = dims[1], steps = dims[2], check = dims[3], adapt = dims[4];
    const int nl = rows / nprocs + (rank < rows % nprocs ? 1 : 0);
    const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    const int down = rank < nprocs - 1 ? rank + 1 : MPI_PROC_NULL;
    if (rank == 0) printf("dt-controlled heat: %d x %d grid, %d ranks, %d steps\n", rows, cols, nprocs, steps);

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

    double dt = 0.2, change = 0.0, local = 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int s = 0; s < steps; s++) {
        MPI_Sendrecv(&u[nl * width], (int)width, MPI_DOUBLE, down, 1, &u[0], (int)width, MPI_DOUBLE, up, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[1 * width], (int)width, MPI_DOUBLE, up, 2, &u[(nl + 1) * width], (int)width, MPI_DOUBLE,
                     down, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        local = 0.0;
        for (int i = 1; i <= nl; i++)
            for (int j = 1; j <= cols; j++) {
                const size_t c = i * width + j;
                unew[c] = u[c] + dt * (u[c - width] + u[c + width] + u[c - 1] + u[c + 1] - 4.0 * u[c]);
                const double d = fabs(unew[c] - u[c]);
                if (d > local) local = d;
            }
        double *t = u; u = unew; unew = t;
        if ((s + 1) % check == 0) MPI_Allreduce(&local, &change, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if ((s + 1) % adapt == 0) {
            if (rank == 0) dt = change > 1e-3 ? 0.2 : 0.22;
            MPI_Bcast(&dt, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        }
    }
    const double t1 = MPI_Wtime();

    double mine = 0.0, heat = 0.0;
    for (int i = 1; i <= nl; i++)
        for (int j = 1; j <= cols; j++) mine += u[i * width + j];
    MPI_Reduce(&mine, &heat, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("result heat %.10e\n", heat);
        printf("result change %.10e\n", change);
        printf("result dt %.4f\n", dt);
        printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, t1 - t0, (t1 - t0) / steps);
    }

    free(u); free(unew);
    MPI_Finalize();
    return 0;
}
