//! The suite's run: inputs, builds, calibration and cross-check, then the
//! interleaved timed repetitions.

use crate::impls::{self, Impl, Launch, Toolchain};
use crate::machine::{self, Limits};
use crate::proc::{self, Env, Failure, Sample};
use crate::suite::{self, Workload};
use crate::values::{self, Check, Leaf};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use weir_ir::Type;

/// What `weir bench` was asked to do.
#[derive(Debug, Clone)]
pub struct Config {
    /// The repository root (holds bench/suite.toml); for a user's suite
    /// outside the repository, the suite file's folder.
    pub root: PathBuf,
    /// A user's suite file (`weir bench --suite FILE`) instead of the
    /// repository's bench/suite.toml.
    pub suite: Option<PathBuf>,
    /// Where inputs, builds and scratch files go (default: the repository's
    /// bench/build; a user's suite: OUT/build).
    pub build_dir: Option<PathBuf>,
    pub quick: bool,
    pub size: Option<String>,
    /// Workload names (empty: all of the mode's).
    pub only: Vec<String>,
    /// Implementation ids (empty: all).
    pub impls: Vec<String>,
    /// Weir's ablation variants (default: in the full suite only).
    pub variants: Option<bool>,
    pub reps: Option<usize>,
    pub budget_ms: Option<u64>,
    pub timeout_s: Option<u64>,
    pub cores: usize,
    pub cpu: Option<usize>,
    pub openblas_coretype: Option<String>,
    pub machine: bool,
    pub progress: bool,
}

/// One implementation's outcome on one workload.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct ImplResult {
    pub id: String,
    pub label: String,
    /// `ok`, or why there is no time: `skipped: ...`, `failed: ...`,
    /// `wrong result: ...`, `timeout ...`.
    pub status: String,
    pub calls_per_process: u64,
    pub warmup_calls: u64,
    /// Per-call times of the timed repetitions (ns), in run order.
    pub samples_ns: Vec<f64>,
    pub median_ns: Option<f64>,
    pub min_ns: Option<f64>,
    pub max_ns: Option<f64>,
    /// Largest peak RSS of its processes (KiB).
    pub peak_rss_kb: Option<u64>,
    /// Heap allocations per call in the timed loop (None: not measurable).
    pub allocs_per_call: Option<f64>,
    /// Peak heap bytes above the start of the timed loop.
    pub peak_heap_bytes: Option<u64>,
    /// Median wall time of a whole process (start-up, input, warm-up, loop).
    pub process_s: Option<f64>,
    pub check: Option<Check>,
    pub vs_c: Option<f64>,
    pub vs_best_peer: Option<f64>,
    pub rss_vs_c: Option<f64>,
}

impl ImplResult {
    fn new(imp: &Impl) -> ImplResult {
        ImplResult {
            id: imp.id.clone(),
            label: imp.label.clone(),
            status: "ok".into(),
            calls_per_process: 0,
            warmup_calls: 0,
            samples_ns: vec![],
            median_ns: None,
            min_ns: None,
            max_ns: None,
            peak_rss_kb: None,
            allocs_per_call: None,
            peak_heap_bytes: None,
            process_s: None,
            check: None,
            vs_c: None,
            vs_best_peer: None,
            rss_vs_c: None,
        }
    }
    pub fn ok(&self) -> bool {
        self.status == "ok"
    }
}

/// Work done by one call, for reading results against the machine's limits.
#[derive(Debug, Clone, Serialize, serde::Deserialize, Default)]
pub struct Work {
    pub flops: Option<f64>,
    /// Bytes a streaming implementation must move (STREAM convention).
    pub bytes: Option<f64>,
}

#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct WorkloadResult {
    pub name: String,
    pub title: String,
    pub kernel: String,
    pub input: String,
    pub size: Option<String>,
    /// The suite's `group` of the workload (`polybench`), if any.
    #[serde(default)]
    pub group: Option<String>,
    /// The implementation every result was checked against.
    pub reference: Option<String>,
    pub status: String,
    pub work: Work,
    pub impls: Vec<ImplResult>,
}

#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct RunInfo {
    pub mode: String,
    pub reps: usize,
    pub budget_ms: u64,
    pub timeout_s: u64,
    pub size: String,
    pub cores: usize,
    pub pinned_cpu: Option<usize>,
    pub openblas_coretype: Option<String>,
    pub tolerance: f64,
    pub unix_time: u64,
    pub wall_s: f64,
}

#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Report {
    pub run: RunInfo,
    pub machine: Limits,
    pub versions: Vec<(String, String)>,
    pub flags: Vec<(String, String)>,
    pub workloads: Vec<WorkloadResult>,
    /// Per group of workloads and implementation, the geometric mean of the
    /// ratio to hand-written C (`report::group_means` of the workloads).
    #[serde(default)]
    pub group_means: Vec<crate::report::GroupMean>,
}

/// The fewest timed calls one process (one repetition) makes, where the
/// workload asks for that many: one calibration call timed on a loaded
/// machine can look several times slower than it is, and a budget divided by
/// it would leave a rep of 2 or 3 calls, whose time is mostly noise.
pub const MIN_CALLS_PER_REP: u64 = 10;

/// How far past the budget a process may run to make [`MIN_CALLS_PER_REP`]
/// calls: a kernel whose calibrated call takes longer than the budget over
/// this factor makes fewer (one, at least).
pub const MAX_BUDGET_STRETCH: f64 = 5.0;

/// The fewest repetitions taken from a suite's settings (`reps`,
/// `quick_reps`): a median of fewer is one outlier away from the time
/// reported. `--reps N` on the command line is taken as given.
pub const MIN_REPS: usize = 3;

/// Repetitions: `--reps N` as given (at least 1), else the suite's count, at
/// least [`MIN_REPS`].
pub fn reps_of(cli: Option<usize>, suite: usize) -> usize {
    cli.unwrap_or(suite.max(MIN_REPS)).max(1)
}

/// Timed calls per process: as many as fit the budget (`budget_ns`) at the
/// calibrated time of one call (`est_ns`), at least [`MIN_CALLS_PER_REP`]
/// (fewer only where those would take more than [`MAX_BUDGET_STRETCH`]
/// budgets), at most `calls` (the workload's count).
pub fn calls_per_rep(budget_ns: f64, est_ns: f64, calls: u64) -> u64 {
    let est = if est_ns.is_finite() && est_ns > 0.0 {
        est_ns
    } else {
        1.0
    };
    let fit = (budget_ns / est).floor();
    let stretched = (MAX_BUDGET_STRETCH * budget_ns / est).floor();
    // (`as` saturates: an estimate of 0 gives u64::MAX, capped below)
    let floor = MIN_CALLS_PER_REP.min((stretched as u64).max(1));
    (fit as u64).max(floor).clamp(1, calls.max(1))
}

fn median(v: &[f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    Some(if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    })
}

/// The arguments of mkinput.py for a workload, placeholders filled in;
/// `Err` if a data file it names is missing.
fn input_args(root: &Path, w: &Workload, size: &str) -> Result<Vec<String>, String> {
    let data = root.join("../shared/data");
    let data = data.canonicalize().unwrap_or(data);
    let text = w
        .input
        .replace("{size}", size)
        .replace("{data}", &data.display().to_string());
    let args: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    for a in &args {
        if a.contains('/') && !Path::new(a).exists() {
            return Err(format!("skipped: {a} is missing"));
        }
    }
    Ok(args)
}

fn python_for_inputs(tools: &Toolchain) -> String {
    tools.python.clone().unwrap_or_else(|| "python3".into())
}

/// Generate (or reuse) a workload's input file.
fn make_input(
    root: &Path,
    build: &Path,
    tools: &Toolchain,
    args: &[String],
) -> Result<PathBuf, String> {
    let script = root.join("bench/handwritten/mkinput.py");
    let mut h = impls::FNV_START;
    let text =
        std::fs::read(&script).map_err(|e| format!("cannot read {}: {e}", script.display()))?;
    impls::fnv(&mut h, &text);
    for a in args {
        impls::fnv(&mut h, a.as_bytes());
        impls::fnv(&mut h, b"\0");
    }
    let dir = build.join("inputs");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(format!(
        "{}-{h:016x}.bin",
        args.first().map(String::as_str).unwrap_or("in")
    ));
    if path.exists() {
        return Ok(path);
    }
    let tmp = path.with_extension("tmp");
    let o = Command::new(python_for_inputs(tools))
        .arg(&script)
        .args(args)
        .arg("-o")
        .arg(&tmp)
        .output()
        .map_err(|e| format!("cannot run mkinput.py: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "mkinput.py {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&o.stderr).trim()
        ));
    }
    std::fs::rename(&tmp, &path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// Inputs of at most this many bytes (encoded) are also run by the
/// interpreter, whose result checks Weir's when there is no C peer.
pub const INTERP_CHECK_BYTES: usize = 256 * 1024;

/// A user workload's `inputs` (paths relative to `base`): `.npy` files,
/// value files or inline values, read as `weir run` reads them, encoded in
/// the benchmarks' binary format and written once to BUILD/inputs (named by
/// the hash of the encoding). Also the values themselves when they are small
/// enough for the interpreter's check.
fn user_input(
    base: &Path,
    build: &Path,
    d: &weir_ir::FunDef,
    name: &str,
    given: &[String],
) -> Result<(PathBuf, Option<Vec<weir_interp::Value>>), String> {
    let resolved: Vec<String> = given
        .iter()
        .map(|a| {
            let p = base.join(a);
            if a.ends_with(".npy") || (!a.trim().is_empty() && a != "-" && p.is_file()) {
                p.display().to_string()
            } else {
                a.clone()
            }
        })
        .collect();
    if given.iter().any(|a| a == "-") {
        return Err("`-` (standard input) is not an input of a suite".into());
    }
    let sources = weir_driver::inputs::classify(&resolved)?;
    let args = weir_driver::inputs::read_args(d, &sources)
        .map_err(|e| format!("bad input for `{}`: {e}", d.name))?;
    let bytes = weir_driver::native::encode_args(d, &args)?;
    let mut h = impls::FNV_START;
    impls::fnv(&mut h, &bytes);
    let dir = build.join("inputs");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(format!("{}-{h:016x}.bin", impls::file_name(name)));
    if !path.exists() {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, &bytes)
            .and_then(|_| std::fs::rename(&tmp, &path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok((path, (bytes.len() <= INTERP_CHECK_BYTES).then_some(args)))
}

/// The leaves of a value of type `t`, as [`values::decode`] gives them.
fn value_leaves(v: &weir_interp::Value, t: &Type) -> Result<Vec<Leaf>, String> {
    use weir_interp::Value as V;
    let num = |x: &V| -> Result<f64, String> {
        Ok(match x {
            V::F64(f) => *f,
            V::F32(f) => f64::from(*f),
            V::I64(i) => *i as f64,
            V::I32(i) => f64::from(*i),
            V::Bool(b) => f64::from(*b),
            x if x.as_int().is_some() => x.as_int().unwrap_or(0) as f64,
            _ => return Err("a result element is not a scalar".into()),
        })
    };
    weir_driver::native::leaf_elems(v, t)?
        .into_iter()
        .map(|(dims, data)| {
            Ok(Leaf {
                dims,
                data: data.iter().map(num).collect::<Result<_, String>>()?,
            })
        })
        .collect()
}

/// Work of one call from the kernel and its decoded inputs.
pub fn work(kernel: &str, inputs: &[Leaf]) -> Work {
    let d = |k: usize, i: usize| inputs.get(k).and_then(|l| l.dims.get(i)).map(|x| *x as f64);
    let s = |k: usize| inputs.get(k).and_then(|l| l.data.first()).copied();
    let mut w = Work::default();
    match kernel {
        "add3" => {
            if let Some(n) = d(0, 0) {
                w.bytes = Some(4.0 * 8.0 * n);
                w.flops = Some(2.0 * n);
            }
        }
        "gemm" => {
            if let (Some(ni), Some(nj), Some(nk)) = (d(2, 0), d(2, 1), d(3, 1)) {
                w.flops = Some(2.0 * ni * nj * nk + 3.0 * ni * nj);
            }
        }
        "mm2" => {
            if let (Some(ni), Some(nk), Some(nj), Some(nl)) = (d(2, 0), d(2, 1), d(3, 1), d(4, 1)) {
                w.flops = Some(2.0 * ni * nk * nj + 2.0 * ni * nj * nl + 3.0 * ni * nl);
            }
        }
        "mm3" => {
            if let (Some(ni), Some(nk), Some(nj), Some(nm), Some(nl)) =
                (d(0, 0), d(0, 1), d(1, 1), d(2, 1), d(3, 1))
            {
                w.flops = Some(2.0 * (ni * nk * nj + nj * nm * nl + ni * nj * nl));
            }
        }
        // (bytes read and written once: the input and the output)
        "padstencil" => {
            if let Some(n) = d(0, 0) {
                w.bytes = Some(2.0 * 8.0 * n);
                w.flops = Some(3.0 * n);
            }
        }
        "rotstencil" => {
            if let Some(n) = d(0, 0) {
                w.bytes = Some(2.0 * 8.0 * n);
                w.flops = Some(3.0 * n);
            }
        }
        "transposecat" => {
            if let (Some(n), Some(m), Some(k)) = (d(0, 0), d(0, 1), d(1, 0)) {
                w.bytes = Some(2.0 * 8.0 * (n * m + k * n));
            }
        }
        "jacobi1d" => {
            if let (Some(t), Some(n)) = (s(0), d(1, 0)) {
                w.flops = Some(t * 2.0 * (n - 2.0).max(0.0) * 3.0);
            }
        }
        "jacobi2d" => {
            if let (Some(t), Some(n)) = (s(0), d(1, 0)) {
                w.flops = Some(t * 2.0 * (n - 2.0).max(0.0).powi(2) * 5.0);
            }
        }
        "seidel2d" => {
            if let (Some(t), Some(n)) = (s(0), d(1, 0)) {
                w.flops = Some(t * (n - 2.0).max(0.0).powi(2) * 9.0);
            }
        }
        // Right-looking LU: for each pivot k, m = n - k - 1 divisions and
        // m^2 multiply-subtracts.
        "lu" => {
            if let Some(n) = d(0, 0) {
                let m = (n - 1.0).max(0.0);
                w.flops = Some(m * (m + 1.0) / 2.0 + m * (m + 1.0) * (2.0 * m + 1.0) / 3.0);
            }
        }
        // Row i: i multiply-subtracts and a division.
        "trisolv" => {
            if let Some(n) = d(0, 0) {
                w.flops = Some(n * n);
            }
        }
        // Integer cells: read refs, write the score matrix, 8 bytes each.
        "nw" => {
            if let Some(n) = d(1, 0) {
                w.bytes = Some(2.0 * 8.0 * n * n);
            }
        }
        // Read a, write the prefix sums: 16 bytes and one addition per element.
        "scan" => {
            if let Some(n) = d(0, 0) {
                w.bytes = Some(2.0 * 8.0 * n);
                w.flops = Some(n);
            }
        }
        // Read the indices once (the k bins stay in cache).
        "histogram" => {
            if let Some(n) = d(1, 0) {
                w.bytes = Some(8.0 * n);
            }
        }
        // Read a, write the kept elements (those > 0.0, counted in the
        // input): the result's length depends on the data.
        "filter" => {
            if let (Some(n), Some(a)) = (d(0, 0), inputs.first()) {
                let kept = a.data.iter().filter(|x| **x > 0.0).count() as f64;
                w.bytes = Some(8.0 * (n + kept));
            }
        }
        // Read a, write every element into one of the three parts.
        "partition" => {
            if let Some(n) = d(0, 0) {
                w.bytes = Some(2.0 * 8.0 * n);
            }
        }
        _ => {}
    }
    w
}

fn style() -> ProgressStyle {
    ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] [{wide_bar}] {pos}/{len} runs  {msg}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar())
    .progress_chars("=> ")
}

/// Find the repository root: `start` or one of its ancestors holding bench/suite.toml.
pub fn find_root(start: &Path) -> Option<PathBuf> {
    let mut p = start.canonicalize().ok()?;
    loop {
        if p.join("bench/suite.toml").exists() {
            return Some(p);
        }
        if !p.pop() {
            return None;
        }
    }
}

/// The status of an implementation that was asked for and could not be built.
pub const CANNOT_BUILD: &str = "failed: cannot build:";

/// Whether an implementation was asked for, so that failing to build it is a
/// failure of the run rather than a skip: Weir's default pipeline always, its
/// ablation variants under `--variants`, and anything named in `--impls`.
/// (The peers of a plain run, and the variants of the full suite's default,
/// are skipped with the reason when their tools are missing.)
pub fn requested(cfg: &Config, imp: &Impl) -> bool {
    imp.is_weir_default()
        || cfg.impls.contains(&imp.id)
        || (imp.is_weir() && !imp.is_fast_math() && cfg.variants == Some(true))
}

/// The implementations a run compares, in report order: those named in
/// `--impls`, else every peer (`eigen` and `eigen-v3` included), Weir's
/// default pipeline and, when `variants`, its ablation variants (never
/// `weir-fast-math`, which runs only when named). `Err` for an unknown name.
pub fn chosen_impls(cfg: &Config, variants: bool) -> Result<Vec<Impl>, String> {
    let all = impls::all(true);
    for i in &cfg.impls {
        if !all.iter().any(|a| &a.id == i) {
            return Err(format!(
                "no implementation `{i}`; the implementations are: {}",
                all.iter()
                    .map(|a| a.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    Ok(all
        .into_iter()
        .filter(|i| {
            if cfg.impls.is_empty() {
                !i.is_weir() || i.is_weir_default() || (variants && !i.is_fast_math())
            } else {
                cfg.impls.contains(&i.id)
            }
        })
        .collect())
}

/// Where `weir bench` writes its results without `--out`: the full suite to
/// `bench/results/full-Ncore/` (the committed results it refreshes), the quick
/// one to `bench/build/results/quick-Ncore/`, a scratch directory git ignores,
/// so that trying the suite leaves the checkout unmodified (the committed
/// `bench/results/quick-Ncore/` is refreshed with `--out`).
pub fn default_out_dir(root: &Path, quick: bool, cores: usize) -> PathBuf {
    if quick {
        root.join(format!("bench/build/results/quick-{cores}core"))
    } else {
        root.join(format!("bench/results/full-{cores}core"))
    }
}

/// What makes a run fail (a non-zero exit of `weir bench`), one line each:
/// workloads that could not be prepared (their Weir file or entry, their
/// input), results that disagree with the reference (their times were not
/// counted), and implementations that were asked for and could not be built.
pub fn failures(rep: &Report) -> Vec<String> {
    let prepared = rep
        .workloads
        .iter()
        .filter(|w| w.status.starts_with("failed"))
        .map(|w| format!("{}: {}", w.name, w.status));
    let mut v: Vec<String> = prepared.collect();
    v.extend(rep.workloads.iter().flat_map(|w| {
        w.impls
            .iter()
            .filter(|r| r.status.starts_with("wrong") || r.status.starts_with(CANNOT_BUILD))
            .map(move |r| format!("{} {}: {}", w.name, r.id, r.status))
    }));
    v
}

/// Run the suite. `log` receives the lines printed while it runs (above the
/// progress bar).
pub fn run(cfg: &Config) -> Result<Report, String> {
    let started = Instant::now();
    let root = &cfg.root;
    // Weir files (and a user's inputs and peers) are relative to `base`.
    let (suite, base) = match &cfg.suite {
        Some(f) => {
            let s = suite::load_user(f)?;
            let dir = f.parent().filter(|d| !d.as_os_str().is_empty());
            let dir = dir.unwrap_or(Path::new(".")).to_path_buf();
            (s, dir.canonicalize().unwrap_or(dir))
        }
        None => (suite::load(&root.join("bench/suite.toml"))?, root.clone()),
    };
    let user = cfg.suite.is_some();
    let build = cfg
        .build_dir
        .clone()
        .unwrap_or_else(|| root.join("bench/build"));
    let st = &suite.settings;
    let reps = reps_of(cfg.reps, if cfg.quick { st.quick_reps } else { st.reps });
    let budget_ms = cfg.budget_ms.unwrap_or(if cfg.quick {
        st.quick_budget_ms
    } else {
        st.budget_ms
    });
    let timeout_s = cfg.timeout_s.unwrap_or(if cfg.quick {
        st.quick_timeout_s
    } else {
        st.timeout_s
    });
    let size = cfg
        .size
        .clone()
        .map(|s| s.to_ascii_uppercase())
        .unwrap_or_else(|| {
            if cfg.quick {
                st.quick_size.clone()
            } else {
                st.size.clone()
            }
        });
    if !suite::SIZES.contains(&size.as_str()) {
        return Err(format!(
            "unknown size `{size}`: one of {}",
            suite::SIZES.join(", ")
        ));
    }
    // (a user's suite: only if one of its workloads asks for them)
    let variants = cfg
        .variants
        .unwrap_or(!cfg.quick && (!user || suite.workloads.iter().any(|w| w.variants)));

    // Workloads.
    for o in &cfg.only {
        if !suite.workloads.iter().any(|w| &w.name == o) {
            return Err(format!(
                "no workload `{o}`; the workloads are: {}",
                suite
                    .workloads
                    .iter()
                    .map(|w| w.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    let workloads: Vec<&Workload> = suite
        .workloads
        .iter()
        .filter(|w| {
            if cfg.only.is_empty() {
                !cfg.quick || w.quick
            } else {
                cfg.only.contains(&w.name)
            }
        })
        .collect();

    let chosen = chosen_impls(cfg, variants)?;

    let tools = Toolchain::discover(root);
    let taskset = Command::new("taskset")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    let cpus = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let cpu = cfg.cpu.unwrap_or(cpus.saturating_sub(1));
    let env = Env {
        cores: cfg.cores.max(1),
        cpu,
        taskset,
        openblas_coretype: cfg.openblas_coretype.clone(),
        scratch: build.join("scratch"),
    };
    let pinned = (env.cores == 1 && taskset).then_some(cpu);

    let say = |pb: Option<&ProgressBar>, s: String| match pb {
        Some(pb) => pb.println(s),
        None => eprintln!("{s}"),
    };

    eprintln!(
        "weir bench: {} workload(s), {} implementation(s), {reps} rep(s), budget {budget_ms} ms per process, PolyBench size {size}, {} core(s){}",
        workloads.len(),
        chosen.len(),
        env.cores,
        match pinned {
            Some(c) => format!(" (pinned to CPU {c} with taskset)"),
            None => String::new(),
        }
    );
    for (peer, r) in &tools.python_peers {
        if let Err(e) = r {
            eprintln!("  {peer}: not available: {e}");
        }
    }
    if tools.python.is_none() && !user {
        eprintln!("  NumPy, JAX, Numba: no bench/.venv (run scripts/install-bench-peers.sh)");
    }

    let limits = if cfg.machine {
        eprintln!("measuring the machine's limits (STREAM, peak FLOP/s)...");
        let l = machine::measure(root, &tools, pinned);
        for (k, v) in &l.stream_gbps {
            eprintln!("  STREAM {k:<5} {v:7.1} GB/s");
        }
        for (k, v) in &l.peak_gflops {
            eprintln!("  peak {k:<7} {v:7.1} GFLOP/s (one core)");
        }
        for n in &l.notes {
            eprintln!("  note: {n}");
        }
        l
    } else {
        Limits {
            cpu_model: machine::cpu_model(),
            cpus,
            ..Limits::default()
        }
    };

    let pb = if cfg.progress {
        let pb = ProgressBar::new((workloads.len() * chosen.len() * (reps + 1)) as u64);
        pb.set_style(style());
        pb.enable_steady_tick(Duration::from_millis(200));
        Some(pb)
    } else {
        None
    };

    let budget_ns = budget_ms as f64 * 1e6;
    let out_dir = build.join("out");
    std::fs::create_dir_all(&out_dir)
        .map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    let mut results = Vec::new();

    for w in &workloads {
        let tol = w.tolerance.unwrap_or(st.tolerance);
        // --size wins; in --quick mode a workload may pick a smaller size.
        let size = match (&cfg.size, cfg.quick, &w.quick_size) {
            (None, true, Some(q)) => q.clone(),
            _ => size.clone(),
        };
        let mut wr = WorkloadResult {
            name: w.name.clone(),
            title: w.title.clone(),
            kernel: w.kernel.clone(),
            input: match &w.inputs {
                Some(i) => i.join(" "),
                None => w.input.clone(),
            },
            size: w.sized().then(|| size.clone()),
            group: w.group.clone(),
            reference: None,
            status: "ok".into(),
            work: Work::default(),
            impls: chosen.iter().map(ImplResult::new).collect(),
        };
        let timeout = Duration::from_secs(match (cfg.timeout_s, cfg.quick, w.timeout_s) {
            (None, false, Some(t)) => t,
            _ => timeout_s,
        });
        let calls = if cfg.quick {
            w.quick_calls.unwrap_or(w.calls)
        } else {
            w.calls
        };
        let skip_all = |wr: &mut WorkloadResult, why: String, pb: Option<&ProgressBar>| {
            for r in &mut wr.impls {
                r.status = why.clone();
            }
            wr.status = why;
            if let Some(pb) = pb {
                pb.inc((wr.impls.len() * (reps + 1)) as u64);
            }
        };
        if let Some(pb) = &pb {
            pb.set_message(format!("{}: input", w.name));
        }
        let (file, entry) = w.weir_entry()?;
        let prepared = (|| {
            let c = weir_driver::pipeline::compile_file(&base.join(file))
                .map_err(|e| e.render(false))?;
            let d = c.program.find(entry).filter(|d| d.entry).ok_or_else(|| {
                let names: Vec<&str> = c.program.entries().map(|d| d.name.as_str()).collect();
                format!(
                    "{file} has no entry `{entry}` (its entries: {})",
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                )
            })?;
            let (input, expected) = match &w.inputs {
                Some(given) => {
                    let (input, args) = user_input(&base, &build, d, &w.name, given)?;
                    // The interpreter's result, when the input is small.
                    let expected = match args {
                        Some(args) => match weir_driver::run_entry(&c, entry, args) {
                            Ok(v) => Some(value_leaves(&v, &d.ret)?),
                            Err(e) => {
                                return Err(format!(
                                    "the interpreter fails on this input: {}",
                                    weir_driver::pipeline::render_runtime_error(&c, &e, false)
                                        .trim()
                                ));
                            }
                        },
                        None => None,
                    };
                    (input, expected)
                }
                None => {
                    let args = input_args(root, w, &size)?;
                    wr.input = args.join(" ");
                    (make_input(root, &build, &tools, &args)?, None)
                }
            };
            let params: Vec<Type> = d.params.iter().map(|(_, t)| t.clone()).collect();
            let bytes = std::fs::read(&input)
                .map_err(|e| format!("cannot read {}: {e}", input.display()))?;
            let ins = values::decode(&params, &bytes)
                .map_err(|e| format!("the input file does not fit `{entry}`: {e}"))?;
            Ok((input, d.ret.clone(), work(&w.kernel, &ins), expected))
        })();
        let (input, ret, wk, expected) = match prepared {
            Ok(x) => x,
            Err(e) => {
                let why = if e.starts_with("skipped") {
                    e
                } else {
                    format!("failed: {e}")
                };
                say(pb.as_ref(), format!("{}: {why}", w.name));
                skip_all(&mut wr, why, pb.as_ref());
                results.push(wr);
                continue;
            }
        };
        wr.work = wk;

        // Build.
        let mut launches: Vec<Option<Launch>> = Vec::new();
        for (k, imp) in chosen.iter().enumerate() {
            if let Some(pb) = &pb {
                pb.set_message(format!("{}: building {}", w.name, imp.id));
            }
            if let Some(why) = imp.skip_reason(&w.skip) {
                wr.impls[k].status = format!("skipped: {why}");
                launches.push(None);
                continue;
            }
            if imp.is_weir() && !imp.is_weir_default() && !w.variants && cfg.impls.is_empty() {
                wr.impls[k].status = if user {
                    "skipped: the workload does not ask for variants (`variants = true`)".into()
                } else {
                    "skipped: ablation variants run on the dps-ftilde micro-benchmarks only".into()
                };
                launches.push(None);
                continue;
            }
            let built = match (user, imp.kind, &w.c) {
                (false, ..) | (true, impls::Kind::Weir(..), _) => {
                    impls::build(&base, &tools, imp, &w.kernel, (file, entry))
                }
                (true, impls::Kind::C, Some(src)) => {
                    impls::build_user_c(&tools, &base.join(src), &build, &w.name)
                }
                (true, ..) => {
                    wr.impls[k].status = "skipped: not given in the suite".into();
                    launches.push(None);
                    continue;
                }
            };
            match built {
                Ok(l) => launches.push(Some(l)),
                Err(e) if requested(cfg, imp) || (user && imp.kind == impls::Kind::C) => {
                    // Asked for and not built: a failure, not a skip.
                    wr.impls[k].status = format!(
                        "{CANNOT_BUILD} {}",
                        e.lines().find(|l| !l.trim().is_empty()).unwrap_or("")
                    );
                    say(pb.as_ref(), format!("{} {}: {e}", w.name, imp.id));
                    launches.push(None);
                }
                Err(e) => {
                    wr.impls[k].status = format!("skipped: {}", e.lines().next().unwrap_or(""));
                    if !e.starts_with("no ")
                        && !e.contains("not installed")
                        && !e.contains("not available")
                    {
                        say(pb.as_ref(), format!("{} {}: {e}", w.name, imp.id));
                    }
                    launches.push(None);
                }
            }
        }

        // Calibrate: one warm-up call and one timed call, with the result kept.
        let mut outputs: Vec<Option<Vec<Leaf>>> = vec![None; chosen.len()];
        let mut estimate: Vec<f64> = vec![0.0; chosen.len()];
        let mut first: Vec<Option<Sample>> = vec![None; chosen.len()];
        for (k, imp) in chosen.iter().enumerate() {
            if let Some(pb) = &pb {
                pb.set_message(format!("{}: calibrating {}", w.name, imp.id));
                pb.inc(1);
            }
            let Some(l) = &launches[k] else { continue };
            let out = out_dir.join(format!("{}-{}.bin", w.name, imp.id));
            let _ = std::fs::remove_file(&out);
            match proc::run(l, &env, 1, 1, &input, Some(&out), timeout) {
                Ok(s) => {
                    estimate[k] = s.ns_per_run.max(1.0);
                    first[k] = Some(s.clone());
                    let got = std::fs::read(&out)
                        .map_err(|e| e.to_string())
                        .and_then(|b| values::decode(std::slice::from_ref(&ret), &b));
                    match got {
                        Ok(v) => outputs[k] = Some(v),
                        Err(e) => wr.impls[k].status = format!("failed: unreadable result: {e}"),
                    }
                }
                Err(f) => wr.impls[k].status = failure_status(&f),
            }
        }
        // The reference: hand-written C, else the interpreter's result (a
        // user's suite, small inputs), else Weir.
        let ok_output = |id: &str| {
            chosen
                .iter()
                .position(|i| i.id == id)
                .filter(|k| outputs[*k].is_some() && wr.impls[*k].ok())
        };
        let rk: Option<(String, Vec<Leaf>)> = match (ok_output("c"), &expected) {
            (Some(k), _) => Some(("c".into(), outputs[k].clone().unwrap_or_default())),
            (None, Some(e)) => Some(("interpreter".into(), e.clone())),
            (None, None) => {
                ok_output("weir").map(|k| ("weir".into(), outputs[k].clone().unwrap_or_default()))
            }
        };
        if user && rk.as_ref().is_some_and(|(id, _)| id == "weir") {
            say(
                pb.as_ref(),
                format!(
                    "{}: Weir's result is not checked (no C peer, and the input is over {} KiB for the interpreter)",
                    w.name,
                    INTERP_CHECK_BYTES / 1024
                ),
            );
        }
        match &rk {
            Some((rid, reference)) => {
                wr.reference = Some(rid.clone());
                for k in 0..chosen.len() {
                    let Some(got) = &outputs[k] else {
                        if wr.impls[k].ok() {
                            wr.impls[k].status = "failed: no result".into();
                        }
                        continue;
                    };
                    let c = values::compare(reference, got, tol);
                    if !c.agrees {
                        wr.impls[k].status =
                            format!("wrong result: {}", c.detail.clone().unwrap_or_default());
                        say(
                            pb.as_ref(),
                            format!("{} {}: {}", w.name, chosen[k].id, wr.impls[k].status),
                        );
                    }
                    wr.impls[k].check = Some(c);
                }
            }
            None => {
                wr.status =
                    "failed: neither hand-written C nor Weir produced a result to check against"
                        .into();
                for r in &mut wr.impls {
                    if r.ok() {
                        r.status = "failed: nothing to check the result against".into();
                    }
                }
            }
        }
        // Calls per process.
        // Warm-up: a tenth of the timed calls; one call for slow kernels,
        // none for ahead-of-time compiled ones slower than a second (nothing
        // to warm up that the first call would not).
        for ((r, est), imp) in wr.impls.iter_mut().zip(&estimate).zip(&chosen) {
            if !r.ok() {
                continue;
            }
            let n = calls_per_rep(budget_ns, *est, calls);
            r.calls_per_process = n;
            let jit = matches!(imp.kind, impls::Kind::Python(_));
            r.warmup_calls = if n > 1 {
                (n / 10).max(1)
            } else if *est > 1e9 && !jit {
                0
            } else {
                1
            };
        }

        // Timed repetitions, interleaved: rep r runs every implementation once,
        // starting from a different one each time.
        let live: Vec<usize> = (0..chosen.len()).filter(|k| wr.impls[*k].ok()).collect();
        let mut samples: Vec<Vec<Sample>> = vec![vec![]; chosen.len()];
        // A slow implementation (one call per process) has had a process just
        // like a repetition's already: its calibration counts as the first rep.
        for &k in &live {
            if wr.impls[k].calls_per_process == 1
                && let Some(s) = first[k].take()
            {
                samples[k].push(s);
            }
        }
        for r in 0..reps {
            for j in 0..live.len() {
                let k = live[(j + r) % live.len()];
                if let Some(pb) = &pb {
                    pb.set_message(format!(
                        "{}: {} (rep {}/{reps})",
                        w.name,
                        chosen[k].id,
                        r + 1
                    ));
                    pb.inc(1);
                }
                if !wr.impls[k].ok() || samples[k].len() >= reps {
                    continue;
                }
                let Some(l) = &launches[k] else { continue };
                let last = r + 1 == reps;
                let out = out_dir.join(format!("{}-{}.bin", w.name, chosen[k].id));
                let res = proc::run(
                    l,
                    &env,
                    wr.impls[k].calls_per_process,
                    wr.impls[k].warmup_calls,
                    &input,
                    last.then_some(out.as_path()),
                    timeout,
                );
                match res {
                    Ok(s) => {
                        samples[k].push(s);
                        // Check the last repetition's result too.
                        if last
                            && let (Some((_, reference)), Ok(b)) = (&rk, std::fs::read(&out))
                            && let Ok(got) = values::decode(std::slice::from_ref(&ret), &b)
                        {
                            let c = values::compare(reference, &got, tol);
                            if !c.agrees {
                                wr.impls[k].status = format!(
                                    "wrong result (last rep): {}",
                                    c.detail.clone().unwrap_or_default()
                                );
                            }
                        }
                    }
                    Err(f) => {
                        wr.impls[k].status = failure_status(&f);
                        say(
                            pb.as_ref(),
                            format!("{} {}: {}", w.name, chosen[k].id, wr.impls[k].status),
                        );
                    }
                }
            }
        }
        if let Some(pb) = &pb {
            pb.inc(((chosen.len() - live.len()) * reps) as u64);
        }
        for (r, s) in wr.impls.iter_mut().zip(&samples) {
            if s.is_empty() {
                continue;
            }
            r.samples_ns = s.iter().map(|x| x.ns_per_run).collect();
            r.peak_rss_kb = s.iter().map(|x| x.peak_rss_kb).max();
            r.process_s = median(&s.iter().map(|x| x.process_s).collect::<Vec<_>>());
            let allocs: Vec<f64> = s
                .iter()
                .filter_map(|x| x.sys_allocs.map(|a| a as f64 / x.runs.max(1) as f64))
                .collect();
            r.allocs_per_call = median(&allocs);
            r.peak_heap_bytes = s.iter().filter_map(|x| x.peak_bytes).max();
            if r.ok() {
                r.median_ns = median(&r.samples_ns);
                r.min_ns = r.samples_ns.iter().copied().reduce(f64::min);
                r.max_ns = r.samples_ns.iter().copied().reduce(f64::max);
            }
        }
        ratios(&chosen, &mut wr);
        say(pb.as_ref(), crate::report::workload_table(&wr, &limits));
        results.push(wr);
    }
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    let mut flags = vec![
        (
            "weir".to_string(),
            weir_driver::native::cc_flags(&weir_driver::native::BuildOptions::default()).join(" "),
        ),
        ("c".to_string(), impls::c_flags().join(" ")),
        ("cpp".to_string(), impls::cxx_flags().join(" ")),
    ];
    for imp in impls::all(false) {
        if let impls::Kind::Eigen(march) = imp.kind {
            flags.push((imp.id, impls::eigen_flags(march).join(" ")));
        }
    }
    flags.push((
        "python".into(),
        format!(
            "OMP/OPENBLAS/NUMBA threads = {}; OPENBLAS_CORETYPE = {}",
            env.cores,
            env.openblas_coretype
                .as_deref()
                .unwrap_or("(unset: OpenBLAS's choice)")
        ),
    ));
    Ok(Report {
        run: RunInfo {
            mode: if cfg.quick {
                "quick".into()
            } else {
                "full".into()
            },
            reps,
            budget_ms,
            timeout_s,
            size,
            cores: env.cores,
            pinned_cpu: pinned,
            openblas_coretype: env.openblas_coretype.clone(),
            tolerance: st.tolerance,
            unix_time: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
            wall_s: started.elapsed().as_secs_f64(),
        },
        machine: limits,
        versions: tools.versions.clone(),
        flags,
        group_means: crate::report::group_means(&results),
        workloads: results,
    })
}

fn failure_status(f: &Failure) -> String {
    match f {
        Failure::Timeout(_) => f.to_string(),
        Failure::Failed(m) => format!("failed: {m}"),
    }
}

/// Ratios to hand-written C and to the best peer.
pub fn ratios(chosen: &[Impl], wr: &mut WorkloadResult) {
    let c = wr.impls.iter().find(|r| r.id == "c" && r.ok());
    let c_t = c.and_then(|r| r.median_ns);
    let c_rss = c.and_then(|r| r.peak_rss_kb);
    let best_peer = wr
        .impls
        .iter()
        .zip(chosen)
        .filter(|(r, i)| i.is_peer() && r.ok())
        .filter_map(|(r, _)| r.median_ns)
        .reduce(f64::min);
    for r in &mut wr.impls {
        if let Some(m) = r.median_ns {
            r.vs_c = c_t.map(|c| m / c);
            r.vs_best_peer = best_peer.map(|b| m / b);
        }
        if r.ok()
            && let (Some(a), Some(b)) = (r.peak_rss_kb, c_rss)
        {
            r.rss_vs_c = Some(a as f64 / b.max(1) as f64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix(n: i64) -> Leaf {
        Leaf {
            dims: vec![n, n],
            data: vec![0.0; (n * n) as usize],
        }
    }

    /// LU of a 3 x 3 matrix: pivot 0 has 2 divisions and 4
    /// multiply-subtracts, pivot 1 one and one: 13 flops.
    /// A loaded machine's calibration (one call 10x slower than it is)
    /// still gives reps of at least MIN_CALLS_PER_REP calls, never 3; a
    /// kernel slower than the budget makes what fits 5 budgets; a
    /// workload's own count caps it.
    #[test]
    fn calls_per_rep_has_a_minimum() {
        let budget = 1e9; // 1 s
        // 3 calls fit the budget at the loaded estimate (300 ms)
        assert_eq!(calls_per_rep(budget, 3e8, 1000), MIN_CALLS_PER_REP);
        assert!(calls_per_rep(budget, 4e8, 1000) >= MIN_CALLS_PER_REP);
        // a fast kernel: the budget's count
        assert_eq!(calls_per_rep(budget, 1e6, 1_000_000), 1000);
        // slower than the budget: what 5 budgets hold, at least 1
        assert_eq!(calls_per_rep(budget, 2e9, 1000), 2);
        assert_eq!(calls_per_rep(budget, 6e9, 1000), 1);
        // the workload's count wins
        assert_eq!(calls_per_rep(budget, 3e8, 4), 4);
        assert_eq!(calls_per_rep(budget, 1e3, 1), 1);
        // a broken estimate does not panic or give 0
        assert_eq!(calls_per_rep(budget, 0.0, 50), 50);
        assert_eq!(calls_per_rep(budget, f64::NAN, 50), 50);
        assert_eq!(calls_per_rep(0.0, 1e6, 50), 1);
    }

    /// A suite's reps are at least MIN_REPS; `--reps N` is taken as given.
    #[test]
    fn reps_have_a_minimum() {
        assert_eq!(reps_of(None, 1), MIN_REPS);
        assert_eq!(reps_of(None, 5), 5);
        assert_eq!(reps_of(Some(1), 5), 1);
        assert_eq!(reps_of(Some(0), 5), 1);
    }

    #[test]
    fn lu_trisolv_and_nw_work() {
        assert_eq!(work("lu", &[matrix(3)]).flops, Some(13.0));
        assert_eq!(work("lu", &[matrix(0)]).flops, Some(0.0));
        assert_eq!(work("trisolv", &[matrix(4)]).flops, Some(16.0));
        let penalty = Leaf {
            dims: vec![],
            data: vec![10.0],
        };
        assert_eq!(work("nw", &[penalty, matrix(2)]).bytes, Some(64.0));
    }
}
