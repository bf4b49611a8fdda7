//! Mutant campaigns (issue 46): the example and regression programs edited
//! at random, token by token, and each mutant put through the compiler as
//! `weir c` runs it (front end, optimizer, DPS, C generation; no C
//! compiler), to find inputs that hang it, crash it or exhaust its memory.
//!
//! A mutant is one to three edits of one source file: a token deleted,
//! duplicated or swapped, a line deleted, duplicated or swapped, an integer
//! literal replaced by 0, 1, -1 or a huge value, an identifier by another of
//! the file's, an operator by another, a definition's body duplicated, an
//! atom nested k times (parentheses, brackets, negations, sums, calls).
//! Mutant `i` of seed `s` is always the same text ([`mutant`]).
//!
//! The mutants run in worker processes (`weir fuzz --mutant-worker`, each
//! under `ulimit -v`, the memory limit), many per process: a worker reads
//! mutants on its stdin and says on its stdout when each starts and how it
//! ended. The parent waits for each at most the time limit; a worker that
//! dies or overruns is replaced, and the mutant it was running is classed
//! by how it ended ([`Class`]). Every mutant that is not ok or a clean
//! error is saved to the output directory with a line saying what it is.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How a mutant's compilation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// C generated.
    Ok,
    /// Rejected with a diagnostic (parse, type, size, backend error).
    Diagnostic,
    /// Rejected with an internal compiler error (a verifier failure or an
    /// "internal error" message): a bug, but a clean one.
    Internal,
    /// The compiler panicked.
    Panic,
    /// The worker died of a signal or exited abnormally (a stack overflow,
    /// an abort).
    Crash,
    /// Over the time limit.
    Timeout,
    /// Over the memory limit (an allocation failed).
    Memory,
}

impl Class {
    pub const ALL: [Class; 7] = [
        Class::Ok,
        Class::Diagnostic,
        Class::Internal,
        Class::Panic,
        Class::Crash,
        Class::Timeout,
        Class::Memory,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Class::Ok => "ok",
            Class::Diagnostic => "clean error",
            Class::Internal => "internal error",
            Class::Panic => "panic",
            Class::Crash => "crash",
            Class::Timeout => "timeout",
            Class::Memory => "memory blow-up",
        }
    }

    /// Worth saving and reporting.
    pub fn bad(self) -> bool {
        !matches!(self, Class::Ok | Class::Diagnostic)
    }

    fn tag(self) -> &'static str {
        match self {
            Class::Ok => "ok",
            Class::Diagnostic => "diag",
            Class::Internal => "ice",
            Class::Panic => "panic",
            Class::Crash => "crash",
            Class::Timeout => "timeout",
            Class::Memory => "memory",
        }
    }

    fn from_tag(s: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.tag() == s)
    }
}

/// How a mutant campaign runs.
#[derive(Clone, Debug)]
pub struct MutantConfig {
    /// Folders (searched recursively) and files of `.weir` programs.
    pub dirs: Vec<PathBuf>,
    pub count: u64,
    pub seed: u64,
    /// The index of the first mutant.
    pub first: u64,
    /// Worker processes at a time.
    pub jobs: usize,
    /// The most one mutant may take.
    pub time_limit: Duration,
    /// The address space of a worker, in MiB (`ulimit -v`).
    pub mem_limit_mb: u64,
    /// Where the bad mutants are saved.
    pub out: PathBuf,
    /// The `weir` executable (its `fuzz --mutant-worker`).
    pub exe: PathBuf,
    /// Mutants a worker is sent before it is replaced by a fresh one (a
    /// leak cannot build up).
    pub per_worker: u64,
}

/// A bad mutant.
#[derive(Clone, Debug)]
pub struct Bad {
    pub index: u64,
    pub class: Class,
    /// The file it was made from.
    pub source: PathBuf,
    /// The edits.
    pub edits: String,
    /// What the compiler said (the panic message, the signal, the last
    /// lines of its stderr).
    pub detail: String,
    /// Where it was saved.
    pub saved: Option<PathBuf>,
    pub took: Duration,
}

/// The outcome of a campaign.
#[derive(Debug, Default)]
pub struct MutantReport {
    pub files: usize,
    pub mutants: u64,
    pub counts: BTreeMap<Class, u64>,
    pub bad: Vec<Bad>,
    pub elapsed: Duration,
    /// The slowest mutant that finished, and its time.
    pub slowest: Option<(u64, Duration)>,
}

impl MutantReport {
    pub fn bugs(&self) -> u64 {
        self.counts
            .iter()
            .filter(|(c, _)| c.bad())
            .map(|(_, n)| n)
            .sum()
    }

    pub fn render(&self) -> String {
        let mut s = format!(
            "{} mutants of {} files in {:.1} s\n",
            self.mutants,
            self.files,
            self.elapsed.as_secs_f64()
        );
        for c in Class::ALL {
            s.push_str(&format!(
                "  {:<15} {}\n",
                c.name(),
                self.counts.get(&c).copied().unwrap_or(0)
            ));
        }
        if let Some((i, t)) = self.slowest {
            s.push_str(&format!(
                "  slowest finished: mutant {i}, {:.2} s\n",
                t.as_secs_f64()
            ));
        }
        for b in &self.bad {
            s.push_str(&format!(
                "{} mutant {} of {} ({}){}: {}\n",
                b.class.name(),
                b.index,
                b.source.display(),
                b.edits,
                b.saved
                    .as_ref()
                    .map(|p| format!(", saved as {}", p.display()))
                    .unwrap_or_default(),
                b.detail.lines().next().unwrap_or("")
            ));
        }
        s
    }
}

// ------------------------------------------------------------ sources

/// The `.weir` files under `dirs` (files named directly are taken as they
/// are), sorted, with their text; unreadable ones are skipped.
pub fn sources(dirs: &[PathBuf]) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    for d in dirs {
        collect(d, &mut files, 0);
    }
    files.sort();
    files.dedup();
    files
        .into_iter()
        .filter_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
        .collect()
}

fn collect(p: &Path, out: &mut Vec<PathBuf>, depth: usize) {
    if depth > 32 {
        return;
    }
    if p.is_dir() {
        let Ok(rd) = std::fs::read_dir(p) else {
            return;
        };
        for e in rd.flatten() {
            collect(&e.path(), out, depth + 1);
        }
    } else if p.extension().is_some_and(|e| e == "weir") {
        out.push(p.to_path_buf());
    }
}

// ------------------------------------------------------------ mutation

/// SplitMix64: mutant `i` of seed `s` is always the same.
struct Rng(u64);

impl Rng {
    fn new(seed: u64, index: u64) -> Rng {
        let mut r = Rng(seed ^ 0x9e37_79b9_7f4a_7c15);
        r.next();
        r.0 ^= index.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        r.next();
        r
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> Option<&'a T> {
        if xs.is_empty() {
            None
        } else {
            xs.get(self.below(xs.len()))
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Spaces, newlines and comments.
    Space,
    Ident,
    Int,
    Float,
    Str,
    Op,
    /// Brackets, commas and other single characters.
    Punct,
}

#[derive(Clone, Debug)]
struct Tok {
    kind: Kind,
    text: String,
}

fn tokenize(s: &str) -> Vec<Tok> {
    let cs: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let is_op = |c: char| "+-*/%<>=!&|^~.:@$?\\".contains(c);
    while i < cs.len() {
        let c = cs[i];
        let start = i;
        let kind = if c.is_whitespace() {
            while i < cs.len() && cs[i].is_whitespace() {
                i += 1;
            }
            Kind::Space
        } else if c == '-' && cs.get(i + 1) == Some(&'-') {
            while i < cs.len() && cs[i] != '\n' {
                i += 1;
            }
            Kind::Space
        } else if c.is_ascii_alphabetic() || c == '_' {
            while i < cs.len() && (cs[i].is_ascii_alphanumeric() || cs[i] == '_' || cs[i] == '\'') {
                i += 1;
            }
            Kind::Ident
        } else if c.is_ascii_digit() {
            let mut float = false;
            while i < cs.len() {
                let d = cs[i];
                if d.is_ascii_alphanumeric() || d == '_' {
                    i += 1;
                } else if d == '.' && cs.get(i + 1).is_some_and(|x| x.is_ascii_digit()) {
                    float = true;
                    i += 1;
                } else if (d == '+' || d == '-')
                    && matches!(cs.get(i - 1), Some('e' | 'E'))
                    && float
                {
                    i += 1;
                } else {
                    break;
                }
            }
            if float { Kind::Float } else { Kind::Int }
        } else if c == '"' {
            i += 1;
            while i < cs.len() && cs[i] != '"' && cs[i] != '\n' {
                i += 1;
            }
            i = (i + 1).min(cs.len());
            Kind::Str
        } else if is_op(c) {
            while i < cs.len() && is_op(cs[i]) && !(cs[i] == '-' && cs.get(i + 1) == Some(&'-')) {
                i += 1;
            }
            Kind::Op
        } else {
            i += 1;
            Kind::Punct
        };
        out.push(Tok {
            kind,
            text: cs[start..i].iter().collect(),
        });
    }
    out
}

fn untokenize(ts: &[Tok]) -> String {
    ts.iter().map(|t| t.text.as_str()).collect()
}

const HUGE: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "255",
    "256",
    "65536",
    "2147483647",
    "2147483648",
    "4294967296",
    "1000000000",
    "1000000000000",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999999",
    "0x7fffffffffffffff",
];

const OPS: &[&str] = &[
    "+", "-", "*", "/", "%", "**", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "++", "<<", ">>",
    "&", "|", "^", "|>", ">->", "<-<", "\\", "->", "=", ":", ".", "..", "!",
];

const NEST_DEPTHS: &[usize] = &[2, 8, 50, 200, 399, 401, 1000, 5000];

/// Mutant `index` of `seed`: which source it comes from, its text and its
/// edits in words. `None` where there is no source.
pub fn mutant(
    sources: &[(PathBuf, String)],
    seed: u64,
    index: u64,
) -> Option<(usize, String, String)> {
    if sources.is_empty() {
        return None;
    }
    let mut r = Rng::new(seed, index);
    let si = r.below(sources.len());
    let mut text = sources[si].1.clone();
    let n = 1 + r.below(3);
    let mut edits = Vec::new();
    for _ in 0..n {
        let (t, e) = edit(&text, &mut r);
        text = t;
        edits.push(e);
    }
    Some((si, text, edits.join("; ")))
}

/// One random edit of `text`.
fn edit(text: &str, r: &mut Rng) -> (String, String) {
    let mut ts = tokenize(text);
    let solid: Vec<usize> = (0..ts.len())
        .filter(|&i| ts[i].kind != Kind::Space)
        .collect();
    let of_kind = |ts: &[Tok], k: Kind| -> Vec<usize> {
        (0..ts.len()).filter(|&i| ts[i].kind == k).collect()
    };
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let op = r.below(13);
    match op {
        0 => {
            if let Some(&i) = r.pick(&solid) {
                let t = ts.remove(i);
                return (untokenize(&ts), format!("delete token `{}`", t.text));
            }
        }
        1 => {
            if let Some(&i) = r.pick(&solid) {
                let t = ts[i].clone();
                ts.insert(
                    i,
                    Tok {
                        kind: Kind::Space,
                        text: " ".into(),
                    },
                );
                ts.insert(i, t.clone());
                return (untokenize(&ts), format!("duplicate token `{}`", t.text));
            }
        }
        2 => {
            if solid.len() >= 2 {
                let k = r.below(solid.len() - 1);
                // adjacent, or anywhere
                let (a, b) = if r.below(2) == 0 {
                    (solid[k], solid[k + 1])
                } else {
                    (solid[k], solid[r.below(solid.len())])
                };
                let what = format!("swap `{}` and `{}`", ts[a].text, ts[b].text);
                ts.swap(a, b);
                return (untokenize(&ts), what);
            }
        }
        3 if !lines.is_empty() => {
            let k = r.below(lines.len());
            let mut ls = lines.clone();
            ls.remove(k);
            return (ls.concat(), format!("delete line {}", k + 1));
        }
        4 if !lines.is_empty() => {
            let k = r.below(lines.len());
            let mut ls: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            let mut l = ls[k].clone();
            if !l.ends_with('\n') {
                l.push('\n');
            }
            ls.insert(k, l);
            return (ls.concat(), format!("duplicate line {}", k + 1));
        }
        5 if lines.len() >= 2 => {
            let a = r.below(lines.len());
            let b = r.below(lines.len());
            let mut ls: Vec<String> = lines
                .iter()
                .map(|s| {
                    let mut s = s.to_string();
                    if !s.ends_with('\n') {
                        s.push('\n');
                    }
                    s
                })
                .collect();
            ls.swap(a, b);
            return (ls.concat(), format!("swap lines {} and {}", a + 1, b + 1));
        }
        6 | 7 => {
            let ints = of_kind(&ts, Kind::Int);
            if let Some(&i) = r.pick(&ints) {
                let v = HUGE[r.below(HUGE.len())];
                let what = format!("integer `{}` -> `{v}`", ts[i].text);
                ts[i].text = v.into();
                return (untokenize(&ts), what);
            }
        }
        8 => {
            let ids = of_kind(&ts, Kind::Ident);
            if let (Some(&i), Some(&j)) = (r.pick(&ids), r.pick(&ids)) {
                let what = format!("identifier `{}` -> `{}`", ts[i].text, ts[j].text);
                ts[i].text = ts[j].text.clone();
                return (untokenize(&ts), what);
            }
        }
        9 => {
            let ops = of_kind(&ts, Kind::Op);
            if let Some(&i) = r.pick(&ops) {
                let v = OPS[r.below(OPS.len())];
                let what = format!("operator `{}` -> `{v}`", ts[i].text);
                ts[i].text = v.into();
                return (untokenize(&ts), what);
            }
        }
        10 => {
            if let Some(t) = duplicate_body(&ts, r) {
                return t;
            }
        }
        _ => {
            let atoms: Vec<usize> = (0..ts.len())
                .filter(|&i| matches!(ts[i].kind, Kind::Ident | Kind::Int | Kind::Float))
                .collect();
            if let Some(&i) = r.pick(&atoms) {
                let k = NEST_DEPTHS[r.below(NEST_DEPTHS.len())];
                let a = ts[i].text.clone();
                let f = r
                    .pick(&of_kind(&ts, Kind::Ident))
                    .map(|&j| ts[j].text.clone())
                    .unwrap_or_else(|| "f".into());
                let (form, s) = match r.below(6) {
                    0 => (
                        "parentheses",
                        format!("{}{a}{}", "(".repeat(k), ")".repeat(k)),
                    ),
                    1 => ("brackets", format!("{}{a}{}", "[".repeat(k), "]".repeat(k))),
                    2 => ("negations", format!("{}{a}", "-".repeat(k))),
                    3 => (
                        "sums",
                        format!("{}{a}{}", format!("({a} + ").repeat(k), ")".repeat(k)),
                    ),
                    4 => (
                        "calls",
                        format!("{}{a}{}", format!("{f} (").repeat(k), ")".repeat(k)),
                    ),
                    _ => (
                        "lets",
                        format!(
                            "({}{a})",
                            (0..k)
                                .map(|n| format!("let q{n} = {a} in "))
                                .collect::<String>()
                        ),
                    ),
                };
                ts[i].text = s;
                return (untokenize(&ts), format!("`{a}` nested {k} times ({form})"));
            }
        }
    }
    // (nothing of that kind: delete a token instead)
    if let Some(&i) = r.pick(&solid) {
        let t = ts.remove(i);
        return (untokenize(&ts), format!("delete token `{}`", t.text));
    }
    (text.to_string(), "no edit".into())
}

/// A definition's body `e` made `(let dup = (e) in e)`: from the `=` of a
/// `def`/`entry` header to the next top-level `def`, `entry`, `test` or
/// `#[` (approximately: at the start of a line).
fn duplicate_body(ts: &[Tok], r: &mut Rng) -> Option<(String, String)> {
    let line_start =
        |i: usize| i == 0 || (ts[i - 1].kind == Kind::Space && ts[i - 1].text.ends_with('\n'));
    let heads: Vec<usize> = (0..ts.len())
        .filter(|&i| {
            ts[i].kind == Kind::Ident
                && (ts[i].text == "def" || ts[i].text == "entry")
                && line_start(i)
        })
        .collect();
    let &h = r.pick(&heads)?;
    let name = ts.get(h + 2).map(|t| t.text.clone()).unwrap_or_default();
    let mut depth = 0i64;
    let mut eq = None;
    for (i, t) in ts.iter().enumerate().skip(h + 1) {
        match t.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            "=" if depth == 0 => {
                eq = Some(i);
                break;
            }
            _ => {}
        }
    }
    let eq = eq?;
    let end = (eq + 1..ts.len())
        .find(|&i| {
            line_start(i)
                && (matches!(
                    ts[i].text.as_str(),
                    "def" | "entry" | "test" | "type" | "import"
                ) || ts[i].text == "#")
        })
        .unwrap_or(ts.len());
    // (trailing space stays after the body)
    let mut last = end;
    while last > eq + 1 && ts[last - 1].kind == Kind::Space {
        last -= 1;
    }
    let body = untokenize(&ts[eq + 1..last]);
    if body.trim().is_empty() {
        return None;
    }
    let mut out = untokenize(&ts[..=eq]);
    out.push_str(&format!(" (let dup_ = ({body}) in ({body}))"));
    out.push_str(&untokenize(&ts[last..]));
    Some((out, format!("body of `{name}` duplicated")))
}

// ------------------------------------------------------------ the worker

/// Mutants a test may plant (`WEIR_MUTANT_PLANT=hang:3,panic:5,...`): the
/// worker then behaves so at those indices instead of compiling, which is
/// how the classification is tested.
fn planted(index: u64) -> Option<String> {
    let v = std::env::var("WEIR_MUTANT_PLANT").ok()?;
    v.split(',').find_map(|kv| {
        let (k, i) = kv.split_once(':')?;
        (i.trim().parse::<u64>().ok()? == index).then(|| k.trim().to_string())
    })
}

fn act_planted(what: &str) {
    match what {
        "hang" => loop {
            std::thread::sleep(Duration::from_secs(1));
        },
        "panic" => panic!("planted panic"),
        "abort" => std::process::abort(),
        "oom" => {
            let mut v: Vec<Vec<u8>> = Vec::new();
            loop {
                v.push(vec![1u8; 64 << 20]);
            }
        }
        _ => {}
    }
}

/// Where the worker's last panic happened (set by its panic hook).
static PANIC_AT: Mutex<String> = Mutex::new(String::new());

/// Compile one mutant as `weir c` does (no C compiler): its class and what
/// the compiler said.
fn compile_one(name: &str, text: &str, dir: &Path) -> (Class, String) {
    use weir_driver::native::{BuildOptions, Entries, c_source_of};
    let c = match weir_driver::pipeline::compile_source_in(
        name,
        text,
        dir,
        weir_driver::pipeline::views(),
    ) {
        Ok(c) => c,
        Err(e) => {
            let m = e.render(false);
            return (classify_message(&m), first_line(&m));
        }
    };
    match c_source_of(&c, &BuildOptions::default(), true, Entries::Compilable) {
        Ok(_) => (Class::Ok, String::new()),
        Err(e) => {
            let m = e.to_string();
            (classify_message(&m), first_line(&m))
        }
    }
}

fn classify_message(m: &str) -> Class {
    if m.contains("internal compiler error") || m.contains("internal error") {
        Class::Internal
    } else {
        Class::Diagnostic
    }
}

/// The line of a message that says what is wrong (with the next one
/// where it ends in a colon, as an internal error's does).
fn first_line(m: &str) -> String {
    let ls: Vec<&str> = m.lines().collect();
    let k = ls.iter().position(|l| l.contains("error")).unwrap_or(0);
    let mut s = ls.get(k).copied().unwrap_or("").to_string();
    if s.trim_end().ends_with(':')
        && let Some(next) = ls.get(k + 1)
    {
        s.push(' ');
        s.push_str(next.trim());
    }
    s.chars().take(300).collect()
}

/// `weir fuzz --mutant-worker`: read mutants on stdin (`INDEX LEN DIR\n`
/// then LEN bytes of text; DIR, where its imports are read from, runs to
/// the end of the line), compile each, and say `S INDEX` before and
/// `R INDEX TAG DETAIL` after, one line each, on stdout. Returns at the end
/// of its input.
pub fn worker() {
    // (quiet, but where it panicked goes into the report)
    std::panic::set_hook(Box::new(|info| {
        if let Ok(mut at) = PANIC_AT.lock() {
            *at = info
                .location()
                .map(|l| format!(" at {}:{}", l.file(), l.line()))
                .unwrap_or_default();
        }
    }));
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let mut parts = line.trim_end_matches('\n').splitn(3, ' ');
        let (Some(i), Some(n), Some(dir)) = (parts.next(), parts.next(), parts.next()) else {
            return;
        };
        let (Ok(index), Ok(len)) = (i.parse::<u64>(), n.parse::<usize>()) else {
            return;
        };
        let mut buf = vec![0u8; len];
        if input.read_exact(&mut buf).is_err() {
            return;
        }
        let text = String::from_utf8_lossy(&buf).into_owned();
        {
            let mut o = stdout.lock();
            let _ = writeln!(o, "S {index}");
            let _ = o.flush();
        }
        let plant = planted(index);
        let dir = PathBuf::from(dir);
        let r = catch_unwind(AssertUnwindSafe(|| {
            if let Some(p) = &plant {
                act_planted(p);
            }
            compile_one(&format!("mutant{index}.weir"), &text, &dir)
        }));
        let (class, detail) = match r {
            Ok(x) => x,
            Err(p) => {
                let m = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "a panic".into());
                let at = PANIC_AT.lock().map(|a| a.clone()).unwrap_or_default();
                (Class::Panic, format!("{m}{at}"))
            }
        };
        let mut o = stdout.lock();
        let detail: String = detail.replace('\n', " ");
        let _ = writeln!(o, "R {index} {} {detail}", class.tag());
        let _ = o.flush();
    }
}

// ------------------------------------------------------------ the parent

/// A worker process and the lines it prints.
struct Worker {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: PathBuf,
    sent: u64,
}

impl Worker {
    fn start(cfg: &MutantConfig, slot: usize) -> Result<Worker, String> {
        let stderr = cfg.out.join(format!(".worker{slot}.stderr"));
        let err = std::fs::File::create(&stderr)
            .map_err(|e| format!("cannot create {}: {e}", stderr.display()))?;
        let kb = cfg.mem_limit_mb.saturating_mul(1024);
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v {kb} 2>/dev/null; exec \"$0\" fuzz --mutant-worker"
            ))
            .arg(&cfg.exe)
            .env("RUST_BACKTRACE", "0")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(err))
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", cfg.exe.display()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("the worker has no pipes".into());
        };
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Ok(Worker {
            child,
            stdin,
            lines: rx,
            stderr,
            sent: 0,
        })
    }

    fn stop(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// How the worker ended, after its output closed: the class and the
    /// end of its stderr.
    fn death(mut self) -> (Class, String) {
        let deadline = Instant::now() + Duration::from_secs(5);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => {
                    let _ = self.child.kill();
                    break self.child.wait().ok();
                }
            }
        };
        let err = std::fs::read_to_string(&self.stderr).unwrap_or_default();
        // (the line that says what happened, else the last ones)
        let telling = err.lines().find(|l| {
            l.contains("memory allocation of")
                || l.contains("overflowed its stack")
                || l.contains("panicked")
                || l.contains("out of memory")
        });
        let tail: String = err
            .lines()
            .rev()
            .take(3)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join(" | ");
        let how = match status {
            Some(s) => {
                use std::os::unix::process::ExitStatusExt;
                match s.signal() {
                    Some(sig) => format!("signal {sig}"),
                    None => format!("exit status {}", s.code().unwrap_or(-1)),
                }
            }
            None => "unknown end".into(),
        };
        let class = if err.contains("memory allocation of") || err.contains("out of memory") {
            Class::Memory
        } else {
            Class::Crash
        };
        (
            class,
            format!("{how}: {}", telling.map_or(tail, str::to_string)),
        )
    }
}

struct Shared<'a> {
    cfg: &'a MutantConfig,
    sources: &'a [(PathBuf, String)],
    next: AtomicU64,
    done: AtomicU64,
    report: Mutex<MutantReport>,
}

/// Run a campaign; `progress` is told how many mutants are done.
pub fn campaign(
    cfg: &MutantConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<MutantReport, String> {
    let start = Instant::now();
    let sources = sources(&cfg.dirs);
    if sources.is_empty() {
        return Err("no .weir files found".into());
    }
    std::fs::create_dir_all(&cfg.out)
        .map_err(|e| format!("cannot create {}: {e}", cfg.out.display()))?;
    let shared = Shared {
        cfg,
        sources: &sources,
        next: AtomicU64::new(0),
        done: AtomicU64::new(0),
        report: Mutex::new(MutantReport {
            files: sources.len(),
            ..Default::default()
        }),
    };
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for slot in 0..cfg.jobs.max(1) {
            let shared = &shared;
            let errors = &errors;
            s.spawn(move || {
                if let Err(e) = run_slot(shared, slot, progress)
                    && let Ok(mut es) = errors.lock()
                {
                    es.push(e);
                }
            });
        }
    });
    for slot in 0..cfg.jobs.max(1) {
        let _ = std::fs::remove_file(cfg.out.join(format!(".worker{slot}.stderr")));
    }
    let mut report = shared
        .report
        .into_inner()
        .map_err(|_| "a worker thread panicked".to_string())?;
    if let Some(e) = errors
        .into_inner()
        .ok()
        .and_then(|es| es.into_iter().next())
    {
        return Err(e);
    }
    report.bad.sort_by_key(|b| b.index);
    report.elapsed = start.elapsed();
    Ok(report)
}

fn run_slot(sh: &Shared, slot: usize, progress: &(dyn Fn(u64) + Sync)) -> Result<(), String> {
    let cfg = sh.cfg;
    let mut worker: Option<Worker> = None;
    loop {
        let k = sh.next.fetch_add(1, Ordering::Relaxed);
        if k >= cfg.count {
            break;
        }
        let index = cfg.first + k;
        let Some((si, text, edits)) = mutant(sh.sources, cfg.seed, index) else {
            break;
        };
        let (src, _) = &sh.sources[si];
        let dir = match src.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let w = match worker.take() {
            Some(w) if w.sent < cfg.per_worker => w,
            Some(w) => {
                w.stop();
                Worker::start(cfg, slot)?
            }
            None => Worker::start(cfg, slot)?,
        };
        let mut w = w;
        let t0 = Instant::now();
        let header = format!("{index} {} {}\n", text.len(), dir.display());
        let sent = w
            .stdin
            .write_all(header.as_bytes())
            .and_then(|_| w.stdin.write_all(text.as_bytes()))
            .and_then(|_| w.stdin.flush());
        w.sent += 1;
        let outcome: (Class, String, bool) = if sent.is_err() {
            let (c, d) = w.death();
            (c, d, false)
        } else {
            wait_result(w, index, cfg.time_limit, &mut worker)
        };
        let took = t0.elapsed();
        let (class, detail, _) = outcome;
        let mut rep = sh
            .report
            .lock()
            .map_err(|_| "the report lock is poisoned".to_string())?;
        rep.mutants += 1;
        *rep.counts.entry(class).or_default() += 1;
        if !class.bad() && rep.slowest.is_none_or(|(_, t)| took > t) {
            rep.slowest = Some((index, took));
        }
        if class.bad() {
            let name = format!("seed{}-{index}-{}.weir", cfg.seed, class.tag());
            let path = cfg.out.join(&name);
            let header = format!(
                "-- weir fuzz --mutants: {} ({:.1} s)\n-- from {}: {edits}\n-- {}\n",
                class.name(),
                took.as_secs_f64(),
                src.display(),
                detail.replace('\n', " ")
            );
            let saved = std::fs::write(&path, format!("{header}{text}"))
                .ok()
                .map(|_| path);
            rep.bad.push(Bad {
                index,
                class,
                source: src.clone(),
                edits,
                detail,
                saved,
                took,
            });
        }
        drop(rep);
        progress(sh.done.fetch_add(1, Ordering::Relaxed) + 1);
    }
    if let Some(w) = worker {
        w.stop();
    }
    Ok(())
}

/// Wait for the worker's result on mutant `index`: the class, the detail,
/// and whether the worker is still usable (then put back in `keep`).
fn wait_result(
    w: Worker,
    index: u64,
    limit: Duration,
    keep: &mut Option<Worker>,
) -> (Class, String, bool) {
    let deadline = Instant::now() + limit;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match w.lines.recv_timeout(left) {
            Ok(l) => {
                let mut it = l.splitn(4, ' ');
                match (it.next(), it.next().and_then(|i| i.parse::<u64>().ok())) {
                    (Some("R"), Some(i)) if i == index => {
                        let class = it.next().and_then(Class::from_tag).unwrap_or(Class::Crash);
                        let detail = it.next().unwrap_or("").to_string();
                        *keep = Some(w);
                        return (class, detail, true);
                    }
                    _ => continue,
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                w.stop();
                return (
                    Class::Timeout,
                    format!("over the time limit of {} s", limit.as_secs_f64()),
                    false,
                );
            }
            Err(RecvTimeoutError::Disconnected) => {
                let (c, d) = w.death();
                return (c, d, false);
            }
        }
    }
}
