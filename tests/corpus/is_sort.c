/*
 * is_sort.c -- parallel integer bucket sort (in the style of the NAS IS kernel)
 *
 * Every iteration each rank generates a fresh set of integer keys with a
 * linear congruential generator seeded from (iteration, rank).  Keys follow
 * a bell-shaped distribution (average of four uniforms, as in NAS IS) whose
 * centre is shifted slightly from iteration to iteration, so the key ranges
 * owned by the ranks receive different numbers of keys.  The key space
 * [0, MAX_KEY) is split into P equal ranges, one per rank.  Each iteration:
 *
 *   1. generate keys, count keys per destination rank,
 *   2. exchange the counts (MPI_Alltoall),
 *   3. redistribute the keys (MPI_Alltoallv),
 *   4. rank the received keys locally with a counting sort,
 *   5. partial verification: global key count, key checksum, ordering
 *      errors and the global rank of a few test keys (MPI_Allreduce).
 *
 * Usage: is_sort [n [iterations]]
 *   n           keys generated per rank per iteration (default 262144)
 *   iterations  number of sort iterations              (default 15)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

#define NTEST 5

static uint64_t lcg_state;

static inline double lcg_uniform(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lcg_state >> 11) * (1.0 / 9007199254740992.0);
}

static void lcg_seed(int iter, int rank)
{
    lcg_state = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)(iter + 1) * 0xBF58476D1CE4E5B9ULL)
                ^ ((uint64_t)(rank + 1) * 0x94D049BB133111EBULL);
    for (int i = 0; i < 8; i++) (void)lcg_uniform();
}

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    /* ---- parameters: set on rank 0, broadcast to all ---- */
    long nkeys = 262144;
    int niter = 15;
    int max_key_log2 = 20;
    int test_keys[NTEST];
    if (rank == 0) {
        if (argc > 1) nkeys = atol(argv[1]);
        if (argc > 2) niter = atoi(argv[2]);
        if (nkeys < 2 * 64) nkeys = 2 * 64;
        if (niter < 1) niter = 1;
        for (int t = 0; t < NTEST; t++)
            test_keys[t] = (int)(((long)(t + 1) << max_key_log2) / (NTEST + 1));
        printf("IS sort: %d ranks, %ld keys/rank, max key 2^%d, %d iterations\n",
               nprocs, nkeys, max_key_log2, niter);
    }
    MPI_Bcast(&nkeys, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    MPI_Bcast(&niter, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&max_key_log2, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(test_keys, NTEST, MPI_INT, 0, MPI_COMM_WORLD);

    const int max_key = 1 << max_key_log2;
    /* key range owned by rank r: [lo(r), lo(r+1)) */
    int *range_lo = malloc((nprocs + 1) * sizeof(int));
    for (int r = 0; r <= nprocs; r++)
        range_lo[r] = (int)(((long)max_key * r) / nprocs);
    const int my_lo = range_lo[rank], my_hi = range_lo[rank + 1];
    const int my_range = my_hi - my_lo;

    int *keys = malloc(nkeys * sizeof(int));
    int *sendbuf = malloc(nkeys * sizeof(int));
    long recv_cap = nkeys * nprocs;  /* upper bound: every key lands here */
    int *recvbuf = malloc(recv_cap * sizeof(int));
    int *sorted = malloc(recv_cap * sizeof(int));
    int *key_count = malloc((my_range + 1) * sizeof(int));
    int *scount = calloc(nprocs, sizeof(int)), *rcount = calloc(nprocs, sizeof(int));
    int *sdispl = calloc(nprocs, sizeof(int)), *rdispl = calloc(nprocs, sizeof(int));
    int *fill = calloc(nprocs, sizeof(int));
    if (!keys || !sendbuf || !recvbuf || !sorted || !key_count) {
        fprintf(stderr, "rank %d: allocation failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    /* accumulated verification data */
    long long total_keys = 0, total_errors = 0;
    double checksum = 0.0, test_rank_sum = 0.0;
    long max_local = 0, min_local = 1L << 60;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();

    for (int it = 1; it <= niter; it++) {
        /* 1. key generation: average of 4 uniforms, centre drifts with it */
        lcg_seed(it, rank);
        const double shift = 0.93 + 0.01 * (it % 5);
        for (long i = 0; i < nkeys; i++) {
            double x = lcg_uniform() + lcg_uniform() + lcg_uniform() + lcg_uniform();
            int k = (int)(0.25 * x * shift * max_key);
            keys[i] = k < max_key ? k : max_key - 1;
        }
        if (rank == 0) {            /* NAS-style per-iteration modification */
            if (it + niter < nkeys) {
                keys[it] = it;
                keys[it + niter] = max_key - it;
            }
        }

        /* bucket counts per destination rank */
        memset(scount, 0, nprocs * sizeof(int));
        for (long i = 0; i < nkeys; i++)
            scount[(int)(((long)keys[i] * nprocs) >> max_key_log2)]++;
        sdispl[0] = 0;
        for (int r = 1; r < nprocs; r++) sdispl[r] = sdispl[r - 1] + scount[r - 1];
        memcpy(fill, sdispl, nprocs * sizeof(int));
        for (long i = 0; i < nkeys; i++) {
            int d = (int)(((long)keys[i] * nprocs) >> max_key_log2);
            sendbuf[fill[d]++] = keys[i];
        }

        /* 2./3. exchange counts, then keys */
        MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, MPI_COMM_WORLD);
        rdispl[0] = 0;
        for (int r = 1; r < nprocs; r++) rdispl[r] = rdispl[r - 1] + rcount[r - 1];
        long nrecv = rdispl[nprocs - 1] + rcount[nprocs - 1];
        if (nrecv > recv_cap) {
            fprintf(stderr, "rank %d: receive buffer overflow (%ld)\n", rank, nrecv);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        MPI_Alltoallv(sendbuf, scount, sdispl, MPI_INT,
                      recvbuf, rcount, rdispl, MPI_INT, MPI_COMM_WORLD);

        /* 4. local counting sort over [my_lo, my_hi) */
        memset(key_count, 0, (my_range + 1) * sizeof(int));
        long long bad_range = 0;
        for (long i = 0; i < nrecv; i++) {
            int k = recvbuf[i] - my_lo;
            if (k < 0 || k >= my_range) { bad_range++; continue; }
            key_count[k + 1]++;
        }
        for (int k = 0; k < my_range; k++) key_count[k + 1] += key_count[k];
        /* key_count[k] = number of local keys < my_lo + k */
        for (long i = 0; i < nrecv; i++) {
            int k = recvbuf[i] - my_lo;
            if (k >= 0 && k < my_range) sorted[key_count[k]++] = recvbuf[i];
        }
        /* after the placement pass key_count[k] = #keys <= my_lo + k */

        /* 5. partial verification */
        long long local[3 + NTEST];
        long long global[3 + NTEST];
        long long order_err = bad_range;
        double ksum = 0.0;
        for (long i = 0; i < nrecv - bad_range; i++) {
            if (i > 0 && sorted[i] < sorted[i - 1]) order_err++;
            ksum += sorted[i];
        }
        local[0] = nrecv;
        local[1] = order_err;
        local[2] = (long long)ksum;
        for (int t = 0; t < NTEST; t++) {
            int tk = test_keys[t] - my_lo;          /* keys strictly below tk */
            if (tk <= 0) local[3 + t] = 0;
            else if (tk >= my_range) local[3 + t] = nrecv - bad_range;
            else local[3 + t] = key_count[tk - 1];
        }
        MPI_Allreduce(local, global, 3 + NTEST, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);

        total_keys += global[0];
        total_errors += global[1];
        checksum += (double)global[2];
        for (int t = 0; t < NTEST; t++) test_rank_sum += (double)global[3 + t] * (t + 1);
        if (nrecv > max_local) max_local = nrecv;
        if (nrecv < min_local) min_local = nrecv;
    }

    double t1 = MPI_Wtime();

    long gmax, gmin;
    MPI_Reduce(&max_local, &gmax, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&min_local, &gmin, 1, MPI_LONG, MPI_MIN, 0, MPI_COMM_WORLD);

    if (rank == 0) {
        printf("bucket sizes: min %ld max %ld keys per rank\n", gmin, gmax);
        printf("verification: %s\n",
               (total_errors == 0 && total_keys == (long long)nkeys * nprocs * niter)
                   ? "SUCCESSFUL" : "FAILED");
        printf("result total_keys %lld\n", total_keys);
        printf("result key_checksum %.10e\n", checksum);
        printf("result test_rank_sum %.10e\n", test_rank_sum);
        printf("result errors %lld\n", total_errors);
        printf("loop: %d iterations, %.6f s, %.6e s per iteration\n",
               niter, t1 - t0, (t1 - t0) / niter);
    }

    free(keys); free(sendbuf); free(recvbuf); free(sorted); free(key_count);
    free(scount); free(rcount); free(sdispl); free(rdispl); free(fill); free(range_lo);
    MPI_Finalize();
    return 0;
}
