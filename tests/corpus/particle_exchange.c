/*
 * particle_exchange.c -- particles moving through a periodic 1-D domain
 * split into slabs, and a field smoothed on a grid of cells
 *
 * Each rank owns a slab of the domain [0, 1): its particles (position and
 * velocity) and `cells` x `columns` cells of a field.  Each step pushes the
 * particles (a field oscillating in time pushes them further in some
 * steps than in others), packs those that left the slab to the left and to the right,
 * trades their counts with each neighbour (MPI_Sendrecv), then the
 * particles themselves (MPI_Irecv of exactly the count announced,
 * MPI_Isend, MPI_Waitall): message sizes that change from step to step.
 * Then the field's edge rows are traded (constant sizes) and the field is
 * smoothed, stirred by the particles' density.  The particles in each
 * slab and their kinetic energy are reduced every `check` steps
 * (MPI_Allreduce).  The particle count (conserved) and checksums of the
 * positions and the field are reported.
 *
 * Usage: particle_exchange [particles [cells [columns [steps [check]]]]]
 *        (defaults 20000 256 2048 200 20)
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    double x, v;
} particle;

/* A particle array that grows when particles arrive. */
typedef struct {
    particle *p;
    int n, capacity;
} particles;

static void reserve(particles *a, int n)
{
    if (n <= a->capacity) return;
    a->capacity = 2 * n;
    a->p = realloc(a->p, (size_t)a->capacity * sizeof(particle));
    if (!a->p) {
        fprintf(stderr, "particle_exchange: out of memory for %d particles\n", n);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* Pushes the particles of [lo, hi) by `dt` in a periodic [0, 1), keeps the
 * ones still inside, and moves the others to `left` or `right`. */
static void push(particles *mine, particles *left, particles *right, double lo, double hi, double dt)
{
    int kept = 0;
    left->n = right->n = 0;
    for (int i = 0; i < mine->n; i++) {
        particle q = mine->p[i];
        q.x += q.v * dt;
        q.v *= 1.0 - 1e-4 * q.v * q.v;
        particles *to = q.x < lo ? left : q.x >= hi ? right : NULL;
        q.x -= floor(q.x);
        if (!to) {
            mine->p[kept++] = q;
            continue;
        }
        reserve(to, to->n + 1);
        to->p[to->n++] = q;
    }
    mine->n = kept;
}

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    int dims[5] = {20000, 256, 2048, 200, 20};
    if (rank == 0)
        for (int i = 0; i < 5 && i + 1 < argc; i++) {
            const int v = atoi(argv[i + 1]);
            if (v > 0) dims[i] = v;
        }
    MPI_Bcast(dims, 5, MPI_INT, 0, MPI_COMM_WORLD);
    const int count = dims[0], cells = dims[1], columns = dims[2], steps = dims[3], check = dims[4];
    const int left_rank = (rank + nprocs - 1) % nprocs, right_rank = (rank + 1) % nprocs;
    const double lo = (double)rank / nprocs, hi = (double)(rank + 1) / nprocs;
    if (rank == 0) printf("particle exchange: %d particles, %d ranks, %d steps\n", count * nprocs, nprocs, steps);

    particles mine = {0}, out_left = {0}, out_right = {0}, in_left = {0}, in_right = {0};
    reserve(&mine, count);
    unsigned seed = 12345u + 7919u * (unsigned)rank;
    for (int i = 0; i < count; i++) {
        seed = seed * 1664525u + 1013904223u;
        const double r = (seed >> 8) / 16777216.0;
        seed = seed * 1664525u + 1013904223u;
        const double s = (seed >> 8) / 16777216.0;
        mine.p[i].x = lo + r * (hi - lo);
        mine.p[i].v = (s - 0.5) * 0.04 / nprocs;  /* a few per cent cross a slab's edge per step */
    }
    mine.n = count;

    const size_t width = (size_t)columns;
    double *f = calloc((size_t)(cells + 2) * width, sizeof(double));
    double *g = calloc((size_t)(cells + 2) * width, sizeof(double));
    if (!f || !g) {
        fprintf(stderr, "rank %d: allocation failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 1; i <= cells; i++)
        for (size_t j = 0; j < width; j++) f[i * width + j] = sin(3.0 * (rank * cells + i) / (nprocs * cells)) + 0.1 * cos(j);

    double totals[2] = {0, 0};
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int s = 0; s < steps; s++) {
        /* an oscillating field: as many particles leave as it pushes */
        push(&mine, &out_left, &out_right, lo, hi, 1.0 + 0.9 * sin(0.7 * s));

        /* how many go each way, then the particles themselves */
        int arriving[2], leaving[2] = {out_left.n, out_right.n};
        MPI_Sendrecv(&leaving[0], 1, MPI_INT, left_rank, 1, &arriving[1], 1, MPI_INT, right_rank, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&leaving[1], 1, MPI_INT, right_rank, 2, &arriving[0], 1, MPI_INT, left_rank, 2,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        reserve(&in_left, arriving[0]);
        reserve(&in_right, arriving[1]);
        MPI_Request moved[4];
        MPI_Irecv(in_left.p, 2 * arriving[0], MPI_DOUBLE, left_rank, 3, MPI_COMM_WORLD, &moved[0]);
        MPI_Irecv(in_right.p, 2 * arriving[1], MPI_DOUBLE, right_rank, 4, MPI_COMM_WORLD, &moved[1]);
        MPI_Isend(out_right.p, 2 * leaving[1], MPI_DOUBLE, right_rank, 3, MPI_COMM_WORLD, &moved[2]);
        MPI_Isend(out_left.p, 2 * leaving[0], MPI_DOUBLE, left_rank, 4, MPI_COMM_WORLD, &moved[3]);
        MPI_Waitall(4, moved, MPI_STATUSES_IGNORE);
        reserve(&mine, mine.n + arriving[0] + arriving[1]);
        memcpy(mine.p + mine.n, in_left.p, (size_t)arriving[0] * sizeof(particle));
        mine.n += arriving[0];
        memcpy(mine.p + mine.n, in_right.p, (size_t)arriving[1] * sizeof(particle));
        mine.n += arriving[1];

        /* the field's edge rows, and a smoothing stirred by the density */
        MPI_Sendrecv(&f[cells * width], columns, MPI_DOUBLE, right_rank, 5, &f[0], columns, MPI_DOUBLE, left_rank, 5,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&f[1 * width], columns, MPI_DOUBLE, left_rank, 6, &f[(cells + 1) * width], columns, MPI_DOUBLE,
                     right_rank, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        const double stir = 1e-6 * mine.n / count;
        for (int i = 1; i <= cells; i++)
            for (size_t j = 1; j + 1 < width; j++) {
                const size_t c = i * width + j;
                g[c] = f[c] + 0.2 * (f[c - width] + f[c + width] + f[c - 1] + f[c + 1] - 4.0 * f[c]) + stir;
            }
        for (int i = 1; i <= cells; i++) {
            g[i * width] = f[i * width];
            g[i * width + width - 1] = f[i * width + width - 1];
        }
        double *t = f; f = g; g = t;

        if ((s + 1) % check == 0) {
            double local[2] = {(double)mine.n, 0.0};
            for (int i = 0; i < mine.n; i++) local[1] += mine.p[i].v * mine.p[i].v;
            MPI_Allreduce(local, totals, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
    }
    const double t1 = MPI_Wtime();

    double local[3] = {(double)mine.n, 0.0, 0.0}, global[3];
    for (int i = 0; i < mine.n; i++) local[1] += mine.p[i].x;
    for (int i = 1; i <= cells; i++)
        for (size_t j = 0; j < width; j++) local[2] += f[i * width + j];
    MPI_Reduce(local, global, 3, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("result particles %.0f\n", global[0]);
        printf("result positions %.10e\n", global[1]);
        printf("result field %.10e\n", global[2]);
        printf("result energy %.10e\n", totals[1]);
        printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", steps, t1 - t0, (t1 - t0) / steps);
    }

    free(mine.p); free(out_left.p); free(out_right.p); free(in_left.p); free(in_right.p);
    free(f); free(g);
    MPI_Finalize();
    return 0;
}
