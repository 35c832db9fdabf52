/*
 * rma_halo.c -- Poisson relaxation with one-sided (RMA) halo exchange
 *
 * Relaxes  -Lap(u) = f  on the unit square (n x n interior points) with
 * Jacobi iterations; u = 1 on the top wall and the left wall, u = 0 on the
 * other walls, and f is a smooth source/sink pair.  Grid rows are
 * block-distributed; each rank exposes its field array (including one halo
 * row above and below) in an MPI window.
 *
 * Each step:
 *   MPI_Win_fence                      open the exchange epoch
 *   MPI_Put first row -> upper neighbour's bottom halo row
 *   MPI_Put last row  -> lower neighbour's top halo row
 *   MPI_Win_fence                      halos are now valid
 *   5-point Jacobi update, copy back into the window array
 * Every 10th step the global change norm is formed with MPI_Allreduce.
 *
 * Usage: rma_halo [n [steps]]
 *   n      grid points per side   (default 1024)
 *   steps  relaxation steps       (default 100)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define IDX(i, j) ((size_t)(i) * (nx + 2) + (j))

static int rows_of(int r, int n, int p) { return n / p + (r < n % p ? 1 : 0); }

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    /* ---- parameters from rank 0 ---- */
    int n = 1024, nsteps = 100, check_every = 10;
    double src_amp = 50.0;
    if (rank == 0) {
        if (argc > 1) n = atoi(argv[1]);
        if (argc > 2) nsteps = atoi(argv[2]);
        if (n < nprocs) n = nprocs;
        if (nsteps < 1) nsteps = 1;
        printf("RMA halo: %d ranks, %d x %d grid, %d steps\n", nprocs, n, n, nsteps);
    }
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&nsteps, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&check_every, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&src_amp, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);

    const int nx = n;
    const int nl = rows_of(rank, n, nprocs);
    const int row0 = rank * (n / nprocs) + (rank < n % nprocs ? rank : n % nprocs);
    const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    const int down = rank < nprocs - 1 ? rank + 1 : MPI_PROC_NULL;
    const int up_nl = up != MPI_PROC_NULL ? rows_of(up, n, nprocs) : 0;
    const double h = 1.0 / (n + 1);

    /* field with halo rows lives in window memory */
    size_t sz = (size_t)(nl + 2) * (nx + 2);
    double *u = malloc(sz * sizeof(double));
    double *unew = malloc(sz * sizeof(double));
    double *f = malloc(sz * sizeof(double));
    if (!u || !unew || !f) {
        fprintf(stderr, "rank %d: allocation failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    /* ---- initial state and boundary values ---- */
    for (int i = 0; i < nl + 2; i++) {
        double y = (row0 + i) * h;
        for (int j = 0; j < nx + 2; j++) {
            double x = j * h;
            u[IDX(i, j)] = 0.0;
            f[IDX(i, j)] = src_amp * (exp(-((x - 0.3) * (x - 0.3) + (y - 0.7) * (y - 0.7)) / 0.01)
                                    - exp(-((x - 0.7) * (x - 0.7) + (y - 0.3) * (y - 0.3)) / 0.01));
        }
        u[IDX(i, 0)] = 1.0;                         /* left wall */
    }
    if (up == MPI_PROC_NULL)
        for (int j = 0; j < nx + 2; j++) u[IDX(0, j)] = 1.0;   /* top wall */
    memcpy(unew, u, sz * sizeof(double));
    MPI_Win win;
    MPI_Win_create(u, (MPI_Aint)(sz * sizeof(double)), sizeof(double), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    const double h2 = h * h;

    double change = 0.0;
    int nchecks = 0;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    for (int step = 1; step <= nsteps; step++) {
        MPI_Win_fence(0, win);
        if (up != MPI_PROC_NULL)      /* my first row -> up's row up_nl+1 */
            MPI_Put(&u[IDX(1, 0)], nx + 2, MPI_DOUBLE, up,
                    (MPI_Aint)(up_nl + 1) * (nx + 2), nx + 2, MPI_DOUBLE, win);
        if (down != MPI_PROC_NULL)    /* my last row -> down's row 0 */
            MPI_Put(&u[IDX(nl, 0)], nx + 2, MPI_DOUBLE, down,
                    0, nx + 2, MPI_DOUBLE, win);
        MPI_Win_fence(0, win);

        for (int i = 1; i <= nl; i++)
            for (int j = 1; j <= nx; j++)
                unew[IDX(i, j)] = 0.25 * (u[IDX(i - 1, j)] + u[IDX(i + 1, j)]
                                          + u[IDX(i, j - 1)] + u[IDX(i, j + 1)]
                                          + h2 * f[IDX(i, j)]);

        if (step % check_every == 0) {
            double lc = 0.0, gc;
            for (int i = 1; i <= nl; i++)
                for (int j = 1; j <= nx; j++) {
                    double d = unew[IDX(i, j)] - u[IDX(i, j)];
                    lc += d * d;
                }
            MPI_Allreduce(&lc, &gc, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            change = sqrt(gc);
            nchecks++;
        }
        for (int i = 1; i <= nl; i++)
            memcpy(&u[IDX(i, 1)], &unew[IDX(i, 1)], nx * sizeof(double));
    }

    double t1 = MPI_Wtime();

    double lsum = 0.0, gsum;
    for (int i = 1; i <= nl; i++)
        for (int j = 1; j <= nx; j++) lsum += u[IDX(i, j)];
    MPI_Reduce(&lsum, &gsum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);

    if (rank == 0) {
        printf("convergence checks: %d\n", nchecks);
        printf("result change %.10e\n", change);
        printf("result mean_u %.10e\n", gsum / ((double)n * n));
        printf("loop: %d iterations, %.6f s, %.6e s per iteration\n",
               nsteps, t1 - t0, (t1 - t0) / nsteps);
    }

    MPI_Win_free(&win);
    free(u); free(unew); free(f);
    MPI_Finalize();
    return 0;
}
