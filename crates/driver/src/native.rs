//! Compiling to C and running it: the variants of dps-ftilde §5, the C compiler
//! driver (with a content-hash build cache: complete entries only, verified by
//! size and hash, evicted least-recently-used past a size bound), running the
//! executables (with a time limit), and the binary exchange of inputs
//! and results with a compiled entry point.
//!
//! Binary format (native little-endian), used on a compiled program's stdin and
//! stdout: the entry's parameters (results) one after another, each flattened
//! into its leaves (a tuple into its components, an array of tuples into one
//! array per component); a scalar leaf is its bytes (bool: one byte), an array
//! leaf of rank r is r `int64` dims followed by its elements in row-major order.

use crate::pipeline::{Compiled, verify_enabled};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::rc::Rc;
use std::time::{Duration, Instant, SystemTime};
use weir_cgen::{MemMode, Options};
use weir_interp::Value;
use weir_ir::{FunDef, PrimType, Size, Type};

/// A compilation variant (dps-ftilde §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    pub name: &'static str,
    pub what: &'static str,
    /// Run the optimizer's fusion pass.
    pub fusion: bool,
    /// Run the allocation simplifications (Fig. 8).
    pub buffer_opts: bool,
    pub mem: MemMode,
}

/// The ablation variants, in the paper's order; the last one is the default.
pub const VARIANTS: &[Variant] = &[
    Variant {
        name: "CL",
        what: "leaky: malloc, never free; no fusion",
        fusion: false,
        buffer_opts: false,
        mem: MemMode::Leak,
    },
    Variant {
        name: "CG",
        what: "Boehm GC (libgc); no fusion",
        fusion: false,
        buffer_opts: false,
        mem: MemMode::Gc,
    },
    Variant {
        name: "CLF",
        what: "leaky, with fusion",
        fusion: true,
        buffer_opts: false,
        mem: MemMode::Leak,
    },
    Variant {
        name: "D",
        what: "DPS with malloc/free; no fusion",
        fusion: false,
        buffer_opts: false,
        mem: MemMode::Malloc,
    },
    Variant {
        name: "DF",
        what: "DPS with malloc/free, fusion",
        fusion: true,
        buffer_opts: false,
        mem: MemMode::Malloc,
    },
    Variant {
        name: "DFB",
        what: "DPS, fusion, allocation merging/hoisting (Fig. 8), malloc/free",
        fusion: true,
        buffer_opts: true,
        mem: MemMode::Malloc,
    },
    Variant {
        name: "DFBs",
        what: "DFB with the bump region (the default)",
        fusion: true,
        buffer_opts: true,
        mem: MemMode::Region,
    },
];

pub fn variant(name: &str) -> Option<Variant> {
    VARIANTS
        .iter()
        .copied()
        .find(|v| v.name.eq_ignore_ascii_case(name))
}

pub fn default_variant() -> Variant {
    VARIANTS[VARIANTS.len() - 1]
}

/// Options for building C.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    pub variant: Variant,
    /// Bounds checks (`--unsafe` turns them off).
    pub checks: bool,
    /// Optimisation and target flags (default `-O3 -march=native`).
    pub opt_flags: Vec<String>,
    /// Extra flags (e.g. `-Wall -Wextra -Werror`, sanitizers).
    pub extra_flags: Vec<String>,
    /// The compiler (default: `$CC`, else `cc`).
    pub cc: Option<String>,
    /// The time limit of a run by [`run_native`] (not part of the build: the
    /// cache ignores it). `None`: the process default, [`default_time_limit`].
    pub time_limit: Option<Duration>,
    /// `--fast-math`: let the C compiler reassociate floating-point
    /// arithmetic and contract it into FMAs ([`FAST_MATH_FLAGS`]). Results
    /// then differ from the interpreter's within rounding; the default is
    /// bit-exact (`-ffp-contract=off`, no reassociation).
    pub fast_math: bool,
}

/// The C compiler's flags of `--fast-math`, in place of `-ffp-contract=off`:
/// reassociation (which needs signed zeros and traps ignored), FMA
/// contraction, no `errno` from the math library. NaN and infinities keep
/// their meaning (no `-ffinite-math-only`: `min`/`max` and `isnan` stay
/// right), so it is not all of `-ffast-math`.
pub const FAST_MATH_FLAGS: &[&str] = &[
    "-ffp-contract=fast",
    "-fassociative-math",
    "-fno-signed-zeros",
    "-fno-trapping-math",
    "-fno-math-errno",
];

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            variant: default_variant(),
            checks: true,
            opt_flags: vec!["-O3".into(), "-march=native".into()],
            extra_flags: vec![],
            cc: None,
            time_limit: None,
            fast_math: false,
        }
    }
}

/// Why compiled execution failed.
#[derive(Debug)]
pub enum NativeError {
    /// The program is outside what the C backend compiles (rendered diagnostics).
    Backend(String),
    /// No compiler, or it failed.
    Compiler(String),
    /// The compiled program reported a run-time error (`LOC: message`).
    Runtime(String),
    /// Inputs did not fit the entry, or the program's output was malformed.
    Io(String),
    /// The compiled program ran past its time limit and was killed.
    Timeout(Duration),
}

impl std::fmt::Display for NativeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NativeError::Backend(m) => write!(f, "{m}"),
            NativeError::Compiler(m) => write!(f, "error: {m}"),
            NativeError::Runtime(m) => write!(f, "error: runtime error at {m}"),
            NativeError::Io(m) => write!(f, "error: {m}"),
            NativeError::Timeout(t) => write!(
                f,
                "error: the compiled program exceeded the time limit of {} s",
                t.as_secs_f64()
            ),
        }
    }
}

/// Which entry points a C source must hold.
#[derive(Clone, Copy, Debug)]
pub enum Entries<'a> {
    /// Every function: an error if one cannot be compiled.
    All,
    /// Those that can be compiled (at least one entry point); the others are
    /// left out and reported.
    Compilable,
    /// Those that can be compiled, of which this entry point must be one.
    Needed(&'a str),
}

/// A C source and the entry points left out of it.
#[derive(Clone, Debug)]
pub struct CSource {
    pub text: String,
    /// Each entry point left out, with its error (rendered, no colour).
    pub left_out: Vec<(String, String)>,
    /// The ABI of its entries (symbols `weir_NAME`, or the library's).
    pub abi: weir_cgen::abi::Abi,
}

/// What to generate C for.
#[derive(Clone, Copy, Debug)]
pub enum CTarget<'a> {
    /// The program (`weir c`).
    Program,
    /// The program with a `main` (`weir build`).
    Executable,
    /// A library with this symbol prefix (`weir lib`).
    Library(&'a str),
}

/// The C source of a compiled program (every function must compile).
pub fn c_source(c: &Compiled, opts: &BuildOptions, with_main: bool) -> Result<String, NativeError> {
    c_source_of(c, opts, with_main, Entries::All).map(|s| s.text)
}

/// The C source of the entry points `which` asks for: an entry point that the
/// C backend cannot compile does not stop the others.
pub fn c_source_of(
    c: &Compiled,
    opts: &BuildOptions,
    with_main: bool,
    which: Entries,
) -> Result<CSource, NativeError> {
    let target = if with_main {
        CTarget::Executable
    } else {
        CTarget::Program
    };
    c_source_for(c, opts, target, which)
}

/// The path of leaf `k` of the tuple or record parameter `param` of
/// `entry`: field names and component numbers (the ABI joins them by `_`,
/// `pos_x`, `1_0`, to name the arrays a tuple or record parameter is passed
/// as), each with the array dims around the tuple or record it selects
/// from (the dims the leaves below it share).
fn leaf_path(
    c: &Compiled,
    entry: &str,
    param: &str,
    k: usize,
) -> Option<Vec<weir_cgen::abi::LeafStep>> {
    type Path = Vec<weir_cgen::abi::LeafStep>;
    fn leaves(t: &weir_ir::Type, dims: usize, path: &mut Path, out: &mut Vec<Path>) {
        match t {
            weir_ir::Type::Tuple(ts) => {
                for (i, t) in ts.iter().enumerate() {
                    path.push((i.to_string(), dims));
                    leaves(t, dims, path, out);
                    path.pop();
                }
            }
            weir_ir::Type::Record(fs) => {
                for (n, t) in fs {
                    path.push((n.clone(), dims));
                    leaves(t, dims, path, out);
                    path.pop();
                }
            }
            weir_ir::Type::Array(_, e) => leaves(e, dims + 1, path, out),
            _ => out.push(path.clone()),
        }
    }
    let d = c.program.find(entry)?;
    let i = d
        .params
        .iter()
        .position(|(n, _)| weir_ir::display_name(n) == param)?;
    let ty = match c.program.surface.get(entry) {
        Some((ps, _)) => ps.get(i)?,
        None => &d.params[i].1,
    };
    let mut out = Vec::new();
    leaves(ty, 0, &mut Vec::new(), &mut out);
    out.into_iter().nth(k).filter(|p| !p.is_empty())
}

/// The source signature of a function (its definition's first line, up to `=`).
fn signature_of(c: &Compiled, span: weir_ir::Span) -> String {
    let Some(f) = c.sources.files().get(span.file.0 as usize) else {
        return String::new();
    };
    let text = f.text.get(span.start as usize..).unwrap_or("");
    // up to the definition's `=` (not `==`, `<=`, `>=`, `!=`), at most 8 lines
    let b = text.as_bytes();
    let mut end = text.len();
    let mut lines = 0;
    for (i, &ch) in b.iter().enumerate() {
        if ch == b'\n' {
            lines += 1;
            if lines == 8 {
                end = i;
                break;
            }
        }
        let prev = if i > 0 { b[i - 1] } else { b' ' };
        let next = b.get(i + 1).copied().unwrap_or(b' ');
        if ch == b'=' && !b"=<>!".contains(&prev) && next != b'=' {
            end = i;
            break;
        }
    }
    text.get(..end)
        .unwrap_or("")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The C source of `target`, for the entry points `which` asks for.
pub fn c_source_for(
    c: &Compiled,
    opts: &BuildOptions,
    target: CTarget,
    which: Entries,
) -> Result<CSource, NativeError> {
    let core = if opts.variant.fusion {
        c.optimized.clone()
    } else {
        crate::pipeline::optimize_skipping(&c.program, &["fuse"]).map_err(NativeError::Backend)?
    };
    let (mut dps, mut failed) = crate::pipeline::to_dps_partial(&core, opts.variant.buffer_opts)
        .map_err(|e| NativeError::Backend(e.render(false)))?;
    // Entries whose user-visible C names clash (`weir c`'s `weir_E`, a
    // library's `NAME_E`; see weir_cgen::names) are left out too; the
    // private names never clash (checked).
    let public = match target {
        CTarget::Program => weir_cgen::names::public_clashes(&dps, None),
        CTarget::Library(p) => weir_cgen::names::public_clashes(&dps, Some(p)),
        CTarget::Executable => Vec::new(),
    };
    let internal = weir_cgen::symbol_clashes(&dps);
    for (f, m, public) in public
        .into_iter()
        .map(|(f, m)| (f, m, true))
        .chain(internal.into_iter().map(|(f, m)| (f, m, false)))
    {
        let span = dps.find(&f).map(|d| d.span).unwrap_or_default();
        dps.funs.retain(|d| d.name != f);
        let help = if public {
            "rename this entry (`weir run` and `weir build` take any name; in C it is the entry's prefix and name, `'` as `_q` and a module's `.` as `__`)"
        } else {
            "this is a bug of the C backend"
        };
        failed.push((
            f,
            weir_syntax::Diagnostic::new("E0801", span, m)
                .with_label("the C backend cannot compile this")
                .with_help(help),
        ));
    }
    // ... and so are their callers.
    loop {
        let gone: Vec<String> = failed.iter().map(|(f, _)| f.clone()).collect();
        let Some((caller, callee)) = dps.funs.iter().find_map(|d| {
            calls_in(&d.body.stmts)
                .into_iter()
                .find(|c| gone.contains(c))
                .map(|c| (d.name.clone(), c))
        }) else {
            break;
        };
        let span = dps.find(&caller).map(|d| d.span).unwrap_or_default();
        dps.funs.retain(|d| d.name != caller);
        failed.push((
            caller,
            weir_syntax::Diagnostic::new(
                "E0801",
                span,
                format!("this calls `{callee}`, which the C backend could not compile"),
            )
            .with_label("the C backend cannot compile this")
            .with_help("see the error reported for that function"),
        ));
    }
    let render = |ds: Vec<weir_syntax::Diagnostic>| {
        crate::pipeline::LoadError::Diagnostics(c.sources.clone(), ds).render(false)
    };
    let is_entry = |f: &str| core.find(f).is_some_and(|d| d.entry);
    // Errors of helpers (not entry points) are the causes of their callers'.
    let helpers: Vec<weir_syntax::Diagnostic> = failed
        .iter()
        .filter(|(f, _)| !is_entry(f))
        .map(|(_, d)| d.clone())
        .collect();
    let mut left_out = Vec::new();
    for (f, d) in &failed {
        if is_entry(f) {
            let mut ds = vec![d.clone()];
            ds.extend(helpers.iter().cloned());
            left_out.push((f.clone(), render(ds)));
        }
    }
    let none_left = !dps.funs.iter().any(|f| f.entry);
    match which {
        Entries::All if !failed.is_empty() => {
            return Err(NativeError::Backend(render(
                failed.into_iter().map(|(_, d)| d).collect(),
            )));
        }
        Entries::Compilable if none_left && !failed.is_empty() => {
            return Err(NativeError::Backend(render(
                failed.into_iter().map(|(_, d)| d).collect(),
            )));
        }
        Entries::Needed(e) => {
            if let Some((_, m)) = left_out.iter().find(|(f, _)| f == e) {
                return Err(NativeError::Backend(m.clone()));
            }
        }
        _ => {}
    }
    let locate = |span: weir_ir::Span| locate(c, span);
    let cg = Options {
        mem: opts.variant.mem,
        checks: opts.checks,
    };
    let unit =
        weir_cgen::lower(&dps, &cg, &locate, verify_enabled()).map_err(NativeError::Backend)?;
    let source = c
        .sources
        .files()
        .first()
        .map(|f| f.name.clone())
        .unwrap_or_default();
    let prefix = match target {
        CTarget::Library(p) => p,
        _ => "weir",
    };
    let sig = |name: &str| {
        dps.find(name)
            .map(|f| signature_of(c, f.span))
            .unwrap_or_default()
    };
    let leaf = |entry: &str, param: &str, k: usize| leaf_path(c, entry, param, k);
    let abi = weir_cgen::abi::model(&unit.entries, &dps.funs, prefix, &source, &sig, &leaf);
    let mut text = match target {
        CTarget::Library(_) => weir_cgen::to_c_library(&unit, &dps, &source, &abi),
        CTarget::Executable => weir_cgen::to_c(&unit, &dps, &source, true, &abi),
        CTarget::Program => weir_cgen::to_c(&unit, &dps, &source, false, &abi),
    };
    if opts.fast_math {
        // (the choice is the C compiler's: say which flags it needs)
        text = format!(
            "/* --fast-math: compile with {} (not -ffp-contract=off). */\n{text}",
            FAST_MATH_FLAGS.join(" ")
        );
    }
    Ok(CSource {
        text,
        left_out,
        abi,
    })
}

/// The functions called in `stmts` (nested blocks included).
fn calls_in(stmts: &[weir_dps::ir::Stmt]) -> Vec<String> {
    let mut v = Vec::new();
    for s in stmts {
        if let weir_dps::ir::Stmt::Call { fun, .. } = s {
            v.push(fun.clone());
        }
        for b in weir_dps::ir::nested_blocks(s) {
            v.extend(calls_in(b));
        }
    }
    v
}

/// `file:line:col` of a span.
pub fn locate(c: &Compiled, span: weir_ir::Span) -> String {
    match c.sources.files().get(span.file.0 as usize) {
        Some(f) => {
            let (l, col) = f.line_col(span.start as usize);
            format!("{}:{l}:{col}", f.name)
        }
        None => "<unknown>".into(),
    }
}

/// The compiler command: `$CC`, else `cc`.
pub fn find_cc(opts: &BuildOptions) -> Result<String, NativeError> {
    let cc = opts
        .cc
        .clone()
        .or_else(|| std::env::var("CC").ok().filter(|s| !s.trim().is_empty()))
        .unwrap_or_else(|| "cc".into());
    match Command::new(&cc)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
    {
        Ok(s) if s.success() => Ok(cc),
        _ => Err(NativeError::Compiler(format!(
            "no working C compiler found (tried `{cc}`): install gcc or clang (e.g. `apt-get install gcc`), set $CC, or run with --interp"
        ))),
    }
}

/// 64-bit FNV-1a (a stable content hash for the build cache).
fn fnv(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for p in parts {
        for b in *p {
            h ^= *b as u64;
            h = h.wrapping_mul(0x100000001b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// Where builds are cached: `$WEIR_CACHE`, else `$XDG_CACHE_HOME/weir`, else
/// `~/.cache/weir`, else the temporary directory.
pub fn cache_dir() -> PathBuf {
    if let Ok(d) = std::env::var("WEIR_CACHE") {
        return PathBuf::from(d);
    }
    if let Ok(d) = std::env::var("XDG_CACHE_HOME") {
        return Path::new(&d).join("weir");
    }
    if let Ok(h) = std::env::var("HOME") {
        return Path::new(&h).join(".cache").join("weir");
    }
    std::env::temp_dir().join("weir-cache")
}

/// The full compiler flags of a build.
pub fn cc_flags(opts: &BuildOptions) -> Vec<String> {
    let mut f: Vec<String> = opts.opt_flags.clone();
    f.push("-std=c11".into());
    if opts.fast_math {
        f.extend(FAST_MATH_FLAGS.iter().map(|s| s.to_string()));
    } else {
        f.push("-ffp-contract=off".into());
    }
    f.extend(
        ["-fopenmp-simd", "-fno-strict-aliasing"]
            .iter()
            .map(|s| s.to_string()),
    );
    f.push(format!("-DWEIR_MEM={}", opts.variant.mem.macro_value()));
    f.extend(opts.extra_flags.iter().cloned());
    if let Ok(extra) = std::env::var("WEIR_CFLAGS") {
        f.extend(extra.split_whitespace().map(|s| s.to_string()));
    }
    f
}

/// The build cache's default size bound, in MiB (`$WEIR_CACHE_MAX_MB` overrides it).
pub const DEFAULT_CACHE_MAX_MB: u64 = 512;

/// Entries used this recently are never evicted (a process that has just been
/// handed an executable is about to run it).
const EVICTION_GRACE: Duration = Duration::from_secs(60);

/// Temporary files older than this are left-overs of an interrupted build.
const STALE_TEMP: Duration = Duration::from_secs(3600);

/// The build cache's size bound in bytes: `$WEIR_CACHE_MAX_MB` MiB, else
/// [`DEFAULT_CACHE_MAX_MB`] (also when the variable is not a whole number).
pub fn cache_max_bytes() -> u64 {
    std::env::var("WEIR_CACHE_MAX_MB")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or(DEFAULT_CACHE_MAX_MB)
        .saturating_mul(1 << 20)
}

/// A name no other build (thread, process, or machine sharing the directory)
/// picks at the same time: pid, a per-process counter and a random-ish suffix
/// (std's per-process random hash keys mixed with the clock).
fn unique_tag() -> String {
    use std::hash::{BuildHasher, Hasher};
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(seq);
    h.write_u128(
        SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    format!("{}.{seq}.{:08x}", std::process::id(), h.finish() as u32)
}

/// The record stored beside a cached executable (`wHASH.meta`): its size and
/// the FNV-64 hash of its bytes.
fn entry_record(bytes: &[u8]) -> String {
    format!(
        "weir-cache-entry 1\nsize {}\nfnv64 {:016x}\n",
        bytes.len(),
        fnv(&[bytes])
    )
}

/// Whether `exe` is a complete cache entry: its record exists and its size and
/// hash match the record, and it is a regular file this process may execute,
/// with an executable's header. A damaged entry (truncated, overwritten, its
/// execute bit lost, a directory in its place) is not, and is rebuilt.
fn entry_is_complete(exe: &Path, meta: &Path) -> bool {
    let Ok(record) = std::fs::read_to_string(meta) else {
        return false;
    };
    let Ok(m) = std::fs::metadata(exe) else {
        return false;
    };
    let want_size = format!("size {}\n", m.len());
    if !m.is_file() || !executable(&m) || !record.contains(&want_size) {
        return false;
    }
    match std::fs::read(exe) {
        Ok(bytes) => has_exe_header(&bytes) && entry_record(&bytes) == record,
        Err(_) => false,
    }
}

/// Whether a file's permissions let it run (Unix: an execute bit).
fn executable(m: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        m.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        true
    }
}

/// Whether `bytes` begin as an executable of this platform does (ELF on
/// Linux, Mach-O on macOS; elsewhere, any non-empty file).
fn has_exe_header(bytes: &[u8]) -> bool {
    if cfg!(target_os = "linux") {
        bytes.starts_with(b"\x7fELF")
    } else if cfg!(target_os = "macos") {
        [
            &[0xcf, 0xfa, 0xed, 0xfe][..],
            &[0xce, 0xfa, 0xed, 0xfe],
            &[0xca, 0xfe, 0xba, 0xbe],
        ]
        .iter()
        .any(|m| bytes.starts_with(m))
    } else {
        !bytes.is_empty()
    }
}

/// Rename `from` to `to`, first removing whatever is in the way that a
/// rename cannot replace (a directory left at an entry's path).
fn rename_over(from: &Path, to: &Path) -> std::io::Result<()> {
    match std::fs::rename(from, to) {
        Ok(()) => Ok(()),
        Err(e) => match std::fs::symlink_metadata(to) {
            Ok(m) if m.is_dir() => {
                std::fs::remove_dir_all(to)?;
                std::fs::rename(from, to)
            }
            _ => Err(e),
        },
    }
}

/// Forget the cache entry of the executable `exe` (its record), so that the
/// next build of it compiles it afresh.
fn invalidate_entry(exe: &Path) {
    let mut meta = exe.as_os_str().to_owned();
    meta.push(".meta");
    let _ = std::fs::remove_file(Path::new(&meta));
}

/// Mark an entry as just used (its record's modification time is the clock of
/// the least-recently-used eviction).
fn touch(path: &Path) {
    if let Ok(f) = std::fs::OpenOptions::new().write(true).open(path) {
        let _ = f.set_modified(SystemTime::now());
    }
}

/// The cache key of a file name `wHASH...` (16 hex digits), if it is one of
/// the cache's files.
fn cache_key(name: &str) -> Option<&str> {
    let key = name.get(..17)?;
    let rest = &name[17..];
    let ours = key.starts_with('w')
        && key[1..].bytes().all(|b| b.is_ascii_hexdigit())
        && (rest.is_empty() || rest.starts_with('.'));
    ours.then_some(key)
}

/// What [`evict_cache`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Eviction {
    /// Entries (executable, record and C source) removed.
    pub entries: usize,
    /// Bytes freed, stale temporary files included.
    pub bytes: u64,
    /// Bytes left in the cache's files.
    pub left: u64,
}

/// Keep the cache directory under `max_bytes`: remove the least recently used
/// entries (an entry is an executable `wHASH`, its record `wHASH.meta` and its
/// C source `wHASH.c`; its last use is the newest modification time among
/// them) until the cache's files fit, never one used in the last minute, and
/// remove temporary files left by builds interrupted over an hour ago. Files
/// that are not the cache's are left alone.
pub fn evict_cache(dir: &Path, max_bytes: u64) -> std::io::Result<Eviction> {
    let now = SystemTime::now();
    let age = |t: SystemTime| now.duration_since(t).unwrap_or(Duration::ZERO);
    let mut ev = Eviction::default();
    // key -> (last use, bytes, files)
    let mut groups: std::collections::HashMap<String, (SystemTime, u64, Vec<PathBuf>)> =
        std::collections::HashMap::new();
    for e in std::fs::read_dir(dir)? {
        let Ok(e) = e else { continue };
        let name = e.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(key) = cache_key(name) else { continue };
        let Ok(m) = e.metadata() else { continue };
        if !m.is_file() {
            continue;
        }
        let mtime = m.modified().unwrap_or(now);
        if name.contains(".tmp") {
            if age(mtime) > STALE_TEMP && std::fs::remove_file(e.path()).is_ok() {
                ev.bytes += m.len();
            }
            continue;
        }
        let g = groups
            .entry(key.to_string())
            .or_insert((SystemTime::UNIX_EPOCH, 0, Vec::new()));
        g.0 = g.0.max(mtime);
        g.1 += m.len();
        g.2.push(e.path());
    }
    let mut total: u64 = groups.values().map(|g| g.1).sum();
    let mut order: Vec<_> = groups.into_values().collect();
    order.sort_by_key(|g| g.0);
    for (used, bytes, files) in order {
        if total <= max_bytes {
            break;
        }
        if age(used) < EVICTION_GRACE {
            continue;
        }
        // The record first: an entry without its record is never used.
        let mut files = files;
        files.sort_by_key(|f| f.extension().is_none_or(|x| x != "meta"));
        for f in &files {
            let _ = std::fs::remove_file(f);
        }
        total = total.saturating_sub(bytes);
        ev.entries += 1;
        ev.bytes += bytes;
    }
    ev.left = total;
    Ok(ev)
}

/// Compile C source to an executable, cached by content hash in [`cache_dir`];
/// see [`build_c_in`].
pub fn build_c(src: &str, opts: &BuildOptions) -> Result<PathBuf, NativeError> {
    build_c_in(&cache_dir(), src, opts)
}

/// Compile C source to an executable, cached in `dir` by a hash of the source,
/// compiler, flags and libraries. An entry is used only when complete: the
/// compiler writes to a name of its own, the executable's size and FNV-64 hash
/// are recorded beside it (`wHASH.meta`), and both are renamed into place, so
/// concurrent builds of one program never see each other's partial files; an
/// entry whose executable does not match its record (truncated, overwritten)
/// is rebuilt. After a build, old entries are evicted down to
/// [`cache_max_bytes`] ([`evict_cache`]).
pub fn build_c_in(dir: &Path, src: &str, opts: &BuildOptions) -> Result<PathBuf, NativeError> {
    let cc = find_cc(opts)?;
    let flags = cc_flags(opts);
    let libs: Vec<&str> = if opts.variant.mem == MemMode::Gc {
        vec!["-lgc", "-lm"]
    } else {
        vec!["-lm"]
    };
    let joined = flags.join(" ");
    let h = fnv(&[
        src.as_bytes(),
        cc.as_bytes(),
        joined.as_bytes(),
        libs.join(" ").as_bytes(),
    ]);
    std::fs::create_dir_all(dir).map_err(|e| {
        NativeError::Compiler(format!(
            "cannot create the build cache {}: {e}",
            dir.display()
        ))
    })?;
    let key = format!("w{h:016x}");
    let exe = dir.join(&key);
    let meta = dir.join(format!("{key}.meta"));
    if entry_is_complete(&exe, &meta) {
        touch(&meta);
        return Ok(exe);
    }
    // Missing or incomplete: build afresh under names of our own; a bad entry
    // is replaced (by rename) below, never deleted while another build may be
    // about to run it.
    let tag = unique_tag();
    let c_tmp = dir.join(format!("{key}.{tag}.tmp.c"));
    let exe_tmp = dir.join(format!("{key}.{tag}.tmp"));
    let meta_tmp = dir.join(format!("{key}.{tag}.meta.tmp"));
    let c_path = dir.join(format!("{key}.c"));
    let cache_err = |what: &str, p: &Path, e: std::io::Error| {
        NativeError::Compiler(format!(
            "build cache {}: cannot {what} {}: {e}",
            dir.display(),
            p.display()
        ))
    };
    std::fs::write(&c_tmp, src).map_err(|e| cache_err("write", &c_tmp, e))?;
    let out = Command::new(&cc)
        .args(&flags)
        .arg("-o")
        .arg(&exe_tmp)
        .arg(&c_tmp)
        .args(&libs)
        .output();
    // The C source is kept beside the entry (for the error message, and to
    // read); a concurrent build of the same program writes the same text.
    let c_shown = match std::fs::rename(&c_tmp, &c_path) {
        Ok(()) => c_path,
        Err(_) => c_tmp.clone(),
    };
    let out = match out {
        Ok(o) => o,
        Err(e) => {
            let _ = std::fs::remove_file(&exe_tmp);
            return Err(NativeError::Compiler(format!("cannot run `{cc}`: {e}")));
        }
    };
    if !out.status.success() {
        let _ = std::fs::remove_file(&exe_tmp);
        return Err(NativeError::Compiler(format!(
            "the C compiler `{cc}` failed on the generated code {} (a Weir bug, or a missing library such as libgc-dev for the CG variant):\n{}",
            c_shown.display(),
            String::from_utf8_lossy(&out.stderr)
                .replace(&c_tmp.display().to_string(), &c_shown.display().to_string())
        )));
    }
    let publish = || -> Result<(), NativeError> {
        let bytes = std::fs::read(&exe_tmp).map_err(|e| cache_err("read", &exe_tmp, e))?;
        std::fs::write(&meta_tmp, entry_record(&bytes))
            .map_err(|e| cache_err("write", &meta_tmp, e))?;
        rename_over(&exe_tmp, &exe).map_err(|e| cache_err("rename", &exe_tmp, e))?;
        rename_over(&meta_tmp, &meta).map_err(|e| cache_err("rename", &meta_tmp, e))
    };
    if let Err(e) = publish() {
        let _ = std::fs::remove_file(&exe_tmp);
        let _ = std::fs::remove_file(&meta_tmp);
        return Err(e);
    }
    // Eviction is housekeeping: a failure there does not fail the build.
    let _ = evict_cache(dir, cache_max_bytes());
    Ok(exe)
}

/// Counters printed by a compiled program with `--stats`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub runs: u64,
    pub total_ns: u64,
    pub peak_rss_kb: u64,
    pub sys_allocs: u64,
    pub sys_allocs_last_run: u64,
    pub peak_bytes: u64,
    pub reserved_bytes: u64,
}

impl Stats {
    fn parse(line: &str) -> Stats {
        let mut s = Stats::default();
        for kv in line.split_whitespace() {
            let Some((k, v)) = kv.split_once('=') else {
                continue;
            };
            let n: u64 = v.parse::<f64>().map(|x| x as u64).unwrap_or(0);
            match k {
                "runs" => s.runs = n,
                "total_ns" => s.total_ns = n,
                "peak_rss_kb" => s.peak_rss_kb = n,
                "sys_allocs" => s.sys_allocs = n,
                "sys_allocs_last_run" => s.sys_allocs_last_run = n,
                "peak_bytes" => s.peak_bytes = n,
                "reserved_bytes" => s.reserved_bytes = n,
                _ => {}
            }
        }
        s
    }
}

/// The flattened leaves of a value: dims and scalars.
struct LeafData {
    dims: Vec<i64>,
    data: Vec<Value>,
    prim: PrimType,
}

/// The leaves of a value of type `t` in the binary format, in order: element
/// type and rank (a scalar has rank 0; an array of tuples is one array per
/// component).
pub fn flat_types(t: &Type) -> Vec<(PrimType, usize)> {
    match t {
        Type::Prim(p) => vec![(*p, 0)],
        Type::Tuple(ts) => ts.iter().flat_map(flat_types).collect(),
        Type::Array(_, e) => flat_types(e).into_iter().map(|(p, r)| (p, r + 1)).collect(),
        _ => vec![],
    }
}

/// Bind size variables from the shapes of the (non-empty) arguments, so that the
/// inner dims of empty arrays can be encoded.
fn bind_sizes(v: &Value, t: &Type, env: &mut std::collections::HashMap<String, i64>) {
    match (v, t) {
        (Value::Array(xs), Type::Array(sz, e)) => {
            if let Size::Var(n) = sz {
                env.entry(n.clone()).or_insert(xs.len() as i64);
            }
            if let Some(x) = xs.first() {
                bind_sizes(x, e, env);
            }
        }
        (Value::Tuple(xs), Type::Tuple(ts)) => {
            for (x, t) in xs.iter().zip(ts) {
                bind_sizes(x, t, env);
            }
        }
        _ => {}
    }
}

thread_local! {
    static SIZES: std::cell::RefCell<std::collections::HashMap<String, i64>> = Default::default();
}

fn inner_dims(t: &Type) -> Vec<i64> {
    match t {
        Type::Array(sz, e) => {
            let d = match sz {
                Size::Const(c) => *c,
                Size::Var(n) => SIZES.with(|s| s.borrow().get(n).copied().unwrap_or(0)),
                _ => 0,
            };
            let mut v = vec![d];
            v.extend(inner_dims(e));
            v
        }
        _ => vec![],
    }
}

/// One leaf of a value as the C ABI passes it: its dims, and its value when
/// it is a scalar.
pub type LeafShape = (Vec<i64>, Option<Value>);

/// The leaves of a value of type `t` as the C ABI passes them (tuples
/// flattened, an array of tuples one array per component).
pub fn leaf_dims(v: &Value, t: &Type) -> Result<Vec<LeafShape>, String> {
    Ok(leaves(v, t)?
        .into_iter()
        .map(|l| {
            let scalar = if l.dims.is_empty() {
                l.data.first().cloned()
            } else {
                None
            };
            (l.dims, scalar)
        })
        .collect())
}

/// One leaf of a value as the C ABI passes it: its dims and its elements in
/// row-major order.
pub type LeafElems = (Vec<i64>, Vec<Value>);

/// The leaves of a value of type `t` as the C ABI passes them ([`LeafElems`]).
pub fn leaf_elems(v: &Value, t: &Type) -> Result<Vec<LeafElems>, String> {
    Ok(leaves(v, t)?
        .into_iter()
        .map(|l| (l.dims, l.data))
        .collect())
}

fn leaves(v: &Value, t: &Type) -> Result<Vec<LeafData>, String> {
    match (v, t) {
        (_, Type::Prim(p)) => Ok(vec![LeafData {
            dims: vec![],
            data: vec![v.clone()],
            prim: *p,
        }]),
        (Value::Tuple(xs), Type::Tuple(ts)) if xs.len() == ts.len() => {
            let mut out = Vec::new();
            for (x, t) in xs.iter().zip(ts) {
                out.extend(leaves(x, t)?);
            }
            Ok(out)
        }
        (Value::Array(xs), Type::Array(sz, e)) => {
            let ft = flat_types(e);
            let mut out: Vec<LeafData> = ft
                .iter()
                .map(|(p, _)| LeafData {
                    dims: vec![xs.len() as i64],
                    data: vec![],
                    prim: *p,
                })
                .collect();
            let _ = sz;
            for (i, x) in xs.iter().enumerate() {
                let ls = leaves(x, e)?;
                for (k, l) in ls.into_iter().enumerate() {
                    if i == 0 {
                        out[k].dims.extend(l.dims.iter());
                    } else if out[k].dims[1..] != l.dims[..] {
                        return Err("irregular array input".into());
                    }
                    out[k].data.extend(l.data);
                }
            }
            if xs.is_empty() {
                let inner = flat_inner_dims(e);
                for (k, (_, r)) in ft.iter().enumerate() {
                    let dims = inner.get(k).cloned().unwrap_or_default();
                    out[k]
                        .dims
                        .extend((0..*r).map(|j| dims.get(j).copied().unwrap_or(0)));
                }
            }
            Ok(out)
        }
        _ => Err(format!(
            "a value that does not match its type {}",
            weir_ir::print::user_type_to_string(t)
        )),
    }
}

/// The dims of each leaf of a type (from its sizes).
fn flat_inner_dims(t: &Type) -> Vec<Vec<i64>> {
    match t {
        Type::Prim(_) => vec![vec![]],
        Type::Tuple(ts) => ts.iter().flat_map(flat_inner_dims).collect(),
        Type::Array(..) => {
            let here = inner_dims(t);
            let Type::Array(_, e) = t else { return vec![] };
            flat_inner_dims(e)
                .into_iter()
                .map(|inner| {
                    let mut v = vec![here[0]];
                    v.extend(inner);
                    v
                })
                .collect()
        }
        _ => vec![],
    }
}

fn put_scalar(buf: &mut Vec<u8>, v: &Value, p: PrimType) -> Result<(), String> {
    match (v, p) {
        (Value::F64(x), PrimType::F64) => buf.extend(x.to_le_bytes()),
        (Value::F32(x), PrimType::F32) => buf.extend(x.to_le_bytes()),
        (Value::I64(x), PrimType::I64) => buf.extend(x.to_le_bytes()),
        (Value::I32(x), PrimType::I32) => buf.extend(x.to_le_bytes()),
        (Value::Bool(x), PrimType::Bool) => buf.push(*x as u8),
        // other integers: little-endian two's complement, their width
        (v, p) if p.is_int() && v.prim() == Some(p) => {
            let x = v.as_int().unwrap_or(0);
            buf.extend(&x.to_le_bytes()[..(p.bits() / 8) as usize]);
        }
        _ => return Err(format!("{} where {} was expected", v.kind_name(), p.name())),
    }
    Ok(())
}

/// Encode an entry's arguments.
pub fn encode_args(d: &FunDef, args: &[Value]) -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    let mut env = std::collections::HashMap::new();
    for ((_, t), v) in d.params.iter().zip(args) {
        bind_sizes(v, t, &mut env);
    }
    SIZES.with(|s| *s.borrow_mut() = env);
    for ((_, t), v) in d.params.iter().zip(args) {
        for l in leaves(v, t)? {
            for x in &l.dims {
                buf.extend(x.to_le_bytes());
            }
            for x in &l.data {
                put_scalar(&mut buf, x, l.prim)?;
            }
        }
    }
    Ok(buf)
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        if n > self.b.len().saturating_sub(self.at) {
            return Err("the compiled program's output ended early".into());
        }
        let s = &self.b[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
    fn i64(&mut self) -> Result<i64, String> {
        let s = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(s);
        Ok(i64::from_le_bytes(a))
    }
    fn scalar(&mut self, p: PrimType) -> Result<Value, String> {
        Ok(match p {
            PrimType::F64 => Value::F64(f64::from_bits(self.i64()? as u64)),
            PrimType::I64 => Value::I64(self.i64()?),
            PrimType::F32 | PrimType::I32 => {
                let s = self.take(4)?;
                let mut a = [0u8; 4];
                a.copy_from_slice(s);
                if p == PrimType::F32 {
                    Value::F32(f32::from_le_bytes(a))
                } else {
                    Value::I32(i32::from_le_bytes(a))
                }
            }
            PrimType::Bool => Value::Bool(self.take(1)?[0] != 0),
            p => {
                // another integer: little-endian, sign-extended if signed
                let w = (p.bits() / 8) as usize;
                let s = self.take(w)?;
                let mut a = [0u8; 16];
                a[..w].copy_from_slice(s);
                Value::int(p, i128::from_le_bytes(a))
            }
        })
    }
}

/// The largest number of array values (rows at every level) a decoded result
/// may have: a hostile or broken program claiming `[2^62][0]` is an error, not
/// an allocation failure.
const MAX_DECODED_ROWS: u64 = 1 << 32;

fn rebuild(t: &Type, ls: &[LeafData]) -> Result<Value, String> {
    let malformed = || "the compiled program's output is malformed".to_string();
    match t {
        Type::Prim(_) => ls
            .first()
            .and_then(|l| l.data.first())
            .cloned()
            .ok_or_else(malformed),
        Type::Tuple(ts) => {
            let mut k = 0;
            let mut v = Vec::new();
            for t in ts {
                let n = flat_types(t).len();
                v.push(rebuild(t, ls.get(k..k + n).ok_or_else(malformed)?)?);
                k += n;
            }
            Ok(Value::Tuple(Rc::new(v)))
        }
        Type::Array(_, e) => {
            let Some(first) = ls.first() else {
                return Ok(Value::Array(Rc::new(vec![])));
            };
            let n = first.dims.first().copied().ok_or_else(malformed)?;
            let n = usize::try_from(n).map_err(|_| malformed())?;
            let mut rows = Vec::with_capacity(n);
            for i in 0..n {
                let mut sub = Vec::with_capacity(ls.len());
                for l in ls {
                    let inner = l.dims.get(1..).ok_or_else(malformed)?;
                    let row = inner
                        .iter()
                        .try_fold(1usize, |acc, d| {
                            usize::try_from(*d).ok().and_then(|d| acc.checked_mul(d))
                        })
                        .ok_or_else(malformed)?;
                    let lo = i.checked_mul(row).ok_or_else(malformed)?;
                    let data = l.data.get(lo..lo + row).ok_or_else(malformed)?;
                    sub.push(LeafData {
                        dims: inner.to_vec(),
                        data: data.to_vec(),
                        prim: l.prim,
                    });
                }
                rows.push(rebuild(e, &sub)?);
            }
            Ok(Value::Array(Rc::new(rows)))
        }
        _ => Err(malformed()),
    }
}

/// Decode an entry's results. Malformed output (negative dims, fewer bytes
/// than the dims claim, absurdly many rows) is an error, never a panic or a
/// huge allocation.
pub fn decode_result(d: &FunDef, bytes: &[u8]) -> Result<Value, String> {
    let mut r = Reader { b: bytes, at: 0 };
    let mut ls = Vec::new();
    for (p, rank) in flat_types(&d.ret) {
        let mut dims = Vec::new();
        for _ in 0..rank {
            dims.push(r.i64()?);
        }
        let bad = || {
            format!(
                "the compiled program's output is malformed (dims {dims:?} for {} bytes)",
                bytes.len()
            )
        };
        // Rows at each level (a prefix product of the dims) and elements.
        let mut rows: u64 = 1;
        let mut n: u64 = 1;
        for (k, x) in dims.iter().enumerate() {
            let x = u64::try_from(*x).map_err(|_| bad())?;
            n = n.checked_mul(x).ok_or_else(bad)?;
            if k + 1 < dims.len() {
                rows = rows.checked_mul(x).ok_or_else(bad)?;
                if rows > MAX_DECODED_ROWS {
                    return Err(bad());
                }
            }
        }
        let size: u64 = u64::from(p.bits() / 8);
        let left = (bytes.len() - r.at.min(bytes.len())) as u64;
        if n.checked_mul(size).is_none_or(|b| b > left) {
            return Err(bad());
        }
        let n = usize::try_from(n).map_err(|_| bad())?;
        let mut data = Vec::with_capacity(n);
        for _ in 0..n {
            data.push(r.scalar(p)?);
        }
        ls.push(LeafData {
            dims,
            data,
            prim: p,
        });
    }
    rebuild(&d.ret, &ls)
}

/// The process-wide default time limit of a compiled program, in ms (0: none).
static DEFAULT_TIME_LIMIT_MS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Set the time limit [`run_exe`] (and [`run_native`], unless its options set
/// one) gives a compiled program; `None` (the initial value): no limit.
/// `weir test` sets it from `--timeout`.
pub fn set_default_time_limit(limit: Option<Duration>) {
    let ms = limit.map_or(0, |d| {
        u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1)
    });
    DEFAULT_TIME_LIMIT_MS.store(ms, std::sync::atomic::Ordering::Relaxed);
}

/// The process-wide default time limit (see [`set_default_time_limit`]).
pub fn default_time_limit() -> Option<Duration> {
    match DEFAULT_TIME_LIMIT_MS.load(std::sync::atomic::Ordering::Relaxed) {
        0 => None,
        ms => Some(Duration::from_millis(ms)),
    }
}

/// Build (cached) and run an entry on the given arguments, within
/// `opts.time_limit` (else the process default).
pub fn run_native(
    c: &Compiled,
    entry: &str,
    args: &[Value],
    opts: &BuildOptions,
    runs: u64,
) -> Result<(Value, Option<Stats>), NativeError> {
    let d = c
        .program
        .find(entry)
        .ok_or_else(|| NativeError::Io(format!("no entry point named `{entry}`")))?;
    let src = c_source_of(c, opts, true, Entries::Needed(entry))?.text;
    let exe = build_c(&src, opts)?;
    let limit = opts.time_limit.or_else(default_time_limit);
    match run_exe_limited(&exe, d, args, runs, &[], limit) {
        // A cached executable that cannot be started (damaged in a way its
        // record does not show) is rebuilt, once.
        Err(NativeError::Io(m)) if m.starts_with(CANNOT_RUN) => {
            invalidate_entry(&exe);
            let exe = build_c(&src, opts)?;
            run_exe_limited(&exe, d, args, runs, &[], limit)
        }
        r => r,
    }
}

/// The start of the message of an executable that could not be started.
const CANNOT_RUN: &str = "cannot run ";

/// Run a built executable (with an optional wrapper command such as valgrind),
/// within the process default time limit ([`default_time_limit`]).
pub fn run_exe(
    exe: &Path,
    d: &FunDef,
    args: &[Value],
    runs: u64,
    wrapper: &[&str],
) -> Result<(Value, Option<Stats>), NativeError> {
    run_exe_limited(exe, d, args, runs, wrapper, default_time_limit())
}

/// Wait for `child`, killing it at the deadline: `Ok(None)` when it was killed.
fn wait_limited(
    child: &mut std::process::Child,
    limit: Option<Duration>,
) -> std::io::Result<Option<std::process::ExitStatus>> {
    let Some(deadline) = limit.and_then(|l| Instant::now().checked_add(l)) else {
        return child.wait().map(Some);
    };
    let mut step = Duration::from_millis(1);
    loop {
        if let Some(s) = child.try_wait()? {
            return Ok(Some(s));
        }
        let now = Instant::now();
        if now >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(step.min(deadline - now));
        step = (step * 2).min(Duration::from_millis(50));
    }
}

/// Read a pipe to its end on a thread of its own.
fn drain<R: std::io::Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut buf);
        }
        buf
    })
}

/// Run a built executable (with an optional wrapper command such as
/// valgrind), killing it after `limit` ([`NativeError::Timeout`]). Input is
/// written and output read on threads of their own, so a program that writes
/// before it has read all its input cannot deadlock with this one.
pub fn run_exe_limited(
    exe: &Path,
    d: &FunDef,
    args: &[Value],
    runs: u64,
    wrapper: &[&str],
    limit: Option<Duration>,
) -> Result<(Value, Option<Stats>), NativeError> {
    let input = encode_args(d, args).map_err(NativeError::Io)?;
    let mut cmd = if let Some((w, rest)) = wrapper.split_first() {
        let mut c = Command::new(w);
        c.args(rest).arg(exe);
        c
    } else {
        Command::new(exe)
    };
    // The binary format (`--raw`): no conversion on either side.
    cmd.arg("-e")
        .arg(&d.name)
        .arg("--raw")
        .arg("--runs")
        .arg(runs.to_string())
        .arg("--stats")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .map_err(|e| NativeError::Io(format!("{CANNOT_RUN}{}: {e}", exe.display())))?;
    let stdin = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let Some(mut stdin) = stdin {
            use std::io::Write;
            // A program that fails before reading its input closes the pipe.
            let _ = stdin.write_all(&input);
        }
    });
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let status = wait_limited(&mut child, limit);
    let _ = writer.join();
    let stdout = stdout.join().unwrap_or_default();
    let stderr = String::from_utf8_lossy(&stderr.join().unwrap_or_default()).to_string();
    let status = match status {
        Ok(Some(s)) => s,
        Ok(None) => return Err(NativeError::Timeout(limit.unwrap_or_default())),
        Err(e) => {
            return Err(NativeError::Io(format!(
                "cannot run {}: {e}",
                exe.display()
            )));
        }
    };
    let stats = stderr
        .lines()
        .find(|l| l.starts_with("stats:"))
        .map(Stats::parse);
    if !status.success() {
        let msg = stderr
            .lines()
            .find_map(|l| l.strip_prefix("error: "))
            .map(|s| s.to_string())
            .unwrap_or_else(|| format!("the compiled program failed ({status}): {stderr}"));
        return Err(NativeError::Runtime(msg));
    }
    let v = decode_result(d, &stdout).map_err(NativeError::Io)?;
    Ok((v, stats))
}

/// Size of a type known statically (for messages).
pub fn known_sizes(t: &Type) -> bool {
    match t {
        Type::Array(Size::Const(_) | Size::Var(_), e) => known_sizes(e),
        Type::Array(..) => false,
        _ => true,
    }
}

/// A compiled program's run-time error (`file:line:col: message`) as the
/// interpreter's error type, so it renders with the source excerpt.
pub fn runtime_error(c: &Compiled, msg: &str) -> Option<weir_interp::RuntimeError> {
    let mut parts = msg.splitn(4, ':');
    let (file, line, col, rest) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let (line, col): (usize, usize) = (line.trim().parse().ok()?, col.trim().parse().ok()?);
    let (k, f) = c
        .sources
        .files()
        .iter()
        .enumerate()
        .find(|(_, f)| f.name == file)?;
    let start: usize = f
        .text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(|l| l.len())
        .sum::<usize>()
        + col.saturating_sub(1);
    let end = f.text[start.min(f.text.len())..]
        .find(|ch: char| ch.is_whitespace() || ch == ')')
        .map(|e| start + e.max(1))
        .unwrap_or(start + 1)
        .min(f.text.len());
    Some(weir_interp::RuntimeError {
        message: rest.trim().to_string(),
        span: weir_ir::Span::new(weir_syntax::FileId(k as u32), start, end),
    })
}
