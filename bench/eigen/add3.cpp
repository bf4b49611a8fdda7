// add3 (examples/add3.weir `add3`): out = (a + b) + c over [n]f64.
//
// One Eigen expression: `a + b + c` builds an expression tree that is
// evaluated in a single vectorized loop straight into `out` (no temporary for
// a + b); Eigen associates it as (a + b) + c, the Weir program's order.
#include "harness.hpp"

using Eigen::VectorXd;

[[gnu::noinline]] static void add3(const VectorXd &a, const VectorXd &b, const VectorXd &c, VectorXd &out) {
    out = a + b + c;  // coefficient-wise: no aliasing concerns, no temporaries
}

struct Add3 {
    VectorXd a, b, c, out;

    void read(bench::Input &in) {
        in.vector(a, "a");
        in.vector(b, "b");
        in.vector(c, "c");
        bench::expect_dim("b", b.size(), a.size());
        bench::expect_dim("c", c.size(), a.size());
        out = VectorXd::Zero(a.size());
    }
    void run() { add3(a, b, c, out); }
    void write(bench::Output &o) { o.vector(out); }
};

int main(int argc, char **argv) { return bench::main<Add3>(argc, argv); }
