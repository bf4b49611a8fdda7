/* The direct C calls overhead.c compares with (another translation unit). */
#include <stdint.h>

double nothing_direct(double x);
void add3_direct(double *out, const double *a, const double *b, const double *c, int64_t n);

double nothing_direct(double x) { return x; }

void add3_direct(double *restrict out, const double *restrict a, const double *restrict b,
                 const double *restrict c, int64_t n) {
    for (int64_t i = 0; i < n; i++) out[i] = a[i] + b[i] + c[i];
}
