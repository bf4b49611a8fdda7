//! Compiling to C and running it: the variants of dps-ftilde §5, the C compiler
//! driver (with a content-hash build cache), and the binary exchange of inputs
//! and results with a compiled entry point.
//!
//! Binary format (native little-endian), used on a compiled program's stdin and
//! stdout: the entry's parameters (results) one after another, each flattened
//! into its leaves (a tuple into its components, an array of tuples into one
//! array per component); a scalar leaf is its bytes (bool: one byte), an array
//! leaf of rank r is r `int64` dims followed by its elements in row-major order.

use crate::pipeline::{Compiled, to_dps_from, verify_enabled};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::rc::Rc;
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
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            variant: default_variant(),
            checks: true,
            opt_flags: vec!["-O3".into(), "-march=native".into()],
            extra_flags: vec![],
            cc: None,
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
}

impl std::fmt::Display for NativeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NativeError::Backend(m) => write!(f, "{m}"),
            NativeError::Compiler(m) => write!(f, "error: {m}"),
            NativeError::Runtime(m) => write!(f, "error: runtime error at {m}"),
            NativeError::Io(m) => write!(f, "error: {m}"),
        }
    }
}

/// The C source of a compiled program.
pub fn c_source(c: &Compiled, opts: &BuildOptions, with_main: bool) -> Result<String, NativeError> {
    let core = if opts.variant.fusion {
        c.optimized.clone()
    } else {
        crate::pipeline::optimize_skipping(&c.program, &["fuse"]).map_err(NativeError::Backend)?
    };
    let dps = to_dps_from(c, &core, opts.variant.buffer_opts)
        .map_err(|e| NativeError::Backend(e.render(false)))?;
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
    Ok(weir_cgen::to_c(&unit, &dps, &source, with_main))
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
    f.extend(
        [
            "-std=c11",
            "-ffp-contract=off",
            "-fopenmp-simd",
            "-fno-strict-aliasing",
        ]
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

/// Compile C source to an executable (cached by content hash).
pub fn build_c(src: &str, opts: &BuildOptions) -> Result<PathBuf, NativeError> {
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
    let dir = cache_dir();
    std::fs::create_dir_all(&dir).map_err(|e| {
        NativeError::Compiler(format!(
            "cannot create the build cache {}: {e}",
            dir.display()
        ))
    })?;
    let exe = dir.join(format!("w{h:016x}"));
    if exe.exists() {
        return Ok(exe);
    }
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let c_path = dir.join(format!("w{h:016x}.{}.{seq}.c", std::process::id()));
    std::fs::write(&c_path, src)
        .map_err(|e| NativeError::Compiler(format!("cannot write {}: {e}", c_path.display())))?;
    let tmp = dir.join(format!("w{h:016x}.{}.{seq}.tmp", std::process::id()));
    let out = Command::new(&cc)
        .args(&flags)
        .arg("-o")
        .arg(&tmp)
        .arg(&c_path)
        .args(&libs)
        .output()
        .map_err(|e| NativeError::Compiler(format!("cannot run `{cc}`: {e}")))?;
    if !out.status.success() {
        return Err(NativeError::Compiler(format!(
            "the C compiler `{cc}` failed on the generated code {} (a Weir bug, or a missing library such as libgc-dev for the CG variant):\n{}",
            c_path.display(),
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    std::fs::rename(&tmp, &exe).map_err(|e| {
        NativeError::Compiler(format!("cannot move the executable into the cache: {e}"))
    })?;
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
            weir_ir::print::type_to_string(t)
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
        if self.at + n > self.b.len() {
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
        })
    }
}

fn rebuild(t: &Type, ls: &[LeafData]) -> Value {
    match t {
        Type::Prim(_) => ls[0].data.first().cloned().unwrap_or(Value::I64(0)),
        Type::Tuple(ts) => {
            let mut k = 0;
            let mut v = Vec::new();
            for t in ts {
                let n = flat_types(t).len();
                v.push(rebuild(t, &ls[k..k + n]));
                k += n;
            }
            Value::Tuple(Rc::new(v))
        }
        Type::Array(_, e) => {
            let n = ls
                .first()
                .and_then(|l| l.dims.first())
                .copied()
                .unwrap_or(0)
                .max(0) as usize;
            let mut rows = Vec::with_capacity(n);
            for i in 0..n {
                let sub: Vec<LeafData> = ls
                    .iter()
                    .map(|l| {
                        let row: usize = l.dims[1..].iter().map(|d| (*d).max(0) as usize).product();
                        LeafData {
                            dims: l.dims[1..].to_vec(),
                            data: l.data[i * row..(i + 1) * row].to_vec(),
                            prim: l.prim,
                        }
                    })
                    .collect();
                rows.push(rebuild(e, &sub));
            }
            Value::Array(Rc::new(rows))
        }
        _ => Value::I64(0),
    }
}

/// Decode an entry's results.
pub fn decode_result(d: &FunDef, bytes: &[u8]) -> Result<Value, String> {
    let mut r = Reader { b: bytes, at: 0 };
    let mut ls = Vec::new();
    for (p, rank) in flat_types(&d.ret) {
        let mut dims = Vec::new();
        for _ in 0..rank {
            dims.push(r.i64()?);
        }
        let n: usize = dims.iter().map(|x| (*x).max(0) as usize).product();
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
    Ok(rebuild(&d.ret, &ls))
}

/// Build (cached) and run an entry on the given arguments.
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
    let src = c_source(c, opts, true)?;
    let exe = build_c(&src, opts)?;
    run_exe(&exe, d, args, runs, &[])
}

/// Run a built executable (with an optional wrapper command such as valgrind).
pub fn run_exe(
    exe: &Path,
    d: &FunDef,
    args: &[Value],
    runs: u64,
    wrapper: &[&str],
) -> Result<(Value, Option<Stats>), NativeError> {
    let input = encode_args(d, args).map_err(NativeError::Io)?;
    let mut cmd = if let Some((w, rest)) = wrapper.split_first() {
        let mut c = Command::new(w);
        c.args(rest).arg(exe);
        c
    } else {
        Command::new(exe)
    };
    cmd.arg("-e")
        .arg(&d.name)
        .arg("--runs")
        .arg(runs.to_string())
        .arg("--stats")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .map_err(|e| NativeError::Io(format!("cannot run {}: {e}", exe.display())))?;
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        let _ = stdin.write_all(&input);
    }
    let out = child
        .wait_with_output()
        .map_err(|e| NativeError::Io(format!("cannot run {}: {e}", exe.display())))?;
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let stats = stderr
        .lines()
        .find(|l| l.starts_with("stats:"))
        .map(Stats::parse);
    if !out.status.success() {
        let msg = stderr
            .lines()
            .find_map(|l| l.strip_prefix("error: "))
            .map(|s| s.to_string())
            .unwrap_or_else(|| format!("the compiled program failed ({}): {stderr}", out.status));
        return Err(NativeError::Runtime(msg));
    }
    let v = decode_result(d, &out.stdout).map_err(NativeError::Io)?;
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
