//! The simplifier's rewrite rules, as a named table ([`RULES`]).
//!
//! Each rule looks at one statement's expression, with the definitions and types of
//! the variables in scope, and may return a replacement. Float rules are only those
//! exact in IEEE-754 arithmetic: `x * 1.0`, `x / 1.0`, `x - 0.0`, `x + (-0.0)` are `x`
//! for every `x` (NaN and -0.0 included), while `x + 0.0` is not (`-0.0 + 0.0` is
//! `+0.0`) and `x * 0.0` is not (`inf * 0.0` is NaN), so those stay. Floats are
//! never reassociated.

use crate::util::*;
use std::collections::HashMap;
use weir_interp::Value;
use weir_ir::*;

/// What a rule sees.
pub struct Ctx<'a> {
    /// The defining expression of each variable bound by a statement so far.
    pub defs: &'a HashMap<Name, Exp>,
    /// The type of every variable.
    pub types: &'a HashMap<Name, Type>,
    /// Variables never negative (the definition's size parameters).
    pub nonneg: &'a std::collections::HashSet<Name>,
}

impl Ctx<'_> {
    pub fn def(&self, a: &Atom) -> Option<&Exp> {
        match a {
            Atom::Var(v) => self.defs.get(v),
            _ => None,
        }
    }
    pub fn ty(&self, a: &Atom) -> Type {
        atom_type(a, self.types)
    }
}

/// A replacement for a statement's expression.
pub enum Rewrite {
    Exp(Exp),
    /// Replace the statement by these statements, then bind the variable to the atom.
    Splice(Body),
}

pub type Rule = fn(&Ctx, &Stmt) -> Option<Rewrite>;

/// The rules, by name, in the order they are tried.
pub const RULES: &[(&str, Rule)] = &[
    ("fold-constants", fold_constants),
    ("add-zero-int", add_zero_int),
    ("sub-zero", sub_zero),
    ("add-negzero-float", add_negzero_float),
    ("mul-one", mul_one),
    ("mul-zero-int", mul_zero_int),
    ("div-one", div_one),
    ("sub-self-int", sub_self_int),
    ("sub-offsets", sub_offsets),
    ("cmp-self-int", cmp_self_int),
    ("bool-identities", bool_identities),
    ("double-negation", double_negation),
    ("convert-same", convert_same),
    ("proj-tuple", proj_tuple),
    ("index-array-literal", index_array_literal),
    ("length-to-dim", length_to_dim),
    ("dim-from-type", dim_from_type),
    ("dim-of-build", dim_of_build),
    ("dim-of-stride", dim_of_stride),
    ("involution", involution),
    ("dim-through-index", dim_through_index),
    ("max-zero-of-size", max_zero_of_size),
    ("check-proved", check_proved),
    ("if-constant", if_constant),
    ("if-same-branches", if_same_branches),
    ("loop-zero-trips", loop_zero_trips),
    ("while-counter", while_counter),
];

fn exp(e: Exp) -> Option<Rewrite> {
    Some(Rewrite::Exp(e))
}

fn atom(a: Atom) -> Option<Rewrite> {
    exp(Exp::Atom(a))
}

fn const_value(c: Const) -> Value {
    Value::from_const(c)
}

fn value_const(v: Value) -> Option<Const> {
    v.to_const()
}

fn is_int(t: &Type) -> bool {
    t.prim().is_some_and(PrimType::is_int)
}

fn is_const(a: &Atom, f: impl Fn(f64) -> bool) -> bool {
    match a {
        Atom::Const(Const::F64(v)) => f(*v),
        Atom::Const(Const::F32(v)) => f(*v as f64),
        Atom::Const(c) => c.as_int().is_some_and(|v| f(v as f64)),
        _ => false,
    }
}

fn is_negzero(a: &Atom) -> bool {
    match a {
        Atom::Const(Const::F64(v)) => *v == 0.0 && v.is_sign_negative(),
        Atom::Const(Const::F32(v)) => *v == 0.0 && v.is_sign_negative(),
        _ => false,
    }
}

/// Operations on constants, evaluated exactly as the interpreter does. Integer
/// division by zero is left for run time (it is an error there).
fn fold_constants(_: &Ctx, s: &Stmt) -> Option<Rewrite> {
    let sp = s.span;
    let c = |a: &Atom| match a {
        Atom::Const(c) => Some(const_value(*c)),
        _ => None,
    };
    let v = match &s.exp {
        Exp::Bin(op, a, b) => {
            let (x, y) = (c(a)?, c(b)?);
            if matches!(op, BinOp::Div | BinOp::Rem) && y.as_int() == Some(0) {
                return None;
            }
            weir_interp::eval::binop(*op, x, y, sp).ok()?
        }
        Exp::Un(op, a) => weir_interp::eval::unop(*op, c(a)?, sp).ok()?,
        Exp::Convert(p, a) => weir_interp::eval::convert(*p, c(a)?, sp).ok()?,
        Exp::Math(m, xs) => {
            let vs = xs.iter().map(c).collect::<Option<Vec<_>>>()?;
            weir_interp::eval::math(*m, &vs, sp).ok()?
        }
        _ => return None,
    };
    atom(Atom::Const(value_const(v)?))
}

fn add_zero_int(cx: &Ctx, s: &Stmt) -> Option<Rewrite> {
    match &s.exp {
        Exp::Bin(BinOp::Add, a, b) if is_int(&s.ty) && is_const(b, |v| v == 0.0) => atom(a.clone()),
        Exp::Bin(BinOp::Add, a, b) if is_int(&cx.ty(b)) && is_const(a, |v| v == 0.0) => {
            atom(b.clone())
        }
        _ => None,
    }
}

fn sub_zero(_: &Ctx, s: &Stmt) -> Option<Rewrite> {
    match &s.exp {
        // x - 0 = x, and x - 0.0 = x for every float (x - (-0.0) is not: -0.0 - -0.0 = +0.0)
        Exp::Bin(BinOp::Sub, a, b) if is_const(b, |v| v == 0.0) && !is_negzero(b) => {
            atom(a.clone())
        }
        _ => None,
    }
}

fn add_negzero_float(_: &Ctx, s: &Stmt) -> Option<Rewrite> {
    match &s.exp {
        Exp::Bin(BinOp::Add, a, b) if is_negzero(b) => atom(a.clone()),
        Exp::Bin(BinOp::Add, a, b) if is_negzero(a) => atom(b.clone()),
        _ => None,
    }
}

fn mul_one(_: &Ctx, s: &Stmt) -> Option<Rewrite> {
    match &s.exp {
        Exp::Bin(BinOp::Mul, a, b) if is_const(b, |v| v == 1.0) => atom(a.clone()),
        Exp::Bin(BinOp::Mul, a, b) if is_const(a, |v| v == 1.0) => atom(b.clone()),
        _ => None,
    }
}

fn mul_zero_int(_: &Ctx, s: &Stmt) -> Option<Rewrite> {
    match &s.exp {
        Exp::Bin(BinOp::Mul, a, b)
            if is_int(&s.ty) && (is_const(a, |v| v == 0.0) || is_const(b, |v| v == 0.0)) =>
        {
            atom(Atom::Const(Const::zero(s.ty.prim()?)))
        }
        _ => None,
    }
}

fn div_one(_: &Ctx, s: &Stmt) -> Option<Rewrite> {
    match &s.exp {
        Exp::Bin(BinOp::Div, a, b) if is_const(b, |v| v == 1.0) => atom(a.clone()),
        _ => None,
    }
}

fn sub_self_int(_: &Ctx, s: &Stmt) -> Option<Rewrite> {
    match &s.exp {
        Exp::Bin(BinOp::Sub, a, b) if is_int(&s.ty) && a == b => {
            atom(Atom::Const(Const::zero(s.ty.prim()?)))
        }
        _ => None,
    }
}

/// `(x + c) - (x + d)` is `c - d` for `i64`s (`x + c` standing also for `x -
/// c`, `c + x` and `x` itself): exact in wrapping arithmetic. The length of
/// a window `a[j-1:j+2]`, 3, so its rows have a constant size.
fn sub_offsets(cx: &Ctx, s: &Stmt) -> Option<Rewrite> {
    let Exp::Bin(BinOp::Sub, a, b) = &s.exp else {
        return None;
    };
    if s.ty != Type::I64 || a == b {
        return None;
    }
    let (xa, ca) = offset_of(cx, a)?;
    let (xb, cb) = offset_of(cx, b)?;
    (xa == xb).then(|| Rewrite::Exp(Exp::Atom(Atom::Const(Const::I64(ca.wrapping_sub(cb))))))
}

/// An `i64` variable as `x + c`: its base variable and constant offset.
fn offset_of<'a>(cx: &'a Ctx, a: &'a Atom) -> Option<(&'a Name, i64)> {
    let Atom::Var(v) = a else { return None };
    Some(match cx.defs.get(v) {
        Some(Exp::Bin(BinOp::Add, Atom::Var(x), Atom::Const(Const::I64(c))))
        | Some(Exp::Bin(BinOp::Add, Atom::Const(Const::I64(c)), Atom::Var(x))) => (x, *c),
        Some(Exp::Bin(BinOp::Sub, Atom::Var(x), Atom::Const(Const::I64(c)))) => {
            (x, c.wrapping_neg())
        }
        _ => (v, 0),
    })
}

/// `x == x` and friends, for integers and booleans (not floats: NaN).
fn cmp_self_int(cx: &Ctx, s: &Stmt) -> Option<Rewrite> {
    match &s.exp {
        Exp::Bin(op, a, b)
            if a == b
                && cx
                    .ty(a)
                    .prim()
                    .is_some_and(|p| p.is_int() || p == PrimType::Bool) =>
        {
            let v = match op {
                BinOp::Eq | BinOp::Le | BinOp::Ge => true,
                BinOp::Ne | BinOp::Lt | BinOp::Gt => false,
                _ => return None,
            };
            atom(Atom::Const(Const::Bool(v)))
        }
        _ => None,
    }
}

fn bool_identities(_: &Ctx, s: &Stmt) -> Option<Rewrite> {
    let t = |a: &Atom| matches!(a, Atom::Const(Const::Bool(true)));
    let f = |a: &Atom| matches!(a, Atom::Const(Const::Bool(false)));
    match &s.exp {
        Exp::Bin(BinOp::And, a, b) if t(b) => atom(a.clone()),
        Exp::Bin(BinOp::And, a, b) if t(a) => atom(b.clone()),
        Exp::Bin(BinOp::And, a, b) if f(a) || f(b) => atom(Atom::Const(Const::Bool(false))),
        Exp::Bin(BinOp::Or, a, b) if f(b) => atom(a.clone()),
        Exp::Bin(BinOp::Or, a, b) if f(a) => atom(b.clone()),
        Exp::Bin(BinOp::Or, a, b) if t(a) || t(b) => atom(Atom::Const(Const::Bool(true))),
        _ => None,
    }
}

fn double_negation(cx: &Ctx, s: &Stmt) -> Option<Rewrite> {
    match &s.exp {
        Exp::Un(op, a) => match cx.def(a)? {
            Exp::Un(op2, b) if op == op2 => atom(b.clone()),
            _ => None,
        },
        _ => None,
    }
}

fn convert_same(cx: &Ctx, s: &Stmt) -> Option<Rewrite> {
    match &s.exp {
        Exp::Convert(p, a) if cx.ty(a) == Type::Prim(*p) => atom(a.clone()),
        _ => None,
    }
}

fn proj_tuple(cx: &Ctx, s: &Stmt) -> Option<Rewrite> {
    match &s.exp {
        Exp::Proj(a, k) => match cx.def(a)? {
            Exp::Tuple(xs) => atom(xs.get(*k)?.clone()),
            _ => None,
        },
        _ => None,
    }
}

fn index_array_literal(cx: &Ctx, s: &Stmt) -> Option<Rewrite> {
    match &s.exp {
        Exp::Index(a, Atom::Const(Const::I64(k))) => match cx.def(a)? {
            Exp::ArrayLit(xs) if *k >= 0 => atom(xs.get(*k as usize)?.clone()),
            _ => None,
        },
        _ => None,
    }
}

fn length_to_dim(_: &Ctx, s: &Stmt) -> Option<Rewrite> {
    match &s.exp {
        Exp::Prim(Prim::Length { a }) => exp(Exp::Dim(a.clone(), 0)),
        _ => None,
    }
}

/// The type says the size: `dim a k` where `a: [..][n]..` is `n`; for the
/// row count of a `transpose`, `max n 0` where `n` may be negative: a size
/// of the rows of an array with none, never evaluated (`map (\_ -> replicate
/// k 0) []` with `k < 0`), which `dim` gives as 0 (docs/language.md, "Empty
/// arrays have shapes"); for a `build` whose count is not that size (the
/// lowered form of such a `transpose`, or a `map` over one), its count.
fn dim_from_type(cx: &Ctx, s: &Stmt) -> Option<Rewrite> {
    let Exp::Dim(a, k) = &s.exp else {
        return None;
    };
    let n = size_atom(size_at(&cx.ty(a), *k)?)?;
    let transposed = *k == 0 && matches!(cx.def(a), Some(Exp::Prim(Prim::Transpose { .. })));
    let never_negative = match &n {
        Atom::Const(c) => c.as_int().is_some_and(|c| c >= 0),
        Atom::Var(v) => never_negative(cx, v),
    };
    if never_negative {
        return atom(n);
    }
    // a `build` whose count is not the size its type names (a `transpose`
    // or a `map` of one, lowered: `max n 0` rows): its count
    if *k == 0
        && let Some(Exp::Prim(Prim::Build { n: count, .. })) = cx.def(a)
        && *count != n
    {
        return atom(count.clone());
    }
    if !transposed {
        return atom(n);
    }
    if let Atom::Const(_) = n {
        return atom(Atom::Const(Const::I64(0)));
    }
    exp(Exp::Math(MathFn::Max, vec![n, Atom::Const(Const::I64(0))]))
}

/// `dim (build n f) 0` is `n`; `dim (build n f) k` is the count of the
/// `build` that makes `f`'s result (k levels down) where that count does not
/// depend on the lambda (the rows of `a[s:e, j]`'s column block, say: the
/// block is then read only by the loop that uses it, or not at all).
/// A size parameter, or a `dim`/`length`.
fn never_negative(cx: &Ctx, v: &str) -> bool {
    cx.nonneg.contains(v)
        || matches!(
            cx.defs.get(v),
            Some(Exp::Dim(..) | Exp::Prim(Prim::Length { .. }))
        )
}

fn dim_of_build(cx: &Ctx, s: &Stmt) -> Option<Rewrite> {
    match &s.exp {
        Exp::Dim(a, 0) => match cx.def(a)? {
            Exp::Prim(Prim::Build { n, .. }) => atom(n.clone()),
            Exp::ArrayLit(xs) => atom(Atom::Const(Const::I64(xs.len() as i64))),
            _ => None,
        },
        Exp::Dim(a, k) => match cx.def(a)? {
            Exp::Prim(Prim::Build {
                f: Fun::Lambda(l), ..
            }) => {
                if *k == 1
                    && let Some(r) = rows_of_slices(s, l)
                {
                    return Some(r);
                }
                let m = rows_count(&l.body, k - 1)?;
                if let Atom::Var(v) = &m
                    && (l.params.iter().any(|(p, _)| p == v) || binds(&l.body, v))
                {
                    return None;
                }
                // (where `n` is 0 the rows were never evaluated: a negative
                // count is 0 then, and otherwise the build failed before)
                match &m {
                    Atom::Var(v) if !never_negative(cx, v) => {
                        exp(Exp::Math(MathFn::Max, vec![m, Atom::Const(Const::I64(0))]))
                    }
                    Atom::Const(c) if c.as_int().is_none_or(|c| c < 0) => {
                        atom(Atom::Const(Const::I64(0)))
                    }
                    _ => atom(m),
                }
            }
            _ => None,
        },
        _ => None,
    }
}

/// `dim (build n (\i -> … x[lo:hi])) 1`, rows that are slices with bounds
/// from outside the build: `max (hi - lo) 0` (the slice check failed in the
/// first row where it is negative; where `n` is 0 no row was evaluated and a
/// negative length counts as 0, docs/language.md "Empty arrays have
/// shapes"). The block `a[1:n-1, 1:n-1]` is such a build, kept otherwise
/// for its row length only.
fn rows_of_slices(s: &Stmt, l: &Lambda) -> Option<Rewrite> {
    let Atom::Var(r) = &l.body.result else {
        return None;
    };
    let (lo, hi) = match def_in(&l.body, r)? {
        Exp::Slice(_, lo, hi) => (lo, hi),
        // a row built over a slice's length (`map f x[lo:hi]`)
        Exp::Prim(Prim::Build {
            n: Atom::Var(m), ..
        }) => match def_in(&l.body, m)? {
            Exp::Dim(Atom::Var(t), 0) => match def_in(&l.body, t)? {
                Exp::Slice(_, lo, hi) => (lo, hi),
                _ => return None,
            },
            _ => return None,
        },
        _ => return None,
    };
    let outside = |a: &Atom| match a {
        Atom::Var(v) => !l.params.iter().any(|(p, _)| p == v) && !binds(&l.body, v),
        Atom::Const(_) => true,
    };
    if !outside(lo) || !outside(hi) {
        return None;
    }
    let name = |x: &str| format!("{}_{x}", s.var);
    let st = |x: &str, e: Exp| size_stmt(s, x, e);
    Some(Rewrite::Splice(Body {
        stmts: vec![
            st("sl", Exp::Bin(BinOp::Sub, hi.clone(), lo.clone())),
            st(
                "sm",
                Exp::Math(
                    MathFn::Max,
                    vec![Atom::Var(name("sl")), Atom::Const(Const::I64(0))],
                ),
            ),
        ],
        result: Atom::Var(name("sm")),
    }))
}

/// The count of the `build` (or the length of the array literal) that makes
/// dim `k` of `b`'s result, where the body says it.
fn rows_count(b: &Body, k: usize) -> Option<Atom> {
    let Atom::Var(r) = &b.result else {
        return None;
    };
    match &def_in(b, r)? {
        Exp::Prim(Prim::Build { n, .. }) if k == 0 => Some(n.clone()),
        Exp::ArrayLit(xs) if k == 0 => Some(Atom::Const(Const::I64(xs.len() as i64))),
        Exp::Prim(Prim::Build {
            f: Fun::Lambda(l), ..
        }) => rows_count(&l.body, k - 1).filter(|m| match m {
            Atom::Var(v) => !l.params.iter().any(|(p, _)| p == v) && !binds(&l.body, v),
            Atom::Const(_) => true,
        }),
        _ => None,
    }
}

/// Does a statement of `b` (or of a body nested in it) bind `v`?
fn binds(b: &Body, v: &str) -> bool {
    b.stmts.iter().any(|st| {
        if st.var == v {
            return true;
        }
        let mut found = false;
        weir_ir::visit::for_each_nested_body_ref(&st.exp, &mut |inner| {
            found |= binds(inner, v);
        });
        found
    })
}

/// `dim (stride k b) 0` is `n / k + min (n % k) 1` with `n = dim b 0` (the
/// stride checked `k >= 1` before), and `dim (stride k b) j` is `dim b j`: so
/// a loop over a stride's elements does not keep the stride, and the array
/// it reads can fuse into the loop (`index-stride`).
/// `transpose (transpose a)` and `reverse (reverse a)` are `a` (the same
/// elements and dims, empty arrays' inner dims included): no view of a view,
/// and a plain copy where the result is copied.
fn involution(cx: &Ctx, s: &Stmt) -> Option<Rewrite> {
    match &s.exp {
        Exp::Prim(Prim::Transpose { a }) => match cx.def(a)? {
            Exp::Prim(Prim::Transpose { a }) => atom(a.clone()),
            _ => None,
        },
        Exp::Prim(Prim::Reverse { a }) => match cx.def(a)? {
            Exp::Prim(Prim::Reverse { a }) => atom(a.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// An `i64` statement a rule splices in front of `s`, named after it
/// (`{s}_{suffix}`).
fn size_stmt(s: &Stmt, suffix: &str, e: Exp) -> Stmt {
    Stmt {
        var: format!("{}_{suffix}", s.var),
        ty: Type::I64,
        exp: e,
        span: s.span,
    }
}

fn dim_of_stride(cx: &Ctx, s: &Stmt) -> Option<Rewrite> {
    let Exp::Dim(a, j) = &s.exp else {
        return None;
    };
    let Exp::Prim(Prim::Stride { k, a: b }) = cx.def(a)? else {
        return None;
    };
    if *j > 0 {
        return exp(Exp::Dim(b.clone(), *j));
    }
    let name = |x: &str| format!("{}_{x}", s.var);
    let v = |x: &str| Atom::Var(name(x));
    let st = |x: &str, e: Exp| size_stmt(s, x, e);
    Some(Rewrite::Splice(Body {
        stmts: vec![
            st("sn", Exp::Dim(b.clone(), 0)),
            st("sq", Exp::Bin(BinOp::Div, v("sn"), k.clone())),
            st("sr", Exp::Bin(BinOp::Rem, v("sn"), k.clone())),
            st(
                "sm",
                Exp::Math(MathFn::Min, vec![v("sr"), Atom::Const(Const::I64(1))]),
            ),
            st("sw", Exp::Bin(BinOp::Add, v("sq"), v("sm"))),
        ],
        result: v("sw"),
    }))
}

/// `dim (a[i]) k` is `dim a (k + 1)` (arrays are regular).
fn dim_through_index(cx: &Ctx, s: &Stmt) -> Option<Rewrite> {
    match &s.exp {
        Exp::Dim(v, k) => match cx.def(v)? {
            Exp::Index(a, _) => exp(Exp::Dim(a.clone(), k + 1)),
            _ => None,
        },
        _ => None,
    }
}

/// `max n 0` is `n` where `n` is never negative (a size parameter, a
/// `dim`, a constant): the row count `lower` gives `transpose y` inside a
/// function whose size parameter `m` names `y`'s columns.
fn max_zero_of_size(cx: &Ctx, s: &Stmt) -> Option<Rewrite> {
    let Exp::Math(MathFn::Max, xs) = &s.exp else {
        return None;
    };
    let x = match xs.as_slice() {
        [x, Atom::Const(Const::I64(0))] | [Atom::Const(Const::I64(0)), x] => x,
        _ => return None,
    };
    let nonneg = match x {
        Atom::Const(Const::I64(c)) => *c >= 0,
        Atom::Const(_) => false,
        Atom::Var(v) => never_negative(cx, v),
    };
    nonneg.then(|| Rewrite::Exp(Exp::Atom(x.clone())))
}

fn check_proved(_: &Ctx, s: &Stmt) -> Option<Rewrite> {
    match &s.exp {
        Exp::CheckSize(c) if c.got == c.want => atom(c.got.clone()),
        Exp::Check(c) => {
            // a check of constants that passes (one that fails stays, for run time)
            let vals = c
                .args
                .iter()
                .map(|a| match a {
                    // (a u64 beyond i64's range is nonzero either way)
                    Atom::Const(c) => c.as_int().map(|v| v as i64),
                    _ => None,
                })
                .collect::<Option<Vec<i64>>>()?;
            c.run(&vals).ok()?;
            atom(c.args.first()?.clone())
        }
        _ => None,
    }
}

fn if_constant(_: &Ctx, s: &Stmt) -> Option<Rewrite> {
    match &s.exp {
        Exp::If(Atom::Const(Const::Bool(c)), t, f) => {
            Some(Rewrite::Splice(if *c { t.clone() } else { f.clone() }))
        }
        _ => None,
    }
}

/// `if c then x else x` is `x` (constants compared by their bits: the branches
/// of `if c then -0.0 else 0.0` differ).
fn if_same_branches(_: &Ctx, s: &Stmt) -> Option<Rewrite> {
    let same = |a: &Atom, b: &Atom| match (a, b) {
        (Atom::Const(Const::F64(x)), Atom::Const(Const::F64(y))) => x.to_bits() == y.to_bits(),
        (Atom::Const(Const::F32(x)), Atom::Const(Const::F32(y))) => x.to_bits() == y.to_bits(),
        _ => a == b,
    };
    match &s.exp {
        Exp::If(_, t, f)
            if t.stmts.is_empty() && f.stmts.is_empty() && same(&t.result, &f.result) =>
        {
            atom(t.result.clone())
        }
        _ => None,
    }
}

fn loop_zero_trips(_: &Ctx, s: &Stmt) -> Option<Rewrite> {
    let zero = |a: &Atom| matches!(a, Atom::Const(Const::I64(k)) if *k <= 0);
    match &s.exp {
        Exp::Prim(Prim::IFold { init, n, .. }) if zero(n) => atom(init.clone()),
        Exp::Prim(Prim::IReduce { ne, n, .. }) if zero(n) => atom(ne.clone()),
        Exp::Prim(Prim::IReduceByIndex { dest, m, .. }) if zero(m) => atom(dest.clone()),
        Exp::Loop {
            init,
            form: LoopForm::For(_, n),
            ..
        } if zero(n) => atom(init.clone()),
        _ => None,
    }
}

/// A counting `while` loop is a `for` loop: `loop (.., w, ..) = (.., w0, ..)
/// while w < e do (.., w + 1, ..)`, with `w0` a constant `>= 0` and `e`
/// bound outside the loop, runs `max(e, w0) - w0` times (never overflows):
/// the counter goes up by one from `w0` and the loop stops when it reaches
/// `e`. The condition is only that comparison (it cannot fail), so not
/// evaluating it changes nothing. As a `for` loop its array state can be
/// sliced (size-slicing §3: the lengths of a state that grows are known
/// before it runs, so an entry may return it).
fn while_counter(cx: &Ctx, s: &Stmt) -> Option<Rewrite> {
    let Exp::Loop {
        state,
        init,
        form: LoopForm::While(c),
        body,
    } = &s.exp
    else {
        return None;
    };
    let Atom::Var(cv) = &c.result else {
        return None;
    };
    let (w, e) = match def_in(c, cv)? {
        Exp::Bin(BinOp::Lt, Atom::Var(w), e) | Exp::Bin(BinOp::Gt, e, Atom::Var(w)) => (w, e),
        _ => return None,
    };
    if let Atom::Var(ev) = e
        && (def_in(c, ev).is_some() || *ev == state.0)
    {
        return None;
    }
    // the counter: the state itself, or component k of it
    let comp = if *w == state.0 {
        None
    } else {
        match def_in(c, w)? {
            Exp::Proj(Atom::Var(st), k) if *st == state.0 => Some(*k),
            _ => return None,
        }
    };
    if c.stmts.len() != 1 + usize::from(comp.is_some()) {
        return None;
    }
    let counter_ty = match (comp, &state.1) {
        (None, t) => t,
        (Some(k), Type::Tuple(ts)) => ts.get(k)?,
        _ => return None,
    };
    if *counter_ty != Type::I64 {
        return None;
    }
    // the body's next counter is the current one plus 1
    let Atom::Var(rv) = &body.result else {
        return None;
    };
    let next = match comp {
        None => rv.clone(),
        Some(k) => match def_in(body, rv)? {
            Exp::Tuple(xs) => match xs.get(k)? {
                Atom::Var(v) => v.clone(),
                Atom::Const(_) => return None,
            },
            _ => return None,
        },
    };
    let w2 = match def_in(body, &next)? {
        Exp::Bin(BinOp::Add, Atom::Var(w2), Atom::Const(Const::I64(1)))
        | Exp::Bin(BinOp::Add, Atom::Const(Const::I64(1)), Atom::Var(w2)) => w2,
        _ => return None,
    };
    let counts = match comp {
        None => *w2 == state.0,
        Some(k) => matches!(
            def_in(body, w2),
            Some(Exp::Proj(Atom::Var(st), j)) if *st == state.0 && *j == k
        ),
    };
    if !counts {
        return None;
    }
    // the trip count
    let w0 = match comp {
        None => init.clone(),
        Some(k) => match cx.def(init) {
            Some(Exp::Tuple(xs)) => xs.get(k)?.clone(),
            _ => return None,
        },
    };
    if !matches!(w0, Atom::Const(Const::I64(c)) if c >= 0) {
        return None;
    }
    let v = &s.var;
    let span = s.span;
    let let_ = |var: String, ty: Type, exp: Exp| Stmt { var, ty, exp, span };
    let (m, n) = (format!("{v}_wm"), format!("{v}_wn"));
    let stmts_head = vec![
        let_(
            m.clone(),
            Type::I64,
            Exp::Math(MathFn::Max, vec![e.clone(), w0.clone()]),
        ),
        let_(
            n.clone(),
            Type::I64,
            Exp::Bin(BinOp::Sub, Atom::Var(m), w0.clone()),
        ),
    ];
    let mut stmts = stmts_head;
    let l = format!("{v}_wl");
    let wi = format!("{v}_wi");
    // (the counter read in the body is the index plus `w0`: sizes that use
    // it, `build w ...`, are then known from the index, as a slice needs)
    let mut body = body.clone();
    if comp.is_some() {
        for st in &mut body.stmts {
            if st.var == *w2 {
                st.exp = Exp::Bin(BinOp::Add, Atom::Var(wi.clone()), w0.clone());
            }
        }
    }
    stmts.push(let_(
        l.clone(),
        s.ty.clone(),
        Exp::Loop {
            state: state.clone(),
            init: init.clone(),
            form: LoopForm::For(wi, Atom::Var(n)),
            body,
        },
    ));
    Some(Rewrite::Splice(Body {
        stmts,
        result: Atom::Var(l),
    }))
}

/// The expression bound to `v` at the top level of `b`.
fn def_in<'b>(b: &'b Body, v: &Name) -> Option<&'b Exp> {
    b.stmts.iter().find(|x| &x.var == v).map(|x| &x.exp)
}
