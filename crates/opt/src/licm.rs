//! Loop-invariant code motion (dps-views §5.4.2): a statement in the body of a
//! `build`, `ifold`, `ireduce` or `loop` that uses none of the loop's parameters
//! (index, accumulator, state) nor anything computed from them is moved just before
//! the loop, so it runs once instead of once per iteration.
//!
//! A statement that could fail (an index, a division, ...) moves only when the loop
//! is known to run at least once (a constant positive count) and nothing before it
//! in the body could fail: otherwise a loop of zero iterations would start
//! reporting an error it never reached, or an error would be reported before the
//! one the loop's first iteration reports first. Explicit checks never move.
//! Nothing moves out of `if` branches (that would compute what may not be needed).

use crate::util::*;
use std::collections::{HashMap, HashSet};
use weir_ir::visit::{MutVisitor, walk_exp_mut};
use weir_ir::*;

pub fn run(prog: &mut Program) -> bool {
    let mut changed = false;
    for d in &mut prog.defs {
        let mut cx = Cx {
            types: type_env(d),
            bounds: HashMap::new(),
            changed: false,
        };
        let body = std::mem::replace(&mut d.body, empty_body());
        d.body = cx.body_pass(body);
        changed |= cx.changed;
    }
    changed
}

/// What the pass knows where it is.
struct Cx {
    types: HashMap<Name, Type>,
    /// Loop indices and the loop's count: `i` in `0..n`.
    bounds: HashMap<Name, Atom>,
    changed: bool,
}

impl Cx {
    /// `a[i]` where `i` counts up to the length of `a` cannot fail.
    fn index_in_bounds(&self, e: &Exp) -> bool {
        match e {
            Exp::Index(a, Atom::Var(i)) => match (self.bounds.get(i), atom_type(a, &self.types)) {
                (Some(n), t) => size_at(&t, 0).and_then(size_atom).as_ref() == Some(n),
                _ => false,
            },
            _ => false,
        }
    }
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

impl Cx {
    fn body_pass(&mut self, b: Body) -> Body {
        let mut out = Vec::with_capacity(b.stmts.len());
        for mut st in b.stmts {
            let hoisted = self.nested(&mut st.exp);
            out.extend(hoisted);
            out.push(st);
        }
        Body {
            stmts: out,
            result: b.result,
        }
    }

    /// Process the bodies nested in `e`; return the statements hoisted out of its loops.
    fn nested(&mut self, e: &mut Exp) -> Vec<Stmt> {
        let mut hoisted = Vec::new();
        match e {
            Exp::If(_, t, f) => {
                *t = self.body_pass(std::mem::replace(t, empty_body()));
                *f = self.body_pass(std::mem::replace(f, empty_body()));
            }
            Exp::Prim(p) => {
                let lp = p.builtin().index_loop();
                let loops = lp.is_some();
                let count_atom = p.index_loop().map(|(n, _, _)| n.clone());
                let runs = matches!(&count_atom, Some(a) if positive(a));
                // Does the operator (the lambda that is not the loop's body)
                // surely run when the loop runs? ireduce's does, but computes
                // the first element before it first runs: a failing statement
                // of the operator moves only if the element cannot fail;
                // ireduce_by_index's runs only for indices in bounds: perhaps
                // never.
                let operator_runs = match p {
                    Prim::IReduce { f, .. } => match f {
                        Fun::Lambda(g) => !body_can_fail(&g.body),
                        Fun::Var(_) => false,
                    },
                    Prim::IReduceByIndex { .. } => false,
                    _ => true,
                };
                for (k, a) in p.args_mut().into_iter().enumerate() {
                    if let ArgMut::Fun(Fun::Lambda(l)) = a {
                        for (n, t) in &l.params {
                            self.types.insert(n.clone(), t.clone());
                        }
                        let is_body = lp.is_some_and(|(_, lk, _)| lk == k);
                        let index = lp
                            .filter(|_| is_body)
                            .and_then(|(_, _, pk)| l.params.get(pk));
                        if let (Some((i, _)), Some(n)) = (index, &count_atom) {
                            self.bounds.insert(i.clone(), n.clone());
                        }
                        l.body = self.body_pass(std::mem::replace(&mut l.body, empty_body()));
                        // (the operator of ireduce runs n times: a loop too)
                        let runs = runs && (is_body || operator_runs);
                        if loops {
                            let params: HashSet<Name> =
                                l.params.iter().map(|p| p.0.clone()).collect();
                            hoisted.extend(self.hoist(&mut l.body, params, runs));
                        }
                    }
                }
            }
            Exp::Call(_, args) => {
                for a in args {
                    if let Arg::Fun(Fun::Lambda(l)) = a {
                        l.body = self.body_pass(std::mem::replace(&mut l.body, empty_body()));
                    }
                }
            }
            Exp::Loop {
                state, form, body, ..
            } => {
                *body = self.body_pass(std::mem::replace(body, empty_body()));
                let mut params: HashSet<Name> = HashSet::from([state.0.clone()]);
                let runs = match form {
                    LoopForm::For(i, n) => {
                        params.insert(i.clone());
                        self.bounds.insert(i.clone(), n.clone());
                        positive(n)
                    }
                    LoopForm::While(c) => {
                        *c = self.body_pass(std::mem::replace(c, empty_body()));
                        false
                    }
                };
                hoisted.extend(self.hoist(body, params, runs));
            }
            _ => {}
        }
        hoisted
    }

    /// Move the invariant statements out of a loop body. A statement that could
    /// fail moves only when the loop surely runs and no statement before it in
    /// the body (that stays) could fail: then, in the first iteration, it was the
    /// first thing that could fail, and failing before the loop reports the same
    /// error.
    fn hoist(&mut self, b: &mut Body, mut variant: HashSet<Name>, runs: bool) -> Vec<Stmt> {
        let mut out = Vec::new();
        let mut keep = Vec::with_capacity(b.stmts.len());
        // a statement that stays in the body could fail before the next one
        let mut blocked = false;
        for st in std::mem::take(&mut b.stmts) {
            let free = free_vars(&st);
            let invariant = free.iter().all(|v| !variant.contains(v));
            let fails =
                has_effect(&st.exp) || (can_fail(&st.exp) && !self.index_in_bounds(&st.exp));
            let safe = !has_effect(&st.exp) && (!fails || (runs && !blocked));
            self.types.insert(st.var.clone(), st.ty.clone());
            if invariant && safe {
                self.changed = true;
                out.push(st);
            } else {
                blocked |= fails;
                variant.insert(st.var.clone());
                keep.push(st);
            }
        }
        b.stmts = keep;
        out
    }
}

fn positive(a: &Atom) -> bool {
    matches!(a, Atom::Const(Const::I64(k)) if *k > 0)
}
