/* Bundle adjustment: ADBench's project() (examples/ba.weir), shared by
 * ba_project.c and ba_objective.c.  Every sum and product is evaluated in the
 * order of the Weir program (which follows ADBench's C++ reference):
 *   sqnorm/dot:  ((0 + v0 w0) + v1 w1) + v2 w2
 *   rotate:      (x cos + (w x x) sin) + w ((w . x)(1 - cos))
 *   distort:     l = (1 + k0 rsq) + (k1 rsq) rsq
 *   project:     distorted * f + x0
 * A camera is 11 doubles: r[0:3], C[3:6], f[6], x0[7:9], k[9:11]. */
#ifndef WEIR_BENCH_BA_H
#define WEIR_BENCH_BA_H

static inline void ba_project(const double *restrict cam, const double *restrict X,
                              double *restrict proj) {
    const double *rot = cam;
    double x[3] = {X[0] - cam[3], X[1] - cam[4], X[2] - cam[5]};
    double sqtheta = 0.0;
    sqtheta += rot[0] * rot[0];
    sqtheta += rot[1] * rot[1];
    sqtheta += rot[2] * rot[2];
    double xc[3];
    if (sqtheta != 0.0) {
        const double theta = sqrt(sqtheta);
        const double costheta = cos(theta);
        const double sintheta = sin(theta);
        const double thetaInv = 1.0 / theta;
        const double w[3] = {rot[0] * thetaInv, rot[1] * thetaInv, rot[2] * thetaInv};
        const double wx[3] = {w[1] * x[2] - w[2] * x[1],
                              w[2] * x[0] - w[0] * x[2],
                              w[0] * x[1] - w[1] * x[0]};
        double dot = 0.0;
        dot += w[0] * x[0];
        dot += w[1] * x[1];
        dot += w[2] * x[2];
        const double tmp = dot * (1.0 - costheta);
        for (int i = 0; i < 3; i++) xc[i] = (x[i] * costheta + wx[i] * sintheta) + w[i] * tmp;
    } else {
        xc[0] = x[0] + (rot[1] * x[2] - rot[2] * x[1]);
        xc[1] = x[1] + (rot[2] * x[0] - rot[0] * x[2]);
        xc[2] = x[2] + (rot[0] * x[1] - rot[1] * x[0]);
    }
    const double p0 = xc[0] / xc[2];
    const double p1 = xc[1] / xc[2];
    double rsq = 0.0;
    rsq += p0 * p0;
    rsq += p1 * p1;
    const double l = 1.0 + cam[9] * rsq + cam[10] * rsq * rsq;
    proj[0] = (p0 * l) * cam[6] + cam[7];
    proj[1] = (p1 * l) * cam[6] + cam[8];
}

#endif
