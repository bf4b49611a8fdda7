// jacobi2d (examples/jacobi2d.weir, PolyBench jacobi-2d).  Flat row-major
// Matrix (matrix.hpp).  The kernel takes A and B by value (the caller's
// copies are its work arrays: two allocations per call), runs PolyBench's
// time loop in place (B from A, then A from B, on the interior, with
// PolyBench's order of the five-point sum) and returns A.
#include <cstdint>

#include "harness.hpp"
#include "matrix.hpp"

namespace {

BENCH_KERNEL Matrix jacobi_2d(std::int64_t tsteps, Matrix a, Matrix b) {
    const std::size_t n = a.rows();
    for (std::int64_t t = 0; t < tsteps; ++t) {
        for (std::size_t i = 1; i + 1 < n; ++i)
            for (std::size_t j = 1; j + 1 < n; ++j)
                b(i, j) = 0.2 * (a(i, j) + a(i, j - 1) + a(i, j + 1) + a(i + 1, j) + a(i - 1, j));
        for (std::size_t i = 1; i + 1 < n; ++i)
            for (std::size_t j = 1; j + 1 < n; ++j)
                a(i, j) = 0.2 * (b(i, j) + b(i, j - 1) + b(i, j + 1) + b(i + 1, j) + b(i - 1, j));
    }
    return a;
}

struct Inputs {
    std::int64_t tsteps = 0;
    Matrix a, b;
};

Inputs read_inputs(bench::Reader &in) {
    Inputs v;
    v.tsteps = in.i64("tsteps");
    v.a = read_matrix(in, "a");
    v.b = read_matrix(in, "b");
    expect_size("a (inner)", v.a.cols(), v.a.rows());
    expect_size("b", v.b.rows(), v.a.rows());
    expect_size("b (inner)", v.b.cols(), v.a.rows());
    return v;
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, read_inputs, [](const Inputs &v) { return jacobi_2d(v.tsteps, v.a, v.b); },
        [](bench::Writer &out, const Matrix &r) { write_matrix(out, r); });
}
