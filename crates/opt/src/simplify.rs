//! The simplifier: applies the rule table of [`crate::rules`] to every statement,
//! and propagates copies (`let y = a` disappears; `y` becomes `a` everywhere,
//! sizes in types included).

use crate::rules::{Ctx, RULES, Rewrite};
use crate::util::*;
use std::collections::HashMap;
use weir_ir::*;

/// Each statement is rewritten at most this many times per run (rules can chain).
const MAX_REWRITES_PER_STMT: usize = 16;

pub fn run(prog: &mut Program) -> bool {
    let mut changed = false;
    for d in &mut prog.defs {
        let mut s = S {
            defs: HashMap::new(),
            types: type_env(d),
            subst: HashMap::new(),
            nonneg: d.size_params.iter().cloned().collect(),
            indexed_only: indexed_only(d),
            changed: false,
        };
        let body = std::mem::replace(&mut d.body, empty_body());
        d.body = s.body(body);
        changed |= s.changed;
    }
    changed
}

struct S {
    defs: HashMap<Name, Exp>,
    types: HashMap<Name, Type>,
    subst: HashMap<Name, Atom>,
    nonneg: std::collections::HashSet<Name>,
    /// The variables used only as the array of an index `x[i]` ([`indexed_only`]).
    indexed_only: std::collections::HashSet<Name>,
    changed: bool,
}

impl S {
    fn body(&mut self, b: Body) -> Body {
        let mut out = Vec::with_capacity(b.stmts.len());
        for mut st in b.stmts {
            subst_exp(&mut st.exp, &self.subst);
            subst_type(&mut st.ty, &self.subst);
            self.nested(&mut st.exp);
            for _ in 0..MAX_REWRITES_PER_STMT {
                let cx = Ctx {
                    defs: &self.defs,
                    types: &self.types,
                    nonneg: &self.nonneg,
                };
                let Some(rw) = RULES.iter().find_map(|(_, r)| r(&cx, &st)) else {
                    break;
                };
                self.changed = true;
                match rw {
                    Rewrite::Exp(e) => st.exp = e,
                    Rewrite::Splice(b) => {
                        // the branch was simplified already (by `nested`): its
                        // statements come first, then `st = result`
                        out.extend(b.stmts);
                        st.exp = Exp::Atom(b.result);
                    }
                }
                if matches!(st.exp, Exp::Atom(_)) {
                    break;
                }
            }
            if let Exp::Atom(a) = &st.exp {
                let a = match a {
                    Atom::Var(v) => self.subst.get(v).cloned().unwrap_or_else(|| a.clone()),
                    _ => a.clone(),
                };
                // (not where `a` would give the binder's uses a size its type
                // leaves unknown: `let y: []T = a` with `a: [2]T`, an `if`
                // folded to one branch: the uses were typed against the
                // unknown size, checked at run time, and may have met another
                // known size there (`pad` rows of `[0]` and a value of `[2]`:
                // a size mismatch at run time, not a contradiction in the IR))
                // (an array only indexed (`x[i]`, whose binder has its own
                // type) has no use a known size could contradict: fusion
                // then sees the index of the producer itself)
                if !refines_unknown(&st.ty, &atom_type(&a, &self.types))
                    || self.indexed_only.contains(&st.var)
                {
                    self.subst.insert(st.var.clone(), a);
                    self.changed = true;
                    continue;
                }
                st.exp = Exp::Atom(a);
            }
            self.types.insert(st.var.clone(), st.ty.clone());
            self.defs.insert(st.var.clone(), st.exp.clone());
            out.push(st);
        }
        let mut result = b.result;
        if let Atom::Var(v) = &result
            && let Some(r) = self.subst.get(v)
        {
            result = r.clone();
        }
        Body { stmts: out, result }
    }

    fn nested(&mut self, e: &mut Exp) {
        weir_ir::visit::for_each_nested_body(e, &mut |b| {
            *b = self.body(std::mem::replace(b, empty_body()));
        });
    }
}

/// The variables of `d` whose every use is as the array of an index
/// statement `y = x[i]` (no size in a type mentions them).
fn indexed_only(d: &FunDef) -> std::collections::HashSet<Name> {
    fn walk(b: &Body, n: &mut HashMap<Name, usize>) {
        for st in &b.stmts {
            if let Exp::Index(Atom::Var(x), _) = &st.exp {
                *n.entry(x.clone()).or_default() += 1;
            }
            weir_ir::visit::for_each_nested_body_ref(&st.exp, &mut |b| walk(b, n));
        }
    }
    let mut n = HashMap::new();
    walk(&d.body, &mut n);
    let all = weir_ir::visit::use_counts(d);
    n.into_iter()
        .filter(|(x, k)| all.get(x) == Some(k))
        .map(|(x, _)| x)
        .collect()
}

/// Does `t` (a value's own type) know a size that `binder` (the type it is
/// bound with) leaves unknown?
fn refines_unknown(binder: &Type, t: &Type) -> bool {
    match (binder, t) {
        (Type::Array(s, e), Type::Array(u, f)) => {
            (matches!(s, Size::Unknown) && !matches!(u, Size::Unknown)) || refines_unknown(e, f)
        }
        (Type::Tuple(xs), Type::Tuple(ys)) => xs.iter().zip(ys).any(|(x, y)| refines_unknown(x, y)),
        _ => false,
    }
}
