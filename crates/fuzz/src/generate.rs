//! The random program generator: type- and size-directed, driven by a sequence of
//! choices.
//!
//! Every decision the generator makes reads one number from a [`Choices`] stream
//! (zero when the stream is exhausted), and alternative 0 of every decision is the
//! simplest one (a variable or a literal, no helper, no extra parameter). So a
//! program is a pure function of a `Vec<u32>`, and proptest's shrinking of that
//! vector — dropping elements, moving each toward zero — shrinks the *program*
//! toward a minimal one (the approach of Hypothesis's choice sequences). The
//! strategy is [`program_strategy`]; `weir fuzz` drives the same value trees by
//! hand so that it can batch, parallelise and shrink.
//!
//! Coverage: every builtin of docs/language.md §5 (`build ifold length map map2
//! map3 zip zip3 unzip unzip3 fold reduce ireduce scan filter partition
//! partition2 iota replicate
//! concat ++ split flatten unflatten transpose slide reverse rotate gather pad sum
//! product maximum minimum scatter reduce_by_index argmax argmin`, the math functions, `atan2`, `pow`/`**`, `min`, `max`,
//! the conversions), every scalar type (`f64 f32 i64 i32 bool`), nested arrays,
//! arrays of tuples, tuples, `if`, `let` (also tuple patterns), `loop … for`,
//! `loop … while`, helper definitions (with size parameters and with function
//! parameters, called with lambdas), empty arrays, and sizes that are negative
//! or mismatched at run time (sizes come from inputs, `length`, `%` of arbitrary
//! integers and `n - 1`; two `[n]` parameters may receive different lengths).

use proptest::prelude::*;
use std::fmt::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Generate in-place updates too (`copy a with [i] = v`, slices, two
/// indices, loops whose state is updated in place): off by default, so the
/// programs of the seeds recorded before updates existed stay the same
/// (`weir fuzz --updates`).
static UPDATES: AtomicBool = AtomicBool::new(false);

/// Turn the generation of in-place updates on or off (for every thread).
pub fn set_updates(on: bool) {
    UPDATES.store(on, Ordering::Relaxed);
}

fn updates() -> bool {
    UPDATES.load(Ordering::Relaxed)
}

/// Every how many programs of a campaign is biased towards empty and
/// singleton dimensions (0: none; 1: every program; 4: programs 3, 7, 11, …).
static EMPTY_EVERY: AtomicU64 = AtomicU64::new(0);

/// Bias every `every`-th program of a campaign towards empty and singleton
/// dimensions (0 turns it off; the default, so the seeds recorded before the
/// bias existed generate the same programs). `weir fuzz --empty-bias`.
pub fn set_empty_bias(every: u64) {
    EMPTY_EVERY.store(every, Ordering::Relaxed);
}

/// Is program `i` of a campaign biased towards empty dimensions (see
/// [`set_empty_bias`])?
pub fn empty_biased(i: u64) -> bool {
    biased_at(EMPTY_EVERY.load(Ordering::Relaxed), i)
}

/// Is program `i` biased when every `every`-th one is (0: none)?
pub fn biased_at(every: u64, i: u64) -> bool {
    every != 0 && i % every == every - 1
}

/// How a program is generated beyond its choices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GenOptions {
    /// Biased towards empty and singleton dimensions: input lengths, the
    /// counts of `iota`/`replicate`/`build`, literal arrays and sizes are
    /// 0 or 1 most of the time; the entry point has two size parameters
    /// (`[n][m]`) that its array parameters and its result name, its result
    /// is more often an array of arrays, and arrays of arrays are made more
    /// often by `map`/`map2`/`map3`/`build` (whose bodies then decide the
    /// row shape of what may be zero rows: the shape rules of empty maps).
    pub empty_bias: bool,
}

/// The decisions a program is made of.
pub struct Choices<'a> {
    data: &'a [u32],
    pos: usize,
}

impl<'a> Choices<'a> {
    pub fn new(data: &'a [u32]) -> Self {
        Choices { data, pos: 0 }
    }
    fn raw(&mut self) -> u32 {
        let v = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        v
    }
    /// A number in `0..n` (0 when `n <= 1` or the stream is exhausted).
    fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        self.raw() as usize % n
    }
    /// An alternative by weight (a weight of 0 makes it unavailable); 0 if none.
    fn weighted(&mut self, w: &[u32]) -> usize {
        let total: u32 = w.iter().sum();
        if total == 0 {
            return 0;
        }
        let mut r = self.raw() % total;
        for (k, &x) in w.iter().enumerate() {
            if r < x {
                return k;
            }
            r -= x;
        }
        0
    }
}

/// The generator's view of a type (sizes are left to the checker: `[]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    F64,
    F32,
    I64,
    I32,
    Bool,
    /// (the small and the wide unsigned type: promotion in C, unsigned
    /// comparisons and division)
    U8,
    U64,
    Arr(Box<Ty>),
    Tup(Vec<Ty>),
}

impl Ty {
    fn arr(t: Ty) -> Ty {
        Ty::Arr(Box::new(t))
    }
    fn is_num(&self) -> bool {
        matches!(
            self,
            Ty::F64 | Ty::F32 | Ty::I64 | Ty::I32 | Ty::U8 | Ty::U64
        )
    }
    fn is_float(&self) -> bool {
        matches!(self, Ty::F64 | Ty::F32)
    }
    fn is_scalar(&self) -> bool {
        self.is_num() || *self == Ty::Bool
    }
    fn rank(&self) -> usize {
        match self {
            Ty::Arr(e) => 1 + e.rank(),
            _ => 0,
        }
    }
    fn name(&self) -> &'static str {
        match self {
            Ty::F64 => "f64",
            Ty::F32 => "f32",
            Ty::I64 => "i64",
            Ty::I32 => "i32",
            Ty::Bool => "bool",
            Ty::U8 => "u8",
            Ty::U64 => "u64",
            _ => "",
        }
    }
    /// Weir syntax with unnamed sizes.
    pub fn text(&self) -> String {
        match self {
            Ty::Arr(e) => format!("[]{}", e.text()),
            Ty::Tup(ts) => format!(
                "({})",
                ts.iter().map(|t| t.text()).collect::<Vec<_>>().join(", ")
            ),
            s => s.name().to_string(),
        }
    }
}

/// One generated program: a self-contained source with one entry point and the
/// inputs to run it on (value text, docs/language.md §7, one string per case).
#[derive(Clone, Debug)]
pub struct GenProgram {
    pub source: String,
    pub entry: String,
    pub inputs: Vec<String>,
}

impl GenProgram {
    /// A program read back from a `.weir` file in the form of
    /// [`GenProgram::as_weir_file`] (a reproducer, possibly edited by hand):
    /// the source up to the test block, its `-- entry:` and its
    /// `-- input { … }` lines (`None` without an entry or an input).
    pub fn from_weir_file(text: &str) -> Option<GenProgram> {
        let (source, block) = match text.find("\n-- ==") {
            Some(k) => (&text[..k], &text[k..]),
            None => return None,
        };
        let mut entry = None;
        let mut inputs = vec![];
        for line in block.lines() {
            let line = line.trim();
            if let Some(e) = line.strip_prefix("-- entry:") {
                entry = Some(e.trim().to_string());
            } else if let Some(i) = line.strip_prefix("-- input {") {
                let i = i.trim_end();
                inputs.push(i.strip_suffix('}').unwrap_or(i).trim().to_string());
            }
        }
        if inputs.is_empty() {
            return None;
        }
        Some(GenProgram {
            source: format!("{}\n", source.trim_end()),
            entry: entry?,
            inputs,
        })
    }

    /// The program as a `.weir` file with a test block (a reproducer).
    pub fn as_weir_file(&self) -> String {
        let mut s = self.source.clone();
        let _ = writeln!(s, "\n-- ==\n-- entry: {}", self.entry);
        for i in &self.inputs {
            let _ = writeln!(s, "-- input {{ {i} }}");
        }
        s
    }
}

/// The proptest strategy of choice sequences.
pub fn choices_strategy() -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec(any::<u32>(), 0..=700)
}

/// The proptest strategy of programs (entry `p_main`).
pub fn program_strategy() -> impl Strategy<Value = GenProgram> {
    choices_strategy().prop_map(|c| generate(&c, "p"))
}

#[derive(Clone)]
struct FunParam {
    name: String,
    args: Vec<Ty>,
    ret: Ty,
}

#[derive(Clone)]
enum Param {
    Val(String, Ty),
    Fun(FunParam),
}

#[derive(Clone)]
struct Helper {
    name: String,
    params: Vec<Param>,
    ret: Ty,
}

struct G<'a> {
    c: Choices<'a>,
    prefix: String,
    counter: usize,
    /// Variables in scope (innermost last).
    vars: Vec<(String, Ty)>,
    /// Function parameters in scope (inside a helper).
    funs: Vec<FunParam>,
    helpers: Vec<Helper>,
    /// Names of small integer variables (see `i64_vars`).
    small: Vec<String>,
    /// Biased towards empty and singleton dimensions ([`GenOptions`]).
    empty: bool,
}

const MAX_DEPTH: usize = 5;

/// Generate a program from a choice sequence; every name starts with `prefix`.
pub fn generate(choices: &[u32], prefix: &str) -> GenProgram {
    generate_with(choices, prefix, GenOptions::default())
}

/// [`generate`] with options (the same choices give another program when an
/// option is on).
pub fn generate_with(choices: &[u32], prefix: &str, opts: GenOptions) -> GenProgram {
    let mut g = G {
        c: Choices::new(choices),
        prefix: prefix.to_string(),
        counter: 0,
        vars: vec![],
        funs: vec![],
        helpers: vec![],
        small: vec!["n".into(), "m".into()],
        empty: opts.empty_bias,
    };
    let mut source = String::new();
    let nhelpers = g.c.weighted(&[6, 3, 1]);
    for k in 0..nhelpers {
        let h = g.helper(k);
        source.push_str(&h);
    }
    let (entry, text, inputs) = g.entry();
    source.push_str(&text);
    GenProgram {
        source,
        entry,
        inputs,
    }
}

impl G<'_> {
    fn fresh(&mut self, base: &str) -> String {
        self.counter += 1;
        format!("{base}{}", self.counter)
    }

    fn scalar_ty(&mut self) -> Ty {
        match self.c.weighted(&[8, 5, 3, 2, 2, 1, 1]) {
            0 => Ty::F64,
            1 => Ty::I64,
            2 => Ty::Bool,
            3 => Ty::F32,
            4 => Ty::I32,
            5 => Ty::U8,
            _ => Ty::U64,
        }
    }

    /// A random type: scalars, arrays up to rank 3, tuples of two or three, arrays
    /// of tuples of scalars.
    fn ty(&mut self, depth: usize) -> Ty {
        match self.c.weighted(&[10, 8, if depth > 0 { 3 } else { 0 }, 2]) {
            1 => {
                let e = if depth > 0 && self.c.below(3) == 0 {
                    self.ty(depth - 1)
                } else {
                    self.scalar_ty()
                };
                match e {
                    Ty::Tup(ts) if ts.iter().any(|t| !t.is_scalar()) => {
                        Ty::arr(Ty::Tup(vec![Ty::F64, Ty::I64]))
                    }
                    e if e.rank() >= 3 => e,
                    e => Ty::arr(e),
                }
            }
            2 => {
                let n = 2 + self.c.below(2);
                Ty::Tup((0..n).map(|_| self.ty(depth - 1)).collect())
            }
            3 => Ty::arr(Ty::Tup(vec![self.scalar_ty(), self.scalar_ty()])),
            _ => self.scalar_ty(),
        }
    }

    fn vars_of(&self, t: &Ty) -> Vec<String> {
        self.vars
            .iter()
            .filter(|(_, vt)| vt == t)
            .map(|(n, _)| n.clone())
            .collect()
    }

    fn var_of(&mut self, t: &Ty) -> Option<String> {
        let vs = self.vars_of(t);
        if vs.is_empty() {
            None
        } else {
            let k = self.c.below(vs.len());
            Some(vs[vs.len() - 1 - k].clone())
        }
    }

    fn lit(&mut self, t: &Ty) -> String {
        match t {
            Ty::F64 => self.float_lit(""),
            Ty::F32 => self.float_lit("f32"),
            Ty::I64 => {
                let pool = [
                    "0",
                    "1",
                    "2",
                    "3",
                    "(-1)",
                    "7",
                    "(-5)",
                    "9223372036854775807",
                    "(-9223372036854775807 - 1)",
                    "1000000007",
                ];
                pool[self.c.weighted(&[6, 6, 4, 3, 3, 2, 2, 1, 1, 1])].to_string()
            }
            Ty::I32 => {
                let pool = [
                    "0i32",
                    "1i32",
                    "2i32",
                    "(-1i32)",
                    "5i32",
                    "2147483647i32",
                    "(-2147483647i32 - 1i32)",
                ];
                pool[self.c.weighted(&[6, 6, 4, 3, 2, 1, 1])].to_string()
            }
            Ty::U8 => {
                let pool = ["0u8", "1u8", "2u8", "7u8", "200u8", "255u8", "128u8"];
                pool[self.c.weighted(&[6, 6, 4, 3, 2, 1, 1])].to_string()
            }
            Ty::U64 => {
                let pool = [
                    "0u64",
                    "1u64",
                    "3u64",
                    "18446744073709551615u64",
                    "9223372036854775808u64",
                    "0xffu64",
                ];
                pool[self.c.weighted(&[6, 6, 4, 1, 1, 1])].to_string()
            }
            Ty::Bool => if self.c.below(2) == 0 {
                "true"
            } else {
                "false"
            }
            .to_string(),
            other => self.leaf(other),
        }
    }

    fn float_lit(&mut self, suffix: &str) -> String {
        let pool = [
            "0.0", "1.0", "(-1.0)", "0.5", "(-0.0)", "2.5", "3.0", "(-3.75)", "1e300", "1e-310",
            "0.1",
        ];
        let k = self.c.weighted(&[6, 6, 4, 3, 3, 2, 2, 2, 1, 1, 2]);
        match self.c.weighted(&[20, 1, 1]) {
            1 => format!("(1.0{suffix} / 0.0{suffix})"),
            2 => format!("(0.0{suffix} / 0.0{suffix})"),
            _ => {
                let l = pool[k];
                if suffix.is_empty() {
                    l.to_string()
                } else if let Some(inner) = l.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
                    format!("({inner}{suffix})")
                } else {
                    format!("{l}{suffix}")
                }
            }
        }
    }

    /// The simplest expression of a type: a variable, else a literal/replicate.
    fn leaf(&mut self, t: &Ty) -> String {
        if let Some(v) = self.var_of(t)
            && self.c.below(4) != 3
        {
            return v;
        }
        match t {
            Ty::Arr(e) if self.empty => {
                let ivs = self.i64_vars();
                let n = if !ivs.is_empty() && self.c.below(3) != 0 {
                    ivs[self.c.below(ivs.len())].clone()
                } else {
                    self.c.weighted(&[5, 5, 1]).to_string()
                };
                let x = self.leaf(e);
                format!("(replicate {n} {x})")
            }
            Ty::Arr(e) => {
                let n = self.c.weighted(&[3, 3, 2]);
                let x = self.leaf(e);
                format!("(replicate {n} {x})")
            }
            Ty::Tup(ts) => {
                let parts: Vec<String> = ts.iter().map(|t| self.leaf(t)).collect();
                format!("({})", parts.join(", "))
            }
            s => self.lit(s),
        }
    }

    /// Integer variables known to be small (inputs, size parameters, loop
    /// counters): usable as sizes and loop counts without risking a huge
    /// allocation or an endless loop.
    fn i64_vars(&self) -> Vec<String> {
        self.vars
            .iter()
            .filter(|(n, t)| *t == Ty::I64 && self.small.contains(n))
            .map(|(n, _)| n.clone())
            .collect()
    }

    fn array_vars(&self) -> Vec<String> {
        self.vars
            .iter()
            .filter(|(_, t)| matches!(t, Ty::Arr(_)))
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// A size: small constants, `length`, variables, `n - 1`, `e % 4` (which may
    /// be negative).
    fn size(&mut self, d: usize) -> String {
        let ivs = self.i64_vars();
        let avs = self.array_vars();
        // (biased towards empty dimensions: the sizes of the inputs, 0 or 1
        // at run time, more often than constants, which the checker compares)
        match self.c.weighted(&[
            6,
            if avs.is_empty() {
                0
            } else if self.empty {
                8
            } else {
                4
            },
            if ivs.is_empty() {
                0
            } else if self.empty {
                10
            } else {
                3
            },
            if d > 0 { 2 } else { 0 },
            if ivs.is_empty() { 0 } else { 1 },
            1,
        ]) {
            1 => {
                let a = avs[self.c.below(avs.len())].clone();
                format!("(length {a})")
            }
            2 => ivs[self.c.below(ivs.len())].clone(),
            3 => {
                let e = self.expr(&Ty::I64, d - 1);
                format!("({e} % 4)")
            }
            4 => {
                let v = ivs[self.c.below(ivs.len())].clone();
                format!("({v} - 1)")
            }
            5 => "(-1)".to_string(),
            _ if self.empty => ["2", "0", "1", "3"][self.c.weighted(&[1, 6, 6, 1])].to_string(),
            _ => ["2", "0", "1", "3"][self.c.below(4)].to_string(),
        }
    }

    /// The size of an allocation: as [`size`], and rarely one too large for
    /// memory (2^61 elements: the byte count overflows), which must be an
    /// out-of-memory error, never a crash. Only for arrays of scalars.
    fn alloc_size(&mut self, d: usize, huge_ok: bool) -> String {
        if self.c.weighted(&[60, 1]) == 1 && huge_ok {
            "2305843009213693952".to_string()
        } else {
            self.size(d)
        }
    }

    /// An index: loop counters and variables, small constants, `length a - 1`,
    /// `e % 4`.
    fn index(&mut self, d: usize) -> String {
        let ivs = self.i64_vars();
        let avs = self.array_vars();
        match self.c.weighted(&[
            if ivs.is_empty() { 0 } else { 8 },
            4,
            if avs.is_empty() { 0 } else { 2 },
            if d > 0 { 2 } else { 0 },
        ]) {
            0 => ivs[ivs.len() - 1 - self.c.below(ivs.len())].clone(),
            2 => {
                let a = avs[self.c.below(avs.len())].clone();
                format!("(length {a} - 1)")
            }
            3 => {
                let e = self.expr(&Ty::I64, d - 1);
                format!("({e} % 4)")
            }
            _ => ["0", "1", "2", "(-1)"][self.c.weighted(&[6, 3, 2, 1])].to_string(),
        }
    }

    /// Bind a variable for the duration of `f`.
    fn with_var<T>(&mut self, name: &str, t: &Ty, f: impl FnOnce(&mut Self) -> T) -> T {
        self.vars.push((name.to_string(), t.clone()));
        let r = f(self);
        self.vars.pop();
        r
    }

    fn with_vars<T>(&mut self, vs: &[(String, Ty)], f: impl FnOnce(&mut Self) -> T) -> T {
        let n = self.vars.len();
        self.vars.extend(vs.iter().cloned());
        let r = f(self);
        self.vars.truncate(n);
        r
    }

    /// A lambda of one parameter of type `a` returning `r`.
    fn lambda1(&mut self, a: &Ty, r: &Ty, d: usize) -> String {
        let x = self.fresh("x");
        self.lambda1_named(x, a, r, d)
    }

    /// A lambda over an index (`build`, `ireduce`): its parameter is small.
    fn index_lambda(&mut self, r: &Ty, d: usize) -> String {
        let x = self.fresh("x");
        self.small.push(x.clone());
        self.lambda1_named(x, &Ty::I64, r, d)
    }

    fn lambda1_named(&mut self, x: String, a: &Ty, r: &Ty, d: usize) -> String {
        let body = self.with_var(&x, a, |g| g.expr(r, d));
        format!("(\\{x} -> {body})")
    }

    fn lambda_n(&mut self, args: &[Ty], r: &Ty, d: usize) -> String {
        let names: Vec<(String, Ty)> = args.iter().map(|t| (self.fresh("x"), t.clone())).collect();
        let body = self.with_vars(&names, |g| g.expr(r, d));
        let ps: Vec<&str> = names.iter().map(|(n, _)| n.as_str()).collect();
        format!("(\\{} -> {body})", ps.join(" "))
    }

    /// An associative operator with its neutral element for a numeric type.
    fn assoc_op(&mut self, t: &Ty) -> (String, String) {
        let zero = match t {
            Ty::F64 => "0.0",
            Ty::F32 => "0.0f32",
            Ty::I32 => "0i32",
            Ty::U8 => "0u8",
            Ty::U64 => "0u64",
            _ => "0",
        };
        let one = match t {
            Ty::F64 => "1.0",
            Ty::F32 => "1.0f32",
            Ty::I32 => "1i32",
            Ty::U8 => "1u8",
            Ty::U64 => "1u64",
            _ => "1",
        };
        match self.c.weighted(&[4, 2, 2, 2, 1]) {
            1 => ("(*)".into(), one.into()),
            2 => {
                let ne = match t {
                    Ty::F64 => "(1.0 / 0.0)".to_string(),
                    Ty::F32 => "(1.0f32 / 0.0f32)".to_string(),
                    Ty::I32 => "2147483647i32".to_string(),
                    Ty::U8 => "255u8".to_string(),
                    Ty::U64 => "18446744073709551615u64".to_string(),
                    _ => "9223372036854775807".to_string(),
                };
                ("min".into(), ne)
            }
            3 => {
                let ne = match t {
                    Ty::F64 => "(-1.0 / 0.0)".to_string(),
                    Ty::F32 => "(-1.0f32 / 0.0f32)".to_string(),
                    Ty::I32 => "(-2147483647i32 - 1i32)".to_string(),
                    Ty::U8 => "0u8".to_string(),
                    Ty::U64 => "0u64".to_string(),
                    _ => "(-9223372036854775807 - 1)".to_string(),
                };
                ("max".into(), ne)
            }
            4 => ("(\\a b -> a + b)".into(), zero.into()),
            _ => ("(+)".into(), zero.into()),
        }
    }

    fn expr(&mut self, t: &Ty, d: usize) -> String {
        if d == 0 {
            return self.leaf(t);
        }
        match t {
            Ty::Arr(e) => self.arr_expr(e, d),
            Ty::Tup(ts) => self.tup_expr(ts, d),
            Ty::Bool => self.bool_expr(d),
            s => self.num_expr(s, d),
        }
    }

    /// Forms every type shares: `if`, `let`, tuple projection, helper calls,
    /// `loop`. `None` when the chosen form does not apply.
    fn common(&mut self, t: &Ty, d: usize, which: usize) -> Option<String> {
        let d1 = d - 1;
        Some(match which {
            0 => {
                let c = self.expr(&Ty::Bool, d1);
                let a = self.expr(t, d1);
                let b = self.expr(t, d1);
                format!("(if {c} then {a} else {b})")
            }
            1 => {
                let bt = self.ty(1);
                let rhs = self.expr(&bt, d1);
                match &bt {
                    Ty::Tup(ts) if self.c.below(2) == 0 => {
                        let names: Vec<(String, Ty)> =
                            ts.iter().map(|t| (self.fresh("v"), t.clone())).collect();
                        let body = self.with_vars(&names, |g| g.expr(t, d1));
                        let pat: Vec<&str> = names.iter().map(|(n, _)| n.as_str()).collect();
                        format!("(let ({}) = {rhs} in {body})", pat.join(", "))
                    }
                    _ => {
                        let v = self.fresh("v");
                        let body = self.with_var(&v, &bt, |g| g.expr(t, d1));
                        format!("(let {v} = {rhs} in {body})")
                    }
                }
            }
            2 => {
                let other = self.ty(0);
                let pos = self.c.below(2);
                let ts = if pos == 0 {
                    vec![t.clone(), other]
                } else {
                    vec![other, t.clone()]
                };
                let e = self.expr(&Ty::Tup(ts), d1);
                format!("({e}).{pos}")
            }
            3 => {
                let hs: Vec<Helper> = self
                    .helpers
                    .iter()
                    .filter(|h| h.ret == *t)
                    .cloned()
                    .collect();
                if hs.is_empty() {
                    return None;
                }
                let h = hs[self.c.below(hs.len())].clone();
                let mut s = h.name.clone();
                for p in &h.params {
                    let a = match p {
                        Param::Val(_, pt) => self.expr(pt, d1),
                        Param::Fun(f) => self.lambda_n(&f.args, &f.ret, d1),
                    };
                    s.push(' ');
                    s.push_str(&a);
                }
                format!("({s})")
            }
            4 => {
                let init = self.expr(t, d1);
                let n = self.size(d1);
                let x = self.fresh("s");
                let i = self.fresh("i");
                self.small.push(i.clone());
                let body = self.with_vars(&[(x.clone(), t.clone()), (i.clone(), Ty::I64)], |g| {
                    g.expr(t, d1)
                });
                format!("(loop {x} = {init} for {i} < {n} do {body})")
            }
            5 => {
                let init = self.expr(t, d1);
                let bound = 1 + self.c.below(3);
                let (w, x) = (self.fresh("w"), self.fresh("s"));
                self.small.push(w.clone());
                let body = self.with_vars(&[(w.clone(), Ty::I64), (x.clone(), t.clone())], |g| {
                    g.expr(t, d1)
                });
                format!(
                    "((loop ({w}, {x}) = (0, {init}) while {w} < {bound} do ({w} + 1, {body})).1)"
                )
            }
            6 => {
                // function parameters of the enclosing helper
                let fs: Vec<FunParam> = self.funs.iter().filter(|f| f.ret == *t).cloned().collect();
                if fs.is_empty() {
                    return None;
                }
                let f = fs[self.c.below(fs.len())].clone();
                let mut s = f.name.clone();
                for a in &f.args {
                    let x = self.expr(a, d1);
                    s.push(' ');
                    s.push_str(&x);
                }
                format!("({s})")
            }
            _ => return None,
        })
    }

    fn num_expr(&mut self, t: &Ty, d: usize) -> String {
        let d1 = d - 1;
        let int = !t.is_float();
        let w = [
            6,                                 // 0 leaf
            8,                                 // 1 binop
            1,                                 // 2 neg
            5,                                 // 3 index
            4,                                 // 4 sum/product/maximum/minimum
            2,                                 // 5 reduce
            2,                                 // 6 fold
            2,                                 // 7 ifold
            2,                                 // 8 common: if
            3,                                 // 9 common: let
            3,                                 // 10 conversion
            if int { 1 } else { 4 },           // 11 math
            if *t == Ty::I64 { 4 } else { 0 }, // 12 length
            1,                                 // 13 projection
            2,                                 // 14 helper call
            2,                                 // 15 loop for
            2,                                 // 16 ireduce
            1,                                 // 17 loop while
            3,                                 // 18 function parameter
            2,                                 // 19 min/max
            if *t == Ty::I64 { 1 } else { 0 }, // 20 argmax/argmin
        ];
        let k = self.c.weighted(&w);
        let r = match k {
            1 => {
                let (ops, w): (&[&str], &[u32]) = if int {
                    (
                        &["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", ">>>"],
                        &[4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1],
                    )
                } else {
                    (&["+", "-", "*", "/", "**"], &[4, 3, 3, 1, 1])
                };
                let op = ops[self.c.weighted(w)];
                let a = self.expr(t, d1);
                let b = self.expr(t, d1);
                Some(format!("({a} {op} {b})"))
            }
            2 => {
                // (`!` of an integer: bitwise not)
                let op = if int && self.c.below(2) == 0 {
                    "!"
                } else {
                    "-"
                };
                let a = self.expr(t, d1);
                Some(format!("({op}{a})"))
            }
            3 => {
                let a = self.expr(&Ty::arr(t.clone()), d1);
                let i = self.index(d1);
                Some(format!("({a})[{i}]"))
            }
            4 => {
                let f = ["sum", "product", "maximum", "minimum"][self.c.below(4)];
                let a = self.expr(&Ty::arr(t.clone()), d1);
                Some(format!("({f} {a})"))
            }
            5 => {
                let (op, ne) = self.assoc_op(t);
                let a = self.expr(&Ty::arr(t.clone()), d1);
                Some(format!("(reduce {op} {ne} {a})"))
            }
            6 => {
                let et = self.ty(1);
                let init = self.expr(t, d1);
                let a = self.expr(&Ty::arr(et.clone()), d1);
                let f = self.lambda_n(&[t.clone(), et], t, d1);
                Some(format!("(fold {f} {init} {a})"))
            }
            7 => {
                let init = self.expr(t, d1);
                let n = self.size(d1);
                let f = self.lambda_n(&[t.clone(), Ty::I64], t, d1);
                Some(format!("(ifold {f} {init} {n})"))
            }
            8 => self.common(t, d, 0),
            9 => self.common(t, d, 1),
            10 => {
                let from = match self.c.weighted(&[3, 3, 1, 1, 1, 1, 1]) {
                    0 => Ty::F64,
                    1 => Ty::I64,
                    2 => Ty::F32,
                    3 => Ty::I32,
                    4 => Ty::U8,
                    5 => Ty::U64,
                    _ => Ty::Bool,
                };
                let a = self.expr(&from, d1);
                Some(format!("({} {a})", t.name()))
            }
            11 => {
                if *t == Ty::I32 && self.c.below(2) == 0 {
                    // the bit counts of any integer type are i32s
                    let f = ["popc", "clz", "ctz"][self.c.below(3)];
                    let at = [Ty::I64, Ty::I32, Ty::U8, Ty::U64][self.c.below(4)].clone();
                    let a = self.expr(&at, d1);
                    Some(format!("({f} {a})"))
                } else if int {
                    let a = self.expr(t, d1);
                    Some(format!("(abs {a})"))
                } else {
                    let fs = [
                        "sqrt", "exp", "log", "sin", "cos", "tan", "tanh", "abs", "floor", "ceil",
                        "lgamma", "atan2", "pow",
                    ];
                    let f = fs[self.c.below(fs.len())];
                    let a = self.expr(t, d1);
                    if f == "atan2" || f == "pow" {
                        let b = self.expr(t, d1);
                        Some(format!("({f} {a} {b})"))
                    } else {
                        Some(format!("({f} {a})"))
                    }
                }
            }
            12 => {
                let et = self.ty(1);
                let a = self.expr(&Ty::arr(et), d1);
                Some(format!("(length {a})"))
            }
            13 => self.common(t, d, 2),
            14 => self.common(t, d, 3),
            15 => self.common(t, d, 4),
            16 => {
                let (op, ne) = self.assoc_op(t);
                let n = self.size(d1);
                let f = self.index_lambda(t, d1);
                Some(format!("(ireduce {op} {ne} {n} {f})"))
            }
            17 => self.common(t, d, 5),
            18 => self.common(t, d, 6),
            20 => {
                let f = if self.c.below(2) == 0 {
                    "argmax"
                } else {
                    "argmin"
                };
                let et =
                    [Ty::F64, Ty::I64, Ty::F32, Ty::I32, Ty::U8, Ty::U64][self.c.below(6)].clone();
                let a = self.expr(&Ty::arr(et), d1);
                Some(format!("({f} {a})"))
            }
            19 => {
                let f = if self.c.below(2) == 0 { "min" } else { "max" };
                let a = self.expr(t, d1);
                let b = self.expr(t, d1);
                Some(format!("({f} {a} {b})"))
            }
            _ => None,
        };
        r.unwrap_or_else(|| self.leaf(t))
    }

    fn bool_expr(&mut self, d: usize) -> String {
        let d1 = d - 1;
        let k = self.c.weighted(&[4, 8, 3, 2, 2, 2, 2, 1, 1, 2]);
        let r = match k {
            1 => {
                let t = match self.c.weighted(&[4, 3, 1, 1, 1, 1, 1]) {
                    0 => Ty::F64,
                    1 => Ty::I64,
                    2 => Ty::F32,
                    3 => Ty::I32,
                    4 => Ty::U8,
                    5 => Ty::U64,
                    _ => Ty::Bool,
                };
                let op = ["<", "<=", "==", "!=", ">", ">="][self.c.below(6)];
                let a = self.expr(&t, d1);
                let b = self.expr(&t, d1);
                Some(format!("({a} {op} {b})"))
            }
            2 => {
                let op = if self.c.below(2) == 0 { "&&" } else { "||" };
                let a = self.expr(&Ty::Bool, d1);
                let b = self.expr(&Ty::Bool, d1);
                Some(format!("({a} {op} {b})"))
            }
            3 => {
                let a = self.expr(&Ty::Bool, d1);
                Some(format!("(!{a})"))
            }
            4 => {
                let a = self.expr(&Ty::arr(Ty::Bool), d1);
                let i = self.index(d1);
                Some(format!("({a})[{i}]"))
            }
            5 => self.common(&Ty::Bool, d, 0),
            6 => self.common(&Ty::Bool, d, 1),
            7 => self.common(&Ty::Bool, d, 2),
            8 => self.common(&Ty::Bool, d, 3),
            9 => self.common(&Ty::Bool, d, 6),
            _ => None,
        };
        r.unwrap_or_else(|| self.leaf(&Ty::Bool))
    }

    fn tup_expr(&mut self, ts: &[Ty], d: usize) -> String {
        let d1 = d - 1;
        let t = Ty::Tup(ts.to_vec());
        let all_arrays = ts.iter().all(|t| matches!(t, Ty::Arr(_)));
        let k = self.c.weighted(&[
            3,
            6,
            2,
            2,
            1,
            if all_arrays { 3 } else { 0 },
            if ts.len() == 2 && ts[0] == ts[1] && matches!(ts[0], Ty::Arr(_)) {
                2
            } else {
                0
            },
            1,
        ]);
        let r = match k {
            1 => {
                let parts: Vec<String> = ts.iter().map(|t| self.expr(t, d1)).collect();
                Some(format!("({})", parts.join(", ")))
            }
            2 => self.common(&t, d, 0),
            3 => self.common(&t, d, 1),
            4 => self.common(&t, d, 3),
            5 => {
                // unzip / unzip3 of an array of tuples
                let elems: Vec<Ty> = ts
                    .iter()
                    .map(|t| match t {
                        Ty::Arr(e) => (**e).clone(),
                        other => other.clone(),
                    })
                    .collect();
                if ts.len() > 3 || elems.iter().any(|e| !e.is_scalar()) {
                    None
                } else {
                    let f = if ts.len() == 2 { "unzip" } else { "unzip3" };
                    let a = self.expr(&Ty::arr(Ty::Tup(elems)), d1);
                    Some(format!("({f} {a})"))
                }
            }
            6 => {
                let k = self.size(d1);
                let a = self.expr(&ts[0], d1);
                Some(format!("(split {k} {a})"))
            }
            7 => self.common(&t, d, 4),
            _ => None,
        };
        r.unwrap_or_else(|| self.leaf(&t))
    }

    fn arr_expr(&mut self, e: &Ty, d: usize) -> String {
        let d1 = d - 1;
        let t = Ty::arr(e.clone());
        let num = e.is_num();
        let nested = matches!(e, Ty::Arr(_));
        let tup_scalars = match e {
            Ty::Tup(ts) => (ts.len() == 2 || ts.len() == 3) && ts.iter().all(|t| t.is_scalar()),
            _ => false,
        };
        let inner_rank_ok = t.rank() < 3;
        let upd = updates();
        // (biased towards empty dimensions: arrays of arrays by maps, whose
        // bodies decide the row shape of what may be zero rows)
        let (w_build, w_map, w_map2) = if self.empty && nested {
            (9, 14, 9)
        } else {
            (6, 5, 3)
        };
        let w_zip = match (tup_scalars, self.empty) {
            (false, _) => 0,
            (true, false) => 3,
            (true, true) => 8,
        };
        let w = [
            5,                                 // 0 leaf
            3,                                 // 1 literal
            w_build,                           // 2 build
            w_map,                             // 3 map
            w_map2,                            // 4 map2/map3
            if *e == Ty::I64 { 2 } else { 0 }, // 5 iota
            3,                                 // 6 replicate
            3,                                 // 7 concat
            1,                                 // 8 reverse
            1,                                 // 9 rotate
            if nested { 2 } else { 0 },        // 10 transpose
            if inner_rank_ok { 2 } else { 0 }, // 11 flatten
            if nested { 2 } else { 0 },        // 12 unflatten
            3,                                 // 13 slice
            2,                                 // 14 filter
            if num { 2 } else { 0 },           // 15 scan
            1,                                 // 16 gather
            1,                                 // 17 pad
            if nested { 1 } else { 0 },        // 18 slide
            1,                                 // 19 split
            w_zip,                             // 20 zip
            1,                                 // 21 unzip
            2,                                 // 22 if
            2,                                 // 23 let
            2,                                 // 24 loop
            if inner_rank_ok { 2 } else { 0 }, // 25 row of a nested array
            2,                                 // 26 helper call
            1,                                 // 27 projection
            1,                                 // 28 while
            1,                                 // 29 scatter
            if num { 1 } else { 0 },           // 30 reduce_by_index
            1,                                 // 31 partition / partition2
            if upd { 3 } else { 0 },           // 32 copy a with [i] = v
            if upd && nested { 2 } else { 0 }, // 33 copy a with [i][j] = v
            if upd { 2 } else { 0 },           // 34 copy a with [s:e] = b
            if upd { 3 } else { 0 },           // 35 a loop updating its state
            if upd && nested { 2 } else { 0 }, // 36 copy a with [s:e, s:e] = b (blocks, columns, steps)
            if upd { 2 } else { 0 },           // 37 a loop updating a slice of its state
        ];
        let k = self.c.weighted(&w);
        let r = match k {
            1 => {
                let n = self.c.weighted(if self.empty {
                    &[4, 4, 1, 0]
                } else {
                    &[2, 4, 3, 1]
                });
                if n == 0 {
                    // an empty literal needs its element type from the context
                    let x = self.leaf(e);
                    Some(format!("(replicate 0 {x})"))
                } else {
                    let xs: Vec<String> = (0..n).map(|_| self.expr(e, d1)).collect();
                    Some(format!("[{}]", xs.join(", ")))
                }
            }
            2 => {
                let n = self.size(d1);
                let f = self.index_lambda(e, d1);
                Some(format!("(build {n} {f})"))
            }
            3 => {
                let a_t = self.ty(1);
                let a = self.expr(&Ty::arr(a_t.clone()), d1);
                let f = self.lambda1(&a_t, e, d1);
                Some(format!("(map {f} {a})"))
            }
            4 => {
                let three = self.c.below(3) == 0;
                let n = if three { 3 } else { 2 };
                let ts: Vec<Ty> = (0..n).map(|_| self.ty(0)).collect();
                let arrs: Vec<String> = ts
                    .iter()
                    .map(|x| self.expr(&Ty::arr(x.clone()), d1))
                    .collect();
                let f = self.lambda_n(&ts, e, d1);
                let m = if three { "map3" } else { "map2" };
                Some(format!("({m} {f} {})", arrs.join(" ")))
            }
            5 => {
                let n = self.alloc_size(d1, true);
                Some(format!("(iota {n})"))
            }
            6 => {
                // (a huge count of empty rows is a valid value of no elements
                // that neither the interpreter nor the decoder can hold)
                let n = self.alloc_size(d1, e.is_scalar());
                let x = self.expr(e, d1);
                Some(format!("(replicate {n} {x})"))
            }
            7 => {
                let a = self.expr(&t, d1);
                let b = self.expr(&t, d1);
                if self.c.below(2) == 0 {
                    Some(format!("({a} ++ {b})"))
                } else {
                    Some(format!("(concat {a} {b})"))
                }
            }
            8 => {
                let a = self.expr(&t, d1);
                Some(format!("(reverse {a})"))
            }
            9 => {
                let k = self.index(d1);
                let a = self.expr(&t, d1);
                Some(format!("(rotate {k} {a})"))
            }
            10 => {
                let a = self.expr(&t, d1);
                Some(format!("(transpose {a})"))
            }
            11 => {
                let a = self.expr(&Ty::arr(t.clone()), d1);
                let f = if self.c.below(2) == 0 {
                    "flatten"
                } else {
                    "join"
                };
                Some(format!("({f} {a})"))
            }
            12 => {
                let inner = match e {
                    Ty::Arr(x) => (**x).clone(),
                    _ => Ty::F64,
                };
                let n = self.size(d1);
                let m = self.size(d1);
                let a = self.expr(&Ty::arr(inner), d1);
                Some(format!("(unflatten {n} {m} {a})"))
            }
            13 => {
                let a = self.expr(&t, d1);
                let lo = self.index(d1);
                let hi = self.index(d1);
                Some(match self.c.below(3) {
                    0 => format!("({a})[{lo}:{hi}]"),
                    1 => format!("({a})[{lo}:]"),
                    _ => format!("({a})[:{hi}]"),
                })
            }
            14 => {
                let a = self.expr(&t, d1);
                let p = self.lambda1(e, &Ty::Bool, d1);
                Some(format!("(filter {p} {a})"))
            }
            31 => {
                let a = self.expr(&t, d1);
                let p = self.lambda1(e, &Ty::Bool, d1);
                Some(if self.c.below(2) == 0 {
                    let j = self.c.below(2);
                    format!("((partition {p} {a}).{j})")
                } else {
                    let q = self.lambda1(e, &Ty::Bool, d1);
                    let j = self.c.below(3);
                    format!("((partition2 {p} {q} {a}).{j})")
                })
            }
            15 => {
                let (op, ne) = self.assoc_op(e);
                let a = self.expr(&t, d1);
                Some(format!("(scan {op} {ne} {a})"))
            }
            16 => {
                let a = self.expr(&t, d1);
                let idx = self.expr(&Ty::arr(Ty::I64), d1);
                Some(format!("(gather {a} {idx})"))
            }
            29 => {
                let a = self.expr(&t, d1);
                let idx = self.expr(&Ty::arr(Ty::I64), d1);
                let vs = self.expr(&t, d1);
                Some(format!("(scatter {a} {idx} {vs})"))
            }
            30 => {
                let (op, ne) = self.assoc_op(e);
                let a = self.expr(&t, d1);
                let idx = self.expr(&Ty::arr(Ty::I64), d1);
                let vs = self.expr(&t, d1);
                Some(format!("(reduce_by_index {a} {op} {ne} {idx} {vs})"))
            }
            17 => {
                let lo = self.size(d1);
                let hi = self.size(d1);
                let x = self.expr(e, d1);
                let a = self.expr(&t, d1);
                Some(format!("(pad {lo} {hi} {x} {a})"))
            }
            18 => {
                let inner = match e {
                    Ty::Arr(x) => (**x).clone(),
                    _ => Ty::F64,
                };
                let w = self.size(d1);
                let s = self.size(d1);
                let a = self.expr(&Ty::arr(inner), d1);
                Some(format!("(slide {w} {s} {a})"))
            }
            19 => {
                let k = self.size(d1);
                let a = self.expr(&t, d1);
                let pos = self.c.below(2);
                Some(format!("((split {k} {a}).{pos})"))
            }
            20 => {
                let ts = match e {
                    Ty::Tup(ts) => ts.clone(),
                    _ => vec![],
                };
                let arrs: Vec<String> = ts
                    .iter()
                    .map(|x| self.expr(&Ty::arr(x.clone()), d1))
                    .collect();
                let f = if ts.len() == 2 { "zip" } else { "zip3" };
                Some(format!("({f} {})", arrs.join(" ")))
            }
            21 => {
                if !e.is_scalar() {
                    None
                } else {
                    let other = self.scalar_ty();
                    let pos = self.c.below(2);
                    let ts = if pos == 0 {
                        vec![e.clone(), other]
                    } else {
                        vec![other, e.clone()]
                    };
                    let a = self.expr(&Ty::arr(Ty::Tup(ts)), d1);
                    Some(format!("((unzip {a}).{pos})"))
                }
            }
            22 => self.common(&t, d, 0),
            23 => self.common(&t, d, 1),
            24 => self.common(&t, d, 4),
            25 => {
                let a = self.expr(&Ty::arr(t.clone()), d1);
                let i = self.index(d1);
                Some(format!("({a})[{i}]"))
            }
            26 => self.common(&t, d, 3),
            27 => self.common(&t, d, 2),
            28 => self.common(&t, d, 5),
            32 => {
                let a = self.expr(&t, d1);
                let i = self.index(d1);
                let v = self.update_value(e, d1);
                Some(format!("(copy {a} with [{i}] = {v})"))
            }
            33 => {
                let Ty::Arr(e2) = e else { return self.leaf(&t) };
                let a = self.expr(&t, d1);
                let i = self.index(d1);
                let j = self.index(d1);
                let v = self.update_value(e2, d1);
                Some(format!("(copy {a} with [{i}][{j}] = {v})"))
            }
            34 => {
                let a = self.expr(&t, d1);
                let s = self.index(d1);
                let en = self.index(d1);
                let b = self.expr(&t, d1);
                Some(format!("(copy {a} with [{s}:{en}] = copy ({b}))"))
            }
            35 => {
                let a = self.expr(&t, d1);
                let n = self.size(d1);
                let acc = self.fresh("acc");
                let i = self.fresh("i");
                let (ix, v) =
                    self.with_vars(&[(acc.clone(), t.clone()), (i.clone(), Ty::I64)], |g| {
                        let ix = match g.c.below(3) {
                            0 => i.clone(),
                            1 => format!("({i} % length {acc})"),
                            _ => g.index(d1),
                        };
                        (ix, g.update_value(e, d1))
                    });
                Some(format!(
                    "(loop {acc} = copy {a} for {i} < {n} do {acc} with [{ix}] = {v})"
                ))
            }
            36 => {
                let Ty::Arr(e2) = e else { return self.leaf(&t) };
                let a = self.expr(&t, d1);
                let (s, en, i) = (self.index(d1), self.index(d1), self.index(d1));
                // a block, a column, a row's slice with a step, or every
                // other row: the value of the place's shape (or not)
                let (entries, vt) = match self.c.below(4) {
                    0 => {
                        let (s2, e2b) = (self.index(d1), self.index(d1));
                        (format!("{s}:{en}, {s2}:{e2b}"), t.clone())
                    }
                    1 => (format!("{s}:{en}, {i}"), Ty::arr((**e2).clone())),
                    2 => (format!("{i}, {s}:{en}:2"), e.clone()),
                    _ => (format!("{s}::2, :"), t.clone()),
                };
                let b = self.expr(&vt, d1);
                Some(format!("(copy {a} with [{entries}] = copy ({b}))"))
            }
            37 => {
                let a = self.expr(&t, d1);
                let n = self.size(d1);
                let acc = self.fresh("acc");
                let i = self.fresh("i");
                let x = self.fresh("x");
                let (s, en, b, f) =
                    self.with_vars(&[(acc.clone(), t.clone()), (i.clone(), Ty::I64)], |g| {
                        let s = match g.c.below(2) {
                            0 => "1".to_string(),
                            _ => g.index(d1),
                        };
                        let en = match g.c.below(2) {
                            0 => format!("length {acc}"),
                            _ => g.index(d1),
                        };
                        // the map reads the state itself (shifted) or
                        // something else
                        let b = match g.c.below(2) {
                            0 => format!("{acc}[0:({en}) - ({s})]"),
                            _ => g.expr(&t, d1),
                        };
                        let f = g.with_vars(&[(x.clone(), e.clone())], |h| h.expr(e, d1));
                        (s, en, b, f)
                    });
                Some(format!(
                    "(loop {acc} = copy {a} for {i} < {n} do {acc} with [{s}:{en}] = map (\\{x} -> {f}) ({b}))"
                ))
            }
            _ => None,
        };
        r.unwrap_or_else(|| self.leaf(&t))
    }

    /// The value an update writes: an array value in storage of its own (a
    /// row of the array updated would share its memory, E0504).
    fn update_value(&mut self, e: &Ty, d: usize) -> String {
        let v = self.expr(e, d);
        if e.rank() > 0 {
            return format!("copy ({v})");
        }
        v
    }

    /// A helper definition: value parameters (arrays may share a size
    /// parameter `[n]`), sometimes a function parameter.
    fn helper(&mut self, k: usize) -> String {
        let name = format!("{}_h{k}", self.prefix);
        let nparams = 1 + self.c.below(3);
        let mut params = vec![];
        let mut text = format!("def {name}");
        let sized = self.c.below(3) == 0;
        if sized {
            text.push_str(" [n]");
        }
        let mut ptext = String::new();
        let mut used_n = false;
        for _ in 0..nparams {
            if self.c.below(4) == 0 {
                let nargs = 1 + self.c.below(2);
                let args: Vec<Ty> = (0..nargs).map(|_| self.scalar_ty()).collect();
                let ret = self.scalar_ty();
                let f = self.fresh("f");
                let sig: Vec<String> = args.iter().map(|a| a.text()).collect();
                let _ = write!(ptext, " ({f}: {} -> {})", sig.join(" -> "), ret.text());
                params.push(Param::Fun(FunParam { name: f, args, ret }));
            } else {
                let t = self.ty(1);
                let p = self.fresh("a");
                let tt = match &t {
                    Ty::Arr(e) if sized => {
                        used_n = true;
                        format!("[n]{}", e.text())
                    }
                    _ => t.text(),
                };
                let _ = write!(ptext, " ({p}: {tt})");
                params.push(Param::Val(p, t));
            }
        }
        if sized && !used_n {
            // keep the size parameter bound
            let p = self.fresh("a");
            let _ = write!(ptext, " ({p}: [n]f64)");
            params.push(Param::Val(p, Ty::arr(Ty::F64)));
        }
        text.push_str(&ptext);
        let ret = self.ty(1);
        let _ = write!(text, " : {} =\n  ", ret.text());
        let saved_vars = std::mem::take(&mut self.vars);
        let saved_funs = std::mem::take(&mut self.funs);
        for p in &params {
            match p {
                Param::Val(n, t) => self.vars.push((n.clone(), t.clone())),
                Param::Fun(f) => self.funs.push(f.clone()),
            }
        }
        if sized {
            self.vars.push(("n".into(), Ty::I64));
        }
        let depth = 1 + self.c.below(MAX_DEPTH - 1);
        let body = self.expr(&ret, depth);
        self.vars = saved_vars;
        self.funs = saved_funs;
        text.push_str(&body);
        text.push_str("\n\n");
        self.helpers.push(Helper { name, params, ret });
        text
    }

    /// The entry point and its inputs.
    fn entry(&mut self) -> (String, String, Vec<String>) {
        if self.empty {
            return self.entry_biased();
        }
        let name = format!("{}_main", self.prefix);
        let nparams = 1 + self.c.below(4);
        let mut ps: Vec<(String, Ty, bool)> = vec![];
        for k in 0..nparams {
            let t = self.ty(1);
            let t = match t {
                // entry parameters: no nested tuples of arrays
                Ty::Tup(ts) if ts.iter().any(|x| !x.is_scalar()) => Ty::arr(Ty::F64),
                t => t,
            };
            let sized = matches!(t, Ty::Arr(_)) && self.c.below(2) == 0;
            let name = format!("{}{k}", ["a", "b", "c", "e"][k % 4]);
            if t == Ty::I64 {
                self.small.push(name.clone());
            }
            ps.push((name, t, sized));
        }
        let any_sized = ps.iter().any(|p| p.2);
        let mut text = format!("entry {name}");
        if any_sized {
            text.push_str(" [n]");
        }
        for (p, t, sized) in &ps {
            let tt = match t {
                Ty::Arr(e) if *sized => format!("[n]{}", e.text()),
                _ => t.text(),
            };
            let _ = write!(text, " ({p}: {tt})");
        }
        let ret = self.ty(1);
        let ret_text = match &ret {
            Ty::Arr(e) if any_sized && self.c.below(6) == 0 => format!("[n]{}", e.text()),
            _ => ret.text(),
        };
        let _ = write!(text, " : {ret_text} =\n  ");
        self.vars = ps.iter().map(|(n, t, _)| (n.clone(), t.clone())).collect();
        if any_sized {
            self.vars.push(("n".into(), Ty::I64));
        }
        let depth = 1 + self.c.weighted(&[1, 2, 3, 3, 2]).min(MAX_DEPTH - 1);
        let body = self.expr(&ret, depth);
        text.push_str(&body);
        text.push('\n');
        // inputs: two cases
        let mut inputs = vec![];
        for _ in 0..2 {
            let n = self.c.weighted(&[2, 4, 4, 3, 2]);
            let mut vals = vec![];
            for (_, t, sized) in &ps {
                let len = if *sized && self.c.below(8) != 0 {
                    n
                } else {
                    self.c.weighted(&[2, 4, 4, 3, 2])
                };
                vals.push(self.value(t, Some(len)));
            }
            inputs.push(vals.join(" "));
        }
        (name, text, inputs)
    }

    /// A length of an input array: as unbiased, or 0 and 1 most of the time.
    fn input_len(&mut self) -> usize {
        if self.empty {
            self.c.weighted(&[6, 6, 1, 1])
        } else {
            self.c.weighted(&[2, 4, 4, 3, 2])
        }
    }

    /// The entry point of a program biased towards empty dimensions: size
    /// parameters `[n][m]`, array parameters whose outer one or two dimensions
    /// are named (`[n]`, `[m]`, `[n][m]`, `[m][n]`), a result that often names
    /// them too, and inputs whose lengths are 0 or 1 most of the time (and
    /// rarely disagree with a shared size, as unbiased).
    fn entry_biased(&mut self) -> (String, String, Vec<String>) {
        let name = format!("{}_main", self.prefix);
        let nparams = 1 + self.c.below(4);
        let mut ps: Vec<(String, Ty, Vec<&'static str>)> = vec![];
        for k in 0..nparams {
            let t = self.ty(1);
            let t = match t {
                Ty::Tup(ts) if ts.iter().any(|x| !x.is_scalar()) => Ty::arr(Ty::arr(Ty::F64)),
                t => t,
            };
            let dims: Vec<&'static str> = match &t {
                Ty::Arr(e) => {
                    let nested = matches!(**e, Ty::Arr(_));
                    match self.c.weighted(&[1, 2, 2, if nested { 3 } else { 0 }]) {
                        1 => vec!["n"],
                        2 => vec!["m"],
                        3 => [vec!["n", "m"], vec!["m", "n"]][self.c.below(2)].clone(),
                        _ => vec![],
                    }
                }
                _ => vec![],
            };
            let pname = format!("{}{k}", ["a", "b", "c", "e"][k % 4]);
            if t == Ty::I64 {
                self.small.push(pname.clone());
            }
            ps.push((pname, t, dims));
        }
        let sizes: Vec<&'static str> = ["n", "m"]
            .into_iter()
            .filter(|s| ps.iter().any(|p| p.2.contains(s)))
            .collect();
        let mut text = format!("entry {name}");
        for s in &sizes {
            let _ = write!(text, " [{s}]");
        }
        for (p, t, dims) in &ps {
            let _ = write!(text, " ({p}: {})", dims_text(t, dims));
        }
        // the result: an array of arrays half of the time
        let ret = if self.c.below(2) == 0 {
            Ty::arr(Ty::arr(self.scalar_ty()))
        } else {
            self.ty(1)
        };
        let ret_dims: Vec<&'static str> = match &ret {
            Ty::Arr(e) if !sizes.is_empty() => {
                let mut options: Vec<Vec<&'static str>> = vec![vec![]];
                for s in &sizes {
                    options.push(vec![s]);
                }
                if matches!(**e, Ty::Arr(_)) {
                    for a in &sizes {
                        for b in &sizes {
                            options.push(vec![a, b]);
                        }
                    }
                }
                // (the checker rejects a body whose size it knows to differ:
                // named result sizes are a minority)
                let mut w = vec![3 * (options.len() as u32 - 1)];
                w.extend(std::iter::repeat_n(1, options.len() - 1));
                options[self.c.weighted(&w)].clone()
            }
            _ => vec![],
        };
        let _ = write!(text, " : {} =\n  ", dims_text(&ret, &ret_dims));
        self.vars = ps.iter().map(|(n, t, _)| (n.clone(), t.clone())).collect();
        for s in &sizes {
            self.vars.push((s.to_string(), Ty::I64));
        }
        let depth = 1 + self.c.weighted(&[1, 2, 3, 3, 2]).min(MAX_DEPTH - 1);
        let body = self.expr(&ret, depth);
        text.push_str(&body);
        text.push('\n');
        let mut inputs = vec![];
        for _ in 0..2 {
            let (n, m) = (self.input_len(), self.input_len());
            let mut vals = vec![];
            for (_, t, dims) in &ps {
                let mut lens = [None, None];
                for (k, d) in dims.iter().enumerate() {
                    let shared = if *d == "n" { n } else { m };
                    lens[k] = Some(if self.c.below(8) != 0 {
                        shared
                    } else {
                        self.input_len()
                    });
                }
                vals.push(self.value_dims(t, lens[0], lens[1]));
            }
            inputs.push(vals.join(" "));
        }
        (name, text, inputs)
    }

    /// An input value in the text format (docs/language.md §7).
    fn value(&mut self, t: &Ty, len: Option<usize>) -> String {
        self.value_dims(t, len, None)
    }

    /// An input value whose outer length is `len` and, for an array of arrays,
    /// whose rows have the length `inner` (each drawn when `None`).
    fn value_dims(&mut self, t: &Ty, len: Option<usize>, inner: Option<usize>) -> String {
        match t {
            Ty::F64 | Ty::F32 => {
                let pool = [
                    "0.0", "1.0", "-1.0", "0.5", "-0.0", "2.5", "-3.25", "1e308", "5e-324", "nan",
                    "inf", "-inf", "0.1", "123.456",
                ];
                let v = pool[self.c.weighted(&[5, 5, 4, 3, 3, 3, 2, 1, 1, 1, 1, 1, 2, 2])];
                if *t == Ty::F32 {
                    match v {
                        "1e308" => "3e38f32".to_string(),
                        "5e-324" => "1e-45f32".to_string(),
                        _ => format!("{v}f32"),
                    }
                } else {
                    v.to_string()
                }
            }
            Ty::I64 => ["0", "1", "2", "3", "-1", "5", "-4"]
                [self.c.weighted(&[5, 5, 4, 4, 3, 2, 2])]
            .to_string(),
            Ty::I32 => ["0i32", "1i32", "2i32", "-1i32", "7i32", "-2147483648i32"]
                [self.c.weighted(&[5, 5, 4, 3, 2, 1])]
            .to_string(),
            Ty::U8 => ["0u8", "1u8", "2u8", "255u8", "128u8", "31u8"]
                [self.c.weighted(&[5, 5, 4, 3, 2, 1])]
            .to_string(),
            Ty::U64 => [
                "0u64",
                "1u64",
                "5u64",
                "18446744073709551615u64",
                "4294967296u64",
            ][self.c.weighted(&[5, 5, 4, 2, 1])]
            .to_string(),
            Ty::Bool => if self.c.below(2) == 0 {
                "true"
            } else {
                "false"
            }
            .to_string(),
            Ty::Tup(ts) => {
                let parts: Vec<String> = ts.iter().map(|t| self.value(t, None)).collect();
                format!("({})", parts.join(", "))
            }
            Ty::Arr(e) => {
                let n = len.unwrap_or_else(|| self.input_len());
                // rows of a nested array share their length (regular)
                let inner = if matches!(**e, Ty::Arr(_)) {
                    Some(inner.unwrap_or_else(|| {
                        if self.empty {
                            self.c.weighted(&[6, 6, 1, 1])
                        } else {
                            self.c.weighted(&[2, 4, 4, 3])
                        }
                    }))
                } else {
                    None
                };
                let xs: Vec<String> = (0..n).map(|_| self.value(e, inner)).collect();
                format!("[{}]", xs.join(", "))
            }
        }
    }
}

/// A type's text with its outer dimensions named by `dims` (`[n][m]f64`).
fn dims_text(t: &Ty, dims: &[&str]) -> String {
    match (t, dims.split_first()) {
        (Ty::Arr(e), Some((d, rest))) => format!("[{d}]{}", dims_text(e, rest)),
        _ => t.text(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_choices_give_a_minimal_program() {
        let p = generate(&[], "p");
        assert!(p.source.contains("entry p_main"), "{}", p.source);
        assert_eq!(p.inputs.len(), 2);
    }

    #[test]
    fn reproducers_read_back() {
        let cs: Vec<u32> = (0..300u32).map(|x| x.wrapping_mul(2654435761)).collect();
        let p = generate(&cs, "q");
        let q = GenProgram::from_weir_file(&p.as_weir_file()).expect("reads back");
        assert_eq!(q.entry, p.entry);
        assert_eq!(q.inputs, p.inputs);
        assert_eq!(q.source.trim_end(), p.source.trim_end());
    }

    #[test]
    fn generation_is_deterministic() {
        let cs: Vec<u32> = (0..500u32).map(|x| x.wrapping_mul(2654435761)).collect();
        let a = generate(&cs, "q");
        let b = generate(&cs, "q");
        assert_eq!(a.source, b.source);
        assert_eq!(a.inputs, b.inputs);
    }
}
