//! What the optimizer knows about integers where it is, to prove checks that
//! cannot fail (so that removing them changes nothing).
//!
//! [`Facts`] is built walking a body in order: the definitions and types of the
//! variables bound so far, the loop counters of the enclosing loops with their
//! trip counts (`i` in `0..n`: the body only runs when `n >= 1`), and the sizes
//! made equal by the size checks evaluated so far (`assert_size got want`: after
//! it, `got == want`). Nothing established inside a nested body leaks out of it:
//! a nested body gets a copy ([`Facts::enter`]).
//!
//! Integers are read as linear forms ([`Lin`]) over opaque terms: variables and
//! the lengths of array dimensions (`dim a k`, the sizes in types, the counts of
//! builds, the length of a slice). A length is `>= 0`, as are loop counters and
//! size parameters. A check is proved when, with every loop counter replaced by
//! its extreme value (0, or its trip count minus 1), the linear form that must be
//! non-negative has only non-negative terms with non-negative coefficients and a
//! non-negative constant.
//!
//! The reading is exact when no arithmetic wraps: constants beyond ±2^32 and
//! coefficients beyond ±2^16 are not followed (the value becomes an opaque term),
//! and lengths, counters and size parameters are lengths of arrays that exist
//! (far below 2^62), so the sums the proofs rely on cannot wrap.

use std::collections::{BTreeMap, HashMap, HashSet};
use weir_ir::*;

/// An opaque integer in a linear form.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Term {
    /// A variable whose value is not followed further.
    Var(Name),
    /// The length of dimension `k` of an array variable.
    Dim(Name, usize),
}

/// `c + Σ coeff·term`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Lin {
    pub terms: BTreeMap<Term, i64>,
    pub c: i64,
}

const MAX_CONST: i64 = 1 << 32;
const MAX_COEFF: i64 = 1 << 16;
/// How far definitions are followed (keeps every question cheap).
const FUEL: usize = 24;

impl Lin {
    pub fn constant(c: i64) -> Option<Lin> {
        (c.unsigned_abs() <= MAX_CONST.unsigned_abs()).then(|| Lin {
            terms: BTreeMap::new(),
            c,
        })
    }
    pub fn term(t: Term) -> Lin {
        Lin {
            terms: BTreeMap::from([(t, 1)]),
            c: 0,
        }
    }
    fn checked(self) -> Option<Lin> {
        (self.c.unsigned_abs() <= MAX_CONST.unsigned_abs()
            && self
                .terms
                .values()
                .all(|k| k.unsigned_abs() <= MAX_COEFF.unsigned_abs()))
        .then_some(self)
    }
    pub fn add(&self, o: &Lin) -> Option<Lin> {
        let mut r = self.clone();
        r.c = r.c.checked_add(o.c)?;
        for (t, k) in &o.terms {
            let e = r.terms.entry(t.clone()).or_insert(0);
            *e = e.checked_add(*k)?;
            if *e == 0 {
                r.terms.remove(t);
            }
        }
        r.checked()
    }
    pub fn scale(&self, f: i64) -> Option<Lin> {
        if f == 0 {
            return Lin::constant(0);
        }
        let mut r = Lin {
            terms: BTreeMap::new(),
            c: self.c.checked_mul(f)?,
        };
        for (t, k) in &self.terms {
            r.terms.insert(t.clone(), k.checked_mul(f)?);
        }
        r.checked()
    }
    pub fn sub(&self, o: &Lin) -> Option<Lin> {
        self.add(&o.scale(-1)?)
    }
    pub fn plus(&self, c: i64) -> Option<Lin> {
        self.add(&Lin::constant(c)?)
    }
    pub fn as_const(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.c)
    }
}

/// See the module documentation.
#[derive(Clone, Default)]
pub struct Facts {
    defs: HashMap<Name, Exp>,
    types: HashMap<Name, Type>,
    /// Loop counters of the enclosing loops: `i` in `0..n`.
    counters: HashMap<Name, Atom>,
    /// Variables known to be `>= 0` (size parameters).
    nonneg: HashSet<Name>,
    /// Terms known equal to a linear form (from size checks).
    known: HashMap<Term, Lin>,
    /// Linear forms known to be `>= 0` (from `assert_nonneg`).
    nonneg_lins: Vec<Lin>,
}

impl Facts {
    /// The facts at the start of a function's body.
    pub fn for_fun(d: &FunDef) -> Facts {
        let mut f = Facts::default();
        for (n, t) in &d.params {
            f.types.insert(n.clone(), t.clone());
        }
        for n in &d.size_params {
            f.types.insert(n.clone(), Type::I64);
            f.nonneg.insert(n.clone());
        }
        f
    }

    pub fn ty(&self, a: &Atom) -> Type {
        crate::util::atom_type(a, &self.types)
    }

    pub fn def(&self, v: &str) -> Option<&Exp> {
        self.defs.get(v)
    }

    /// Record a statement that has been evaluated (in order).
    pub fn add(&mut self, st: &Stmt) {
        self.types.insert(st.var.clone(), st.ty.clone());
        self.defs.insert(st.var.clone(), st.exp.clone());
        match &st.exp {
            Exp::CheckSize(c) => self.equate(&c.got, &c.want),
            Exp::Check(c) if c.kind == CheckKind::Same => {
                if let (Some(g), Some(w)) = (c.args.first(), c.args.get(1)) {
                    self.equate(g, w)
                }
            }
            // (only an exact form: `assert_nonneg (k - 1)` of a data `k`
            // passes for k = -2^63, where `k - 1` wraps, and says nothing)
            Exp::Check(c) if c.kind == CheckKind::NonNeg => {
                if let Some(l) = c.args.first().and_then(|a| self.lin(a))
                    && self.exact(&l)
                {
                    self.nonneg_lins.push(l);
                }
            }
            // a slice that was taken had `0 <= s <= e` (its bounds check
            // is part of it)
            Exp::Slice(_, s, e) => {
                if let (Some(ls), Some(le)) = (self.lin(s), self.lin(e))
                    && self.exact(&ls)
                    && self.exact(&le)
                {
                    self.nonneg_lins.extend(le.sub(&ls));
                    self.nonneg_lins.push(ls);
                }
            }
            _ => {}
        }
    }

    /// The facts in a branch of an `if` on `cond`, taken when `cond` is
    /// `taken`: where `cond` is a comparison of two `i64`s, what it says as
    /// a linear form `>= 0` (`x < y` taken: `y - x - 1 >= 0`; not taken:
    /// `x - y >= 0`).
    pub fn branch(&self, cond: &Atom, taken: bool) -> Facts {
        let mut f = self.clone();
        let Atom::Var(c) = cond else { return f };
        let Some(Exp::Bin(op, x, y)) = self.defs.get(c) else {
            return f;
        };
        if self.ty(x) != Type::I64 || self.ty(y) != Type::I64 {
            return f;
        }
        let (Some(lx), Some(ly)) = (self.lin(x), self.lin(y)) else {
            return f;
        };
        // (only where the linear forms are the values: no arithmetic on them
        // can have wrapped)
        if !self.exact(&lx) || !self.exact(&ly) {
            return f;
        }
        // (each as `a - b + k >= 0`)
        let fact = match (op, taken) {
            (BinOp::Lt, true) | (BinOp::Ge, false) => ly.sub(&lx).and_then(|d| d.plus(-1)),
            (BinOp::Lt, false) | (BinOp::Ge, true) => lx.sub(&ly),
            (BinOp::Le, true) | (BinOp::Gt, false) => ly.sub(&lx),
            (BinOp::Le, false) | (BinOp::Gt, true) => lx.sub(&ly).and_then(|d| d.plus(-1)),
            _ => None,
        };
        f.nonneg_lins.extend(fact);
        f
    }

    /// Is `l` the value it stands for, whatever the program's data: one
    /// variable; one or two values known `>= 0`, with coefficients ±1 and a
    /// constant, whose sum cannot leave the range (`x - y`, `x - 1`, `n - r`);
    /// or at most three terms with coefficients ±1
    /// and a constant within ±2^32, each term a length, a loop counter, a
    /// size parameter, or a variable known to lie between 0 and a sum of
    /// those (`assert_nonneg v` and `assert_nonneg (n - v)`, say). Lengths
    /// and counters are far below 2^60, so no sum of such terms wraps.
    /// Arithmetic on a variable of the data (`k + 1`) is not: it may have
    /// wrapped, and its linear form then differs from its value.
    pub fn exact(&self, l: &Lin) -> bool {
        let base = |t: &Term| matches!(t, Term::Dim(..)) || self.is_base(t);
        let bounded = |t: &Term| {
            base(t)
                || (self.nonneg(&Lin::term(t.clone()))
                    && self.nonneg_lins.iter().any(|k| {
                        k.terms.get(t) == Some(&-1)
                            && k.c.unsigned_abs() <= MAX_CONST.unsigned_abs()
                            && k.terms.len() <= 3
                            && k.terms.iter().all(|(u, c)| u == t || (*c == 1 && base(u)))
                    }))
        };
        // (one variable as it is, or a constant, is its value; wrapping
        // arithmetic agrees with the linear form modulo 2^64, so a form whose
        // value is within range is the value)
        let single = l.c == 0 && l.terms.len() == 1 && l.terms.values().all(|c| *c == 1);
        // (terms known `>= 0` with coefficients ±1, whose sum with the
        // constant stays in range for any values of them: `x - y`, `x - 1`,
        // `n - r`, `1 - r`)
        let in_range = l.terms.len() <= 2
            && l.terms
                .iter()
                .all(|(t, c)| c.abs() == 1 && (base(t) || self.nonneg(&Lin::term(t.clone()))))
            && {
                let pos = l.terms.values().filter(|c| **c > 0).count() as i128;
                let neg = l.terms.values().filter(|c| **c < 0).count() as i128;
                let (c, max) = (l.c as i128, i64::MAX as i128);
                c - max * neg >= i64::MIN as i128 && c + max * pos <= max
            };
        single
            || in_range
            || (l.terms.len() <= 3
                && l.c.unsigned_abs() <= MAX_CONST.unsigned_abs()
                && l.terms.iter().all(|(t, c)| c.abs() == 1 && bounded(t)))
    }

    /// A parameter of a lambda or loop about to be entered.
    pub fn param(&mut self, n: &str, t: &Type) {
        self.types.insert(n.to_string(), t.clone());
    }

    /// A loop counter `i` in `0..n`, for the body of its loop.
    pub fn counter(&mut self, i: &str, n: &Atom) {
        self.types.insert(i.to_string(), Type::I64);
        self.counters.insert(i.to_string(), n.clone());
        // (a trip count `max x 0`, a size made non-negative, is `x` wherever
        // the body runs: `x >= 1` there)
        if let Atom::Var(v) = n
            && let Some(x) = self.max_zero(n)
            && let Some(lx) = self.lin(&x)
        {
            self.known.insert(Term::Var(v.clone()), lx);
        }
    }

    /// `x` where `n` is `max x 0` (or `max 0 x`).
    fn max_zero(&self, n: &Atom) -> Option<Atom> {
        let Atom::Var(v) = n else { return None };
        let Some(Exp::Math(MathFn::Max, xs)) = self.defs.get(v) else {
            return None;
        };
        match xs.as_slice() {
            [x, Atom::Const(Const::I64(0))] | [Atom::Const(Const::I64(0)), x] => Some(x.clone()),
            _ => None,
        }
    }

    /// The facts for the nested bodies of `e` (in the order of
    /// [`weir_ir::visit::for_each_nested_body`]): lambda parameters and loop
    /// counters added.
    pub fn enter(&self, e: &Exp) -> Vec<Facts> {
        let mut out = Vec::new();
        match e {
            Exp::If(c, ..) => {
                out.push(self.branch(c, true));
                out.push(self.branch(c, false));
            }
            Exp::Call(_, args) => {
                for a in args {
                    if let Arg::Fun(Fun::Lambda(l)) = a {
                        let mut f = self.clone();
                        for (n, t) in &l.params {
                            f.param(n, t);
                        }
                        out.push(f);
                    }
                }
            }
            Exp::Prim(p) => {
                // (the lambda that is the body of the builtin's counted loop,
                // with its trip count and index parameter)
                let lp = p.index_loop();
                for l in p.lambdas() {
                    let mut f = self.clone();
                    for (n, t) in &l.params {
                        f.param(n, t);
                    }
                    if let Some((n, Fun::Lambda(body), pk)) = lp
                        && std::ptr::eq(&**body, l)
                        && let Some((i, _)) = l.params.get(pk)
                    {
                        f.counter(i, n);
                    }
                    out.push(f);
                }
            }
            Exp::Loop { state, form, .. } => {
                let mut f = self.clone();
                f.param(&state.0, &state.1);
                if let LoopForm::While(_) = form {
                    out.push(f.clone());
                }
                if let LoopForm::For(i, n) = form {
                    f.counter(i, n);
                }
                out.push(f);
            }
            _ => {}
        }
        out
    }

    // ---------------------------------------------------------------------
    // Linear forms

    /// The linear form of an `i64` atom.
    pub fn lin(&self, a: &Atom) -> Option<Lin> {
        self.lin_fuel(a, FUEL)
    }

    fn lin_fuel(&self, a: &Atom, fuel: usize) -> Option<Lin> {
        match a {
            Atom::Const(Const::I64(c)) => Lin::constant(*c),
            Atom::Const(_) => None,
            Atom::Var(v) => self.lin_var(v, fuel),
        }
    }

    fn lin_var(&self, v: &str, fuel: usize) -> Option<Lin> {
        if self.types.get(v).is_some_and(|t| *t != Type::I64) {
            return None;
        }
        let opaque = || self.norm(Lin::term(Term::Var(v.to_string())), FUEL);
        if fuel == 0 {
            return opaque();
        }
        let f = fuel - 1;
        match self.defs.get(v) {
            Some(Exp::Atom(a)) => self.lin_fuel(a, f),
            Some(Exp::Bin(BinOp::Add, a, b)) => self.lin_fuel(a, f)?.add(&self.lin_fuel(b, f)?),
            Some(Exp::Bin(BinOp::Sub, a, b)) => self.lin_fuel(a, f)?.sub(&self.lin_fuel(b, f)?),
            Some(Exp::Bin(BinOp::Mul, a, b)) => {
                let (x, y) = (self.lin_fuel(a, f)?, self.lin_fuel(b, f)?);
                match (x.as_const(), y.as_const()) {
                    (Some(k), _) => y.scale(k),
                    (_, Some(k)) => x.scale(k),
                    _ => opaque(),
                }
            }
            Some(Exp::Un(UnOp::Neg, a)) => self.lin_fuel(a, f)?.scale(-1),
            Some(Exp::Dim(a, k)) => self.len_fuel(a, *k, f),
            Some(Exp::Prim(Prim::Length { a })) => self.len_fuel(a, 0, f),
            Some(Exp::CheckSize(c)) => self.lin_fuel(&c.got, f),
            Some(Exp::Check(c)) if c.kind != CheckKind::NonZero => match c.args.first() {
                Some(a) => self.lin_fuel(a, f),
                None => opaque(),
            },
            _ => opaque(),
        }
    }

    /// The length of dimension `k` of the array atom `a`.
    pub fn len(&self, a: &Atom, k: usize) -> Option<Lin> {
        self.len_fuel(a, k, FUEL)
    }

    fn len_fuel(&self, a: &Atom, k: usize, fuel: usize) -> Option<Lin> {
        let Atom::Var(v) = a else { return None };
        let opaque = || self.norm(Lin::term(Term::Dim(v.clone(), k)), FUEL);
        if fuel == 0 {
            return opaque();
        }
        let f = fuel - 1;
        match self.types.get(v).and_then(|t| crate::util::size_at(t, k)) {
            Some(Size::Const(c)) => return Lin::constant(*c),
            Some(Size::Var(s)) => return self.lin_var(s, f),
            Some(_) => {}
            None => return None,
        }
        match self.defs.get(v) {
            Some(Exp::Atom(b)) => self.len_fuel(b, k, f),
            Some(Exp::Index(b, _)) => self.len_fuel(b, k + 1, f),
            Some(Exp::Prim(Prim::Build { n, .. })) if k == 0 => self.lin_fuel(n, f),
            Some(Exp::ArrayLit(xs)) if k == 0 => Lin::constant(xs.len() as i64),
            Some(Exp::Slice(_, s, e)) if k == 0 => self.lin_fuel(e, f)?.sub(&self.lin_fuel(s, f)?),
            Some(Exp::Slice(b, _, _)) => self.len_fuel(b, k, f),
            _ => opaque(),
        }
    }

    /// Replace the terms known equal to something else.
    fn norm(&self, l: Lin, fuel: usize) -> Option<Lin> {
        if self.known.is_empty() || fuel == 0 {
            return Some(l);
        }
        let mut out = Lin::constant(l.c)?;
        for (t, k) in l.terms {
            let part = match self.known.get(&t) {
                Some(r) => self.norm(r.clone(), fuel - 1)?,
                None => Lin::term(t),
            };
            out = out.add(&part.scale(k)?)?;
        }
        Some(out)
    }

    /// After a passed check: `a == b`.
    fn equate(&mut self, a: &Atom, b: &Atom) {
        let (Some(x), Some(y)) = (self.lin(a), self.lin(b)) else {
            return;
        };
        let Some(d) = x.sub(&y) else { return };
        // solve `d = 0` for a term of coefficient ±1, preferring a length,
        // then a variable that is neither a size parameter nor a loop
        // counter (`n - i = m` with `m = max (n - i) 0` is solved for `m`:
        // solved for `n`, it would hide that `i < n`)
        let pick = d
            .terms
            .iter()
            .filter(|(_, k)| k.unsigned_abs() == 1)
            .max_by_key(|(t, _)| (matches!(t, Term::Dim(..)), !self.is_base(t)))
            .map(|(t, k)| (t.clone(), *k));
        let Some((t, k)) = pick else { return };
        let mut rest = d.clone();
        rest.terms.remove(&t);
        // k·t + rest = 0  ⇒  t = -rest / k = -k·rest (k = ±1)
        if let Some(v) = rest.scale(-k) {
            self.known.insert(t, v);
        }
    }

    // ---------------------------------------------------------------------
    // Proofs

    /// A size parameter or a loop counter.
    fn is_base(&self, t: &Term) -> bool {
        matches!(t, Term::Var(v) if self.nonneg.contains(v) || self.counters.contains_key(v))
    }

    fn term_nonneg(&self, t: &Term) -> bool {
        match t {
            Term::Dim(..) => true,
            // (`max x 0`, a size made non-negative, is)
            Term::Var(v) => self.is_base(t) || self.max_zero(&Atom::Var(v.clone())).is_some(),
        }
    }

    /// Is `l >= 0` wherever these facts hold?
    pub fn nonneg(&self, l: &Lin) -> bool {
        self.nonneg_bounds(l)
            || self
                .nonneg_lins
                .iter()
                .any(|k| l.sub(k).is_some_and(|d| self.nonneg_bounds(&d)))
    }

    /// `nonneg` from the terms' and counters' bounds alone.
    fn nonneg_bounds(&self, l: &Lin) -> bool {
        let mut l = l.clone();
        for _ in 0..8 {
            // replace each counter by the value that makes `l` smallest
            let mut next = match Lin::constant(l.c) {
                Some(x) => x,
                None => return false,
            };
            let mut replaced = false;
            // (an inner counter first: where `j < n - i` and `i < n` are
            // both in `l`, `j` is replaced by its bound, which names `i`,
            // before `i` is)
            let blocked = self.blocked_counters(&l);
            for (t, k) in &l.terms {
                let bound = match t {
                    Term::Var(v) if !blocked.contains(v) => self.counters.get(v),
                    _ => None,
                };
                let part = match bound {
                    Some(_) if *k > 0 => Lin::constant(0),
                    Some(n) => self.lin(n).and_then(|n| n.plus(-1)),
                    None => Some(Lin::term(t.clone())),
                };
                replaced |= bound.is_some();
                match part.and_then(|p| p.scale(*k)).and_then(|p| next.add(&p)) {
                    Some(x) => next = x,
                    None => return false,
                }
            }
            l = next;
            if !replaced {
                break;
            }
        }
        l.c >= 0
            && l.terms
                .iter()
                .all(|(t, k)| *k >= 0 && self.term_nonneg(t) && !self.is_counter(t))
    }

    /// The counters of `l` named by the bound of another counter of `l`
    /// (none where every counter is: a cycle is replaced all at once).
    fn blocked_counters(&self, l: &Lin) -> HashSet<Name> {
        let counters: Vec<&Name> = l
            .terms
            .keys()
            .filter_map(|t| match t {
                Term::Var(v) if self.counters.contains_key(v) => Some(v),
                _ => None,
            })
            .collect();
        let mut blocked = HashSet::new();
        for v in &counters {
            let Some(bound) = self.counters.get(*v).and_then(|n| self.lin(n)) else {
                continue;
            };
            for u in &counters {
                if u != v && bound.terms.contains_key(&Term::Var((*u).clone())) {
                    blocked.insert((*u).clone());
                }
            }
        }
        if blocked.len() == counters.len() {
            blocked.clear();
        }
        blocked
    }

    fn is_counter(&self, t: &Term) -> bool {
        matches!(t, Term::Var(v) if self.counters.contains_key(v))
    }

    pub fn prove_nonneg(&self, a: &Atom) -> bool {
        self.lin(a).is_some_and(|l| self.nonneg(&l))
    }

    /// `0 <= i < n` for the lengths `n`. An `i` chosen by an `if` (`if c
    /// then t else u`) is in bounds when each branch's value is, with what
    /// the branch's condition says.
    pub fn prove_index(&self, i: &Atom, n: &Lin) -> bool {
        self.prove_index_fuel(i, n, 4)
    }

    fn prove_index_fuel(&self, i: &Atom, n: &Lin, fuel: usize) -> bool {
        let Some(li) = self.lin(i) else { return false };
        let linear = self.nonneg(&li)
            && n.sub(&li)
                .and_then(|d| d.plus(-1))
                .is_some_and(|d| self.nonneg(&d));
        if linear || fuel == 0 {
            return linear;
        }
        let Atom::Var(v) = i else { return false };
        let Some(Exp::If(c, t, e)) = self.defs.get(v) else {
            return false;
        };
        [(t, true), (e, false)].into_iter().all(|(b, taken)| {
            let mut f = self.branch(c, taken);
            for st in &b.stmts {
                f.add(st);
            }
            f.prove_index_fuel(&b.result, n, fuel - 1)
        })
    }

    /// `0 <= s <= e <= n`.
    pub fn prove_slice(&self, s: &Atom, e: &Atom, n: &Lin) -> bool {
        let (Some(ls), Some(le)) = (self.lin(s), self.lin(e)) else {
            return false;
        };
        self.nonneg(&ls)
            && le.sub(&ls).is_some_and(|d| self.nonneg(&d))
            && n.sub(&le).is_some_and(|d| self.nonneg(&d))
    }

    /// `d != 0` for an integer divisor.
    pub fn prove_nonzero(&self, d: &Atom) -> bool {
        match d {
            Atom::Const(c) => !crate::util::is_zero(*c),
            Atom::Var(_) => self
                .lin(d)
                .and_then(|l| l.plus(-1))
                .is_some_and(|l| self.nonneg(&l)),
        }
    }

    /// Are the two lengths equal?
    pub fn prove_eq_lin(&self, a: &Lin, b: &Lin) -> bool {
        a.sub(b).is_some_and(|d| d.terms.is_empty() && d.c == 0)
    }

    pub fn prove_eq(&self, a: &Atom, b: &Atom) -> bool {
        a == b
            || matches!((self.lin(a), self.lin(b)), (Some(x), Some(y)) if self.prove_eq_lin(&x, &y))
    }

    /// Is the condition `c` (a comparison of two `i64`s, a conjunction of
    /// such, or `true`) true here?
    pub fn prove_cond(&self, c: &Atom) -> bool {
        self.prove_cond_fuel(c, 8)
    }

    fn prove_cond_fuel(&self, c: &Atom, fuel: usize) -> bool {
        let v = match c {
            Atom::Const(Const::Bool(b)) => return *b,
            Atom::Const(_) => return false,
            Atom::Var(v) => v,
        };
        let Some(Exp::Bin(op, x, y)) = self.defs.get(v) else {
            return false;
        };
        if *op == BinOp::And {
            return fuel > 0
                && self.prove_cond_fuel(x, fuel - 1)
                && self.prove_cond_fuel(y, fuel - 1);
        }
        if self.ty(x) != Type::I64 || self.ty(y) != Type::I64 {
            return false;
        }
        let (Some(lx), Some(ly)) = (self.lin(x), self.lin(y)) else {
            return false;
        };
        // (an equality of the forms is one of the values, which agree with
        // them modulo 2^64; an order only where no arithmetic can have
        // wrapped)
        if *op == BinOp::Eq {
            return self.prove_eq_lin(&lx, &ly);
        }
        if !self.exact(&lx) || !self.exact(&ly) {
            return false;
        }
        let ge = |a: &Lin, b: &Lin, k: i64| {
            a.sub(b)
                .and_then(|d| d.plus(-k))
                .is_some_and(|d| self.nonneg(&d))
        };
        match op {
            BinOp::Le => ge(&ly, &lx, 0),
            BinOp::Lt => ge(&ly, &lx, 1),
            BinOp::Ge => ge(&lx, &ly, 0),
            BinOp::Gt => ge(&lx, &ly, 1),
            BinOp::Eq => self.prove_eq_lin(&lx, &ly),
            _ => false,
        }
    }

    /// Can this explicit check not fail here?
    pub fn prove_check(&self, c: &Check) -> bool {
        let at = |k: usize| c.args.get(k);
        let lin = |k: usize| at(k).and_then(|a| self.lin(a));
        match c.kind {
            CheckKind::Index => match (at(0), lin(1)) {
                (Some(i), Some(n)) => {
                    self.prove_index(i, &n)
                        // (`i < x` proves `i < max x 0`)
                        || at(1)
                            .and_then(|n| self.max_zero(n))
                            .and_then(|x| self.lin(&x))
                            .is_some_and(|x| self.prove_index(i, &x))
                }
                _ => false,
            },
            CheckKind::Slice => match (at(0), at(1), lin(2)) {
                (Some(s), Some(e), Some(n)) => self.prove_slice(s, e, &n),
                _ => false,
            },
            CheckKind::NonZero => at(0).is_some_and(|d| self.prove_nonzero(d)),
            CheckKind::NonNeg => at(0).is_some_and(|n| self.prove_nonneg(n)),
            CheckKind::Step => lin(0)
                .and_then(|k| k.plus(-1))
                .is_some_and(|k| self.nonneg(&k)),
            CheckKind::Unflatten => match (lin(0), lin(1), lin(2)) {
                (Some(n), Some(m), Some(len)) => match (n.as_const(), m.as_const()) {
                    (Some(x), Some(y)) if x >= 0 && y >= 0 => x
                        .checked_mul(y)
                        .and_then(Lin::constant)
                        .is_some_and(|p| self.prove_eq_lin(&p, &len)),
                    _ => false,
                },
                _ => false,
            },
            CheckKind::Same => match (at(0), at(1)) {
                (Some(a), Some(b)) => self.prove_eq(a, b),
                _ => false,
            },
        }
    }

    /// An atom for the length of dimension `k` of `a`, if one is in scope
    /// without computing anything (a constant, or a variable the linear form
    /// names as a whole).
    pub fn len_atom(&self, a: &Atom, k: usize) -> Option<Atom> {
        let l = self.len(a, k)?;
        if let Some(c) = l.as_const() {
            return Some(Atom::Const(Const::I64(c)));
        }
        if l.c == 0 && l.terms.len() == 1 {
            let (t, coeff) = l.terms.iter().next()?;
            if *coeff == 1
                && let Term::Var(v) = t
            {
                return Some(Atom::Var(v.clone()));
            }
        }
        None
    }
}
