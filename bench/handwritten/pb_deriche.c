/* pb_deriche (examples/polybench/deriche.weir `deriche`): PolyBench/C 4.2.1
 * medley/deriche in double precision (PolyBench's DATA_TYPE_IS_DOUBLE:
 * exp and pow for EXP_FUN and POW_FUN).
 *   (alpha: f64) (imgIn: [w][h]f64) : [w][h]f64
 * PolyBench's kernel_deriche loop nest as written (the four recursive
 * passes, the column passes walking down the columns), with yy1 and yy2 as
 * work buffers allocated with the inputs.  Bit-identical to PolyBench. */
#include "harness.h"

H_KERNEL static void pb_deriche(int64_t w, int64_t h, double alpha,
                                const double *restrict imgIn, double *restrict imgOut,
                                double *restrict yy1, double *restrict yy2) {
    double xm1, tm1, ym1, ym2, xp1, xp2, tp1, tp2, yp1, yp2, k;
    double a1, a2, a3, a4, a5, a6, a7, a8, b1, b2, c1, c2;
#define IN(i, j) imgIn[(i) * h + (j)]
#define OUT(i, j) imgOut[(i) * h + (j)]
#define Y1(i, j) yy1[(i) * h + (j)]
#define Y2(i, j) yy2[(i) * h + (j)]
    k = (1.0 - exp(-alpha)) * (1.0 - exp(-alpha)) /
        (1.0 + 2.0 * alpha * exp(-alpha) - exp(2.0 * alpha));
    a1 = a5 = k;
    a2 = a6 = k * exp(-alpha) * (alpha - 1.0);
    a3 = a7 = k * exp(-alpha) * (alpha + 1.0);
    a4 = a8 = -k * exp(-2.0 * alpha);
    b1 = pow(2.0, -alpha);
    b2 = -exp(-2.0 * alpha);
    c1 = c2 = 1;
    for (int64_t i = 0; i < w; i++) {
        ym1 = 0.0;
        ym2 = 0.0;
        xm1 = 0.0;
        for (int64_t j = 0; j < h; j++) {
            Y1(i, j) = a1 * IN(i, j) + a2 * xm1 + b1 * ym1 + b2 * ym2;
            xm1 = IN(i, j);
            ym2 = ym1;
            ym1 = Y1(i, j);
        }
    }
    for (int64_t i = 0; i < w; i++) {
        yp1 = 0.0;
        yp2 = 0.0;
        xp1 = 0.0;
        xp2 = 0.0;
        for (int64_t j = h - 1; j >= 0; j--) {
            Y2(i, j) = a3 * xp1 + a4 * xp2 + b1 * yp1 + b2 * yp2;
            xp2 = xp1;
            xp1 = IN(i, j);
            yp2 = yp1;
            yp1 = Y2(i, j);
        }
    }
    for (int64_t i = 0; i < w; i++)
        for (int64_t j = 0; j < h; j++) OUT(i, j) = c1 * (Y1(i, j) + Y2(i, j));
    for (int64_t j = 0; j < h; j++) {
        tm1 = 0.0;
        ym1 = 0.0;
        ym2 = 0.0;
        for (int64_t i = 0; i < w; i++) {
            Y1(i, j) = a5 * OUT(i, j) + a6 * tm1 + b1 * ym1 + b2 * ym2;
            tm1 = OUT(i, j);
            ym2 = ym1;
            ym1 = Y1(i, j);
        }
    }
    for (int64_t j = 0; j < h; j++) {
        tp1 = 0.0;
        tp2 = 0.0;
        yp1 = 0.0;
        yp2 = 0.0;
        for (int64_t i = w - 1; i >= 0; i--) {
            Y2(i, j) = a7 * tp1 + a8 * tp2 + b1 * yp1 + b2 * yp2;
            tp2 = tp1;
            tp1 = OUT(i, j);
            yp2 = yp1;
            yp1 = Y2(i, j);
        }
    }
    for (int64_t i = 0; i < w; i++)
        for (int64_t j = 0; j < h; j++) OUT(i, j) = c2 * (Y1(i, j) + Y2(i, j));
#undef IN
#undef OUT
#undef Y1
#undef Y2
}

static int64_t w, h;
static double alpha, *imgIn, *imgOut, *yy1, *yy2;

static void bench_read(FILE *in) {
    int64_t d[2];
    alpha = h_read_f64(in, "alpha");
    imgIn = h_read_array_f64(in, 2, d, "imgIn");
    w = d[0];
    h = d[1];
    imgOut = h_alloc_f64((size_t)(w * h));
    yy1 = h_alloc_f64((size_t)(w * h));
    yy2 = h_alloc_f64((size_t)(w * h));
}

static void bench_run(void) { pb_deriche(w, h, alpha, imgIn, imgOut, yy1, yy2); }

static void bench_write(FILE *f) {
    int64_t dims[2] = {w, h};
    h_write_array_f64(f, 2, dims, imgOut);
}
