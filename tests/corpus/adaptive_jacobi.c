/*
 * adaptive_jacobi.c -- implicit (backward Euler) heat equation on a 2-D plate
 *
 * Solves  du/dt = Lap(u) + q(x,y,t)  on the unit square with u = 0 on the
 * boundary.  Each time step requires the linear system
 *     (1 + 4r) u_ij - r (u_i-1,j + u_i+1,j + u_i,j-1 + u_i,j+1) = u_old_ij + dt q_ij
 * (r = dt/h^2), which is solved with Jacobi sweeps started from the previous
 * solution.  The sweeps stop when the max-norm of the update falls below a
 * tolerance, so the number of inner sweeps per time step depends on how fast
 * the solution is changing.  The heat source is a pair of heaters whose power
 * is modulated in time, giving busy and quiet phases.
 *
 * Parallelisation: the grid rows are block-distributed; every sweep exchanges
 * one halo row with the up/down neighbours (MPI_Sendrecv, MPI_PROC_NULL at the
 * outer boundary) and forms the global update norm with MPI_Allreduce (MAX).
 *
 * Usage: adaptive_jacobi [n [steps]]
 *   n      grid points per side (interior)  (default 512)
 *   steps  number of time steps             (default 30)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define IDX(i, j) ((size_t)(i) * (nx + 2) + (j))

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    /* ---- run parameters (rank 0 reads, everyone receives) ---- */
    int n = 512, nsteps = 30, max_sweeps = 100;
    double r = 0.25;          /* dt / h^2 */
    double tol = 3.5e-8;      /* max-norm of Jacobi update */
    if (rank == 0) {
        if (argc > 1) n = atoi(argv[1]);
        if (argc > 2) nsteps = atoi(argv[2]);
        if (n < 2 * nprocs) n = 2 * nprocs;
        if (nsteps < 1) nsteps = 1;
        printf("Adaptive Jacobi: %d ranks, %d x %d grid, %d time steps, r = %.3f, tol = %.1e\n",
               nprocs, n, n, nsteps, r, tol);
    }
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&nsteps, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&max_sweeps, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&r, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Bcast(&tol, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);

    const int nx = n;
    const double h = 1.0 / (n + 1);
    const double dt = r * h * h;
    /* block row decomposition (remainder spread over the first ranks) */
    const int base = n / nprocs, rem = n % nprocs;
    const int nl = base + (rank < rem ? 1 : 0);
    const int row0 = rank * base + (rank < rem ? rank : rem);
    const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    const int down = rank < nprocs - 1 ? rank + 1 : MPI_PROC_NULL;

    size_t sz = (size_t)(nl + 2) * (nx + 2);
    double *u = calloc(sz, sizeof(double));     /* current iterate */
    double *unew = calloc(sz, sizeof(double));
    double *rhs = calloc(sz, sizeof(double));
    double *shape1 = calloc(sz, sizeof(double)); /* heater footprints */
    double *shape2 = calloc(sz, sizeof(double));
    if (!u || !unew || !rhs || !shape1 || !shape2) {
        fprintf(stderr, "rank %d: allocation failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    /* ---- initial condition and source geometry ---- */
    for (int i = 1; i <= nl; i++) {
        double y = (row0 + i) * h;
        for (int j = 1; j <= nx; j++) {
            double x = j * h;
            double d1 = (x - 0.3) * (x - 0.3) + (y - 0.35) * (y - 0.35);
            double d2 = (x - 0.7) * (x - 0.7) + (y - 0.6) * (y - 0.6);
            shape1[IDX(i, j)] = exp(-d1 / 0.01);
            shape2[IDX(i, j)] = exp(-d2 / 0.02);
            u[IDX(i, j)] = 0.01 * sin(M_PI * x) * sin(M_PI * y);
        }
    }
    memcpy(unew, u, sz * sizeof(double));

    const double inv_diag = 1.0 / (1.0 + 4.0 * r);
    long total_sweeps = 0;
    int min_sw = 1 << 30, max_sw = 0;
    double last_res = 0.0;
    char sweep_log[4096];
    int logpos = 0;
    sweep_log[0] = '\0';

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    for (int step = 1; step <= nsteps; step++) {
        /* heater powers: heater 1 pulses on/off, heater 2 ramps slowly */
        double ph = (double)step / 10.0;
        double q1 = 120.0 * pow(0.5 + 0.5 * sin(2.0 * M_PI * ph), 4);
        double q2 = 1.0 * (1.0 + 0.5 * cos(2.0 * M_PI * step / 30.0));
        for (int i = 1; i <= nl; i++)
            for (int j = 1; j <= nx; j++)
                rhs[IDX(i, j)] = u[IDX(i, j)]
                    + dt * (q1 * shape1[IDX(i, j)] + q2 * shape2[IDX(i, j)]);

        int sweeps = 0;
        double res = 0.0;
        do {
            /* halo exchange: first row up, last row down */
            MPI_Sendrecv(&u[IDX(1, 0)], nx + 2, MPI_DOUBLE, up, 1,
                         &u[IDX(nl + 1, 0)], nx + 2, MPI_DOUBLE, down, 1,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Sendrecv(&u[IDX(nl, 0)], nx + 2, MPI_DOUBLE, down, 2,
                         &u[IDX(0, 0)], nx + 2, MPI_DOUBLE, up, 2,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            double lres = 0.0;
            for (int i = 1; i <= nl; i++) {
                for (int j = 1; j <= nx; j++) {
                    double v = (rhs[IDX(i, j)] + r * (u[IDX(i - 1, j)] + u[IDX(i + 1, j)]
                                + u[IDX(i, j - 1)] + u[IDX(i, j + 1)])) * inv_diag;
                    double d = fabs(v - u[IDX(i, j)]);
                    if (d > lres) lres = d;
                    unew[IDX(i, j)] = v;
                }
            }
            double *tmp = u; u = unew; unew = tmp;
            MPI_Allreduce(&lres, &res, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            sweeps++;
        } while (res > tol && sweeps < max_sweeps);

        total_sweeps += sweeps;
        if (sweeps < min_sw) min_sw = sweeps;
        if (sweeps > max_sw) max_sw = sweeps;
        last_res = res;
        if (logpos < (int)sizeof(sweep_log) - 8)
            logpos += snprintf(sweep_log + logpos, sizeof(sweep_log) - logpos, " %d", sweeps);
    }

    double t1 = MPI_Wtime();

    /* diagnostics: total heat and peak temperature */
    double lsum = 0.0, lmax = 0.0, gsum, gmax;
    for (int i = 1; i <= nl; i++)
        for (int j = 1; j <= nx; j++) {
            lsum += u[IDX(i, j)];
            if (u[IDX(i, j)] > lmax) lmax = u[IDX(i, j)];
        }
    lsum *= h * h;
    MPI_Reduce(&lsum, &gsum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&lmax, &gmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    if (rank == 0) {
        printf("sweeps per step:%s\n", sweep_log);
        printf("sweeps min %d max %d\n", min_sw, max_sw);
        printf("result sweeps %ld\n", total_sweeps);
        printf("result heat %.10e\n", gsum);
        printf("result peak %.10e\n", gmax);
        printf("result last_residual %.10e\n", last_res);
        printf("loop: %d iterations, %.6f s, %.6e s per iteration\n",
               nsteps, t1 - t0, (t1 - t0) / nsteps);
    }

    free(u); free(unew); free(rhs); free(shape1); free(shape2);
    MPI_Finalize();
    return 0;
}
