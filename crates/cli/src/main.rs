//! `weir`: check, run and test Weir programs.
// Everything for stdout goes through `out!`/`outln!` (`write_stdout`), which
// end the program quietly when stdout is closed (`weir test F | head -1`),
// where `print!`/`println!` would panic.
#![warn(clippy::print_stdout)]

use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use weir_driver::inputs::classify;
use weir_driver::native::Entries;
use weir_driver::pipeline::{all_passes, dump_after, render_runtime_error};
use weir_driver::testblock::{Expect, ValueSrc, parse_blocks, run_cases};
use weir_driver::{compile_file, run_entry, with_big_stack};
use weir_interp::format_value;

/// Write to stdout. When stdout is closed (`weir test FILE | head -1`:
/// the reader has gone), the program ends at once with status 0, quietly,
/// as a command-line tool does, instead of `print!`'s panic ("failed
/// printing to stdout: Broken pipe"); any other write error ends it with
/// the error on stderr and status 1.
fn write_stdout(args: std::fmt::Arguments) {
    use std::io::Write;
    // (the lock is released before an exit, which flushes stdout)
    let written = std::io::stdout().lock().write_fmt(args);
    if let Err(e) = written {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write to stdout: {e}");
            std::process::exit(1);
        }
        std::process::exit(0);
    }
}

/// `print!` through [`write_stdout`].
macro_rules! out {
    ($($arg:tt)*) => {
        write_stdout(format_args!($($arg)*))
    };
}

/// `println!` through [`write_stdout`].
macro_rules! outln {
    () => {
        write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod fmt;

#[derive(Parser)]
#[command(name = "weir", version, about = "Weir: a functional array language compiled to fast C", long_about = None)]
struct Cli {
    /// Colour diagnostics (auto: when stderr is a terminal).
    #[arg(long, global = true, default_value = "auto", value_parser = ["auto", "always", "never"])]
    color: String,
    /// The views decision (dps-views): none (every `transpose`/`reverse`
    /// computed, and every `++`/`pad` computed into storage of its own),
    /// heuristic (the transposes and reverses used whole, where the array
    /// would be copied, are views; pieces of `++`/`pad` written in place),
    /// all (every transpose, reverse and replicate of an array a view).
    /// `#[view]`, `#[dest]` and `#[eager]` in the program win.
    #[arg(long, global = true, default_value = "heuristic", value_parser = ["none", "heuristic", "all"])]
    views: String,
    #[command(subcommand)]
    cmd: Cmd,
}

/// Options of the C backend.
#[derive(clap::Args, Clone)]
struct BuildArgs {
    /// Compilation variant (dps-ftilde §5): CL, CG, CLF, D, DF, DFB, DFBs (default).
    #[arg(long, default_value = "DFBs")]
    variant: String,
    /// Leave out bounds checks.
    #[arg(long = "unsafe")]
    unsafe_: bool,
    /// Let the C compiler reassociate floating-point arithmetic and contract
    /// it into FMAs (results differ from the interpreter's within rounding;
    /// the default is bit-exact).
    #[arg(long)]
    fast_math: bool,
}

impl BuildArgs {
    fn options(&self) -> Result<weir_driver::native::BuildOptions, String> {
        let Some(v) = weir_driver::native::variant(&self.variant) else {
            let names: Vec<&str> = weir_driver::native::VARIANTS
                .iter()
                .map(|v| v.name)
                .collect();
            return Err(format!(
                "unknown variant `{}`; the variants are: {}",
                self.variant,
                names.join(", ")
            ));
        };
        Ok(weir_driver::native::BuildOptions {
            variant: v,
            checks: !self.unsafe_,
            fast_math: self.fast_math,
            ..Default::default()
        })
    }
}

#[derive(Subcommand)]
enum Cmd {
    /// Parse and type-check a program.
    Check { file: PathBuf },
    /// Run an entry point. With no inputs, uses the first test block's first input.
    Run {
        file: PathBuf,
        /// Entry point (default: the first `entry` in the file).
        #[arg(short, long)]
        entry: Option<String>,
        /// Inputs: inline values (`"[1.0, 2.0]"`), value files, `.npy` files, or `-` for stdin.
        inputs: Vec<String>,
        /// Use the reference interpreter instead of compiled C.
        #[arg(long)]
        interp: bool,
        /// With --interp: run the program as elaborated, without the optimizer.
        #[arg(long)]
        no_opt: bool,
        /// Write the results instead of printing them: `-o F.npy` once per
        /// result (a tuple's components in source order, a scalar as a 0-d
        /// array), or one `-o F.npz` holding them all (`result_0`, ...).
        #[arg(short, long)]
        output: Vec<PathBuf>,
        /// How results are printed: `weir` (Weir's value syntax) or `json`
        /// (one line per result that Python's json.loads and np.array read
        /// back: `[[1.0, 2.5]]`, `true`, `NaN`, `Infinity`).
        #[arg(long, value_enum, default_value = "weir")]
        format: Format,
        #[command(flatten)]
        build: BuildArgs,
        /// Print time, peak memory and system allocation counts (to stderr).
        #[arg(long)]
        stats: bool,
        /// Call the entry this many times in one process (for --stats).
        #[arg(long, default_value_t = 1)]
        runs: u64,
        /// Kill the compiled program after this many seconds (default: no
        /// limit; 0: none). Not for --interp.
        #[arg(long, value_name = "SECONDS", value_parser = seconds)]
        timeout: Option<std::time::Duration>,
    },
    /// Emit the C code of a program (one C function per Weir function, a DPS
    /// entry point and shape function per entry, the runtime inlined).
    C {
        file: PathBuf,
        #[command(flatten)]
        build: BuildArgs,
        /// Also emit the `main` of `weir build`'s executables (`.npy` inputs and
        /// results; see `weir build --help`).
        #[arg(long)]
        main: bool,
        /// Write the C here instead of stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Build an executable of the entry points, which reads and writes NumPy `.npy` files.
    ///
    /// `EXE [-e ENTRY] [INPUT ...] [-o OUT ...] [--text] [--raw] [--in F] [--out F]
    /// [--runs N] [--warmup W] [--stats]`. An INPUT per parameter: a `.npy` file, a
    /// scalar literal (`3`, `2.5`, `true`) or `-` (stdin); with no INPUTs, the
    /// inputs are read as concatenated `.npy` arrays from `--in F` or stdin.
    /// Results: `-o F.npy` once per result, or one `-o F.npz` for all; else
    /// concatenated `.npy` arrays to `--out F` or stdout. `--text` prints one
    /// JSON line per result instead; `--raw` reads and writes Weir's raw binary
    /// format (docs/language.md) instead of `.npy`.
    Build {
        file: PathBuf,
        #[command(flatten)]
        build: BuildArgs,
        /// The executable to write (default: the file name without `.weir`).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Build a C library of the entry points: `DIR/NAME.h` (the documented C
    /// API), `libNAME.a`, `libNAME.so`, `NAME.json` (the ABI manifest that
    /// bindings read) and the C sources. Link with `DIR/libNAME.a -lm`, or
    /// with `-LDIR -lNAME -Wl,-rpath,DIR -lm` (the shared library).
    Lib {
        file: PathBuf,
        #[command(flatten)]
        build: BuildArgs,
        /// The folder to write into (default: the current folder).
        #[arg(short, long, default_value = ".")]
        output: PathBuf,
        /// The library's name: the prefix of its C symbols (`NAME_entry`)
        /// and file names (default: the file name, as a C identifier).
        #[arg(long)]
        name: Option<String>,
        /// The CPUs the library runs on (the C compiler's `-march`):
        /// `native` (default: this machine's, fastest, but it may stop with
        /// an illegal instruction on an older or other CPU), `portable`
        /// (the compiler's default target: any CPU of the architecture), or
        /// a level or CPU such as `x86-64-v2`, `x86-64-v3`, `armv8.2-a`.
        /// Recorded in NAME.json and the C sources' first line.
        #[arg(long, default_value = "native", value_name = "CPU")]
        march: String,
    },
    /// Run the test blocks of .weir files (directories are searched recursively).
    Test {
        /// `.weir` files or folders (searched recursively; default: `examples`).
        paths: Vec<PathBuf>,
        /// `text` (default), or `json`: one JSON document with every file's
        /// cases and failures, for scripts.
        #[arg(long, default_value = "text", value_parser = ["text", "json"])]
        format: String,
        /// Only the interpreter (skip compiled C).
        #[arg(long)]
        interp: bool,
        /// Build the compiled C with `--fast-math` and compare it with the
        /// interpreter within a relative 1e-6 (or the block's `tolerance:`).
        #[arg(long)]
        fast_math: bool,
        /// Time limit of one compiled test case, in seconds (0: none); a case
        /// past it fails.
        #[arg(long, value_name = "SECONDS", value_parser = seconds, default_value = "60")]
        timeout: std::time::Duration,
    },
    /// Developer tools: print the program after a pass.
    Dev {
        /// The pass after which to print (`parse`, `elaborate`); `list` to list them.
        #[arg(long, required_unless_present = "explain_views")]
        dump_after: Option<String>,
        /// Say, for every `transpose` and `reverse`, whether it is a view of
        /// its argument's memory or computed, for every `++`, `pad`,
        /// `flatten`, `unflatten` and `rotate` whether its pieces are written
        /// in place, and why (under `--views` and the program's
        /// `#[view]`/`#[dest]`/`#[eager]` annotations).
        #[arg(long)]
        explain_views: bool,
        file: Option<PathBuf>,
    },
    /// Run the benchmark suite (bench/suite.toml, or your own with --suite FILE) against the peers; see bench/README.md.
    Bench(BenchArgs),
    /// Differential testing: random programs on the interpreter (unoptimized and
    /// optimized) and on compiled C (-O0 and -O3); counts per outcome and shrunk
    /// reproducers of every failure.
    Fuzz(FuzzArgs),
    /// Format .weir files in place (folders: every .weir file under them;
    /// `-`: stdin to stdout). Files with syntax errors are reported and left
    /// as they are. See docs/fmt.md for the style.
    Fmt {
        /// Files, folders, or `-` for stdin.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Change nothing: list the files that would change, and exit with
        /// status 1 if there are any (for CI).
        #[arg(long)]
        check: bool,
    },
    /// Convert an ADBench instance (gmm or ba) to Weir input values on stdout.
    Adbench {
        #[arg(value_parser = ["gmm", "ba"])]
        kind: String,
        file: PathBuf,
    },
}

/// Options of `weir fuzz`.
#[derive(clap::Args)]
#[cfg_attr(not(feature = "fuzz"), allow(dead_code))]
struct FuzzArgs {
    /// How many programs (default 1000; 10000 with --long).
    #[arg(short = 'n', long)]
    count: Option<u64>,
    /// The campaign's seed (program i of seed s is always the same program).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The index of the first program (to run a long campaign in parts).
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// Programs per generated C file.
    #[arg(long, default_value_t = 40)]
    batch: usize,
    /// Build the C with -fsanitize=address,undefined.
    #[arg(long)]
    sanitize: bool,
    /// Only the two interpreter legs (no C compiler needed).
    #[arg(long)]
    interp: bool,
    /// Shrinking steps per failure (0: report failures as generated).
    #[arg(long, default_value_t = 100)]
    shrink: usize,
    /// Time limit of one compiled run, in seconds.
    #[arg(long, default_value_t = 20)]
    timeout: u64,
    /// Print one program (index `--show I` of the seed) with its inputs, and exit.
    #[arg(long)]
    show: Option<u64>,
    /// Run reproducers (.weir files as --out writes them: one entry, its
    /// inputs) through every leg and print each verdict; no campaign.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    check: Vec<PathBuf>,
    /// Write the reproducers as .weir files into this directory.
    #[arg(long)]
    out: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
    /// Generate in-place updates too (`copy a with [i] = v`, slices, loops
    /// updating their state); other seeds' programs are unchanged without it.
    #[arg(long)]
    updates: bool,
    /// Bias programs towards empty and singleton dimensions (inputs and
    /// counts 0 or 1, `[n][m]` entry sizes, maps making arrays of arrays):
    /// every program, or with a number K every K-th one (programs K-1,
    /// 2K-1, …). Without it the seeds' programs are unchanged.
    #[arg(long, value_name = "K", num_args = 0..=1, default_missing_value = "1")]
    empty_bias: Option<u64>,
    /// The long campaign: 10000 programs (unless -n), the C built plainly and
    /// with -fsanitize=address,undefined, each at -O0 and -O3 (four compiled
    /// legs), every 4th program biased towards empty dimensions (unless
    /// --empty-bias).
    #[arg(long)]
    long: bool,
    /// Mutant campaign instead (issue 46): mutants of the .weir files under
    /// --dirs (token and line edits, literals, identifiers, operators,
    /// duplicated bodies, nesting) through `weir c`'s pipeline (no C
    /// compiler), each in a worker process under the time and memory
    /// limits; counts per class (ok, clean error, internal error, panic,
    /// crash, timeout, memory blow-up), the bad ones saved to --out
    /// (default fuzz-mutants/). -n (default 1000), --seed, --first, -j.
    #[arg(long)]
    mutants: bool,
    /// With --mutants: the folders or files to mutate (default: examples
    /// and tests).
    #[arg(long, num_args = 1..)]
    dirs: Vec<PathBuf>,
    /// With --mutants: the most one mutant may take, in seconds.
    #[arg(long, default_value_t = 10.0)]
    time_limit: f64,
    /// With --mutants: the address space of a worker process, in MiB.
    #[arg(long, default_value_t = 2048)]
    mem_limit: u64,
    /// With --mutants: mutants one worker process compiles before a fresh
    /// one replaces it.
    #[arg(long, default_value_t = 500)]
    per_worker: u64,
    /// The worker process of --mutants (reads mutants on stdin).
    #[arg(long, hide = true)]
    mutant_worker: bool,
}

/// `weir fuzz --check FILE…`: each reproducer through every leg.
#[cfg(feature = "fuzz")]
fn fuzz_check_files(a: &FuzzArgs) -> ExitCode {
    let mut cfg = weir_fuzz::Config {
        c: !a.interp,
        sanitize: a.sanitize,
        sanitize_also: a.long && !a.sanitize,
        timeout: std::time::Duration::from_secs(a.timeout.max(1)),
        ..Default::default()
    };
    if let Ok(cc) = weir_driver::native::find_cc(&Default::default()) {
        cfg.cc = Some(cc);
    }
    std::panic::set_hook(Box::new(|_| {}));
    let _ = std::fs::create_dir_all(&cfg.work_dir);
    let mut bugs = 0;
    for f in &a.check {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => return fail(format!("cannot read {}: {e}", f.display())),
        };
        let Some(p) = weir_fuzz::generate::GenProgram::from_weir_file(&text) else {
            return fail(format!(
                "{}: no `-- entry:` or `-- input` lines",
                f.display()
            ));
        };
        let v = weir_fuzz::check_one(&p, &cfg);
        bugs += usize::from(v.is_bug());
        outln!("{}: {}\n{}", f.display(), v.category(), v.detail());
    }
    let _ = std::fs::remove_dir_all(&cfg.work_dir);
    if bugs > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(not(feature = "fuzz"))]
fn cmd_fuzz(_: FuzzArgs) -> ExitCode {
    not_built("fuzz")
}

#[cfg(feature = "fuzz")]
fn cmd_fuzz(a: FuzzArgs) -> ExitCode {
    if a.mutant_worker {
        weir_fuzz::mutate::worker();
        return ExitCode::SUCCESS;
    }
    if a.mutants {
        return cmd_mutants(a);
    }
    weir_fuzz::generate::set_updates(a.updates);
    weir_fuzz::generate::set_empty_bias(a.empty_bias.unwrap_or(if a.long { 4 } else { 0 }));
    let count = a.count.unwrap_or(if a.long { 10_000 } else { 1000 });
    if let Some(i) = a.show {
        return match weir_fuzz::program(a.seed, i) {
            Some(p) => {
                out!("{}", p.as_weir_file());
                ExitCode::SUCCESS
            }
            None => fail("cannot generate that program"),
        };
    }
    if !a.check.is_empty() {
        return fuzz_check_files(&a);
    }
    let mut cfg = weir_fuzz::Config {
        c: !a.interp,
        sanitize: a.sanitize,
        sanitize_also: a.long && !a.sanitize,
        batch: a.batch.max(1),
        shrink_steps: a.shrink,
        timeout: std::time::Duration::from_secs(a.timeout.max(1)),
        ..Default::default()
    };
    if let Some(j) = a.jobs {
        cfg.jobs = j.max(1);
    }
    // panics are caught and reported per program; keep the default hook quiet
    std::panic::set_hook(Box::new(|_| {}));
    // (a crash no panic hook sees, a stack overflow, ends the process: the
    // scratch directory's inflight-* files then name the programs it ran)
    eprintln!(
        "weir fuzz: scratch directory {} (if this process dies, its inflight-* files name the programs it was running)",
        cfg.work_dir.display()
    );
    let bar = (!a.no_progress).then(|| weir_fuzz::progress::Bar::new(count));
    let report = weir_fuzz::campaign_from(a.seed, a.first, count, &cfg, &|n| {
        if let Some(b) = &bar {
            b.set(n)
        }
    });
    if let Some(b) = &bar {
        b.finish();
    }
    outln!("{}", report.render());
    if let Some(dir) = &a.out {
        if let Err(e) = std::fs::create_dir_all(dir) {
            return fail(format!("cannot create {}: {e}", dir.display()));
        }
        for f in &report.failures {
            let p = f.shrunk.as_ref().map(|s| &s.0).unwrap_or(&f.original);
            let path = dir.join(format!("seed{}-{}.weir", a.seed, f.index));
            if let Err(e) = std::fs::write(&path, p.as_weir_file()) {
                return fail(format!("cannot write {}: {e}", path.display()));
            }
        }
    }
    if report.bugs() > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `weir fuzz --mutants`.
#[cfg(feature = "fuzz")]
fn cmd_mutants(a: FuzzArgs) -> ExitCode {
    let exe = match std::env::current_exe() {
        Ok(p) => p,
        Err(e) => return fail(format!("cannot find the weir executable: {e}")),
    };
    let dirs = if a.dirs.is_empty() {
        vec![PathBuf::from("examples"), PathBuf::from("tests")]
    } else {
        a.dirs.clone()
    };
    let count = a.count.unwrap_or(1000);
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let cfg = weir_fuzz::mutate::MutantConfig {
        dirs,
        count,
        seed: a.seed,
        first: a.first,
        jobs: jobs.max(1),
        time_limit: std::time::Duration::from_secs_f64(a.time_limit.clamp(0.01, 1e6)),
        mem_limit_mb: a.mem_limit.max(64),
        out: a
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from("fuzz-mutants")),
        exe,
        per_worker: a.per_worker.max(1),
    };
    let bar = (!a.no_progress).then(|| weir_fuzz::progress::Bar::new(count));
    let report = weir_fuzz::mutate::campaign(&cfg, &|n| {
        if let Some(b) = &bar {
            b.set(n)
        }
    });
    if let Some(b) = &bar {
        b.finish();
    }
    match report {
        Ok(r) => {
            outln!("{}", r.render());
            if r.bugs() > 0 {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => fail(e),
    }
}

/// Options of `weir bench`.
#[derive(clap::Args)]
#[cfg_attr(not(feature = "bench"), allow(dead_code))]
struct BenchArgs {
    /// The short suite (< 10 minutes): fewer calls and reps, PolyBench MEDIUM,
    /// no ablation variants, large ADBench instances left out.
    #[arg(long)]
    quick: bool,
    /// PolyBench dataset: MINI, SMALL, MEDIUM, LARGE (default), EXTRALARGE.
    #[arg(long)]
    size: Option<String>,
    /// Only these workloads (comma-separated names; `--list` shows them).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Only these implementations (weir, weir-CL, ..., c, cpp, eigen, eigen-v3, numpy, jax, numba).
    #[arg(long, value_delimiter = ',')]
    impls: Vec<String>,
    /// Run Weir's ablation variants (default: in the full suite).
    #[arg(long, conflicts_with = "no_variants")]
    variants: bool,
    #[arg(long)]
    no_variants: bool,
    /// Timed repetitions per implementation (one process each; default: the
    /// suite's `reps`, at least 3). Each makes at least 10 timed calls where
    /// 10 fit five budgets.
    #[arg(long)]
    reps: Option<usize>,
    /// Target time of the timed loop of one process, in ms.
    #[arg(long)]
    budget_ms: Option<u64>,
    /// Time limit of one process, in seconds.
    #[arg(long)]
    timeout: Option<u64>,
    /// Cores per process: 1 pins each process to one CPU with taskset and sets
    /// the libraries' thread counts to 1; 2 leaves them unpinned with 2 threads.
    #[arg(long, default_value_t = 1)]
    cores: usize,
    /// The CPU to pin to (default: the last one).
    #[arg(long)]
    cpu: Option<usize>,
    /// OPENBLAS_CORETYPE for NumPy's OpenBLAS (e.g. SkylakeX for its AVX-512
    /// kernels; unset: OpenBLAS's own choice).
    #[arg(long)]
    openblas_coretype: Option<String>,
    /// Do not measure STREAM bandwidth and peak FLOP rate.
    #[arg(long)]
    no_machine: bool,
    /// Do not draw the figures.
    #[arg(long)]
    no_plots: bool,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
    /// Where results.json, summary.md and the figures go (default: the full
    /// suite's bench/results/full-Ncore; with --quick, the scratch directory
    /// bench/build/results/quick-Ncore, so that the committed results stay).
    #[arg(long)]
    out: Option<PathBuf>,
    /// List the workloads and implementations, and exit.
    #[arg(long)]
    list: bool,
    /// Run your own suite file instead of the repository's bench/suite.toml
    /// (same format; paths relative to the file; see bench/README.md, "Your
    /// own suite"). Results go to --out, default ./weir-bench-results.
    #[arg(long, value_name = "FILE")]
    suite: Option<PathBuf>,
    /// Run nothing: print the tables of a saved results.json again, rewrite its
    /// summary.md and redraw its figures (into --out, default: beside the file).
    #[arg(long, value_name = "RESULTS_JSON")]
    from: Option<PathBuf>,
}

#[cfg(not(feature = "bench"))]
fn cmd_bench(_: BenchArgs) -> ExitCode {
    not_built("bench")
}

#[cfg(feature = "bench")]
fn cmd_bench(a: BenchArgs) -> ExitCode {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let root = match &a.suite {
        // A user's suite: the repository (for `input = ...` workloads and the
        // machine's programs) if there is one around, else the suite's folder.
        Some(f) => {
            if !f.is_file() {
                return fail(format!("no suite file {}", f.display()));
            }
            let dir = f
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            weir_bench::find_root(&cwd)
                .or_else(|| weir_bench::find_root(dir))
                .unwrap_or_else(|| dir.to_path_buf())
        }
        None if a.from.is_some() => weir_bench::find_root(&cwd).unwrap_or_else(|| cwd.clone()),
        None => match weir_bench::find_root(&cwd) {
            Some(r) => r,
            None => {
                return fail(
                    "no bench/suite.toml in this directory or above it: run `weir bench` inside the Weir repository, or give your own suite with --suite FILE",
                );
            }
        },
    };
    if a.list {
        let (suite, name) = match &a.suite {
            Some(f) => (weir_bench::suite::load_user(f), f.display().to_string()),
            None => (
                weir_bench::suite::load(&root.join("bench/suite.toml")),
                "bench/suite.toml".to_string(),
            ),
        };
        let suite = match suite {
            Ok(s) => s,
            Err(e) => return fail(e),
        };
        outln!("workloads ({name}):");
        for w in &suite.workloads {
            outln!(
                "  {:<12} {}{}",
                w.name,
                w.title,
                if w.quick { "" } else { "  (full suite only)" }
            );
        }
        outln!("implementations:");
        for i in weir_bench::impls::all(true) {
            outln!("  {:<10} {}", i.id, i.label);
        }
        return ExitCode::SUCCESS;
    }
    if let Some(json) = &a.from {
        let rep = match std::fs::read_to_string(json)
            .map_err(|e| format!("cannot read {}: {e}", json.display()))
            .and_then(|t| {
                serde_json::from_str::<weir_bench::Report>(&t).map_err(|e| {
                    format!("{} is not a `weir bench` results file: {e}", json.display())
                })
            }) {
            Ok(r) => r,
            Err(e) => return fail(e),
        };
        for w in &rep.workloads {
            outln!("{}", weir_bench::report::workload_table(w, &rep.machine));
        }
        let summary = weir_bench::report::summary(&rep);
        outln!("{summary}");
        let dir = a
            .out
            .clone()
            .or_else(|| json.parent().map(Path::to_path_buf))
            .unwrap_or_else(|| PathBuf::from("."));
        if let Err(e) = std::fs::create_dir_all(&dir) {
            return fail(format!("cannot create {}: {e}", dir.display()));
        }
        let md = dir.join("summary.md");
        if let Err(e) = std::fs::write(&md, &summary) {
            return fail(format!("cannot write {}: {e}", md.display()));
        }
        outln!("wrote {}", md.display());
        if !a.no_plots {
            match weir_bench::plot::write_all(&rep, &dir) {
                Ok(files) => {
                    for f in files {
                        outln!("wrote {}", f.display());
                    }
                }
                Err(e) => return fail(e),
            }
        }
        return ExitCode::SUCCESS;
    }
    if a.cores == 0 {
        return fail("--cores needs at least 1");
    }
    // A user's suite writes everything (builds and inputs too) under --out.
    let user_out = a.suite.as_ref().map(|_| {
        a.out
            .clone()
            .unwrap_or_else(|| PathBuf::from("weir-bench-results"))
    });
    if let Some(o) = &user_out
        && let Err(e) = std::fs::create_dir_all(o)
    {
        return fail(format!("cannot create {}: {e}", o.display()));
    }
    let cfg = weir_bench::Config {
        root: root.clone(),
        suite: a.suite.clone(),
        build_dir: user_out.as_ref().map(|o| o.join("build")),
        quick: a.quick,
        size: a.size,
        only: a.only,
        impls: a.impls,
        variants: if a.variants {
            Some(true)
        } else if a.no_variants {
            Some(false)
        } else {
            None
        },
        reps: a.reps,
        budget_ms: a.budget_ms,
        timeout_s: a.timeout,
        cores: a.cores,
        cpu: a.cpu,
        openblas_coretype: a.openblas_coretype,
        machine: !a.no_machine,
        progress: !a.no_progress && std::io::stderr().is_terminal(),
    };
    let rep = match weir_bench::run(&cfg) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let scratch = a.out.is_none() && a.quick && a.suite.is_none();
    let out = user_out
        .or(a.out)
        .unwrap_or_else(|| weir_bench::default_out_dir(&root, a.quick, cfg.cores));
    if let Err(e) = std::fs::create_dir_all(&out) {
        return fail(format!("cannot create {}: {e}", out.display()));
    }
    let summary_text = weir_bench::report::summary(&rep);
    outln!("\n{summary_text}");
    outln!("({:.0} s in all)", rep.run.wall_s);
    let json = out.join("results.json");
    if let Err(e) = weir_bench::report::write_json(&rep, &json) {
        return fail(e);
    }
    let mut written = vec![json];
    let summary = out.join("summary.md");
    if let Err(e) = std::fs::write(&summary, &summary_text) {
        return fail(format!("cannot write {}: {e}", summary.display()));
    }
    written.push(summary);
    if !a.no_plots {
        match weir_bench::plot::write_all(&rep, &out) {
            Ok(files) => written.extend(files),
            Err(e) => eprintln!("warning: no figures: {e}"),
        }
    }
    for f in &written {
        outln!("wrote {}", f.display());
    }
    if scratch {
        outln!(
            "(a scratch directory; `--out bench/results/quick-{}core` refreshes the committed results)",
            cfg.cores
        );
    }
    let bad = weir_bench::failures(&rep);
    if bad.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "error: {} failure(s) (workloads that could not be prepared, wrong results, whose times were not counted, or implementations asked for that could not be built):",
            bad.len()
        );
        for b in &bad {
            eprintln!("  {b}");
        }
        ExitCode::FAILURE
    }
}

/// Without the cargo feature `feat` (a lean build, such as the Python
/// wheel's compiler), `weir FEAT` says how to get a build that has it.
#[cfg(not(all(feature = "bench", feature = "fuzz")))]
fn not_built(feat: &str) -> ExitCode {
    fail(format!(
        "this `weir` was built without `weir {feat}` (the cargo feature `{feat}`); \
         install the full compiler with `cargo install --locked --path crates/cli` \
         from the Weir repository"
    ))
}

/// A `--timeout` value: seconds, fractions allowed.
fn seconds(s: &str) -> Result<std::time::Duration, String> {
    s.trim()
        .parse::<f64>()
        .ok()
        .and_then(|x| std::time::Duration::try_from_secs_f64(x).ok())
        .ok_or_else(|| format!("`{s}` is not a number of seconds (e.g. 10 or 0.5)"))
}

/// A time limit of zero is none.
fn limit(d: Option<std::time::Duration>) -> Option<std::time::Duration> {
    d.filter(|d| !d.is_zero())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let color = match cli.color.as_str() {
        "always" => true,
        "never" => false,
        _ => std::io::stderr().is_terminal(),
    };
    if let Some(v) = weir_opt::Views::parse(&cli.views) {
        weir_driver::pipeline::set_views(v);
    }
    with_big_stack(move || run(cli.cmd, color))
}

fn fail(msg: impl AsRef<str>) -> ExitCode {
    eprintln!("error: {}", msg.as_ref());
    ExitCode::FAILURE
}

fn run(cmd: Cmd, color: bool) -> ExitCode {
    match cmd {
        Cmd::Check { file } => match compile_file(&file) {
            Ok(c) => {
                let n = c.program.defs.len();
                outln!(
                    "{}: ok ({n} definition{})",
                    file.display(),
                    if n == 1 { "" } else { "s" }
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprint!("{}", e.render(color));
                ExitCode::FAILURE
            }
        },
        Cmd::Run {
            file,
            entry,
            inputs,
            interp,
            no_opt,
            output,
            format,
            build,
            stats,
            runs,
            timeout,
        } => {
            let native = if interp || no_opt {
                None
            } else {
                match build.options() {
                    Ok(o) => Some(weir_driver::native::BuildOptions {
                        time_limit: limit(timeout),
                        ..o
                    }),
                    Err(e) => return fail(e),
                }
            };
            cmd_run(
                &file,
                entry,
                &inputs,
                Output {
                    files: &output,
                    format,
                },
                no_opt,
                native,
                stats,
                runs,
                color,
            )
        }
        Cmd::C {
            file,
            build,
            main,
            output,
        } => cmd_c(&file, &build, main, output.as_deref(), color),
        Cmd::Build {
            file,
            build,
            output,
        } => cmd_build(&file, &build, output.as_deref(), color),
        Cmd::Lib {
            file,
            build,
            output,
            name,
            march,
        } => cmd_lib(&file, &build, &output, name.as_deref(), &march, color),
        Cmd::Test {
            paths,
            format,
            interp,
            fast_math,
            timeout,
        } => {
            weir_driver::native::set_default_time_limit(limit(Some(timeout)));
            cmd_test(&paths, interp, fast_math, format == "json", color)
        }
        Cmd::Dev {
            dump_after: pass,
            explain_views,
            file,
        } => {
            if explain_views {
                let Some(file) = file else {
                    return fail("`weir dev --explain-views FILE` needs a file");
                };
                let c = match compile_file(&file) {
                    Ok(c) => c,
                    Err(e) => {
                        eprint!("{}", e.render(color));
                        return ExitCode::FAILURE;
                    }
                };
                let inlined = match weir_driver::pipeline::optimize(&c.program, Some("inline")) {
                    Ok(p) => p,
                    Err(e) => return fail(e),
                };
                let decisions = weir_opt::lower::explain(&inlined, weir_driver::pipeline::views());
                if decisions.is_empty() {
                    outln!(
                        "{}: no `transpose`, `reverse`, `++`/`concat`, `pad`, `flatten`, `unflatten` or `rotate`",
                        file.display()
                    );
                }
                for (span, b, _, why) in decisions {
                    outln!(
                        "{}: `{}`: {why}",
                        weir_driver::native::locate(&c, span),
                        b.name()
                    );
                }
                return ExitCode::SUCCESS;
            }
            let pass = pass.unwrap_or_default();
            if pass == "list" {
                for (p, what) in all_passes() {
                    outln!("{p:<12} {what}");
                }
                return ExitCode::SUCCESS;
            }
            let Some(file) = file else {
                return fail("`weir dev --dump-after PASS FILE` needs a file");
            };
            let c = match compile_file(&file) {
                Ok(c) => c,
                Err(e) => {
                    eprint!("{}", e.render(color));
                    return ExitCode::FAILURE;
                }
            };
            match dump_after(&c, &pass) {
                Some(Ok(s)) => {
                    out!("{s}");
                    ExitCode::SUCCESS
                }
                Some(Err(e)) => fail(e),
                None => fail(format!(
                    "unknown pass `{pass}`; the passes are: {}",
                    all_passes()
                        .iter()
                        .map(|p| p.0)
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            }
        }
        Cmd::Bench(a) => cmd_bench(a),
        Cmd::Fuzz(a) => cmd_fuzz(a),
        Cmd::Fmt { paths, check } => fmt::cmd_fmt(&paths, check, color),
        Cmd::Adbench { kind, file } => {
            let text = match weir_interp::files::read_text_bounded(
                &file,
                weir_interp::files::MAX_INPUT_BYTES,
            ) {
                Ok(t) => t,
                Err(e) => return fail(format!("cannot read {}: {e}", file.display())),
            };
            let r = if kind == "gmm" {
                weir_driver::adbench::gmm(&text)
            } else {
                weir_driver::adbench::ba(&text)
            };
            match r {
                Ok(s) => {
                    out!("{s}");
                    ExitCode::SUCCESS
                }
                Err(e) => fail(format!("{}: {e}", file.display())),
            }
        }
    }
}

fn load(file: &Path, color: bool) -> Result<weir_driver::pipeline::Compiled, ExitCode> {
    compile_file(file).map_err(|e| {
        eprint!("{}", e.render(color));
        ExitCode::FAILURE
    })
}

fn cmd_c(
    file: &Path,
    build: &BuildArgs,
    main: bool,
    output: Option<&Path>,
    color: bool,
) -> ExitCode {
    let (c, opts) = match load_with_options(file, build, color) {
        Ok(x) => x,
        Err(code) => return code,
    };
    match weir_driver::native::c_source_of(&c, &opts, main, Entries::Compilable) {
        Ok(src) => match output {
            Some(p) => {
                warn_left_out(&src.left_out);
                match std::fs::write(p, src.text) {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(e) => fail(format!("cannot write {}: {e}", p.display())),
                }
            }
            None => {
                warn_left_out(&src.left_out);
                out!("{}", src.text);
                ExitCode::SUCCESS
            }
        },
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// Load a file and read its build options (`weir c`, `weir build`, `weir lib`).
fn load_with_options(
    file: &Path,
    build: &BuildArgs,
    color: bool,
) -> Result<
    (
        weir_driver::pipeline::Compiled,
        weir_driver::native::BuildOptions,
    ),
    ExitCode,
> {
    let c = load(file, color)?;
    let opts = build.options().map_err(fail)?;
    Ok((c, opts))
}

/// Say which entry points the C backend left out (the others were compiled).
fn warn_left_out(left_out: &[(String, String)]) {
    for (entry, why) in left_out {
        eprintln!(
            "warning: entry point `{entry}` is left out of the C program (the others are compiled; run it with --interp):\n{why}"
        );
    }
}

fn cmd_lib(
    file: &Path,
    build: &BuildArgs,
    output: &Path,
    name: Option<&str>,
    march: &str,
    color: bool,
) -> ExitCode {
    let (c, mut opts) = match load_with_options(file, build, color) {
        Ok(x) => x,
        Err(code) => return code,
    };
    if let Err(e) = weir_driver::library::set_march(&mut opts, march) {
        return fail(e);
    }
    let name = name
        .map(str::to_string)
        .unwrap_or_else(|| weir_driver::library::default_name(file));
    match weir_driver::library::build_library(&c, &name, &opts, output) {
        Ok(lib) => {
            warn_left_out(&lib.left_out);
            for p in [&lib.header, &lib.static_lib, &lib.shared_lib, &lib.manifest] {
                outln!("{}", p.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn cmd_build(file: &Path, build: &BuildArgs, output: Option<&Path>, color: bool) -> ExitCode {
    let (c, opts) = match load_with_options(file, build, color) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let exe = match weir_driver::native::c_source_of(&c, &opts, true, Entries::Compilable).and_then(
        |src| {
            warn_left_out(&src.left_out);
            weir_driver::native::build_c(&src.text, &opts)
        },
    ) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let dest = match output {
        Some(p) => p.to_path_buf(),
        None => file.with_extension(""),
    };
    match std::fs::copy(&exe, &dest) {
        Ok(_) => {
            outln!("{}", dest.display());
            ExitCode::SUCCESS
        }
        Err(e) => fail(format!("cannot write {}: {e}", dest.display())),
    }
}

#[allow(clippy::too_many_arguments)]
fn cmd_run(
    file: &Path,
    entry: Option<String>,
    inputs: &[String],
    output: Output<'_>,
    no_opt: bool,
    native: Option<weir_driver::native::BuildOptions>,
    stats: bool,
    runs: u64,
    color: bool,
) -> ExitCode {
    let c = match compile_file(file) {
        Ok(c) => c,
        Err(e) => {
            eprint!("{}", e.render(color));
            return ExitCode::FAILURE;
        }
    };
    let entry_def = match &entry {
        Some(name) => match c.program.find(name) {
            Some(d) if d.entry => d,
            Some(_) => {
                return fail(format!(
                    "`{name}` is a `def`, not an `entry`; only entry points can be run"
                ));
            }
            None => {
                let names: Vec<&str> = c.program.entries().map(|d| d.name.as_str()).collect();
                return fail(format!(
                    "no entry point `{name}` in {}; the entries are: {}",
                    file.display(),
                    names.join(", ")
                ));
            }
        },
        None => match c.program.entries().next() {
            Some(d) => d,
            None => {
                return fail(format!(
                    "{} has no `entry` definition to run",
                    file.display()
                ));
            }
        },
    };
    let name = entry_def.name.clone();
    let ret = entry_def.ret.clone();
    let surface = c.program.surface.get(&name).map(|(_, r)| r);
    if let Err(e) = output.check(&ret) {
        return fail(e);
    }
    let args = if inputs.is_empty() && !entry_def.params.is_empty() {
        // the first test block's first input for this entry
        let text =
            weir_interp::files::read_text_bounded(file, weir_driver::pipeline::MAX_SOURCE_BYTES)
                .unwrap_or_default();
        let dir = file.parent().unwrap_or(Path::new("."));
        let cases = match parse_blocks(&text, dir) {
            Ok(cs) => cs,
            Err(e) => return fail(format!("{}: test block: {e}", file.display())),
        };
        let first_entry = c.program.entries().next().map(|d| d.name.clone());
        let case = cases.iter().find(|cs| {
            let applies = if cs.entries.is_empty() {
                first_entry.as_deref() == Some(name.as_str())
            } else {
                cs.entries.contains(&name)
            };
            applies && matches!(cs.expect, Expect::Output(_))
        });
        let Some(case) = case else {
            return fail(format!(
                "`{name}` takes {} argument(s) and {} has no test block input for it; pass the inputs on the command line",
                entry_def.params.len(),
                file.display()
            ));
        };
        let where_ = match &case.input {
            ValueSrc::Inline(_) => format!("{}:{}", file.display(), case.line),
            ValueSrc::File(p) => p.display().to_string(),
        };
        eprintln!("(using the test input at {where_})");
        match weir_driver::testblock::case_args(&c, &name, &case.input) {
            Ok(a) => a,
            Err(e) => return fail(e),
        }
    } else {
        let sources = match classify(inputs) {
            Ok(s) => s,
            Err(e) => return fail(e),
        };
        let surface_params = c.program.surface.get(&name).map(|(ps, _)| ps.as_slice());
        match weir_driver::inputs::read_args_as(entry_def, surface_params, &sources) {
            Ok(a) => a,
            Err(e) => return fail(format!("bad input for `{name}`: {e}")),
        }
    };
    if let Some(opts) = native {
        return match weir_driver::native::run_native(&c, &name, &args, &opts, runs.max(1)) {
            Ok((v, st)) => {
                if stats && let Some(st) = st {
                    eprintln!(
                        "stats: {} run(s), {:.3} ms total, {:.1} ns per run; peak RSS {} KiB; region/heap peak {} bytes ({} reserved); {} system allocation(s), {} in the last run",
                        st.runs,
                        st.total_ns as f64 / 1e6,
                        st.total_ns as f64 / st.runs.max(1) as f64,
                        st.peak_rss_kb,
                        st.peak_bytes,
                        st.reserved_bytes,
                        st.sys_allocs,
                        st.sys_allocs_last_run
                    );
                }
                print_or_save(&v, &ret, surface, output)
            }
            Err(weir_driver::native::NativeError::Runtime(m)) => {
                match weir_driver::native::runtime_error(&c, &m) {
                    Some(e) => eprint!("{}", render_runtime_error(&c, &e, color)),
                    None => eprintln!("error: runtime error at {m}"),
                }
                ExitCode::FAILURE
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
        };
    }
    let result = if no_opt {
        run_entry(&c, &name, args)
    } else {
        weir_driver::pipeline::run_entry_optimized(&c, &name, args)
    };
    match result {
        Ok(v) => print_or_save(&v, &ret, surface, output),
        Err(e) => {
            eprint!("{}", render_runtime_error(&c, &e, color));
            ExitCode::FAILURE
        }
    }
}

/// How `weir run` prints its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Weir's value syntax (docs/language.md §7).
    Weir,
    /// One JSON line per result (tuples: per component).
    Json,
}

/// Where `weir run` puts its results.
#[derive(Clone, Copy)]
struct Output<'a> {
    files: &'a [PathBuf],
    format: Format,
}

impl Output<'_> {
    fn npz(&self) -> bool {
        matches!(self.files, [f] if f.extension().is_some_and(|e| e == "npz"))
    }

    /// The `-o` files against the entry's results, before anything runs.
    fn check(&self, ret: &weir_ir::Type) -> Result<(), String> {
        let n = count_leaves(ret);
        if !self.files.is_empty() && !self.npz() && self.files.len() != n {
            return Err(format!(
                "the entry has {n} result(s) but {} -o file(s) were given: one .npy per result, or one .npz for all",
                self.files.len()
            ));
        }
        Ok(())
    }
}

/// The number of leaf results of a type (tuples flattened, arrays of tuples
/// one array per component).
fn count_leaves(t: &weir_ir::Type) -> usize {
    match t {
        weir_ir::Type::Tuple(ts) => ts.iter().map(count_leaves).sum(),
        weir_ir::Type::Array(_, e) => count_leaves(e),
        _ => 1,
    }
}

/// Print a result, or save it to the `-o` files. `surface`: the entry's
/// result type as written, where it has records (printed with their names).
fn print_or_save(
    v: &weir_interp::Value,
    ret: &weir_ir::Type,
    surface: Option<&weir_ir::Type>,
    output: Output<'_>,
) -> ExitCode {
    let leaves = weir_interp::npy::leaves(v, ret);
    if output.files.is_empty() {
        match output.format {
            Format::Weir => match surface {
                Some(t) => outln!("{}", weir_interp::format_value_as(v, t)),
                None => outln!("{}", format_value(v)),
            },
            Format::Json => {
                for (x, _) in &leaves {
                    outln!("{}", weir_interp::npy::json_line(x));
                }
            }
        }
        return ExitCode::SUCCESS;
    }
    let mut npys = Vec::new();
    for (x, t) in &leaves {
        match weir_interp::npy::write_npy_typed(x, t) {
            Ok(b) => npys.push(b),
            Err(e) => return fail(format!("cannot write the result as .npy: {e}")),
        }
    }
    let writes: Vec<(&Path, Vec<u8>)> = if output.npz() {
        let members: Vec<(String, Vec<u8>)> = npys
            .into_iter()
            .enumerate()
            .map(|(k, b)| (format!("result_{k}.npy"), b))
            .collect();
        match weir_interp::npy::write_npz(&members) {
            Ok(z) => output
                .files
                .iter()
                .map(|f| (f.as_path(), z.clone()))
                .collect(),
            Err(e) => return fail(e),
        }
    } else {
        output
            .files
            .iter()
            .map(PathBuf::as_path)
            .zip(npys)
            .collect()
    };
    for (path, bytes) in writes {
        if let Err(e) = std::fs::write(path, bytes) {
            return fail(format!("cannot write {}: {e}", path.display()));
        }
    }
    ExitCode::SUCCESS
}

fn collect_files(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            collect_files(&e, out);
        }
    } else if p.extension().is_some_and(|e| e == "weir") {
        out.push(p.to_path_buf());
    }
}

/// One file's result in `weir test`: its cases (an input of a test block
/// for one entry, or a `structure` line), which of them failed, and why.
struct FileReport {
    file: String,
    cases: usize,
    structures: usize,
    backends: &'static str,
    /// (line, entry, where, message) of each failed check.
    failures: Vec<(usize, String, String, String)>,
    /// A failure of the whole file (unreadable, bad block, does not compile).
    error: Option<String>,
}

impl FileReport {
    fn failed_cases(&self) -> usize {
        let mut keys: Vec<(usize, &str)> = self
            .failures
            .iter()
            .map(|(l, e, _, _)| (*l, e.as_str()))
            .collect();
        keys.sort();
        keys.dedup();
        keys.len()
    }
}

fn cmd_test(
    paths: &[PathBuf],
    interp_only: bool,
    fast_math: bool,
    json: bool,
    color: bool,
) -> ExitCode {
    let mut files = Vec::new();
    let default = [PathBuf::from("examples")];
    let paths = if paths.is_empty() {
        &default[..]
    } else {
        paths
    };
    for p in paths {
        if !p.exists() {
            if paths == default {
                return fail(
                    "no path given, and no `examples` folder here to test: pass the .weir files or folders whose test blocks to run (`weir test kernels.weir`, `weir test src/`)",
                );
            }
            return fail(format!("{} does not exist", p.display()));
        }
        collect_files(p, &mut files);
    }
    if files.is_empty() {
        return fail(format!(
            "no .weir files in {}",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let mut reports = Vec::new();
    for f in &files {
        let r = test_file(f, interp_only, fast_math, color);
        if !json {
            print_report(&r);
        }
        reports.push(r);
    }
    // Cases are counted in the files that were tested; a file that could
    // not be (it does not compile, or cannot be read) is counted as a file,
    // never as cases.
    let (mut cases, mut passed, mut failed) = (0usize, 0usize, 0usize);
    let (mut uncompiled, mut unread) = (0usize, 0usize);
    for r in &reports {
        if let Some(e) = &r.error {
            if e.starts_with("does not compile") {
                uncompiled += 1;
            } else {
                unread += 1;
            }
        } else {
            let n = r.cases + r.structures;
            cases += n;
            failed += r.failed_cases();
            passed += n - r.failed_cases();
        }
    }
    if json {
        let files: Vec<serde_json::Value> = reports
            .iter()
            .map(|r| {
                let fails: Vec<serde_json::Value> = r
                    .failures
                    .iter()
                    .map(|(l, e, w, m)| {
                        serde_json::json!({"line": l, "entry": e, "backend": w, "message": m})
                    })
                    .collect();
                serde_json::json!({
                    "file": r.file,
                    "cases": r.cases,
                    "structures": r.structures,
                    "backends": r.backends,
                    "failed": r.failed_cases(),
                    "error": r.error,
                    "failures": fails,
                })
            })
            .collect();
        outln!(
            "{}",
            serde_json::json!({"files": files, "cases": cases, "passed": passed, "failed": failed, "files_not_compiled": uncompiled, "files_not_read": unread})
        );
    } else {
        outln!(
            "{}",
            test_summary(passed, failed, cases, reports.len(), uncompiled, unread)
        );
    }
    if failed == 0 && uncompiled == 0 && unread == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The last line of `weir test`: cases passed and failed, then how many
/// cases in how many files, and how many files could not be tested (they do
/// not compile; or they, or their test blocks, cannot be read), which count as
/// files, not cases: `5 passed, 1 failed (6 cases in 3 files; 1 file did not
/// compile)`.
fn test_summary(
    passed: usize,
    failed: usize,
    cases: usize,
    files: usize,
    uncompiled: usize,
    unread: usize,
) -> String {
    let s = |n: usize| if n == 1 { "" } else { "s" };
    let mut line = format!(
        "{passed} passed, {failed} failed ({cases} case{} in {files} file{}",
        s(cases),
        s(files)
    );
    if uncompiled > 0 {
        line.push_str(&format!(
            "; {uncompiled} file{} did not compile",
            s(uncompiled)
        ));
    }
    if unread > 0 {
        line.push_str(&format!("; {unread} file{} could not be tested", s(unread)));
    }
    line.push(')');
    line
}

fn print_report(r: &FileReport) {
    if let Some(e) = &r.error {
        outln!("{}: FAILED ({e})", r.file);
        return;
    }
    let n = r.cases + r.structures;
    let what = format!(
        "{} case{}{}{}",
        r.cases,
        if r.cases == 1 { "" } else { "s" },
        if r.cases > 0 {
            format!(" on {}", r.backends)
        } else {
            String::new()
        },
        if r.structures > 0 {
            format!(
                ", {} structure check{}",
                r.structures,
                if r.structures == 1 { "" } else { "s" }
            )
        } else {
            String::new()
        }
    );
    if r.failures.is_empty() {
        outln!("{}: ok ({what})", r.file);
    } else {
        outln!("{}: {} of {n} FAILED ({what})", r.file, r.failed_cases());
        for (line, entry, backend, msg) in &r.failures {
            outln!("  {}:{line} (entry `{entry}`, {backend}): {msg}", r.file);
        }
    }
}

fn test_file(f: &Path, interp_only: bool, fast_math: bool, color: bool) -> FileReport {
    let mut report = FileReport {
        file: f.display().to_string(),
        cases: 0,
        structures: 0,
        backends: if interp_only {
            "the interpreter"
        } else {
            "the interpreter and compiled C"
        },
        failures: Vec::new(),
        error: None,
    };
    {
        let text =
            match weir_interp::files::read_text_bounded(f, weir_driver::pipeline::MAX_SOURCE_BYTES)
            {
                Ok(t) => t,
                Err(e) => {
                    report.error = Some(format!("cannot read: {e}"));
                    return report;
                }
            };
        let dir = f.parent().unwrap_or(Path::new("."));
        let (cases, structures) = match weir_driver::testblock::parse_blocks_full(&text, dir) {
            Ok(c) => c,
            Err(e) => {
                report.error = Some(format!("bad test block: {e}"));
                return report;
            }
        };
        let c = match compile_file(f) {
            Ok(c) => c,
            Err(e) => {
                report.error = Some(format!("does not compile\n{}", e.render(color)));
                return report;
            }
        };
        let interp = run_cases(&c, &cases);
        report.cases = interp.len();
        let structs = weir_driver::testblock::check_structures(&c, &structures);
        report.structures = structs.len();
        let mut failures = Vec::new();
        for o in interp {
            if let Some(m) = o.failure {
                failures.push((o.line, o.entry, "interpreter".to_string(), m));
            }
        }
        for o in structs {
            if let Some(m) = o.failure {
                failures.push((o.line, o.entry, "structure".to_string(), m));
            }
        }
        if !interp_only {
            // The same cases on compiled C (default variant), against the interpreter.
            let opts = weir_driver::native::BuildOptions {
                fast_math,
                ..Default::default()
            };
            let tolerance = if fast_math {
                weir_driver::testblock::FAST_MATH_TOLERANCE
            } else {
                weir_driver::testblock::NATIVE_TOLERANCE
            };
            match weir_driver::native::c_source_of(&c, &opts, true, Entries::Compilable).and_then(
                |src| {
                    let exe = weir_driver::native::build_c(&src.text, &opts)?;
                    Ok((exe, src.left_out))
                },
            ) {
                Ok((exe, left_out)) => {
                    for mut o in weir_driver::testblock::run_cases_native_within(
                        &c,
                        &cases,
                        &exe,
                        &[],
                        tolerance,
                    ) {
                        if let Some((_, why)) = left_out.iter().find(|(e, _)| *e == o.entry) {
                            // This entry point alone does not compile.
                            o.failure = Some(format!(
                                "does not compile to C (use --interp to test the interpreter only):\n{why}"
                            ));
                        }
                        if let Some(m) = o.failure {
                            failures.push((o.line, o.entry, "compiled C".to_string(), m));
                        }
                    }
                }
                Err(e) => {
                    report.error = Some(format!(
                        "does not compile to C: {e} (use --interp to test the interpreter only)"
                    ));
                }
            }
        }
        report.failures = failures;
    }
    report
}
