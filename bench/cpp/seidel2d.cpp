// seidel2d (examples/seidel2d.weir, PolyBench seidel-2d).  Flat row-major
// Matrix (matrix.hpp).  The kernel takes A by value (the caller's copy is the
// work array: one allocation per call) and runs PolyBench's in-place
// Gauss-Seidel sweeps, rows then columns in increasing order, with
// PolyBench's order of the nine-point sum; it returns A.
#include <cstdint>

#include "harness.hpp"
#include "matrix.hpp"

namespace {

BENCH_KERNEL Matrix seidel_2d(std::int64_t tsteps, Matrix a) {
    const std::size_t n = a.rows();
    for (std::int64_t t = 0; t < tsteps; ++t)
        for (std::size_t i = 1; i + 1 < n; ++i)
            for (std::size_t j = 1; j + 1 < n; ++j)
                a(i, j) = (a(i - 1, j - 1) + a(i - 1, j) + a(i - 1, j + 1) + a(i, j - 1) + a(i, j) + a(i, j + 1) +
                           a(i + 1, j - 1) + a(i + 1, j) + a(i + 1, j + 1)) /
                          9.0;
    return a;
}

struct Inputs {
    std::int64_t tsteps = 0;
    Matrix a;
};

Inputs read_inputs(bench::Reader &in) {
    Inputs v;
    v.tsteps = in.i64("tsteps");
    v.a = read_matrix(in, "a");
    expect_size("a (inner)", v.a.cols(), v.a.rows());
    return v;
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, read_inputs, [](const Inputs &v) { return seidel_2d(v.tsteps, v.a); },
        [](bench::Writer &out, const Matrix &r) { write_matrix(out, r); });
}
