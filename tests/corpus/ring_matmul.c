/*
 * ring_matmul.c -- systolic ring matrix multiplication with power iteration
 *
 * Dense N x N matrices A, B, C are distributed by block rows over P ranks
 * (N is rounded up to a multiple of P).  C = A * B is computed with the
 * classic systolic ring algorithm: each rank keeps its row block of A and
 * one row block of B; in each of the P shift steps it multiplies the
 * matching column block of A with the B block it holds, then passes the
 * B block to the previous rank on the ring (MPI_Sendrecv_replace).  After
 * P steps every B block has visited every rank and is back home.
 *
 * The main loop is a block power iteration  B <- A*B / ||A*B||_F : the
 * Frobenius norm is formed with MPI_Allreduce and the normalised product
 * becomes the next right-hand block.  The norm ratio converges to the
 * dominant eigenvalue of A, which is reported together with a checksum of
 * the final block.
 *
 * Usage: ring_matmul [n [iterations]]
 *   n           matrix order             (default 256)
 *   iterations  power-iteration steps    (default 20)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    /* ---- parameters: set on rank 0, broadcast ---- */
    int n = 256, niter = 20;
    double shift = 0.5;            /* diagonal shift of the operator */
    if (rank == 0) {
        if (argc > 1) n = atoi(argv[1]);
        if (argc > 2) niter = atoi(argv[2]);
        if (n < nprocs) n = nprocs;
        if (niter < 1) niter = 1;
        n = ((n + nprocs - 1) / nprocs) * nprocs;
        printf("Ring matmul: %d ranks, N = %d, %d power iterations\n", nprocs, n, niter);
    }
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&niter, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&shift, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);

    const int nl = n / nprocs;            /* rows per rank */
    const int row0 = rank * nl;
    const int left = (rank - 1 + nprocs) % nprocs;
    const int right = (rank + 1) % nprocs;

    double *A = malloc((size_t)nl * n * sizeof(double));
    double *B = malloc((size_t)nl * n * sizeof(double));   /* travelling block */
    double *C = malloc((size_t)nl * n * sizeof(double));
    if (!A || !B || !C) {
        fprintf(stderr, "rank %d: allocation failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    /* ---- initialisation: smooth symmetric kernel plus diagonal shift ---- */
    for (int i = 0; i < nl; i++) {
        int gi = row0 + i;
        for (int j = 0; j < n; j++) {
            double d = (double)(gi - j) / n;
            A[(size_t)i * n + j] = exp(-8.0 * d * d) / n + (gi == j ? shift / n : 0.0);
            B[(size_t)i * n + j] = 1.0 + (double)((gi * 7 + j * 3) % 11) / 10.0;
        }
    }

    double lambda = 0.0;
    {   /* normalise the start block */
        double s = 0.0, g;
        for (size_t k = 0; k < (size_t)nl * n; k++) s += B[k] * B[k];
        MPI_Allreduce(&s, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        g = 1.0 / sqrt(g);
        for (size_t k = 0; k < (size_t)nl * n; k++) B[k] *= g;
    }

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    for (int it = 0; it < niter; it++) {
        memset(C, 0, (size_t)nl * n * sizeof(double));
        for (int step = 0; step < nprocs; step++) {
            int blk = (rank + step) % nprocs;        /* B row block held now */
            for (int i = 0; i < nl; i++) {
                const double *a = A + (size_t)i * n + (size_t)blk * nl;
                double *c = C + (size_t)i * n;
                for (int k = 0; k < nl; k++) {
                    const double aik = a[k];
                    const double *b = B + (size_t)k * n;
                    for (int j = 0; j < n; j++) c[j] += aik * b[j];
                }
            }
            MPI_Sendrecv_replace(B, nl * n, MPI_DOUBLE, left, 100 + step,
                                 right, 100 + step, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }

        /* normalise and feed back */
        double s = 0.0, g;
        for (size_t k = 0; k < (size_t)nl * n; k++) s += C[k] * C[k];
        MPI_Allreduce(&s, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double norm = sqrt(g);
        lambda = norm;                      /* ||A B|| with ||B|| = 1 */
        double inv = 1.0 / norm;
        for (size_t k = 0; k < (size_t)nl * n; k++) B[k] = C[k] * inv;
    }

    double t1 = MPI_Wtime();

    double loc[2] = {0.0, 0.0}, glob[2];
    for (int i = 0; i < nl; i++) {
        loc[0] += B[(size_t)i * n + row0 + i];               /* trace */
        for (int j = 0; j < n; j++) loc[1] += B[(size_t)i * n + j];
    }
    MPI_Reduce(loc, glob, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);

    if (rank == 0) {
        printf("result lambda %.10e\n", lambda);
        printf("result trace %.10e\n", glob[0]);
        printf("result checksum %.10e\n", glob[1]);
        printf("loop: %d iterations, %.6f s, %.6e s per iteration\n",
               niter, t1 - t0, (t1 - t0) / niter);
    }

    free(A); free(B); free(C);
    MPI_Finalize();
    return 0;
}
