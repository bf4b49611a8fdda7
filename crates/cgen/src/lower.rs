//! DPS IR → imperative IR.
//!
//! - Array variables become a pointer and one `int64_t` per dimension.
//! - `alloc` scopes become region push / bump allocations / region pop (the
//!   default), or system allocations and frees (ablation variants).
//! - Loads, rows and slices get bounds checks; a check is dropped when it is
//!   provable (an index counting up to a bound known equal to the dimension), and
//!   a check of `i + c` in a loop over `i` whose array was bound outside the loop
//!   is hoisted in front of the loop (one check of the first and last index).
//! - `reduce` with `+` or `*` becomes a vectorisable reduction loop.
//! - A loop with array state double-buffers: the body writes the next state into
//!   a scratch array, the pointers swap, and at the end the state is copied into
//!   the destination if it ended in the scratch.

use crate::imp::{self, AllocKind, CTy, Exp, Stmt as I};
use crate::{MemMode, Options};
use std::collections::{BTreeMap, HashMap};
use weir_dps::ir::*;
use weir_dps::mem::{Lmad, LmadDim};

/// The side of the square tiles a strided copy of rank 2 or more runs in
/// (64 x 64 `f64`s: 32 KiB of the source, which stays in the L1/L2 cache
/// while it is read down its columns; measured on `transpose-cat`).
pub const COPY_TILE: i64 = 64;

/// What the entry wrappers need to know about an entry point.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryInfo {
    pub name: String,
    pub body_fn: String,
    pub dests: Vec<(PrimType, usize)>,
    pub params: Vec<Param>,
    /// The scalar results, then the returned sizes ([`ResultPart::Size`]),
    /// each through a pointer `retK`.
    pub scalar_results: Vec<PrimType>,
    /// Destination dims that are upper bounds: (destination, dim, K of the
    /// `retK` that receives the size written).
    pub sizes: Vec<(usize, usize, usize)>,
    /// The entry's location (argument and destination errors).
    pub loc: usize,
    /// For each destination and dim, the location of the construct that
    /// computes it (negative or overflowing sizes in the shape function).
    pub dim_locs: Vec<Vec<usize>>,
}

/// A Weir (or IR) name as a fragment of a C identifier, injectively: letters,
/// digits and `_` stay, except `Z`, which is `ZZ`; `'` is `Zq` and a
/// module's `.` is `Zm`. So in what this gives, a `Z` is always followed by
/// `Z`, `q`, `m` or `u` (counting `Z`s in pairs from the left), and no Weir name
/// gives a fragment beginning `Z_`, `Zv` or ending in a lone `Z`.
pub fn esc(n: &str) -> String {
    let mut s = String::with_capacity(n.len() + 2);
    for c in n.chars() {
        match c {
            'Z' => s.push_str("ZZ"),
            '\'' => s.push_str("Zq"),
            '.' => s.push_str("Zm"),
            c if c.is_ascii_alphanumeric() || c == '_' => s.push(c),
            // (not a Weir identifier character: its code point, `Zu<hex>_`)
            c => {
                let _ = std::fmt::Write::write_fmt(&mut s, format_args!("Zu{:x}_", c as u32));
            }
        }
    }
    s
}

/// A variable (or parameter) of the IR as a C local. The C names of
/// different IR names differ, and none is a C keyword, a macro or function
/// of the C library or a name of the runtime or of the emitter: an escaped
/// name ([`esc`]) that starts with a lower-case letter and ends in `_N` (as
/// the elaborator names every variable: `x_3`) or is letters then digits (the
/// DPS translation's `b2`), and does not start with `weir`, is itself;
/// any other is `Zv` + its escape + `Z` (`M_PI_2`, which `<math.h>`
/// defines, is `ZvM_PI_2Z`). The names derived from a C local (`x_3_d0`)
/// end in neither `_N` nor a lone `Z`, so they are no C local; those the
/// lowering makes (`x_3_n_2w`, `Lower::fresh`) are themselves.
pub fn c_name(n: &str) -> String {
    if made_by_lowering(n) {
        return n.to_string();
    }
    let e = esc(n);
    if plain_local(&e) {
        e
    } else {
        format!("Zv{e}Z")
    }
}

/// A name [`Lower::fresh`] made (`x_3_n_2w`, `ZvM_PIZ_next_4w`), which
/// no IR name is (the elaborator's end in a number): itself.
fn made_by_lowering(e: &str) -> bool {
    let c_chars = e.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
    c_chars
        && e.rsplit_once('_').is_some_and(|(head, last)| {
            !head.is_empty()
                && last
                    .strip_suffix('w')
                    .is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
        })
}

fn plain_local(e: &str) -> bool {
    let b = e.as_bytes();
    if !b.first().is_some_and(|c| c.is_ascii_lowercase()) || e.starts_with("weir") {
        return false;
    }
    let digits_end = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    match e.rsplit_once('_') {
        // `x_3`: a lower-case name, the elaborator's number
        Some((_, last)) => digits_end(last),
        // `b2`: lower-case letters then digits (not a predefined `i386`)
        None => {
            let k = b.iter().position(|c| c.is_ascii_digit()).unwrap_or(b.len());
            k > 0
                && b[..k].iter().all(|c| c.is_ascii_lowercase())
                && digits_end(&e[k..])
                && !e.starts_with("i386")
        }
    }
}

/// An entry's name as the user sees it in C (`weir c`'s `weir_E`, a
/// library's `NAME_E`): `x'` is `x_q`, a module's `m.f` is `m__f`. Not
/// injective: clashes are reported (`crate::public_clashes`).
pub fn pub_name(n: &str) -> String {
    n.replace('\'', "_q").replace('.', "__")
}

/// The private C name of an entry's DPS function (`public`: `weir c`'s
/// exported `weir_E`); its shape function is [`shape_fn`] of it.
pub fn entry_fn(n: &str, public: bool) -> String {
    if public {
        // (marked until the text is finished: `crate::names::privatize`)
        format!("{}{}", crate::names::PUBLIC_MARK, pub_name(n))
    } else {
        format!("weirf_e_{}", esc(n))
    }
}

/// The shape function of the entry function `internal` ([`entry_fn`]).
pub fn shape_fn(internal: &str) -> String {
    match internal.strip_prefix("weirf_e_") {
        Some(r) => format!("weirf_s_{r}"),
        None => format!("{internal}_shape"),
    }
}

fn dim_name(a: &str, k: usize) -> String {
    format!("{}_d{k}", c_name(a))
}

fn stride_name(a: &str, k: usize) -> String {
    format!("{}_s{k}", c_name(a))
}

/// The C function of a Weir function. The C names the backend makes are
/// `weiri_…` (the runtime's and the emitter's own), `weirf_KIND_` + the
/// escaped Weir name (a function's body `weirf_f_`, an entry's argument
/// check `weirf_args_`, ...): no Weir name gives these, as every name
/// derived from one is a C local ([`c_name`]), `weir_` + its name (`weir c`)
/// or a library's `NAME_` + its name (a library name never starts with
/// `weir`).
pub fn fun_c_name(f: &str) -> String {
    format!("weirf_f_{}", esc(f))
}

pub fn lower_program(p: &Program, opts: &Options, locate: &dyn Fn(Span) -> String) -> imp::Unit {
    let mut unit = imp::Unit::default();
    let mut locs: HashMap<String, usize> = HashMap::new();
    // (which destinations may be `restrict`: from where every array's memory
    // comes, `crate::alias`)
    let restrict = crate::alias::restrict_dests(p);
    for f in &p.funs {
        let mut l = Lower {
            opts,
            locate,
            locs: &mut locs,
            unit_locs: &mut unit.locs,
            arrays: HashMap::new(),
            strided: Default::default(),
            placed: Default::default(),
            counts: HashMap::new(),
            is_entry: f.entry,
            scalars: HashMap::new(),
            canon: HashMap::new(),
            counters: HashMap::new(),
            hoist: Vec::new(),
            loops: Vec::new(),
            nest: 0,
            fun_params: std::collections::HashSet::new(),
            arr_level: HashMap::new(),
            local_level: HashMap::new(),
            level: 0,
            cond_depth: vec![0],
            fresh: 0,
            fun_span: f.span,
            need_inside: Vec::new(),
            need_branch: Vec::new(),
            conds: HashMap::new(),
            offsets: HashMap::new(),
            guards: Vec::new(),
            growing: HashMap::new(),
            soft_views: std::collections::HashSet::new(),
            marks: Vec::new(),
            dest_index: f
                .dests
                .iter()
                .enumerate()
                .map(|(k, d)| (d.name.clone(), k))
                .collect(),
        };
        let mut func = l.fun(f);
        func.restrict = f
            .dests
            .iter()
            .zip(restrict.get(&f.name).into_iter().flatten())
            .filter(|(_, ok)| **ok)
            .map(|(d, _)| c_name(&d.name))
            .collect();
        unit.funcs.push(func);
        if f.entry {
            let loc = l.loc(f.span);
            let dim_locs = f
                .dests
                .iter()
                .map(|d| {
                    (0..d.shape.len())
                        .map(|j| l.loc(d.spans.get(j).copied().unwrap_or(f.span)))
                        .collect()
                })
                .collect();
            unit.entries.push(EntryInfo {
                loc,
                dim_locs,
                name: f.name.clone(),
                body_fn: fun_c_name(&f.name),
                dests: f.dests.iter().map(|d| (d.elem, d.shape.len())).collect(),
                params: f.params.clone(),
                scalar_results: f
                    .results
                    .iter()
                    .filter_map(|r| match r {
                        ResultPart::Scalar(p) => Some(*p),
                        ResultPart::Size { .. } => Some(PrimType::I64),
                        ResultPart::Dest(_) => None,
                    })
                    .collect(),
                sizes: f
                    .results
                    .iter()
                    .filter(|r| !matches!(r, ResultPart::Dest(_)))
                    .enumerate()
                    .filter_map(|(k, r)| match r {
                        ResultPart::Size { dest, dim } => Some((*dest, *dim, k)),
                        _ => None,
                    })
                    .collect(),
            });
        }
    }
    unit
}

/// A key for "known equal" facts: a scalar variable or an array dimension.
fn dkey(a: &str, k: usize) -> String {
    format!("{a}#{k}")
}

struct Lower<'a> {
    opts: &'a Options,
    locate: &'a dyn Fn(Span) -> String,
    locs: &'a mut HashMap<String, usize>,
    unit_locs: &'a mut Vec<String>,
    arrays: HashMap<Name, (PrimType, usize)>,
    /// The arrays that are not dense and row-major (a transpose, a reverse,
    /// the views of them): their index function has explicit strides, C
    /// variables `x_s0 … x_s{r-1}` (in elements; the pointer `x` points at
    /// element `[0, …, 0]`). Every other array's strides are implicit, the
    /// products of its inner dims.
    strided: std::collections::HashSet<Name>,
    /// The arrays made by a placed view ([`View::Placed`]): a copy from one
    /// into its own part copies nothing.
    placed: std::collections::HashSet<Name>,
    /// The element-count variable of each lazily allocated buffer (-1: too
    /// large for memory, its out-of-memory error still to come).
    counts: HashMap<Name, Name>,
    /// Is the function an entry point (whose results may be missing)?
    is_entry: bool,
    scalars: HashMap<Name, PrimType>,
    /// Facts: this scalar / dimension equals that atom.
    canon: HashMap<String, Atom>,
    /// Loop counters and their bounds (canonical), with the loop level.
    counters: HashMap<Name, (Atom, usize)>,
    /// Checks hoisted in front of the loop at each level (innermost last).
    hoist: Vec<Vec<I>>,
    /// The loops whose bodies are being lowered, outermost first (parallel
    /// to [`Lower::hoist`]): where a size check may be hoisted to.
    loops: Vec<LoopFrame>,
    /// How many statement lists are being lowered (the nesting of blocks).
    nest: usize,
    /// The function's scalar parameters.
    fun_params: std::collections::HashSet<Name>,
    /// Loop level at which each array was bound.
    arr_level: HashMap<Name, usize>,
    /// Loop level at which each scalar was bound.
    local_level: HashMap<Name, usize>,
    level: usize,
    /// Depth of `if` branches at each loop level (checks in a branch stay put).
    cond_depth: Vec<usize>,
    fresh: usize,
    fun_span: Span,
    /// The function's destinations, by name: their index.
    dest_index: HashMap<Name, usize>,
    /// Out-of-memory checks of buffers hoisted out of loops, waiting for the
    /// first statement that uses the buffer inside a loop body (see
    /// [`Lower::place_needs`]).
    need_inside: Vec<(Name, I)>,
    /// Out-of-memory checks of buffers an `if` is the first to use (not in
    /// its condition): placed in each branch before the branch's first use,
    /// so a branch's own earlier errors come first (see [`Lower::place_needs`]).
    need_branch: Vec<(Name, I)>,
    /// Boolean variables that are a bounds test: `x >= 0`, `x < n`, `a && b`.
    conds: HashMap<Name, Cond>,
    /// `i64` lets that are a sum (`x = y + z`: `(y, z, 1)`), a difference
    /// (`(y, z, -1)`), the larger of 0 and a value (`x = max 0 y`: `(y,
    /// 0, 0)`), the smaller of two (`x = min y z`: `(y, z, 2)`) or the
    /// larger of a positive constant and a value (`x = max c y`: `(y, c,
    /// 3)`): what a bounds check of a loop counter plus an offset is
    /// proved with ([`Lower::in_range`]).
    offsets: HashMap<Name, (Atom, Atom, i64)>,
    /// `(x, n)` with `0 <= x < n` known in the current `if` branch (both
    /// canonical): the tests of the enclosing branches.
    guards: Vec<(Atom, Atom)>,
    /// The `next` of each growing loop state ([`ArrState::grow`]) in scope:
    /// what its [`Stmt::Grow`] updates.
    growing: HashMap<Name, Growing>,
    /// Storage grown softly ([`Stmt::Grow`] with `soft`) and the views of
    /// it: while the growth is skipped they stand for rows that do not exist
    /// (see `weir_grow_soft`), so a reshape of them is not checked then.
    soft_views: std::collections::HashSet<Name>,
    /// The region marks of the scopes being lowered, outermost first (see
    /// [`Lower::grow`]).
    marks: Vec<Name>,
}

/// A loop whose body is being lowered (see [`Lower::hoist_check`]).
struct LoopFrame {
    /// [`Lower::level`] inside the body.
    level: usize,
    /// [`Lower::nest`] of the body's statement list.
    nest: usize,
    /// The trip count of a counted loop; `None`: nothing leaves this loop.
    trips: Option<Atom>,
    /// Nothing lowered in the body so far can fail.
    pure: bool,
}

/// The C variables of a growing loop state's next storage.
#[derive(Clone)]
struct Growing {
    /// The loop's pointer to the next state's storage, and its capacity (rows).
    ptr: Name,
    cap: Name,
    elem: PrimType,
    /// The inner dims (every dim but the outer).
    inner: Vec<Exp>,
    loc: usize,
    /// How many of [`Lower::marks`] are outside the loop's body.
    marks_at: usize,
}

/// A bounds test a boolean variable stands for (see [`Lower::guards`]).
#[derive(Clone)]
enum Cond {
    NonNeg(Atom),
    Less(Atom, Atom),
    And(Name, Name),
}

/// A linear form: the coefficient of each canonical name, and a constant
/// (`None` on overflow).
type LinearForm = Option<(BTreeMap<Name, i64>, i64)>;
type LinearMemo = HashMap<(Name, usize), LinearForm>;

impl Lower<'_> {
    fn fresh(&mut self, base: &str) -> String {
        self.fresh += 1;
        format!("{base}_{}w", self.fresh)
    }

    fn loc(&mut self, span: Span) -> usize {
        let span = if span == Span::default() {
            self.fun_span
        } else {
            span
        };
        let s = (self.locate)(span);
        if let Some(&k) = self.locs.get(&s) {
            return k;
        }
        let k = self.unit_locs.len();
        self.unit_locs.push(s.clone());
        self.locs.insert(s, k);
        k
    }

    fn canon_key(&self, key: &str) -> Atom {
        let mut cur = Atom::Var(key.to_string());
        for _ in 0..64 {
            match &cur {
                Atom::Var(v) => match self.canon.get(v) {
                    Some(next) if next != &cur => cur = next.clone(),
                    _ => break,
                },
                Atom::Const(_) => break,
            }
        }
        cur
    }

    fn canon_atom(&self, a: &Atom) -> Atom {
        match a {
            Atom::Var(v) => self.canon_key(v),
            Atom::Const(_) => a.clone(),
        }
    }

    fn equate(&mut self, key: String, a: &Atom) {
        let target = self.canon_atom(a);
        if let Atom::Var(t) = &target
            && *t == key
        {
            return;
        }
        self.canon.insert(key, target);
    }

    fn atom(&self, a: &Atom) -> Exp {
        match a {
            Atom::Var(v) => match v.split_once('#') {
                // A canonical dimension key `a#k` is the C variable `a_dk`.
                Some((arr, k)) => Exp::Var(format!("{}_d{k}", c_name(arr))),
                None => Exp::Var(c_name(v)),
            },
            Atom::Const(c) => Exp::Const(*c),
        }
    }

    fn dim(&self, a: &str, k: usize) -> Exp {
        Exp::Var(dim_name(a, k))
    }

    fn prim_of(&self, a: &Atom) -> PrimType {
        match a {
            Atom::Const(c) => c.prim(),
            Atom::Var(v) => self.scalars.get(v).copied().unwrap_or(PrimType::I64),
        }
    }

    fn rank(&self, a: &str) -> usize {
        self.arrays.get(a).map(|x| x.1).unwrap_or(1)
    }

    fn elem(&self, a: &str) -> PrimType {
        self.arrays.get(a).map(|x| x.0).unwrap_or(PrimType::F64)
    }

    /// The stride of dimension `k` of `a`, in elements: its stride variable
    /// when `a` is strided, else the product of its inner dims.
    fn stride(&self, a: &str, k: usize) -> Exp {
        if self.strided.contains(a) {
            Exp::Var(stride_name(a, k))
        } else {
            self.elems_from(a, k + 1)
        }
    }

    /// Declare the strides of the strided array `name` (after its pointer
    /// and dims, [`Lower::declare_array`]).
    fn declare_strides(&mut self, out: &mut Vec<I>, name: &str, strides: Vec<Exp>) {
        for (k, st) in strides.into_iter().enumerate() {
            out.push(I::Decl(
                stride_name(name, k),
                CTy::Prim(PrimType::I64),
                Some(st),
            ));
        }
        self.strided.insert(name.to_string());
    }

    /// The index function of `a` (dps `mem`'s [`Lmad`]) in C: from its
    /// pointer (offset 0), over its dim variables and its strides.
    fn lmad(&self, a: &str) -> Lmad<Exp> {
        self.lmad_of_rank(a, self.rank(a))
    }

    /// [`Lower::lmad`] over the first `rank` dims of `a`.
    fn lmad_of_rank(&self, a: &str, rank: usize) -> Lmad<Exp> {
        Lmad {
            offset: Exp::i64(0),
            dims: (0..rank)
                .map(|k| LmadDim {
                    size: self.dim(a, k),
                    stride: self.stride(a, k),
                })
                .collect(),
        }
    }

    /// Declare `var`, a view of `a`'s memory through the index function
    /// `l` (computed from [`Lower::lmad`] of `a` by the views algebra): its
    /// pointer `a + offset`, its dims, and its strides where `a` is strided
    /// or the view makes it so (`strides`).
    fn declare_view(
        &mut self,
        out: &mut Vec<I>,
        var: &str,
        elem: PrimType,
        a: &str,
        l: Lmad<Exp>,
        strides: bool,
    ) {
        let (st, dims) = (l.strides(), l.sizes());
        let ptr = pointer_at(a, l.offset);
        let strided = strides || self.strided.contains(a);
        self.declare_array(out, var, elem, ptr, dims, false);
        if strided {
            self.declare_strides(out, var, st);
        }
    }

    /// [`Lower::declare_view`] where the algebra gives an index function
    /// (`a` has the rank the view needs, which the verifier ensures); else
    /// `var` is declared as `a` itself with its `rank` dims.
    #[allow(clippy::too_many_arguments)]
    fn declare_view_or_own(
        &mut self,
        out: &mut Vec<I>,
        var: &str,
        elem: PrimType,
        a: &str,
        l: Option<Lmad<Exp>>,
        strides: bool,
        rank: usize,
    ) {
        let l = l.unwrap_or_else(|| self.lmad_of_rank(a, rank));
        self.declare_view(out, var, elem, a, l, strides);
    }

    /// Number of elements of `a` from dimension `from` on.
    fn elems_from(&self, a: &str, from: usize) -> Exp {
        let r = self.rank(a);
        let mut e: Option<Exp> = None;
        for k in from..r {
            let d = self.dim(a, k);
            e = Some(match e {
                None => d,
                Some(x) => Exp::op("*", x, d),
            });
        }
        e.unwrap_or(Exp::i64(1))
    }

    fn declare_array(
        &mut self,
        out: &mut Vec<I>,
        name: &str,
        elem: PrimType,
        ptr: Exp,
        dims: Vec<Exp>,
        konst: bool,
    ) {
        out.push(I::Decl(c_name(name), CTy::Ptr(elem, konst), Some(ptr)));
        for (k, d) in dims.into_iter().enumerate() {
            out.push(I::Decl(
                dim_name(name, k),
                CTy::Prim(PrimType::I64),
                Some(d),
            ));
        }
        self.arr_level.insert(name.to_string(), self.level);
    }

    /// Is `0 <= idx < dim k of a` provable?
    fn provably_in_bounds(&self, a: &str, k: usize, idx: &Atom) -> bool {
        let len = self.canon_key(&dkey(a, k));
        match self.canon_atom(idx) {
            Atom::Const(Const::I64(c)) => {
                matches!(len, Atom::Const(Const::I64(m)) if c >= 0 && c < m)
            }
            Atom::Var(v) => match self.counters.get(&v) {
                Some((bound, _)) if *bound == len => true,
                _ => {
                    self.guards
                        .iter()
                        .any(|(x, n)| *x == Atom::Var(v.clone()) && *n == len)
                        || self.in_range(idx, &len)
                        || self.in_range_by_bounds(idx, &len)
                }
            },
            _ => false,
        }
    }

    /// Is `0 <= lo <= hi <= len` provable? Where `lo` is 0 (or `hi`) and
    /// `hi` is `len`, 0, or a value in range of `len` (a loop counter below
    /// it: `a[:i]` in a loop `i < length a`).
    fn slice_in_range(&self, lo: &Atom, hi: &Atom, len: &Atom) -> bool {
        let (lo, hi, len) = (
            self.canon_atom(lo),
            self.canon_atom(hi),
            self.canon_atom(len),
        );
        let zero = Atom::Const(Const::I64(0));
        (lo == zero || lo == hi)
            && (hi == len
                || hi == zero
                || matches!(&hi, Atom::Var(v) if self.counters.get(v).is_some_and(|(b, _)| *b == len))
                || self.in_range(&hi, &len))
    }

    /// Record an `i64` let that is a sum or difference (of values and
    /// constants), or `max 0 x`.
    fn note_offset(&mut self, var: &str, e: &SExp) {
        let v = match e {
            SExp::Bin(BinOp::Add, x, y) => (x.clone(), y.clone(), 1),
            SExp::Bin(BinOp::Sub, x, y) => (x.clone(), y.clone(), -1),
            SExp::Math(weir_ir::MathFn::Max, xs) => match xs.as_slice() {
                [Atom::Const(Const::I64(0)), x] | [x, Atom::Const(Const::I64(0))] => {
                    (x.clone(), Atom::Const(Const::I64(0)), 0)
                }
                [c @ Atom::Const(Const::I64(k)), x] | [x, c @ Atom::Const(Const::I64(k))]
                    if *k > 0 =>
                {
                    (x.clone(), c.clone(), 3)
                }
                _ => return,
            },
            SExp::Math(weir_ir::MathFn::Min, xs) => match xs.as_slice() {
                [x, y] => (x.clone(), y.clone(), 2),
                _ => return,
            },
            _ => return,
        };
        self.offsets.insert(var.to_string(), v);
    }

    /// Is the (canonical) name `n` a value never negative: a loop counter,
    /// an array's dim, or a `max c x` with a constant `c >= 0`?
    fn never_negative(&self, n: &str) -> bool {
        self.counters.contains_key(n)
            || n.contains('#')
            || matches!(self.offsets.get(n), Some((_, _, 0 | 3)))
    }

    /// `a` as a linear form over canonical names (following the lets of
    /// sums and differences; a `max 0 x` is a name of its own): the
    /// coefficient of each name, and a constant. `None` past the depth bound
    /// or on overflow. Wrapping arithmetic agrees with the form modulo 2^64.
    fn linear(&self, a: &Atom, depth: usize) -> Option<(BTreeMap<Name, i64>, i64)> {
        self.linear_memo(a, depth, &mut HashMap::new())
    }

    /// [`Self::linear`] with the forms already computed in this walk (by
    /// name and depth): the lets form a DAG (`t = n + n; u = t + t; ...`),
    /// which a plain walk would visit once per path, 2^16 times at the depth
    /// bound.
    fn linear_memo(&self, a: &Atom, depth: usize, memo: &mut LinearMemo) -> LinearForm {
        let a = self.canon_atom(a);
        if let Atom::Var(v) = &a
            && let Some(f) = memo.get(&(v.clone(), depth))
        {
            return f.clone();
        }
        let f = self.linear_step(&a, depth, memo);
        if let Atom::Var(v) = &a {
            memo.insert((v.clone(), depth), f.clone());
        }
        f
    }

    fn linear_step(&self, a: &Atom, depth: usize, memo: &mut LinearMemo) -> LinearForm {
        let v = match a {
            Atom::Const(Const::I64(k)) => return Some((BTreeMap::new(), *k)),
            Atom::Const(_) => return None,
            Atom::Var(v) => v,
        };
        let leaf = || Some((BTreeMap::from([(v.clone(), 1)]), 0));
        let Some((x, y, sign)) = self.offsets.get(v) else {
            return leaf();
        };
        if depth > 16 || !matches!(sign, 1 | -1) {
            return leaf();
        }
        let (mut fx, kx) = self.linear_memo(x, depth + 1, memo)?;
        let (fy, ky) = self.linear_memo(y, depth + 1, memo)?;
        for (n, c) in fy {
            let e = fx.entry(n).or_insert(0);
            *e = e.checked_add(c.checked_mul(*sign)?)?;
        }
        fx.retain(|_, c| *c != 0);
        Some((fx, kx.checked_add(ky.checked_mul(*sign)?)?))
    }

    /// The linear form of an upper bound of the bound `b` of a loop whose
    /// body is being lowered: the body runs only where `b >= 1`, so a bound
    /// `max 0 x` is `x` there, and a bound `min x y` is at most its operand
    /// that is not a constant (only at the top: inside a sum they stay
    /// names).
    /// With `constant`, a `min` with a constant operand is at most that
    /// constant instead.
    fn bound_form(&self, b: &Atom, constant: bool) -> Option<(BTreeMap<Name, i64>, i64)> {
        if let Atom::Var(v) = self.canon_atom(b) {
            match self.offsets.get(&v) {
                Some((x, _, 0)) => return self.linear(x, 0),
                Some((x, y, 2)) => {
                    let x_const = matches!(self.canon_atom(x), Atom::Const(_));
                    return self.linear(if x_const != constant { y } else { x }, 0);
                }
                _ => {}
            }
        }
        self.linear(b, 0)
    }

    /// `idx` is a loop counter `i < b` plus terms that are counters (never
    /// negative) with non-negative coefficients and a constant `>= 0`, and
    /// `b` plus those terms is at most `len` (with `b` seen through `max 0
    /// x`: a loop bounded by it runs only where `x >= 1`, so `i < x`): then
    /// `0 <= idx < len` in every iteration.
    fn in_range(&self, idx: &Atom, len: &Atom) -> bool {
        let Some((fi, ki)) = self.linear(idx, 0) else {
            return false;
        };
        let Some((fl, kl)) = self.linear(len, 0) else {
            return false;
        };
        if ki < 0 {
            return false;
        }
        fi.iter().filter(|(_, c)| **c == 1).any(|(c, _)| {
            let Some((bound, _)) = self.counters.get(c) else {
                return false;
            };
            // the rest of idx: values never negative, coefficients >= 0
            let rest_ok = fi
                .iter()
                .filter(|(n, _)| *n != c)
                .all(|(n, k)| *k >= 0 && self.never_negative(n));
            let Some((fb, kb)) = self.bound_form(bound, false) else {
                return false;
            };
            // len - (bound + rest) has no names and a constant >= 0
            let mut diff = fl.clone();
            for (n, k) in fb.iter().chain(fi.iter().filter(|(n, _)| *n != c)) {
                let e = diff.entry(n.clone()).or_insert(0);
                let Some(d) = e.checked_sub(*k) else {
                    return false;
                };
                *e = d;
            }
            diff.retain(|_, k| *k != 0);
            rest_ok && diff.is_empty() && kb.checked_add(ki).is_some_and(|s| s <= kl)
        })
    }

    /// May the `i64` let `var = x + y` (or `x - y`) be C's own `+` (`-`),
    /// whose overflow is undefined, so that the C compiler sees an affine
    /// index? Yes where no overflow is possible: the form of `var` lies in
    /// the `i64` range ([`Lower::form_fits`]), and so does each operand's,
    /// or the operand is a leaf of the form (a constant, a counter, a value
    /// that is not a sum). Wrapping arithmetic agrees with linear forms
    /// modulo 2^64, so a form in range is the actual value, and the C
    /// operation on the actual operands gives it without overflow.
    fn sum_fits(&self, var: &str, x: &Atom, y: &Atom) -> bool {
        self.form_fits(var) && [x, y].iter().all(|a| self.exact(a))
    }

    /// An operand whose actual value is its linear form (see
    /// [`Lower::sum_fits`]).
    fn exact(&self, a: &Atom) -> bool {
        match self.canon_atom(a) {
            Atom::Const(_) => true,
            Atom::Var(v) => match self.offsets.get(&v) {
                Some((_, _, 1 | -1)) => self.form_fits(&v),
                _ => true,
            },
        }
    }

    /// Does the linear form of `var` lie in the `i64` range in every
    /// iteration of the loops being lowered? Its names must be values never
    /// negative ([`Lower::nonneg`]) with non-negative coefficients (so it is
    /// at least its constant).
    /// Its upper bound: each counter `c` with a positive coefficient,
    /// innermost first, replaced by `b - 1` for its bound `b` (whose form
    /// may name outer counters: LU's `j = k + 1 + jj` with `jj < n - k - 1`
    /// is at most `n - 1`), then counters left with negative coefficients
    /// dropped (they only lower it). The bound must be a constant, or one
    /// value `m` (not a counter) plus a constant `<= 0`: at most `m`, an
    /// `i64`.
    fn form_fits(&self, var: &str) -> bool {
        [false, true].iter().any(|c| self.form_fits_with(var, *c))
    }

    /// [`Lower::form_fits`], bounding the counters bounded by a `min` with
    /// a constant operand by that constant where `constant`.
    fn form_fits_with(&self, var: &str, constant: bool) -> bool {
        let Some((f, k)) = self.linear(&Atom::Var(var.to_string()), 0) else {
            return false;
        };
        if f.is_empty() || !(self.at_least_constant(&f) || self.bounded_below(&f, k)) {
            return false;
        }
        let Some((u, ku)) = self.upper_form(f, k, constant) else {
            return false;
        };
        let mut names = u.iter();
        match (names.next(), names.next()) {
            (None, _) => true,
            (Some((m, 1)), None) => ku <= 0 && !self.counters.contains_key(m),
            _ => false,
        }
    }

    /// Is a linear form at least its constant: every name a value never
    /// negative with a coefficient `>= 0`?
    fn at_least_constant(&self, f: &BTreeMap<Name, i64>) -> bool {
        f.iter().all(|(n, c)| *c >= 0 && self.never_negative(n))
    }

    /// An upper bound of the linear form `f + k` in every iteration of the
    /// loops being lowered: each counter `c` with a positive coefficient,
    /// innermost first, replaced by `b - 1` for its bound `b` (whose form
    /// may name outer counters: LU's `j = k + 1 + jj` with `jj < n - k - 1`
    /// is at most `n - 1`), each value `min x y` with a positive
    /// coefficient by its operand (the constant one where `constant`) as
    /// soon as it appears, so that the counters its other operand names
    /// cancel before they are replaced (a tile's `j0 + jj` with `jj < min
    /// 256 (nj - j0)` is at most `nj - 1`), then the values never negative
    /// with negative coefficients dropped (they only lower it).
    fn upper_form(
        &self,
        f: BTreeMap<Name, i64>,
        k: i64,
        constant: bool,
    ) -> Option<(BTreeMap<Name, i64>, i64)> {
        let (mut u, mut ku) = (f, k);
        for _ in 0..32 {
            // a `min` with a positive coefficient: at most its operand
            let min = u.iter().find_map(|(n, c)| match self.offsets.get(n) {
                Some((x, y, 2)) if *c > 0 && !self.counters.contains_key(n) => {
                    Some((n.clone(), *c, x.clone(), y.clone()))
                }
                _ => None,
            });
            if let Some((n, coef, x, y)) = min {
                let x_const = matches!(self.canon_atom(&x), Atom::Const(_));
                let operand = if x_const != constant { y } else { x };
                let (fb, kb) = self.linear(&operand, 0)?;
                u.remove(&n);
                add_scaled(&mut u, &mut ku, fb, kb, coef)?;
                continue;
            }
            let Some((c, coef)) = self.innermost_counter(&u, true) else {
                break;
            };
            let (fb, kb) = self
                .counters
                .get(&c)
                .and_then(|(b, _)| self.bound_form(b, constant))?;
            u.remove(&c);
            add_scaled(&mut u, &mut ku, fb, kb.checked_sub(1)?, coef)?;
        }
        u.retain(|n, c| !(*c < 0 && self.never_negative(n)));
        Some((u, ku))
    }

    /// A lower bound of the linear form `f + k` in every iteration of the
    /// loops being lowered: each counter `c` with a negative coefficient,
    /// innermost first, replaced by `b - 1` for (an upper bound of) its
    /// bound `b` (a descending index `n - 2 - jj` with `jj < n - 1` is at
    /// least 0), then the values never negative with positive
    /// coefficients dropped (they only raise it).
    fn lower_form(&self, f: BTreeMap<Name, i64>, k: i64) -> Option<(BTreeMap<Name, i64>, i64)> {
        let (mut u, mut ku) = (f, k);
        for _ in 0..32 {
            let Some((c, coef)) = self.innermost_counter(&u, false) else {
                break;
            };
            let (fb, kb) = self
                .counters
                .get(&c)
                .and_then(|(b, _)| self.bound_form(b, false))?;
            u.remove(&c);
            add_scaled(&mut u, &mut ku, fb, kb.checked_sub(1)?, coef)?;
        }
        u.retain(|n, c| !(*c > 0 && self.never_negative(n)));
        Some((u, ku))
    }

    /// The innermost loop counter in `u` with a positive (`positive`) or
    /// negative coefficient, and that coefficient.
    fn innermost_counter(&self, u: &BTreeMap<Name, i64>, positive: bool) -> Option<(Name, i64)> {
        u.iter()
            .filter(|(n, c)| (**c > 0) == positive && **c != 0 && self.counters.contains_key(*n))
            .max_by_key(|(n, _)| self.counters.get(*n).map(|(_, l)| *l))
            .map(|(n, c)| (n.clone(), *c))
    }

    /// Does `a`'s linear form have a loop counter with a negative
    /// coefficient (an index walking down)?
    fn descending(&self, a: &Atom) -> bool {
        self.linear(a, 0).is_some_and(|(f, _)| {
            f.iter()
                .any(|(n, c)| *c < 0 && self.counters.contains_key(n))
        })
    }

    /// Is `f + k` at least a constant of the `i64` range's small part in
    /// every iteration ([`Lower::lower_form`])?
    fn bounded_below(&self, f: &BTreeMap<Name, i64>, k: i64) -> bool {
        self.lower_form(f.clone(), k)
            .is_some_and(|(l, kl)| l.is_empty() && kl.unsigned_abs() <= 1 << 32)
    }

    /// `0 <= idx < len` by bounds ([`Lower::upper_form`]): `idx` is at
    /// least its constant `>= 0`, and `len` minus its upper bound is a
    /// constant `>= 1`. Where [`Lower::in_range`] sees one counter, this
    /// one sees several (a register block's `j0 + jb + l`).
    fn in_range_by_bounds(&self, idx: &Atom, len: &Atom) -> bool {
        let (Some((fi, ki)), Some((fl, kl))) = (self.linear(idx, 0), self.linear(len, 0)) else {
            return false;
        };
        let nonneg = (ki >= 0 && self.at_least_constant(&fi))
            || self
                .lower_form(fi.clone(), ki)
                .is_some_and(|(l, kl)| kl >= 0 && self.at_least_constant(&l));
        if !nonneg {
            return false;
        }
        // `len - 1 - idx >= 0` bounded below as a whole, before any counter
        // is replaced (durbin's `k - 1 - i` in a slice of length `k`: `i`)
        let mut rest = fl.clone();
        for (n, k) in &fi {
            let e = rest.entry(n.clone()).or_insert(0);
            let Some(d) = e.checked_sub(*k) else {
                return false;
            };
            *e = d;
        }
        rest.retain(|_, k| *k != 0);
        let below = kl
            .checked_sub(1)
            .and_then(|d| d.checked_sub(ki))
            .and_then(|k| self.lower_form(rest, k));
        if below.is_some_and(|(l, k)| k >= 0 && self.at_least_constant(&l)) {
            return true;
        }
        [false, true].iter().any(|c| {
            let Some((u, ku)) = self.upper_form(fi.clone(), ki, *c) else {
                return false;
            };
            let mut diff = fl.clone();
            for (n, k) in u {
                let e = diff.entry(n).or_insert(0);
                let Some(d) = e.checked_sub(k) else {
                    return false;
                };
                *e = d;
            }
            diff.retain(|_, k| *k != 0);
            diff.is_empty() && kl.checked_sub(ku).is_some_and(|d| d >= 1)
        })
    }

    /// Record what a boolean `let` tests, when it is part of a bounds test.
    fn note_cond(&mut self, var: &str, e: &SExp) {
        let zero = Atom::Const(Const::I64(0));
        let c = match e {
            SExp::Bin(BinOp::Ge, x, z) if *z == zero => Cond::NonNeg(self.canon_atom(x)),
            SExp::Bin(BinOp::Lt, x, n) => Cond::Less(self.canon_atom(x), self.canon_atom(n)),
            SExp::Bin(BinOp::And, Atom::Var(a), Atom::Var(b)) => Cond::And(a.clone(), b.clone()),
            _ => return,
        };
        self.conds.insert(var.to_string(), c);
    }

    /// The `(x, n)` with `0 <= x < n` that `cond` being true proves.
    fn cond_guards(&self, cond: &Atom) -> Vec<(Atom, Atom)> {
        let mut nonneg = Vec::new();
        let mut less = Vec::new();
        let mut todo: Vec<Name> = match cond {
            Atom::Var(v) => vec![v.clone()],
            Atom::Const(_) => vec![],
        };
        let mut fuel = 64;
        while let Some(v) = todo.pop() {
            fuel -= 1;
            if fuel == 0 {
                break;
            }
            match self.conds.get(&v) {
                Some(Cond::NonNeg(x)) => nonneg.push(x.clone()),
                Some(Cond::Less(x, n)) => less.push((x.clone(), n.clone())),
                Some(Cond::And(a, b)) => {
                    todo.push(a.clone());
                    todo.push(b.clone());
                }
                None => {}
            }
        }
        less.into_iter()
            .filter(|(x, _)| nonneg.contains(x))
            .collect()
    }

    /// Emit (or hoist, or drop) the bounds check of `idx` against dim `k` of `a`.
    fn check_index(&mut self, out: &mut Vec<I>, a: &str, k: usize, idx: &Atom, span: Span) {
        if !self.opts.checks || self.provably_in_bounds(a, k, idx) {
            return;
        }
        let loc = self.loc(span);
        // A check is never moved out of its loop: an error another statement
        // of the body (or an earlier iteration) meets first must stay first,
        // with the index the interpreter reports (docs/language.md §6).
        // Eliminating checks by range belongs with the loop optimizer.
        out.push(I::CheckIndex {
            idx: self.atom(idx),
            len: self.dim(a, k),
            loc,
        });
    }

    /// The scalar's loop level, where it is known: a parameter's is 0; a
    /// canonical dim `a#k`'s is the array's. (A name declared twice has its
    /// last declaration's level, never lower than the one in scope.)
    fn var_level(&self, v: &str) -> Option<usize> {
        if let Some((arr, _)) = v.split_once('#') {
            return self.arr_level.get(arr).copied();
        }
        if self.fun_params.contains(v) {
            return Some(0);
        }
        self.local_level.get(v).copied()
    }

    /// `a`, or what it is known equal to, as an atom defined outside the
    /// loop whose body is at `level`.
    fn outside(&self, a: &Atom, level: usize) -> Option<Exp> {
        let ok = |x: &Atom| match x {
            Atom::Const(_) => true,
            Atom::Var(v) => self.var_level(v).is_some_and(|l| l < level),
        };
        if ok(a) {
            return Some(self.atom(a));
        }
        let c = self.canon_atom(a);
        ok(&c).then(|| self.atom(&c))
    }

    /// Emit the size check `c` of `atoms`, or hoist it in front of the
    /// outermost enclosing counted loops it does not depend on (size
    /// slicing §5: an invariant is checked once, where its operands are
    /// known), guarded by their trip counts being positive.
    ///
    /// Only where the interpreter's first error stays first: the check is a
    /// statement of the loop body itself (not in a branch or a scope), and
    /// nothing lowered before it in the body can fail, in each loop it
    /// leaves; a loop nested in another leaves it only when it is a
    /// statement of the other's body. An iteration that runs then meets the
    /// check first, with the same operands in every iteration; a loop that
    /// runs no iteration checks nothing. The out-of-memory checks of the
    /// buffers the loop writes stay before the loop, ahead of the hoisted
    /// check, as before the first iteration.
    fn hoist_check(&mut self, atoms: &[&Atom], c: I, out: &mut Vec<I>) {
        let mut best: Option<(usize, Vec<Exp>, Vec<Exp>)> = None;
        if let Some(top) = self.loops.len().checked_sub(1)
            && self.loops[top].nest == self.nest
        {
            let mut j = top;
            loop {
                let fr = &self.loops[j];
                if !fr.pure || fr.trips.is_none() {
                    break;
                }
                let args: Option<Vec<Exp>> =
                    atoms.iter().map(|a| self.outside(a, fr.level)).collect();
                let trips: Option<Vec<Exp>> = self.loops[j..=top]
                    .iter()
                    .map(|f| f.trips.as_ref().and_then(|n| self.outside(n, fr.level)))
                    .collect();
                let (Some(args), Some(trips)) = (args, trips) else {
                    break;
                };
                best = Some((j, args, trips));
                if j == 0 || self.loops[j - 1].nest + 1 != fr.nest {
                    break;
                }
                j -= 1;
            }
        }
        let Some((j, args, trips)) = best else {
            out.push(c);
            return;
        };
        let mut c = match c {
            I::CheckEq { message, loc, .. } if args.len() == 2 => {
                let mut it = args.into_iter();
                match (it.next(), it.next()) {
                    (Some(got), Some(want)) => I::CheckEq {
                        got,
                        want,
                        message,
                        loc,
                    },
                    _ => return,
                }
            }
            other => other,
        };
        for n in trips.into_iter().rev() {
            if !matches!(n, Exp::Const(Const::I64(k)) if k > 0) {
                c = I::If(Exp::op(">", n, Exp::i64(0)), vec![c], vec![]);
            }
        }
        if let Some(h) = self.hoist.get_mut(j) {
            h.push(c);
        }
    }

    fn fun(&mut self, f: &Fun) -> imp::Func {
        let mut params = vec![("ctx".to_string(), CTy::Mark)];
        for d in &f.dests {
            params.push((c_name(&d.name), CTy::Ptr(d.elem, false)));
            for k in 0..d.shape.len() {
                params.push((dim_name(&d.name, k), CTy::Prim(PrimType::I64)));
            }
            self.arrays.insert(d.name.clone(), (d.elem, d.shape.len()));
            self.arr_level.insert(d.name.clone(), 0);
        }
        for p in &f.params {
            match p.ty {
                DType::Scalar(t) => {
                    params.push((c_name(&p.name), CTy::Prim(t)));
                    self.scalars.insert(p.name.clone(), t);
                    self.fun_params.insert(p.name.clone());
                }
                DType::Array(t, r) => {
                    params.push((c_name(&p.name), CTy::Ptr(t, false)));
                    for k in 0..r {
                        params.push((dim_name(&p.name, k), CTy::Prim(PrimType::I64)));
                    }
                    self.arrays.insert(p.name.clone(), (t, r));
                    self.arr_level.insert(p.name.clone(), 0);
                }
            }
        }
        // An entry point's destinations have exactly the dims of its shape
        // function (its wrapper checks each one before the body runs): a
        // dim that is an argument's dim or a constant is known equal to it.
        if f.entry {
            for d in &f.dests {
                for (k, dim) in d.shape.iter().enumerate() {
                    if d.unbounded && k == 0 {
                        continue;
                    }
                    match dim {
                        weir_shape::Dim::DimOf(p, j) => {
                            self.equate(dkey(&d.name, k), &Atom::Var(dkey(p, *j)))
                        }
                        weir_shape::Dim::Const(c) if *c >= 0 => {
                            self.equate(dkey(&d.name, k), &Atom::Const(Const::I64(*c)))
                        }
                        _ => {}
                    }
                }
            }
        }
        let mut k = 0;
        for r in &f.results {
            let t = match r {
                ResultPart::Scalar(t) => *t,
                ResultPart::Size { .. } => PrimType::I64,
                ResultPart::Dest(_) => continue,
            };
            params.push((format!("ret{k}"), CTy::Ptr(t, false)));
            k += 1;
        }
        let mut body = Vec::new();
        self.stmts(&f.body.stmts, &mut body);
        for (k, r) in f.body.results.iter().enumerate() {
            body.push(I::Store(format!("ret{k}"), Exp::i64(0), self.atom(r)));
        }
        imp::Func {
            name: fun_c_name(&f.name),
            params,
            body,
            restrict: Vec::new(),
        }
    }

    fn stmts(&mut self, ss: &[Stmt], out: &mut Vec<I>) {
        self.nest += 1;
        for s in ss {
            let start = out.len();
            self.stmt_with_needs(s, Vec::new(), out);
            self.note_failure(&out[start.min(out.len())..]);
        }
        self.nest -= 1;
    }

    /// After lowering `lowered`, a statement of the innermost loop's body
    /// (or of an `alloc` scope in it, which is no C scope of its own for
    /// [`Lower::hoist_check`]): if it can fail, later checks of the body
    /// stay in it.
    fn note_failure(&mut self, lowered: &[I]) {
        let nest = self.nest;
        if let Some(f) = self.loops.last_mut()
            && f.nest == nest
            && f.pure
            && imp::can_fail(lowered)
        {
            f.pure = false;
        }
    }

    /// `s`, after the out-of-memory checks it is the first to need: waiting
    /// ones from enclosing scopes, and `own` (this scope's).
    fn stmt_with_needs(&mut self, s: &Stmt, own: Vec<(Name, I, bool)>, out: &mut Vec<I>) {
        // A view touches no memory: a check due at it waits for the first
        // use of the buffer or of the view.
        let viewed = match s {
            // (a placed view touches its storage only where it exists)
            Stmt::View {
                view: View::Placed { .. },
                ..
            } => None,
            Stmt::View { var, view, .. } => Some((var.clone(), view_source(view).clone())),
            _ => None,
        };
        let mut own = own;
        if let Some((var, src)) = &viewed {
            let (by_view, rest): (Vec<_>, Vec<_>) =
                own.into_iter().partition(|(v, _, h)| v == src && !h);
            own = rest;
            for (v, n, _) in by_view {
                self.need_inside.push((var.clone(), n.clone()));
                self.need_inside.push((v, n));
            }
        }
        if !self.need_inside.is_empty() {
            let (due, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut self.need_inside)
                .into_iter()
                .partition(|(v, _)| needs_at(s, v));
            self.need_inside = rest;
            let mut placed = Vec::new();
            for (v, n) in due {
                match &viewed {
                    Some((var, src)) if *src == v => {
                        self.need_inside.push((var.clone(), n.clone()));
                        self.need_inside.push((v, n));
                    }
                    _ => placed.push((v, n, false)),
                }
            }
            // (one level only: a check never moves into an inner loop, where
            // it would run once per element)
            self.place_needs(s, placed.into_iter(), out);
        }
        self.place_needs(s, own.into_iter(), out);
        self.stmt(s, out);
    }

    /// The out-of-memory checks `due` of buffers that `s` is the first
    /// statement to use: before `s`, or, for a buffer hoisted out of loops
    /// (`hoisted`) whose first use is inside the body of the loop `s` after a
    /// statement that can fail, inside that body (so an error the
    /// interpreter meets first in the first iteration comes first; the buffer
    /// is used only inside the loops it was hoisted out of).
    fn place_needs(
        &mut self,
        s: &Stmt,
        due: impl Iterator<Item = (Name, I, bool)>,
        out: &mut Vec<I>,
    ) {
        for (v, need, hoisted) in due {
            if hoisted && fails_before_use(s, &v) {
                self.need_inside.push((v, need));
            } else if matches!(s, Stmt::If { .. }) && !stmt_uses(s).iter().any(|u| u.as_str() == v)
            {
                // (the interpreter evaluates the taken branch up to the
                // construct that makes the array: seed 43, program 443)
                self.need_branch.push((v, need));
            } else {
                out.push(need);
            }
        }
    }

    /// The out-of-memory checks `due` of an `if`'s buffers, for one branch:
    /// located where the branch's first view of the buffer says (the
    /// construct whose value the branch returns, as the interpreter, which
    /// runs out of memory making it), else where the buffer's.
    fn branch_needs(&mut self, due: &[(Name, I)], stmts: &[Stmt]) -> Vec<(Name, I)> {
        due.iter()
            .map(|(v, need)| {
                let at = stmts.iter().find_map(|s| match s {
                    Stmt::View { view, span, .. } if view_source(view) == v => Some(*span),
                    _ => None,
                });
                let need = match (need, at) {
                    (
                        I::NeedCount {
                            var, dims, elem, ..
                        },
                        Some(sp),
                    ) => I::NeedCount {
                        var: var.clone(),
                        dims: dims.clone(),
                        elem: *elem,
                        loc: self.loc(sp),
                    },
                    _ => need.clone(),
                };
                (v.clone(), need)
            })
            .collect()
    }

    /// A block whose results are assigned to `outs` (declared by the caller).
    fn block_into(&mut self, b: &Block, outs: &[Name], out: &mut Vec<I>) {
        let mut inner = Vec::new();
        self.stmts(&b.stmts, &mut inner);
        for (o, r) in outs.iter().zip(&b.results) {
            inner.push(I::Set(c_name(o), self.atom(r)));
        }
        out.push(I::Block(inner));
    }

    fn declare_outs(&mut self, outs: &[(Name, PrimType)], out: &mut Vec<I>) -> Vec<Name> {
        for (o, p) in outs {
            out.push(I::Decl(c_name(o), CTy::Prim(*p), None));
            self.scalars.insert(o.clone(), *p);
            self.local_level.insert(o.clone(), self.level);
        }
        outs.iter().map(|(o, _)| o.clone()).collect()
    }

    /// Allocate `var` of `dims`: a count that is 0 for a zero or negative dim
    /// (the construct computing a negative size fails where it is evaluated)
    /// and 0 unless every `when` count is positive, out of memory at `span`.
    #[allow(clippy::too_many_arguments)]
    fn alloc_buf(
        &mut self,
        var: &str,
        elem: PrimType,
        dims: &[Atom],
        when: &[Atom],
        span: Span,
        lazy: bool,
        out: &mut Vec<I>,
        frees: &mut Vec<I>,
    ) -> Name {
        let kind = if self.opts.mem == MemMode::Region {
            AllocKind::Region
        } else {
            AllocKind::Sys
        };
        let n = self.fresh(&format!("{}_n", c_name(var)));
        let loc = self.loc(span);
        out.push(I::Count {
            var: n.clone(),
            dims: dims.iter().map(|d| self.atom(d)).collect(),
            when: when.iter().map(|d| self.atom(d)).collect(),
            elem,
            loc,
            lazy,
        });
        let elems = if lazy && !dims.is_empty() {
            Exp::Call("weir_lazy_n".into(), vec![Exp::Var(n.clone())])
        } else {
            Exp::Var(n.clone())
        };
        out.push(I::Alloc {
            ptr: c_name(var),
            elem,
            elems: elems.clone(),
            kind,
            loc,
        });
        for (k, d) in dims.iter().enumerate() {
            out.push(I::Decl(
                dim_name(var, k),
                CTy::Prim(PrimType::I64),
                Some(self.atom(d)),
            ));
            self.equate(dkey(var, k), d);
        }
        self.arrays.insert(var.to_string(), (elem, dims.len()));
        self.arr_level.insert(var.to_string(), self.level);
        if self.opts.mem == MemMode::Malloc {
            frees.push(I::Free {
                ptr: c_name(var),
                elem,
                elems,
            });
        }
        n
    }

    /// Run a loop body one level deeper, collecting the checks it hoists; the
    /// hoisted checks are returned for the caller to put in front of the loop.
    fn in_loop(
        &mut self,
        trips: Option<&Atom>,
        f: &mut dyn FnMut(&mut Self, &mut Vec<I>),
    ) -> (Vec<I>, Vec<I>) {
        self.level += 1;
        self.hoist.push(Vec::new());
        // (the body is one statement list, lowered one block deeper)
        self.loops.push(LoopFrame {
            level: self.level,
            nest: self.nest + 1,
            trips: trips.cloned(),
            pure: true,
        });
        self.cond_depth.push(0);
        let mut body = Vec::new();
        // What a check in the body proves holds in the body only (the loop
        // may run no iteration).
        let known = self.canon.clone();
        f(self, &mut body);
        self.canon = known;
        self.cond_depth.pop();
        let hoisted = self.hoist.pop().unwrap_or_default();
        self.loops.pop();
        self.level -= 1;
        (hoisted, body)
    }

    fn stmt(&mut self, s: &Stmt, out: &mut Vec<I>) {
        match s {
            Stmt::Let { var, ty, exp, span } => {
                if *ty == PrimType::Bool {
                    self.note_cond(var, exp);
                }
                if *ty == PrimType::I64 {
                    self.note_offset(var, exp);
                }
                let e = self.sexp(var, *ty, exp, *span, out);
                out.push(I::Decl(c_name(var), CTy::Prim(*ty), Some(e)));
                self.scalars.insert(var.clone(), *ty);
                self.local_level.insert(var.clone(), self.level);
            }
            Stmt::Check { check, span } => {
                if self.canon_atom(&check.got) == self.canon_atom(&check.want) {
                    return;
                }
                let loc = self.loc(*span);
                let m = &check.message;
                // (a builtin's operands: the message names `got` first, as
                // `emit` passes it for any message but a parameter's)
                let message = if let Some(o) = m.operand_message("%lld", "%lld") {
                    o
                } else if m.param == "dest" {
                    format!(
                        "size mismatch: {} has size %lld where size %lld is needed",
                        m.callee
                    )
                } else if m.param == "annotation" {
                    format!(
                        "size mismatch: the value has size %lld, but its annotation says `{}` = %lld",
                        weir_ir::display_name(&m.size)
                    )
                } else if m.param == "result" {
                    format!(
                        "size mismatch: `{}` returns an array of size %lld, but its declared result type says `{}` = %lld",
                        m.callee,
                        weir_ir::display_name(&m.size)
                    )
                } else {
                    format!(
                        "size mismatch in the call of `{}`: parameter `{}` needs size `{}` = %lld, but the argument has size %lld",
                        m.callee,
                        weir_ir::display_name(&m.param),
                        weir_ir::display_name(&m.size)
                    )
                };
                // The param message names want first.
                let (got, want) = (self.atom(&check.got), self.atom(&check.want));
                let c = I::CheckEq {
                    got,
                    want,
                    message,
                    loc,
                };
                self.hoist_check(&[&check.got, &check.want], c, out);
                // After the check both sides are equal: join their classes.
                if let Atom::Var(root) = self.canon_atom(&check.got) {
                    self.equate(root, &check.want);
                }
            }
            Stmt::Guard { guard, span } => self.guard(guard, *span, out),
            Stmt::View {
                var,
                elem,
                rank,
                view,
                span,
            } => self.view(var, *elem, *rank, view, *span, out),
            Stmt::Alloc { outs, bufs, body } => {
                let names = self.declare_outs(outs, out);
                let mut inner = Vec::new();
                let mut frees = Vec::new();
                let mark = self.fresh("mark");
                // (a growing loop state's storage is in the region, also with
                // malloc/free: this scope releases it)
                let grown = grown_outs(&body.stmts);
                let region = self.opts.mem == MemMode::Region
                    || bufs.iter().any(|b| b.grown || grown.contains(&b.var));
                if region {
                    inner.push(I::RegionPush(mark.clone()));
                    self.marks.push(mark.clone());
                }
                // Buffers too large for memory fail before the first statement
                // that uses them (after the errors of the statements before it).
                let mut pending = Vec::new();
                let mut grown_here = Vec::new();
                for b in bufs {
                    if b.grown {
                        // (empty storage, grown by `Stmt::Grow` in this
                        // scope's region: a pointer and a capacity in rows)
                        let dims: Vec<Exp> = b.dims.iter().map(|d| self.atom(d)).collect();
                        let mut zero = dims.clone();
                        if let Some(d) = zero.first_mut() {
                            *d = Exp::i64(0);
                        }
                        self.declare_array(&mut inner, &b.var, b.elem, Exp::Null, zero, false);
                        let cap = self.fresh("cap");
                        // (-1: the first growth always allocates)
                        inner.push(I::Decl(
                            cap.clone(),
                            CTy::Prim(PrimType::I64),
                            Some(Exp::i64(-1)),
                        ));
                        self.arrays.insert(b.var.clone(), (b.elem, b.dims.len()));
                        let loc = self.loc(b.span);
                        self.growing.insert(
                            b.var.clone(),
                            Growing {
                                ptr: c_name(&b.var),
                                cap,
                                elem: b.elem,
                                inner: dims.iter().skip(1).cloned().collect(),
                                loc,
                                marks_at: self.marks.len(),
                            },
                        );
                        grown_here.push(b.var.clone());
                        continue;
                    }
                    let n = self.alloc_buf(
                        &b.var, b.elem, &b.dims, &b.when, b.span, true, &mut inner, &mut frees,
                    );
                    self.counts.insert(b.var.clone(), n.clone());
                    let dims = (0..b.dims.len())
                        .map(|k| Exp::Var(dim_name(&b.var, k)))
                        .collect();
                    let loc = self.loc(b.span);
                    if b.dims.is_empty() {
                        continue;
                    }
                    pending.push((
                        b.var.clone(),
                        I::NeedCount {
                            var: n,
                            dims,
                            elem: b.elem,
                            loc,
                        },
                        !b.when.is_empty(),
                    ));
                }
                for st in &body.stmts {
                    let (now, later): (Vec<_>, Vec<_>) = std::mem::take(&mut pending)
                        .into_iter()
                        .partition(|(v, _, _)| needs_at(st, v));
                    pending = later;
                    let start = inner.len();
                    self.stmt_with_needs(st, now, &mut inner);
                    self.note_failure(&inner[start.min(inner.len())..]);
                }
                inner.extend(pending.into_iter().map(|(_, need, _)| need));
                for v in &grown_here {
                    self.growing.remove(v);
                }
                for (o, r) in names.iter().zip(&body.results) {
                    inner.push(I::Set(c_name(o), self.atom(r)));
                }
                inner.extend(frees);
                if region {
                    self.marks.pop();
                    inner.push(I::RegionPop(mark));
                }
                out.push(I::Block(inner));
            }
            Stmt::Grow {
                dest,
                rows,
                hint,
                soft,
                span,
            } => self.grow(dest, rows, hint.as_ref(), soft, *span, out),
            Stmt::For { i, n, body } => {
                let bound = self.canon_atom(n);
                self.counters.insert(i.clone(), (bound, self.level + 1));
                let (hoisted, b) = self.in_loop(Some(n), &mut |this, o| this.stmts(body, o));
                out.extend(hoisted);
                // The loop writes an array of n elements (see weir_store_count).
                let n = match self.atom(n) {
                    Exp::Const(Const::I64(k)) if k < 1 << 40 => Exp::Const(Const::I64(k)),
                    e => Exp::Call("weir_store_count".into(), vec![e]),
                };
                out.push(I::For {
                    i: c_name(i),
                    n,
                    body: b,
                    simd: None,
                });
            }
            Stmt::Store { dest, idx, val, .. } => {
                let off = self.offset(dest, idx);
                out.push(I::Store(c_name(dest), off, self.atom(val)));
            }
            Stmt::Copy { dest, src, .. }
                if self.strided.contains(src) || self.strided.contains(dest) =>
            {
                self.strided_copy(dest, src, out);
            }
            Stmt::Copy { dest, src, .. } => {
                let elems = self.elems_from(src, 0);
                let copy = I::Copy {
                    dst: c_name(dest),
                    src: c_name(src),
                    elem: self.elem(src),
                    elems,
                };
                // (a piece placed in its part: nothing to copy)
                if self.placed.contains(src) {
                    out.push(I::If(
                        Exp::op("!=", Exp::Var(c_name(dest)), Exp::Var(c_name(src))),
                        vec![copy],
                        vec![],
                    ));
                } else {
                    out.push(copy);
                }
            }
            Stmt::If {
                outs,
                cond,
                then,
                els,
            } => {
                let names = self.declare_outs(outs, out);
                if let Some(d) = self.cond_depth.last_mut() {
                    *d += 1;
                }
                // Out-of-memory checks due here go into each branch, before
                // its first use of the buffer; one a branch leaves unplaced
                // waits for the first use after the `if`.
                let due = std::mem::take(&mut self.need_branch);
                let waiting = self.need_inside.len();
                let mut left = Vec::new();
                // What a check in a branch proves holds in that branch only.
                let facts = self.canon.clone();
                let mut t = Vec::new();
                let known = self.guards.len();
                let g = self.cond_guards(cond);
                self.guards.extend(g);
                let here = self.branch_needs(&due, &then.stmts);
                self.need_inside.extend(here);
                self.block_into(then, &names, &mut t);
                left.extend(
                    self.need_inside
                        .split_off(waiting.min(self.need_inside.len())),
                );
                self.guards.truncate(known);
                self.canon = facts.clone();
                let mut e = Vec::new();
                let here = self.branch_needs(&due, &els.stmts);
                self.need_inside.extend(here);
                self.block_into(els, &names, &mut e);
                left.extend(
                    self.need_inside
                        .split_off(waiting.min(self.need_inside.len())),
                );
                for (v, n) in left {
                    if !self.need_inside.iter().any(|(w, _)| *w == v) {
                        self.need_inside.push((v, n));
                    }
                }
                self.canon = facts;
                if let Some(d) = self.cond_depth.last_mut() {
                    *d -= 1;
                }
                out.push(I::If(self.atom(cond), t, e));
            }
            Stmt::Fold {
                outs,
                acc,
                init,
                i,
                n,
                body,
            } => {
                let names = self.declare_outs(outs, out);
                for ((a, p), x) in acc.iter().zip(init) {
                    out.push(I::Decl(c_name(a), CTy::Prim(*p), Some(self.atom(x))));
                    self.scalars.insert(a.clone(), *p);
                    self.local_level.insert(a.clone(), self.level + 1);
                }
                let bound = self.canon_atom(n);
                self.counters.insert(i.clone(), (bound, self.level + 1));
                let accs: Vec<Name> = acc.iter().map(|(a, _)| a.clone()).collect();
                let (hoisted, b) = self.in_loop(Some(n), &mut |this, o| {
                    let tmp: Vec<Name> = accs
                        .iter()
                        .map(|a| this.fresh(&format!("{}_next", c_name(a))))
                        .collect();
                    for (t, (_, p)) in tmp.iter().zip(acc) {
                        o.push(I::Decl(t.clone(), CTy::Prim(*p), None));
                    }
                    this.block_into(body, &tmp, o);
                    for (a, t) in accs.iter().zip(&tmp) {
                        o.push(I::Set(c_name(a), Exp::Var(t.clone())));
                    }
                });
                out.extend(hoisted);
                out.push(I::For {
                    i: c_name(i),
                    n: self.atom(n),
                    body: b,
                    simd: None,
                });
                for (o, a) in names.iter().zip(&accs) {
                    out.push(I::Set(c_name(o), Exp::Var(c_name(a))));
                }
            }
            Stmt::Reduce {
                outs,
                ne,
                i,
                n,
                elem,
                op,
            } => self.reduce(outs, ne, i, n, elem, op, out),
            Stmt::Loop {
                outs,
                scalars,
                arrays,
                form,
                body,
            } => self.lower_loop(outs, scalars, arrays, form, body, out),
            Stmt::Call {
                outs,
                fun,
                dests,
                args,
                ..
            } => {
                let names = self.declare_outs(outs, out);
                let mut cargs = vec![Exp::var("ctx")];
                for d in dests {
                    cargs.push(Exp::Var(c_name(d)));
                    for k in 0..self.rank(d) {
                        cargs.push(self.dim(d, k));
                    }
                }
                for a in args {
                    match a {
                        Atom::Var(v) if self.arrays.contains_key(v) => {
                            cargs.push(Exp::Var(c_name(v)));
                            for k in 0..self.rank(v) {
                                cargs.push(self.dim(v, k));
                            }
                        }
                        _ => cargs.push(self.atom(a)),
                    }
                }
                for o in &names {
                    cargs.push(Exp::Pre("&", Box::new(Exp::Var(c_name(o)))));
                }
                out.push(I::Call(fun_c_name(fun), cargs));
            }
        }
    }

    /// Is `a` known to be non-negative (a constant, or an array's dim)?
    fn nonneg(&self, a: &Atom) -> bool {
        match self.canon_atom(a) {
            Atom::Const(Const::I64(c)) => c >= 0,
            Atom::Var(v) => v.contains('#'),
            Atom::Const(_) => false,
        }
    }

    /// A construct's argument checks, with the interpreter's messages
    /// (`weir_ir::Check::run`'s). Bounds checks go with `--unsafe`; size checks
    /// stay.
    fn guard(&mut self, g: &Guard, span: Span, out: &mut Vec<I>) {
        use weir_ir::CheckKind as K;
        let lt0 = |x: Exp| Exp::op("<", x, Exp::i64(0));
        let at = |this: &Self, xs: &[Atom], k: usize| {
            xs.get(k).map(|x| this.atom(x)).unwrap_or(Exp::i64(0))
        };
        let c = match g {
            Guard::Split { k, len } => {
                if self.opts.checks {
                    let loc = self.loc(span);
                    let (k, len) = (self.atom(k), self.atom(len));
                    out.push(I::FailIf {
                        cond: Exp::op("||", lt0(k.clone()), Exp::op(">", k.clone(), len.clone())),
                        message: "index out of bounds: split at %lld of an array of length %lld"
                            .into(),
                        args: vec![k, len],
                        loc,
                    });
                }
                return;
            }
            Guard::Stride { k } => {
                let loc = self.loc(span);
                let k = self.atom(k);
                out.push(I::FailIf {
                    cond: Exp::op("<", k.clone(), Exp::i64(1)),
                    message: "invalid argument: stride needs a step of at least 1 (got %lld)"
                        .into(),
                    args: vec![k],
                    loc,
                });
                return;
            }
            Guard::Slide { w, s, len } => {
                let loc = self.loc(span);
                let (w, s, len) = (self.atom(w), self.atom(s), self.atom(len));
                out.push(I::FailIf {
                    cond: Exp::op(
                        "||",
                        Exp::op("<", w.clone(), Exp::i64(1)),
                        Exp::op("<", s.clone(), Exp::i64(1)),
                    ),
                    message: "invalid argument: slide needs a width and stride of at least 1 (got %lld and %lld)".into(),
                    args: vec![w.clone(), s],
                    loc,
                });
                out.push(I::FailIf {
                    cond: Exp::op(">", w.clone(), len.clone()),
                    message: "size mismatch: slide window %lld is wider than the array (%lld)"
                        .into(),
                    args: vec![w, len],
                    loc,
                });
                return;
            }
            Guard::Fits { got, want } => {
                let loc = self.loc(span);
                let got: Vec<Exp> = got.iter().map(|d| self.atom(d)).collect();
                let want: Vec<Exp> = want.iter().map(|d| self.atom(d)).collect();
                let mut cond: Option<Exp> = None;
                for (g, w) in got.iter().zip(&want) {
                    let ne = Exp::op("!=", g.clone(), w.clone());
                    cond = Some(match cond {
                        None => ne,
                        Some(c) => Exp::op("||", c, ne),
                    });
                }
                let Some(cond) = cond else { return };
                let dims = "[%lld]".repeat(got.len());
                out.push(I::FailIf {
                    cond,
                    message: format!(
                        "size mismatch: `with` writes a value of shape {dims} into a place of shape {dims}"
                    ),
                    args: got.into_iter().chain(want).collect(),
                    loc,
                });
                return;
            }
            Guard::Irregular {
                at,
                first,
                got,
                inner,
            } => {
                let loc = self.loc(span);
                let inner: Vec<Exp> = inner.iter().map(|d| self.atom(d)).collect();
                let dims = "[%lld]".repeat(inner.len() + 1);
                let mut args = vec![self.atom(first)];
                args.extend(inner.iter().cloned());
                args.push(self.atom(at));
                args.push(self.atom(got));
                args.extend(inner);
                out.push(I::FailIf {
                    cond: Exp::op(">=", self.atom(at), Exp::i64(0)),
                    message: format!(
                        "size mismatch: build produced an irregular array (element 0 has shape {dims}, element %lld has shape {dims})"
                    ),
                    args,
                    loc,
                });
                return;
            }
            Guard::DestRows { dest, rows } => {
                let Some(&k) = self.dest_index.get(dest) else {
                    return;
                };
                let loc = self.loc(span);
                let rows = self.atom(rows);
                let missing = Exp::Call(
                    "weir_dest_missing".into(),
                    vec![Exp::var("ctx"), Exp::Const(Const::I32(k as i32))],
                );
                // (no storage: NULL from the caller, which the entry sees
                // as `weir_nowhere()`, with the bound's dims; or fewer rows)
                let none = Exp::op(
                    "&&",
                    missing,
                    Exp::op(
                        "==",
                        Exp::Var(c_name(dest)),
                        Exp::Call("weir_nowhere".into(), vec![]),
                    ),
                );
                let short = Exp::op(">", rows.clone(), self.dim(dest, 0));
                // (out of memory where there was no storage, else "too
                // small": the rows it has, and needs)
                out.push(I::If(
                    Exp::op("||", none.clone(), short),
                    vec![I::Call(
                        "weir_dest_retry".into(),
                        vec![
                            Exp::var("ctx"),
                            Exp::Const(Const::I32(k as i32)),
                            rows,
                            self.dim(dest, 0),
                            none,
                            Exp::Loc(loc),
                        ],
                    )],
                    vec![],
                ));
                return;
            }
            Guard::DestReady { dest, build } => {
                let Some(&k) = self.dest_index.get(dest) else {
                    return;
                };
                let loc = self.loc(span);
                let missing = Exp::Call(
                    "weir_dest_missing".into(),
                    vec![Exp::var("ctx"), Exp::Const(Const::I32(k as i32))],
                );
                // (a `build` of rows: here unless it fails in its first
                // row, where that is made)
                let cond = self.unless_first_row_fails(missing, dest, build);
                out.push(I::FailIf {
                    cond,
                    message: format!("out of memory: result {k} is too large to allocate"),
                    args: vec![],
                    loc,
                });
                return;
            }
            Guard::Grown { dest, build } => {
                let loc = self.loc(span);
                let missing = Exp::Call("weir_grow_missing".into(), vec![Exp::var("ctx")]);
                // (a `build` of rows: here unless it fails in its first row)
                let cond = self.unless_first_row_fails(missing, dest, build);
                out.push(I::FailIf {
                    cond,
                    message: "out of memory: a row of this array is too large to allocate".into(),
                    args: vec![],
                    loc,
                });
                return;
            }
            Guard::Core(c) => c,
        };
        let xs = &c.args;
        match c.kind {
            K::Index => {
                let proved = match (xs.first(), xs.get(1)) {
                    (Some(i), Some(n)) => {
                        let (i, n) = (self.canon_atom(i), self.canon_atom(n));
                        matches!((&i, &n), (Atom::Var(v), _) if self.counters.get(v).is_some_and(|(b, _)| *b == n))
                            || self.in_range(&i, &n)
                            // (a descending index, `n - 2 - jj`; not every
                            // index by bounds: gcc 12 then leaves a dot
                            // product just before an element store scalar,
                            // 3x the instructions of cholesky's natural
                            // form with the check kept)
                            || (self.descending(&i) && self.in_range_by_bounds(&i, &n))
                    }
                    _ => false,
                };
                if self.opts.checks && !proved {
                    let loc = self.loc(span);
                    out.push(I::CheckIndex {
                        idx: at(self, xs, 0),
                        len: at(self, xs, 1),
                        loc,
                    });
                }
            }
            K::Slice => {
                let proved = match (xs.first(), xs.get(1), xs.get(2)) {
                    (Some(lo), Some(hi), Some(n)) => self.slice_in_range(lo, hi, n),
                    _ => false,
                };
                if self.opts.checks && !proved {
                    let loc = self.loc(span);
                    out.push(I::CheckSlice {
                        lo: at(self, xs, 0),
                        hi: at(self, xs, 1),
                        len: at(self, xs, 2),
                        loc,
                    });
                }
            }
            K::NonZero => {
                let loc = self.loc(span);
                out.push(I::FailIf {
                    cond: Exp::op("==", at(self, xs, 0), Exp::i64(0)),
                    message: "integer division by zero".into(),
                    args: vec![],
                    loc,
                });
            }
            K::Step => {
                let loc = self.loc(span);
                out.push(I::FailIf {
                    cond: Exp::op("<", at(self, xs, 0), Exp::i64(1)),
                    message: "invalid argument: stride needs a step of at least 1 (got %lld)"
                        .into(),
                    args: vec![at(self, xs, 0)],
                    loc,
                });
            }
            K::NonNeg => {
                if xs.first().is_some_and(|n| self.nonneg(n)) {
                    return;
                }
                let loc = self.loc(span);
                out.push(I::FailIf {
                    cond: lt0(at(self, xs, 0)),
                    message: format!(
                        "`{}` given a negative {} (%lld)",
                        c.what,
                        weir_ir::Check::count_word(&c.what)
                    ),
                    args: vec![at(self, xs, 0)],
                    loc,
                });
            }
            K::Unflatten => {
                let loc = self.loc(span);
                for k in 0..2 {
                    if !xs.get(k).is_some_and(|x| self.nonneg(x)) {
                        out.push(I::FailIf {
                            cond: lt0(at(self, xs, k)),
                            message: "`unflatten` given a negative size (%lld)".into(),
                            args: vec![at(self, xs, k)],
                            loc,
                        });
                    }
                }
                let (n, m, len) = (at(self, xs, 0), at(self, xs, 1), at(self, xs, 2));
                out.push(I::FailIf {
                    cond: Exp::Pre(
                        "!",
                        Box::new(Exp::Call(
                            "weir_mul_eq".into(),
                            vec![n.clone(), m.clone(), len.clone()],
                        )),
                    ),
                    message: "size mismatch: unflatten %lld %lld of an array of length %lld".into(),
                    args: vec![n, m, len],
                    loc,
                });
            }
            K::Same => {
                if let (Some(a), Some(b)) = (xs.first(), xs.get(1))
                    && self.canon_atom(a) == self.canon_atom(b)
                {
                    return;
                }
                let loc = self.loc(span);
                let what = if c.what == "literal" {
                    "an array literal".to_string()
                } else {
                    format!("`{}`", c.what)
                };
                out.push(I::FailIf {
                    cond: Exp::op("!=", at(self, xs, 0), at(self, xs, 1)),
                    message: format!(
                        "size mismatch: {what} produced an irregular array (a row of size %lld where the first row has size %lld)"
                    ),
                    args: vec![at(self, xs, 0), at(self, xs, 1)],
                    loc,
                });
            }
        }
    }

    fn offset(&self, a: &str, idx: &[Atom]) -> Exp {
        if self.strided.contains(a) {
            let idx: Vec<Exp> = idx.iter().map(|i| self.atom(i)).collect();
            return self.strided_offset(a, idx);
        }
        let mut off: Option<Exp> = None;
        for (k, i) in idx.iter().enumerate() {
            let x = self.atom(i);
            off = Some(match off {
                None => x,
                Some(o) => Exp::op("+", Exp::op("*", o, self.dim(a, k)), x),
            });
        }
        off.unwrap_or(Exp::i64(0))
    }

    /// `Σ idx_k × stride_k`: the offset of an element of the strided array
    /// `a`, its index function applied to the index.
    fn strided_offset(&self, a: &str, idx: Vec<Exp>) -> Exp {
        self.lmad(a).index(&idx)
    }

    /// Copy `src` into `dest` (same dims) element by element, through their
    /// index functions: one of them is strided. Rank 2 and more: the last
    /// two dims in tiles of [`COPY_TILE`].
    fn strided_copy(&mut self, dest: &str, src: &str, out: &mut Vec<I>) {
        let rank = self.rank(src);
        let idx: Vec<Name> = (0..rank).map(|_| self.fresh("c")).collect();
        let at = |this: &Self, a: &str| -> Exp {
            let xs: Vec<Exp> = idx.iter().map(|i| Exp::Var(i.clone())).collect();
            if this.strided.contains(a) {
                this.strided_offset(a, xs)
            } else {
                let mut off: Option<Exp> = None;
                for (k, x) in xs.into_iter().enumerate() {
                    off = Some(match off {
                        None => x,
                        Some(o) => Exp::op("+", Exp::op("*", o, this.dim(a, k)), x),
                    });
                }
                off.unwrap_or(Exp::i64(0))
            }
        };
        let load = Exp::Load(c_name(src), Box::new(at(self, src)));
        let body = vec![I::Store(c_name(dest), at(self, dest), load)];
        // (rank 0 and 1: plain loops; else the last two dims tiled)
        let (body, plain) = if rank < 2 {
            (body, rank)
        } else {
            (self.tiled_copy_loops(&idx, src, body), rank - 2)
        };
        let mut body = body;
        for k in (0..plain).rev() {
            body = vec![I::For {
                i: idx[k].clone(),
                n: self.dim(src, k),
                body,
                simd: None,
            }];
        }
        out.extend(body);
    }

    /// The loops over the last two dims of a strided copy of `src` (of rank
    /// 2 or more), with counters `idx[r]`, `idx[r + 1]`, in tiles of
    /// [`COPY_TILE`] around `body`.
    fn tiled_copy_loops(&mut self, idx: &[Name], src: &str, body: Vec<I>) -> Vec<I> {
        let mut body = body;
        let rank = idx.len();
        // The last two dims in tiles of COPY_TILE x COPY_TILE (a transpose
        // read down its columns: a tile of the source stays in cache while
        // each row of the tile of the destination is written contiguously).
        // Elements are copied, never computed: the same result in any order.
        let (r, c) = (rank - 2, rank - 1);
        let tile = Exp::i64(COPY_TILE);
        let tiles = |n: Exp| {
            Exp::op(
                "+",
                Exp::op("/", n.clone(), tile.clone()),
                Exp::op("!=", Exp::op("%", n, tile.clone()), Exp::i64(0)),
            )
        };
        let (tr, tc) = (self.fresh("tr"), self.fresh("tc"));
        let (u, v) = (self.fresh("u"), self.fresh("v"));
        let (r0, c0) = (self.fresh("r0"), self.fresh("c0"));
        let left = |n: Exp, at: &Name| {
            let rest = Exp::op("-", n, Exp::Var(at.clone()));
            Exp::Select(
                Box::new(Exp::op("<", rest.clone(), tile.clone())),
                Box::new(rest),
                Box::new(tile.clone()),
            )
        };
        let (nr, nc) = (self.dim(src, r), self.dim(src, c));
        let i64t = CTy::Prim(PrimType::I64);
        body.insert(
            0,
            I::Decl(
                idx[c].clone(),
                i64t,
                Some(Exp::op("+", Exp::Var(c0.clone()), Exp::Var(v.clone()))),
            ),
        );
        // `let var = init; for i < n { body }`
        let bind_for = |var: &Name, init: Exp, i: &Name, n: Exp, body: Vec<I>| {
            vec![
                I::Decl(var.clone(), i64t, Some(init)),
                I::For {
                    i: i.clone(),
                    n,
                    body,
                    simd: None,
                },
            ]
        };
        let var = |x: &Name| Exp::Var(x.clone());
        let rows = bind_for(
            &idx[r],
            Exp::op("+", var(&r0), var(&u)),
            &v,
            left(nc.clone(), &c0),
            body,
        );
        let in_tile = bind_for(
            &c0,
            Exp::op("*", var(&tc), tile.clone()),
            &u,
            left(nr.clone(), &r0),
            rows,
        );
        let col_tiles = bind_for(
            &r0,
            Exp::op("*", var(&tr), tile.clone()),
            &tc,
            tiles(nc),
            in_tile,
        );
        vec![I::For {
            i: tr,
            n: tiles(nr),
            body: col_tiles,
            simd: None,
        }]
    }

    fn view(
        &mut self,
        var: &str,
        elem: PrimType,
        rank: usize,
        view: &View,
        span: Span,
        out: &mut Vec<I>,
    ) {
        self.arrays.insert(var.to_string(), (elem, rank));
        if self.soft_views.contains(view_source(view)) {
            self.soft_views.insert(var.to_string());
        }
        // (a reshape of a placed piece is that piece: a copy from it into
        // its part copies nothing)
        if let View::Reshape(x, _) | View::Alias(x) = view
            && self.placed.contains(x)
        {
            self.placed.insert(var.to_string());
        }
        match view {
            View::Alias(a) => {
                let l = self.lmad(a);
                self.declare_view(out, var, elem, a, l, false);
                for k in 0..rank {
                    self.equate(dkey(var, k), &Atom::Var(dkey(a, k)));
                }
            }
            View::Row(a, i) => {
                self.check_index(out, a, 0, i, span);
                let l = self.lmad(a).row(self.atom(i));
                self.declare_view_or_own(out, var, elem, a, l, false, rank);
                for k in 0..rank {
                    self.equate(dkey(var, k), &Atom::Var(dkey(a, k + 1)));
                }
            }
            View::Placed { part, lo, hi, root } => {
                // (rows lo..hi of the part, through its index function)
                let Some(l) = self.lmad(part).slice(self.atom(lo), self.atom(hi)) else {
                    return;
                };
                let dims = l.sizes();
                let at = pointer_at(part, l.offset);
                self.declare_array(out, var, elem, Exp::Null, dims.clone(), false);
                // (its dims, in place or not, are the part's rows: `hi - lo`
                // for the bounds prover, then the part's inner dims)
                for k in 1..rank {
                    self.equate(dkey(var, k), &Atom::Var(dkey(part, k)));
                }
                self.offsets
                    .insert(dkey(var, 0), (hi.clone(), lo.clone(), -1));
                // In place where the storage exists and the part is in
                // bounds; else (an entry result too large for memory, a
                // buffer whose lazy allocation was too large, sizes of a
                // construct whose evaluation fails first) storage of its own,
                // allocated lazily as the buffer was (out of memory at its
                // first use, at the piece's construct): the program then runs
                // as it would without the view.
                let mut conds = Vec::new();
                if !matches!(lo, Atom::Const(Const::I64(c)) if *c >= 0) {
                    conds.push(Exp::op(">=", self.atom(lo), Exp::i64(0)));
                }
                if lo != hi {
                    conds.push(Exp::op("<=", self.atom(lo), self.atom(hi)));
                }
                conds.push(Exp::op("<=", self.atom(hi), self.dim(part, 0)));
                if self.is_entry
                    && let Some(&k) = self.dest_index.get(root)
                {
                    let missing = Exp::Call(
                        "weir_dest_missing".into(),
                        vec![Exp::var("ctx"), Exp::Const(Const::I32(k as i32))],
                    );
                    conds.insert(0, Exp::Pre("!", Box::new(missing)));
                }
                for src in [root, part] {
                    if let Some(n) = self.counts.get(src) {
                        conds.insert(0, Exp::op(">=", Exp::Var(n.clone()), Exp::i64(0)));
                    }
                }
                let present = conds
                    .into_iter()
                    .reduce(|a, b| Exp::op("&&", a, b))
                    .unwrap_or(Exp::i64(1));
                let n = self.fresh(&format!("{}_n", c_name(var)));
                let lazy_n = self.fresh("placed_n");
                let own = self.fresh("placed");
                let loc = self.loc(span);
                out.push(I::Decl(
                    n.clone(),
                    CTy::Prim(PrimType::I64),
                    Some(Exp::i64(0)),
                ));
                let missing = vec![
                    I::Count {
                        var: lazy_n.clone(),
                        dims: dims.clone(),
                        when: vec![],
                        elem,
                        loc,
                        lazy: true,
                    },
                    I::Alloc {
                        ptr: own.clone(),
                        elem,
                        elems: Exp::Call("weir_lazy_n".into(), vec![Exp::Var(lazy_n.clone())]),
                        kind: AllocKind::Region,
                        loc,
                    },
                    I::Set(c_name(var), Exp::Var(own)),
                    I::Set(n.clone(), Exp::Var(lazy_n)),
                ];
                out.push(I::If(present, vec![I::Set(c_name(var), at)], missing));
                self.placed.insert(var.to_string());
                self.counts.insert(var.to_string(), n.clone());
                // (its out-of-memory check waits for its first use)
                self.need_inside.push((
                    var.to_string(),
                    I::NeedCount {
                        var: n,
                        dims,
                        elem,
                        loc,
                    },
                ));
                for k in 1..rank {
                    self.equate(dkey(var, k), &Atom::Var(dkey(part, k)));
                }
            }
            View::Transpose(a) => {
                let l = self.lmad(a).transpose();
                self.declare_view_or_own(out, var, elem, a, l, true, rank);
                for k in 0..rank {
                    let j = match k {
                        0 => 1,
                        1 => 0,
                        k => k,
                    };
                    self.equate(dkey(var, k), &Atom::Var(dkey(a, j)));
                }
            }
            View::Reverse(a) => {
                // (from the last row, or the start where there is none:
                // never a pointer before the array)
                let l = self.lmad(a).reverse();
                self.declare_view_or_own(out, var, elem, a, l, true, rank);
                for k in 0..rank {
                    self.equate(dkey(var, k), &Atom::Var(dkey(a, k)));
                }
            }
            View::Stride(k, a) => {
                // (every k-th row: the outer stride times k; k >= 1 was
                // checked, so the row count cannot divide by 0)
                let l = self.lmad(a).stride(self.atom(k));
                self.declare_view_or_own(out, var, elem, a, l, true, rank);
                for j in 1..rank {
                    self.equate(dkey(var, j), &Atom::Var(dkey(a, j)));
                }
            }
            View::Replicate(n, a) => {
                // (a new outer dim of stride 0: every row is `a`)
                let l = self.lmad(a).replicate(self.atom(n));
                self.declare_view(out, var, elem, a, l, true);
                for k in 1..rank {
                    self.equate(dkey(var, k), &Atom::Var(dkey(a, k - 1)));
                }
            }
            View::Slice(a, lo, hi) => {
                let len = self.canon_key(&dkey(a, 0));
                if self.opts.checks && !self.slice_in_range(lo, hi, &len) {
                    let loc = self.loc(span);
                    out.push(I::CheckSlice {
                        lo: self.atom(lo),
                        hi: self.atom(hi),
                        len: self.dim(a, 0),
                        loc,
                    });
                }
                let l = self.lmad(a).slice(self.atom(lo), self.atom(hi));
                self.declare_view_or_own(out, var, elem, a, l, false, rank);
                for k in 1..rank {
                    self.equate(dkey(var, k), &Atom::Var(dkey(a, k)));
                }
                // its length is `hi - lo` for the bounds prover (a loop `i <
                // hi` reading `a[0:hi][i]` needs no check)
                self.offsets
                    .insert(dkey(var, 0), (hi.clone(), lo.clone(), -1));
            }
            View::Reshape(a, ds) => {
                let total = self.elems_from(a, 0);
                let loc = self.loc(span);
                let dims: Vec<Exp> = ds.iter().map(|d| self.atom(d)).collect();
                // The dims' product must equal the element count, without
                // overflow (a wrapped product could match it).
                let total_again = total.clone();
                let mut args = vec![total.clone()];
                args.extend(dims.iter().cloned());
                let shown = vec!["%lld"; dims.len()].join(" x ");
                let mut cond = Exp::Pre(
                    "!",
                    Box::new(Exp::Call(
                        "weir_prod_eq".into(),
                        vec![
                            Exp::Dims(dims.clone()),
                            Exp::Const(Const::I32(ds.len() as i32)),
                            total,
                        ],
                    )),
                );
                // A reshape of a placed piece (`short-circuit` through a
                // flatten: the buffer it stands for): its element count, too
                // large for memory, is that buffer's out-of-memory error at
                // its first use (a lazy count of -1), not a size mismatch.
                if self.placed.contains(a) {
                    let n = self.fresh("reshaped_n");
                    out.push(I::Count {
                        var: n.clone(),
                        dims: dims.clone(),
                        when: vec![],
                        elem,
                        loc,
                        lazy: true,
                    });
                    // (a negative length of the piece: a product of the
                    // dims with a negative one, rows never computed where
                    // there are none, or computed, and failing, by the
                    // construct that writes them: that construct's error
                    // comes first, as in the interpreter)
                    cond = Exp::op(
                        "&&",
                        Exp::op(
                            "&&",
                            Exp::op(">=", Exp::Var(n.clone()), Exp::i64(0)),
                            Exp::op(">=", total_again, Exp::i64(0)),
                        ),
                        cond,
                    );
                    self.need_inside.push((
                        var.to_string(),
                        I::NeedCount {
                            var: n,
                            dims: dims.clone(),
                            elem,
                            loc,
                        },
                    ));
                }
                // (rows that do not exist: the first row fails first)
                if self.soft_views.contains(a) {
                    cond = Exp::op(
                        "&&",
                        cond,
                        Exp::Pre(
                            "!",
                            Box::new(Exp::Call("weir_grow_missing".into(), vec![Exp::var("ctx")])),
                        ),
                    );
                }
                out.push(I::FailIf {
                    cond,
                    message: format!(
                        "size mismatch: a reshape of an array of %lld elements into {shown} elements"
                    ),
                    args,
                    loc,
                });
                // (a negative dim of an empty reshape, never evaluated by
                // the interpreter, is 0 in the view: it holds nothing, and
                // nothing derived from it counts negative elements)
                let dims = ds
                    .iter()
                    .map(|d| match d {
                        Atom::Const(Const::I64(c)) => Exp::i64((*c).max(0)),
                        _ => Exp::Call("weir_dim0".into(), vec![self.atom(d)]),
                    })
                    .collect();
                self.declare_array(out, var, elem, Exp::Var(c_name(a)), dims, false);
                for (k, d) in ds.iter().enumerate() {
                    if !matches!(d, Atom::Const(Const::I64(c)) if *c < 0) {
                        self.equate(dkey(var, k), d);
                    }
                }
            }
        }
    }

    fn sexp(&mut self, var: &str, ty: PrimType, e: &SExp, span: Span, out: &mut Vec<I>) -> Exp {
        use PrimType::*;
        match e {
            SExp::Atom(a) => {
                self.equate(var.to_string(), a);
                self.atom(a)
            }
            // A negative dim (of an array holding nothing, made by a
            // construct never evaluated inside an empty array) reads as 0:
            // the interpreter does not know it (fuzz seed 89, program 36428).
            // Where it is negative nothing can be indexed, so the fact that
            // `var` is the dim stays sound.
            SExp::Dim(a, k) => {
                self.equate(var.to_string(), &Atom::Var(dkey(a, *k)));
                Exp::Call("weir_dim0".into(), vec![self.dim(a, *k)])
            }
            SExp::DivOr0(a, b) => {
                Exp::Call("weir_div0_i64".into(), vec![self.atom(a), self.atom(b)])
            }
            SExp::RemOr0(a, b) => {
                Exp::Call("weir_rem0_i64".into(), vec![self.atom(a), self.atom(b)])
            }
            SExp::LoadOr0(a, idx) => {
                let mut inside: Option<Exp> = None;
                for (k, i) in idx.iter().enumerate() {
                    let c = Exp::op(
                        "&&",
                        Exp::op(">=", self.atom(i), Exp::i64(0)),
                        Exp::op("<", self.atom(i), self.dim(a, k)),
                    );
                    inside = Some(match inside {
                        None => c,
                        Some(p) => Exp::op("&&", p, c),
                    });
                }
                let load = Exp::Cast(
                    I64,
                    Box::new(Exp::Load(c_name(a), Box::new(self.offset(a, idx)))),
                );
                match inside {
                    Some(c) => Exp::Select(Box::new(c), Box::new(load), Box::new(Exp::i64(0))),
                    None => load,
                }
            }
            SExp::Load(a, idx) => {
                for (k, i) in idx.iter().enumerate() {
                    self.check_index(out, a, k, i, span);
                }
                Exp::Load(c_name(a), Box::new(self.offset(a, idx)))
            }
            SExp::Un(op, a) => {
                let x = self.atom(a);
                match (op, self.prim_of(a)) {
                    (UnOp::Not, p) if p.is_int() => {
                        Exp::Call(format!("weir_not_{}", p.name()), vec![x])
                    }
                    (UnOp::Not, _) => Exp::Pre("!", Box::new(x)),
                    (UnOp::Neg, p) if p.is_int() => {
                        Exp::Call(format!("weir_neg_{}", p.name()), vec![x])
                    }
                    (UnOp::Neg, _) => Exp::Pre("-", Box::new(x)),
                }
            }
            SExp::Convert(to, a) => {
                let from = self.prim_of(a);
                let x = self.atom(a);
                match (from, to) {
                    // saturating (docs/language.md §4.2)
                    (F64 | F32, t) if t.is_int() => {
                        Exp::Call(format!("weir_{}_to_{}", from.name(), t.name()), vec![x])
                    }
                    (_, Bool) => Exp::op("!=", x, Exp::Const(zero(from))),
                    // integers to integers modulo 2^width (C's conversion to
                    // an unsigned type; to a signed one, gcc's and clang's),
                    // integers to floats rounded to nearest
                    _ => Exp::Cast(*to, Box::new(x)),
                }
            }
            SExp::Math(m, xs) => {
                let p = self.prim_of(&xs[0]);
                let args: Vec<Exp> = xs.iter().map(|x| self.atom(x)).collect();
                let f = |n: &str| {
                    if p == F32 {
                        format!("{n}f")
                    } else {
                        n.to_string()
                    }
                };
                match (m, p) {
                    // abs, min, max, popc, clz, ctz of integers: weir_rt.h's
                    (_, p) if p.is_int() => {
                        Exp::Call(format!("weir_{}_{}", m.name(), p.name()), args)
                    }
                    (MathFn::Abs, _) => Exp::Call(f("fabs"), args),
                    // bit-exact with the interpreter: weir_rt.h's min/max, and
                    // the C library's functions behind a constant-folding barrier
                    (MathFn::Min, _) => Exp::Call(f("weir_fmin"), args),
                    (MathFn::Max, _) => Exp::Call(f("weir_fmax"), args),
                    (MathFn::Sqrt | MathFn::Floor | MathFn::Ceil, _) => {
                        Exp::Call(f(m.name()), args)
                    }
                    _ => Exp::Call(f(&format!("weir_{}", m.name())), args),
                }
            }
            SExp::Bin(op, a, b) => {
                let p = self.prim_of(a);
                let (x, y) = (self.atom(a), self.atom(b));
                let _ = ty;
                let int = p.is_int();
                let sfx = p.name();
                match op {
                    _ if op.is_bitwise() => {
                        let n = match op {
                            BinOp::BitAnd => "&",
                            BinOp::BitOr => "|",
                            BinOp::BitXor => "^",
                            BinOp::Shl => "shl",
                            BinOp::Shr => "shr",
                            _ => "ushr",
                        };
                        if n.len() == 1 {
                            // (the operands promote to int or wider: no
                            // overflow; the result converts back)
                            Exp::Cast(p, Box::new(Exp::op(n, x, y)))
                        } else {
                            Exp::Call(format!("weir_{n}_{sfx}"), vec![x, y])
                        }
                    }
                    BinOp::Add | BinOp::Sub | BinOp::Mul if int => {
                        let n = match op {
                            BinOp::Add => "add",
                            BinOp::Sub => "sub",
                            _ => "mul",
                        };
                        if matches!(op, BinOp::Add | BinOp::Sub)
                            && p == I64
                            && self.sum_fits(var, a, b)
                        {
                            // proved not to overflow: C's own operator
                            return Exp::op(if *op == BinOp::Add { "+" } else { "-" }, x, y);
                        }
                        Exp::Call(format!("weir_{n}_{sfx}"), vec![x, y])
                    }
                    BinOp::Div | BinOp::Rem | BinOp::Pow if int => {
                        // The check first, as a statement (it returns the
                        // error); then the operation, which cannot fail.
                        let (n, bad, message, args) = match op {
                            BinOp::Div => (
                                "div0",
                                Exp::op("==", y.clone(), Exp::i64(0)),
                                "integer division by zero",
                                vec![],
                            ),
                            BinOp::Rem => (
                                "rem0",
                                Exp::op("==", y.clone(), Exp::i64(0)),
                                "integer division by zero (remainder `%` by 0)",
                                vec![],
                            ),
                            _ => (
                                "pow0",
                                Exp::op("<", y.clone(), Exp::i64(0)),
                                "negative exponent %lld in an integer power",
                                // (an int64_t, as the format says)
                                vec![Exp::Cast(I64, Box::new(y.clone()))],
                            ),
                        };
                        let known_ok = match b {
                            Atom::Const(c) => match c.as_int() {
                                Some(c) if *op == BinOp::Pow => c >= 0,
                                Some(c) => c != 0,
                                None => false,
                            },
                            // an unsigned exponent is never negative
                            Atom::Var(_) => *op == BinOp::Pow && p.is_unsigned(),
                        };
                        if !known_ok {
                            let loc = self.loc(span);
                            out.push(I::FailIf {
                                cond: bad,
                                message: message.into(),
                                args,
                                loc,
                            });
                        }
                        Exp::Call(format!("weir_{n}_{sfx}"), vec![x, y])
                    }
                    BinOp::Rem => {
                        Exp::Call(if p == F32 { "fmodf" } else { "fmod" }.into(), vec![x, y])
                    }
                    BinOp::Pow => Exp::Call(
                        if p == F32 { "weir_powf" } else { "weir_pow" }.into(),
                        vec![x, y],
                    ),
                    BinOp::Concat => Exp::i64(0),
                    // Ordering of bools: as integers (a comparison of a bool
                    // with a constant draws -Wbool-compare).
                    BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge if p == Bool => Exp::op(
                        op.symbol(),
                        Exp::Cast(I32, Box::new(x)),
                        Exp::Cast(I32, Box::new(y)),
                    ),
                    // An ordering against the type's least or greatest value
                    // that cannot but hold or fail (`x < 0` of an unsigned
                    // `x`, `x <= 127` of an i8): its value, as C's
                    // comparison would draw -Wtype-limits.
                    BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
                        if int && let Some(v) = decided_by_limits(*op, a, b, p) =>
                    {
                        Exp::Const(Const::Bool(v))
                    }
                    _ => Exp::op(op.symbol(), x, y),
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn reduce(
        &mut self,
        outs: &[(Name, PrimType)],
        ne: &[Atom],
        i: &Name,
        n: &Atom,
        elem: &Block,
        op: &RedOp,
        out: &mut Vec<I>,
    ) {
        let names = self.declare_outs(outs, out);
        let accs: Vec<Name> = (0..ne.len())
            .map(|k| self.fresh(&format!("acc{k}")))
            .collect();
        for ((a, x), (_, p)) in accs.iter().zip(ne).zip(outs) {
            out.push(I::Decl(a.clone(), CTy::Prim(*p), Some(self.atom(x))));
        }
        // A simple associative operator vectorises as an OpenMP SIMD reduction.
        let simd_op = match (&op.body.stmts[..], &op.body.results[..], accs.len()) {
            (
                [
                    Stmt::Let {
                        var,
                        exp: SExp::Bin(o @ (BinOp::Add | BinOp::Mul), Atom::Var(x), Atom::Var(y)),
                        ..
                    },
                ],
                [Atom::Var(r)],
                1,
                // Floats only: C's `+` on integers may overflow (undefined); the
                // wrapping helpers of the generic path vectorise as well.
            ) if r == var
                && *x == op.a[0]
                && *y == op.b[0]
                && matches!(outs.first(), Some((_, PrimType::F64 | PrimType::F32))) =>
            {
                Some(if *o == BinOp::Add { "+" } else { "*" })
            }
            _ => None,
        };
        let bound = self.canon_atom(n);
        self.counters.insert(i.clone(), (bound, self.level + 1));
        let accs2 = accs.clone();
        let (hoisted, b) = self.in_loop(None, &mut |this, o| {
            let el: Vec<Name> = outs
                .iter()
                .map(|(on, _)| this.fresh(&format!("{}_el", c_name(on))))
                .collect();
            for (e, (_, p)) in el.iter().zip(outs) {
                o.push(I::Decl(e.clone(), CTy::Prim(*p), None));
            }
            this.block_into(elem, &el, o);
            match simd_op {
                Some(sym) => o.push(I::Set(
                    accs2[0].clone(),
                    Exp::op(sym, Exp::Var(accs2[0].clone()), Exp::Var(el[0].clone())),
                )),
                None => {
                    // acc = op(acc, el)
                    let mut inner = Vec::new();
                    // The operator's parameters: (a..) = accumulators, (b..) = element.
                    let params =
                        op.a.iter()
                            .zip(outs)
                            .zip(&accs2)
                            .chain(op.b.iter().zip(outs).zip(&el));
                    for ((a, p), x) in params {
                        inner.push(I::Decl(
                            c_name(a),
                            CTy::Prim(p.1),
                            Some(Exp::Var(x.clone())),
                        ));
                        this.scalars.insert(a.clone(), p.1);
                    }
                    let tmp: Vec<Name> = accs2
                        .iter()
                        .map(|a| this.fresh(&format!("{a}_n")))
                        .collect();
                    for (t, (_, p)) in tmp.iter().zip(outs) {
                        inner.push(I::Decl(t.clone(), CTy::Prim(*p), None));
                    }
                    this.block_into(&op.body, &tmp, &mut inner);
                    for (a, t) in accs2.iter().zip(&tmp) {
                        inner.push(I::Set(a.clone(), Exp::Var(t.clone())));
                    }
                    o.push(I::Block(inner));
                }
            }
        });
        out.extend(hoisted);
        // (a body that can fail keeps its order: no SIMD)
        let simd = simd_op
            .filter(|_| !imp::can_fail(&b))
            .map(|s| (s, accs[0].clone()));
        out.push(I::For {
            i: c_name(i),
            n: self.atom(n),
            body: b,
            simd,
        });
        for (o, a) in names.iter().zip(&accs) {
            out.push(I::Set(c_name(o), Exp::Var(a.clone())));
        }
    }

    fn lower_loop(
        &mut self,
        outs: &[(Name, PrimType)],
        scalars: &[(Name, PrimType, Atom)],
        arrays: &[ArrState],
        form: &LoopForm,
        body: &Block,
        out: &mut Vec<I>,
    ) {
        let names = self.declare_outs(outs, out);
        let mut setup = Vec::new();
        let mut frees = Vec::new();
        let mark = self.fresh("mark");
        // A growing state's storage outlives the loop (it holds the final
        // state): the enclosing `alloc` scope releases the region, not the loop.
        let grows = arrays.iter().any(|st| st.grow.is_some());
        let region = self.opts.mem == MemMode::Region && !arrays.is_empty() && !grows;
        if region {
            setup.push(I::RegionPush(mark.clone()));
            self.marks.push(mark.clone());
        }
        // The final state of a growing leaf, bound after the loop.
        for st in arrays {
            if let Some(fin) = &st.grow {
                let zeros = st.dims.iter().map(|_| Exp::i64(0)).collect();
                self.declare_array(out, fin, st.elem, Exp::Null, zeros, false);
                self.arrays.insert(fin.clone(), (st.elem, st.dims.len()));
            }
        }
        // Scalar state.
        let svars: Vec<Name> = scalars
            .iter()
            .map(|(v, _, _)| self.fresh(&format!("{}_st", c_name(v))))
            .collect();
        for ((v, p, init), sv) in scalars.iter().zip(&svars) {
            setup.push(I::Decl(sv.clone(), CTy::Prim(*p), Some(self.atom(init))));
            self.scalars.insert(v.clone(), *p);
        }
        // Array state: `cur` starts at `out` (holding the initial state), `nxt`
        // at a scratch buffer.
        // (a growing leaf: `nxt` starts empty, each iteration grows it; the
        // capacities in rows travel with the pointers)
        let mut bufs = Vec::new();
        for st in arrays {
            let cur = self.fresh(&format!("{}_cur", c_name(&st.var)));
            let nxt = self.fresh(&format!("{}_nxt", c_name(&st.var)));
            let caps = if st.grow.is_some() {
                let (cc, cn) = (self.fresh("cap_cur"), self.fresh("cap_nxt"));
                let d0 = st.dims.first().map(|d| self.atom(d)).unwrap_or(Exp::i64(0));
                setup.push(I::Decl(cc.clone(), CTy::Prim(PrimType::I64), Some(d0)));
                // (-1: the first growth always allocates, so no NULL is
                // ever used, not even for 0 rows)
                setup.push(I::Decl(
                    cn.clone(),
                    CTy::Prim(PrimType::I64),
                    Some(Exp::i64(-1)),
                ));
                setup.push(I::Decl(
                    nxt.clone(),
                    CTy::Ptr(st.elem, false),
                    Some(Exp::Null),
                ));
                Some((cc, cn))
            } else if st.in_place {
                // (one buffer: the body updates the state where it is)
                setup.push(I::Decl(
                    nxt.clone(),
                    CTy::Ptr(st.elem, false),
                    Some(Exp::Var(c_name(&st.out))),
                ));
                None
            } else {
                let scratch = self.fresh(&format!("{}_scratch", c_name(&st.var)));
                self.alloc_buf(
                    &scratch,
                    st.elem,
                    &st.dims,
                    &[],
                    st.span,
                    false,
                    &mut setup,
                    &mut frees,
                );
                setup.push(I::Decl(
                    nxt.clone(),
                    CTy::Ptr(st.elem, false),
                    Some(Exp::Var(c_name(&scratch))),
                ));
                None
            };
            setup.push(I::Decl(
                cur.clone(),
                CTy::Ptr(st.elem, false),
                Some(Exp::Var(c_name(&st.out))),
            ));
            self.arrays.insert(st.var.clone(), (st.elem, st.dims.len()));
            self.arrays
                .insert(st.next.clone(), (st.elem, st.dims.len()));
            bufs.push((st, cur, nxt, caps));
        }
        let counter = match form {
            LoopForm::For(i, n) => {
                let bound = self.canon_atom(n);
                self.counters.insert(i.clone(), (bound, self.level + 1));
                Some((i.clone(), n.clone()))
            }
            LoopForm::While(_) => None,
        };
        // (a loop with array state allocates its scratch storage before the
        // first iteration: its checks stay in the body)
        let trips = counter
            .as_ref()
            .filter(|_| arrays.is_empty())
            .map(|(_, n)| n.clone());
        let (hoisted, b) = self.in_loop(trips.as_ref(), &mut |this, o| {
            for ((v, p, _), sv) in scalars.iter().zip(&svars) {
                o.push(I::Decl(
                    c_name(v),
                    CTy::Prim(*p),
                    Some(Exp::Var(sv.clone())),
                ));
                this.local_level.insert(v.clone(), this.level);
            }
            for (st, cur, nxt, caps) in &bufs {
                let dims: Vec<Exp> = st.dims.iter().map(|d| this.atom(d)).collect();
                let (dc, dn) = match caps {
                    // (a growing leaf's outer dims are its capacities)
                    Some((cc, cn)) => {
                        let with = |c: &Name| {
                            let mut v = dims.clone();
                            if let Some(d) = v.first_mut() {
                                *d = Exp::Var(c.clone());
                            }
                            v
                        };
                        let loc = this.loc(st.span);
                        this.growing.insert(
                            st.next.clone(),
                            Growing {
                                ptr: nxt.clone(),
                                cap: cn.clone(),
                                elem: st.elem,
                                inner: dims.iter().skip(1).cloned().collect(),
                                loc,
                                marks_at: this.marks.len(),
                            },
                        );
                        (with(cc), with(cn))
                    }
                    None => (dims.clone(), dims),
                };
                this.declare_array(o, &st.var, st.elem, Exp::Var(cur.clone()), dc, false);
                this.declare_array(o, &st.next, st.elem, Exp::Var(nxt.clone()), dn, false);
                for (k, d) in st.dims.iter().enumerate() {
                    if k == 0 && caps.is_some() {
                        continue;
                    }
                    this.equate(dkey(&st.var, k), d);
                    this.equate(dkey(&st.next, k), d);
                }
            }
            if let LoopForm::While(c) = form {
                let cv = this.fresh("cond");
                o.push(I::Decl(cv.clone(), CTy::Prim(PrimType::Bool), None));
                this.block_into(c, std::slice::from_ref(&cv), o);
                o.push(I::If(
                    Exp::Pre("!", Box::new(Exp::Var(cv))),
                    vec![I::Break],
                    vec![],
                ));
            }
            let tmp: Vec<Name> = svars
                .iter()
                .map(|s| this.fresh(&format!("{s}_n")))
                .collect();
            for (t, (_, p, _)) in tmp.iter().zip(scalars) {
                o.push(I::Decl(t.clone(), CTy::Prim(*p), None));
            }
            this.block_into(body, &tmp, o);
            for (sv, t) in svars.iter().zip(&tmp) {
                o.push(I::Set(sv.clone(), Exp::Var(t.clone())));
            }
            for (st, cur, nxt, caps) in &bufs {
                if st.in_place {
                    continue;
                }
                let t = this.fresh("swap");
                o.push(I::Decl(
                    t.clone(),
                    CTy::Ptr(st.elem, false),
                    Some(Exp::Var(cur.clone())),
                ));
                o.push(I::Set(cur.clone(), Exp::Var(nxt.clone())));
                o.push(I::Set(nxt.clone(), Exp::Var(t)));
                if let Some((cc, cn)) = caps {
                    let t = this.fresh("swap");
                    o.push(I::Decl(
                        t.clone(),
                        CTy::Prim(PrimType::I64),
                        Some(Exp::Var(cc.clone())),
                    ));
                    o.push(I::Set(cc.clone(), Exp::Var(cn.clone())));
                    o.push(I::Set(cn.clone(), Exp::Var(t)));
                }
            }
        });
        for st in arrays {
            self.growing.remove(&st.next);
        }
        setup.extend(hoisted);
        match counter {
            Some((i, n)) => setup.push(I::For {
                i: c_name(&i),
                n: self.atom(&n),
                body: b,
                simd: None,
            }),
            None => setup.push(I::Forever(b)),
        }
        for (st, cur, _, caps) in &bufs {
            if let (Some(fin), Some((cc, _))) = (&st.grow, caps) {
                setup.push(I::Set(c_name(fin), Exp::Var(cur.clone())));
                setup.push(I::Set(dim_name(fin, 0), Exp::Var(cc.clone())));
                for (k, d) in st.dims.iter().enumerate().skip(1) {
                    setup.push(I::Set(dim_name(fin, k), self.atom(d)));
                    self.equate(dkey(fin, k), d);
                }
                continue;
            }
            let elems = st
                .dims
                .iter()
                .map(|d| self.atom(d))
                .reduce(|a, b| Exp::op("*", a, b))
                .unwrap_or(Exp::i64(1));
            setup.push(I::If(
                Exp::op("!=", Exp::Var(cur.clone()), Exp::Var(c_name(&st.out))),
                vec![I::Copy {
                    dst: c_name(&st.out),
                    src: cur.clone(),
                    elem: st.elem,
                    elems,
                }],
                vec![],
            ));
        }
        for (o, sv) in names.iter().zip(&svars) {
            setup.push(I::Set(c_name(o), Exp::Var(sv.clone())));
        }
        setup.extend(frees);
        if region {
            self.marks.pop();
            setup.push(I::RegionPop(mark));
        }
        out.push(I::Block(setup));
    }

    /// `missing && !weir_first_row_fails(build)`: an out-of-memory guard of
    /// `dest` made by a `build` of dims `build` (count first; none: `missing`),
    /// which does not fail here when the `build` fails in its first row
    /// ([`Guard::DestReady`], [`Guard::Grown`]).
    fn unless_first_row_fails(&mut self, missing: Exp, dest: &str, build: &[Atom]) -> Exp {
        match self.arrays.get(dest) {
            Some(&(elem, _)) if !build.is_empty() => Exp::op(
                "&&",
                missing,
                Exp::Pre(
                    "!",
                    Box::new(Exp::Call(
                        "weir_first_row_fails".into(),
                        vec![
                            Exp::Dims(build.iter().map(|a| self.atom(a)).collect()),
                            Exp::i64(build.len() as i64),
                            Exp::SizeOf(elem),
                        ],
                    )),
                ),
            ),
            _ => missing,
        }
    }

    /// [`Stmt::Grow`]: when the next state's storage holds fewer than `rows`
    /// rows, new storage in the region of at least twice as many
    /// (`weir_grow_rows`); its old contents are not needed.
    ///
    /// With `soft` (the dims of the `build` of rows that writes it, its
    /// count first): when the `build` fails in its first row, the storage is not grown but stands for `rows` rows at an
    /// address that is never written (`weir_grow_soft`): the first row's
    /// [`Guard::Grown`] fails before anything is written.
    fn grow(
        &mut self,
        dest: &str,
        rows: &Atom,
        hint: Option<&Atom>,
        soft: &[Atom],
        span: Span,
        out: &mut Vec<I>,
    ) {
        let Some(mut g) = self.growing.get(dest).cloned() else {
            return;
        };
        // (out of memory where the growth is: the construct that writes the
        // state, as the interpreter, else the loop)
        if span != Span::default() {
            g.loc = self.loc(span);
        }
        let rows = self.atom(rows);
        let cap = self.fresh("cap");
        let n = self.fresh("grow_n");
        let p = self.fresh("grown");
        let mut dims = vec![Exp::Var(cap.clone())];
        dims.extend(g.inner.iter().cloned());
        let kind = AllocKind::Region;
        let inner = Exp::Dims(if g.inner.is_empty() {
            vec![Exp::i64(1)]
        } else {
            g.inner.clone()
        });
        let grow_rows = Exp::Call(
            "weir_grow_rows".into(),
            vec![
                Exp::Var(g.cap.clone()),
                rows.clone(),
                inner.clone(),
                Exp::i64(g.inner.len() as i64),
                Exp::SizeOf(g.elem),
            ],
        );
        let alloc = vec![
            I::Count {
                var: n.clone(),
                dims,
                when: vec![],
                elem: g.elem,
                loc: g.loc,
                lazy: false,
            },
            I::Alloc {
                ptr: p.clone(),
                elem: g.elem,
                elems: Exp::Var(n),
                kind,
                loc: g.loc,
            },
        ];
        let mut body = match hint {
            // (the shape slice's largest length where memory allows, else
            // as the iterations need)
            Some(h) => {
                let h = self.atom(h);
                let hp = self.fresh("hinted");
                let mut fallback = vec![I::Set(cap.clone(), grow_rows)];
                fallback.extend(alloc);
                fallback.push(I::Set(hp.clone(), Exp::Var(p)));
                vec![
                    I::Decl(
                        hp.clone(),
                        CTy::Ptr(g.elem, false),
                        Some(Exp::Call(
                            "weir_grow_hint".into(),
                            vec![
                                Exp::var("ctx"),
                                h.clone(),
                                Exp::Var(g.cap.clone()),
                                rows.clone(),
                                inner,
                                Exp::i64(g.inner.len() as i64),
                                Exp::SizeOf(g.elem),
                            ],
                        )),
                    ),
                    I::Decl(cap.clone(), CTy::Prim(PrimType::I64), Some(h)),
                    I::If(
                        Exp::Pre("!", Box::new(Exp::Var(hp.clone()))),
                        fallback,
                        vec![],
                    ),
                    I::Set(g.ptr.clone(), Exp::Var(hp.clone())),
                    I::Set(c_name(dest), Exp::Var(hp)),
                ]
            }
            None => {
                let mut b = vec![I::Decl(
                    cap.clone(),
                    CTy::Prim(PrimType::I64),
                    Some(grow_rows),
                )];
                b.extend(alloc);
                b.push(I::Set(g.ptr.clone(), Exp::Var(p.clone())));
                b.push(I::Set(c_name(dest), Exp::Var(p)));
                b
            }
        };
        body.push(I::Set(g.cap.clone(), Exp::Var(cap.clone())));
        body.push(I::Set(dim_name(dest, 0), Exp::Var(cap)));
        // (grown inside scopes of the body, as where the body first writes
        // the state: their marks move past the new storage, so leaving them
        // keeps it; what they allocated before stays until the loop's scope
        // ends, at most once per growth, which doubles)
        for m in self.marks.iter().skip(g.marks_at) {
            body.push(I::Set(
                m.clone(),
                Exp::Call("weir_region_mark".into(), vec![Exp::var("ctx")]),
            ));
        }
        if !soft.is_empty() {
            self.soft_views.insert(dest.to_string());
            let row: Vec<Exp> = soft.iter().map(|x| self.atom(x)).collect();
            let skip = Exp::Call(
                "weir_grow_soft".into(),
                vec![
                    Exp::var("ctx"),
                    Exp::Dims(row),
                    Exp::Const(Const::I32(soft.len() as i32)),
                    Exp::SizeOf(g.elem),
                ],
            );
            let nowhere = Exp::Call("weir_nowhere".into(), vec![]);
            let skipped = vec![
                I::Set(g.ptr.clone(), nowhere.clone()),
                I::Set(c_name(dest), nowhere),
                I::Set(g.cap.clone(), rows.clone()),
                I::Set(dim_name(dest, 0), rows.clone()),
            ];
            body = vec![I::If(skip, skipped, body)];
        }
        out.push(I::If(Exp::op(">", rows, Exp::Var(g.cap)), body, vec![]));
    }
}

/// The value of `a op b` (an ordering of integers of type `p`) where one
/// side is the type's least or greatest value and the other's value does
/// not matter: `x < MIN` and `MAX < x` are false, `x >= MIN` and `MAX >= x`
/// true, and so on.
fn decided_by_limits(op: BinOp, a: &Atom, b: &Atom, p: PrimType) -> Option<bool> {
    let (lo, hi) = (Const::lowest(p), Const::highest(p));
    let is = |x: &Atom, c: Const| matches!(x, Atom::Const(k) if *k == c);
    match op {
        BinOp::Lt if is(b, lo) || is(a, hi) => Some(false),
        BinOp::Ge if is(b, lo) || is(a, hi) => Some(true),
        BinOp::Gt if is(b, hi) || is(a, lo) => Some(false),
        BinOp::Le if is(b, hi) || is(a, lo) => Some(true),
        _ => None,
    }
}

fn zero(p: PrimType) -> Const {
    Const::zero(p)
}

/// Is `s` a loop whose body uses `v` (not its header) and, before the first
/// statement of the body that does, has a statement that can fail?
fn fails_before_use(s: &Stmt, v: &str) -> bool {
    if stmt_uses(s).iter().any(|u| u.as_str() == v) {
        return false;
    }
    let body: &[Stmt] = match s {
        Stmt::For { body, .. } => body,
        Stmt::Fold { body, .. } => &body.stmts,
        Stmt::Loop {
            form: LoopForm::For(..),
            body,
            ..
        } => &body.stmts,
        _ => return false,
    };
    for st in body {
        if mentions(std::slice::from_ref(st), v) {
            return false;
        }
        if stmt_can_fail(st) {
            return true;
        }
    }
    false
}

/// Is `s` the first statement that needs the (lazily allocated) array `v`?
/// A placed view does not: it tests whether `v`'s storage exists.
fn needs_at(s: &Stmt, v: &str) -> bool {
    !matches!(
        s,
        Stmt::View {
            view: View::Placed { .. },
            ..
        }
    ) && mentions(std::slice::from_ref(s), v)
}

/// The array a view is a view of.
/// The pointer `a + offset` (`a` itself at offset 0).
fn pointer_at(a: &str, offset: Exp) -> Exp {
    match offset {
        Exp::Const(Const::I64(0)) => Exp::Var(c_name(a)),
        off => Exp::Offset(c_name(a), Box::new(off)),
    }
}

fn view_source(v: &View) -> &Name {
    v.source()
}

/// `u + ku += coef * (fb + kb)`, names whose coefficient becomes 0 dropped;
/// `None` on overflow.
fn add_scaled(
    u: &mut BTreeMap<Name, i64>,
    ku: &mut i64,
    fb: BTreeMap<Name, i64>,
    kb: i64,
    coef: i64,
) -> Option<()> {
    for (n, x) in fb {
        let e = u.entry(n).or_insert(0);
        *e = x.checked_mul(coef).and_then(|d| e.checked_add(d))?;
    }
    *ku = kb.checked_mul(coef).and_then(|d| ku.checked_add(d))?;
    u.retain(|_, c| *c != 0);
    Some(())
}
