//! Inlining and specialisation of higher-order functions.
//!
//! Policy (applied to each call, callees first — definitions cannot recurse, so
//! every callee has already had its own calls inlined):
//! * a call that passes a function argument is always inlined: this is the
//!   specialisation that makes the program first-order (function parameters meet
//!   their lambdas and `apply` becomes a β-reduction);
//! * a call to a definition of at most [`INLINE_MAX_STMTS`] statements (nested bodies
//!   included) is inlined: small kernels are where fusion across calls pays;
//! * a call to a definition with a single call site in the program is inlined;
//! * a call to a definition of at most [`INLINE_UPDATER_MAX_STMTS`] statements
//!   that updates a parameter in place is inlined (through a call the update
//!   would copy the whole argument first);
//! * anything else stays a call (a first-order function in the output).
//!
//! Size parameters of the callee become `dim` reads of the arguments; every further
//! occurrence of the same size (and the declared result size) becomes an explicit
//! `assert_size`, so inlining keeps every size check the call made.
//! Definitions that are neither entries nor called any more are dropped.

use crate::util::*;
use std::collections::HashMap;
use weir_ir::visit::body_size;
use weir_ir::*;

/// Callees up to this many statements are inlined regardless of their call count.
pub const INLINE_MAX_STMTS: usize = 64;

/// The most statements inlining may add to one definition (nested bodies
/// included). Past it a call that may stay a call stays one; a call that
/// passes a function argument must be specialised, so past it the program
/// is too large ([`TooLarge`]): definitions passing a function down a chain
/// of calls, each calling the next twice, double at each link.
pub const MAX_INLINED_STMTS: usize = 50_000;

/// Statements inlining may add to the whole program (every definition
/// together): a chain of definitions each calling the one before inlines
/// the whole chain into each of them (quadratic in its length: 2,000
/// definitions made 2 GB); past it calls stay calls, as past
/// [`MAX_INLINED_STMTS`].
pub const MAX_INLINED_TOTAL: usize = 4 * MAX_INLINED_STMTS;

/// Inlining would make a definition larger than [`MAX_INLINED_STMTS`].
#[derive(Clone, Debug)]
pub struct TooLarge {
    /// The call that would pass the limit.
    pub span: Span,
    /// The definition called there.
    pub callee: Name,
    /// The definition the call is in.
    pub caller: Name,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{TOO_LARGE}: specialising `{}` to its function arguments in `{}` makes more than {MAX_INLINED_STMTS} statements",
            display_name(&self.callee),
            display_name(&self.caller)
        )
    }
}

/// How the message of a [`TooLarge`] starts.
pub const TOO_LARGE: &str = "program too large";

/// What inlining has added to the definition being processed.
struct Budget {
    used: usize,
    /// What inlining added to the definitions before this one.
    before: usize,
    caller: Name,
    error: Option<TooLarge>,
}

/// The pass, as the pipeline table runs it: [`run_limited`], whose error
/// (a program too large) leaves the calls not yet inlined as they are.
pub fn run(prog: &mut Program) -> bool {
    run_limited(prog).unwrap_or(true)
}

/// Inline (see the module's policy), adding at most [`MAX_INLINED_STMTS`]
/// statements to any definition.
pub fn run_limited(prog: &mut Program) -> Result<bool, TooLarge> {
    let mut changed = false;
    let call_sites = count_call_sites(prog);
    let mut done: Vec<FunDef> = Vec::new();
    let mut error = None;
    let mut total = 0;
    for d in std::mem::take(&mut prog.defs) {
        let mut d = d;
        if error.is_none() {
            let mut fresh = Fresh::for_fun(&d);
            let mut budget = Budget {
                used: 0,
                before: total,
                caller: d.name.clone(),
                error: None,
            };
            changed |= inline_body(&mut d.body, &done, &call_sites, &mut fresh, &mut budget);
            total += budget.used;
            error = budget.error;
        }
        done.push(d);
    }
    if let Some(e) = error {
        prog.defs = done;
        return Err(e);
    }
    // drop definitions no longer reachable from an entry
    let used = reachable(&done);
    let before = done.len();
    done.retain(|d| d.entry || used.contains(&d.name));
    changed |= done.len() != before;
    prog.defs = done;
    Ok(changed)
}

fn count_call_sites(prog: &Program) -> HashMap<Name, usize> {
    let mut m = HashMap::new();
    for d in &prog.defs {
        calls_in_body(&d.body, &mut |n| *m.entry(n.to_string()).or_default() += 1);
    }
    m
}

fn calls_in_body(b: &Body, f: &mut dyn FnMut(&str)) {
    for s in &b.stmts {
        calls_in_exp(&s.exp, f);
    }
}

fn calls_in_exp(e: &Exp, f: &mut dyn FnMut(&str)) {
    if let Exp::Call(n, _) = e {
        f(n);
    }
    weir_ir::visit::for_each_nested_body_ref(e, &mut |b| calls_in_body(b, f));
}

fn reachable(defs: &[FunDef]) -> std::collections::HashSet<Name> {
    let mut seen = std::collections::HashSet::new();
    let mut stack: Vec<&str> = defs
        .iter()
        .filter(|d| d.entry)
        .map(|d| d.name.as_str())
        .collect();
    while let Some(n) = stack.pop() {
        if let Some(d) = defs.iter().find(|d| d.name == n) {
            calls_in_body(&d.body, &mut |c| {
                if seen.insert(c.to_string()) {
                    stack.push(defs.iter().find(|d| d.name == c).map_or("", |d| &d.name));
                }
            });
        }
    }
    seen
}

fn should_inline(callee: &FunDef, args: &[Arg], call_sites: &HashMap<Name, usize>) -> bool {
    let size = body_size(&callee.body);
    args.iter().any(|a| matches!(a, Arg::Fun(_)))
        || size <= INLINE_MAX_STMTS
        || call_sites.get(&callee.name).copied().unwrap_or(0) <= 1
        || (size <= INLINE_UPDATER_MAX_STMTS && updates_a_param(callee))
}

/// Callees up to this many statements that update a parameter in place
/// ([`updates_a_param`]) are inlined regardless of their call count.
pub const INLINE_UPDATER_MAX_STMTS: usize = 1_000;

/// Does `f` update one of its array parameters in place (`b with [..] = v`
/// on a `*` parameter: an update builtin or a loop whose state starts as
/// the parameter)? Through a call such an update is made in the call's
/// own destination, after a copy of the whole argument into it (a
/// stencil's time step `let b = step a b` in a loop copies its state every
/// step); inlined, it is made in the caller's storage, in place.
fn updates_a_param(f: &FunDef) -> bool {
    let is_param = |a: &Atom| matches!(a, Atom::Var(v) if f.params.iter().any(|(p, _)| p == v));
    f.body.stmts.iter().any(|st| match &st.exp {
        Exp::Prim(p) => p.builtin().is_update() && p.atoms().first().is_some_and(|a| is_param(a)),
        Exp::Loop { init, .. } => is_param(init),
        _ => false,
    })
}

/// Inline calls in a body (recursively into nested bodies). Returns whether anything changed.
fn inline_body(
    b: &mut Body,
    done: &[FunDef],
    call_sites: &HashMap<Name, usize>,
    fresh: &mut Fresh,
    budget: &mut Budget,
) -> bool {
    let mut changed = false;
    let mut out = Vec::with_capacity(b.stmts.len());
    for mut st in std::mem::take(&mut b.stmts) {
        if budget.error.is_none() {
            changed |= inline_nested(&mut st.exp, done, call_sites, fresh, budget);
        }
        if budget.error.is_none()
            && let Exp::Call(f, args) = &st.exp
            && let Some(callee) = done.iter().find(|d| &d.name == f)
            && should_inline(callee, args, call_sites)
        {
            let specialise = args.iter().any(|a| matches!(a, Arg::Fun(_)));
            if budget.used > MAX_INLINED_STMTS || budget.before + budget.used > MAX_INLINED_TOTAL {
                if specialise {
                    budget.error = Some(TooLarge {
                        span: st.span,
                        callee: callee.name.clone(),
                        caller: budget.caller.clone(),
                    });
                }
                out.push(st);
                continue;
            }
            let args = args.clone();
            let callee = callee.clone();
            let start = out.len();
            expand_call(&callee, &args, st, fresh, &mut out);
            budget.used += out[start..]
                .iter()
                .map(|s| 1 + weir_ir::visit::exp_size(&s.exp))
                .sum::<usize>();
            changed = true;
            continue;
        }
        out.push(st);
    }
    b.stmts = out;
    changed
}

fn inline_nested(
    e: &mut Exp,
    done: &[FunDef],
    call_sites: &HashMap<Name, usize>,
    fresh: &mut Fresh,
    budget: &mut Budget,
) -> bool {
    let mut changed = false;
    weir_ir::visit::for_each_nested_body(e, &mut |b| {
        changed |= inline_body(b, done, call_sites, fresh, budget);
    });
    changed
}

/// Replace `st = call callee args` by the callee's body.
fn expand_call(callee: &FunDef, args: &[Arg], st: Stmt, fresh: &mut Fresh, out: &mut Vec<Stmt>) {
    let span = st.span;
    // fresh names for the callee's parameters and size parameters
    let mut map: HashMap<Name, Atom> = HashMap::new();
    let mut funs: HashMap<Name, Fun> = HashMap::new();
    let mut sizes: HashMap<Name, Name> = HashMap::new();
    for s in &callee.size_params {
        let n = fresh.name(s);
        sizes.insert(s.clone(), n.clone());
        map.insert(s.clone(), Atom::Var(n));
    }
    // bind size parameters from the arguments' shapes; check repeated occurrences
    let mut bound: std::collections::HashSet<Name> = std::collections::HashSet::new();
    let mut checks: Vec<Stmt> = Vec::new();
    for ((pname, pty), arg) in callee.params.iter().zip(args) {
        let Arg::Atom(a) = arg else { continue };
        let mut dims = Vec::new();
        let mut t = pty;
        while let Type::Array(s, e) = t {
            dims.push(s.clone());
            t = e;
        }
        for (k, s) in dims.iter().enumerate() {
            let want = match s {
                Size::Var(v) if sizes.contains_key(v) => {
                    let n = sizes[v].clone();
                    if bound.insert(v.clone()) {
                        out.push(stmt(n, Type::I64, Exp::Dim(a.clone(), k), span));
                        continue;
                    }
                    Atom::Var(n)
                }
                Size::Const(c) => Atom::Const(Const::I64(*c)),
                _ => continue,
            };
            let got = fresh.name("d");
            out.push(stmt(got.clone(), Type::I64, Exp::Dim(a.clone(), k), span));
            let size_name = match s {
                Size::Var(v) => v.clone(),
                Size::Const(c) => c.to_string(),
                _ => String::new(),
            };
            checks.push(stmt(
                fresh.name("chk"),
                Type::I64,
                Exp::CheckSize(Box::new(SizeCheck {
                    got: Atom::Var(got),
                    want,
                    callee: callee.name.clone(),
                    param: pname.clone(),
                    size: size_name,
                })),
                span,
            ));
        }
    }
    for s in &callee.size_params {
        if !bound.contains(s) {
            out.push(stmt(
                sizes[s].clone(),
                Type::I64,
                Exp::Atom(Atom::Const(Const::I64(0))),
                span,
            ));
        }
    }
    out.append(&mut checks);
    // value parameters: bind to the arguments; function parameters: remember the lambda
    for ((pname, pty), arg) in callee.params.iter().zip(args) {
        match arg {
            Arg::Atom(a) => {
                let n = fresh.name(pname);
                let mut t = pty.clone();
                subst_type(&mut t, &map);
                out.push(stmt(n.clone(), t, Exp::Atom(a.clone()), span));
                map.insert(pname.clone(), Atom::Var(n));
            }
            Arg::Fun(f) => {
                funs.insert(pname.clone(), f.clone());
            }
        }
    }
    let mut body = callee.body.clone();
    freshen_body(&mut body, fresh, &map);
    // β-reduce applications of function parameters
    let mut body = specialise(body, &funs, fresh);
    let res = body.result.clone();
    out.append(&mut body.stmts);
    // the declared result sizes are checked as the call did
    let mut ret = callee.ret.clone();
    subst_type(&mut ret, &map);
    if let Atom::Var(_) = res {
        let mut k = 0;
        let mut t = &ret;
        while let Type::Array(s, e) = t {
            if let Some(want) = size_atom(s) {
                let got = fresh.name("d");
                out.push(stmt(got.clone(), Type::I64, Exp::Dim(res.clone(), k), span));
                out.push(stmt(
                    fresh.name("chk"),
                    Type::I64,
                    Exp::CheckSize(Box::new(SizeCheck {
                        got: Atom::Var(got),
                        want,
                        callee: callee.name.clone(),
                        param: "result".into(),
                        size: match s {
                            Size::Var(v) => display_name(v).to_string(),
                            Size::Const(c) => c.to_string(),
                            _ => String::new(),
                        },
                    })),
                    span,
                ));
            }
            k += 1;
            t = e;
        }
    }
    out.push(Stmt {
        exp: Exp::Atom(res),
        ..st
    });
}

/// Replace `apply f xs` (f a function parameter bound in `funs`) by the lambda's
/// body, and `Fun::Var(f)` arguments by the lambda itself (fresh copies each time).
pub fn specialise(b: Body, funs: &HashMap<Name, Fun>, fresh: &mut Fresh) -> Body {
    if funs.is_empty() {
        return b;
    }
    let mut out = Vec::with_capacity(b.stmts.len());
    for mut st in b.stmts {
        specialise_nested(&mut st.exp, funs, fresh);
        if let Exp::Apply(f, xs) = &st.exp
            && let Some(fun) = funs.get(f)
        {
            match fun {
                Fun::Lambda(l) => {
                    let mut l = l.clone();
                    freshen_lambda(&mut l, fresh);
                    for ((p, t), x) in l.params.iter().zip(xs) {
                        out.push(stmt(p.clone(), t.clone(), Exp::Atom(x.clone()), st.span));
                    }
                    out.append(&mut l.body.stmts);
                    out.push(Stmt {
                        exp: Exp::Atom(l.body.result),
                        ..st
                    });
                }
                Fun::Var(g) => {
                    out.push(Stmt {
                        exp: Exp::Apply(g.clone(), xs.clone()),
                        ..st
                    });
                }
            }
            continue;
        }
        out.push(st);
    }
    Body {
        stmts: out,
        result: b.result,
    }
}

fn specialise_nested(e: &mut Exp, funs: &HashMap<Name, Fun>, fresh: &mut Fresh) {
    // first the callee's own nested bodies (not the caller's lambdas substituted below)
    weir_ir::visit::for_each_nested_body(e, &mut |b| {
        *b = specialise(std::mem::replace(b, empty_body()), funs, fresh);
    });
    // a function parameter passed on becomes the (fresh copy of the) lambda itself
    let fun_args: Vec<&mut Fun> = match e {
        Exp::Call(_, args) => args
            .iter_mut()
            .filter_map(|a| match a {
                Arg::Fun(f) => Some(f),
                Arg::Atom(_) => None,
            })
            .collect(),
        Exp::Prim(p) => p
            .args_mut()
            .into_iter()
            .filter_map(|a| match a {
                ArgMut::Fun(f) => Some(f),
                ArgMut::Atom(_) => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    for a in fun_args {
        if let Fun::Var(v) = a
            && let Some(f) = funs.get(v)
        {
            let mut f = f.clone();
            if let Fun::Lambda(l) = &mut f {
                freshen_lambda(l, fresh);
            }
            *a = f;
        }
    }
}
