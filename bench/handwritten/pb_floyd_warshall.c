/* pb_floyd_warshall (examples/polybench/floyd_warshall.weir `floyd_warshall`):
 * PolyBench/C 4.2.1 medley/floyd-warshall (int64_t where PolyBench has int).
 *   (path: [n][n]i64) : [n][n]i64
 * PolyBench's kernel_floyd_warshall loop nest as written (k, i, j; the
 * conditional expression of PolyBench), in place on a copy of the input
 * made inside each call (the result buffer).  The same integers as
 * PolyBench. */
#include "harness.h"

H_KERNEL static void pb_floyd_warshall(int64_t n, const int64_t *restrict path_in,
                                       int64_t *restrict path) {
    memcpy(path, path_in, (size_t)(n * n) * sizeof(int64_t));
    for (int64_t k = 0; k < n; k++)
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++)
                path[i * n + j] = path[i * n + j] < path[i * n + k] + path[k * n + j]
                                      ? path[i * n + j]
                                      : path[i * n + k] + path[k * n + j];
}

static int64_t n;
static int64_t *path_in, *path;

static void bench_read(FILE *in) {
    int64_t d[2];
    path_in = h_read_array_i64(in, 2, d, "path");
    n = d[0];
    h_expect_dim("path (inner)", d[1], n);
    path = (int64_t *)h_alloc((size_t)(n * n), sizeof(int64_t));
}

static void bench_run(void) { pb_floyd_warshall(n, path_in, path); }

static void bench_write(FILE *f) {
    int64_t dims[2] = {n, n};
    h_write_bytes(f, dims, sizeof dims);
    h_write_bytes(f, path, (size_t)(n * n) * sizeof(int64_t));
}
