//! Peak heap, allocation counts and median time of the paper's programs
//! against idiomatic Rust (see `common` for the workloads), printed as one
//! Markdown table per workload and written to `target/dest-bench/memory.md`.
//!
//! ```text
//! cargo bench -p dest --bench memory                            # 2^10 ... 2^22
//! cargo bench -p dest --bench memory -- --quick                 # 2^10 ... 2^16
//! cargo bench -p dest --bench memory -- --only map,bfs --max-log2 18
//! cargo bench -p dest --bench memory -- --min-log2 22 --only sexpr
//! cargo bench -p dest --bench memory -- --budget 1.0            # seconds per size
//! cargo bench -p dest --bench memory -- --retain                # malloc keeps memory
//! ```
//!
//! Without `--bench` (which `cargo bench` passes, e.g. under
//! `cargo test --all-targets`) it is a smoke test: sizes 2^10 and 2^12 only,
//! every variant checked and run, no file written.
//!
//! Method, for each workload and size: the input is built (untimed, not
//! counted) and all variants are checked to agree. Then each variant is run
//! once with counting on: the peak of live heap bytes during the run, minus
//! the live bytes before it, is its *peak heap*; the number of `alloc` and
//! `realloc` calls is its *allocations* (a region's chunks count as
//! allocations, its bump allocations do not). Dropping the result is part of
//! the run. Counting is off while timing, so the allocator wrapper costs one
//! relaxed load per call then. Timing: `R` repetitions, `R` odd, at least 5,
//! at most 1001, and about `--budget` seconds (default 0.5) for the slowest
//! variant; the variants take turns within each repetition (rotating which
//! goes first), so machine noise hits all alike; the median is reported.
//!
//! The `× best baseline` column is the headline: for each destination
//! variant (name starting with `dest`), its median time over that of the
//! fastest baseline producing the same kind of result (any linked list, say,
//! whether in a region, a `Bump` or `Box`es; a `Vec` is another kind), with
//! `win`, `tie` (within 5%) or `lose` and the baseline's name. `× dest`
//! compares every variant with the first.
//!
//! The system allocator matters from about 2^16 on. With glibc's defaults,
//! large freed blocks go back to the OS (blocks over the mmap threshold are
//! unmapped, the top of the heap is trimmed), so a fresh region's chunks,
//! and a large `Vec`'s buffer, are often fresh pages whose page faults are
//! part of the time: at 2^22 they are most of it, in proportion to the bytes
//! a variant touches. How many of them a run pays depends on what ran before
//! in the process (glibc adapts its thresholds), which is why the variants
//! are interleaved. `--retain` runs the same measurements with malloc keeping
//! all freed memory ([`RETAIN_TUNABLES`], by re-executing this program with
//! `GLIBC_TUNABLES` set; ignored by other allocators): no page faults after
//! the first run, i.e. the cost of the code alone. A `GLIBC_TUNABLES` already
//! set is respected and recorded in the machine line.

mod common;

/// glibc settings for `--retain`: never `mmap` (so nothing is unmapped on
/// free) and never trim the heap.
const RETAIN_TUNABLES: &str = "glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=68719476736";

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use common::{Bfs, DList, Map, SExprParse, Workload};

/// The system allocator, counting while [`COUNTING`] is on.
struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
/// `alloc` + `realloc` calls while counting.
static ALLOCS: AtomicU64 = AtomicU64::new(0);
/// Bytes requested while counting (`realloc`: the new size).
static BYTES: AtomicU64 = AtomicU64::new(0);
/// Live bytes, as seen while counting (only differences are meaningful:
/// blocks allocated while not counting may be freed while counting).
static LIVE: AtomicIsize = AtomicIsize::new(0);
/// Highest [`LIVE`] since the last reset.
static PEAK: AtomicIsize = AtomicIsize::new(0);

impl Counting {
    #[inline]
    fn grew(delta: isize) {
        let now = LIVE.fetch_add(delta, Relaxed) + delta;
        PEAK.fetch_max(now, Relaxed);
    }
}

// SAFETY: every call is forwarded unchanged to `System`; the wrapper only
// updates counters.
unsafe impl GlobalAlloc for Counting {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Relaxed) {
            ALLOCS.fetch_add(1, Relaxed);
            BYTES.fetch_add(layout.size() as u64, Relaxed);
            Counting::grew(layout.size() as isize);
        }
        // SAFETY: the caller's obligations are those of `System.alloc`.
        unsafe { System.alloc(layout) }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Relaxed) {
            ALLOCS.fetch_add(1, Relaxed);
            BYTES.fetch_add(layout.size() as u64, Relaxed);
            Counting::grew(layout.size() as isize);
        }
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if COUNTING.load(Relaxed) {
            LIVE.fetch_sub(layout.size() as isize, Relaxed);
        }
        // SAFETY: `ptr` was allocated by `System` (through us) with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Relaxed) {
            ALLOCS.fetch_add(1, Relaxed);
            BYTES.fetch_add(new_size as u64, Relaxed);
            Counting::grew(new_size as isize - layout.size() as isize);
        }
        // SAFETY: `ptr` was allocated by `System` (through us) with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// What one counted run used.
#[derive(Clone, Copy, Default)]
struct Usage {
    peak: u64,
    allocs: u64,
}

/// Runs `f` once with counting on.
fn counted(f: impl FnOnce() -> u64) -> Usage {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let allocs0 = ALLOCS.load(Relaxed);
    COUNTING.store(true, Relaxed);
    black_box(f());
    COUNTING.store(false, Relaxed);
    Usage {
        peak: (PEAK.load(Relaxed) - base).max(0) as u64,
        allocs: ALLOCS.load(Relaxed) - allocs0,
    }
}

fn timed(f: impl FnOnce() -> u64) -> Duration {
    let t0 = Instant::now();
    let c = f();
    settle();
    let dt = t0.elapsed();
    black_box(c);
    dt
}

/// One allocation and free of a block too large for glibc's per-thread
/// cache. glibc defers part of the work of freeing small blocks (they wait
/// in "fastbins") and does it at the next such allocation (it consolidates
/// the fastbins first): without this, a variant freeing many small blocks
/// (`Box` per node) would leave its cleanup to whichever variant runs next,
/// typically one whose region asks for a chunk. Ending every timed run with
/// this charges each run for its own frees; otherwise it costs tens of
/// nanoseconds.
#[inline(never)]
fn settle() {
    let layout = Layout::from_size_align(SETTLE_BYTES, 16).expect("valid layout");
    // SAFETY: the layout has a non-zero size; the block is freed with it.
    unsafe {
        let p = black_box(System.alloc(layout));
        if !p.is_null() {
            System.dealloc(p, layout);
        }
    }
}

/// Above glibc's largest per-thread-cache size (1032 bytes) and in its
/// "large" range (1024 bytes and up), which triggers the consolidation.
const SETTLE_BYTES: usize = 4096;

struct Options {
    quick: bool,
    only: Option<Vec<String>>,
    min_log2: u32,
    max_log2: u32,
    budget: Duration,
    retain: bool,
    /// Run by `cargo test` (no `--bench`): a smoke test, sizes 2^10 and
    /// 2^12, minimal timing, no file written.
    smoke: bool,
}

fn usage_exit(msg: &str) -> ! {
    eprintln!("memory bench: {msg}");
    eprintln!(
        "usage: cargo bench -p dest --bench memory -- [--quick] [--only map,dlist,bfs,sexpr] \
         [--min-log2 N] [--max-log2 N] [--budget SECONDS] [--retain]"
    );
    std::process::exit(2)
}

fn parse_options() -> Options {
    let mut o = Options {
        quick: false,
        only: None,
        min_log2: 10,
        max_log2: 22,
        budget: Duration::from_millis(500),
        retain: false,
        smoke: true,
    };
    let mut max_given = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (a.clone(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| args.next())
                .unwrap_or_else(|| usage_exit(&format!("{name} needs a value")))
        };
        match flag.as_str() {
            "--bench" => o.smoke = false,
            "--quick" => o.quick = true,
            "--retain" => o.retain = true,
            "--only" => {
                let v = value("--only");
                let names: Vec<String> = v.split(',').map(|s| s.trim().to_string()).collect();
                for n in &names {
                    if !["map", "dlist", "bfs", "sexpr"].contains(&n.as_str()) {
                        usage_exit(&format!("unknown workload {n}"));
                    }
                }
                o.only = Some(names);
            }
            "--min-log2" | "--max-log2" => {
                let v = value(&flag);
                let k: u32 = v
                    .parse()
                    .ok()
                    .filter(|k: &u32| (10..=22).contains(k) && k.is_multiple_of(2))
                    .unwrap_or_else(|| usage_exit(&format!("{flag}: want 10, 12, ..., 22")));
                if flag == "--min-log2" {
                    o.min_log2 = k;
                } else {
                    o.max_log2 = k;
                    max_given = true;
                }
            }
            "--budget" => {
                let v = value("--budget");
                let s: f64 = v
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0)
                    .unwrap_or_else(|| usage_exit("--budget: want seconds > 0"));
                o.budget = Duration::from_secs_f64(s);
            }
            // cargo passes `--bench` (and libtest-style flags) to harness=false
            // benches: ignore anything else.
            _ => {}
        }
    }
    if o.quick && !max_given {
        o.max_log2 = 16;
    }
    if o.smoke {
        o.max_log2 = o.max_log2.min(12);
        o.budget = Duration::from_millis(1);
    }
    o
}

fn fmt_time(d: Duration) -> String {
    let ns = d.as_secs_f64() * 1e9;
    if ns < 1e3 {
        format!("{ns:.0} ns")
    } else if ns < 1e6 {
        format!("{:.1} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.3} s", ns / 1e9)
    }
}

fn fmt_bytes(b: u64) -> String {
    let b = b as f64;
    if b < 1024.0 {
        format!("{b:.0} B")
    } else if b < 1024.0 * 1024.0 {
        format!("{:.1} KiB", b / 1024.0)
    } else if b < 1024.0 * 1024.0 * 1024.0 {
        format!("{:.1} MiB", b / (1024.0 * 1024.0))
    } else {
        format!("{:.2} GiB", b / (1024.0 * 1024.0 * 1024.0))
    }
}

fn fmt_count(c: u64) -> String {
    let s = c.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

fn size_label(n: usize) -> String {
    format!("2^{}", n.trailing_zeros())
}

/// A ratio within this factor of 1 (either way) is reported as a tie.
const TIE: f64 = 1.05;

/// The `× best baseline` cell of variant `v`: for a destination variant, its
/// median over the fastest baseline's of the same result kind, a verdict
/// (`win` below 1/[`TIE`], `lose` above [`TIE`], else `tie`) and that
/// baseline's name; for the fastest baseline of a kind, `best baseline`;
/// empty otherwise.
fn versus_best_baseline<W: Workload>(v: usize, medians: &[Duration]) -> String {
    let kind = common::kind::<W>(v);
    let best = (0..W::VARIANTS.len())
        .filter(|&b| !common::is_dest::<W>(b) && common::kind::<W>(b) == kind)
        .min_by_key(|&b| medians[b]);
    match best {
        Some(b) if common::is_dest::<W>(v) => {
            let ratio = medians[v].as_secs_f64() / medians[b].as_secs_f64().max(1e-12);
            let verdict = if ratio * TIE < 1.0 {
                "win"
            } else if ratio > TIE {
                "lose"
            } else {
                "tie"
            };
            format!("{ratio:.2} {verdict} vs {}", W::VARIANTS[b])
        }
        Some(b) if b == v => "best baseline".to_string(),
        _ => String::new(),
    }
}

/// Measures every variant of `W` at each size; returns the Markdown table.
fn measure<W: Workload>(sizes: &[usize], budget: Duration) -> String {
    let mut t = String::new();
    let _ = writeln!(t, "### {}\n", W::NAME);
    let _ = writeln!(
        t,
        "| n | variant | median time | × {} | × best baseline | peak heap | allocations |",
        W::VARIANTS[0]
    );
    let _ = writeln!(t, "|---|---|---:|---:|---|---:|---:|");
    print!("{t}");
    for &n in sizes {
        let started = Instant::now();
        let rows = W::with_input(n, |input| {
            common::check_once::<W>(n, input);
            let nv = W::VARIANTS.len();
            let usage: Vec<Usage> = (0..nv).map(|v| counted(|| W::run(v, input))).collect();
            // One untimed-for-the-table run each, to size R.
            let slowest = (0..nv)
                .map(|v| timed(|| W::run(v, input)))
                .max()
                .unwrap_or_default()
                .max(Duration::from_nanos(1));
            let reps = (budget.as_secs_f64() / slowest.as_secs_f64()).clamp(5.0, 1001.0) as usize;
            let reps = reps | 1;
            let mut times: Vec<Vec<Duration>> = vec![Vec::with_capacity(reps); nv];
            for r in 0..reps {
                for k in 0..nv {
                    let v = (r + k) % nv;
                    times[v].push(timed(|| W::run(v, input)));
                }
            }
            let medians: Vec<Duration> = times
                .iter_mut()
                .map(|ts| {
                    ts.sort_unstable();
                    ts[ts.len() / 2]
                })
                .collect();
            (usage, medians, reps)
        });
        let (usage, medians, reps) = rows;
        let base = medians[0].as_secs_f64().max(1e-12);
        let mut block = String::new();
        for (v, name) in W::VARIANTS.iter().enumerate() {
            let _ = writeln!(
                block,
                "| {} | {name} | {} | {:.2} | {} | {} | {} |",
                size_label(n),
                fmt_time(medians[v]),
                medians[v].as_secs_f64() / base,
                versus_best_baseline::<W>(v, &medians),
                fmt_bytes(usage[v].peak),
                fmt_count(usage[v].allocs),
            );
        }
        print!("{block}");
        eprintln!(
            "  ({} n={n}: R={reps}, {:.1} s)",
            W::NAME,
            started.elapsed().as_secs_f64()
        );
        t.push_str(&block);
    }
    println!();
    t.push('\n');
    t
}

fn machine_line() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let rustc =
        std::process::Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
            .arg("-V")
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_else(|| "rustc (unknown version)".into());
    let malloc = match std::env::var("GLIBC_TUNABLES") {
        Ok(t) if t == RETAIN_TUNABLES => {
            format!("system allocator keeping freed memory (`--retain`: GLIBC_TUNABLES={t})")
        }
        Ok(t) => format!("system allocator with GLIBC_TUNABLES={t}"),
        Err(_) => "system allocator with default settings".to_string(),
    };
    format!("Machine: {cpu}, {cores} cores available; {rustc}; release profile; {malloc}.")
}

/// `target/` of this build: the first ancestor of the executable holding
/// cargo's `CACHEDIR.TAG`, else `CARGO_TARGET_DIR`, else the workspace's.
fn target_dir() -> PathBuf {
    if let Ok(exe) = std::env::current_exe() {
        for dir in exe.ancestors().skip(1) {
            if dir.join("CACHEDIR.TAG").is_file() {
                return dir.to_path_buf();
            }
        }
    }
    if let Some(d) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(d);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target")
}

fn main() {
    let o = parse_options();
    if o.retain && std::env::var_os("GLIBC_TUNABLES").is_none() {
        // The allocator reads its settings at start-up: run again with them.
        let status = std::env::current_exe().and_then(|exe| {
            std::process::Command::new(exe)
                .args(std::env::args_os().skip(1))
                .env("GLIBC_TUNABLES", RETAIN_TUNABLES)
                .status()
        });
        match status {
            Ok(s) => std::process::exit(s.code().unwrap_or(1)),
            Err(e) => usage_exit(&format!("--retain: could not re-execute: {e}")),
        }
    }
    let sizes: Vec<usize> = common::SIZES
        .iter()
        .copied()
        .filter(|n| (o.min_log2..=o.max_log2).contains(&n.trailing_zeros()))
        .collect();
    let wanted = |name: &str| o.only.as_ref().is_none_or(|v| v.iter().any(|w| w == name));
    let machine = machine_line();
    let mut md = String::from("# dest: peak heap, allocations and time\n\n");
    let _ = writeln!(md, "{machine}\n");
    let _ = writeln!(
        md,
        "Sizes {}; median of R runs (R ≥ 5, ~{} s per size for the slowest variant), \
         variants interleaved; peak heap = highest live heap during one run minus the live heap \
         before it (result dropped inside the run); allocations = alloc + realloc calls.{}\n",
        sizes
            .iter()
            .map(|&n| size_label(n))
            .collect::<Vec<_>>()
            .join(", "),
        o.budget.as_secs_f64(),
        if o.quick { " (`--quick`)" } else { "" }
    );
    println!("{machine}\n");
    let total = Instant::now();
    if wanted("map") {
        md.push_str(&measure::<Map>(&sizes, o.budget));
    }
    if wanted("dlist") {
        md.push_str(&measure::<DList>(&sizes, o.budget));
    }
    if wanted("bfs") {
        md.push_str(&measure::<Bfs>(&sizes, o.budget));
    }
    if wanted("sexpr") {
        md.push_str(&measure::<SExprParse>(&sizes, o.budget));
    }
    if o.smoke {
        eprintln!("memory bench: smoke test passed (`cargo bench` measures)");
        return;
    }
    let dir = target_dir().join("dest-bench");
    let path = dir.join("memory.md");
    match std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, &md)) {
        Ok(()) => eprintln!(
            "wrote {} ({:.1} s in all)",
            path.display(),
            total.elapsed().as_secs_f64()
        ),
        Err(e) => eprintln!("could not write {}: {e}", path.display()),
    }
}
