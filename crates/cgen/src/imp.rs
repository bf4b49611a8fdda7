//! The imperative IR: what the C backend prints. Scalars and pointers, loops,
//! loads and stores at flat offsets, explicit checks, region push/pop and
//! system allocation, copies and calls. Arrays are gone: an array variable
//! `x` of rank r became a pointer `x` and dims `x_d0 … x_d{r-1}` (row-major).

pub use weir_ir::{BinOp, Const, Name, PrimType};

/// C types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CTy {
    Prim(PrimType),
    /// A pointer to elements (`const` when read-only).
    Ptr(PrimType, bool),
    /// A region mark.
    Mark,
}

/// Expressions (pure except for calls of the checked helpers, which may fail).
#[derive(Clone, Debug, PartialEq)]
pub enum Exp {
    Var(Name),
    Const(Const),
    /// An infix C operator on two operands (`+`, `<`, `&&`, …).
    Op(&'static str, Box<Exp>, Box<Exp>),
    /// A prefix C operator (`-`, `!`).
    Pre(&'static str, Box<Exp>),
    /// A cast.
    Cast(PrimType, Box<Exp>),
    /// A call of a runtime helper or libm function.
    Call(String, Vec<Exp>),
    /// `ptr[offset]`
    Load(Name, Box<Exp>),
    /// `ptr + offset`
    Offset(Name, Box<Exp>),
    /// `a < b ? a : b` style selection: (cond, then, else).
    Select(Box<Exp>, Box<Exp>, Box<Exp>),
    /// A source location (index into [`Unit::locs`]) for error messages.
    Loc(usize),
    /// A `const int64_t` array literal (for the runtime's size helpers).
    Dims(Vec<Exp>),
    /// The null pointer (storage not allocated yet).
    Null,
    /// `sizeof` an element type, in bytes.
    SizeOf(PrimType),
}

impl Exp {
    pub fn var(n: &str) -> Exp {
        Exp::Var(n.to_string())
    }
    pub fn i64(c: i64) -> Exp {
        Exp::Const(Const::I64(c))
    }
    /// `a o b`; `+`, `-` and `*` of two `i64` constants folded, wrapping
    /// (C rejects a constant expression that overflows under `-Werror`; such
    /// a size, of a slice `a[-9223372036854775808:1]` say, is used only after
    /// the check that fails on it).
    pub fn op(o: &'static str, a: Exp, b: Exp) -> Exp {
        if let (Exp::Const(Const::I64(x)), Exp::Const(Const::I64(y))) = (&a, &b) {
            let folded = match o {
                "+" => Some(x.wrapping_add(*y)),
                "-" => Some(x.wrapping_sub(*y)),
                "*" => Some(x.wrapping_mul(*y)),
                _ => None,
            };
            if let Some(v) = folded {
                return Exp::i64(v);
            }
        }
        Exp::Op(o, Box::new(a), Box::new(b))
    }
}

/// C expressions as the arithmetic of index functions: the backend computes
/// its views' pointers, dims and strides with the same algebra as the memory
/// analysis ([`weir_dps::mem::Lmad`]). `0 + x` and `x + 0` are `x`.
impl weir_dps::mem::IxArith for Exp {
    fn lit(c: i64) -> Exp {
        Exp::i64(c)
    }
    fn add(a: Exp, b: Exp) -> Exp {
        match (a, b) {
            (Exp::Const(Const::I64(0)), x) | (x, Exp::Const(Const::I64(0))) => x,
            (a, b) => Exp::op("+", a, b),
        }
    }
    fn sub(a: Exp, b: Exp) -> Exp {
        Exp::op("-", a, b)
    }
    fn mul(a: Exp, b: Exp) -> Exp {
        Exp::op("*", a, b)
    }
    fn neg(a: Exp) -> Exp {
        Exp::Pre("-", Box::new(a))
    }
    fn max0(a: Exp) -> Exp {
        Exp::Select(
            Box::new(Exp::op(">", a.clone(), Exp::i64(0))),
            Box::new(a),
            Box::new(Exp::i64(0)),
        )
    }
    /// `n / k + (n % k != 0)`: no overflow for any `k >= 1`.
    fn ceil_div(n: Exp, k: Exp) -> Exp {
        Exp::op(
            "+",
            Exp::op("/", n.clone(), k.clone()),
            Exp::op("!=", Exp::op("%", n, k), Exp::i64(0)),
        )
    }
}

/// How a buffer is allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocKind {
    /// Bump allocation in the context's region (freed by a region reset).
    Region,
    /// A system allocation (freed by [`Stmt::Free`] unless leaking).
    Sys,
    /// A C local array of the constant element count (never fails;
    /// [`crate::stack`]).
    Stack,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// Declare a variable, optionally initialised.
    Decl(Name, CTy, Option<Exp>),
    Set(Name, Exp),
    /// `ptr[offset] = value`
    Store(Name, Exp, Exp),
    /// `for (int64_t i = 0; i < n; i++)`; `simd` asks for a vectorised
    /// reduction of the accumulator with the operator (`+` or `*`).
    For {
        i: Name,
        n: Exp,
        body: Vec<Stmt>,
        simd: Option<(&'static str, Name)>,
    },
    /// `for (;;) { body }` (left by `Break`).
    Forever(Vec<Stmt>),
    Break,
    If(Exp, Vec<Stmt>, Vec<Stmt>),
    /// A nested C block (scope).
    Block(Vec<Stmt>),
    /// Region push: remember the bump pointer in a mark.
    RegionPush(Name),
    /// Region pop: everything allocated since the mark is released.
    RegionPop(Name),
    /// Declare `var`, the element count of an array of `dims` (`weir_count`):
    /// 0 when a dim is 0 or negative or a `when` count is not positive, else
    /// the product; an array too large for memory fails at `loc`, or, when
    /// `lazy`, makes the count -1 and fails later at its [`Stmt::NeedCount`].
    Count {
        var: Name,
        dims: Vec<Exp>,
        when: Vec<Exp>,
        elem: PrimType,
        loc: usize,
        lazy: bool,
    },
    /// Out of memory at `loc` if the lazy count `var` of an array of `dims` is
    /// -1: placed before the first statement that uses the array, so that the
    /// errors of the statements before it come first, as in the interpreter.
    NeedCount {
        var: Name,
        dims: Vec<Exp>,
        elem: PrimType,
        loc: usize,
    },
    /// `ptr = allocate(elems × sizeof elem)` (the variable is declared here);
    /// out of memory fails at `loc`.
    Alloc {
        ptr: Name,
        elem: PrimType,
        elems: Exp,
        kind: AllocKind,
        loc: usize,
    },
    /// Release a system allocation.
    Free {
        ptr: Name,
        elem: PrimType,
        elems: Exp,
    },
    /// `memcpy(dst, src, elems × sizeof elem)`
    Copy {
        dst: Name,
        src: Name,
        elem: PrimType,
        elems: Exp,
    },
    /// Fail unless `0 <= idx < len`.
    CheckIndex {
        idx: Exp,
        len: Exp,
        loc: usize,
    },
    /// Fail unless `0 <= lo <= hi <= len`.
    CheckSlice {
        lo: Exp,
        hi: Exp,
        len: Exp,
        loc: usize,
    },
    /// Fail with `message` (the two values appended) unless `got == want`.
    CheckEq {
        got: Exp,
        want: Exp,
        message: String,
        loc: usize,
    },
    /// Fail with `message` (a printf format whose `%lld`s take `args`, as
    /// `int64_t`) if `cond` holds.
    FailIf {
        cond: Exp,
        message: String,
        args: Vec<Exp>,
        loc: usize,
    },
    /// A call of a generated function (for its effects).
    Call(String, Vec<Exp>),
    Comment(String),
}

/// Call `on_stmt` on every statement of `stmts` and of the blocks nested in
/// them, and `on_exp` on every expression of those statements and on every
/// subexpression.
pub fn visit(stmts: &[Stmt], on_stmt: &mut dyn FnMut(&Stmt), on_exp: &mut dyn FnMut(&Exp)) {
    fn exp(e: &Exp, f: &mut dyn FnMut(&Exp)) {
        f(e);
        match e {
            Exp::Op(_, a, b) => {
                exp(a, f);
                exp(b, f);
            }
            Exp::Pre(_, a) | Exp::Cast(_, a) | Exp::Load(_, a) | Exp::Offset(_, a) => exp(a, f),
            Exp::Select(a, b, c) => {
                exp(a, f);
                exp(b, f);
                exp(c, f);
            }
            Exp::Call(_, xs) | Exp::Dims(xs) => xs.iter().for_each(|x| exp(x, f)),
            Exp::Var(_) | Exp::Const(_) | Exp::Loc(_) | Exp::Null | Exp::SizeOf(_) => {}
        }
    }
    for s in stmts {
        on_stmt(s);
        let mut es: Vec<&Exp> = Vec::new();
        match s {
            Stmt::Decl(_, _, e) => es.extend(e.iter()),
            Stmt::Set(_, e) => es.push(e),
            Stmt::Store(_, o, v) => es.extend([o, v]),
            Stmt::For { n, body, .. } => {
                es.push(n);
                visit(body, on_stmt, on_exp);
            }
            Stmt::Forever(b) | Stmt::Block(b) => visit(b, on_stmt, on_exp),
            Stmt::If(c, t, e) => {
                es.push(c);
                visit(t, on_stmt, on_exp);
                visit(e, on_stmt, on_exp);
            }
            Stmt::Count { dims, when, .. } => es.extend(dims.iter().chain(when.iter())),
            Stmt::NeedCount { dims, .. } => es.extend(dims.iter()),
            Stmt::Alloc { elems, .. } | Stmt::Free { elems, .. } | Stmt::Copy { elems, .. } => {
                es.push(elems)
            }
            Stmt::CheckIndex { idx, len, .. } => es.extend([idx, len]),
            Stmt::CheckSlice { lo, hi, len, .. } => es.extend([lo, hi, len]),
            Stmt::CheckEq { got, want, .. } => es.extend([got, want]),
            Stmt::FailIf { cond, args, .. } => es.extend(std::iter::once(cond).chain(args.iter())),
            Stmt::Call(_, args) => es.extend(args.iter()),
            Stmt::Break | Stmt::RegionPush(_) | Stmt::RegionPop(_) | Stmt::Comment(_) => {}
        }
        for e in es {
            exp(e, on_exp);
        }
    }
}

/// Can running `stmts` fail (a check, an allocation, a call, a checked helper
/// that takes the context)? A loop that can is never marked for SIMD: its
/// first error must be the one the interpreter reports.
pub fn can_fail(stmts: &[Stmt]) -> bool {
    fn exp(e: &Exp) -> bool {
        match e {
            Exp::Call(_, args) => {
                matches!(args.first(), Some(Exp::Var(v)) if v == "ctx") || args.iter().any(exp)
            }
            Exp::Op(_, a, b) => exp(a) || exp(b),
            Exp::Pre(_, a) | Exp::Cast(_, a) | Exp::Load(_, a) | Exp::Offset(_, a) => exp(a),
            Exp::Select(a, b, c) => exp(a) || exp(b) || exp(c),
            Exp::Dims(xs) => xs.iter().any(exp),
            Exp::Var(_) | Exp::Const(_) | Exp::Loc(_) | Exp::Null | Exp::SizeOf(_) => false,
        }
    }
    stmts.iter().any(|s| match s {
        Stmt::Decl(_, _, e) => e.as_ref().is_some_and(exp),
        Stmt::Set(_, e) => exp(e),
        Stmt::Store(_, o, v) => exp(o) || exp(v),
        Stmt::For { n, body, .. } => exp(n) || can_fail(body),
        Stmt::If(c, t, e) => exp(c) || can_fail(t) || can_fail(e),
        Stmt::Block(b) => can_fail(b),
        Stmt::Comment(_) | Stmt::RegionPush(_) | Stmt::RegionPop(_) | Stmt::Break => false,
        Stmt::Copy { elems, .. } | Stmt::Free { elems, .. } => exp(elems),
        Stmt::Alloc {
            kind: AllocKind::Stack,
            ..
        } => false,
        _ => true,
    })
}

/// A C function.
#[derive(Clone, Debug, PartialEq)]
pub struct Func {
    pub name: String,
    pub params: Vec<(Name, CTy)>,
    pub body: Vec<Stmt>,
    /// The pointer parameters declared `restrict`: destinations that
    /// overlap no other argument at any call ([`crate::alias`]).
    pub restrict: Vec<Name>,
}

/// A whole translation unit.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Unit {
    /// Source locations referenced by `loc` indices (`file:line:col`).
    pub locs: Vec<String>,
    pub funcs: Vec<Func>,
    /// Entry points: (Weir name, C body function, DPS function) for wrappers.
    pub entries: Vec<crate::lower::EntryInfo>,
}

/// The verifier: every variable is declared before use in an enclosing scope,
/// every region pop matches a push in scope, every `loc` exists.
pub fn verify(u: &Unit) -> Result<(), Vec<String>> {
    let mut errs = Vec::new();
    for f in &u.funcs {
        let mut scope: Vec<Vec<Name>> = vec![f.params.iter().map(|(n, _)| n.clone()).collect()];
        verify_stmts(&f.body, &mut scope, u.locs.len(), &f.name, &mut errs);
    }
    if errs.is_empty() { Ok(()) } else { Err(errs) }
}

fn declared(scope: &[Vec<Name>], n: &str) -> bool {
    scope.iter().any(|s| s.iter().any(|x| x == n))
}

fn verify_exp(e: &Exp, scope: &[Vec<Name>], f: &str, errs: &mut Vec<String>) {
    match e {
        Exp::Var(n) | Exp::Load(n, _) | Exp::Offset(n, _) => {
            if !declared(scope, n) {
                errs.push(format!("{f}: `{n}` used before its declaration"));
            }
            if let Exp::Load(_, o) | Exp::Offset(_, o) = e {
                verify_exp(o, scope, f, errs);
            }
        }
        Exp::Const(_) | Exp::Loc(_) | Exp::Null | Exp::SizeOf(_) => {}
        Exp::Op(_, a, b) => {
            verify_exp(a, scope, f, errs);
            verify_exp(b, scope, f, errs);
        }
        Exp::Pre(_, a) | Exp::Cast(_, a) => verify_exp(a, scope, f, errs),
        Exp::Call(_, xs) | Exp::Dims(xs) => xs.iter().for_each(|x| verify_exp(x, scope, f, errs)),
        Exp::Select(a, b, c) => {
            verify_exp(a, scope, f, errs);
            verify_exp(b, scope, f, errs);
            verify_exp(c, scope, f, errs);
        }
    }
}

fn verify_stmts(
    ss: &[Stmt],
    scope: &mut Vec<Vec<Name>>,
    nlocs: usize,
    f: &str,
    errs: &mut Vec<String>,
) {
    scope.push(vec![]);
    for s in ss {
        match s {
            Stmt::Decl(n, _, e) => {
                if let Some(e) = e {
                    verify_exp(e, scope, f, errs);
                }
                if let Some(top) = scope.last_mut() {
                    top.push(n.clone());
                }
            }
            Stmt::Set(n, e) => {
                use_name(n, scope, f, errs);
                verify_exp(e, scope, f, errs);
            }
            Stmt::Store(p, o, v) => {
                use_name(p, scope, f, errs);
                verify_exp(o, scope, f, errs);
                verify_exp(v, scope, f, errs);
            }
            Stmt::For { i, n, body, simd } => {
                verify_exp(n, scope, f, errs);
                if let Some((_, acc)) = simd {
                    use_name(acc, scope, f, errs);
                }
                scope.push(vec![i.clone()]);
                verify_stmts(body, scope, nlocs, f, errs);
                scope.pop();
            }
            Stmt::Forever(b) | Stmt::Block(b) => verify_stmts(b, scope, nlocs, f, errs),
            Stmt::Break | Stmt::Comment(_) => {}
            Stmt::If(c, a, b) => {
                verify_exp(c, scope, f, errs);
                verify_stmts(a, scope, nlocs, f, errs);
                verify_stmts(b, scope, nlocs, f, errs);
            }
            Stmt::RegionPush(m) => {
                if let Some(top) = scope.last_mut() {
                    top.push(m.clone());
                }
            }
            Stmt::RegionPop(m) => use_name(m, scope, f, errs),
            Stmt::Count {
                var,
                dims,
                when,
                loc,
                ..
            } => {
                for e in dims.iter().chain(when) {
                    verify_exp(e, scope, f, errs);
                }
                if *loc >= nlocs {
                    errs.push(format!("{f}: unknown location {loc}"));
                }
                if let Some(top) = scope.last_mut() {
                    top.push(var.clone());
                }
            }
            Stmt::NeedCount { var, dims, loc, .. } => {
                use_name(var, scope, f, errs);
                for e in dims {
                    verify_exp(e, scope, f, errs);
                }
                if *loc >= nlocs {
                    errs.push(format!("{f}: unknown location {loc}"));
                }
            }
            Stmt::FailIf {
                cond, args, loc, ..
            } => {
                verify_exp(cond, scope, f, errs);
                for e in args {
                    verify_exp(e, scope, f, errs);
                }
                if *loc >= nlocs {
                    errs.push(format!("{f}: unknown location {loc}"));
                }
            }
            Stmt::Alloc {
                ptr, elems, loc, ..
            } => {
                verify_exp(elems, scope, f, errs);
                if *loc >= nlocs {
                    errs.push(format!("{f}: unknown location {loc}"));
                }
                if let Some(top) = scope.last_mut() {
                    top.push(ptr.clone());
                }
            }
            Stmt::Free { ptr, elems, .. } => {
                use_name(ptr, scope, f, errs);
                verify_exp(elems, scope, f, errs);
            }
            Stmt::Copy {
                dst, src, elems, ..
            } => {
                use_name(dst, scope, f, errs);
                use_name(src, scope, f, errs);
                verify_exp(elems, scope, f, errs);
            }
            Stmt::CheckIndex { idx, len, loc } => {
                verify_exp(idx, scope, f, errs);
                verify_exp(len, scope, f, errs);
                if *loc >= nlocs {
                    errs.push(format!("{f}: unknown location {loc}"));
                }
            }
            Stmt::CheckSlice { lo, hi, len, loc } => {
                for e in [lo, hi, len] {
                    verify_exp(e, scope, f, errs);
                }
                if *loc >= nlocs {
                    errs.push(format!("{f}: unknown location {loc}"));
                }
            }
            Stmt::CheckEq { got, want, loc, .. } => {
                verify_exp(got, scope, f, errs);
                verify_exp(want, scope, f, errs);
                if *loc >= nlocs {
                    errs.push(format!("{f}: unknown location {loc}"));
                }
            }
            Stmt::Call(_, xs) => xs.iter().for_each(|x| verify_exp(x, scope, f, errs)),
        }
    }
    scope.pop();
}

fn use_name(n: &str, scope: &[Vec<Name>], f: &str, errs: &mut Vec<String>) {
    if !declared(scope, n) {
        errs.push(format!("{f}: `{n}` used before its declaration"));
    }
}
