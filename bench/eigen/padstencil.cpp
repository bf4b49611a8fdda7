// padstencil (examples/pad_stencil.weir `pad_stencil`):
//   (a: [n]f64) : [n]f64,  out[i] = ((l + a[i]) + r) * 0.5
// with l = a[i-1] (0.0 at i = 0) and r = a[i+1] (0.0 at i = n-1): pad with
// zeros, then the 3-point stencil.  No padded copy: the interior is one
// segment expression, out.segment(1, m) = (a.head(m) + a.segment(1, m) +
// a.tail(m)) * 0.5 (m = n - 2), evaluated in one vectorized loop in Weir's
// order of the sum (bit-identical results), and the two ends, where the
// padding's 0.0 is added, are written as scalars.  The result is allocated
// at setup.
#include "harness.hpp"

using Eigen::Index;
using Eigen::VectorXd;

[[gnu::noinline]] static void pad_stencil(const VectorXd &a, VectorXd &out) {
    const Index n = a.size();
    if (n == 0) return;
    if (n == 1) {
        out(0) = ((0.0 + a(0)) + 0.0) * 0.5;
        return;
    }
    const Index m = n - 2;
    out(0) = ((0.0 + a(0)) + a(1)) * 0.5;
    out.segment(1, m) = (a.head(m) + a.segment(1, m) + a.tail(m)) * 0.5;
    out(n - 1) = ((a(n - 2) + a(n - 1)) + 0.0) * 0.5;
}

struct PadStencil {
    VectorXd a, out;

    void read(bench::Input &in) {
        in.vector(a, "a");
        out = VectorXd::Zero(a.size());
    }
    void run() { pad_stencil(a, out); }
    void write(bench::Output &o) { o.vector(out); }
};

int main(int argc, char **argv) { return bench::main<PadStencil>(argc, argv); }
