/* pb_covariance (examples/polybench/covariance.weir `covariance`): PolyBench/C
 * 4.2.1 datamining/covariance.
 *   (float_n: f64) (data: [n][m]f64) : [m][m]f64
 * PolyBench's kernel_covariance loop nest as written: the column means, the
 * data centred in place (here in a copy of the input made inside each call,
 * the work buffer allocated with the inputs), then cov[i][j] for j >= i
 * summed over k in order (the column walk data[k][i] * data[k][j] of
 * PolyBench) and mirrored to cov[j][i].  Bit-identical to PolyBench. */
#include "harness.h"

H_KERNEL static void pb_covariance(int64_t m, int64_t n, double float_n,
                                   const double *restrict data_in, double *restrict data,
                                   double *restrict mean, double *restrict cov) {
    memcpy(data, data_in, (size_t)(n * m) * sizeof(double));
    for (int64_t j = 0; j < m; j++) {
        mean[j] = 0.0;
        for (int64_t i = 0; i < n; i++) mean[j] += data[i * m + j];
        mean[j] /= float_n;
    }
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < m; j++) data[i * m + j] -= mean[j];
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = i; j < m; j++) {
            cov[i * m + j] = 0.0;
            for (int64_t k = 0; k < n; k++) cov[i * m + j] += data[k * m + i] * data[k * m + j];
            cov[i * m + j] /= (float_n - 1.0);
            cov[j * m + i] = cov[i * m + j];
        }
}

static int64_t m, n;
static double float_n, *data_in, *data, *mean, *cov;

static void bench_read(FILE *in) {
    int64_t dd[2];
    float_n = h_read_f64(in, "float_n");
    data_in = h_read_array_f64(in, 2, dd, "data");
    n = dd[0];
    m = dd[1];
    data = h_alloc_f64((size_t)(n * m));
    mean = h_alloc_f64((size_t)m);
    cov = h_alloc_f64((size_t)(m * m));
}

static void bench_run(void) { pb_covariance(m, n, float_n, data_in, data, mean, cov); }

static void bench_write(FILE *f) {
    int64_t dims[2] = {m, m};
    h_write_array_f64(f, 2, dims, cov);
}
