// Benchmark harness for the C++/Eigen baselines (bench/eigen/).
//
// Every program follows the suite's process protocol:
//
//   prog [--runs N] [--warmup W] [--in FILE] [--out FILE] [--stats]
//
// It reads the kernel's inputs from FILE (default stdin), runs W untimed
// calls of the kernel, then N timed ones, writes the result of the last call
// to FILE (default stdout), and with --stats prints one line to stderr:
//
//   stats: runs=N total_ns=T ns_per_run=X peak_rss_kb=K sys_allocs=A peak_bytes=B
//
// T is the CLOCK_MONOTONIC time of the whole loop of N calls, X = T / N,
// K = the peak RSS (VmHWM, see peak_rss_kb), A = the number of heap allocations made during
// the timed loop and B = the peak number of heap bytes (usable sizes) live
// during the loop above the level at its start.  A and B come from
// interposing glibc's allocator (malloc, calloc, realloc, aligned_alloc,
// posix_memalign, free); Eigen's aligned allocator and operator new both end
// up there, so Eigen temporaries and std containers are counted.  Where the
// interposition is not available (not glibc, or -DHARNESS_NO_MALLOC_COUNT)
// both are printed as -1.
//
// Binary format (native little-endian): the parameters one after another in
// order; f64 and i64 are 8 bytes; an array of rank r is r int64 dims, then
// its elements row-major and packed.  The result uses the same format (a tuple
// is its components in order).
//
// A program includes this header, defines a class with
//
//   void read(bench::Input &in);     // read the inputs, allocate the outputs
//   void run();                      // one call of the kernel
//   void write(bench::Output &out);  // write the result of the last call
//
// and ends with `int main(int argc, char **argv) { return bench::main<T>(argc, argv); }`.
// The kernels themselves are [[gnu::noinline]] free functions; after every
// call the loop has a compiler memory barrier, so no call can be hoisted out
// of the loop or dropped.
#ifndef WEIR_BENCH_EIGEN_HARNESS_HPP
#define WEIR_BENCH_EIGEN_HARNESS_HPP

#include <Eigen/Core>

#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

#include <sys/resource.h>
#include <time.h>

#if defined(__GLIBC__) && !defined(HARNESS_NO_MALLOC_COUNT)
#define BENCH_COUNT_ALLOCS 1
#else
#define BENCH_COUNT_ALLOCS 0
#endif

namespace bench {

// Peak resident set size of this process image in KiB: VmHWM of
// /proc/self/status, the high-water mark of the current address space.
// getrusage's ru_maxrss comes second because Linux carries it across execve,
// so a process started by a large parent (a runner spawning with vfork) would
// report the parent's peak.
inline long peak_rss_kb() {
    if (std::FILE *f = std::fopen("/proc/self/status", "r")) {
        char line[256];
        long kb = -1;
        while (std::fgets(line, sizeof line, f)) {
            if (std::strncmp(line, "VmHWM:", 6) == 0) {
                kb = std::strtol(line + 6, nullptr, 10);
                break;
            }
        }
        std::fclose(f);
        if (kb >= 0) return kb;
    }
    rusage ru{};
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}


// ---------------------------------------------------------------------------
// Allocation counting state (updated by the interposed allocator below).

inline bool counting = false;
inline unsigned long long alloc_count = 0;
inline long long live_bytes = 0, peak_bytes = 0;

inline void barrier() { asm volatile("" ::: "memory"); }

// ---------------------------------------------------------------------------
// Errors.

inline const char *prog_name = "bench";

[[noreturn, gnu::format(printf, 1, 2)]] inline void fail(const char *fmt, ...) {
    std::fprintf(stderr, "%s: ", prog_name);
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
    std::fputc('\n', stderr);
    std::exit(2);
}

inline void expect_dim(const char *what, std::int64_t got, std::int64_t want) {
    if (got != want)
        fail("size mismatch: %s has size %" PRId64 ", expected %" PRId64, what, got, want);
}

// Element types the binary format knows (8-byte ones are all the kernels use).
template <class S>
constexpr bool is_elem_v = std::is_same_v<S, double> || std::is_same_v<S, std::int64_t>;

// Eigen objects whose storage is the format's row-major packed order.
template <class Derived>
constexpr bool row_major_storage_v =
    bool(Derived::IsRowMajor) || Derived::RowsAtCompileTime == 1 || Derived::ColsAtCompileTime == 1;

// ---------------------------------------------------------------------------
// Input.

class Input {
  public:
    explicit Input(std::FILE *f) : f_(f) {}

    void bytes(void *dst, std::size_t n, const char *what) {
        if (n && std::fread(dst, 1, n, f_) != n) fail("input ended while reading %s", what);
    }
    double f64(const char *what) {
        double x;
        bytes(&x, sizeof x, what);
        return x;
    }
    std::int64_t i64(const char *what) {
        std::int64_t x;
        bytes(&x, sizeof x, what);
        return x;
    }

    // A rank-1 array into a (fixed or dynamic) Eigen vector.
    template <class Derived>
    void vector(Eigen::PlainObjectBase<Derived> &v, const char *what) {
        using S = typename Derived::Scalar;
        static_assert(is_elem_v<S>, "f64 or i64 elements");
        static_assert(Derived::IsVectorAtCompileTime, "a vector type");
        const std::int64_t n = dim(what);
        if constexpr (Derived::SizeAtCompileTime != Eigen::Dynamic)
            expect_dim(what, n, Derived::SizeAtCompileTime);
        v.resize(static_cast<Eigen::Index>(n));
        bytes(v.data(), static_cast<std::size_t>(n) * sizeof(S), what);
    }

    // A rank-2 array into a row-major (fixed or dynamic) Eigen matrix.
    template <class Derived>
    void matrix(Eigen::PlainObjectBase<Derived> &m, const char *what) {
        using S = typename Derived::Scalar;
        static_assert(is_elem_v<S>, "f64 or i64 elements");
        static_assert(row_major_storage_v<Derived>, "a row-major matrix type");
        const std::int64_t r = dim(what), c = dim(what);
        if (c && r > INT64_MAX / 8 / c) fail("%s: too large", what);
        if constexpr (Derived::RowsAtCompileTime != Eigen::Dynamic)
            expect_dim(what, r, Derived::RowsAtCompileTime);
        if constexpr (Derived::ColsAtCompileTime != Eigen::Dynamic) {
            char inner[128];
            std::snprintf(inner, sizeof inner, "%s (inner)", what);
            expect_dim(inner, c, Derived::ColsAtCompileTime);
        }
        m.resize(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c));
        bytes(m.data(), static_cast<std::size_t>(r * c) * sizeof(S), what);
    }

    // True when every byte has been consumed.
    bool at_end() { return std::fgetc(f_) == EOF; }

  private:
    std::int64_t dim(const char *what) {
        const std::int64_t d = i64(what);
        if (d < 0) fail("%s: negative dimension %" PRId64, what, d);
        if (d > INT64_MAX / 8) fail("%s: too large", what);
        return d;
    }
    std::FILE *f_;
};

// ---------------------------------------------------------------------------
// Output.

class Output {
  public:
    explicit Output(std::FILE *f) : f_(f) {}

    void bytes(const void *src, std::size_t n) {
        if (n && std::fwrite(src, 1, n, f_) != n) fail("write error: %s", std::strerror(errno));
    }
    void f64(double x) { bytes(&x, sizeof x); }

    template <class Derived>
    void vector(const Eigen::PlainObjectBase<Derived> &v) {
        static_assert(is_elem_v<typename Derived::Scalar>, "f64 or i64 elements");
        static_assert(Derived::IsVectorAtCompileTime, "a vector type");
        const std::int64_t n = v.size();
        bytes(&n, sizeof n);
        bytes(v.data(), static_cast<std::size_t>(n) * sizeof(typename Derived::Scalar));
    }

    template <class Derived>
    void matrix(const Eigen::PlainObjectBase<Derived> &m) {
        static_assert(is_elem_v<typename Derived::Scalar>, "f64 or i64 elements");
        static_assert(row_major_storage_v<Derived>, "a row-major matrix type");
        const std::int64_t dims[2] = {m.rows(), m.cols()};
        bytes(dims, sizeof dims);
        bytes(m.data(), static_cast<std::size_t>(m.size()) * sizeof(typename Derived::Scalar));
    }

  private:
    std::FILE *f_;
};

// ---------------------------------------------------------------------------
// The driver.

[[noreturn]] inline void usage() {
    std::fprintf(stderr, "usage: %s [--runs N] [--warmup W] [--in FILE] [--out FILE] [--stats]\n",
                 prog_name);
    std::exit(2);
}

inline long long parse_count(const char *s, long long min, const char *opt) {
    char *end;
    errno = 0;
    const long long v = std::strtoll(s, &end, 10);
    if (errno || end == s || *end || v < min)
        fail("%s needs a %s integer", opt, min > 0 ? "positive" : "non-negative");
    return v;
}

template <class Bench>
int main(int argc, char **argv) {
    long long runs = 1, warmup = 0;
    const char *in_path = nullptr, *out_path = nullptr;
    bool stats = false;
    prog_name = argv[0];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const bool has_value = i + 1 < argc;
        if (!std::strcmp(a, "--runs") && has_value) runs = parse_count(argv[++i], 1, "--runs");
        else if (!std::strcmp(a, "--warmup") && has_value) warmup = parse_count(argv[++i], 0, "--warmup");
        else if (!std::strcmp(a, "--in") && has_value) in_path = argv[++i];
        else if (!std::strcmp(a, "--out") && has_value) out_path = argv[++i];
        else if (!std::strcmp(a, "--stats")) stats = true;
        else usage();
    }

    static Bench b;  // static storage: large fixed-size members stay off the stack

    std::FILE *in = stdin;
    if (in_path && std::strcmp(in_path, "-") && !(in = std::fopen(in_path, "rb")))
        fail("cannot open %s: %s", in_path, std::strerror(errno));
    try {
        Input input(in);
        b.read(input);
        if (!input.at_end()) fail("trailing bytes after the inputs");
    } catch (const std::bad_alloc &) {
        fail("out of memory while reading the inputs");
    }
    if (in != stdin) std::fclose(in);

    for (long long r = 0; r < warmup; r++) {
        b.run();
        barrier();
    }

    timespec t0, t1;
    live_bytes = peak_bytes = 0;
    alloc_count = 0;
    counting = true;
    barrier();
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long long r = 0; r < runs; r++) {
        b.run();
        barrier();
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    barrier();
    counting = false;
    const long long allocs = BENCH_COUNT_ALLOCS ? static_cast<long long>(alloc_count) : -1;
    const long long peak = BENCH_COUNT_ALLOCS ? peak_bytes : -1;
    const long long total_ns =
        static_cast<long long>(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);

    std::FILE *out = stdout;
    if (out_path && std::strcmp(out_path, "-") && !(out = std::fopen(out_path, "wb")))
        fail("cannot open %s: %s", out_path, std::strerror(errno));
    {
        Output output(out);
        b.write(output);
    }
    if (std::fflush(out) != 0) fail("write error: %s", std::strerror(errno));
    if (out != stdout) std::fclose(out);

    if (stats) {
        std::fprintf(stderr,
                     "stats: runs=%lld total_ns=%lld ns_per_run=%.1f peak_rss_kb=%ld sys_allocs=%lld "
                     "peak_bytes=%lld\n",
                     runs, total_ns, static_cast<double>(total_ns) / static_cast<double>(runs),
                     peak_rss_kb(), allocs, peak);
    }
    return 0;
}

}  // namespace bench

// ---------------------------------------------------------------------------
// Allocator interposition (glibc).  Definitions in the executable take
// precedence over libc's for every caller (libstdc++'s operator new included);
// each forwards to glibc's internal entry point and records the block.

#if BENCH_COUNT_ALLOCS
#include <malloc.h>

extern "C" {
void *__libc_malloc(std::size_t size);
void *__libc_calloc(std::size_t nmemb, std::size_t size);
void *__libc_realloc(void *ptr, std::size_t size);
void *__libc_memalign(std::size_t alignment, std::size_t size);
void __libc_free(void *ptr);
}

namespace bench {
inline void note_alloc(void *p) {
    if (counting && p) {
        alloc_count++;
        live_bytes += static_cast<long long>(malloc_usable_size(p));
        if (live_bytes > peak_bytes) peak_bytes = live_bytes;
    }
}
inline void note_free(void *p) {
    if (counting && p) live_bytes -= static_cast<long long>(malloc_usable_size(p));
}
}  // namespace bench

extern "C" {
void *malloc(std::size_t size) noexcept {
    void *p = __libc_malloc(size);
    bench::note_alloc(p);
    return p;
}
void *calloc(std::size_t nmemb, std::size_t size) noexcept {
    void *p = __libc_calloc(nmemb, size);
    bench::note_alloc(p);
    return p;
}
void *realloc(void *ptr, std::size_t size) noexcept {
    const std::size_t old = (bench::counting && ptr) ? malloc_usable_size(ptr) : 0;
    void *p = __libc_realloc(ptr, size);
    if (p || size == 0) bench::live_bytes -= static_cast<long long>(old);  // else the old block stays
    bench::note_alloc(p);
    return p;
}
void *aligned_alloc(std::size_t alignment, std::size_t size) noexcept {
    void *p = __libc_memalign(alignment, size);
    bench::note_alloc(p);
    return p;
}
int posix_memalign(void **memptr, std::size_t alignment, std::size_t size) noexcept {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *p = __libc_memalign(alignment, size);
    if (!p) return ENOMEM;
    bench::note_alloc(p);
    *memptr = p;
    return 0;
}
void free(void *ptr) noexcept {
    bench::note_free(ptr);
    __libc_free(ptr);
}
}
#endif

#endif
