// transposecat (examples/transpose_cat.weir `transpose_cat`): a [n][m] and
// b [k][n] (Matrix, matrix.hpp) -> the transpose of a stacked on b,
// [m + k][n].  The kernel makes the result Matrix (one allocation per call,
// zero-filled by the constructor first), writes out(j, i) = a(i, j) in a plain
// i-j loop nest (rows of a read with unit stride, columns of the result
// written; no blocking) and copies b's elements after the first m rows with
// std::copy.  Elements are copied, never computed: bit-identical to Weir.
#include <algorithm>
#include <cstddef>

#include "harness.hpp"
#include "matrix.hpp"

namespace {

BENCH_KERNEL Matrix transpose_cat(const Matrix &a, const Matrix &b) {
    const std::size_t n = a.rows(), m = a.cols();
    Matrix out(m + b.rows(), n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < m; ++j) out(j, i) = a(i, j);
    std::copy(b.elements().begin(), b.elements().end(),
              out.elements().begin() + static_cast<std::ptrdiff_t>(m * n));
    return out;
}

struct Inputs {
    Matrix a, b;
};

Inputs read_inputs(bench::Reader &in) {
    Inputs v;
    v.a = read_matrix(in, "a");
    v.b = read_matrix(in, "b");
    expect_size("b (inner)", v.b.cols(), v.a.rows());
    return v;
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, read_inputs, [](const Inputs &v) { return transpose_cat(v.a, v.b); },
        [](bench::Writer &out, const Matrix &r) { write_matrix(out, r); });
}
