//! Differential testing of Weir at scale (issue 14).
//!
//! [`generate`] is the random program generator (a proptest strategy over choice
//! sequences, so failures shrink); [`oracle`] says when two runs agree; this
//! module runs programs through the four legs — the unoptimized interpreter, the
//! optimized interpreter, C at `-O0` and C at `-O3` (optionally under
//! `-fsanitize=address,undefined`) — in batches (one C file and two compiler runs
//! for many programs), on several threads, and shrinks every failure to a small
//! reproducer. `weir fuzz` is its command line.
//!
//! Every program gets one [`Verdict`], counted by [`Verdict::category`] and
//! totalled by [`Verdict::group`]: every leg agrees on a value, on an error
//! (same kind *and* same `line:col`), or within tolerance; the checker
//! rejected it; the C backend rejected it (E0801); or a bug. A mismatch names
//! its pair of legs ([`Pair`]: the two interpreters, or the interpreter and
//! C) and how they differ ([`oracle::Difference`]: values, value vs error,
//! error kinds, or the same kind at another location), and shrinks to a
//! program with the same pair and difference. [`generate::GenOptions`] biases
//! programs towards empty and singleton dimensions (`weir fuzz --empty-bias`;
//! every 4th program under `--long`, which also builds the C with sanitizers
//! next to the plain builds: [`Config::sanitize_also`]).

pub mod generate;
pub mod mutate;
pub mod oracle;
pub mod progress;

use generate::GenProgram;
use oracle::{Difference, ErrKind, Outcome, Relation};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestRng, TestRunner};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use weir_driver::native::{self, BuildOptions, NativeError};
use weir_driver::{Compiled, LoadError};
use weir_interp::{Interp, Value};

/// Evaluation steps the interpreter legs may take (a program needing more is
/// counted as too long, not run on C).
const FUEL: u64 = 2_000_000;

/// How a campaign runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Compile and run C (else only the two interpreter legs).
    pub c: bool,
    /// Build the C with `-fsanitize=address,undefined`.
    pub sanitize: bool,
    /// Build the C both plainly and with `-fsanitize=address,undefined`, at
    /// `-O0` and `-O3` each: four compiled legs (`weir fuzz --long`).
    pub sanitize_also: bool,
    /// Programs per C file.
    pub batch: usize,
    /// Worker threads.
    pub jobs: usize,
    /// Where C files and executables go (a scratch directory).
    pub work_dir: PathBuf,
    /// Time limit of one compiled run.
    pub timeout: Duration,
    /// Shrink failures (and at most this many steps each).
    pub shrink_steps: usize,
    /// The C compiler (default `$CC`, else `cc`).
    pub cc: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            c: true,
            sanitize: false,
            sanitize_also: false,
            batch: 40,
            jobs: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            work_dir: std::env::temp_dir().join(format!("weir-fuzz-{}", std::process::id())),
            timeout: Duration::from_secs(20),
            shrink_steps: 60,
            cc: None,
        }
    }
}

/// What happened to one program.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// Every leg computed the same value.
    AgreeValue,
    /// Every leg reported the same error (kind and location).
    AgreeError(String),
    /// Float results within tolerance in a program with reassociable reductions.
    Reassociated,
    /// The checker rejected the program (the generator's miss, not a bug).
    Rejected(String),
    /// The C backend does not compile this construct yet (interpreter legs agree).
    Unsupported(String),
    /// The interpreter needed more than its step budget (not run further).
    TooLong,
    /// Legs disagree: which pair, how, and the outcomes of every leg.
    Mismatch(Pair, Difference, String),
    /// The generated C does not compile.
    InvalidC(String),
    /// An internal compiler error (verifier failure, "internal error").
    Ice(String),
    /// The compiler or the interpreter panicked.
    Panic(String),
    /// AddressSanitizer or UBSan reported a problem.
    Sanitizer(String),
    /// A compiled run exceeded the time limit, or crashed on a signal.
    Crash(String),
}

impl Verdict {
    /// Is this a bug in Weir?
    pub fn is_bug(&self) -> bool {
        matches!(
            self,
            Verdict::Mismatch(..)
                | Verdict::InvalidC(_)
                | Verdict::Ice(_)
                | Verdict::Panic(_)
                | Verdict::Sanitizer(_)
                | Verdict::Crash(_)
        )
    }
    /// The counting category (one line of the report).
    pub fn category(&self) -> String {
        match self {
            Verdict::AgreeValue => "agree: value".into(),
            Verdict::AgreeError(k) => format!("agree: error ({k})"),
            Verdict::Reassociated => "agree within tolerance (reassociated reduction)".into(),
            Verdict::Rejected(c) => format!("rejected by the checker ({c})"),
            Verdict::Unsupported(c) => format!("not supported by the C backend: {c}"),
            Verdict::TooLong => "skipped: over the interpreter's step budget".into(),
            Verdict::Mismatch(p, d, _) => {
                format!("BUG: mismatch, {}: {}", p.describe(), d.describe())
            }
            Verdict::InvalidC(_) => "BUG: invalid C".into(),
            Verdict::Ice(_) => "BUG: internal compiler error".into(),
            Verdict::Panic(_) => "BUG: panic".into(),
            Verdict::Sanitizer(_) => "BUG: sanitizer report".into(),
            Verdict::Crash(_) => "BUG: crash or time limit".into(),
        }
    }
    /// The group of the category (the totals of the report): every leg agrees,
    /// the checker rejected the program, the C backend rejected it (E0801),
    /// skipped, or a bug.
    pub fn group(&self) -> &'static str {
        match self {
            Verdict::AgreeValue => "agree (value)",
            Verdict::AgreeError(_) => "agree (error: same kind, same location)",
            Verdict::Reassociated => "agree (within tolerance)",
            Verdict::Rejected(_) => "rejected by the checker",
            Verdict::Unsupported(_) => "rejected by the C backend (E0801)",
            Verdict::TooLong => "skipped",
            Verdict::Mismatch(_, Difference::ErrorLocation, _) => {
                "BUG: error kinds agree, locations differ"
            }
            Verdict::Mismatch(..) => "BUG: disagree (value, value vs error, error kind)",
            _ => "BUG: other (invalid C, ICE, panic, sanitizer, crash)",
        }
    }
    pub fn detail(&self) -> &str {
        match self {
            Verdict::Mismatch(_, _, d)
            | Verdict::InvalidC(d)
            | Verdict::Ice(d)
            | Verdict::Panic(d)
            | Verdict::Sanitizer(d)
            | Verdict::Crash(d) => d,
            _ => "",
        }
    }
    /// Same kind of bug (for shrinking): a mismatch stays one of the same
    /// pair of legs and the same difference (a location mismatch shrinks to a
    /// location mismatch, not to any mismatch).
    pub fn same_bug(&self, other: &Verdict) -> bool {
        match (self, other) {
            (Verdict::Mismatch(p, d, _), Verdict::Mismatch(q, e, _)) => p == q && d == e,
            _ => std::mem::discriminant(self) == std::mem::discriminant(other),
        }
    }
}

/// The two legs of a mismatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pair {
    /// The unoptimized and the optimized interpreter (an optimizer bug, or
    /// one in the interpreter's shape rules).
    Optimizer,
    /// The optimized interpreter and compiled C (at `-O0` or `-O3`, with or
    /// without sanitizers).
    Backend,
}

impl Pair {
    pub fn describe(self) -> &'static str {
        match self {
            Pair::Optimizer => "interpreter vs optimized interpreter",
            Pair::Backend => "interpreter vs C",
        }
    }
}

fn panic_text(p: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic".into()
    }
}

fn first_code(rendered: &str) -> String {
    // `error[E0301]: ...` → `E0301: ...` (first line, shortened)
    let line = rendered
        .lines()
        .find(|l| l.contains("error["))
        .unwrap_or("");
    let code: String = line
        .split("error[")
        .nth(1)
        .unwrap_or("")
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    if code.is_empty() { "?".into() } else { code }
}

/// What an E0801 message says is unsupported, as a category: its gist (the
/// message up to its first `: `), with the generated program's own names
/// (`p123_main`, `x7`, `a2`) made generic, so that one kind of rejection is
/// counted once.
fn construct(rendered: &str) -> String {
    let line = rendered
        .lines()
        .find(|l| l.contains("E0801") || l.contains("error"))
        .unwrap_or(rendered);
    let gist = line.split("]: ").nth(1).unwrap_or(line);
    let gist = gist.split(": ").next().unwrap_or(gist);
    let mut out = String::new();
    for (k, part) in gist.split('`').enumerate() {
        if k % 2 == 0 {
            out.push_str(part);
            continue;
        }
        let generated = |n: &str| {
            let mut cs = n.chars();
            cs.next().is_some_and(|c| c.is_ascii_lowercase())
                && n.len() > 1
                && cs.all(|c| c.is_ascii_digit())
        };
        let name = match part.split_once('_') {
            Some((p, rest)) if generated(p) => rest,
            _ => part,
        };
        out.push('`');
        out.push_str(if generated(name) { "x" } else { name });
        out.push('`');
    }
    out.chars().take(120).collect()
}

#[cfg(test)]
mod construct_tests {
    #[test]
    fn categories_are_generic() {
        let m = "f.weir:3:5: error[E0801]: the result shape of `p12_main` depends on `x7` (marked), a value computed inside it";
        assert_eq!(
            super::construct(m),
            "the result shape of `main` depends on `x` (marked), a value computed inside it"
        );
        let m = "f.weir:3:5: error[E0801]: a `scan` whose elements are tuples of arrays and scalars is not supported";
        assert_eq!(
            super::construct(m),
            "a `scan` whose elements are tuples of arrays and scalars is not supported"
        );
    }
}

/// The front end on one program: compiled, or the verdict that ends it.
fn front(p: &GenProgram, name: &str) -> Result<Compiled, Verdict> {
    match catch_unwind(AssertUnwindSafe(|| {
        weir_driver::compile_source(name, &p.source)
    })) {
        Err(e) => Err(Verdict::Panic(format!("front end: {}", panic_text(e)))),
        Ok(Err(LoadError::Io(m))) => {
            if m.contains("internal") {
                Err(Verdict::Ice(m))
            } else {
                Err(Verdict::Rejected(m.chars().take(60).collect()))
            }
        }
        Ok(Err(e @ LoadError::Diagnostics(..))) => {
            let r = e.render(false);
            if r.contains("internal") {
                Err(Verdict::Ice(r))
            } else {
                Err(Verdict::Rejected(first_code(&r)))
            }
        }
        Ok(Ok(c)) => Ok(c),
    }
}

/// The two interpreter legs on each input (`None`: the inputs did not parse,
/// a generator miss).
fn interp_legs(c: &Compiled, entry: &str, inputs: &[String]) -> Result<Vec<[Outcome; 2]>, Verdict> {
    let Some(d) = c.program.find(entry) else {
        return Err(Verdict::Ice(format!("entry `{entry}` is missing")));
    };
    let mut out = vec![];
    for text in inputs {
        let args = weir_interp::parse_values(text, &d.params).map_err(|e| {
            Verdict::Rejected(format!(
                "input: {}",
                e.message.chars().take(50).collect::<String>()
            ))
        })?;
        let legs = catch_unwind(AssertUnwindSafe(|| {
            let run = |p: &weir_ir::Program, args: Vec<Value>| match Interp::new(p)
                .with_fuel(FUEL)
                .call(entry, args)
            {
                Ok(v) => Ok(Outcome::Value(v)),
                Err(e) if e.message.contains("step limit") => Err(Verdict::TooLong),
                Err(e) => Ok(oracle::interp_outcome(c, &e)),
            };
            Ok::<_, Verdict>([run(&c.program, args.clone())?, run(&c.optimized, args)?])
        }))
        .map_err(|e| Verdict::Panic(format!("interpreter: {}", panic_text(e))))??;
        out.push(legs);
    }
    Ok(out)
}

/// The compiled legs of a campaign: (name, optimization level, sanitized).
fn c_leg_kinds(cfg: &Config) -> Vec<(&'static str, &'static str, bool)> {
    if cfg.sanitize_also {
        vec![
            ("C -O0", "-O0", false),
            ("C -O3", "-O3", false),
            ("C -O0 sanitized", "-O0", true),
            ("C -O3 sanitized", "-O3", true),
        ]
    } else {
        vec![
            ("C -O0", "-O0", cfg.sanitize),
            ("C -O3", "-O3", cfg.sanitize),
        ]
    }
}

/// Build options of one C leg.
fn build_opts(cfg: &Config, opt: &str, sanitize: bool) -> BuildOptions {
    let mut o = BuildOptions {
        opt_flags: if opt == "-O0" {
            vec!["-O0".into()]
        } else {
            vec!["-O3".into(), "-march=native".into()]
        },
        extra_flags: vec!["-Wall".into(), "-Wextra".into(), "-Werror".into()],
        cc: cfg.cc.clone(),
        ..BuildOptions::default()
    };
    if sanitize {
        o.extra_flags.extend(
            [
                "-fsanitize=address,undefined",
                "-fno-sanitize-recover=all",
                "-fno-omit-frame-pointer",
            ]
            .iter()
            .map(|s| s.to_string()),
        );
    }
    o
}

/// Compile C to an executable in the work directory (no cache: a campaign
/// would fill it).
fn build_exe(src: &str, opts: &BuildOptions, dir: &Path, stem: &str) -> Result<PathBuf, String> {
    let cc = opts.cc.clone().unwrap_or_else(|| "cc".into());
    let c_path = dir.join(format!("{stem}.c"));
    let exe = dir.join(stem);
    std::fs::write(&c_path, src).map_err(|e| format!("cannot write {}: {e}", c_path.display()))?;
    let out = Command::new(&cc)
        .args(native::cc_flags(opts))
        .arg("-o")
        .arg(&exe)
        .arg(&c_path)
        .arg("-lm")
        .output()
        .map_err(|e| format!("cannot run {cc}: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr)
            .chars()
            .take(4000)
            .collect());
    }
    let _ = std::fs::remove_file(&c_path);
    Ok(exe)
}

/// What a finished run left: its exit code (`None`: killed by a signal),
/// stdout and stderr.
type Finished = (Option<i32>, Vec<u8>, String);

/// Run an executable on encoded input with a time limit (`None` on a timeout).
fn run_with_limit(
    exe: &Path,
    entry: &str,
    input: &[u8],
    limit: Duration,
) -> Result<Option<Finished>, String> {
    let mut child = Command::new(exe)
        .arg("-e")
        .arg(entry)
        .arg("--raw")
        // an allocation too large for memory must come back as NULL (the
        // runtime reports it), not as an ASan report
        .env(
            "ASAN_OPTIONS",
            "detect_leaks=0:abort_on_error=0:allocator_may_return_null=1",
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if let Some(mut s) = child.stdin.take() {
        let _ = s.write_all(input);
    }
    let mut so = child.stdout.take();
    let mut se = child.stderr.take();
    let t_out = std::thread::spawn(move || {
        let mut b = vec![];
        if let Some(s) = so.as_mut() {
            let _ = s.read_to_end(&mut b);
        }
        b
    });
    let t_err = std::thread::spawn(move || {
        let mut b = vec![];
        if let Some(s) = se.as_mut() {
            let _ = s.read_to_end(&mut b);
        }
        b
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(format!("waiting for {}: {e}", exe.display())),
        }
    };
    let out = t_out.join().unwrap_or_default();
    let err = String::from_utf8_lossy(&t_err.join().unwrap_or_default()).to_string();
    Ok(status.map(|s| (s.code(), out, err)))
}

/// One compiled leg on one input.
fn c_leg(
    exe: &Path,
    d: &weir_ir::FunDef,
    args: &[Value],
    cfg: &Config,
    line_offset: usize,
) -> Result<Outcome, Verdict> {
    let input = native::encode_args(d, args).map_err(|e| Verdict::Ice(format!("encode: {e}")))?;
    let r = run_with_limit(exe, &d.name, &input, cfg.timeout).map_err(Verdict::Crash)?;
    let Some((code, out, err)) = r else {
        return Err(Verdict::Crash(format!(
            "the compiled program exceeded the time limit of {:?}",
            cfg.timeout
        )));
    };
    // ASan's warning that it refused a huge allocation (the program then reports
    // out of memory itself, which the oracle compares) is not a memory error.
    let reports: String = err
        .lines()
        .filter(|l| !l.contains("WARNING: AddressSanitizer failed to allocate"))
        .collect::<Vec<_>>()
        .join("\n");
    if reports.contains("AddressSanitizer")
        || reports.contains("runtime error:")
        || reports.contains("LeakSanitizer")
    {
        return Err(Verdict::Sanitizer(err.chars().take(3000).collect()));
    }
    match code {
        Some(0) => native::decode_result(d, &out)
            .map(Outcome::Value)
            .map_err(|e| Verdict::Ice(format!("decoding the compiled result: {e}"))),
        Some(_) => {
            let msg = err
                .lines()
                .find_map(|l| l.strip_prefix("error: "))
                .map(|s| s.to_string());
            match msg {
                Some(m) => {
                    let mut o = oracle::c_outcome(&m);
                    if let Outcome::Error { loc, .. } = &mut o
                        && let Some((l, c)) = loc.split_once(':')
                        && let Ok(l) = l.parse::<usize>()
                    {
                        *loc = format!("{}:{c}", l.saturating_sub(line_offset));
                    }
                    Ok(o)
                }
                None => Err(Verdict::Crash(format!(
                    "exit code {code:?} without an error line: {}",
                    err.chars().take(2000).collect::<String>()
                ))),
            }
        }
        None => Err(Verdict::Crash(format!(
            "killed by a signal: {}",
            err.chars().take(2000).collect::<String>()
        ))),
    }
}

/// Compare the legs of one input: `legs[0]` is the unoptimized interpreter,
/// `legs[1]` the optimized one, the rest compiled C.
///
/// The rule of docs/language.md §6: optimization keeps every value and every
/// check (size, bounds, division, negative counts), so all legs compute the same
/// value bit for bit or fail with the same kind of error at the same source
/// location. The one exception is memory: an unused allocation too large for
/// memory may simply not be made, so where the unoptimized program runs out of
/// memory the optimized one may run on (to a value, or to a later check).
pub fn judge(legs: &[(&str, &Outcome)], reassoc: bool) -> Result<Verdict, Verdict> {
    let mut reassociated = false;
    let describe = |a: &str, b: &str| {
        let mut s = format!("{a} and {b} differ:\n");
        for (n, o) in legs {
            s.push_str(&format!("  {n}: {}\n", short(&o.to_string())));
        }
        s
    };
    let (n0, o0) = legs[0];
    if let Some((n1, o1)) = legs.get(1) {
        let rel = match (o0, o1) {
            // an unused allocation too large for memory is not made when
            // optimized: the program then runs on, to a value or a later check
            (
                Outcome::Error {
                    kind: ErrKind::Memory,
                    ..
                },
                _,
            ) => Relation::Same,
            // the interpreter does not reassociate: exact
            _ => oracle::relate(o0, o1, false),
        };
        if let Relation::Differ(d) = rel {
            return Err(Verdict::Mismatch(Pair::Optimizer, d, describe(n0, n1)));
        }
    }
    let (nb, ob) = legs.get(1).copied().unwrap_or(legs[0]);
    for (n, o) in legs.iter().skip(2) {
        match oracle::relate(ob, o, reassoc) {
            Relation::Same => {}
            Relation::Reassociated => reassociated = true,
            Relation::Differ(d) => {
                return Err(Verdict::Mismatch(Pair::Backend, d, describe(nb, n)));
            }
        }
    }
    Ok(if reassociated {
        Verdict::Reassociated
    } else {
        match (o0, ob) {
            (Outcome::Value(_), _) => Verdict::AgreeValue,
            (Outcome::Error { kind: k0, .. }, Outcome::Error { kind: k1, .. }) if k0 != k1 => {
                Verdict::AgreeError(
                    "memory unoptimized; unused allocation not made when optimized".into(),
                )
            }
            (Outcome::Error { .. }, Outcome::Value(_)) => Verdict::AgreeError(
                "memory unoptimized; unused allocation not made when optimized".into(),
            ),
            (Outcome::Error { kind, .. }, _) => Verdict::AgreeError(kind_name(*kind).into()),
        }
    })
}

fn kind_name(k: ErrKind) -> &'static str {
    match k {
        ErrKind::Index => "index",
        ErrKind::Size => "size",
        ErrKind::Division => "division",
        ErrKind::NegativeSize => "negative size",
        ErrKind::Invalid => "invalid argument",
        ErrKind::Memory => "memory",
        ErrKind::Other => "other",
    }
}

fn short(s: &str) -> String {
    if s.chars().count() > 300 {
        format!("{}…", s.chars().take(300).collect::<String>())
    } else {
        s.to_string()
    }
}

/// The worst of several verdicts (a bug beats an agreement).
fn worst(vs: Vec<Verdict>) -> Verdict {
    let mut best: Option<Verdict> = None;
    for v in vs {
        let rank = |v: &Verdict| match v {
            _ if v.is_bug() => 3,
            Verdict::Reassociated => 2,
            Verdict::AgreeError(_) => 1,
            _ => 0,
        };
        if best.as_ref().is_none_or(|b| rank(&v) > rank(b)) {
            best = Some(v);
        }
    }
    best.unwrap_or(Verdict::AgreeValue)
}

/// A program that passed the front end, waiting for its C legs.
struct Pending {
    index: usize,
    interp: Vec<[Outcome; 2]>,
    /// Verdict of the interpreter legs alone (unsupported in C, or agreement).
    reassoc: bool,
}

/// Check one program on its own (used for shrinking and reproducing).
pub fn check_one(p: &GenProgram, cfg: &Config) -> Verdict {
    check_batch(std::slice::from_ref(p), cfg, "one")
        .pop()
        .unwrap_or(Verdict::AgreeValue)
}

/// Check programs whose names are distinct (each generated with its own
/// prefix): per program the front end and the interpreter legs, then one C file
/// for all the programs the C backend accepts, built at -O0 and -O3.
pub fn check_batch(progs: &[GenProgram], cfg: &Config, stem: &str) -> Vec<Verdict> {
    let mut verdicts: Vec<Option<Verdict>> = vec![None; progs.len()];
    let mut pending: Vec<Pending> = vec![];
    for (k, p) in progs.iter().enumerate() {
        let c = match front(p, "prog.weir") {
            Ok(c) => c,
            Err(v) => {
                verdicts[k] = Some(v);
                continue;
            }
        };
        let interp = match interp_legs(&c, &p.entry, &p.inputs) {
            Ok(i) => i,
            Err(v) => {
                verdicts[k] = Some(v);
                continue;
            }
        };
        let reassoc = oracle::reassociable(&p.source);
        // the two interpreter legs first
        let mut vs = vec![];
        for [a, b] in &interp {
            vs.push(
                judge(&[("interpreter", a), ("optimized interpreter", b)], reassoc)
                    .unwrap_or_else(|e| e),
            );
        }
        let iv = worst(vs);
        if iv.is_bug() || !cfg.c {
            verdicts[k] = Some(iv);
            continue;
        }
        // does the C backend take it?
        let src = catch_unwind(AssertUnwindSafe(|| {
            native::c_source(&c, &BuildOptions::default(), true)
        }));
        match src {
            Err(e) => verdicts[k] = Some(Verdict::Panic(format!("C backend: {}", panic_text(e)))),
            Ok(Err(NativeError::Backend(m))) => {
                verdicts[k] = Some(if m.contains("internal") {
                    Verdict::Ice(m)
                } else {
                    Verdict::Unsupported(construct(&m))
                })
            }
            Ok(Err(e)) => verdicts[k] = Some(Verdict::Ice(e.to_string())),
            Ok(Ok(_)) => pending.push(Pending {
                index: k,
                interp,
                reassoc,
            }),
        }
    }
    if !pending.is_empty() {
        run_c_legs(progs, &pending, cfg, stem, &mut verdicts);
    }
    verdicts
        .into_iter()
        .map(|v| v.unwrap_or_else(|| Verdict::Ice("no verdict".into())))
        .collect()
}

fn run_c_legs(
    progs: &[GenProgram],
    pending: &[Pending],
    cfg: &Config,
    stem: &str,
    verdicts: &mut [Option<Verdict>],
) {
    // one file: the programs one after another, with their line offsets
    let mut text = String::new();
    let mut offsets = vec![];
    for p in pending {
        offsets.push(text.matches('\n').count());
        text.push_str(&progs[p.index].source);
        text.push('\n');
    }
    let batch = GenProgram {
        source: text,
        entry: String::new(),
        inputs: vec![],
    };
    let c = match front(&batch, "prog.weir") {
        Ok(c) => c,
        Err(v) if pending.len() == 1 => {
            verdicts[pending[0].index] = Some(v);
            return;
        }
        Err(_) => return split_batch(progs, pending, cfg, stem, verdicts),
    };
    let mut exes = vec![];
    for (leg, opt, sanitize) in c_leg_kinds(cfg) {
        let opts = build_opts(cfg, opt, sanitize);
        let src = match catch_unwind(AssertUnwindSafe(|| native::c_source(&c, &opts, true))) {
            Ok(Ok(s)) => s,
            Ok(Err(e)) if pending.len() == 1 => {
                verdicts[pending[0].index] =
                    Some(Verdict::Ice(format!("C backend on its own: {e}")));
                return;
            }
            Err(e) if pending.len() == 1 => {
                verdicts[pending[0].index] =
                    Some(Verdict::Panic(format!("C backend: {}", panic_text(e))));
                return;
            }
            _ => return split_batch(progs, pending, cfg, stem, verdicts),
        };
        let name = format!(
            "{stem}{}{}",
            opt.trim_start_matches('-'),
            if sanitize { "san" } else { "" }
        );
        match build_exe(&src, &opts, &cfg.work_dir, &name) {
            Ok(e) => exes.push((leg, e)),
            Err(msg) if pending.len() == 1 => {
                verdicts[pending[0].index] = Some(Verdict::InvalidC(format!("{leg}: {msg}")));
                return;
            }
            Err(_) => return split_batch(progs, pending, cfg, stem, verdicts),
        }
    }
    for (p, off) in pending.iter().zip(offsets) {
        let prog = &progs[p.index];
        let Some(d) = c.program.find(&prog.entry) else {
            verdicts[p.index] = Some(Verdict::Ice(format!("entry `{}` is missing", prog.entry)));
            continue;
        };
        let mut vs = vec![];
        for (text, [a, b]) in prog.inputs.iter().zip(&p.interp) {
            let args = match weir_interp::parse_values(text, &d.params) {
                Ok(a) => a,
                Err(e) => {
                    vs.push(Verdict::Rejected(format!("input: {}", e.message)));
                    continue;
                }
            };
            let mut legs: Vec<(&str, Outcome)> = vec![
                ("interpreter", a.clone()),
                ("optimized interpreter", b.clone()),
            ];
            let mut failed = None;
            for (leg, exe) in &exes {
                match c_leg(exe, d, &args, cfg, off) {
                    Ok(o) => legs.push((leg, o)),
                    Err(v) => {
                        failed = Some(v);
                        break;
                    }
                }
            }
            if let Some(v) = failed {
                vs.push(v);
                continue;
            }
            let refs: Vec<(&str, &Outcome)> = legs.iter().map(|(n, o)| (*n, o)).collect();
            vs.push(judge(&refs, p.reassoc).unwrap_or_else(|e| e));
        }
        verdicts[p.index] = Some(worst(vs));
    }
    for (_, e) in exes {
        let _ = std::fs::remove_file(e);
    }
}

/// A batch that failed as a whole: halves, down to single programs.
fn split_batch(
    progs: &[GenProgram],
    pending: &[Pending],
    cfg: &Config,
    stem: &str,
    verdicts: &mut [Option<Verdict>],
) {
    let mid = pending.len() / 2;
    let (a, b) = pending.split_at(mid.max(1));
    for (k, part) in [a, b].into_iter().enumerate() {
        if part.is_empty() {
            continue;
        }
        let part: Vec<Pending> = part
            .iter()
            .map(|p| Pending {
                index: p.index,
                interp: p.interp.clone(),
                reassoc: p.reassoc,
            })
            .collect();
        run_c_legs(progs, &part, cfg, &format!("{stem}_{k}"), verdicts);
    }
}

/// The choice tree of program `i` of a campaign with seed `seed`.
fn tree_for(seed: u64, i: u64) -> Option<impl ValueTree<Value = Vec<u32>>> {
    let mut bytes = [0u8; 32];
    let mut s = seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for chunk in bytes.chunks_mut(8) {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        chunk.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    let mut runner = TestRunner::new_with_rng(
        PtConfig::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &bytes),
    );
    generate::choices_strategy().new_tree(&mut runner).ok()
}

/// How program `i` of a campaign is generated (biased towards empty
/// dimensions or not, [`generate::set_empty_bias`]).
fn gen_options(i: u64) -> generate::GenOptions {
    generate::GenOptions {
        empty_bias: generate::empty_biased(i),
    }
}

/// Program `i` of a campaign (with the prefix `p{i}`).
pub fn program(seed: u64, i: u64) -> Option<GenProgram> {
    program_with(seed, i, gen_options(i))
}

/// Program `i` of a campaign generated with `opts` (whatever
/// [`generate::set_empty_bias`] says).
pub fn program_with(seed: u64, i: u64, opts: generate::GenOptions) -> Option<GenProgram> {
    tree_for(seed, i).map(|t| generate::generate_with(&t.current(), &format!("p{i}"), opts))
}

/// Shrink a failing program: proptest's simplify/complicate over its choice
/// sequence, keeping a candidate when it fails with the same kind of bug.
pub fn shrink(seed: u64, i: u64, bad: &Verdict, cfg: &Config) -> (GenProgram, Verdict) {
    let prefix = "p";
    let opts = gen_options(i);
    let Some(mut tree) = tree_for(seed, i) else {
        return (generate::generate_with(&[], prefix, opts), bad.clone());
    };
    let mut best = (
        generate::generate_with(&tree.current(), prefix, opts),
        bad.clone(),
    );
    let mut cfg = cfg.clone();
    cfg.work_dir = cfg.work_dir.join(format!("shrink{i}"));
    let _ = std::fs::create_dir_all(&cfg.work_dir);
    let mut steps = 0;
    if tree.simplify() {
        loop {
            steps += 1;
            let cand = generate::generate_with(&tree.current(), prefix, opts);
            let v = check_one(&cand, &cfg);
            let fails = v.same_bug(bad);
            if fails {
                best = (cand, v);
                if !tree.simplify() {
                    break;
                }
            } else if !tree.complicate() {
                break;
            }
            if steps >= cfg.shrink_steps {
                break;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&cfg.work_dir);
    best
}

/// A failure found by a campaign.
#[derive(Clone, Debug)]
pub struct Failure {
    pub index: u64,
    pub verdict: Verdict,
    /// The shrunk reproducer and what it does.
    pub shrunk: Option<(GenProgram, Verdict)>,
    pub original: GenProgram,
}

/// The result of a campaign.
#[derive(Debug, Default)]
pub struct Report {
    pub programs: u64,
    pub counts: BTreeMap<String, u64>,
    /// The counts by [`Verdict::group`].
    pub groups: BTreeMap<String, u64>,
    pub failures: Vec<Failure>,
    pub elapsed: Duration,
}

impl Report {
    pub fn bugs(&self) -> usize {
        self.failures.len()
    }
    /// The summary table and the reproducers.
    pub fn render(&self) -> String {
        let mut s = format!(
            "{} programs in {:.1} s\n",
            self.programs,
            self.elapsed.as_secs_f64()
        );
        for (k, n) in &self.counts {
            s.push_str(&format!("  {n:>8}  {k}\n"));
        }
        s.push_str("totals:\n");
        for (k, n) in &self.groups {
            s.push_str(&format!("  {n:>8}  {k}\n"));
        }
        for f in &self.failures {
            s.push_str(&format!(
                "\n=== program {} — {}\n{}\n",
                f.index,
                f.verdict.category(),
                f.verdict.detail()
            ));
            match &f.shrunk {
                Some((p, v)) => s.push_str(&format!(
                    "--- shrunk reproducer ({}):\n{}\n{}",
                    v.category(),
                    p.as_weir_file(),
                    v.detail()
                )),
                None => s.push_str(&format!("--- program:\n{}", f.original.as_weir_file())),
            }
        }
        s
    }
}

/// Run `count` programs from `seed` on `cfg.jobs` threads; `progress` is called
/// with the number of programs done.
pub fn campaign(seed: u64, count: u64, cfg: &Config, progress: &(dyn Fn(u64) + Sync)) -> Report {
    campaign_from(seed, 0, count, cfg, progress)
}

/// Programs `first .. first + count` of the seed (so a long campaign can run in
/// parts and every part reproduces on its own).
pub fn campaign_from(
    seed: u64,
    first: u64,
    count: u64,
    cfg: &Config,
    progress: &(dyn Fn(u64) + Sync),
) -> Report {
    let start = Instant::now();
    let mut cfg = cfg.clone();
    if cfg.c && cfg.cc.is_none() {
        // resolve `$CC`/`cc` once (the builds below would ask for every batch)
        if let Ok(cc) = native::find_cc(&BuildOptions::default()) {
            cfg.cc = Some(cc);
        }
    }
    let cfg = &cfg;
    let _ = std::fs::create_dir_all(&cfg.work_dir);
    let batch = cfg.batch.max(1) as u64;
    let nbatches = count.div_ceil(batch);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<(u64, Verdict, GenProgram)>> = Mutex::new(vec![]);
    let counts: Mutex<BTreeMap<String, u64>> = Mutex::new(BTreeMap::new());
    let groups: Mutex<BTreeMap<String, u64>> = Mutex::new(BTreeMap::new());
    std::thread::scope(|sc| {
        for t in 0..cfg.jobs.max(1) {
            let (next, done, results, counts, groups) = (&next, &done, &results, &counts, &groups);
            let b = std::thread::Builder::new().stack_size(256 << 20);
            let _ = b.spawn_scoped(sc, move || {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed) as u64;
                    if k >= nbatches {
                        break;
                    }
                    let lo = first + k * batch;
                    let hi = (lo + batch).min(first + count);
                    let progs: Vec<GenProgram> =
                        (lo..hi).filter_map(|i| program(seed, i)).collect();
                    // (which programs are in flight: if the process dies, a
                    // compiler crash that no `catch_unwind` sees, such as a
                    // stack overflow, the marker is left to name them)
                    let mark = cfg.work_dir.join(format!("inflight-t{t}"));
                    let _ = std::fs::write(
                        &mark,
                        format!("seed {seed}, programs {lo} to {}\n", hi - 1),
                    );
                    let vs = check_batch(&progs, cfg, &format!("t{t}b{k}"));
                    let _ = std::fs::remove_file(&mark);
                    if let Ok(mut c) = counts.lock() {
                        for v in &vs {
                            *c.entry(v.category()).or_default() += 1;
                        }
                    }
                    if let Ok(mut g) = groups.lock() {
                        for v in &vs {
                            *g.entry(v.group().to_string()).or_default() += 1;
                        }
                    }
                    for (i, (v, p)) in (lo..hi).zip(vs.into_iter().zip(progs)) {
                        if v.is_bug()
                            && let Ok(mut r) = results.lock()
                        {
                            r.push((i, v, p));
                        }
                    }
                    let n =
                        done.fetch_add((hi - lo) as usize, Ordering::Relaxed) + (hi - lo) as usize;
                    progress(n as u64);
                }
            });
        }
    });
    let mut found = results.into_inner().unwrap_or_default();
    found.sort_by_key(|f| f.0);
    // shrink the first failure of each category (the others are listed as found)
    let mut per_cat: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = vec![];
    for (i, v, p) in found {
        let n = per_cat.entry(v.category()).or_default();
        *n += 1;
        let shrunk = if *n <= 1 && cfg.shrink_steps > 0 {
            Some(shrink(seed, i, &v, cfg))
        } else {
            None
        };
        failures.push(Failure {
            index: i,
            verdict: v,
            shrunk,
            original: p,
        });
    }
    let _ = std::fs::remove_dir_all(&cfg.work_dir);
    Report {
        programs: count,
        counts: counts.into_inner().unwrap_or_default(),
        groups: groups.into_inner().unwrap_or_default(),
        failures,
        elapsed: start.elapsed(),
    }
}
