/* mm3 (examples/3mm.weir `mm3`): PolyBench/C 4.2.1 3mm, G := (A*B)*(C*D).
 *   (a: [ni][nk]f64) (b: [nk][nj]f64) (c: [nj][nm]f64) (d: [nm][nl]f64) : [ni][nl]f64
 * E = A*B, F = C*D, G = E*F, each element summed from 0.0 over k in order, as
 * PolyBench and the Weir program do; the products are blocked i-k-j loops
 * (matmul.h), which keep that order per element.  E and F are work buffers
 * allocated once when the inputs are read (PolyBench also passes them in). */
#include "harness.h"
#include "matmul.h"

H_KERNEL static void mm3(int64_t ni, int64_t nj, int64_t nk, int64_t nl, int64_t nm,
                         const double *restrict a, const double *restrict b,
                         const double *restrict c, const double *restrict d,
                         double *restrict e, double *restrict f, double *restrict g) {
    for (int64_t i = 0; i < ni * nj; i++) e[i] = 0.0;
    mm_accumulate(ni, nj, nk, 1.0, a, b, e);
    for (int64_t i = 0; i < nj * nl; i++) f[i] = 0.0;
    mm_accumulate(nj, nl, nm, 1.0, c, d, f);
    for (int64_t i = 0; i < ni * nl; i++) g[i] = 0.0;
    mm_accumulate(ni, nl, nj, 1.0, e, f, g);
}

static int64_t ni, nj, nk, nl, nm;
static double *a, *b, *c, *d, *e, *f, *g;

static void bench_read(FILE *in) {
    int64_t da[2], db[2], dc[2], dd[2];
    a = h_read_array_f64(in, 2, da, "a");
    b = h_read_array_f64(in, 2, db, "b");
    c = h_read_array_f64(in, 2, dc, "c");
    d = h_read_array_f64(in, 2, dd, "d");
    ni = da[0];
    nk = da[1];
    nj = db[1];
    nm = dc[1];
    nl = dd[1];
    h_expect_dim("b", db[0], nk);
    h_expect_dim("c", dc[0], nj);
    h_expect_dim("d", dd[0], nm);
    e = h_alloc_f64(mm_cells(ni, nj));
    f = h_alloc_f64(mm_cells(nj, nl));
    g = h_alloc_f64(mm_cells(ni, nl));
}

static void bench_run(void) { mm3(ni, nj, nk, nl, nm, a, b, c, d, e, f, g); }

static void bench_write(FILE *out) {
    int64_t dims[2] = {ni, nl};
    h_write_array_f64(out, 2, dims, g);
}
