//! Loop-invariant code motion (dps-views §5.4.2): a statement in the body of a
//! `build`, `ifold`, `ireduce` or `loop` that uses none of the loop's parameters
//! (index, accumulator, state) nor anything computed from them is moved just before
//! the loop, so it runs once instead of once per iteration.
//!
//! A statement that could fail (an index, a division, a check, ...) moves only when
//! the loop is known to run at least once (a constant positive count): otherwise a
//! loop of zero iterations would start reporting an error it never reached.
//! Nothing moves out of `if` branches (that would compute what may not be needed).

use crate::lower::empty_body;
use crate::util::*;
use std::collections::HashSet;
use weir_ir::visit::{MutVisitor, walk_exp_mut};
use weir_ir::*;

pub fn run(prog: &mut Program) -> bool {
    let mut changed = false;
    for d in &mut prog.defs {
        let body = std::mem::replace(&mut d.body, empty_body());
        d.body = body_pass(body, &mut changed);
    }
    changed
}

struct Free {
    uses: HashSet<Name>,
    binders: HashSet<Name>,
}
impl MutVisitor for Free {
    fn atom(&mut self, a: &mut Atom) {
        if let Atom::Var(v) = a {
            self.uses.insert(v.clone());
        }
    }
    fn ty(&mut self, t: &mut Type) {
        let mut vs = Vec::new();
        weir_ir::visit::type_size_vars(t, &mut vs);
        self.uses.extend(vs.into_iter().map(String::from));
    }
    fn binder(&mut self, n: &mut Name) {
        self.binders.insert(n.clone());
    }
    fn fun_name(&mut self, n: &mut Name) {
        self.uses.insert(n.clone());
    }
}

/// Free variables of a statement (its expression and type).
pub fn free_vars(st: &Stmt) -> HashSet<Name> {
    let mut f = Free {
        uses: HashSet::new(),
        binders: HashSet::new(),
    };
    walk_exp_mut(&mut f, &mut st.exp.clone());
    f.ty(&mut st.ty.clone());
    f.uses.retain(|u| !f.binders.contains(u));
    f.uses
}

fn body_pass(b: Body, changed: &mut bool) -> Body {
    let mut out = Vec::with_capacity(b.stmts.len());
    for mut st in b.stmts {
        let hoisted = nested(&mut st.exp, changed);
        out.extend(hoisted);
        out.push(st);
    }
    Body {
        stmts: out,
        result: b.result,
    }
}

fn positive(a: &Atom) -> bool {
    matches!(a, Atom::Const(Const::I64(k)) if *k > 0)
}

/// Process the bodies nested in `e`; return the statements hoisted out of its loops.
fn nested(e: &mut Exp, changed: &mut bool) -> Vec<Stmt> {
    let mut hoisted = Vec::new();
    match e {
        Exp::If(_, t, f) => {
            *t = body_pass(std::mem::replace(t, empty_body()), changed);
            *f = body_pass(std::mem::replace(f, empty_body()), changed);
        }
        Exp::Prim(b, args) => {
            let loops = matches!(b, Builtin::Build | Builtin::IFold | Builtin::IReduce);
            let count = match b {
                Builtin::Build => args.first(),
                Builtin::IFold | Builtin::IReduce => args.get(2),
                _ => None,
            };
            let runs = matches!(count, Some(Arg::Atom(a)) if positive(a));
            for (k, a) in args.iter_mut().enumerate() {
                if let Arg::Fun(Fun::Lambda(l)) = a {
                    l.body = body_pass(std::mem::replace(&mut l.body, empty_body()), changed);
                    // the operator of ireduce runs n - 1 or n times; treat it as a loop too
                    let _ = k;
                    if loops {
                        let params: HashSet<Name> = l.params.iter().map(|p| p.0.clone()).collect();
                        hoisted.extend(hoist(&mut l.body, params, runs, changed));
                    }
                }
            }
        }
        Exp::Call(_, args) => {
            for a in args {
                if let Arg::Fun(Fun::Lambda(l)) = a {
                    l.body = body_pass(std::mem::replace(&mut l.body, empty_body()), changed);
                }
            }
        }
        Exp::Loop {
            state, form, body, ..
        } => {
            *body = body_pass(std::mem::replace(body, empty_body()), changed);
            let mut params: HashSet<Name> = HashSet::from([state.0.clone()]);
            let runs = match form {
                LoopForm::For(i, n) => {
                    params.insert(i.clone());
                    positive(n)
                }
                LoopForm::While(c) => {
                    *c = body_pass(std::mem::replace(c, empty_body()), changed);
                    false
                }
            };
            hoisted.extend(hoist(body, params, runs, changed));
        }
        _ => {}
    }
    hoisted
}

/// Move the invariant statements out of a loop body.
fn hoist(b: &mut Body, mut variant: HashSet<Name>, runs: bool, changed: &mut bool) -> Vec<Stmt> {
    let mut out = Vec::new();
    let mut keep = Vec::with_capacity(b.stmts.len());
    for st in std::mem::take(&mut b.stmts) {
        let free = free_vars(&st);
        let invariant = free.iter().all(|v| !variant.contains(v));
        let safe = !has_effect(&st.exp) && (runs || !can_fail(&st.exp));
        if invariant && safe {
            *changed = true;
            out.push(st);
        } else {
            variant.insert(st.var.clone());
            keep.push(st);
        }
    }
    b.stmts = keep;
    out
}
