//! Unswitching of `build`s: a `build` whose body ends in an `if` on a
//! condition computed outside the `build` becomes an `if` of two `build`s,
//! one per branch (issue 15: rows whose length is the branch's):
//!
//! ```text
//! build n (\i -> let .. in if c then A else B)
//!   ==>  if c then build n (\i -> let .. in A) else build n (\i -> let .. in B)
//! ```
//!
//! Every element computes what it computed before, in the same order, so
//! values and errors are unchanged, and an empty `build` probes its body with
//! the same `c`. The rows' length becomes the length of a branch, known before
//! the `build`, where before it was "the length of the branch an `if` takes",
//! known only inside the `build` (the C backend's error E0801 when the
//! branches' lengths differ); the test per element leaves the loop as well.
//!
//! It applies only where it is needed: the `if` returns arrays whose types
//! differ between the branches (a size the branches do not share), and the
//! statements before it, which are copied into both `build`s, are small.

use crate::util::*;
use std::collections::{HashMap, HashSet};
use weir_ir::visit::{MutVisitor, body_size, for_each_nested_body, map_sizes, walk_lambda_mut};
use weir_ir::*;

/// The most statements (by [`body_size`]) copied into the second `build`.
const MAX_COPIED: usize = 48;

pub fn run(prog: &mut Program) -> bool {
    let mut changed = false;
    for d in &mut prog.defs {
        let types = type_env(d);
        let mut fresh = Fresh::for_fun(d);
        changed |= body(&mut d.body, &types, &mut fresh);
    }
    changed
}

fn body(b: &mut Body, types: &HashMap<Name, Type>, fresh: &mut Fresh) -> bool {
    let mut changed = false;
    for st in &mut b.stmts {
        if let Some(e) = unswitch(st, types, fresh) {
            st.exp = e;
            changed = true;
        }
        for_each_nested_body(&mut st.exp, &mut |nb| changed |= body(nb, types, fresh));
    }
    changed
}

/// Names bound inside a lambda (its parameters included).
struct Binders(HashSet<Name>);
impl MutVisitor for Binders {
    fn binder(&mut self, n: &mut Name) {
        self.0.insert(n.clone());
    }
}

fn unswitch(st: &Stmt, types: &HashMap<Name, Type>, fresh: &mut Fresh) -> Option<Exp> {
    let Exp::Prim(Prim::Build {
        n,
        f: Fun::Lambda(l),
    }) = &st.exp
    else {
        return None;
    };
    if l.params.len() != 1 {
        return None;
    }
    // the body ends in `let r = if c then A else B in r`
    let (last, prefix) = l.body.stmts.split_last()?;
    if l.body.result != Atom::Var(last.var.clone()) {
        return None;
    }
    let Exp::If(Atom::Var(c), t, e) = &last.exp else {
        return None;
    };
    let mut inner = Binders(HashSet::new());
    walk_lambda_mut(&mut inner, &mut l.clone());
    for (p, _) in &l.params {
        inner.0.insert(p.clone());
    }
    if inner.0.contains(c) {
        return None;
    }
    // arrays whose sizes may differ between the branches
    let (tt, te) = (atom_type(&t.result, types), atom_type(&e.result, types));
    if !matches!(tt, Type::Array(..)) || (tt == te && !unknown_size(&tt)) {
        return None;
    }
    let copied = Body {
        stmts: prefix.to_vec(),
        result: l.body.result.clone(),
    };
    if body_size(&copied) > MAX_COPIED {
        return None;
    }
    let outer = size_at(&st.ty, 0)?.clone();
    let branch = |b: &Body, ty: &Type, fresh: &mut Fresh, copy: bool| -> Body {
        let mut stmts = prefix.to_vec();
        stmts.extend(b.stmts.iter().cloned());
        let mut lam = Lambda {
            params: l.params.clone(),
            ret: ty.clone(),
            body: Body {
                stmts,
                result: b.result.clone(),
            },
        };
        if copy {
            freshen_lambda(&mut lam, fresh);
        }
        // (a size bound inside the `build`, `iota x` of an element, is not
        // known outside it)
        let mut bound = Binders(HashSet::new());
        walk_lambda_mut(&mut bound, &mut lam.clone());
        for (p, _) in &lam.params {
            bound.0.insert(p.clone());
        }
        map_sizes(&mut lam.ret, &mut |s| {
            if matches!(s, Size::Var(v) if bound.0.contains(v)) {
                *s = Size::Unknown;
            }
        });
        let var = fresh.name(&st.var);
        let bty = Type::array(outer.clone(), lam.ret.clone());
        let exp = Exp::Prim(Prim::Build {
            n: n.clone(),
            f: Fun::Lambda(Box::new(lam)),
        });
        Body {
            stmts: vec![stmt(var.clone(), bty, exp, st.span)],
            result: Atom::Var(var),
        }
    };
    let then_b = branch(t, &tt, fresh, false);
    let else_b = branch(e, &te, fresh, true);
    Some(Exp::If(Atom::Var(c.clone()), then_b, else_b))
}

/// Does `t` have a size not known statically?
fn unknown_size(t: &Type) -> bool {
    match t {
        Type::Array(s, e) => !matches!(s, Size::Const(_) | Size::Var(_)) || unknown_size(e),
        Type::Tuple(ts) => ts.iter().any(unknown_size),
        _ => false,
    }
}
