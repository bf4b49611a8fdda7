// A small dense matrix for the PolyBench baselines (gemm, mm2, mm3,
// jacobi2d, seidel2d): one flat std::vector<double> in row-major order plus
// its two extents, indexed with m(i, j).  This is what a C++ programmer who
// does not want a library writes for numerical code: one allocation per
// matrix, contiguous rows, value semantics (copy, move, return by value).
#ifndef WEIR_BENCH_CPP_MATRIX_HPP
#define WEIR_BENCH_CPP_MATRIX_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness.hpp"

class Matrix {
public:
    Matrix() = default;
    Matrix(std::size_t rows, std::size_t cols) : rows_(rows), cols_(cols), data_(rows * cols) {}

    std::size_t rows() const { return rows_; }
    std::size_t cols() const { return cols_; }

    double &operator()(std::size_t i, std::size_t j) { return data_[i * cols_ + j]; }
    double operator()(std::size_t i, std::size_t j) const { return data_[i * cols_ + j]; }

    // All elements, row after row.
    std::vector<double> &elements() { return data_; }
    const std::vector<double> &elements() const { return data_; }

private:
    std::size_t rows_ = 0;
    std::size_t cols_ = 0;
    std::vector<double> data_;
};

// The matrix product a * b, in i-k-j loop order: the innermost loop runs
// along a row of b and a row of the result, so both are read with unit
// stride.  Every element is still the sum over k in increasing order.
inline Matrix matmul(const Matrix &a, const Matrix &b) {
    Matrix c(a.rows(), b.cols());
    for (std::size_t i = 0; i < a.rows(); ++i) {
        for (std::size_t k = 0; k < a.cols(); ++k) {
            const double aik = a(i, k);
            for (std::size_t j = 0; j < b.cols(); ++j) c(i, j) += aik * b(k, j);
        }
    }
    return c;
}

inline Matrix read_matrix(bench::Reader &in, const char *what) {
    const auto d = in.dims(2, what);
    Matrix m(static_cast<std::size_t>(d[0]), static_cast<std::size_t>(d[1]));
    m.elements() = in.elements<double>(m.rows() * m.cols(), what);
    return m;
}

inline void write_matrix(bench::Writer &out, const Matrix &m) {
    out.dims({static_cast<std::int64_t>(m.rows()), static_cast<std::int64_t>(m.cols())});
    out.elements(m.elements().data(), m.elements().size());
}

// Throws bench::Error unless `got` == `want`.
inline void expect_size(const char *what, std::size_t got, std::size_t want) {
    bench::expect_dim(what, static_cast<std::int64_t>(got), static_cast<std::int64_t>(want));
}

#endif
