// lu (examples/lu.weir `lu`, PolyBench lu): LU decomposition without
// pivoting.  The kernel takes A by value (the caller's copy is the work
// array: one allocation per call) and eliminates right-looking in place, the
// order of the hand-written C: for each pivot k and row i > k, the
// multiplier a(i, k) / a(k, k) replaces a(i, k), then a(i, j) -= l * a(k, j)
// for j > k along the row.  It returns A.
#include <cstdint>

#include "harness.hpp"
#include "matrix.hpp"

namespace {

BENCH_KERNEL Matrix lu(Matrix a) {
    const std::size_t n = a.rows();
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t i = k + 1; i < n; ++i) {
            const double l = a(i, k) / a(k, k);
            a(i, k) = l;
            for (std::size_t j = k + 1; j < n; ++j) a(i, j) -= l * a(k, j);
        }
    return a;
}

Matrix read_inputs(bench::Reader &in) {
    Matrix a = read_matrix(in, "a");
    expect_size("a (inner)", a.cols(), a.rows());
    return a;
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, read_inputs, [](const Matrix &a) { return lu(a); },
        [](bench::Writer &out, const Matrix &r) { write_matrix(out, r); });
}
