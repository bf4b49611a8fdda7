// rotstencil (examples/periodic_stencil.weir `periodic_stencil`):
//   (a: [n]f64) : [n]f64,  out[i] = ((a[i-1] + a[i]) + a[i+1]) / 3.0
// with the indices taken mod n: the 3-point stencil on a ring.  Eigen 3 has
// no rotation; without copies the interior is one segment expression,
// out.segment(1, m) = (a.head(m) + a.segment(1, m) + a.tail(m)) / 3.0
// (m = n - 2), evaluated in one vectorized loop in Weir's order of the sum
// (bit-identical results), and the two ends, where the ring wraps, are
// written as scalars.  The result is allocated at setup.
#include "harness.hpp"

using Eigen::Index;
using Eigen::VectorXd;

[[gnu::noinline]] static void periodic_stencil(const VectorXd &a, VectorXd &out) {
    const Index n = a.size();
    if (n == 0) return;
    if (n == 1) {
        out(0) = ((a(0) + a(0)) + a(0)) / 3.0;
        return;
    }
    const Index m = n - 2;
    out(0) = ((a(n - 1) + a(0)) + a(1)) / 3.0;
    out.segment(1, m) = (a.head(m) + a.segment(1, m) + a.tail(m)) / 3.0;
    out(n - 1) = ((a(n - 2) + a(n - 1)) + a(0)) / 3.0;
}

struct RotStencil {
    VectorXd a, out;

    void read(bench::Input &in) {
        in.vector(a, "a");
        out = VectorXd::Zero(a.size());
    }
    void run() { periodic_stencil(a, out); }
    void write(bench::Output &o) { o.vector(out); }
};

int main(int argc, char **argv) { return bench::main<RotStencil>(argc, argv); }
