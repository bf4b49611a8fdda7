//! Common-subexpression elimination: a pure expression computed again in the scope of
//! an identical earlier one (same operands, same type) becomes a copy of it. Scopes
//! follow the nesting: a lambda body sees what its enclosing bodies computed.
//! Expressions with nested bodies (lambdas, branches, loops) and explicit checks are
//! not merged.

use crate::util::*;
use std::collections::HashMap;
use weir_ir::*;

pub fn run(prog: &mut Program) -> bool {
    let mut changed = false;
    for d in &mut prog.defs {
        let mut c = Cse {
            scopes: vec![HashMap::new()],
            changed: false,
        };
        let body = std::mem::replace(&mut d.body, empty_body());
        d.body = c.body(body);
        changed |= c.changed;
    }
    changed
}

struct Cse {
    scopes: Vec<HashMap<String, Name>>,
    changed: bool,
}

/// The key of a mergeable expression, or `None`.
fn key(st: &Stmt) -> Option<String> {
    match &st.exp {
        Exp::Atom(_)
        | Exp::CheckSize(_)
        | Exp::Check(_)
        | Exp::If(..)
        | Exp::Loop { .. }
        | Exp::Apply(..) => None,
        Exp::Call(_, args) if args.iter().any(|a| matches!(a, Arg::Fun(_))) => None,
        Exp::Prim(p) if p.args().iter().any(|a| matches!(a, ArgRef::Fun(_))) => None,
        e => Some(format!("{e:?} : {:?}", st.ty)),
    }
}

impl Cse {
    fn lookup(&self, k: &str) -> Option<&Name> {
        self.scopes.iter().rev().find_map(|s| s.get(k))
    }

    fn body(&mut self, b: Body) -> Body {
        self.scopes.push(HashMap::new());
        let mut subst: HashMap<Name, Atom> = HashMap::new();
        let mut out = Vec::with_capacity(b.stmts.len());
        for mut st in b.stmts {
            subst_exp(&mut st.exp, &subst);
            subst_type(&mut st.ty, &subst);
            self.nested(&mut st.exp);
            if let Some(k) = key(&st) {
                if let Some(prev) = self.lookup(&k) {
                    subst.insert(st.var.clone(), Atom::Var(prev.clone()));
                    self.changed = true;
                    continue;
                }
                if let Some(top) = self.scopes.last_mut() {
                    top.insert(k, st.var.clone());
                }
            }
            out.push(st);
        }
        self.scopes.pop();
        let mut result = b.result;
        if let Atom::Var(v) = &result
            && let Some(r) = subst.get(v)
        {
            result = r.clone();
        }
        // later statements of enclosing bodies never see this body's names
        Body { stmts: out, result }
    }

    fn nested(&mut self, e: &mut Exp) {
        weir_ir::visit::for_each_nested_body(e, &mut |b| {
            *b = self.body(std::mem::replace(b, empty_body()));
        });
    }
}
