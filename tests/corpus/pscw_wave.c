/*
 * pscw_wave.c -- 2-D wave equation with halos by general active target
 * synchronization (post/start/complete/wait)
 *
 * An R x C grid is split into block rows.  Each rank exposes a window of
 * its two halo rows.  Every step it opens an exposure epoch to its
 * neighbours (MPI_Win_post) and an access epoch to them (MPI_Win_start),
 * puts its first row into the upper neighbour's lower halo and its last
 * row into the lower neighbour's upper halo (MPI_Put), closes the access
 * epoch (MPI_Win_complete) and waits for its own halos (MPI_Win_wait),
 * then advances the leapfrog scheme.  Every 25th step the energy is
 * summed over all ranks (MPI_Allreduce).  No fence is ever called.
 *
 * Usage: pscw_wave [rows [columns [steps]]]   (defaults 256 4096 100)
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

    int shape[3] = {256, 4096, 100};
    if (rank == 0) {
        for (int a = 1; a < argc && a <= 3; a++)
            if (atoi(argv[a]) > 0) shape[a - 1] = atoi(argv[a]);
        printf("PSCW wave: %d ranks, %d x %d grid, %d steps\n", nprocs, shape[0], shape[1], shape[2]);
    }
    MPI_Bcast(shape, 3, MPI_INT, 0, MPI_COMM_WORLD);
    const int nrows = shape[0], ncols = shape[1], nsteps = shape[2];
    const int mine = nrows / nprocs + (rank < nrows % nprocs), first = rank * (nrows / nprocs) + (rank < nrows % nprocs ? rank : nrows % nprocs);
    const int above = rank - 1, below = rank + 1 < nprocs ? rank + 1 : -1;

    /* rows 0 and mine + 1 of the fields are halos; the window holds the
     * halos of `now`: [0] upper, [1] lower */
    const size_t row = (size_t)ncols;
    double *prev = calloc((size_t)(mine + 2) * row, sizeof(double));
    double *now = calloc((size_t)(mine + 2) * row, sizeof(double));
    double *next = calloc((size_t)(mine + 2) * row, sizeof(double));
    double *halo = calloc(2 * row, sizeof(double));
    if (!prev || !now || !next || !halo) {
        fprintf(stderr, "rank %d: allocation failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 1; i <= mine; i++)
        for (int j = 0; j < ncols; j++) {
            const double y = (double)(first + i - 1) / nrows - 0.5, x = (double)j / ncols - 0.5;
            now[i * row + j] = prev[i * row + j] = exp(-60.0 * (x * x + y * y));
        }

    MPI_Win win;
    MPI_Win_create(halo, (MPI_Aint)(2 * row * sizeof(double)), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Group world_group, neighbours;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    int list[2], count = 0;
    if (above >= 0) list[count++] = above;
    if (below >= 0) list[count++] = below;
    MPI_Group_incl(world_group, count, list, &neighbours);

    const double c2 = 0.2;
    double energy = 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int step = 1; step <= nsteps; step++) {
        MPI_Win_post(neighbours, 0, win);
        MPI_Win_start(neighbours, 0, win);
        if (above >= 0) MPI_Put(&now[1 * row], ncols, MPI_DOUBLE, above, (MPI_Aint)row, ncols, MPI_DOUBLE, win);
        if (below >= 0) MPI_Put(&now[mine * row], ncols, MPI_DOUBLE, below, 0, ncols, MPI_DOUBLE, win);
        MPI_Win_complete(win);
        MPI_Win_wait(win);
        memcpy(&now[0], &halo[0], row * sizeof(double));
        memcpy(&now[(mine + 1) * row], &halo[row], row * sizeof(double));

        for (int i = 1; i <= mine; i++)
            for (int j = 1; j + 1 < ncols; j++) {
                const size_t k = i * row + j;
                next[k] = 2.0 * now[k] - prev[k] + c2 * (now[k - row] + now[k + row] + now[k - 1] + now[k + 1] - 4.0 * now[k]);
            }
        double *t = prev; prev = now; now = next; next = t;

        if (step % 25 == 0) {
            double local = 0.0;
            for (int i = 1; i <= mine; i++)
                for (int j = 0; j < ncols; j++) local += now[i * row + j] * now[i * row + j];
            MPI_Allreduce(&local, &energy, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
    }
    const double t1 = MPI_Wtime();

    double local = 0.0, sum = 0.0;
    for (int i = 1; i <= mine; i++)
        for (int j = 0; j < ncols; j++) local += now[i * row + j];
    MPI_Reduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("result energy %.10e\n", energy);
        printf("result sum %.10e\n", sum);
        printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", nsteps, t1 - t0, (t1 - t0) / nsteps);
    }

    MPI_Group_free(&neighbours);
    MPI_Group_free(&world_group);
    MPI_Win_free(&win);
    free(prev); free(now); free(next); free(halo);
    MPI_Finalize();
    return 0;
}
