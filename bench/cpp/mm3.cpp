// mm3 (examples/3mm.weir, PolyBench 3mm): (A * B) * (C * D), literally, with
// the matmul of matrix.hpp (flat row-major Matrix, i-k-j loop order).
// Three allocations per call: E = A * B, F = C * D and the result.
#include "harness.hpp"
#include "matrix.hpp"

namespace {

BENCH_KERNEL Matrix mm3(const Matrix &a, const Matrix &b, const Matrix &c, const Matrix &d) {
    return matmul(matmul(a, b), matmul(c, d));
}

struct Inputs {
    Matrix a, b, c, d;
};

Inputs read_inputs(bench::Reader &in) {
    Inputs v;
    v.a = read_matrix(in, "a");
    v.b = read_matrix(in, "b");
    v.c = read_matrix(in, "c");
    v.d = read_matrix(in, "d");
    expect_size("b", v.b.rows(), v.a.cols());
    expect_size("c", v.c.rows(), v.b.cols());
    expect_size("d", v.d.rows(), v.c.cols());
    return v;
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, read_inputs, [](const Inputs &v) { return mm3(v.a, v.b, v.c, v.d); },
        [](bench::Writer &out, const Matrix &r) { write_matrix(out, r); });
}
