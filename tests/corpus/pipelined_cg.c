/*
 * pipelined_cg.c -- pipelined conjugate gradients (Ghysels and Vanroose)
 * on the 2-D Poisson equation, with the dot products' reduction hidden
 * behind the matrix-vector product
 *
 * The N x N grid (5-point Laplacian, Dirichlet boundary) is split into
 * block rows.  Each iteration computes its two local dot products, posts
 * their sum over all ranks (MPI_Iallreduce of 2 doubles), and while the
 * reduction is in flight exchanges the halo rows of w with the ranks above
 * and below (MPI_Irecv, MPI_Isend, MPI_Waitall) and applies the operator
 * to it; only then does it wait for the sums (MPI_Wait) and update its six
 * vectors.  The residual norm every 50 iterations and at the end, and the
 * solution's checksum, are reported.
 *
 * Usage: pipelined_cg [n [iterations]]   (defaults 512 200)
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* y = A x on the rows owned, x's halo rows filled (rows 0 and nl + 1). */
static void apply_laplacian(const double *x, double *y, int nl, int n)
{
    for (int i = 1; i <= nl; i++)
        for (int j = 0; j < n; j++) {
            const double *c = &x[(size_t)i * n + j];
            const double west = j > 0 ? c[-1] : 0.0, east = j < n - 1 ? c[1] : 0.0;
            y[(size_t)i * n + j] = 4.0 * c[0] - c[-n] - c[n] - west - east;
        }
}

static void exchange_halo(double *x, int nl, int n, int up, int down, MPI_Comm comm)
{
    MPI_Request req[4];
    MPI_Irecv(&x[0], n, MPI_DOUBLE, up, 11, comm, &req[0]);
    MPI_Irecv(&x[(size_t)(nl + 1) * n], n, MPI_DOUBLE, down, 12, comm, &req[1]);
    MPI_Isend(&x[(size_t)n], n, MPI_DOUBLE, up, 12, comm, &req[2]);
    MPI_Isend(&x[(size_t)nl * n], n, MPI_DOUBLE, down, 11, comm, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    int params[2] = {512, 200};
    if (rank == 0)
        for (int i = 0; i < 2 && i + 1 < argc; i++) {
            const int v = atoi(argv[i + 1]);
            if (v > 0) params[i] = v;
        }
    MPI_Bcast(params, 2, MPI_INT, 0, MPI_COMM_WORLD);
    const int n = params[0], iterations = params[1];
    const int nl = n / nprocs + (rank < n % nprocs ? 1 : 0);
    int first = 0;
    for (int r = 0; r < rank; r++) first += n / nprocs + (r < n % nprocs ? 1 : 0);
    const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    const int down = rank < nprocs - 1 ? rank + 1 : MPI_PROC_NULL;
    if (rank == 0) printf("pipelined cg: %d x %d grid, %d ranks, %d iterations\n", n, n, nprocs, iterations);

    /* Vectors with halo rows where the operator is applied to them. */
    const size_t len = (size_t)nl * n, padded = (size_t)(nl + 2) * n;
    double *x = calloc(len, sizeof(double)), *b = malloc(len * sizeof(double));
    double *r = malloc(len * sizeof(double)), *u = calloc(padded, sizeof(double));
    double *w = calloc(padded, sizeof(double)), *nv = calloc(padded, sizeof(double));
    double *p = calloc(len, sizeof(double)), *s = calloc(len, sizeof(double));
    double *q = calloc(len, sizeof(double)), *z = calloc(len, sizeof(double));
    if (!x || !b || !r || !u || !w || !nv || !p || !s || !q || !z) {
        fprintf(stderr, "rank %d: allocation failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 0; i < nl; i++)
        for (int j = 0; j < n; j++)
            b[(size_t)i * n + j] = sin(M_PI * (first + i + 1) / (n + 1)) * sin(2.0 * M_PI * (j + 1) / (n + 1)) + 0.01;

    /* r = b - A x (x = 0), u = r (no preconditioner), w = A u */
    memcpy(r, b, len * sizeof(double));
    memcpy(u + n, r, len * sizeof(double));
    exchange_halo(u, nl, n, up, down, MPI_COMM_WORLD);
    apply_laplacian(u, w, nl, n);

    double alpha = 0.0, beta = 0.0, gamma_old = 0.0;
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int k = 0; k < iterations; k++) {
        double local[2] = {0.0, 0.0}, global[2];
        for (size_t c = 0; c < len; c++) {
            local[0] += r[c] * u[n + c];
            local[1] += w[n + c] * u[n + c];
        }
        MPI_Request sums;
        MPI_Iallreduce(local, global, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &sums);
        /* m = w (no preconditioner); n = A m, while the sums travel */
        exchange_halo(w, nl, n, up, down, MPI_COMM_WORLD);
        apply_laplacian(w, nv, nl, n);
        MPI_Wait(&sums, MPI_STATUS_IGNORE);

        const double gamma = global[0], delta = global[1];
        if (k > 0) {
            beta = gamma / gamma_old;
            alpha = gamma / (delta - beta * gamma / alpha);
        } else {
            beta = 0.0;
            alpha = gamma / delta;
        }
        gamma_old = gamma;
        for (size_t c = 0; c < len; c++) {
            z[c] = nv[n + c] + beta * z[c];
            q[c] = w[n + c] + beta * q[c];
            s[c] = w[n + c] + beta * s[c];
            p[c] = u[n + c] + beta * p[c];
            x[c] += alpha * p[c];
            r[c] -= alpha * s[c];
            u[n + c] -= alpha * q[c];
            w[n + c] -= alpha * z[c];
        }
        if (rank == 0 && (k + 1) % 50 == 0) printf("result residual_%d %.6e\n", k + 1, sqrt(gamma));
    }
    const double t1 = MPI_Wtime();

    double local = 0.0, checksum = 0.0, rr = 0.0, residual = 0.0;
    for (size_t c = 0; c < len; c++) {
        local += x[c] * (1.0 + (double)((first * n + c) % 5));
        rr += r[c] * r[c];
    }
    MPI_Reduce(&local, &checksum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&rr, &residual, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("result solution %.10e\n", checksum);
        printf("result final_residual %.6e\n", sqrt(residual));
        printf("loop: %d iterations, %.6f s, %.6e s per iteration\n", iterations, t1 - t0, (t1 - t0) / iterations);
    }
    free(x); free(b); free(r); free(u); free(w); free(nv); free(p); free(s); free(q); free(z);
    MPI_Finalize();
    return 0;
}
