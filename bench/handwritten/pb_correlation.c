/* pb_correlation (examples/polybench/correlation.weir `correlation`):
 * PolyBench/C 4.2.1 datamining/correlation.
 *   (float_n: f64) (data: [n][m]f64) : [m][m]f64
 * PolyBench's kernel_correlation loop nest as written (eps = 0.1): column
 * means, standard deviations (sqrt, 1.0 where <= eps), the data centred and
 * scaled in place (here in a copy of the input made inside each call, the
 * work buffer allocated with the inputs), then corr[i][j] for j > i summed
 * over k in order, mirrored, and 1.0 on the diagonal.  Bit-identical to
 * PolyBench. */
#include "harness.h"

H_KERNEL static void pb_correlation(int64_t m, int64_t n, double float_n,
                                    const double *restrict data_in, double *restrict data,
                                    double *restrict mean, double *restrict stddev,
                                    double *restrict corr) {
    double eps = 0.1;
    memcpy(data, data_in, (size_t)(n * m) * sizeof(double));
    for (int64_t j = 0; j < m; j++) {
        mean[j] = 0.0;
        for (int64_t i = 0; i < n; i++) mean[j] += data[i * m + j];
        mean[j] /= float_n;
    }
    for (int64_t j = 0; j < m; j++) {
        stddev[j] = 0.0;
        for (int64_t i = 0; i < n; i++)
            stddev[j] += (data[i * m + j] - mean[j]) * (data[i * m + j] - mean[j]);
        stddev[j] /= float_n;
        stddev[j] = sqrt(stddev[j]);
        stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
    }
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < m; j++) {
            data[i * m + j] -= mean[j];
            data[i * m + j] /= sqrt(float_n) * stddev[j];
        }
    for (int64_t i = 0; i < m - 1; i++) {
        corr[i * m + i] = 1.0;
        for (int64_t j = i + 1; j < m; j++) {
            corr[i * m + j] = 0.0;
            for (int64_t k = 0; k < n; k++) corr[i * m + j] += data[k * m + i] * data[k * m + j];
            corr[j * m + i] = corr[i * m + j];
        }
    }
    if (m > 0) corr[(m - 1) * m + (m - 1)] = 1.0;
}

static int64_t m, n;
static double float_n, *data_in, *data, *mean, *stddev, *corr;

static void bench_read(FILE *in) {
    int64_t dd[2];
    float_n = h_read_f64(in, "float_n");
    data_in = h_read_array_f64(in, 2, dd, "data");
    n = dd[0];
    m = dd[1];
    data = h_alloc_f64((size_t)(n * m));
    mean = h_alloc_f64((size_t)m);
    stddev = h_alloc_f64((size_t)m);
    corr = h_alloc_f64((size_t)(m * m));
}

static void bench_run(void) { pb_correlation(m, n, float_n, data_in, data, mean, stddev, corr); }

static void bench_write(FILE *f) {
    int64_t dims[2] = {m, m};
    h_write_array_f64(f, 2, dims, corr);
}
