// Benchmark harness for the idiomatic C++ baselines (bench/cpp/).
//
// Every program is used as
//
//     prog [--runs N] [--warmup W] [--in FILE] [--out FILE] [--stats]
//
// It reads the kernel's inputs from FILE (or stdin), makes W untimed calls of
// the kernel (default 0) and then N timed ones (default 1), writes the result
// of the last call to FILE (or stdout) and, with --stats, prints one line to
// stderr:
//
//     stats: runs=N total_ns=T ns_per_run=X peak_rss_kb=K sys_allocs=A peak_bytes=B
//
// T is the wall time (std::chrono::steady_clock, i.e. CLOCK_MONOTONIC) of the
// loop of N calls, X = T / N, K = the peak RSS (VmHWM, see peak_rss_kb), A = the number of heap
// allocations made during the loop and B = the peak number of heap bytes live
// during the loop above the level at its start.  A and B come from wrapping
// the C allocator (glibc only): libstdc++'s operator new allocates through
// malloc, so every std::vector buffer is counted.  Where the wrapping is not
// available (another C library, or -DBENCH_NO_MALLOC_COUNT) A and B are -1.
//
// Binary format of the inputs and of the result (native little-endian):
// values one after another in parameter order; f64 and i64 are 8 bytes; an
// array of rank r is r int64 dims followed by its elements, row-major and
// packed; size parameters are not passed (the dims imply them); a tuple
// result is its components in order.
//
// A program describes itself with three callables and hands them to
// bench::run_main:
//
//     int main(int argc, char **argv) {
//         return bench::run_main(argc, argv,
//             [](bench::Reader &in) { ...; return Inputs{...}; },
//             [](const Inputs &in) { return kernel(in.a, in.b); },
//             [](bench::Writer &out, const Result &r) { ... });
//     }
//
// The kernels are [[gnu::noinline]] functions that return their result by
// value; the harness assigns each call's result to one variable, and after
// every call a compiler barrier that sees the addresses of the inputs and of
// the result keeps the compiler from hoisting, merging or dropping calls.
#ifndef WEIR_BENCH_CPP_HARNESS_HPP
#define WEIR_BENCH_CPP_HARNESS_HPP

#include <sys/resource.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#define BENCH_KERNEL [[gnu::noinline]]

// ---------------------------------------------------------------------------
// Allocation counting: the program defines the C allocator's public entry
// points itself and forwards them to glibc's internal names, counting on the
// way.  (A program may define these symbols; the dynamic linker then binds
// every call in the process, libstdc++'s operator new included, to them.)

#if defined(__GLIBC__) && !defined(BENCH_NO_MALLOC_COUNT)
#define BENCH_COUNTS_ALLOCATIONS 1

extern "C" {
void *__libc_malloc(std::size_t size);
void *__libc_calloc(std::size_t count, std::size_t size);
void *__libc_realloc(void *ptr, std::size_t size);
void *__libc_memalign(std::size_t alignment, std::size_t size);
void __libc_free(void *ptr);
std::size_t malloc_usable_size(void *ptr) noexcept;
}

namespace bench::detail {
struct AllocStats {
    bool counting = false;
    unsigned long long allocs = 0;
    long long live_bytes = 0;
    long long peak_bytes = 0;
};
// Constant-initialised, so it is ready before any static constructor runs.
inline AllocStats alloc_stats;

inline void note_alloc(void *p) noexcept {
    if (alloc_stats.counting && p != nullptr) {
        ++alloc_stats.allocs;
        alloc_stats.live_bytes += static_cast<long long>(malloc_usable_size(p));
        if (alloc_stats.live_bytes > alloc_stats.peak_bytes)
            alloc_stats.peak_bytes = alloc_stats.live_bytes;
    }
}
inline void note_free(void *p) noexcept {
    if (alloc_stats.counting && p != nullptr)
        alloc_stats.live_bytes -= static_cast<long long>(malloc_usable_size(p));
}
}  // namespace bench::detail

extern "C" {
void *malloc(std::size_t size) noexcept {
    void *p = __libc_malloc(size);
    bench::detail::note_alloc(p);
    return p;
}
void *calloc(std::size_t count, std::size_t size) noexcept {
    void *p = __libc_calloc(count, size);
    bench::detail::note_alloc(p);
    return p;
}
void *realloc(void *ptr, std::size_t size) noexcept {
    auto &st = bench::detail::alloc_stats;
    const std::size_t old = (st.counting && ptr != nullptr) ? malloc_usable_size(ptr) : 0;
    void *p = __libc_realloc(ptr, size);
    if (p != nullptr || size == 0) st.live_bytes -= static_cast<long long>(old);  // else the old block stays
    bench::detail::note_alloc(p);
    return p;
}
void *aligned_alloc(std::size_t alignment, std::size_t size) noexcept {
    void *p = __libc_memalign(alignment, size);
    bench::detail::note_alloc(p);
    return p;
}
int posix_memalign(void **out, std::size_t alignment, std::size_t size) noexcept {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *p = __libc_memalign(alignment, size);
    if (p == nullptr) return ENOMEM;
    bench::detail::note_alloc(p);
    *out = p;
    return 0;
}
void free(void *ptr) noexcept {
    bench::detail::note_free(ptr);
    __libc_free(ptr);
}
}
#else
#define BENCH_COUNTS_ALLOCATIONS 0
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
// Errors: thrown by the readers and writers, reported by run_main.

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

inline void expect_dim(const char *what, std::int64_t got, std::int64_t want) {
    if (got != want)
        throw Error(std::string("size mismatch: ") + what + " has size " + std::to_string(got) +
                    ", expected " + std::to_string(want));
}

// ---------------------------------------------------------------------------
// Input.

class Reader {
public:
    explicit Reader(std::istream &in) : in_(in) {}

    double f64(const char *what) { return scalar<double>(what); }
    std::int64_t i64(const char *what) { return scalar<std::int64_t>(what); }

    // The dims of an array of rank `rank`.
    std::vector<std::int64_t> dims(int rank, const char *what) {
        std::vector<std::int64_t> d;
        d.reserve(static_cast<std::size_t>(rank));
        std::size_t count = 1;
        for (int r = 0; r < rank; ++r) {
            const std::int64_t n = i64(what);
            if (n < 0) throw Error(std::string(what) + ": negative dimension " + std::to_string(n));
            if (n != 0 && count > std::numeric_limits<std::size_t>::max() / 8 / static_cast<std::size_t>(n))
                throw Error(std::string(what) + ": too large");
            count *= static_cast<std::size_t>(n);
            d.push_back(n);
        }
        return d;
    }

    // `count` packed elements.
    template <class T>
    std::vector<T> elements(std::size_t count, const char *what) {
        std::vector<T> v(count);
        bytes(v.data(), count * sizeof(T), what);
        return v;
    }

    // [n]f64
    std::vector<double> vector_f64(const char *what) {
        const auto d = dims(1, what);
        return elements<double>(static_cast<std::size_t>(d[0]), what);
    }

    // [N]f64 with N fixed
    template <std::size_t N>
    std::array<double, N> array_f64(const char *what) {
        const auto d = dims(1, what);
        expect_dim(what, d[0], static_cast<std::int64_t>(N));
        std::array<double, N> a{};
        bytes(a.data(), sizeof a, what);
        return a;
    }

    // [rows][N]T with N fixed, one std::array per row
    template <class T, std::size_t N>
    std::vector<std::array<T, N>> rows_of(const char *what) {
        static_assert(sizeof(std::array<T, N>) == N * sizeof(T), "rows are read as packed arrays");
        const auto d = dims(2, what);
        expect_dim((std::string(what) + " (inner)").c_str(), d[1], static_cast<std::int64_t>(N));
        std::vector<std::array<T, N>> rows(static_cast<std::size_t>(d[0]));
        bytes(rows.data(), rows.size() * sizeof(std::array<T, N>), what);
        return rows;
    }

    // [rows][cols]f64 as a vector of rows; *cols receives the inner dim
    // (which an empty outer dim would otherwise lose).
    std::vector<std::vector<double>> nested_f64(const char *what, std::int64_t *cols = nullptr) {
        const auto d = dims(2, what);
        if (cols != nullptr) *cols = d[1];
        std::vector<std::vector<double>> rows;
        rows.reserve(static_cast<std::size_t>(d[0]));
        for (std::int64_t i = 0; i < d[0]; ++i) rows.push_back(elements<double>(static_cast<std::size_t>(d[1]), what));
        return rows;
    }

    bool at_end() { return in_.peek() == std::char_traits<char>::eof(); }

private:
    template <class T>
    T scalar(const char *what) {
        T x{};
        bytes(&x, sizeof x, what);
        return x;
    }
    void bytes(void *dst, std::size_t n, const char *what) {
        if (n == 0) return;
        in_.read(static_cast<char *>(dst), static_cast<std::streamsize>(n));
        if (static_cast<std::size_t>(in_.gcount()) != n) throw Error(std::string("input ended while reading ") + what);
    }

    std::istream &in_;
};

// ---------------------------------------------------------------------------
// Output.

class Writer {
public:
    explicit Writer(std::ostream &out) : out_(out) {}

    void f64(double x) { bytes(&x, sizeof x); }
    void i64(std::int64_t x) { bytes(&x, sizeof x); }
    void dims(std::initializer_list<std::int64_t> d) {
        for (const std::int64_t n : d) i64(n);
    }
    template <class T>
    void elements(const T *data, std::size_t count) {
        bytes(data, count * sizeof(T));
    }

    void vector_f64(const std::vector<double> &v) {
        dims({static_cast<std::int64_t>(v.size())});
        elements(v.data(), v.size());
    }
    template <std::size_t N>
    void array_f64(const std::array<double, N> &a) {
        dims({static_cast<std::int64_t>(N)});
        elements(a.data(), N);
    }
    template <std::size_t N, std::size_t M>
    void array2_f64(const std::array<std::array<double, M>, N> &a) {
        dims({static_cast<std::int64_t>(N), static_cast<std::int64_t>(M)});
        for (const auto &row : a) elements(row.data(), M);
    }
    template <std::size_t N>
    void rows_f64(const std::vector<std::array<double, N>> &rows) {
        dims({static_cast<std::int64_t>(rows.size()), static_cast<std::int64_t>(N)});
        for (const auto &row : rows) elements(row.data(), N);
    }

private:
    void bytes(const void *src, std::size_t n) {
        if (n != 0) out_.write(static_cast<const char *>(src), static_cast<std::streamsize>(n));
        if (!out_) throw Error("write error");
    }

    std::ostream &out_;
};

// ---------------------------------------------------------------------------
// The driver.

namespace detail {

// A compiler barrier that also makes `p` escape: the compiler must assume the
// asm reads and writes any memory, in particular the object at p.
inline void barrier(const void *p) { asm volatile("" : : "r"(p) : "memory"); }

struct Options {
    long long runs = 1;
    long long warmup = 0;
    std::string in_path;
    std::string out_path;
    bool stats = false;
};

[[noreturn]] inline void usage(const char *prog) {
    std::cerr << "usage: " << prog << " [--runs N] [--warmup W] [--in FILE] [--out FILE] [--stats]\n";
    std::exit(2);
}

inline long long parse_count(const char *text, long long min, const char *what) {
    char *end = nullptr;
    errno = 0;
    const long long v = std::strtoll(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v < min) throw Error(what);
    return v;
}

inline Options parse_args(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--runs" && has_value) {
            o.runs = parse_count(argv[++i], 1, "--runs needs a positive integer");
        } else if (arg == "--warmup" && has_value) {
            o.warmup = parse_count(argv[++i], 0, "--warmup needs a non-negative integer");
        } else if (arg == "--in" && has_value) {
            o.in_path = argv[++i];
        } else if (arg == "--out" && has_value) {
            o.out_path = argv[++i];
        } else if (arg == "--stats") {
            o.stats = true;
        } else {
            usage(argv[0]);
        }
    }
    return o;
}

}  // namespace detail

template <class Read, class Run, class Write>
int run_main(int argc, char **argv, Read read, Run run, Write write) {
    const char *prog = argc > 0 ? argv[0] : "bench";
    try {
        const detail::Options opt = detail::parse_args(argc, argv);

        // Read the inputs (and close the file before timing).
        auto inputs = [&] {
            std::ifstream file;
            std::istream *in = &std::cin;
            if (!opt.in_path.empty() && opt.in_path != "-") {
                file.open(opt.in_path, std::ios::binary);
                if (!file) throw Error("cannot open " + opt.in_path + ": " + std::strerror(errno));
                in = &file;
            }
            Reader reader(*in);
            auto values = read(reader);
            if (!reader.at_end()) throw Error("trailing bytes after the inputs");
            return values;
        }();

        decltype(run(inputs)) result{};
        for (long long r = 0; r < opt.warmup; ++r) {
            result = run(inputs);
            detail::barrier(&inputs);
            detail::barrier(&result);
        }

#if BENCH_COUNTS_ALLOCATIONS
        auto &st = detail::alloc_stats;
        st.allocs = 0;
        st.live_bytes = st.peak_bytes = 0;
        st.counting = true;
#endif
        detail::barrier(&result);
        const auto t0 = std::chrono::steady_clock::now();
        for (long long r = 0; r < opt.runs; ++r) {
            result = run(inputs);
            detail::barrier(&inputs);
            detail::barrier(&result);
        }
        const auto t1 = std::chrono::steady_clock::now();
        detail::barrier(&result);
#if BENCH_COUNTS_ALLOCATIONS
        st.counting = false;
        const long long allocs = static_cast<long long>(st.allocs);
        const long long peak = st.peak_bytes;
#else
        const long long allocs = -1, peak = -1;
#endif
        const long long total_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();

        {
            std::ofstream file;
            std::ostream *out = &std::cout;
            if (!opt.out_path.empty() && opt.out_path != "-") {
                file.open(opt.out_path, std::ios::binary | std::ios::trunc);
                if (!file) throw Error("cannot open " + opt.out_path + ": " + std::strerror(errno));
                out = &file;
            }
            Writer writer(*out);
            write(writer, result);
            out->flush();
            if (!*out) throw Error("write error");
        }

        if (opt.stats) {
            std::fprintf(stderr,
                         "stats: runs=%lld total_ns=%lld ns_per_run=%.1f peak_rss_kb=%ld sys_allocs=%lld "
                         "peak_bytes=%lld\n",
                         opt.runs, total_ns, static_cast<double>(total_ns) / static_cast<double>(opt.runs),
                         peak_rss_kb(), allocs, peak);
        }
        return 0;
    } catch (const std::exception &e) {
        std::cerr << prog << ": " << e.what() << '\n';
        return 2;
    }
}

}  // namespace bench

#endif
